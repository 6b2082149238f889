package dev.cryptobench.runner;

/** The pseudo-primitive every runner offers: its ns/op is this runner's loop-and-call cost. */
final class Noop {
  /** digest → the message length as an 8-byte big-endian integer. */
  static final Primitive PRIMITIVE =
      Shapes.digest("noop", () -> Boolean.TRUE, (ctx, msg) -> Hex.bigEndian(msg.length, 8));

  private Noop() {}
}
