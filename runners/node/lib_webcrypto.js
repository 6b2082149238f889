// WebCrypto (globalThis.crypto.subtle) — the W3C API a web app calls, on the
// OpenSSL Node links. Timed as a web app calls it: every operation is one
// awaited Promise (`await subtle.digest(...)`), so the event-loop turn and the
// job Node runs for it are part of each operation; keys are CryptoKeys imported
// once (fresh_context: importKey per message).

import { webcrypto } from "node:crypto";
import { OUT_LEN, aead, cipher, digest, int, mac, password } from "./entries.js";
import { authFailed } from "./protocol.js";

const { subtle } = webcrypto;
const bytes = (buf) => new Uint8Array(buf);

function hash(name) {
  return digest(() => async (msg) => bytes(await subtle.digest(name, msg)), {
    native: `subtle.digest('${name}')`,
    async: true,
  });
}

const HMAC = { name: "HMAC", hash: "SHA-256" };
const hmacKey = (key, usage = "sign") => subtle.importKey("raw", key, HMAC, false, [usage]);

// verify: subtle.verify('HMAC', key, tag, msg), WebCrypto's own check (false, not an
// error, for a tag that does not match, another length included).
const hmacSha256 = mac({
  keyed: async (key) => {
    const k = await hmacKey(key);
    return async (msg) => bytes(await subtle.sign("HMAC", k, msg));
  },
  oneShot: async (key, msg) => bytes(await subtle.sign("HMAC", await hmacKey(key), msg)),
  verify: {
    keyed: async (key) => {
      const k = await hmacKey(key, "verify");
      return (msg, tag) => subtle.verify("HMAC", k, tag, msg);
    },
    oneShot: async (key, msg, tag) => subtle.verify("HMAC", await hmacKey(key, "verify"), tag, msg),
  },
  async: true,
  native: "subtle.sign('HMAC', SHA-256), subtle.verify",
});

// AES-CTR: the whole 16-byte block is the counter (length 128), as in SP 800-38A.
const ctr = cipher(
  async (key) => {
    const k = await subtle.importKey("raw", key, "AES-CTR", false, ["encrypt", "decrypt"]);
    const run = (method) => async (counter, data) =>
      bytes(await subtle[method]({ name: "AES-CTR", counter, length: 128 }, k, data));
    return { encrypt: run("encrypt"), decrypt: run("decrypt") };
  },
  { async: true, native: "subtle.encrypt('AES-CTR', length 128)" },
);

function aeadRow(name) {
  const make = async (key) => {
    const k = await subtle.importKey("raw", key, name, false, ["encrypt", "decrypt"]);
    const params = (iv, aad) => ({ name, iv, additionalData: aad, tagLength: 128 });
    return {
      seal: async (nonce, aad, msg) => bytes(await subtle.encrypt(params(nonce, aad), k, msg)),
      open: async (nonce, aad, sealed) => {
        try {
          return bytes(await subtle.decrypt(params(nonce, aad), k, sealed));
        } catch (err) {
          if (err?.name === "OperationError") throw authFailed("tag does not verify");
          throw err;
        }
      },
    };
  };
  return aead(make, { async: true, native: `subtle.encrypt('${name}')` });
}

// PBKDF2: importKey of the password then deriveBits, both awaited per derivation.
function pbkdf2(hashName) {
  return password({
    ops: {
      derive:
        ({ password: pw, salt }, { iterations, out_len }) =>
        async () => {
          const k = await subtle.importKey("raw", pw, "PBKDF2", false, ["deriveBits"]);
          const algo = { name: "PBKDF2", hash: hashName, salt, iterations };
          return bytes(await subtle.deriveBits(algo, k, out_len * 8));
        },
    },
    params: { iterations: int(1, 0xffffffff), ...OUT_LEN },
    async: true,
    native: `subtle.deriveBits('PBKDF2', ${hashName})`,
  });
}

const TABLE = {
  sha1: hash("SHA-1"),
  sha256: hash("SHA-256"),
  sha384: hash("SHA-384"),
  sha512: hash("SHA-512"),
  "hmac-sha256": hmacSha256,
  "aes-128-ctr": ctr,
  "aes-256-ctr": ctr,
  "aes-128-gcm": aeadRow("AES-GCM"),
  "aes-256-gcm": aeadRow("AES-GCM"),
  "pbkdf2-sha1": pbkdf2("SHA-1"),
  "pbkdf2-sha256": pbkdf2("SHA-256"),
  "pbkdf2-sha512": pbkdf2("SHA-512"),
};

export function load() {
  const openssl = process.versions.openssl;
  return {
    library: "webcrypto",
    version: process.versions.node,
    backend: { name: "openssl", version: openssl },
    code_path: `Node's WebCrypto jobs on OpenSSL ${openssl} (same backend as node/crypto)`,
    notes:
      "crypto.subtle as a web app calls it: one awaited Promise per operation (event-loop turn " +
      "and Node's crypto job included); CryptoKeys imported once, or per message with " +
      "fresh_context; PBKDF2 imports the password per derivation",
    table: TABLE,
  };
}
