#!/usr/bin/env node
// cryptobench runner for Node.js: JSON Lines on stdin/stdout (docs/protocol.md).
// stdout carries protocol messages only; diagnostics go to stderr.

import readline from "node:readline";
import { handleLine } from "./dispatch.js";
import { loadLibraries } from "./libraries.js";

const libraries = await loadLibraries();
for (const lib of libraries.values()) {
  if (lib.skipped) process.stderr.write(`node runner: ${lib.library} skipped: ${lib.skipped}\n`);
}

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (line.trim() === "") continue;
  const response = await handleLine(libraries, line);
  // Writes to a pipe or file are synchronous on Linux: each response is flushed.
  process.stdout.write(`${JSON.stringify(response)}\n`);
}
process.exitCode = 0;
