// libsodium-wrappers — libsodium compiled to WebAssembly (libsodium.js), the
// standard (non-sumo) build: its hashes and IETF AEADs. Beside c/libsodium and
// php/sodium (native) it shows what WebAssembly costs the same C code.

import sodium from "libsodium-wrappers";
import { aead, digest } from "./entries.js";
import { packageVersion } from "./packages.js";
import { authFailed } from "./protocol.js";

const VERSION = packageVersion("libsodium-wrappers");

const hash = (fn, native) => digest(() => fn, { native });

// The combined AEAD calls take the raw key per call: libsodium has no key schedule to reuse.
function aeadRow(encrypt, decrypt, native) {
  const make = (key) => ({
    seal: (nonce, aad, msg) => encrypt(msg, aad, null, nonce, key),
    open: (nonce, aad, sealed) => {
      try {
        return decrypt(null, sealed, aad, nonce, key);
      } catch {
        throw authFailed("tag does not verify");
      }
    },
  });
  return aead(make, { native });
}

function table() {
  const s = sodium;
  const t = {
    sha512: hash((msg) => s.crypto_hash(msg), "crypto_hash"),
    "blake2b-512": hash((msg) => s.crypto_generichash(64, msg, null), "crypto_generichash"),
    "chacha20-poly1305": aeadRow(
      s.crypto_aead_chacha20poly1305_ietf_encrypt,
      s.crypto_aead_chacha20poly1305_ietf_decrypt,
      "crypto_aead_chacha20poly1305_ietf",
    ),
    "xchacha20-poly1305": aeadRow(
      s.crypto_aead_xchacha20poly1305_ietf_encrypt,
      s.crypto_aead_xchacha20poly1305_ietf_decrypt,
      "crypto_aead_xchacha20poly1305_ietf",
    ),
  };
  if (typeof s.crypto_hash_sha256 === "function") {
    t.sha256 = hash((msg) => s.crypto_hash_sha256(msg), "crypto_hash_sha256");
  }
  if (typeof s.crypto_hash_sha3256 === "function") {
    t["sha3-256"] = hash((msg) => s.crypto_hash_sha3256(msg), "crypto_hash_sha3256");
    t["sha3-512"] = hash((msg) => s.crypto_hash_sha3512(msg), "crypto_hash_sha3512");
  }
  return t;
}

export async function load() {
  await sodium.ready;
  return {
    library: "libsodium-wrappers",
    version: VERSION,
    backend: { name: "libsodium (WebAssembly)", version: sodium.sodium_version_string() },
    code_path: `WebAssembly on V8 ${process.versions.v8} (libsodium.js standard build)`,
    notes: "one-shot calls with Uint8Array in/out; AEADs take the raw key per call",
    table: table(),
  };
}
