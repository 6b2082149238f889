// One thread of a threaded bench (threads.js), in its own isolate: loads the library it
// needs, sets the case up, makes the untimed call, says ready, waits at the start gate, then
// times the batches and posts them.

import { parentPort, workerData } from "node:worker_threads";
import { findRow } from "./dispatch.js";
import { loadLibraries } from "./libraries.js";
import { prepare } from "./operations.js";
import { checkWork, classify, decodeInputs } from "./protocol.js";
import { bench } from "./timing.js";

const { req, gate } = workerData;
const flag = new Int32Array(gate);

try {
  const w = checkWork(req);
  const libraries = await loadLibraries(w.impl === undefined ? [] : [w.impl]);
  const row = findRow(libraries, w);
  const op = await prepare(row, w.primitive, w.operation, decodeInputs(w.inputs), w.params);
  await op.first();
  parentPort.postMessage({ ready: true });
  Atomics.wait(flag, 0, 0);
  if (Atomics.load(flag, 0) > 0) {
    parentPort.postMessage({ samples: await bench(op, w.iterations, w.batches) });
  }
} catch (err) {
  const e = classify(err);
  parentPort.postMessage({ error: { kind: e.kind, message: e.message } });
}
