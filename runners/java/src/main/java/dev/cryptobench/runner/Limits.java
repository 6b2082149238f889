package dev.cryptobench.runner;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Request limits (docs/protocol.md, "Limits"): a line too long, too deeply nested, not UTF-8 or
 * empty is answered bad_request before it is parsed; the largest sizes a request may ask for.
 */
final class Limits {
  /** Bytes of a request line before its newline. */
  static final int LINE_LIMIT = 192 << 20;

  /** Arrays and objects, the request object included. */
  static final int DEPTH_LIMIT = 64;

  static final long MAX_BATCHES = 1 << 16;

  private final InputStream in;
  private final byte[] buf = new byte[1 << 16];
  private int pos;
  private int end;
  private boolean tooLong;

  Limits(InputStream in) {
    this.in = in;
  }

  /**
   * The next line without its newline, or null at EOF. A line over LINE_LIMIT is read to its end
   * without being kept: then {@link #tooLong()} is true.
   */
  byte[] next() throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    boolean any = false;
    tooLong = false;
    while (true) {
      if (pos == end) {
        end = in.read(buf);
        pos = 0;
        if (end <= 0) {
          end = 0;
          return any ? finish(line) : null;
        }
      }
      any = true;
      int start = pos;
      while (pos < end && buf[pos] != '\n') {
        pos++;
      }
      if (!tooLong && line.size() + (pos - start) > LINE_LIMIT) {
        tooLong = true;
        line = new ByteArrayOutputStream();
      }
      if (!tooLong) {
        line.write(buf, start, pos - start);
      }
      if (pos < end) {
        pos++; // the newline
        return finish(line);
      }
    }
  }

  private byte[] finish(ByteArrayOutputStream line) {
    return tooLong ? new byte[0] : line.toByteArray();
  }

  boolean tooLong() {
    return tooLong;
  }

  /** Why a line is refused before parsing (empty, nested too deep, not UTF-8), or null. */
  static String refusal(byte[] line) {
    int depth = 0;
    boolean inString = false;
    boolean blank = true;
    for (int i = 0; i < line.length; i++) {
      byte c = line[i];
      if (c != ' ' && c != '\t' && c != '\r') {
        blank = false;
      }
      if (inString) {
        if (c == '\\') {
          i++;
        } else if (c == '"') {
          inString = false;
        }
      } else if (c == '"') {
        inString = true;
      } else if (c == '[' || c == '{') {
        if (++depth > DEPTH_LIMIT) {
          return "JSON nested deeper than " + DEPTH_LIMIT + " levels";
        }
      } else if (c == ']' || c == '}') {
        depth--;
      }
    }
    return blank ? "empty request line" : null;
  }

  /** The line as text; null when it is not UTF-8. */
  static String text(byte[] line) {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(line))
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }
}
