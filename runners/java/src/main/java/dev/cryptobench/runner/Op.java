package dev.cryptobench.runner;

/** One prepared operation: its setup is done and its inputs are bound. */
interface Op {
  /** Performs the operation once and returns its output. */
  byte[] call() throws Exception;

  /** Moves to the next message's nonce (AEAD seal/roundtrip, CTR encrypt); no-op otherwise. */
  default void step() {}
}
