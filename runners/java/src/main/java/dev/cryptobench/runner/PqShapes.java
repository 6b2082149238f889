package dev.cryptobench.runner;

import java.util.Map;
import java.util.Set;

/**
 * The shapes of the post-quantum rows (docs/protocol.md, "Key encapsulation" and "Public-key
 * operations"). kem: keygen (optional key_seed, the 64-byte ML-KEM seed d‖z) answers public key ‖
 * private key (the seed); encaps (public_key, optional 32-byte randomness m) answers ciphertext ‖
 * shared secret; decaps (private_key, ciphertext) answers the shared secret. ML-DSA: the signature
 * shape (private key = the 32-byte seed ξ) whose sign takes an optional 32-byte randomness, the rnd
 * of ML-DSA.Sign_internal (32 zero bytes: the deterministic variant). E and P are a library's
 * prepared public-key contexts, D and K its prepared private-key contexts.
 */
final class PqShapes {
  static final int KEM_SEED_LEN = 64;
  static final int MLDSA_SEED_LEN = 32;
  static final int RANDOMNESS_LEN = 32;

  private PqShapes() {}

  /** Encapsulates to a prepared public key: {ciphertext, shared secret}; m is null for fresh. */
  @FunctionalInterface
  interface Encaps<E> {
    byte[][] run(E key, byte[] m) throws Exception;
  }

  /** Signs msg with a prepared private key: rnd is null for hedged signing (fresh rnd). */
  @FunctionalInterface
  interface SignR<K> {
    byte[] run(K key, byte[] msg, byte[] rnd) throws Exception;
  }

  static <E, D> Primitive kem(
      String nativeName,
      int ctLen,
      Shapes.Make<PubkeyShapes.KeyGen> keygen,
      PubkeyShapes.Load<E> loadPublic,
      Encaps<E> encaps,
      PubkeyShapes.Load<D> loadSeed,
      PubkeyShapes.Use<D> decaps) {
    Primitive.Prepare encapsOp =
        in -> {
          byte[] m = randomness(in);
          return PubkeyShapes.keyed(
              in, "public_key", loadPublic, key -> PubkeyShapes.concat(encaps.run(key, m)));
        };
    Primitive.Prepare decapsOp =
        in -> {
          byte[] ct = in.get("ciphertext");
          if (ct.length != ctLen) {
            throw RunnerException.invalidParams(
                "ciphertext is " + ct.length + " bytes, not " + ctLen);
          }
          return PubkeyShapes.keyed(
              in, "private_key", seeded(loadSeed, KEM_SEED_LEN), key -> decaps.run(key, ct));
        };
    Map<String, Primitive.Prepare> ops =
        Shapes.ops(
            "keygen",
            PubkeyShapes.keygenOp(keygen, KEM_SEED_LEN),
            "encaps",
            encapsOp,
            "decaps",
            decapsOp);
    return new Primitive(nativeName, ops, Set.of(), true, null, 0);
  }

  static <K, P> Primitive mldsa(
      String nativeName,
      Shapes.Make<PubkeyShapes.KeyGen> keygen,
      PubkeyShapes.Load<K> loadSeed,
      SignR<K> sign,
      PubkeyShapes.Load<P> loadPublic,
      PubkeyShapes.Check<P> verify) {
    PubkeyShapes.Load<K> seeded = seeded(loadSeed, MLDSA_SEED_LEN);
    Primitive row =
        PubkeyShapes.signature(
            nativeName, keygen, seeded, (key, msg) -> sign.run(key, msg, null), loadPublic, verify);
    row.operations()
        .put(
            "sign",
            in -> {
              byte[] msg = in.get("msg");
              byte[] rnd = randomness(in);
              return PubkeyShapes.keyed(in, "private_key", seeded, key -> sign.run(key, msg, rnd));
            });
    return row;
  }

  /** The optional 32-byte randomness input; null when it is not sent. */
  private static byte[] randomness(Inputs in) throws RunnerException {
    if (!in.has("randomness")) {
      return null;
    }
    byte[] r = in.get("randomness");
    if (r.length != RANDOMNESS_LEN) {
      throw RunnerException.invalidParams(
          "randomness is " + r.length + " bytes, not " + RANDOMNESS_LEN);
    }
    return r;
  }

  /** A private key in the seed form only: another length (an expanded key) is invalid_params. */
  private static <D> PubkeyShapes.Load<D> seeded(PubkeyShapes.Load<D> load, int len) {
    return raw -> {
      if (raw.length != len) {
        throw RunnerException.invalidParams(
            "the private key is the " + len + "-byte seed, not " + raw.length + " bytes");
      }
      return load.load(raw);
    };
  }

  /** A public key of the parameter set's length; another is invalid_params. */
  static void checkLength(String what, byte[] raw, int len) throws RunnerException {
    if (raw.length != len) {
      throw RunnerException.invalidParams(what + " is " + raw.length + " bytes, not " + len);
    }
  }
}
