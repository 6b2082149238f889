package dev.cryptobench.runner;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.math.BigInteger;

/**
 * Generated messages (docs/protocol.md, "Generated messages"): xorshift64 over one 64 KiB block,
 * repeated to the length. Not a cryptographic primitive: the same bytes in every runner.
 */
final class MsgGen {
  static final String[] GENERATORS = {"xorshift64"};
  private static final int BLOCK = 65536;

  private MsgGen() {}

  static byte[] block(long seed) {
    long x = seed ^ 0x9E3779B97F4A7C15L;
    byte[] out = new byte[BLOCK];
    for (int i = 0; i < BLOCK; i += 8) {
      x ^= x << 13;
      x ^= x >>> 7;
      x ^= x << 17;
      for (int k = 0; k < 8; k++) {
        out[i + k] = (byte) (x >>> (8 * k));
      }
    }
    return out;
  }

  /** The message a generator object describes. */
  static byte[] expand(JsonObject spec) throws RunnerException {
    JsonElement gen = spec.get("generator");
    if (gen == null || !gen.isJsonPrimitive() || !"xorshift64".equals(gen.getAsString())) {
      throw RunnerException.badRequest("unknown generator; valid: xorshift64");
    }
    BigInteger seed = integer(spec.get("seed"));
    if (seed == null || seed.signum() < 0 || seed.bitLength() > 32) {
      throw RunnerException.badRequest("generator seed must be an integer in 0..4294967295");
    }
    BigInteger length = integer(spec.get("length"));
    if (length == null || length.signum() < 0) {
      throw RunnerException.badRequest("generator length must be an integer >= 0");
    }
    if (length.bitLength() > 31 || length.intValue() > Integer.MAX_VALUE - 8) {
      throw RunnerException.invalidParams(
          "cannot hold a " + length + "-byte message: a Java byte[] holds at most 2 GiB - 8");
    }
    int n = length.intValue();
    byte[] msg;
    try {
      msg = new byte[n];
    } catch (OutOfMemoryError e) {
      throw RunnerException.invalidParams(
          "cannot hold a "
              + n
              + "-byte message: the heap is "
              + Runtime.getRuntime().maxMemory()
              + " bytes (-Xmx)");
    }
    byte[] b = block(seed.longValue());
    for (int off = 0; off < n; off += BLOCK) {
      System.arraycopy(b, 0, msg, off, Math.min(BLOCK, n - off));
    }
    return msg;
  }

  private static BigInteger integer(JsonElement v) {
    if (v == null || !v.isJsonPrimitive() || !v.getAsJsonPrimitive().isNumber()) {
      return null;
    }
    try {
      return v.getAsBigDecimal().toBigIntegerExact();
    } catch (ArithmeticException e) {
      return null;
    }
  }
}
