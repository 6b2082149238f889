// Protocol v1 framing helpers: error kinds, request validation, hex codecs
// (docs/protocol.md). No crypto here.
import { MAX_BATCHES, MAX_ITERATIONS } from "./limits.js";
import { expand, isGenerated } from "./msggen.js";
import { ProtocolError, authFailed, badRequest, internal, invalidParams, unsupported } from "./errors.js";

// Re-exported: the files that speak the protocol take its errors from here.
export { ProtocolError, authFailed, badRequest, internal, invalidParams, unsupported };

const HEX = /^(?:[0-9a-fA-F]{2})*$/;

export function fromHex(name, value) {
  if (typeof value !== "string" || !HEX.test(value)) {
    throw badRequest(`input ${name} is not a hex string`);
  }
  return Buffer.from(value, "hex");
}

export function toHex(bytes) {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("hex");
}

// Node's and the libraries' rejections of a value (wrong key length, N not a
// power of two, …) become invalid_params; anything else is internal.
const PARAM_CODES = /^ERR_(OUT_OF_RANGE|INVALID_ARG_|CRYPTO_INVALID_|CRYPTO_SCRYPT_)/;
const PARAM_WORDS = /invalid|must|should|expected|too (?:long|short|large|small)|out of range|range/i;

export function classify(err) {
  if (err instanceof ProtocolError) return err;
  const message = String(err?.message ?? err);
  const code = typeof err?.code === "string" ? err.code : "";
  if (PARAM_CODES.test(code) || err instanceof RangeError || PARAM_WORDS.test(message)) {
    return invalidParams(message);
  }
  return internal(message);
}

export function errorResponse(id, err) {
  const e = classify(err);
  return { id, ok: false, error: { kind: e.kind, message: e.message } };
}

function isObject(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function positiveInt(req, name, max) {
  const v = req[name];
  if (!Number.isInteger(v) || v < 1) throw badRequest(`${name} must be a positive integer`);
  if (v > max) throw invalidParams(`${name} must be at most ${max}`);
  return v;
}

// Parses one line into {id, request}; throws {id, error} shaped ProtocolErrors.
export function parseLine(line) {
  let req;
  try {
    req = JSON.parse(line);
  } catch {
    return { id: null, error: badRequest("not JSON") };
  }
  if (!isObject(req)) return { id: null, error: badRequest("not a JSON object") };
  const id = Number.isSafeInteger(req.id) ? req.id : null;
  if (id === null) return { id, error: badRequest("missing or non-integer id") };
  return { id, request: req };
}

// Checks the fields of a compute/bench request; returns a normalised copy.
export function checkWork(req) {
  for (const name of ["primitive", "operation"]) {
    if (typeof req[name] !== "string") throw badRequest(`${name} must be a string`);
  }
  if (req.impl !== undefined && typeof req.impl !== "string") {
    throw badRequest("impl must be a string");
  }
  if (!isObject(req.inputs)) throw badRequest("inputs must be an object");
  if (req.params !== undefined && !isObject(req.params)) {
    throw badRequest("params must be an object");
  }
  const work = {
    impl: req.impl,
    primitive: req.primitive,
    operation: req.operation,
    inputs: req.inputs,
    params: req.params ?? {},
  };
  if (req.op === "bench") {
    work.iterations = positiveInt(req, "iterations", MAX_ITERATIONS);
    work.batches = positiveInt(req, "batches", MAX_BATCHES);
  }
  return work;
}

// Decodes every input except `encoded` (a password-hash string) from hex.
export function decodeInputs(inputs) {
  const out = {};
  for (const [name, value] of Object.entries(inputs)) {
    if (name === "encoded") {
      if (typeof value !== "string") throw badRequest("input encoded must be a string");
      out.encoded = value;
    } else if (name === "msg" && isGenerated(value)) {
      out.msg = expand(value);
    } else {
      out[name] = fromHex(name, value);
    }
  }
  return out;
}
