// Installed package metadata, read from node_modules/<name>/package.json
// directly (several packages do not export "./package.json").

import { readFileSync } from "node:fs";

export function packageJson(name) {
  const url = new URL(`./node_modules/${name}/package.json`, import.meta.url);
  return JSON.parse(readFileSync(url, "utf8"));
}

export function packageVersion(name) {
  return packageJson(name).version;
}

const parts = (v) => v.split(".").map((x) => Number.parseInt(x, 10) || 0);

function atLeast(version, minimum) {
  const a = parts(version);
  const b = parts(minimum);
  for (let i = 0; i < 3; i++) {
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  }
  return true;
}

// Why this Node cannot run the package, or null. Only ">=x.y.z" ranges are
// checked (what the packages used here declare); others are assumed to hold.
export function engineProblem(name) {
  const range = packageJson(name).engines?.node;
  const match = typeof range === "string" ? /^>=\s*v?([0-9.]+)$/.exec(range.trim()) : null;
  if (!match || atLeast(process.versions.node, match[1])) return null;
  return `${name} needs Node ${range}, this is ${process.versions.node}`;
}
