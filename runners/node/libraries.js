// The implementations this runner hosts. Each lib_*.js is imported only when
// its packages suit this Node; one that cannot load is listed in hello with no
// primitives and the reason in its notes, and its requests are `unsupported`.

import { engineProblem } from "./packages.js";

const LIBRARIES = [
  { library: "crypto", module: "./lib_crypto.js", packages: [] },
  { library: "hash-wasm", module: "./lib_hashwasm.js", packages: ["hash-wasm"] },
  { library: "noble", module: "./lib_noble.js", packages: ["@noble/hashes", "@noble/ciphers"] },
  { library: "noble-pq", module: "./lib_noble_pq.js", packages: ["@noble/post-quantum"] },
  { library: "bcryptjs", module: "./lib_bcryptjs.js", packages: ["bcryptjs"] },
  { library: "webcrypto", module: "./lib_webcrypto.js", packages: [] },
  { library: "argon2", module: "./lib_argon2.js", packages: ["argon2"] },
  { library: "bcrypt", module: "./lib_bcrypt.js", packages: ["bcrypt"] },
  { library: "libsodium-wrappers", module: "./lib_libsodium.js", packages: ["libsodium-wrappers"] },
];

function problemOf(spec) {
  for (const name of spec.packages) {
    let problem;
    try {
      problem = engineProblem(name);
    } catch {
      return `${name} is not installed (run make setup)`;
    }
    if (problem) return problem;
  }
  return null;
}

function skipped(spec, reason) {
  return {
    library: spec.library,
    version: "",
    backend: { name: "", version: "" },
    notes: `skipped: ${reason}`,
    table: {},
    skipped: reason,
  };
}

async function loadOne(spec) {
  const problem = problemOf(spec);
  if (problem) return skipped(spec, problem);
  try {
    const mod = await import(spec.module);
    return await mod.load();
  } catch (err) {
    return skipped(spec, `cannot load: ${err.message}`);
  }
}

// Every library id this runner hosts, in hello's order.
export const LIBRARY_IDS = LIBRARIES.map((s) => s.library);

// Returns a Map library id -> {library, version, backend, code_path, notes, table}; with
// `only` (a list of ids), just those (a worker of a threaded bench loads the one it times).
export async function loadLibraries(only = null) {
  const specs = only === null ? LIBRARIES : LIBRARIES.filter((s) => only.includes(s.library));
  const loaded = await Promise.all(specs.map(loadOne));
  return new Map(loaded.map((lib) => [lib.library, lib]));
}

// Loads into `libraries` (a Map as above) those of `ids` it does not hold yet (null: every
// library), each import awaited before this returns; unknown ids are left out. A library that
// cannot load says why on stderr.
export async function loadInto(libraries, ids = null) {
  const wanted = ids === null ? LIBRARY_IDS : ids;
  const missing = LIBRARIES.filter((s) => wanted.includes(s.library) && !libraries.has(s.library));
  for (const lib of await Promise.all(missing.map(loadOne))) {
    if (lib.skipped) process.stderr.write(`node runner: ${lib.library} skipped: ${lib.skipped}\n`);
    libraries.set(lib.library, lib);
  }
  return libraries;
}
