// node:crypto's public-key rows (added to lib_crypto's table): X25519 and Ed25519 KeyObjects
// (raw keys wrapped in their RFC 8410 DER forms), ECDH P-256 through createECDH, ECDSA P-256
// through JWK KeyObjects and crypto.sign/verify (dsaEncoding der or ieee-p1363), RSA-PSS and
// PKCS#1 v1.5 through DER SubjectPublicKeyInfo / PKCS#8 KeyObjects.

import crypto from "node:crypto";
import { kex, noSeed, refusedPeer, signature } from "./pubkey.js";

// RFC 8410 DER prefixes: PKCS#8 and SubjectPublicKeyInfo around a raw 32-byte key.
const PREFIX = {
  x25519: { pkcs8: "302e020100300506032b656e04220420", spki: "302a300506032b656e032100" },
  ed25519: { pkcs8: "302e020100300506032b657004220420", spki: "302a300506032b6570032100" },
};

const b64 = (buf) => Buffer.from(buf).toString("base64url");
const raw = (s) => Buffer.from(s, "base64url");

// A fresh key pair, exported by generateKeyPairSync itself (as JWK). Not
// generateKeyPairSync(type).privateKey.export(): Node 20's key-generation job shares the key's
// mutex, and export holds that mutex while it allocates; when that allocation collects the
// finished job, its destructor takes the same mutex and the main thread deadlocks (seen in
// gdb: ExportJWKEdKey -> GC -> ~KeyGenJob -> uv_mutex_lock; docs/methodology.md, "Rounds").
function generatedJwk(type, options = {}) {
  const encoding = { publicKeyEncoding: { format: "jwk" }, privateKeyEncoding: { format: "jwk" } };
  return crypto.generateKeyPairSync(type, { ...options, ...encoding }).privateKey;
}

function rawKeys(type) {
  const wrap = (kind, bytes) => {
    if (bytes.length !== 32) throw new Error(`a ${type} key is 32 bytes, not ${bytes.length}`);
    return Buffer.concat([Buffer.from(PREFIX[type][kind], "hex"), bytes]);
  };
  const loadPrivate = (bytes) =>
    crypto.createPrivateKey({ key: wrap("pkcs8", bytes), format: "der", type: "pkcs8" });
  const loadPublic = (bytes) =>
    crypto.createPublicKey({ key: wrap("spki", bytes), format: "der", type: "spki" });
  const keygen = (seed) => {
    const jwk = seed === null ? generatedJwk(type) : loadPrivate(seed).export({ format: "jwk" });
    return [raw(jwk.x), raw(jwk.d)];
  };
  return { loadPrivate, loadPublic, keygen };
}

const x = rawKeys("x25519");
const ed = rawKeys("ed25519");

const x25519 = kex({
  keygen: x.keygen,
  load: x.loadPrivate,
  agree: refusedPeer((key, peer) => crypto.diffieHellman({ privateKey: key, publicKey: x.loadPublic(peer) })),
  native: "crypto.diffieHellman (x25519 KeyObjects)",
});

const ed25519 = signature({
  ...ed,
  sign: (key, msg) => crypto.sign(null, msg, key),
  verify: (key, msg, sig) => crypto.verify(null, msg, key, sig),
  native: "crypto.sign/verify(null, …, ed25519 KeyObject)",
});

// P-256: raw scalars and SEC1 points (createECDH speaks them natively).
function p256Point(bytes) {
  if (bytes.length !== 65 || bytes[0] !== 4) {
    throw new Error("public keys are uncompressed SEC1 points (04||X||Y)");
  }
  return bytes;
}

function pad32(buf) {
  return buf.length >= 32 ? buf : Buffer.concat([Buffer.alloc(32 - buf.length), buf]);
}

function ecdhOf(scalar) {
  if (scalar.length !== 32) throw new Error(`a P-256 private key is 32 bytes, not ${scalar.length}`);
  const ecdh = crypto.createECDH("prime256v1");
  ecdh.setPrivateKey(scalar);
  return ecdh;
}

