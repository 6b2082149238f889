// Request -> response: hello, compute and bench over the loaded libraries.

import { digest } from "./entries.js";
import { hello } from "./hello.js";
import { leak } from "./leak.js";
import { loadInto } from "./libraries.js";
import { prepare } from "./operations.js";
import {
  badRequest,
  checkWork,
  decodeInputs,
  errorResponse,
  parseLine,
  toHex,
  unsupported,
} from "./protocol.js";
import { benchThreads, threadCount } from "./threads.js";
import { bench } from "./timing.js";

// noop: the message length as an 8-byte big-endian integer, written into one
// preallocated buffer, so its ns/op is this runner's dispatch + loop + call cost.
const NOOP = digest(() => {
  const out = Buffer.alloc(8);
  return (msg) => {
    out.writeUInt32BE(msg.length, 4);
    return out;
  };
});

export function findRow(libraries, { impl, primitive }) {
  if (impl !== undefined && !libraries.has(impl))
    throw unsupported(`no implementation ${impl} in this runner`);
  if (primitive === "noop") return NOOP;
  if (impl === undefined) throw badRequest("impl is required for primitives other than noop");
  const lib = libraries.get(impl);
  if (lib.skipped) throw unsupported(`${impl} is not available: ${lib.skipped}`);
  if (!Object.hasOwn(lib.table, primitive)) throw unsupported(`${impl} does not offer ${primitive}`);
  return lib.table[primitive];
}

const encode = (out) => (typeof out === "string" ? out : toHex(out));

// A digest's or a MAC's prepared operation, kept for the process under its request (the
// case and its inputs as sent), so a later bench request of the same case runs the same
// function on the same values through the loop its group's warm-up optimized (timing.js).
// A fresh operation per request gave each request a new loop, whose first batches ran in
// V8's lower tiers (docs/methodology.md, "Node.js: one loop per case"). Operations that
// step a nonce (AEADs, ciphers) or return promises are prepared again for every request.
const kept = new Map();

async function prepared(row, w, inputs, compute) {
  const keepable = !compute && (row.kind === "digest" || row.kind === "mac");
  const key = keepable ? JSON.stringify([w.impl, w.primitive, w.operation, w.params, w.inputs]) : null;
  if (key !== null && kept.has(key)) return kept.get(key);
  const op = await prepare(row, w.primitive, w.operation, inputs, w.params, { compute });
  if (key !== null && op.step === null && !op.async) kept.set(key, op);
  return op;
}

async function work(libraries, req) {
  const w = checkWork(req);
  const inputs = decodeInputs(w.inputs);
  const row = findRow(libraries, w);
  const op = await prepared(row, w, inputs, req.op === "compute");
  const output = encode(await op.first());
  if (req.op === "compute") return { output };
  const threads = threadCount(req);
  if (threads > 1) {
    const all = await benchThreads(req, threads);
    return { output, samples: all[0], thread_samples: all };
  }
  const samples = await bench(op, w.iterations, w.batches);
  return { output, samples };
}

// The libraries a request needs, loaded (awaited) before it is answered: a hello with `only`
// (docs/protocol.md) those, any other hello all, a request naming a library that one.
function needs(req) {
  if (req.op === "hello") return req.brief === true && Array.isArray(req.only) ? req.only : null;
  return typeof req.impl === "string" ? [req.impl] : [];
}

async function answer(libraries, id, req) {
  await loadInto(libraries, needs(req));
  switch (req.op) {
    case "hello":
      return hello(libraries);
    case "compute":
    case "bench":
      return work(libraries, req);
    case "leak":
      return leak(findRow, libraries, req);
    default:
      throw badRequest(`unknown op ${JSON.stringify(req.op)}`);
  }
}

export async function handleLine(libraries, line) {
  const { id, request, error } = parseLine(line);
  if (error) return errorResponse(id, error);
  try {
    return { id, ok: true, result: await answer(libraries, id, request) };
  } catch (err) {
    return errorResponse(id, err);
  }
}
