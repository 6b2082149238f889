package dev.cryptobench.runner;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;

/** The timing loop: one untimed call, then batches timed with System.nanoTime. */
final class Bench {
  /** Every output's first byte ends up here, so the JIT cannot drop the work. */
  static volatile int sink;

  private Bench() {}

  /** Runs the untimed call (whose output is returned) and the timed batches into samples. */
  static byte[] run(Op op, int iterations, int batches, JsonArray samples) throws Exception {
    byte[] first = op.call().clone(); // cipher ops write into one buffer the batches reuse
    for (int b = 0; b < batches; b++) {
      long start = System.nanoTime();
      int acc = batch(op, iterations);
      long ns = System.nanoTime() - start;
      sink += acc;
      JsonObject sample = new JsonObject();
      sample.addProperty("iterations", iterations);
      sample.addProperty("ns", ns);
      samples.add(sample);
    }
    return first;
  }

  /** A small method of its own, so the JIT compiles it whole rather than only by OSR. */
  private static int batch(Op op, int iterations) throws Exception {
    int acc = 0;
    for (int i = 0; i < iterations; i++) {
      op.step();
      byte[] out = op.call();
      acc += out.length == 0 ? 0 : out[0];
    }
    return acc;
  }
}
