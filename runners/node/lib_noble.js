// @noble/hashes + @noble/ciphers — audited pure-JavaScript implementations.
// ESM-only with ".js" subpath exports: libraries.js imports this module only on
// a Node that satisfies their "engines" field. Everything timed is synchronous.

import { ctr, gcm, gcmsiv } from "@noble/ciphers/aes.js";
import { chacha20poly1305, xchacha20poly1305 } from "@noble/ciphers/chacha.js";
import { equalBytes } from "@noble/ciphers/utils.js";
import { argon2i, argon2id } from "@noble/hashes/argon2.js";
import { blake2b, blake2s } from "@noble/hashes/blake2.js";
import { blake3 } from "@noble/hashes/blake3.js";
import { hmac } from "@noble/hashes/hmac.js";
import { md5, ripemd160, sha1 } from "@noble/hashes/legacy.js";
import { pbkdf2 } from "@noble/hashes/pbkdf2.js";
import { scrypt } from "@noble/hashes/scrypt.js";
import { sha224, sha256, sha384, sha512, sha512_224, sha512_256 } from "@noble/hashes/sha2.js";
import {
  keccak_256,
  sha3_224,
  sha3_256,
  sha3_384,
  sha3_512,
  shake128,
  shake256,
} from "@noble/hashes/sha3.js";
import { OUT_LEN, aead, cipher, digest, int, mac, password } from "./entries.js";
import { packageVersion } from "./packages.js";
import { authFailed } from "./protocol.js";

const HASHES = packageVersion("@noble/hashes");
const CIPHERS = packageVersion("@noble/ciphers");

const hash = (fn, native) => digest(() => fn, { native });

// The options object is made once per case, in setup.
function xof(fn, native) {
  const make = ({ out_len }) => {
    const options = { dkLen: out_len };
    return (msg) => fn(msg, options);
  };
  return digest(make, { params: OUT_LEN, native });
}

// The keyed HMAC state (inner/outer pads absorbed) is made once and cloned per message.
// verify: the same HMAC, then @noble/ciphers' equalBytes, the constant-time comparison
// noble exports (false for another length); @noble/hashes exports none.
const hmacSha256 = mac({
  keyed: (key) => {
    const base = hmac.create(sha256, key);
    return (msg) => base.clone().update(msg).digest();
  },
  oneShot: (key, msg) => hmac(sha256, key, msg),
  equal: equalBytes,
  native: "hmac(sha256)",
});

// noble cipher objects are bound to one key + nonce and refuse a second
// encrypt(): every message builds a new one (reuses_key: false).
function ctrRow(native) {
  const run = (key) => (nonce, data) => ctr(key, nonce).encrypt(data);
  return cipher((key) => ({ encrypt: run(key), decrypt: run(key) }), { reusesKey: false, native });
}

function aeadRow(construct, native) {
  const make = (key) => ({
    seal: (nonce, aad, msg) => construct(key, nonce, aad).encrypt(msg),
    open: (nonce, aad, sealed) => {
      if (sealed.length < 16) throw authFailed("input shorter than the tag");
      const box = construct(key, nonce, aad);
      try {
        return box.decrypt(sealed);
      } catch (err) {
        throw authFailed(err.message);
      }
    },
  });
  return aead(make, { reusesKey: false, native });
}

// Memory budgets are raised above noble's 1 GiB default only when the parameters need it.
const GiB = 2 ** 30;

function argon2(fn, native) {
  return password({
    ops: {
      derive: ({ password: pw, salt }, { t, m, p, out_len }) => {
        const options = { t, m, p, dkLen: out_len, maxmem: Math.max(GiB, m * 1024 * 2) };
        return () => fn(pw, salt, options);
      },
    },
    params: { t: int(1), m: int(8), p: int(1), out_len: int(4) },
    native,
  });
}

const scryptRow = password({
  ops: {
    derive: ({ password: pw, salt }, { n, r, p, out_len }) => {
      const options = { N: n, r, p, dkLen: out_len, maxmem: Math.max(GiB, 128 * n * r * (p + 2)) };
      return () => scrypt(pw, salt, options);
    },
  },
  params: { n: int(2), r: int(1), p: int(1), out_len: int(1) },
  native: "scrypt",
});

function pbkdf2Row(fn, native) {
  return password({
    ops: {
      derive:
        ({ password: pw, salt }, { iterations, out_len }) =>
        () =>
          pbkdf2(fn, pw, salt, { c: iterations, dkLen: out_len }),
    },
    params: { iterations: int(1), out_len: int(1) },
    native: `pbkdf2(${native})`,
  });
}

const TABLE = {
  md5: hash(md5, "legacy.js md5"),
  sha1: hash(sha1, "legacy.js sha1"),
  sha224: hash(sha224, "sha224"),
  sha256: hash(sha256, "sha256"),
  sha384: hash(sha384, "sha384"),
  sha512: hash(sha512, "sha512"),
  "sha512-224": hash(sha512_224, "sha512_224"),
  "sha512-256": hash(sha512_256, "sha512_256"),
  "sha3-224": hash(sha3_224, "sha3_224"),
  "sha3-256": hash(sha3_256, "sha3_256"),
  "sha3-384": hash(sha3_384, "sha3_384"),
  "sha3-512": hash(sha3_512, "sha3_512"),
  shake128: xof(shake128, "shake128"),
  shake256: xof(shake256, "shake256"),
  "keccak-256": hash(keccak_256, "keccak_256"),
  "blake2b-512": hash(blake2b, "blake2b"),
  "blake2s-256": hash(blake2s, "blake2s"),
  blake3: hash(blake3, "blake3"),
  ripemd160: hash(ripemd160, "legacy.js ripemd160"),
  "hmac-sha256": hmacSha256,
  "aes-128-ctr": ctrRow("ctr"),
  "aes-256-ctr": ctrRow("ctr"),
  "aes-128-gcm": aeadRow(gcm, "gcm"),
  "aes-256-gcm": aeadRow(gcm, "gcm"),
  "aes-128-gcm-siv": aeadRow(gcmsiv, "gcmsiv"),
  "aes-256-gcm-siv": aeadRow(gcmsiv, "gcmsiv"),
  "chacha20-poly1305": aeadRow(chacha20poly1305, "chacha20poly1305"),
  "xchacha20-poly1305": aeadRow(xchacha20poly1305, "xchacha20poly1305"),
  argon2id: argon2(argon2id, "argon2id"),
  argon2i: argon2(argon2i, "argon2i"),
  scrypt: scryptRow,
  "pbkdf2-sha1": pbkdf2Row(sha1, "sha1"),
  "pbkdf2-sha256": pbkdf2Row(sha256, "sha256"),
  "pbkdf2-sha512": pbkdf2Row(sha512, "sha512"),
};

export function load() {
  const version = HASHES === CIPHERS ? HASHES : `hashes ${HASHES}, ciphers ${CIPHERS}`;
  return {
    library: "noble",
    version,
    backend: { name: "pure-js", version: `@noble/hashes ${HASHES}, @noble/ciphers ${CIPHERS}` },
    code_path: `JavaScript on V8 ${process.versions.v8}`,
    notes:
      "one-shot hash(msg) calls; HMAC reuses a keyed hmac.create() via clone(); cipher objects " +
      "bind key+nonce and are single-use, so ciphers/AEADs build one per message; argon2 has " +
      "no encoded form here (derive only); sync forms of scrypt/pbkdf2/argon2 are timed",
    table: TABLE,
  };
}
