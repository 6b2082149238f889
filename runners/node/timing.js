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
