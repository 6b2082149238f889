// Timed batches on process.hrtime.bigint() (CLOCK_MONOTONIC, ns). No policy:
// no warm-up, no repetition beyond what the request asks for.

let sink = 0;

// One byte of every output is read into `sink`, so no call can be dropped.
function firstByte(out) {
  return typeof out === "string" ? out.charCodeAt(0) | 0 : out[0] | 0;
}

export function sinkValue() {
  return sink;
}

// op = {call, step, async}: `step` (or null) advances the nonce before each call.
export function benchSync(op, iterations, batches) {
  const { call, step } = op;
  const samples = [];
  for (let b = 0; b < batches; b++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) {
      if (step !== null) step();
      sink = (sink + firstByte(call())) | 0;
    }
    const t1 = process.hrtime.bigint();
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
