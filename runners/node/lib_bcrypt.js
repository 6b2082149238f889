// bcrypt (node.bcrypt.js) — OpenBSD's bcrypt in C++ as a native addon; the npm
// package ships prebuilt binaries (prebuilds/linux-x64), no download at install.
// hashSync takes an explicit salt string, so `hash` is deterministic and
// cross-checked; the sync forms are timed (as bcryptjs's are).

import bcrypt from "bcrypt";
import { int, password } from "./entries.js";
import { packageVersion } from "./packages.js";
import { authFailed, invalidParams } from "./protocol.js";

const VERSION = packageVersion("bcrypt");
const STD = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const BCRYPT = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

// bcrypt's base64 alphabet (an encoding, not cryptography): 16 bytes -> 22 chars.
function saltString(salt, cost) {
  if (salt.length !== 16) throw invalidParams("bcrypt takes a 16-byte salt");
  const b64 = Buffer.from(salt).toString("base64").slice(0, 22);
  const text = [...b64].map((ch) => BCRYPT[STD.indexOf(ch)]).join("");
  return `$2b$${String(cost).padStart(2, "0")}$${text}`;
}

const toB = (encoded) => encoded.replace(/^\$2[aby]\$/, "$2b$");

const row = password({
  ops: {
    hash: ({ password: pw, salt }, { cost }) => {
      const setting = saltString(salt, cost);
      return () => toB(bcrypt.hashSync(pw, setting));
    },
    verify:
      ({ password: pw, encoded }) =>
      () => {
        if (!bcrypt.compareSync(pw, encoded)) throw authFailed("password does not match");
        return "ok";
      },
  },
  params: { cost: int(4, 31) },
  native: "hashSync/compareSync",
});

export function load() {
  return {
    library: "bcrypt",
    version: VERSION,
    backend: { name: "bcrypt (C++, prebuilt addon)", version: `bcrypt ${VERSION}` },
    code_path: "native addon (node-gyp-build prebuild)",
    notes:
      "hashSync with an explicit salt string, compareSync for verify (the sync forms are timed); passwords passed as Buffers",
    table: { bcrypt: row },
  };
}
