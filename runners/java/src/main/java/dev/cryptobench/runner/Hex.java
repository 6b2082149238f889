package dev.cryptobench.runner;

import java.util.HexFormat;

/** Lowercase hex, the protocol's encoding of every byte string. */
final class Hex {
  private static final HexFormat FORMAT = HexFormat.of();

  private Hex() {}

  static String encode(byte[] bytes) {
    return FORMAT.formatHex(bytes);
  }

  static byte[] decode(String field, String hex) throws RunnerException {
    try {
      return FORMAT.parseHex(hex);
    } catch (IllegalArgumentException e) {
      throw RunnerException.badRequest(field + " is not hex: " + e.getMessage());
    }
  }

  /** The integer as {@code bytes} big-endian bytes (checksums are encoded so). */
  static byte[] bigEndian(long value, int bytes) {
    byte[] out = new byte[bytes];
    for (int i = bytes - 1; i >= 0; i--) {
      out[i] = (byte) value;
      value >>>= 8;
    }
    return out;
  }
}
