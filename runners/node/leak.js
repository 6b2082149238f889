// The leak request (docs/protocol.md): single calls timed one by one on
// process.hrtime.bigint(), two classes of inputs prepared before timing,
// interleaved in the order the orchestrator sends. No policy.

import { timingSafeEqual } from "node:crypto";
import { prepare } from "./operations.js";
import { badRequest, checkWork, decodeInputs, toHex } from "./protocol.js";
import { timeSingleCalls } from "./timing.js";

const CLOCK = "process.hrtime.bigint";

// The language's equality (Buffer.equals: early-exit memcmp) and its
// constant-time counterpart (crypto.timingSafeEqual); output 01 / 00.
function control(primitive, inputs) {
  const { a, b } = inputs;
  if (a === undefined || b === undefined) throw badRequest("inputs a and b are required");
  const one = Buffer.from([1]);
  const zero = Buffer.from([0]);
  if (primitive === "equal") return { call: () => (a.equals(b) ? one : zero), async: false };
  return {
    call: () => (a.length === b.length && timingSafeEqual(a, b) ? one : zero),
    async: false,
  };
}

function decodeOrder(req) {
  if (typeof req.order !== "string") throw badRequest("order must be a base64 string");
  const order = Buffer.from(req.order, "base64");
  if (order.length === 0 || order.some((c) => c > 1)) {
    throw badRequest("order must hold classes 0 and 1");
  }
  return order;
}

async function outcome(op) {
  try {
    const out = await op.call();
    return typeof out === "string" ? out : toHex(out);
  } catch (err) {
    if (err?.kind === "auth_failed") return "auth_failed";
    throw err;
  }
}

export async function leak(findRow, libraries, req) {
  const order = decodeOrder(req);
  if (!Array.isArray(req.classes) || req.classes.length !== 2) {
    throw badRequest("classes must be a list of two objects");
  }
  const isControl = req.primitive === "equal" || req.primitive === "equal-ct";
  const ops = [];
  for (const over of req.classes) {
    if (over === null || typeof over !== "object") throw badRequest("classes must be objects");
    const w = checkWork({ ...req, op: "leak", inputs: { ...(req.inputs ?? {}), ...over } });
    const inputs = decodeInputs(w.inputs);
    if (isControl) {
      ops.push(control(w.primitive, inputs));
    } else {
      const row = findRow(libraries, w);
      ops.push(await prepare(row, w.primitive, w.operation, inputs, w.params, { compute: false }));
    }
  }
  const outcomes = [await outcome(ops[0]), await outcome(ops[1])];
  const ns = await timeSingleCalls(ops, order);
  const le = Buffer.alloc(4 * order.length);
  for (let i = 0; i < ns.length; i++) le.writeUInt32LE(ns[i], 4 * i);
  return { outcomes, ns: le.toString("base64"), clock: CLOCK };
}
