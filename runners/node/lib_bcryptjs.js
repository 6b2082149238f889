// bcryptjs — bcrypt in plain JavaScript. hashSync takes an explicit salt
// string ("$2b$" + cost + "$" + 22 chars of bcrypt's base64 of the 16 salt
// bytes), so `hash` is deterministic and cross-checked; verify is compareSync.

import bcryptjs from "bcryptjs";
import { int, password } from "./entries.js";
import { packageVersion } from "./packages.js";
import { authFailed, invalidParams } from "./protocol.js";

const VERSION = packageVersion("bcryptjs");

// bcryptjs takes passwords as JS strings and UTF-8-encodes them itself:
// only byte strings that survive that round trip can be passed faithfully.
function passwordString(bytes) {
  const text = bytes.toString("utf8");
  if (!Buffer.from(text, "utf8").equals(bytes)) {
    throw invalidParams("bcryptjs takes passwords as strings: the password is not valid UTF-8");
  }
  return text;
}

function saltString(salt, cost) {
  if (salt.length !== 16) throw invalidParams("bcrypt takes a 16-byte salt");
  return `$2b$${String(cost).padStart(2, "0")}$${bcryptjs.encodeBase64(salt, 16)}`;
}

// DESIGN.md: encoded bcrypt strings are reported with the $2b$ prefix.
const toB = (encoded) => encoded.replace(/^\$2[aby]\$/, "$2b$");

const bcrypt = password({
  ops: {
    hash: ({ password: pw, salt }, { cost }) => {
      const text = passwordString(pw);
      const setting = saltString(salt, cost);
      return () => toB(bcryptjs.hashSync(text, setting));
    },
    verify: ({ password: pw, encoded }) => {
      const text = passwordString(pw);
      return () => {
        if (!bcryptjs.compareSync(text, encoded)) throw authFailed("password does not match");
        return "ok";
      };
    },
  },
  params: { cost: int(4, 31) },
  native: "hashSync/compareSync",
});

const TABLE = { bcrypt };

export function load() {
  return {
    library: "bcryptjs",
    version: VERSION,
    backend: { name: "pure-js", version: `bcryptjs ${VERSION}` },
    code_path: `JavaScript on V8 ${process.versions.v8}`,
    notes: "hashSync with an explicit salt string, compareSync for verify (the sync forms are timed)",
    table: TABLE,
  };
}
