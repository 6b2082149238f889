// Key encapsulation (docs/protocol.md, "Key encapsulation"): the row constructor and how a
// request becomes its calls. keygen (optional key_seed of the row's seed length) answers
// public key ‖ private key (the seed); encaps (public_key, optional 32-byte randomness)
// answers ciphertext ‖ shared secret; decaps (private_key = the seed, ciphertext) answers
// the shared secret — implicit rejection gives a secret, never an error. Our key is parsed
// once per case (in every call with fresh_context), as pubkey.js does.

import { badRequest, invalidParams, unsupported } from "./protocol.js";
import { keyedCall } from "./pubkey.js";
import { inline } from "./timing.js";

// keygen(seed|null) -> [public, seed]; loadPublic(public) -> E; encaps(E, m|null) -> Buffer
// ciphertext ‖ secret; loadSeed(seed) -> D; decaps(D, ct) -> secret.
export function kem({ seedSize, ctSize, keygen, loadPublic, encaps, loadSeed, decaps, native }) {
  const operations = ["keygen", "encaps", "decaps"];
  return {
    kind: "pubkey",
    operations,
    params: {},
    seedSize,
    ctSize,
    keygen,
    loadPublic,
    encaps,
    loadSeed,
    decaps,
    native,
  };
}

function sized(inputs, name, size) {
  const value = inputs[name] ?? null;
  if (value !== null && value.length !== size) {
    throw invalidParams(`${name} is ${value.length} bytes, not ${size}`);
  }
  return value;
}

function pair(keygen, seed) {
  const [pub, priv] = keygen(seed);
  return Buffer.concat([pub, priv]);
}

export function prepareKem(row, operation, inputs, params) {
  const fresh = params.fresh_context === true;
  if (operation === "keygen") {
    const env = { pair, keygen: row.keygen, seed: sized(inputs, "key_seed", row.seedSize) };
    const call = inline("pair(keygen, seed)", env);
    return { first: call, call, step: null, async: false, expr: "pair(keygen, seed)", env };
  }
  if (operation === "encaps") {
    if (inputs.public_key === undefined) throw badRequest("missing input public_key");
    const env = { encaps: row.encaps, m: sized(inputs, "randomness", 32) };
    return keyedCall(row.loadPublic, inputs.public_key, "public_key", "encaps(KEY, m)", env, fresh);
  }
  if (operation === "decaps") {
    if (inputs.private_key === undefined) throw badRequest("missing input private_key");
    if (inputs.ciphertext === undefined) throw badRequest("missing input ciphertext");
    sized(inputs, "private_key", row.seedSize);
    const env = { decaps: row.decaps, ct: sized(inputs, "ciphertext", row.ctSize) };
    return keyedCall(row.loadSeed, inputs.private_key, "private_key", "decaps(KEY, ct)", env, fresh);
  }
  throw unsupported(`${operation} is not a kem operation`);
}
