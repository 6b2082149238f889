// Turns a dispatch-table row and a request into a prepared operation
// {first, call, step, async, expr, env}: `first` is the untimed, verified call
// (inputs exactly as sent), `call` the timed one, `step` advances the
// nonce/counter before each timed call (docs/protocol.md, "Nonce stepping").
// Synchronous calls are also written as source (`expr` over the names in
// `env`): timing.js generates each bench's loop around that source.

import { SHAPES } from "./entries.js";
import { authFailed, badRequest, internal, invalidParams, unsupported } from "./protocol.js";
import { prepareKem } from "./kem.js";
import { preparePubkey } from "./pubkey.js";
import { inline } from "./timing.js";

// The timed call as source; `call` is the same source compiled to run once.
function sourced(expr, env, step = null) {
  return { call: inline(expr, env), step, async: false, expr, env };
}

function need(inputs, names) {
  for (const name of names) {
    if (inputs[name] === undefined) throw badRequest(`missing input ${name}`);
  }
}

// Validates params against the row's spec; fresh_context is always accepted.
function checkParams(row, params) {
  const out = { fresh_context: false };
  for (const [name, value] of Object.entries(params)) {
    if (name === "fresh_context") {
      if (typeof value !== "boolean") throw invalidParams("fresh_context must be a boolean");
      out.fresh_context = value;
    } else if (row.params[name]) {
      out[name] = row.params[name](name, value);
    } else {
      throw invalidParams(`parameter ${name} is not understood here`);
    }
  }
  for (const name of Object.keys(row.params)) {
    if (out[name] === undefined && name !== "aad_len") {
      throw invalidParams(`missing parameter ${name}`);
    }
  }
  return out;
}

// Big-endian increment of the last 4 bytes, wrapping (the nonce counter).
function stepper(buf) {
  const at = buf.length - 4;
  return () => buf.writeUInt32BE((buf.readUInt32BE(at) + 1) >>> 0, at);
}

function checkShape(primitive, inputs) {
  const shape = SHAPES[primitive];
  if (!shape) return;
  if (inputs.key.length !== shape.key) {
    throw invalidParams(`${primitive} takes a ${shape.key}-byte key, got ${inputs.key.length}`);
  }
  if (inputs.nonce.length !== shape.nonce) {
    throw invalidParams(`${primitive} takes a ${shape.nonce}-byte nonce, got ${inputs.nonce.length}`);
  }
}

// Keyed rows: the context is built once, or per message with fresh_context.
function context(row, key, fresh) {
  if (!fresh && !row.reusesKey) {
    throw unsupported("this API cannot reuse a key across messages: only fresh_context=true");
  }
  if (fresh) return () => row.make(key);
  const ctx = row.make(key);
  return () => ctx;
}

// The same context as source: `row.make(key)` per message, or the one made above.
function contextSource(row, key, ctx, fresh) {
  return fresh ? { src: "row.make(key)", env: { row, key } } : { src: "ctx", env: { ctx: ctx() } };
}

async function prepareDigest(row, inputs, params) {
  need(inputs, ["msg"]);
  const fn = await row.make(params);
  const { msg } = inputs;
  if (row.async === true) {
    const call = () => fn(msg);
    return { first: call, call, step: null, async: true };
  }
  const op = sourced("fn(msg)", { fn, msg });
  return { ...op, first: op.call };
}

// verify's outcome: "ok" when the library accepts the tag, else auth_failed.
function macOk(valid) {
  if (!valid) throw authFailed("tag does not verify");
  return "ok";
}

// A MAC row's call as source over `env` (msg; msg and tag for verify): keyed in
// every call with fresh_context (`row.oneShot(key, …)`), else on the key made once
// (`fn(…)`); `async` when that call returns a Promise. `fns`: the row's mac paths,
// or its `verify` paths.
async function macCall(row, fns, key, fresh, env) {
  const args = Object.keys(env).join(", ");
  if (fresh) {
    return { expr: `row.oneShot(key, ${args})`, env: { ...env, row: fns, key }, async: row.asyncFresh };
  }
  if (!row.reusesKey) {
    throw unsupported("this API cannot reuse a key across messages: only fresh_context=true");
  }
  const fn = await fns.keyed(key);
  return { expr: `fn(${args})`, env: { ...env, fn }, async: row.async === true };
}

// mac: fn(msg) -> tag.
async function prepareMac(row, inputs, params) {
  need(inputs, ["key", "msg"]);
  const c = await macCall(row, row, inputs.key, params.fresh_context, { msg: inputs.msg });
  if (c.async) {
    const call = inline(c.expr, c.env);
    return { first: call, call, step: null, async: true };
  }
  const op = sourced(c.expr, c.env);
  return { ...op, first: op.call };
}

// verify: the row's `verify` paths, fn(msg, tag) -> bool, checked by macOk.
async function prepareMacVerify(row, inputs, params) {
  need(inputs, ["key", "msg", "tag"]);
  const { key, msg, tag } = inputs;
  const c = await macCall(row, row.verify, key, params.fresh_context, { msg, tag });
  if (c.async) {
    const run = inline(c.expr, c.env);
    const call = async () => macOk(await run());
    return { first: call, call, step: null, async: true };
  }
  const op = sourced(`macOk(${c.expr})`, { macOk, ...c.env });
  return { ...op, first: op.call };
}

function sameBytes(a, b) {
  return Buffer.from(a.buffer, a.byteOffset, a.length).equals(b);
}

