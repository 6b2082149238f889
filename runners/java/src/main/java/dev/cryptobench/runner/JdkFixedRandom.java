package dev.cryptobench.runner;

import java.security.SecureRandom;

/**
 * A SecureRandom that serves given bytes, in order, and from the start again once all were served:
 * how a seed (ML-KEM's d‖z, ML-DSA's ξ) or fixed randomness (ML-KEM's m, ML-DSA's rnd) reaches an
 * API that takes only a SecureRandom. It relies on the library drawing exactly those bytes in FIPS
 * 203/204's order; the known answers (Wycheproof, vectors/) check that it does.
 */
final class JdkFixedRandom extends SecureRandom {
  private static final long serialVersionUID = 1L;

  private byte[] bytes;
  private int next;

  /** No platform PRNG behind it (SecureRandom() would make one): every draw is overridden. */
  JdkFixedRandom(byte[] bytes) {
    super(null, null);
    serve(bytes);
  }

  /** Serves these bytes from now on, from their start. */
  synchronized void serve(byte[] fixed) {
    bytes = fixed.clone();
    next = 0;
  }

  @Override
  public synchronized void nextBytes(byte[] out) {
    for (int i = 0; i < out.length; i++) {
      out[i] = bytes[next];
      next = (next + 1) % bytes.length;
    }
  }

  @Override
  public byte[] generateSeed(int n) {
    throw new IllegalStateException("a fixed randomness source has no seed to give");
  }

  @Override
  public void setSeed(long seed) {
    // SecureRandom's constructor calls it; the bytes served do not depend on it
  }

  @Override
  public synchronized void setSeed(byte[] seed) {
    throw new IllegalStateException("a fixed randomness source takes no seed");
  }
}
