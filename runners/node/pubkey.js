// Key agreement and signatures (docs/protocol.md, "Public-key operations"): the row
// constructor and how a request becomes its calls. A row gives functions over the
// protocol's encodings; our key is parsed once per case (in every call with
// fresh_context), agree parses the peer's public key in every call.

import { authFailed, badRequest, invalidParams, unsupported } from "./protocol.js";
import { inline } from "./timing.js";

const OK = "ok";

// keygen(seed|null) -> [public, private]; kex rows: load(private), agree(key, peer);
// signature rows: loadPrivate, loadPublic, sign(key, msg), verify(key, msg, sig) -> bool.
export function kex({ keygen, load, agree, native }) {
  return { kind: "pubkey", operations: ["keygen", "agree"], params: {}, keygen, load, agree, native };
}

export function signature({ keygen, loadPrivate, loadPublic, sign, verify, native }) {
  const operations = ["keygen", "sign", "verify"];
  return { kind: "pubkey", operations, params: {}, keygen, loadPrivate, loadPublic, sign, verify, native };
}

function need(inputs, names) {
  for (const name of names) {
    if (inputs[name] === undefined) throw badRequest(`missing input ${name}`);
  }
}

// A library's refusal of a key is invalid_params, whatever its own error says.
function parsed(load, raw, name) {
  try {
    return load(raw);
  } catch (err) {
    throw invalidParams(`${name}: ${err.message}`);
  }
}

function seedOf(inputs, size = 32) {
  const seed = inputs.key_seed ?? null;
  if (seed !== null && seed.length !== size) {
    throw invalidParams(`key_seed is ${seed.length} bytes, not ${size}`);
  }
  return seed;
}

function pair(keygen, seed) {
  const [pub, priv] = keygen(seed);
  return Buffer.concat([pub, priv]);
}

function checked(verify) {
  return (key, msg, sig) => {
    if (!verify(key, msg, sig)) throw authFailed("signature does not verify");
    return OK;
  };
}

// The call as source over `key` (parsed once) or `load(raw)` (fresh_context).
export function keyedCall(load, raw, name, expr, env, fresh) {
  const full = fresh
    ? { load: (r) => parsed(load, r, name), raw, ...env }
    : { key: parsed(load, raw, name), ...env };
  const source = expr.replace("KEY", fresh ? "load(raw)" : "key");
  const call = inline(source, full);
  return { first: call, call, step: null, async: false, expr: source, env: full };
}

export function preparePubkey(row, operation, inputs, params) {
  const fresh = params.fresh_context === true;
  if (operation === "keygen") {
    const seed = seedOf(inputs, row.seedSize);
    const env = { pair, keygen: row.keygen, seed };
    const call = inline("pair(keygen, seed)", env);
    return { first: call, call, step: null, async: false, expr: "pair(keygen, seed)", env };
  }
  if (operation === "agree") {
    need(inputs, ["private_key", "peer_public_key"]);
    const env = { agree: row.agree, peer: inputs.peer_public_key };
    return keyedCall(row.load, inputs.private_key, "private_key", "agree(KEY, peer)", env, fresh);
  }
  if (operation === "sign") {
    need(inputs, ["private_key"]);
    if (row.signR !== undefined) return signWithRandomness(row, inputs, fresh);
    const env = { sign: row.sign, msg: inputs.msg ?? Buffer.alloc(0) };
    return keyedCall(row.loadPrivate, inputs.private_key, "private_key", "sign(KEY, msg)", env, fresh);
  }
  if (operation === "verify") {
    need(inputs, ["public_key", "signature"]);
    const env = { verify: checked(row.verify), msg: inputs.msg ?? Buffer.alloc(0), sig: inputs.signature };
    return keyedCall(row.loadPublic, inputs.public_key, "public_key", "verify(KEY, msg, sig)", env, fresh);
  }
  throw unsupported(`${operation} is not a public-key operation`);
}

// ML-DSA (FIPS 204): a row with signR(key, msg, rnd|null) signs with the optional 32-byte
// randomness (32 zero bytes: deterministic), hedged without it.
export function signatureR({ keygen, loadPrivate, loadPublic, signR, verify, native }) {
  const row = signature({
    keygen,
    loadPrivate,
    loadPublic,
    sign: (key, msg) => signR(key, msg, null),
    verify,
    native,
  });
  return { ...row, signR };
}

function signWithRandomness(row, inputs, fresh) {
  const rnd = inputs.randomness ?? null;
  const size = row.randomnessSize ?? 32;
  if (rnd !== null && rnd.length !== size)
    throw invalidParams(`randomness is ${rnd.length} bytes, not ${size}`);
  const env = { signR: row.signR, msg: inputs.msg ?? Buffer.alloc(0), rnd };
  return keyedCall(row.loadPrivate, inputs.private_key, "private_key", "signR(KEY, msg, rnd)", env, fresh);
}

// RSA has no standard key generation from a seed.
export function noSeed(seed) {
  if (seed !== null) throw unsupported("this key type has no key generation from a seed");
}

// A peer key the library refuses (not on the curve, a low-order point) is invalid_params.
export function refusedPeer(agree) {
  return (key, peer) => {
    try {
      return agree(key, peer);
    } catch (err) {
      throw invalidParams(`peer_public_key: ${err.message}`);
    }
  };
}
