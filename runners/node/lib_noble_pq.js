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

function mlkem(ml, name) {
  const { seed: seedSize, cipherText: ctSize } = ml.lengths;
  return kem({
    seedSize,
    ctSize,
    keygen: (seed) => {
      const s = seed ?? crypto.getRandomValues(new Uint8Array(seedSize));
      return [Buffer.from(ml.keygen(s).publicKey), Buffer.from(s)];
    },
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

// ML-DSA (FIPS 204), pure, empty context: the seed ξ is expanded with keygen(seed) when
// the key is parsed; sign is hedged (noble's default fresh rnd) or, with a randomness,
// extraEntropy = rnd (32 zero bytes: the deterministic variant).
function mldsa(ml, name) {
  const seedSize = ml.lengths.seed;
  const sizes = { public: ml.lengths.publicKey };
  return signatureR({
    keygen: (seed) => {
      const s = seed ?? crypto.getRandomValues(new Uint8Array(seedSize));
      return [Buffer.from(ml.keygen(s).publicKey), Buffer.from(s)];
    },
    loadPrivate: (seed) => {
      if (seed.length !== seedSize)
        throw new Error(`an ML-DSA private key (seed) is ${seedSize} bytes, not ${seed.length}`);
      return ml.keygen(seed).secretKey;
    },
    loadPublic: (pk) => {
      if (pk.length !== sizes.public)
        throw new Error(`the public key is ${sizes.public} bytes, not ${pk.length}`);
      return pk;
    },
    signR: (secretKey, msg, rnd) =>
      Buffer.from(rnd === null ? ml.sign(msg, secretKey) : ml.sign(msg, secretKey, { extraEntropy: rnd })),
    verify: (pk, msg, sig) => {
      try {
        return ml.verify(sig, msg, pk);
      } catch {
        return false; // a malformed signature (a wrong length) is a signature that does not verify
      }
    },
    native: `${name}.keygen/sign/verify (@noble/post-quantum)`,
  });
}

// SLH-DSA (FIPS 205), pure, empty context: the private key travels as SK.seed‖SK.prf‖PK.seed
// (3n bytes, noble's keygen(seed) input), expanded to noble's 4n-byte secret key (‖ PK.root)
// when parsed; sign is hedged (a fresh n-byte opt_rand) or, with a randomness (n bytes),
// extraEntropy = opt_rand (PK.seed: the deterministic variant).
function slhdsa(slh, name) {
  const { seed: seedSize, publicKey: publicSize, signRand } = slh.lengths;
  const row = signatureR({
    keygen: (seed) => {
      const s = seed ?? crypto.getRandomValues(new Uint8Array(seedSize));
      return [Buffer.from(slh.keygen(s).publicKey), Buffer.from(s)];
    },
    loadPrivate: (seed) => {
      if (seed.length !== seedSize)
        throw new Error(
          `an SLH-DSA private key (SK.seed||SK.prf||PK.seed) is ${seedSize} bytes, not ${seed.length}`,
        );
      return slh.keygen(seed).secretKey;
    },
    loadPublic: (pk) => {
      if (pk.length !== publicSize)
        throw new Error(`the public key is ${publicSize} bytes, not ${pk.length}`);
      return pk;
    },
    signR: (secretKey, msg, rnd) =>
      Buffer.from(rnd === null ? slh.sign(msg, secretKey) : slh.sign(msg, secretKey, { extraEntropy: rnd })),
    verify: (pk, msg, sig) => {
      try {
        return slh.verify(sig, msg, pk);
      } catch {
        return false; // a malformed signature (a wrong length) is a signature that does not verify
      }
    },
    native: `${name}.keygen/sign/verify (@noble/post-quantum)`,
  });
  return { ...row, seedSize, randomnessSize: signRand };
}

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
