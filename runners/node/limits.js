// Request limits (docs/protocol.md, "Limits"): a line too long, too deeply nested, not UTF-8 or
// empty is answered bad_request before it is parsed; the largest sizes a request may ask for.
import { isUtf8 } from "node:buffer";

export const LINE_LIMIT = 192 << 20; // bytes before the newline
export const DEPTH_LIMIT = 64; // arrays and objects, the request object included
export const MAX_GENERATED = 2 ** 40;
export const MAX_ITERATIONS = 2 ** 40;
export const MAX_BATCHES = 2 ** 16;

// Yields each line of the stream as a Buffer without its newline, or null for a line over
// LINE_LIMIT (read to its end without being kept).
export async function* requestLines(stream) {
  let parts = [];
  let size = 0;
  let tooLong = false;
  let any = false;
  for await (const chunk of stream) {
    let start = 0;
    for (let nl = chunk.indexOf(10); ; nl = chunk.indexOf(10, start)) {
      const end = nl < 0 ? chunk.length : nl;
      if (end > start) any = true;
      if (!tooLong && size + (end - start) > LINE_LIMIT) {
        tooLong = true;
        parts = [];
      }
      if (!tooLong && end > start) {
        parts.push(chunk.subarray(start, end));
        size += end - start;
      }
      if (nl < 0) break;
      yield tooLong ? null : Buffer.concat(parts, size);
      parts = [];
      size = 0;
      tooLong = false;
      any = false;
      start = nl + 1;
    }
  }
  if (any) yield tooLong ? null : Buffer.concat(parts, size);
}

// Why a line is refused before parsing (empty, nested too deep, not UTF-8), or null.
export function refusal(line) {
  let depth = 0;
  let inString = false;
  let blank = true;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) blank = false;
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > DEPTH_LIMIT) return `JSON nested deeper than ${DEPTH_LIMIT} levels`;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  if (blank) return "empty request line";
  if (!isUtf8(line)) return "request line is not UTF-8";
  return null;
}
