#!/usr/bin/env node
// cryptobench runner for Node.js: JSON Lines on stdin/stdout (docs/protocol.md).
// stdout carries protocol messages only; diagnostics go to stderr.

import { handleLine } from "./dispatch.js";
import { LINE_LIMIT, refusal, requestLines } from "./limits.js";

// No library is loaded at start: hello loads those it is told it serves (`only`) or every
// one, and a request naming another loads that one first (dispatch.js).
const libraries = new Map();

for await (const line of requestLines(process.stdin)) {
  const why = line === null ? `request line longer than ${LINE_LIMIT} bytes` : refusal(line);
  const response = why
    ? { id: null, ok: false, error: { kind: "bad_request", message: why } }
    : await handleLine(libraries, line.toString("utf8"));
  // Writes to a pipe or file are synchronous on Linux: each response is flushed.
  process.stdout.write(`${JSON.stringify(response)}\n`);
}
process.exitCode = 0;
