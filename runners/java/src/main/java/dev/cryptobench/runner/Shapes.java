package dev.cryptobench.runner;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;

/**
 * The shapes a dispatch-table row takes (digest, XOF, MAC, CTR cipher, AEAD, KDF), so that the
 * tables only name library calls. Setup runs once in {@code prepare}, or inside every call when
 * fresh_context is true.
 */
final class Shapes {
  static final int TAG_LEN = 16;
  private static final byte[] OK = "ok".getBytes(StandardCharsets.US_ASCII);
  private static final Set<String> NONE = Set.of();

  private Shapes() {}

  /** Creates an unkeyed context (a hasher object). */
  @FunctionalInterface
  interface Make<T> {
    T make() throws Exception;
  }

  /** Creates a keyed context: a MAC or cipher object with its key set up. */
  @FunctionalInterface
  interface Keyed<T> {
    T make(byte[] key) throws Exception;
  }

  /** Hashes (or MACs) msg with a context. */
  @FunctionalInterface
  interface Hash<T> {
    byte[] run(T ctx, byte[] msg) throws Exception;
  }

  /** Squeezes outLen bytes of an XOF of msg. */
  @FunctionalInterface
  interface Squeeze<T> {
    byte[] run(T ctx, byte[] msg, int outLen) throws Exception;
  }

  /** Runs a cipher context over len bytes of input into out; returns the bytes written. */
  @FunctionalInterface
  interface Crypt<T> {
    int run(T ctx, byte[] nonce, byte[] aad, byte[] input, int len, byte[] out) throws Exception;
  }

  static <T> Primitive digest(String nativeName, Make<T> make, Hash<T> hash) {
    Primitive.Prepare digest =
        in -> {
          byte[] msg = in.get("msg");
          if (in.fresh) {
            return () -> hash.run(make.make(), msg);
          }
          T ctx = make.make();
          return () -> hash.run(ctx, msg);
        };
    return new Primitive(nativeName, ops("digest", digest), NONE, true, null, 0);
  }

  static <T> Primitive xof(String nativeName, Make<T> make, Squeeze<T> squeeze) {
    Primitive.Prepare digest =
        in -> {
          byte[] msg = in.get("msg");
          int outLen = in.intParam("out_len", 1, 1 << 20);
          if (in.fresh) {
            return () -> squeeze.run(make.make(), msg, outLen);
          }
          T ctx = make.make();
          return () -> squeeze.run(ctx, msg, outLen);
        };
    return new Primitive(nativeName, ops("digest", digest), Set.of("out_len"), true, null, 0);
  }

  /**
   * A MAC: mac (the tag), and verify (inputs key, msg, tag): the tag computed as mac does, then
   * compared with {@code equal}, the library's constant-time comparison; "ok" when it matches, else
   * auth_failed (a tag of another length included).
   */
  static <T> Primitive mac(
      String nativeName, Keyed<T> make, Hash<T> mac, BiPredicate<byte[], byte[]> equal) {
    Primitive.Prepare verify =
        in -> {
          byte[] tag = in.get("tag");
          Op computed = macOp(in, make, mac);
          return () -> verified(equal.test(computed.call(), tag));
        };
    return new Primitive(
        nativeName, ops("mac", in -> macOp(in, make, mac), "verify", verify), NONE, true, null, 0);
  }

  private static <T> Op macOp(Inputs in, Keyed<T> make, Hash<T> mac) throws Exception {
    byte[] key = in.get("key");
    byte[] msg = in.get("msg");
    if (in.fresh) {
      return () -> mac.run(make.make(key), msg);
    }
    T ctx = make.make(key);
    return () -> mac.run(ctx, msg);
  }

  private static byte[] verified(boolean valid) throws RunnerException {
    if (!valid) {
      throw RunnerException.authFailed("the tag does not verify");
    }
    return OK;
  }

  /** A stream/CTR cipher: encrypt, and roundtrip = encrypt then decrypt. */
  static <T> Primitive ctr(String nativeName, int keyLen, Keyed<T> enc, Keyed<T> dec, Crypt<T> c) {
    Map<String, Primitive.Prepare> ops =
        ops(
            "encrypt", in -> stepping(in, one(in, enc, c, 0)),
            "roundtrip", in -> stepping(in, roundtrip(in, enc, dec, c, 0)));
    return new Primitive(nativeName, ops, NONE, true, null, keyLen);
  }

