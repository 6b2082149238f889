package dev.cryptobench.runner;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** Password conversions the JCA's char[]-based APIs need. */
final class Passwords {
  private Passwords() {}

  /**
   * The password as chars. The JDK's PBKDF2 encodes its char[] as UTF-8, so a password that is
   * valid UTF-8 reaches the KDF as the very bytes sent; any other byte string cannot.
   */
  static char[] utf8(byte[] password) throws RunnerException {
    try {
      CharBuffer chars =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(password));
      char[] out = new char[chars.remaining()];
      chars.get(out);
      return out;
    } catch (CharacterCodingException e) {
      throw RunnerException.invalidParams("JCA takes a char[] password: UTF-8 text only");
    }
  }
}
