// hash-wasm — hashes, checksums and KDFs compiled to WebAssembly.
// Its one-shot functions (sha256(data) …) are async; the per-message path timed
// here is the reusable hasher object it offers for that: created (awaited) once
// in setup, then init()/update()/digest("binary") per message, all synchronous.
// Its argon2/bcrypt/scrypt/pbkdf2 exist only as async functions: each timed
// operation is one awaited promise.

import * as hw from "hash-wasm";
import { digest, int, mac, password, seed } from "./entries.js";
import { packageVersion } from "./packages.js";
import { authFailed, invalidParams } from "./protocol.js";

const VERSION = packageVersion("hash-wasm");

function run(hasher) {
  return (msg) => {
    hasher.init();
    hasher.update(msg);
    return hasher.digest("binary");
  };
}

// create(params) -> Promise<IHasher>
function hasher(create, native, params = {}) {
  return digest(async (p) => run(await create(p)), { params, native });
}

const fixed = (fn, ...args) => hasher(() => fn(...args), `${fn.name}(${args.join(", ")})`);

// 64-bit seeds are passed to hash-wasm as (low, high) 32-bit halves.
function seeded64(fn) {
  const create = ({ seed: s }) => fn(Number(s & 0xffffffffn), Number(s >> 32n));
  return hasher(create, fn.name, { seed: seed(64) });
}

const CRC32C_POLY = 0x82f63b78; // reflected Castagnoli polynomial (iSCSI)

const hmacSha256 = mac({
  keyed: async (key) => run(await hw.createHMAC(hw.createSHA256(), key)),
  oneShot: async (key, msg) => run(await hw.createHMAC(hw.createSHA256(), key))(msg),
  asyncFresh: true,
  native: "createHMAC(createSHA256())",
});

// hash-wasm writes bcrypt as $2a$; DESIGN.md normalises the prefix to $2b$.
const toB = (encoded) => encoded.replace(/^\$2[aby]\$/, "$2b$");

function checkVerified(ok) {
  if (!ok) throw authFailed("password does not match");
  return "ok";
}

const bcrypt = password({
  ops: {
    hash: ({ password: pw, salt }, { cost }) => {
      if (salt.length !== 16) throw invalidParams("bcrypt takes a 16-byte salt");
      return async () =>
        toB(await hw.bcrypt({ password: pw, salt, costFactor: cost, outputType: "encoded" }));
    },
    verify:
      ({ password: pw, encoded }) =>
      async () =>
        checkVerified(await hw.bcryptVerify({ password: pw, hash: encoded })),
  },
  params: { cost: int(4, 31) },
  async: true,
  native: "bcrypt/bcryptVerify",
});

function argon2(fn) {
  const options = (pw, salt, { t, m, p, out_len }, outputType) => ({
    password: pw,
    salt,
    iterations: t,
    memorySize: m,
    parallelism: p,
    hashLength: out_len,
    outputType,
  });
  return password({
    ops: {
      hash:
        ({ password: pw, salt }, params) =>
        () =>
          fn(options(pw, salt, params, "encoded")),
      verify:
        ({ password: pw, encoded }) =>
        async () =>
          checkVerified(await hw.argon2Verify({ password: pw, hash: encoded })),
      derive:
        ({ password: pw, salt }, params) =>
        () =>
          fn(options(pw, salt, params, "binary")),
    },
    params: { t: int(1), m: int(8), p: int(1), out_len: int(4) },
    async: true,
    native: fn.name,
  });
}

const scrypt = password({
  ops: {
    derive:
      ({ password: pw, salt }, { n, r, p, out_len }) =>
      () =>
        hw.scrypt({
          password: pw,
          salt,
          costFactor: n,
          blockSize: r,
          parallelism: p,
          hashLength: out_len,
          outputType: "binary",
        }),
  },
  params: { n: int(2), r: int(1), p: int(1), out_len: int(1) },
  async: true,
  native: "scrypt",
});

function pbkdf2(createHash) {
  return password({
    ops: {
      derive: ({ password: pw, salt }, { iterations, out_len }) => {
        const hashFunction = createHash(); // one hasher, made in setup
        return () =>
          hw.pbkdf2({
            password: pw,
            salt,
            iterations,
            hashLength: out_len,
            hashFunction,
            outputType: "binary",
          });
      },
    },
    params: { iterations: int(1), out_len: int(1) },
    async: true,
    native: `pbkdf2(${createHash.name})`,
  });
}

const TABLE = {
  md4: fixed(hw.createMD4),
  md5: fixed(hw.createMD5),
  sha1: fixed(hw.createSHA1),
  sha224: fixed(hw.createSHA224),
  sha256: fixed(hw.createSHA256),
  sha384: fixed(hw.createSHA384),
  sha512: fixed(hw.createSHA512),
  "sha3-224": fixed(hw.createSHA3, 224),
  "sha3-256": fixed(hw.createSHA3, 256),
  "sha3-384": fixed(hw.createSHA3, 384),
  "sha3-512": fixed(hw.createSHA3, 512),
  "keccak-256": fixed(hw.createKeccak, 256),
  "blake2b-512": fixed(hw.createBLAKE2b, 512),
  "blake2s-256": fixed(hw.createBLAKE2s, 256),
  blake3: fixed(hw.createBLAKE3, 256),
  ripemd160: fixed(hw.createRIPEMD160),
  whirlpool: fixed(hw.createWhirlpool),
  sm3: fixed(hw.createSM3),
  crc32: fixed(hw.createCRC32),
  crc32c: fixed(hw.createCRC32, CRC32C_POLY),
  adler32: fixed(hw.createAdler32),
  xxh32: hasher(({ seed: s }) => hw.createXXHash32(Number(s)), "createXXHash32", { seed: seed(32) }),
  xxh64: seeded64(hw.createXXHash64),
  "xxh3-64": seeded64(hw.createXXHash3),
  "xxh3-128": seeded64(hw.createXXHash128),
  "hmac-sha256": hmacSha256,
  argon2id: argon2(hw.argon2id),
  argon2i: argon2(hw.argon2i),
  bcrypt,
  scrypt,
  "pbkdf2-sha1": pbkdf2(hw.createSHA1),
  "pbkdf2-sha256": pbkdf2(hw.createSHA256),
  "pbkdf2-sha512": pbkdf2(hw.createSHA512),
};

export function load() {
  return {
    library: "hash-wasm",
    version: VERSION,
    backend: { name: "wasm", version: VERSION },
    code_path: `WebAssembly on V8 ${process.versions.v8}`,
    notes:
      "digests/checksums/HMAC time a reusable hasher (createX() awaited once in setup, then " +
      "init/update/digest per message; the async one-shot functions are not timed); " +
      "argon2/bcrypt/scrypt/pbkdf2 are async only: one awaited promise per operation; " +
      "crc32c is createCRC32(0x82f63b78)",
    table: TABLE,
  };
}
