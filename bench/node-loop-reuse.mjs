// The experiment behind docs/methodology.md, "Node.js: one loop per operation" (a benchmark
// of the method, not of a library; it does not use the runner). In fresh processes it times
// node:crypto's one-shot SHA-256 of a 16-byte message the way the Node.js runner does
// (runners/node/timing.js: a loop function generated with `new Function` around the call,
// batches of ~6 ms timed with process.hrtime.bigint()), as REQUESTS requests of 6 batches,
// once compiling a new loop per request and once keeping one loop for the process, and prints
// the median ns/op of each request's first batch and of the other batches, and how many
// first batches V8 had not yet optimized (%GetOptimizationStatus; needs --allow-natives-syntax,
// which this script passes to its children itself).
//
//   node bench/node-loop-reuse.mjs [--processes 8] [--size 16]
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import { fileURLToPath } from "node:url";

const REQUESTS = 4;
const BATCHES = 6;
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};

function child(mode, size) {
  const msg = Buffer.alloc(size, 7);
  const call = (m) => crypto.hash("sha256", m, "buffer");
  let serial = 0;
  let sink = 0;
  const compile = () =>
    new Function(
      "call",
      "msg",
      "n",
      `"use strict"; // loop ${++serial}
let acc = 0;
for (let i = 0; i < n; i++) { const out = call(msg); acc = (acc + (out[0] | 0)) | 0; }
return acc;`,
    );
  const optimized = new Function("f", "return (%GetOptimizationStatus(f) & 16) !== 0;");
  let loop = compile();
  // size the batch to ~6 ms on the warm loop's speed, as a round's calibration does
  let n = 1000;
  for (;;) {
    const t0 = process.hrtime.bigint();
    sink ^= loop(call, msg, n);
    const ns = Number(process.hrtime.bigint() - t0);
    if (ns > 3e6) break;
    n *= 2;
  }
  const rows = [];
  for (let r = 0; r < REQUESTS; r++) {
    if (mode === "per-request" || r === 0) loop = compile();
    const row = [];
    for (let b = 0; b < BATCHES; b++) {
      const t0 = process.hrtime.bigint();
      sink ^= loop(call, msg, n);
      const ns = Number(process.hrtime.bigint() - t0) / n;
      row.push({ ns, optimized: optimized(loop) });
    }
    rows.push(row);
  }
  process.stdout.write(JSON.stringify({ rows, sink }));
}

const median = (v) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function main() {
  const processes = opt("--processes", 8);
  const size = opt("--size", 16);
  const me = fileURLToPath(import.meta.url);
  for (const mode of ["per-request", "per-process"]) {
    const first = [];
    const rest = [];
    let cold = 0;
    for (let p = 0; p < processes; p++) {
      const out = execFileSync(process.execPath, ["--allow-natives-syntax", me, "--child", mode, String(size)]);
      const { rows } = JSON.parse(out);
      rows.forEach((row, r) => {
        if (r === 0) return; // a process's first request is cold either way
        first.push(row[0].ns);
        if (!row[0].optimized) cold++;
        row.slice(1).forEach((b) => rest.push(b.ns));
      });
    }
    console.log(
      `${mode.padEnd(12)} later requests' first batch: median ${median(first).toFixed(0)} ns/op ` +
        `(${cold} of ${first.length} not optimized at its end); other batches: median ` +
        `${median(rest).toFixed(0)} ns/op; ratio ${(median(first) / median(rest)).toFixed(2)}`,
    );
  }
}

if (args[0] === "--child") child(args[1], Number(args[2]));
else main();
