// Timed batches on process.hrtime.bigint() (CLOCK_MONOTONIC, ns). No policy:
// no warm-up, no repetition beyond what the request asks for.

let sink = 0;
let serial = 0;

// One byte of every output is read into `sink`, so no call can be dropped.
function firstByte(out) {
  return typeof out === "string" ? out.charCodeAt(0) | 0 : out[0] | 0;
}

export function sinkValue() {
  return sink;
}

// A call written as source over named values ({expr, env}, operations.js), the
// way a tinybench or mitata task body holds the call itself: compiled once into
// a function that runs it (the untimed call, the leak request's single calls).
export function inline(expr, env) {
  const run = new Function(...Object.keys(env), `"use strict"; return ${expr};`);
  return run.bind(undefined, ...Object.values(env));
}

// One loop per prepared operation, generated around its source (as mitata does):
// a function of its own, so V8 gives it its own feedback and each call site in
// it sees one callee, which TurboFan can inline; an operation kept for later
// requests (dispatch.js) keeps its loop, already optimized. The serial makes every
// source distinct, so V8 never hands back an earlier loop (and its feedback) from
// its eval cache. Returns (env values..., step, n) => sum of first bytes.
function loopOf(expr, names, stepped) {
  const body = `"use strict"; // cryptobench loop ${++serial}
let acc = 0;
for (let i = 0; i < n; i++) {
  ${stepped ? "step();" : ""}
  const out = ${expr};
  acc = (acc + (typeof out === "string" ? out.charCodeAt(0) | 0 : out[0] | 0)) | 0;
}
return acc;`;
  return new Function(...names, "step", "n", body);
}

// op = {call, step, async, expr?, env?}: `step` (or null) advances the nonce
// before each call; an op without source is timed as the source `call()`.
export function benchSync(op, iterations, batches) {
  const { expr, env } = op.expr === undefined ? { expr: "call()", env: { call: op.call } } : op;
  const loop = (op.loop ??= loopOf(expr, Object.keys(env), op.step !== null)); // one per op
  const args = [...Object.values(env), op.step, iterations];
  const samples = [];
  for (let b = 0; b < batches; b++) {
    const t0 = process.hrtime.bigint();
    const acc = loop(...args);
    const t1 = process.hrtime.bigint();
    sink = (sink + acc) | 0;
    samples.push({ iterations, ns: Number(t1 - t0) });
  }
  return samples;
}

// Promise-returning operations (hash-wasm's KDFs, fresh hash-wasm HMACs):
// the awaited promise is the operation, so each await is inside the batch.
export async function benchAsync(op, iterations, batches) {
  const { call, step } = op;
  const samples = [];
  for (let b = 0; b < batches; b++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) {
      if (step !== null) step();
      sink = (sink + firstByte(await call())) | 0;
    }
    const t1 = process.hrtime.bigint();
    samples.push({ iterations, ns: Number(t1 - t0) });
  }
  return samples;
}

export function bench(op, iterations, batches) {
  return op.async ? benchAsync(op, iterations, batches) : benchSync(op, iterations, batches);
}

// The leak request: one call of ops[order[i]].call per measurement, each timed
// alone; a thrown error (a bad tag or password) is the expected outcome.
export async function timeSingleCalls(ops, order) {
  const ns = new Uint32Array(order.length);
  const anyAsync = ops.some((op) => op.async);
  for (let i = 0; i < order.length; i++) {
    const call = ops[order[i]].call;
    let out = null;
    const t0 = process.hrtime.bigint();
    try {
      out = anyAsync ? await call() : call();
    } catch {
      out = null;
    }
    const t1 = process.hrtime.bigint();
    const d = t1 - t0;
    ns[i] = d > 0xffffffffn ? 0xffffffff : Number(d);
    if (out !== null) sink = (sink + firstByte(out)) | 0;
  }
  return ns;
}
