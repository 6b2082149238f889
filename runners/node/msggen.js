// Generated messages (docs/protocol.md, "Generated messages"): xorshift64 over one 64 KiB
// block, repeated to the length. Not a cryptographic primitive: the same bytes in every runner.
import { MAX_GENERATED } from "./limits.js";
import { badRequest, invalidParams } from "./errors.js";

export const GENERATORS = ["xorshift64"];
const BLOCK = 65536;
const M64 = (1n << 64n) - 1n;

function block(seed) {
  const out = Buffer.alloc(BLOCK);
  let x = BigInt(seed) ^ 0x9e3779b97f4a7c15n;
  for (let i = 0; i < BLOCK; i += 8) {
    x ^= (x << 13n) & M64;
    x ^= x >> 7n;
    x ^= (x << 17n) & M64;
    out.writeBigUInt64LE(x, i);
  }
  return out;
}

export function isGenerated(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function expand(spec) {
  const { generator, seed, length } = spec;
  if (generator !== "xorshift64") throw badRequest("unknown generator; valid: xorshift64");
  if (!Number.isInteger(seed) || seed < 0 || seed > 4294967295) {
    throw badRequest("generator seed must be an integer in 0..4294967295");
  }
  if (!Number.isInteger(length) || length < 0) {
    throw badRequest("generator length must be an integer >= 0");
  }
  if (length > MAX_GENERATED) throw invalidParams(`a generated message is at most ${MAX_GENERATED} bytes`);
  let msg;
  try {
    msg = Buffer.allocUnsafe(length);
  } catch (e) {
    throw invalidParams(`cannot hold a ${length}-byte message: ${e.message}`);
  }
  const b = block(seed);
  for (let off = 0; off < length; off += BLOCK) b.copy(msg, off, 0, Math.min(BLOCK, length - off));
  return msg;
}