function ecdhKeygen(seed) {
  const ecdh = seed === null ? crypto.createECDH("prime256v1") : ecdhOf(seed);
  if (seed === null) ecdh.generateKeys();
  return [ecdh.getPublicKey(), pad32(ecdh.getPrivateKey())];
}

const ecdhP256 = kex({
  keygen: ecdhKeygen,
  load: ecdhOf,
  agree: refusedPeer((ecdh, peer) => ecdh.computeSecret(p256Point(peer))),
  native: "crypto.createECDH('prime256v1').computeSecret",
});

const jwkOf = (point) => ({
  kty: "EC",
  crv: "P-256",
  x: b64(point.subarray(1, 33)),
  y: b64(point.subarray(33)),
});

function ecdsa(dsaEncoding) {
  return signature({
    keygen: (seed) => {
      if (seed !== null) return ecdhKeygen(seed);
      const jwk = generatedJwk("ec", { namedCurve: "P-256" });
      return [Buffer.concat([Buffer.from([4]), raw(jwk.x), raw(jwk.y)]), raw(jwk.d)];
    },
    loadPrivate: (scalar) => {
      const point = ecdhOf(scalar).getPublicKey();
      return crypto.createPrivateKey({ key: { ...jwkOf(point), d: b64(scalar) }, format: "jwk" });
    },
    loadPublic: (point) => crypto.createPublicKey({ key: jwkOf(p256Point(point)), format: "jwk" }),
    sign: (key, msg) => crypto.sign("sha256", msg, { key, dsaEncoding }),
    verify: (key, msg, sig) => {
      try {
        return crypto.verify("sha256", msg, { key, dsaEncoding }, sig);
      } catch {
        return false; // a signature OpenSSL cannot even decode
      }
    },
    native: `crypto.sign('sha256', …, {dsaEncoding: '${dsaEncoding}'})`,
  });
}

function rsa(bits, pss) {
  const opts = pss ? { padding: crypto.constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 } : {};
  const sized = (key) => {
    if (key.asymmetricKeyType !== "rsa" || key.asymmetricKeyDetails.modulusLength !== bits) {
      throw new Error(`not an RSA-${bits} key`);
    }
    return key;
  };
  return signature({
    keygen: (seed) => {
      noSeed(seed);
      const { publicKey, privateKey } = crypto.generateKeyPairSync("rsa", {
        modulusLength: bits,
        publicExponent: 65537,
        publicKeyEncoding: { type: "spki", format: "der" },
        privateKeyEncoding: { type: "pkcs8", format: "der" },
      });
      return [publicKey, privateKey];
    },
    loadPrivate: (der) => sized(crypto.createPrivateKey({ key: der, format: "der", type: "pkcs8" })),
    loadPublic: (der) => sized(crypto.createPublicKey({ key: der, format: "der", type: "spki" })),
    sign: (key, msg) => crypto.sign("sha256", msg, { key, ...opts }),
    verify: (key, msg, sig) => {
      try {
        return crypto.verify("sha256", msg, { key, ...opts }, sig);
      } catch {
        return false;
      }
    },
    native: pss
      ? "crypto.sign('sha256', …, RSA_PKCS1_PSS_PADDING, saltLength 32)"
      : "crypto.sign('sha256', …) (PKCS#1 v1.5)",
  });
}

export const PUBKEY = {
  x25519,
  "ecdh-p256": ecdhP256,
  ed25519,
  "ecdsa-p256-sha256": ecdsa("der"),
  "ecdsa-p256-sha256-p1363": ecdsa("ieee-p1363"),
  "rsa-2048-pss-sha256": rsa(2048, true),
  "rsa-3072-pss-sha256": rsa(3072, true),
  "rsa-2048-pkcs1-sha256": rsa(2048, false),
};
