package dev.cryptobench.runner;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CyclicBarrier;

/**
 * The timing loop: one untimed call, then batches timed with System.nanoTime.
 *
 * <p>Each sample also carries {@code compiles}: how many JIT compilations started while the batch
 * ran. runner.toml starts the JVM with {@code -Xlog:jit+compilation=debug} into a file named after
 * its pid, one line per compilation as it starts; this class opens that file, unlinks it (nothing
 * is left behind, even after kill -9) and counts the new lines between batches, outside the timed
 * region. A batch with compilation is warm-up to the orchestrator.
 */
final class Bench {
  /** Every output's first byte ends up here, so the JIT cannot drop the work. */
  static volatile int sink;

  private static final FileChannel JIT_LOG = openJitLog();
  private static final ByteBuffer JIT_BUF = ByteBuffer.allocate(1 << 16);

  private static FileChannel openJitLog() {
    Path path = Path.of("/tmp", "cryptobench-jit-" + ProcessHandle.current().pid() + ".log");
    try {
      FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
      Files.deleteIfExists(path);
      return channel;
    } catch (IOException e) {
      return null; // started without the log flag: samples carry no compiles
    }
  }

  /** Compilations logged since the last call (lines added to the log), or -1 without a log. */
  private static int compilesSinceLastCall() throws IOException {
    if (JIT_LOG == null) {
      return -1;
    }
    int lines = 0;
    JIT_BUF.clear();
    while (JIT_LOG.read(JIT_BUF) > 0) {
      JIT_BUF.flip();
      while (JIT_BUF.hasRemaining()) {
        if (JIT_BUF.get() == '\n') {
          lines++;
        }
      }
      JIT_BUF.clear();
    }
    return lines;
  }

  private Bench() {}

  /**
   * Opens (and unlinks) the JIT log now: a JVM that only answers hello or compute requests
   * (verification) would otherwise leave its /tmp/cryptobench-jit-PID.log behind.
   */
  static void openLogNow() {
    // the class initialiser above has run by the time this returns
  }

  /**
   * Runs the untimed call (whose output is returned; what it allocates goes into the answer, see
   * {@link Alloc}) and the timed batches into the answer's samples.
   */
  static byte[] run(Op op, int iterations, int batches, JsonObject result) throws Exception {
    long before = Alloc.now();
    byte[] out = op.call();
    Alloc.report(result, before, Alloc.now());
    byte[] first = out.clone(); // cipher ops write into one buffer the batches reuse
    JsonArray samples = new JsonArray();
    result.add("samples", samples);
    compilesSinceLastCall();
    for (int b = 0; b < batches; b++) {
      long start = System.nanoTime();
      int acc = batch(op, iterations);
      long ns = System.nanoTime() - start;
      int compiles = compilesSinceLastCall();
      sink += acc;
      JsonObject sample = new JsonObject();
      sample.addProperty("iterations", iterations);
      sample.addProperty("ns", ns);
      if (compiles >= 0) {
        sample.addProperty("compiles", compiles);
      }
      samples.add(sample);
    }
    return first;
  }

  /**
   * One thread of a threaded bench: waits at the barrier, then times its batches (no compile
   * counts: the JIT log is the process's, not a thread's).
   */
  static JsonArray runThread(Op op, int iterations, int batches, CyclicBarrier barrier)
      throws Exception {
    barrier.await();
    JsonArray samples = new JsonArray();
    int acc = 0;
    for (int b = 0; b < batches; b++) {
      long start = System.nanoTime();
      acc += batch(op, iterations);
      long ns = System.nanoTime() - start;
      JsonObject sample = new JsonObject();
      sample.addProperty("iterations", iterations);
      sample.addProperty("ns", ns);
      samples.add(sample);
    }
    synchronized (Bench.class) {
      sink += acc;
    }
    return samples;
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

  /**
   * The leak request: one call of {@code ops[order[i]]} per measurement, each timed alone; a failed
   * call (a bad tag or password) is the expected outcome. Nanoseconds, capped at 2^32-1.
   */
  static int[] single(Op[] ops, byte[] order) {
    int[] ns = new int[order.length];
    int acc = 0;
    for (int i = 0; i < order.length; i++) {
      Op op = ops[order[i]];
      long start = System.nanoTime();
      try {
        byte[] out = op.call();
        acc += out.length == 0 ? 0 : out[0];
      } catch (Exception e) {
        acc++;
      }
      long d = System.nanoTime() - start;
      ns[i] = (int) Math.min(d, 0xFFFFFFFFL);
    }
    sink += acc;
    return ns;
  }
}
