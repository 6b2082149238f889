package dev.cryptobench.runner;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A bench in N threads (docs/protocol.md, bench, "threads"): each thread prepares its own case (its
 * own key schedule and buffers) and makes its own untimed call; a CyclicBarrier releases them
 * together. JVM threads share the heap, the JIT's compiled code and the GC threads.
 */
final class Threads {
  static final int MAX = 256;

  private Threads() {}

  static byte[] bench(Primitive primitive, Request request, Op first, int n, JsonObject result)
      throws Exception {
    if (n > MAX) {
      throw RunnerException.badRequest("threads must be an integer in 1.." + MAX);
    }
    int iterations = request.bounded("iterations", Integer.MAX_VALUE);
    int batches = request.bounded("batches", Limits.MAX_BATCHES);
    List<Op> ops = new ArrayList<>();
    ops.add(first);
    for (int i = 1; i < n; i++) {
      ops.add(primitive.prepare(request.primitive(), request.inputs()));
    }
    byte[] output = null;
    for (Op op : ops) {
      byte[] out = op.call().clone();
      output = output == null ? out : output;
    }
    CyclicBarrier barrier = new CyclicBarrier(n);
    ExecutorService pool = Executors.newFixedThreadPool(n);
    try {
      List<Future<JsonArray>> running = new ArrayList<>();
      for (Op op : ops) {
        running.add(pool.submit(() -> Bench.runThread(op, iterations, batches, barrier)));
      }
      JsonArray all = new JsonArray();
      for (Future<JsonArray> f : running) {
        try {
          all.add(f.get());
        } catch (ExecutionException e) {
          throw e.getCause() instanceof Exception cause ? cause : e;
        }
      }
      result.add("samples", all.get(0));
      result.add("thread_samples", all);
    } finally {
      pool.shutdownNow();
    }
    return output;
  }
}
