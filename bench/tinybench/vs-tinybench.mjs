#!/usr/bin/env node
// Fidelity check of the Node runner (not a test): the same calls the runner
// times, timed by tinybench in this process, alternately with `cryptobench run`
// on the same case, plus the runner's batch method run in this process; prints
// all three and the ratios. Target: within 5%.
//
//   bench/vs-tinybench [--rounds 5] [--time 1]      (seconds per measurement)
//   bench/vs-tinybench --anchor 64 [--time 1]      (bench/fidelity's part: tinybench
//        alone on node/crypto sha256 of that many bytes, with tinybench's defaults, beside a
//        noop task and a batched task in the same Bench; prints {p50_ns, mean_ns,
//        noop_p50_ns, noop_mean_ns, batched_mean_ns, batched_p50_ns, batch} as JSON)
//   bench/vs-tinybench --mitata 64                  (bench/fidelity's anchor for node: mitata's
//        bench() and run() with their defaults on the same call; prints {p50_ns, p25_ns, p75_ns,
//        avg_ns, min_ns, max_ns, samples, batch, gc, expose_gc, node_flags, noop_p50_ns,
//        noop_avg_ns} as JSON; --time does not apply)

import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Bench } from "tinybench";

const ROOT = new URL("../../", import.meta.url).pathname;
const NOBLE = join(ROOT, "runners/node/node_modules/@noble/hashes/sha2.js");

const { values: opts } = parseArgs({
  options: {
    rounds: { type: "string", default: "5" },
    time: { type: "string", default: "1" },
    anchor: { type: "string" },
    mitata: { type: "string" },
  },
});
const ROUNDS = Number(opts.rounds);
const SECONDS = Number(opts.time);

function cryptobenchExe() {
  if (process.env.CRYPTOBENCH) return process.env.CRYPTOBENCH;
  const venv = join(ROOT, ".venv/bin/cryptobench");
  return existsSync(venv) ? venv : "cryptobench";
}

// The runner's own calls (runners/node/lib_crypto.js, lib_noble.js), on the
// same library copies, so both tools time identical code.
async function cases() {
  if (!existsSync(NOBLE)) throw new Error("runners/node is not built: run `make setup`");
  const { sha256 } = await import(NOBLE);
  const kib = crypto.randomBytes(1024);
  const small = crypto.randomBytes(64);
  return [
    {
      impl: "node/crypto",
      size: 1024,
      fn: () => crypto.hash("sha256", kib, "buffer"),
    },
    { impl: "node/noble", size: 64, fn: () => sha256(small) },
  ];
}

// tinybench: per-call latencies after its own warm-up and timer-overhead correction.
function tinybench(c) {
  const bench = new Bench({
    time: SECONDS * 1000,
    warmupTime: 250,
    timestampProvider: "hrtimeNow",
    subtractTimerOverhead: true,
  });
  let sink = 0;
  bench.add(c.impl, () => {
    sink ^= c.fn()[0];
  });
  bench.runSync();
  const r = bench.tasks[0].result;
  if (sink === 0.5) console.error(sink); // keeps `sink` observable
  return { p50: r.latency.p50 * 1e6, mean: r.latency.mean * 1e6 };
}

const LOCKED = /another cryptobench run holds/;

// Runs `cryptobench run` on one case; waits (up to 15 min) while another run holds the lock.
function runCryptobench(args) {
  const deadline = Date.now() + 15 * 60 * 1000;
  for (;;) {
    const r = spawnSync(cryptobenchExe(), args, {
      encoding: "utf8",
      maxBuffer: 1 << 28,
    });
    if (r.error) throw r.error;
    if (r.status === 0) return r.stdout;
    if (!LOCKED.test(r.stderr) || Date.now() > deadline) {
      throw new Error(
        `cryptobench ${args.join(" ")} exited ${r.status}: ${r.stderr.trim().split("\n").pop()}`,
      );
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5000);
  }
}

