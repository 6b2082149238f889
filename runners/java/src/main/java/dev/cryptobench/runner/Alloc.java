package dev.cryptobench.runner;

import com.google.gson.JsonObject;
import java.lang.management.ManagementFactory;

/**
 * What the bench request's untimed call allocates (docs/protocol.md, bench, {@code alloc_bytes}):
 * HotSpot's count of the bytes the current thread has allocated on the heap
 * (com.sun.management.ThreadMXBean#getCurrentThreadAllocatedBytes: TLAB refills plus the current
 * TLAB's used part), read before and after that one call only, never around a timed batch. Where
 * the JVM does not offer the counter, or it is switched off, the answer carries no field.
 */
final class Alloc {
  static final String COUNTER = "ThreadMXBean.getCurrentThreadAllocatedBytes";

  /** Loaded at the first bench (hello and compute never touch the management classes). */
  private static final com.sun.management.ThreadMXBean THREADS = bean();

  private Alloc() {}

  private static com.sun.management.ThreadMXBean bean() {
    try {
      if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean t
          && t.isThreadAllocatedMemorySupported()
          && t.isThreadAllocatedMemoryEnabled()) {
        return t;
      }
    } catch (LinkageError | RuntimeException e) {
      // no jdk.management module in this runtime: not offered
    }
    return null;
  }

  /** The current thread's allocated bytes so far, or -1 where not offered. */
  static long now() {
    return THREADS == null ? -1 : THREADS.getCurrentThreadAllocatedBytes();
  }

  /** Adds the bytes allocated between two readings of {@link #now} to a bench answer. */
  static void report(JsonObject result, long before, long after) {
    if (before < 0 || after < before) {
      return;
    }
    result.addProperty("alloc_bytes", after - before);
    result.addProperty("alloc_counter", COUNTER);
  }
}
