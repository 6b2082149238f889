// The hello result: runtime, CPU flags and every implementation's primitives.

import { readFileSync } from "node:fs";
import { LIBRARY_IDS } from "./libraries.js";
import { GENERATORS } from "./msggen.js";

const FLAGS = {
  aes: "aes",
  pclmulqdq: "pclmulqdq",
  sha: "sha_ni",
  sse4_2: "sse4_2",
  avx2: "avx2",
  avx512f: "avx512f",
  vaes: "vaes",
  vpclmulqdq: "vpclmulqdq",
};

// Node itself detects no CPU features for its users; the kernel's view is reported.
function cpu() {
  try {
    const line = readFileSync("/proc/cpuinfo", "utf8")
      .split("\n")
      .find((l) => l.startsWith("flags"));
    const flags = new Set((line ?? "").split(":")[1]?.trim().split(/\s+/) ?? []);
    const features = Object.fromEntries(Object.entries(FLAGS).map(([k, v]) => [k, flags.has(v)]));
    return { features, source: "/proc/cpuinfo (Node exposes no CPU detection)" };
  } catch {
    return { features: {}, source: "unavailable" };
  }
}

function describe(row) {
  const out = { operations: row.operations };
  if (row.reusesKey === false) out.reuses_key = false;
  if (row.kind === "password" && row.operations.includes("hash")) out.takes_salt = row.takesSalt;
  if (row.native) out.native = row.native;
  return out;
}

function implementation(lib) {
  const primitives = Object.fromEntries(Object.entries(lib.table).map(([id, row]) => [id, describe(row)]));
  const { library, version, backend, code_path: codePath, notes } = lib;
  return { library, version, backend, code_path: codePath ?? "", notes, primitives };
}

export function hello(libraries) {
  const v = process.versions;
  return {
    protocol: 1,
    generators: GENERATORS,
    runtime: {
      name: "node",
      version: v.node,
      details: {
        v8: v.v8,
        openssl: v.openssl,
        uv: v.uv,
        arch: process.arch,
        platform: process.platform,
        exec_argv: process.execArgv.join(" "),
      },
    },
    cpu: cpu(),
    implementations: LIBRARY_IDS.filter((id) => libraries.has(id)).map((id) =>
      implementation(libraries.get(id)),
    ),
  };
}