function cryptobench(c, db) {
  const args = ["run", "--impl", c.impl, "--primitive", "sha256", "--size", String(c.size)];
  args.push("--time-per-case", String(SECONDS), "--format", "json", "--db", db);
  const doc = JSON.parse(runCryptobench(args));
  const found = (doc.cases ?? doc.results ?? []).find(
    (x) => x.implementation === c.impl && x.status === "ok",
  );
  if (!found) throw new Error(`cryptobench returned no ok case for ${c.impl}`);
  return { median: found.median_ns, warmup: found.warmup_ns };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

// The runner's method in this process: ~10 ms batches, median ns/op. Beside
// tinybench it separates a difference of method (per-call p50 vs batch median)
// from a cost of the harness (another process, the protocol, a shared loop).
function plainLoop(c) {
  let iterations = 1;
  let sink = 0;
  const batch = () => {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) sink ^= c.fn()[0];
    return Number(process.hrtime.bigint() - t0);
  };
  while (batch() < 1e7) iterations *= 2;
  const deadline = Date.now() + SECONDS * 1000;
  const perOp = [];
  while (Date.now() < deadline) perOp.push(batch() / iterations);
  if (sink === 0.5) console.error(sink);
  return median(perOp);
}

function round(c, r, db) {
  // Alternate which tool goes first, so drift in machine state favours neither.
  if (r % 2 === 0) {
    const t = tinybench(c);
    const loop = plainLoop(c);
    return { t, loop, cb: cryptobench(c, db) };
  }
  const cb = cryptobench(c, db);
  const loop = plainLoop(c);
  return { t: tinybench(c), loop, cb };
}

const HEADER = [
  "case",
  "tinybench p50 ns",
  "tinybench mean ns",
  "in-process 10 ms batches, median ns",
  "cryptobench median ns",
  "cb / tinybench p50",
  "cb / tinybench mean",
  "cb / in-process",
];

function report(c, rows) {
  const tb = median(rows.map((x) => x.t.p50));
  const tbMean = median(rows.map((x) => x.t.mean));
  const loop = median(rows.map((x) => x.loop));
  const cb = median(rows.map((x) => x.cb.median));
  const cells = [tb, tbMean, loop, cb].map((v) => v.toFixed(1));
  const ratios = [cb / tb, cb / tbMean, cb / loop].map((v) => v.toFixed(3));
  console.log(`| ${c.impl} sha256 ${c.size} B | ${[...cells, ...ratios].join(" | ")} |`);
  const per = rows.map((x) => [x.t.p50, x.loop, x.cb.median].map((v) => v.toFixed(0)).join("/"));
  console.error(`  ${c.impl} per round (tinybench p50 / in-process / cryptobench): ${per.join(" ")}`);
}

// Batch timings include time the OS gives to other processes; per-call p50s mostly do not.
function warnIfBusy() {
  const load = loadavg()[0];
  const cores = availableParallelism();
  const note =
    load > cores * 0.5 ? " — busy machine: batch medians include preemption, ratios are not meaningful" : "";
  console.log(`load average ${load.toFixed(2)} on ${cores} cores${note}`);
}

// bench/fidelity's part: the runner's node/crypto sha256 call (runners/node/lib_crypto.js,
// createHash where crypto.hash is missing) under tinybench with its default options, and a
// noop task (the same task body around a call that returns a fixed buffer) in the same
// Bench. tinybench reads its clock around every call of a task and records each sample
// (its `now()`, the task call, the result checks, an array push): the noop's mean is that
// per-call cost, which bench/fidelity states and takes out of tinybench's mean. A third
// task batches `batch` calls per sample and returns their mean as `overriddenDuration`
// (with `overriddenIterationCost` for the time budget), the way tinybench's documentation
// asks for sub-resolution timings: no clock read per call; bench/fidelity prints it too.
function anchor(size) {
  const fn = sha256Of(crypto.randomBytes(size));
  const fixed = Buffer.alloc(32, 1);
  const noop = () => fixed;
  const bench = new Bench({
    time: SECONDS * 1000,
    warmupTime: 250,
    timestampProvider: "hrtimeNow",
  });
  let sink = 0;
  bench.add("node/crypto", () => {
    sink ^= fn()[0];
  });
  bench.add("noop", () => {
    sink ^= noop()[0];
  });
  const batch = Math.max(10, Math.floor(2 ** 20 / (size + 256)));
  bench.add("batched", () => {
    const t0 = bench.now();
    for (let i = 0; i < batch; i++) sink ^= fn()[0];
    const ms = bench.now() - t0;
    return { overriddenDuration: ms / batch, overriddenIterationCost: ms };
  });
  bench.runSync();
  if (sink === 0.5) console.error(sink); // keeps `sink` observable
  const [task, empty, batched] = bench.tasks.map((t) => t.result.latency);
  console.log(
    JSON.stringify({
      p50_ns: task.p50 * 1e6,
      mean_ns: task.mean * 1e6,
      noop_p50_ns: empty.p50 * 1e6,
      noop_mean_ns: empty.mean * 1e6,
      batched_mean_ns: batched.mean * 1e6,
      batched_p50_ns: batched.p50 * 1e6,
      batch,
    }),
  );
}