  /** An AEAD: seal (ct‖tag), open, and roundtrip = seal then open. */
  static <T> Primitive aead(String nativeName, int keyLen, Keyed<T> enc, Keyed<T> dec, Crypt<T> c) {
    Map<String, Primitive.Prepare> ops =
        ops(
            "seal", in -> stepping(in, one(in, enc, c, TAG_LEN)),
            "open", in -> one(in, dec, c, -TAG_LEN),
            "roundtrip", in -> stepping(in, roundtrip(in, enc, dec, c, TAG_LEN)));
    return new Primitive(nativeName, ops, Set.of("aad_len"), true, null, keyLen);
  }

  /** A row whose operations are prepared by hand (password hashes, KDFs). */
  static Primitive custom(
      String nativeName,
      Set<String> params,
      Boolean takesSalt,
      Map<String, Primitive.Prepare> ops) {
    return new Primitive(nativeName, ops, params, true, takesSalt, 0);
  }

  static Map<String, Primitive.Prepare> ops(String name, Primitive.Prepare prepare) {
    Map<String, Primitive.Prepare> ops = new LinkedHashMap<>();
    ops.put(name, prepare);
    return ops;
  }

  static Map<String, Primitive.Prepare> ops(
      String name1, Primitive.Prepare prepare1, String name2, Primitive.Prepare prepare2) {
    Map<String, Primitive.Prepare> ops = ops(name1, prepare1);
    ops.put(name2, prepare2);
    return ops;
  }

  static Map<String, Primitive.Prepare> ops(
      String name1,
      Primitive.Prepare prepare1,
      String name2,
      Primitive.Prepare prepare2,
      String name3,
      Primitive.Prepare prepare3) {
    Map<String, Primitive.Prepare> ops = ops(name1, prepare1, name2, prepare2);
    ops.put(name3, prepare3);
    return ops;
  }

  /** One cipher pass whose output is the input length plus {@code grow} bytes. */
  private static <T> Op one(Inputs in, Keyed<T> make, Crypt<T> c, int grow) throws Exception {
    byte[] key = in.get("key");
    byte[] nonce = in.get("nonce");
    byte[] aad = in.optional("aad");
    byte[] msg = in.get("msg");
    if (msg.length + grow < 0) {
      throw RunnerException.authFailed("the input is shorter than the tag");
    }
    byte[] out = new byte[msg.length + grow];
    if (in.fresh) {
      return () -> checked(out, c.run(make.make(key), nonce, aad, msg, msg.length, out));
    }
    T ctx = make.make(key);
    return () -> checked(out, c.run(ctx, nonce, aad, msg, msg.length, out));
  }

  /** Encrypt/seal then decrypt/open; the output is the first pass's, checked to come back. */
  private static <T> Op roundtrip(Inputs in, Keyed<T> enc, Keyed<T> dec, Crypt<T> c, int grow)
      throws Exception {
    byte[] key = in.get("key");
    byte[] nonce = in.get("nonce");
    byte[] aad = in.optional("aad");
    byte[] msg = in.get("msg");
    byte[] sealed = new byte[msg.length + grow];
    byte[] back = new byte[msg.length];
    if (in.fresh) {
      return () -> back(enc.make(key), dec.make(key), c, nonce, aad, msg, sealed, back);
    }
    return pass(enc.make(key), dec.make(key), c, nonce, aad, msg, sealed, back);
  }

  private static <T> Op pass(
      T e, T d, Crypt<T> c, byte[] nonce, byte[] aad, byte[] msg, byte[] sealed, byte[] back) {
    return () -> back(e, d, c, nonce, aad, msg, sealed, back);
  }

  private static <T> byte[] back(
      T e, T d, Crypt<T> c, byte[] nonce, byte[] aad, byte[] msg, byte[] sealed, byte[] back)
      throws Exception {
    checked(sealed, c.run(e, nonce, aad, msg, msg.length, sealed));
    checked(back, c.run(d, nonce, aad, sealed, sealed.length, back));
    if (!Arrays.equals(back, msg)) {
      throw RunnerException.internal("roundtrip did not give the message back");
    }
    return sealed;
  }

  private static byte[] checked(byte[] out, int written) throws RunnerException {
    if (written != out.length) {
      throw RunnerException.internal("wrote " + written + " bytes, expected " + out.length);
    }
    return out;
  }

  /** Steps the nonce before each timed call: a counter in its last 4 bytes, big-endian. */
  private static Op stepping(Inputs in, Op op) throws RunnerException {
    byte[] nonce = in.get("nonce");
    return new Op() {
      @Override
      public byte[] call() throws Exception {
        return op.call();
      }

      @Override
      public void step() {
        for (int i = nonce.length - 1; i >= Math.max(0, nonce.length - 4); i--) {
          if (++nonce[i] != 0) {
            break;
          }
        }
      }
    };
  }
}
