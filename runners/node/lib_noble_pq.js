// @noble/post-quantum — audited pure-JavaScript ML-KEM (FIPS 203), ML-DSA (FIPS 204) and
// SLH-DSA (FIPS 205).
// ESM-only with ".js" subpath exports: libraries.js imports this module only on a Node that
// satisfies its "engines" field (>= 20.19). node:crypto has no ML-KEM or ML-DSA on Node 20
// (its OpenSSL 3.0 has neither; OpenSSL 3.5 brought them): these are the runtime's only rows.
//
// noble's secret keys are the expanded FIPS 203 form: the protocol's seed form (d‖z) is kept
// by expanding it with keygen(seed) when the key is parsed. encaps with a parsed key uses
// prepare(publicKey) (the validated key with its matrix expanded once, noble's own API for a
// reused encapsulation key); decapsulate decodes the expanded key per call, as noble does.

import { ml_dsa44, ml_dsa65, ml_dsa87 } from "@noble/post-quantum/ml-dsa.js";
import { ml_kem1024, ml_kem512, ml_kem768 } from "@noble/post-quantum/ml-kem.js";
import { slh_dsa_sha2_128f, slh_dsa_sha2_128s, slh_dsa_shake_128f } from "@noble/post-quantum/slh-dsa.js";
import { kem } from "./kem.js";
import { signatureR } from "./pubkey.js";
import { packageVersion } from "./packages.js";

const VERSION = packageVersion("@noble/post-quantum");

// keygen(seed|null) -> [public, seed]: the seed (a fresh one without key_seed) is the private
// key noble's keygen(seed) expands.
function seedKeygen(alg, seedSize) {
  return (seed) => {
    const s = seed ?? crypto.getRandomValues(new Uint8Array(seedSize));
    return [Buffer.from(alg.keygen(s).publicKey), Buffer.from(s)];
  };
}

function mlkem(ml, name) {
  const { seed: seedSize, cipherText: ctSize } = ml.lengths;
  return kem({
    seedSize,
    ctSize,
    keygen: seedKeygen(ml, seedSize),
    loadPublic: (pk) => ml.prepare(pk),
    encaps: (key, m) => {
      const { cipherText, sharedSecret } = m === null ? key.encapsulate() : key.encapsulate(m);
      return Buffer.concat([cipherText, sharedSecret]);
    },
    loadSeed: (seed) => ml.keygen(seed).secretKey,
    decaps: (secretKey, ct) => Buffer.from(ml.decapsulate(ct, secretKey)),
    native: `${name}.keygen/prepare/encapsulate/decapsulate (@noble/post-quantum)`,
  });
}

// A pure, empty-context signature row over noble's seed form: the private key (`privateForm`,
// lengths.seed bytes) is expanded with keygen(seed) when parsed; sign is hedged (noble's fresh
// randomness) or, with a randomness (lengths.signRand bytes), extraEntropy = randomness.
function seedSigner(alg, name, privateForm) {
  const { seed: seedSize, publicKey: publicSize, signRand } = alg.lengths;
  const row = signatureR({
    keygen: seedKeygen(alg, seedSize),
    loadPrivate: (seed) => {
      if (seed.length !== seedSize)
        throw new Error(`${privateForm} is ${seedSize} bytes, not ${seed.length}`);
      return alg.keygen(seed).secretKey;
    },
    loadPublic: (pk) => {
      if (pk.length !== publicSize)
        throw new Error(`the public key is ${publicSize} bytes, not ${pk.length}`);
      return pk;
    },
    signR: (secretKey, msg, rnd) =>
      Buffer.from(rnd === null ? alg.sign(msg, secretKey) : alg.sign(msg, secretKey, { extraEntropy: rnd })),
    verify: (pk, msg, sig) => {
      try {
        return alg.verify(sig, msg, pk);
      } catch {
        return false; // a malformed signature (a wrong length) is a signature that does not verify
      }
    },
    native: `${name}.keygen/sign/verify (@noble/post-quantum)`,
  });
  return { ...row, seedSize, randomnessSize: signRand };
}

// ML-DSA (FIPS 204): the seed ξ (32 bytes); a randomness of 32 zero bytes is the
// deterministic variant.
const mldsa = (ml, name) => seedSigner(ml, name, "an ML-DSA private key (seed)");

// SLH-DSA (FIPS 205): SK.seed‖SK.prf‖PK.seed (3n bytes), expanded to noble's 4n-byte secret
// key (‖ PK.root); a randomness (n bytes) of PK.seed is the deterministic variant.
const slhdsa = (slh, name) => seedSigner(slh, name, "an SLH-DSA private key (SK.seed||SK.prf||PK.seed)");

const TABLE = {
  "ml-dsa-44": mldsa(ml_dsa44, "ml_dsa44"),
  "ml-dsa-65": mldsa(ml_dsa65, "ml_dsa65"),
  "ml-dsa-87": mldsa(ml_dsa87, "ml_dsa87"),
  "ml-kem-512": mlkem(ml_kem512, "ml_kem512"),
  "ml-kem-768": mlkem(ml_kem768, "ml_kem768"),
  "ml-kem-1024": mlkem(ml_kem1024, "ml_kem1024"),
  "slh-dsa-sha2-128s": slhdsa(slh_dsa_sha2_128s, "slh_dsa_sha2_128s"),
  "slh-dsa-sha2-128f": slhdsa(slh_dsa_sha2_128f, "slh_dsa_sha2_128f"),
  "slh-dsa-shake-128f": slhdsa(slh_dsa_shake_128f, "slh_dsa_shake_128f"),
};

export function load() {
  return {
    library: "noble-pq",
    version: VERSION,
    backend: { name: "pure-js", version: `@noble/post-quantum ${VERSION}` },
    code_path: `JavaScript on V8 ${process.versions.v8}`,
    notes:
      "ML-KEM, ML-DSA and SLH-DSA from @noble/post-quantum; private keys travel as the seed (64 B, 32 B, 3n B) " +
      "and are expanded with keygen(seed) when parsed; node:crypto on Node 20 offers neither",
    table: TABLE,
  };
}
