// Constructors for dispatch-table rows and the parameter validators they use.
// A row says which operations exist and how to set them up; operations.js
// turns a row plus a request into the call that is verified and timed.

import { invalidParams } from "./protocol.js";

// Fixed key / nonce lengths of the ciphers and AEADs (catalog/catalog.toml).
export const SHAPES = {
  "aes-128-ctr": { key: 16, nonce: 16 },
  "aes-256-ctr": { key: 32, nonce: 16 },
  "aes-128-gcm": { key: 16, nonce: 12 },
  "aes-256-gcm": { key: 32, nonce: 12 },
  "aes-128-ocb": { key: 16, nonce: 12 },
  "aes-256-ocb": { key: 32, nonce: 12 },
  "aes-128-gcm-siv": { key: 16, nonce: 12 },
  "aes-256-gcm-siv": { key: 32, nonce: 12 },
  "chacha20-poly1305": { key: 32, nonce: 12 },
  "xchacha20-poly1305": { key: 32, nonce: 24 },
};

// --- parameter validators: (name, value) -> normalised value, or throw ---

export function int(min, max = Number.MAX_SAFE_INTEGER) {
  return (name, v) => {
    if (!Number.isSafeInteger(v) || v < min || v > max) {
      throw invalidParams(`${name} must be an integer in [${min}, ${max}]`);
    }
    return v;
  };
}

// Seeds are unsigned integers of `bits` bits: a JSON number or a decimal string.
export function seed(bits) {
  const limit = 1n << BigInt(bits);
  return (name, v) => {
    let big;
    if (Number.isSafeInteger(v)) big = BigInt(v);
    else if (typeof v === "string" && /^[0-9]+$/.test(v)) big = BigInt(v);
    else throw invalidParams(`${name} must be a non-negative integer`);
    if (big >= limit) throw invalidParams(`${name} must be below 2^${bits}`);
    return big;
  };
}

export const OUT_LEN = { out_len: int(1, 1 << 24) };

// --- row constructors ---

// make(params) -> (msg) => bytes; may return a Promise (setup awaited once).
// `async`: (msg) returns a Promise, awaited inside the timed loop (WebCrypto).
export function digest(make, { params = {}, native, async = false } = {}) {
  return { kind: "digest", operations: ["digest"], params, make, native, async };
}

// keyed(key) -> (msg) => tag, made once (may return a Promise);
// oneShot(key, msg) -> tag is the fresh_context path (asyncFresh: it returns a Promise).
// `async`: both paths return Promises (WebCrypto).
// The operation `verify` (inputs key, msg, tag) is offered with either `verify`, the
// library's own check {keyed(key) -> (msg, tag) => bool, oneShot(key, msg, tag) -> bool}
// (as async as the mac paths), or `equal(computed, tag) -> bool`, the library's
// constant-time comparison run on the tag the (synchronous) mac paths compute.
export function mac({
  keyed,
  oneShot,
  verify,
  equal,
  reusesKey = true,
  asyncFresh = false,
  async = false,
  native,
}) {
  const check = verify ?? (equal ? compared(keyed, oneShot, equal) : undefined);
  return {
    kind: "mac",
    operations: check ? ["mac", "verify"] : ["mac"],
    params: {},
    keyed,
    oneShot,
    verify: check,
    reusesKey,
    asyncFresh: asyncFresh || async,
    async,
    native,
  };
}

// verify from the mac paths: the tag computed as `mac` does, then `equal` on it.
function compared(keyed, oneShot, equal) {
  const fromKeyed = (key) => {
    const fn = keyed(key);
    return (msg, tag) => equal(fn(msg), tag);
  };
  return { keyed: keyed && fromKeyed, oneShot: (key, msg, tag) => equal(oneShot(key, msg), tag) };
}

// make(key) -> {encrypt(nonce, msg), decrypt(nonce, ct)}.
// `async`: make and both calls return Promises (WebCrypto).
export function cipher(make, { reusesKey = true, native, async = false } = {}) {
  return { kind: "cipher", operations: ["encrypt", "roundtrip"], params: {}, make, reusesKey, native, async };
}

// make(key) -> {seal(nonce, aad, msg) -> ct‖tag, open(nonce, aad, ct‖tag) -> msg}.
// `async`: make, seal and open return Promises (WebCrypto).
export function aead(make, { reusesKey = true, native, async = false } = {}) {
  return {
    kind: "aead",
    operations: ["seal", "open", "roundtrip"],
    params: { aad_len: int(0) },
    make,
    reusesKey,
    native,
    async,
  };
}

// Password hashes and KDFs. ops: {hash, verify, derive}, each
// (inputs, params) -> () => output (setup outside the returned call).
// `async`: the calls return Promises.
export function password({ ops, params, takesSalt = true, async = false, native }) {
  return {
    kind: "password",
    operations: Object.keys(ops),
    params,
    ops,
    takesSalt,
    async,
    native,
  };
}
