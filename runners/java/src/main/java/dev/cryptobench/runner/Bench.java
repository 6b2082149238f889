package dev.cryptobench.runner;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/**
 * The timing loop: one untimed call, then batches timed with System.nanoTime.
 *
 * <p>Each sample also carries {@code jit_ms}: the JIT compilers' accumulated time that grew while
 * the batch ran (CompilationMXBean, whole milliseconds). A batch with compilation is warm-up to the
 * orchestrator, which starts measuring after a window without any.
 */
final class Bench {
  /** Every output's first byte ends up here, so the JIT cannot drop the work. */
  static volatile int sink;

  private static final CompilationMXBean JIT = ManagementFactory.getCompilationMXBean();

  private Bench() {}

  /** Runs the untimed call (whose output is returned) and the timed batches into samples. */
  static byte[] run(Op op, int iterations, int batches, JsonArray samples) throws Exception {
    byte[] first = op.call().clone(); // cipher ops write into one buffer the batches reuse
    boolean jit = JIT != null && JIT.isCompilationTimeMonitoringSupported();
    for (int b = 0; b < batches; b++) {
      long jitBefore = jit ? JIT.getTotalCompilationTime() : 0;
      long start = System.nanoTime();
      int acc = batch(op, iterations);
      long ns = System.nanoTime() - start;
      long jitMs = jit ? JIT.getTotalCompilationTime() - jitBefore : 0;
      sink += acc;
      JsonObject sample = new JsonObject();
      sample.addProperty("iterations", iterations);
      sample.addProperty("ns", ns);
      if (jit) {
        sample.addProperty("jit_ms", jitMs);
      }
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