// The runner's node/crypto sha256 call, as anchor() and runners/node/lib_crypto.js make it.
function sha256Of(msg) {
  return typeof crypto.hash === "function"
    ? () => crypto.hash("sha256", msg, "buffer")
    : () => crypto.createHash("sha256").update(msg).digest();
}

// bench/fidelity's anchor for node: mitata 1.x, `bench()` then `run()` with mitata's defaults
// (quiet format). mitata compiles one loop per benchmark around the task (4096 calls per
// sample, unrolled by 4, when one call takes under 65 µs), the way the Node runner generates
// one loop per operation around the call; `do_not_optimize` is mitata's sink. Each sample is
// one batch's time divided by its calls; after dropping the 2 fastest and 2 slowest (when there
// are more than 12), avg is their mean (the total time of the kept batches over their calls:
// every batch has 4096), p50 their median. bench/fidelity judges the row on avg: crypto.hash
// returns a new Buffer per call, the GC work that follows lands in some batches and not in
// others, and p50 falls in either group from one process to the next, while the mean carries
// every batch's share, as each of cryptobench's ~3 ms batches does (docs/methodology.md,
// "Each runtime's timed loop"). p25/p50/p75 are printed to show how far apart the batches are.
// GC: `.gc("once")`, mitata's default, pinned here: one gc() (global.gc, from node
// --expose-gc) before the benchmark's first sample, none between samples, so the collections
// its calls cause stay in the timed batches, as in the runner's process, which calls no gc()
// at all; "inner" would collect between batches, outside their time, and take that work out.
// run() first measures an empty function in the same loop (`context.noop.fn`): mitata's own
// cost per iteration, printed as noop_*.
async function mitataAnchor(size) {
  const { bench, run, do_not_optimize } = await import("mitata");
  const msg = crypto.randomBytes(size);
  // The call written out in the task, as the runner's loop holds it (no closure between).
  if (typeof crypto.hash === "function") {
    bench("node/crypto", () => do_not_optimize(crypto.hash("sha256", msg, "buffer"))).gc("once");
  } else {
    bench("node/crypto", () => do_not_optimize(sha256Of(msg)())).gc("once");
  }
  const { context, benchmarks } = await run({ format: "quiet", throw: true });
  const stats = benchmarks[0].runs[0].stats;
  const noop = context.noop.fn;
  console.log(
    JSON.stringify({
      p50_ns: stats.p50,
      p25_ns: stats.p25,
      p75_ns: stats.p75,
      avg_ns: stats.avg,
      min_ns: stats.min,
      max_ns: stats.max,
      samples: stats.samples.length,
      batch: stats.ticks / stats.samples.length,
      gc: "once",
      expose_gc: typeof globalThis.gc === "function",
      node_flags: process.execArgv,
      noop_p50_ns: noop.p50,
      noop_avg_ns: noop.avg,
    }),
  );
}

async function main() {
  if (opts.mitata !== undefined) return mitataAnchor(Number(opts.mitata));
  if (opts.anchor !== undefined) return anchor(Number(opts.anchor));
  const db = join(mkdtempSync(join(tmpdir(), "vs-tinybench-")), "results.sqlite");
  try {
    const all = await cases();
    console.log(`node ${process.versions.node}, ${ROUNDS} alternating rounds, ${SECONDS} s each`);
    warnIfBusy();
    console.log(`| ${HEADER.join(" | ")} |`);
    console.log(`|---|${"---:|".repeat(HEADER.length - 1)}`);
    for (const c of all) {
      const rows = [];
      for (let r = 0; r < ROUNDS; r++) rows.push(round(c, r, db));
      report(c, rows);
    }
    warnIfBusy();
  } finally {
    rmSync(join(db, ".."), { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(`vs-tinybench: ${err.message}`);
  process.exit(1);
});
