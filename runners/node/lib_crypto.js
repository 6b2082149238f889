// node:crypto — Node's bindings to the OpenSSL it links (process.versions.openssl).
// One dispatch table: catalog id -> row. Rows whose OpenSSL name Node does not
// list at run time (getHashes()/getCiphers()) are dropped, not faked.

import crypto from "node:crypto";
import { OUT_LEN, aead, cipher, digest, int, mac, password } from "./entries.js";
import { authFailed } from "./protocol.js";
import { PUBKEY } from "./lib_crypto_pubkey.js";

// crypto.hash() (Node >= 20.12 / 21.7) skips the Hash object; older Nodes use createHash.
const ONE_SHOT = typeof crypto.hash === "function";

function hash(name) {
  const fn = ONE_SHOT
    ? (msg) => crypto.hash(name, msg, "buffer")
    : (msg) => crypto.createHash(name).update(msg).digest();
  return digest(() => fn, { native: name });
}

// XOFs need outputLength, which only createHash takes.
function xof(name) {
  const make = ({ out_len }) => {
    const options = { outputLength: out_len };
    return (msg) => crypto.createHash(name, options).update(msg).digest();
  };
  return digest(make, { params: OUT_LEN, native: name });
}

// Node has no keyed HMAC state to reuse: one Hmac object per message.
// verify: the same HMAC, then crypto.timingSafeEqual (it throws on unequal lengths,
// so another length is refused first: auth_failed).
const hmacSha256 = mac({
  oneShot: (key, msg) => crypto.createHmac("sha256", key).update(msg).digest(),
  equal: (computed, tag) => computed.length === tag.length && crypto.timingSafeEqual(computed, tag),
  reusesKey: false,
  native: "createHmac('sha256')",
});

// createCipheriv binds key and IV together: every message builds a new object.
function ctr(name) {
  const run = (key) => (nonce, data) => {
    const c = crypto.createCipheriv(name, key, nonce);
    return Buffer.concat([c.update(data), c.final()]);
  };
  const make = (key) => ({ encrypt: run(key), decrypt: run(key) });
  return cipher(make, { reusesKey: false, native: name });
}

const TAG = { authTagLength: 16 };

function aeadRow(name) {
  const seal = (key) => (nonce, aad, msg) => {
    const c = crypto.createCipheriv(name, key, nonce, TAG);
    if (aad.length > 0) c.setAAD(aad, { plaintextLength: msg.length });
    return Buffer.concat([c.update(msg), c.final(), c.getAuthTag()]);
  };
  const open = (key) => (nonce, aad, sealed) => {
    if (sealed.length < 16) throw authFailed("input shorter than the tag");
    const ctLen = sealed.length - 16;
    const d = crypto.createDecipheriv(name, key, nonce, TAG);
    d.setAuthTag(sealed.subarray(ctLen));
    if (aad.length > 0) d.setAAD(aad, { plaintextLength: ctLen });
    const head = d.update(sealed.subarray(0, ctLen));
    try {
      return Buffer.concat([head, d.final()]);
    } catch {
      throw authFailed("tag does not verify");
    }
  };
  return aead((key) => ({ seal: seal(key), open: open(key) }), { reusesKey: false, native: name });
}

// crypto.scrypt/pbkdf2 are async wrappers of the same code: the Sync forms are timed.
function scryptMaxmem(n, r, p) {
  return 128 * n * r * (p + 2) + (64 << 20);
}

const scrypt = password({
  ops: {
    derive: ({ password: pw, salt }, { n, r, p, out_len }) => {
      const options = { N: n, r, p, maxmem: scryptMaxmem(n, r, p) };
      return () => crypto.scryptSync(pw, salt, out_len, options);
    },
  },
  params: { n: int(2), r: int(1), p: int(1), out_len: int(1) },
  native: "scryptSync",
});

function pbkdf2(digestName) {
  return password({
    ops: {
      derive:
        ({ password: pw, salt }, { iterations, out_len }) =>
        () =>
          crypto.pbkdf2Sync(pw, salt, iterations, out_len, digestName),
    },
    params: { iterations: int(1), out_len: int(1) },
    native: `pbkdf2Sync('${digestName}')`,
  });
}

const TABLE = {
  md4: hash("md4"),
  md5: hash("md5"),
  sha1: hash("sha1"),
  sha224: hash("sha224"),
  sha256: hash("sha256"),
  sha384: hash("sha384"),
  sha512: hash("sha512"),
  "sha512-224": hash("sha512-224"),
  "sha512-256": hash("sha512-256"),
  "sha3-224": hash("sha3-224"),
  "sha3-256": hash("sha3-256"),
  "sha3-384": hash("sha3-384"),
  "sha3-512": hash("sha3-512"),
  shake128: xof("shake128"),
  shake256: xof("shake256"),
  "blake2b-512": hash("blake2b512"),
  "blake2s-256": hash("blake2s256"),
  ripemd160: hash("ripemd160"),
  whirlpool: hash("whirlpool"),
  sm3: hash("sm3"),
  "hmac-sha256": hmacSha256,
  "aes-128-ctr": ctr("aes-128-ctr"),
  "aes-256-ctr": ctr("aes-256-ctr"),
  "aes-128-gcm": aeadRow("aes-128-gcm"),
  "aes-256-gcm": aeadRow("aes-256-gcm"),
  "aes-128-ocb": aeadRow("aes-128-ocb"),
  "aes-256-ocb": aeadRow("aes-256-ocb"),
  "chacha20-poly1305": aeadRow("chacha20-poly1305"),
  scrypt,
  "pbkdf2-sha1": pbkdf2("sha1"),
  "pbkdf2-sha256": pbkdf2("sha256"),
  "pbkdf2-sha512": pbkdf2("sha512"),
  ...PUBKEY,
};

// A hash is offered when Node lists it and OpenSSL's providers can run it
// (md4/whirlpool sit in OpenSSL 3's legacy provider, which Node does not load).
function available(row) {
  if (row.kind === "digest") {
    if (!crypto.getHashes().includes(row.native)) return false;
    try {
      crypto.createHash(row.native, row.params.out_len ? { outputLength: 1 } : {}).digest();
      return true;
    } catch {
      return false;
    }
  }
  if (row.kind === "cipher" || row.kind === "aead") return crypto.getCiphers().includes(row.native);
  return true;
}

export function load() {
  const table = Object.fromEntries(Object.entries(TABLE).filter(([, row]) => available(row)));
  const openssl = process.versions.openssl;
  return {
    library: "crypto",
    version: process.versions.node,
    backend: { name: "openssl", version: openssl },
    code_path: `OpenSSL ${openssl} picks AES-NI/SHA-NI/AVX paths at run time (not queryable from Node)`,
    notes:
      (ONE_SHOT ? "digests via crypto.hash(); " : "digests via createHash() (no crypto.hash()); ") +
      "XOFs via createHash({outputLength}); HMAC/ciphers build one object per message " +
      "(Node cannot reuse a keyed context); scrypt/pbkdf2 timed through scryptSync/pbkdf2Sync",
    table,
  };
}
