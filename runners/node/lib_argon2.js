// argon2 (node-argon2) — the reference C implementation as a native addon; the
// npm package ships prebuilt binaries (prebuilds/linux-x64), no download at install.
// Only async functions exist: each timed operation is one awaited Promise.

import argon2 from "argon2";
import { int, password } from "./entries.js";
import { packageVersion } from "./packages.js";
import { authFailed } from "./protocol.js";

const VERSION = packageVersion("argon2");
const PARAMS = { t: int(1), m: int(8), p: int(1, 255), out_len: int(4, 1 << 20) };

function options(type, salt, { t, m, p, out_len }) {
  return { type, salt, timeCost: t, memoryCost: m, parallelism: p, hashLength: out_len };
}

// node-argon2 writes the PHC parameters in the order m, p, t; the reference implementation
// (and the catalog's encoded strings) write m, t, p. Reordering is an encoding change only.
const PHC = /^\$(argon2(?:id|i|d))\$v=(\d+)\$m=(\d+),p=(\d+),t=(\d+)\$/;

function canonical(encoded) {
  return encoded.replace(PHC, (_, alg, v, m, p, t) => `$${alg}$v=${v}$m=${m},t=${t},p=${p}$`);
}

function row(type, name) {
  return password({
    ops: {
      hash:
        ({ password: pw, salt }, params) =>
        async () =>
          canonical(await argon2.hash(pw, options(type, salt, params))),
      verify:
        ({ password: pw, encoded }) =>
        async () => {
          if (!(await argon2.verify(encoded, pw))) throw authFailed("password does not match");
          return "ok";
        },
      derive:
        ({ password: pw, salt }, params) =>
        () =>
          argon2.hash(pw, { ...options(type, salt, params), raw: true }),
    },
    params: PARAMS,
    async: true,
    native: `argon2.hash({type: argon2.${name}})`,
  });
}

const TABLE = { argon2id: row(argon2.argon2id, "argon2id"), argon2i: row(argon2.argon2i, "argon2i") };

export function load() {
  return {
    library: "argon2",
    version: VERSION,
    backend: { name: "phc-winner-argon2 (reference C, prebuilt addon)", version: `argon2 ${VERSION}` },
    code_path: "native addon (node-gyp-build prebuild); runs on libuv's thread pool",
    notes:
      "argon2.hash with an explicit salt (raw: true for derive), argon2.verify; async only; " +
      "encoded parameters reordered from m,p,t to the reference's m,t,p",
    table: TABLE,
  };
}
