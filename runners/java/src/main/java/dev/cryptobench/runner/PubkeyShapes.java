package dev.cryptobench.runner;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;

/**
 * The shapes of the public-key rows (docs/protocol.md, "Public-key operations"): kex (keygen,
 * agree) and signature (keygen, sign, verify), over the protocol's encodings. A library file gives
 * functions; K is its prepared private-key context (a key, or a Signature/KeyAgreement object
 * initialised with it), P its prepared public-key context. Our key is prepared once per case (in
 * every call with fresh_context); agree parses the peer's public key in every call (it arrives with
 * each handshake); keygen without key_seed makes a fresh random pair per call.
 */
final class PubkeyShapes {
  static final byte[] OK = "ok".getBytes(StandardCharsets.US_ASCII);
  static final int SEED_LEN = 32;

  private PubkeyShapes() {}

  /** Makes a key pair, {public, private} in the protocol's encodings; seed is null for random. */
  @FunctionalInterface
  interface KeyGen {
    byte[][] make(byte[] seed) throws Exception;
  }

  /** Parses (imports) a key in the protocol's encoding into a prepared context. */
  @FunctionalInterface
  interface Load<K> {
    K load(byte[] raw) throws Exception;
  }

  /** Computes a shared secret, or a signature, with a prepared context. */
  @FunctionalInterface
  interface Use<K> {
    byte[] run(K key, byte[] input) throws Exception;
  }

  /** Checks a signature of msg with a prepared public-key context. */
  @FunctionalInterface
  interface Check<P> {
    boolean verify(P key, byte[] msg, byte[] sig) throws Exception;
  }

  static <K> Primitive kex(
      String nativeName, Shapes.Make<KeyGen> keygen, Load<K> load, Use<K> agree) {
    Primitive.Prepare agreeOp =
        in -> {
          byte[] peer = in.get("peer_public_key");
          return keyed(in, "private_key", load, key -> agree.run(key, peer));
        };
    return new Primitive(
        nativeName,
        Shapes.ops("keygen", keygenOp(keygen), "agree", agreeOp),
        Set.of(),
        true,
        null,
        0);
  }

  static <K, P> Primitive signature(
      String nativeName,
      Shapes.Make<KeyGen> keygen,
      Load<K> loadPrivate,
      Use<K> sign,
      Load<P> loadPublic,
      Check<P> verify) {
    Primitive.Prepare signOp =
        in -> {
          byte[] msg = in.get("msg");
          return keyed(in, "private_key", loadPrivate, key -> sign.run(key, msg));
        };
    Primitive.Prepare verifyOp =
        in -> {
          byte[] msg = in.get("msg");
          byte[] sig = in.get("signature");
          return keyed(in, "public_key", loadPublic, key -> checked(verify.verify(key, msg, sig)));
        };
    Map<String, Primitive.Prepare> ops =
        Shapes.ops("keygen", keygenOp(keygen), "sign", signOp, "verify", verifyOp);
    return new Primitive(nativeName, ops, Set.of(), true, null, 0);
  }

  private static byte[] checked(boolean valid) throws RunnerException {
    if (!valid) {
      throw RunnerException.authFailed("the signature does not verify");
    }
    return OK;
  }

  private static Primitive.Prepare keygenOp(Shapes.Make<KeyGen> make) {
    return keygenOp(make, SEED_LEN);
  }

  /**
   * keygen: public key ‖ private key, from key_seed ({@code seedLen} bytes) when it is sent; the
   * generator (a KeyPairGenerator, say) is made once per case.
   */
  static Primitive.Prepare keygenOp(Shapes.Make<KeyGen> make, int seedLen) {
    return in -> {
      byte[] seed = null;
      if (in.has("key_seed")) {
        seed = in.get("key_seed");
        if (seed.length != seedLen) {
          throw RunnerException.invalidParams(
              "key_seed is " + seed.length + " bytes, not " + seedLen);
        }
      }
      byte[] fixed = seed;
      KeyGen keygen = make.make();
      return () -> concat(keygen.make(fixed));
    };
  }

  /** pair[0] ‖ pair[1]: a key pair's answer, or an encapsulation's (ciphertext ‖ secret). */
  static byte[] concat(byte[][] pair) {
    byte[] out = Arrays.copyOf(pair[0], pair[0].length + pair[1].length);
    System.arraycopy(pair[1], 0, out, pair[0].length, pair[1].length);
    return out;
  }

  /** The one-argument use of a prepared key. */
  @FunctionalInterface
  interface With<K> {
    byte[] run(K key) throws Exception;
  }

  /** Parses the named key input once (or in every call with fresh_context) and runs use. */
  static <K> Op keyed(Inputs in, String name, Load<K> load, With<K> use) throws Exception {
    byte[] raw = in.get(name);
    if (in.fresh) {
      return () -> use.run(parse(load, name, raw));
    }
    K key = parse(load, name, raw);
    return () -> use.run(key);
  }

  private static <K> K parse(Load<K> load, String name, byte[] raw) throws RunnerException {
    try {
      return load.load(raw);
    } catch (RunnerException e) {
      throw e;
    } catch (Exception e) {
      throw RunnerException.invalidParams(name + ": " + e);
    }
  }

  /** A refusal of the peer's public key (or of a low-order X25519 result) as invalid_params. */
  static RunnerException peer(Exception e) {
    return RunnerException.invalidParams("peer_public_key: " + e);
  }

  /** keygen's answer for a key type or library with no generation from a given seed. */
  static RunnerException noSeed(String why) {
    return RunnerException.unsupported("keygen from key_seed: " + why);
  }
}