function prepareCipher(row, primitive, operation, inputs, params) {
  need(inputs, ["key", "nonce", "msg"]);
  checkShape(primitive, inputs);
  const ctx = context(row, inputs.key, params.fresh_context);
  const nonce = Buffer.from(inputs.nonce);
  const { msg } = inputs;
  const c = contextSource(row, inputs.key, ctx, params.fresh_context);
  const env = { ...c.env, nonce, msg };
  const encrypt = `${c.src}.encrypt(nonce, msg)`;
  if (operation === "encrypt") {
    const op = sourced(encrypt, env, stepper(nonce));
    return { ...op, first: op.call };
  }
  const first = () => {
    const ct = ctx().encrypt(nonce, msg);
    if (!sameBytes(ctx().decrypt(nonce, ct), msg)) throw internal("decrypt did not give msg back");
    return ct;
  };
  return { ...sourced(`${c.src}.decrypt(nonce, ${encrypt})`, env, stepper(nonce)), first };
}

// Absent means empty; the aad sent is the AAD, aad_len only labels the case (protocol.md).
function aadOf(inputs) {
  return inputs.aad ?? Buffer.alloc(0);
}

function prepareAead(row, primitive, operation, inputs, params) {
  need(inputs, ["key", "nonce", "msg"]);
  checkShape(primitive, inputs);
  const { msg } = inputs;
  const aad = aadOf(inputs);
  const ctx = context(row, inputs.key, params.fresh_context);
  const nonce = Buffer.from(inputs.nonce);
  const c = contextSource(row, inputs.key, ctx, params.fresh_context);
  const env = { ...c.env, nonce, aad, msg };
  if (operation === "open") {
    const op = sourced(`${c.src}.open(nonce, aad, msg)`, env);
    return { ...op, first: op.call };
  }
  const seal = `${c.src}.seal(nonce, aad, msg)`;
  if (operation === "seal") {
    const op = sourced(seal, env, stepper(nonce));
    return { ...op, first: op.call };
  }
  const first = () => {
    const ct = ctx().seal(nonce, aad, msg);
    if (!sameBytes(ctx().open(nonce, aad, ct), msg)) throw internal("open did not give msg back");
    return ct;
  };
  return { ...sourced(`${c.src}.open(nonce, aad, ${seal})`, env, stepper(nonce)), first };
}

// Async rows (WebCrypto): the key is imported once (awaited here) or per message
// with fresh_context; every timed call is one awaited Promise chain.
async function asyncContext(row, key, fresh) {
  if (fresh) return () => row.make(key);
  const ctx = await row.make(key);
  return () => ctx;
}

async function prepareCipherAsync(row, primitive, operation, inputs, params) {
  need(inputs, ["key", "nonce", "msg"]);
  checkShape(primitive, inputs);
  const ctx = await asyncContext(row, inputs.key, params.fresh_context);
  const nonce = Buffer.from(inputs.nonce);
  const { msg } = inputs;
  const encrypt = async () => (await ctx()).encrypt(nonce, msg);
  if (operation === "encrypt") {
    return { first: encrypt, call: encrypt, step: stepper(nonce), async: true };
  }
  const first = async () => {
    const ct = await encrypt();
    if (!sameBytes(await (await ctx()).decrypt(nonce, ct), msg))
      throw internal("decrypt did not give msg back");
    return ct;
  };
  const call = async () => (await ctx()).decrypt(nonce, await encrypt());
  return { first, call, step: stepper(nonce), async: true };
}

async function prepareAeadAsync(row, primitive, operation, inputs, params) {
  need(inputs, ["key", "nonce", "msg"]);
  checkShape(primitive, inputs);
  const { msg } = inputs;
  const aad = aadOf(inputs);
  const ctx = await asyncContext(row, inputs.key, params.fresh_context);
  const nonce = Buffer.from(inputs.nonce);
  if (operation === "open") {
    const call = async () => (await ctx()).open(nonce, aad, msg);
    return { first: call, call, step: null, async: true };
  }
  const seal = async () => (await ctx()).seal(nonce, aad, msg);
  if (operation === "seal") return { first: seal, call: seal, step: stepper(nonce), async: true };
  const first = async () => {
    const ct = await seal();
    if (!sameBytes(await (await ctx()).open(nonce, aad, ct), msg))
      throw internal("open did not give msg back");
    return ct;
  };
  const call = async () => (await ctx()).open(nonce, aad, await seal());
  return { first, call, step: stepper(nonce), async: true };
}

const PASSWORD_INPUTS = {
  hash: ["password", "salt"],
  verify: ["password", "encoded"],
  derive: ["password", "salt"],
};

async function preparePassword(row, operation, inputs, params) {
  need(inputs, PASSWORD_INPUTS[operation]);
  const call = await row.ops[operation](inputs, params);
  return { first: call, call, step: null, async: row.async };
}

// `compute` ignores fresh_context (docs/protocol.md): a row that cannot reuse
// a key computes through its per-message path whatever was sent.
export async function prepare(row, primitive, operation, inputs, rawParams, { compute = false } = {}) {
  if (!row.operations.includes(operation)) {
    throw unsupported(`${primitive}/${operation} is not offered`);
  }
  const params = checkParams(row, rawParams);
  if (compute && row.reusesKey === false) params.fresh_context = true;
  switch (row.kind) {
    case "digest":
      return prepareDigest(row, inputs, params);
    case "mac":
      return (operation === "verify" ? prepareMacVerify : prepareMac)(row, inputs, params);
    case "cipher":
      return (row.async ? prepareCipherAsync : prepareCipher)(row, primitive, operation, inputs, params);
    case "aead":
      return (row.async ? prepareAeadAsync : prepareAead)(row, primitive, operation, inputs, params);
    case "pubkey":
      if (row.encaps !== undefined) return prepareKem(row, operation, inputs, params);
      return preparePubkey(row, operation, inputs, params);
    default:
      return preparePassword(row, operation, inputs, params);
  }
}
