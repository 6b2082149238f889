// A bench in N worker_threads (docs/protocol.md, bench, "threads"). Each worker is its own
// V8 isolate: it loads the library table itself (thread_worker.js), sets the case up, makes
// its untimed call and waits at a start gate (Atomics.wait on a SharedArrayBuffer); once every
// worker is ready the gate opens (Atomics.notify) and all time the same batches. Workers
// share nothing but the process: its OpenSSL, its allocator and the libuv threadpool.

import { Worker } from "node:worker_threads";
import { ProtocolError, badRequest, classify, internal } from "./protocol.js";

export const MAX_THREADS = 256;
const WORKER = new URL("./thread_worker.js", import.meta.url);

// The optional `threads` field: 1 when absent or null, else 1..MAX_THREADS.
export function threadCount(req) {
  const n = req.threads ?? 1;
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_THREADS) {
    throw badRequest(`threads must be an integer in 1..${MAX_THREADS}`);
  }
  return n;
}

const plain = (err) => {
  const e = classify(err);
  return { kind: e.kind, message: e.message };
};

// One worker and the two answers it gives, in order: {ready} then {samples} (or {error}
// at any point; an uncaught error or an early exit is one too).
function start(req, gate) {
  const worker = new Worker(WORKER, { workerData: { req, gate } });
  let onReady, onDone;
  const ready = new Promise((resolve) => (onReady = resolve));
  const done = new Promise((resolve) => (onDone = resolve));
  const fail = (error) => {
    onReady({ error });
    onDone({ error });
  };
  worker.on("message", (m) => {
    onReady(m);
    if (!m.ready) onDone(m);
  });
  worker.on("error", (err) => fail(plain(err)));
  worker.on("exit", (code) => fail(plain(internal(`thread exited (code ${code}) before answering`))));
  return { worker, ready, done };
}

function firstError(answers) {
  const bad = answers.find((a) => a.error);
  return bad ? new ProtocolError(bad.error.kind, `thread: ${bad.error.message}`) : null;
}

// Every worker's batches (samples), in worker order.
export async function benchThreads(req, n) {
  const gate = new SharedArrayBuffer(4);
  const flag = new Int32Array(gate);
  const threads = Array.from({ length: n }, () => start(req, gate));
  try {
    const error = firstError(await Promise.all(threads.map((t) => t.ready)));
    Atomics.store(flag, 0, error ? -1 : 1);
    Atomics.notify(flag, 0);
    if (error) throw error;
    const answers = await Promise.all(threads.map((t) => t.done));
    const late = firstError(answers);
    if (late) throw late;
    return answers.map((a) => a.samples);
  } finally {
    await Promise.all(threads.map((t) => t.worker.terminate()));
  }
}
