package dev.cryptobench.runner;

import java.security.MessageDigest;
import java.security.Provider;
import java.security.spec.AlgorithmParameterSpec;
import java.security.spec.InvalidKeySpecException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The JCA API (the JDK's) asked for one named provider: {@code getInstance(name, provider)} for
 * every call, so the provider that serves each row is the one the implementation names. Shared by
 * the provider libraries (java/bc-jca, java/accp, java/conscrypt); a row is offered only where the
 * provider registers that service.
 */
final class JdkJca {
  private JdkJca() {}

  private static final String[][] DIGESTS = {
    {"md5", "MD5"},
    {"sha1", "SHA-1"},
    {"sha224", "SHA-224"},
    {"sha256", "SHA-256"},
    {"sha384", "SHA-384"},
    {"sha512", "SHA-512"},
    {"sha512-224", "SHA-512/224"},
    {"sha512-256", "SHA-512/256"},
    {"sha3-224", "SHA3-224"},
    {"sha3-256", "SHA3-256"},
    {"sha3-384", "SHA3-384"},
    {"sha3-512", "SHA3-512"},
  };

  /** A JCA cipher object with its key and direction; re-initialised with each message's IV. */
  private record Jca(
      Cipher cipher, SecretKeySpec key, int mode, Function<byte[], AlgorithmParameterSpec> iv) {}

  /** The rows this provider offers, in catalog order. */
  static Map<String, Primitive> table(Provider p) {
    Map<String, Primitive> t = new LinkedHashMap<>();
    for (String[] d : DIGESTS) {
      if (has(p, "MessageDigest", d[1])) {
        String name = d[1];
        t.put(
            d[0],
            Shapes.digest(name, () -> MessageDigest.getInstance(name, p), MessageDigest::digest));
      }
    }
    if (has(p, "Mac", "HmacSHA256")) {
      t.put(
          "hmac-sha256",
          Shapes.mac("HmacSHA256", key -> hmac(p, key), Mac::doFinal, MessageDigest::isEqual));
    }
    if (has(p, "Cipher", "AES/CTR/NoPadding")) {
      ctr(t, p, "aes-128-ctr", 16);
      ctr(t, p, "aes-256-ctr", 32);
    }
    if (has(p, "Cipher", "AES/GCM/NoPadding")) {
      aead(t, p, "aes-128-gcm", 16, "AES/GCM/NoPadding", "AES", n -> new GCMParameterSpec(128, n));
      aead(t, p, "aes-256-gcm", 32, "AES/GCM/NoPadding", "AES", n -> new GCMParameterSpec(128, n));
    }
    if (has(p, "Cipher", "ChaCha20-Poly1305")) {
      aead(t, p, "chacha20-poly1305", 32, "ChaCha20-Poly1305", "ChaCha20", IvParameterSpec::new);
    }
    pbkdf2(t, p, "pbkdf2-sha1", "PBKDF2WithHmacSHA1");
    pbkdf2(t, p, "pbkdf2-sha256", "PBKDF2WithHmacSHA256");
    pbkdf2(t, p, "pbkdf2-sha512", "PBKDF2WithHmacSHA512");
    t.putAll(JdkJcaPubkey.table(p, p));
    return t;
  }

  /** Whether the provider registers the service (or an alias of it). */
  private static boolean has(Provider p, String type, String name) {
    if (p.getService(type, name) != null) {
      return true;
    }
    try {
      switch (type) {
        case "MessageDigest" -> MessageDigest.getInstance(name, p);
        case "Mac" -> Mac.getInstance(name, p);
        case "Cipher" -> Cipher.getInstance(name, p);
        default -> SecretKeyFactory.getInstance(name, p);
      }
      return true;
    } catch (Exception e) {
      return false;
    }
  }

  private static Mac hmac(Provider p, byte[] key) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256", p);
    mac.init(new SecretKeySpec(key, "HmacSHA256"));
    return mac;
  }

  private static void ctr(Map<String, Primitive> t, Provider p, String id, int keyLen) {
    String name = "AES/CTR/NoPadding";
    t.put(
        id,
        Shapes.ctr(
            name,
            keyLen,
            key -> jca(p, name, "AES", Cipher.ENCRYPT_MODE, key, IvParameterSpec::new),
            key -> jca(p, name, "AES", Cipher.DECRYPT_MODE, key, IvParameterSpec::new),
            JdkJca::crypt));
  }

  private static void aead(
      Map<String, Primitive> t,
      Provider p,
      String id,
      int keyLen,
      String name,
      String alg,
      Function<byte[], AlgorithmParameterSpec> iv) {
    Primitive row =
        Shapes.aead(
            name,
            keyLen,
            key -> jca(p, name, alg, Cipher.ENCRYPT_MODE, key, iv),
            key -> jca(p, name, alg, Cipher.DECRYPT_MODE, key, iv),
            JdkJca::crypt);
    if (!reinitsWithSameNonce(p, name, alg, keyLen, iv)) {
      openOnlyFresh(row);
    }
    t.put(id, row);
  }

  private static Jca jca(
      Provider p,
      String name,
      String alg,
      int mode,
      byte[] key,
      Function<byte[], AlgorithmParameterSpec> iv)
      throws Exception {
    return new Jca(Cipher.getInstance(name, p), new SecretKeySpec(key, alg), mode, iv);
  }

  /** init with this message's IV, AAD, doFinal (as java/jdk does). */
  private static int crypt(Jca c, byte[] nonce, byte[] aad, byte[] in, int len, byte[] out)
      throws Exception {
    c.cipher().init(c.mode(), c.key(), c.iv().apply(nonce));
    if (aad.length > 0) {
      c.cipher().updateAAD(aad);
    }
    return c.cipher().doFinal(in, 0, len, out, 0);
  }

  /** Whether one decrypting Cipher may be initialised twice with one key and nonce. */
  private static boolean reinitsWithSameNonce(
      Provider p,
      String name,
      String alg,
      int keyLen,
      Function<byte[], AlgorithmParameterSpec> iv) {
    try {
      Jca c = jca(p, name, alg, Cipher.DECRYPT_MODE, new byte[keyLen], iv);
      c.cipher().init(c.mode(), c.key(), c.iv().apply(new byte[12]));
      c.cipher().init(c.mode(), c.key(), c.iv().apply(new byte[12]));
      return true;
    } catch (Exception e) {
      return false;
    }
  }

  /** open decrypts one ciphertext under one nonce again and again: only with a fresh object. */
  private static void openOnlyFresh(Primitive row) {
    Primitive.Prepare open = row.operations().get("open");
    row.operations()
        .put(
            "open",
            in -> {
              if (in.timed && !in.fresh) {
                throw RunnerException.unsupported(
                    "this provider refuses to re-initialise a "
                        + row.nativeName()
                        + " Cipher with the same key and nonce: open is offered with"
                        + " fresh_context=true only");
              }
              return open.prepare(in);
            });
  }

  private static void pbkdf2(Map<String, Primitive> t, Provider p, String id, String name) {
    if (!has(p, "SecretKeyFactory", name)) {
      return;
    }
    Primitive.Prepare derive =
        in -> {
          char[] password = Passwords.utf8(in.get("password"));
          byte[] salt = in.get("salt");
          int iterations = in.intParam("iterations", 1, Integer.MAX_VALUE);
          int outLen = in.intParam("out_len", 1, 1 << 16);
          SecretKeyFactory factory = SecretKeyFactory.getInstance(name, p);
          return () -> derive(p, factory, new PBEKeySpec(password, salt, iterations, outLen * 8));
        };
    t.put(
        id,
        Shapes.custom(name, Set.of("iterations", "out_len"), null, Shapes.ops("derive", derive)));
  }

  /**
   * The derived key. The protocol allows any password and iteration count ≥ 1 (their ranges and
   * UTF-8 are checked before): a provider's policy that refuses one (BouncyCastle's since 1.85: an
   * empty password, more than 10,000,000 iterations) answers unsupported, naming the refusal.
   */
  private static byte[] derive(Provider p, SecretKeyFactory factory, PBEKeySpec spec)
      throws RunnerException {
    try {
      return factory.generateSecret(spec).getEncoded();
    } catch (IllegalArgumentException | InvalidKeySpecException e) {
      throw RunnerException.unsupported(p.getName() + " refuses it: " + e.getMessage());
    }
  }

  /** "name version" of a provider, for the notes. */
  static String describe(Provider p) {
    return p.getName() + " " + p.getVersionStr();
  }
}
