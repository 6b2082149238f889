package dev.cryptobench.runner;

import com.google.gson.JsonObject;
import java.security.MessageDigest;
import java.security.Provider;
import java.security.Security;
import java.security.spec.AlgorithmParameterSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.zip.Adler32;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/** java/jdk: the JDK's own providers (SUN, SunJCE) and java.util.zip, through the JCA API. */
final class JdkLibrary implements Library {
  private static final Map<String, Primitive> TABLE = new LinkedHashMap<>();

  /** The rows, built when first asked for: a process serving another library skips them. */
  private static void fill() {
    digest("md2", "MD2");
    digest("md5", "MD5");
    digest("sha1", "SHA-1");
    digest("sha224", "SHA-224");
    digest("sha256", "SHA-256");
    digest("sha384", "SHA-384");
    digest("sha512", "SHA-512");
    digest("sha512-224", "SHA-512/224");
    digest("sha512-256", "SHA-512/256");
    digest("sha3-224", "SHA3-224");
    digest("sha3-256", "SHA3-256");
    digest("sha3-384", "SHA3-384");
    digest("sha3-512", "SHA3-512");
    checksum("crc32", "java.util.zip.CRC32", CRC32::new);
    checksum("crc32c", "java.util.zip.CRC32C", CRC32C::new);
    checksum("adler32", "java.util.zip.Adler32", Adler32::new);
    TABLE.put(
        "hmac-sha256",
        Shapes.mac("HmacSHA256", JdkLibrary::hmac, Mac::doFinal, MessageDigest::isEqual));
    cipher("aes-128-ctr", 16, "AES/CTR/NoPadding", "AES", IvParameterSpec::new);
    cipher("aes-256-ctr", 32, "AES/CTR/NoPadding", "AES", IvParameterSpec::new);
    aead("aes-128-gcm", 16, "AES/GCM/NoPadding", "AES", n -> new GCMParameterSpec(128, n));
    aead("aes-256-gcm", 32, "AES/GCM/NoPadding", "AES", n -> new GCMParameterSpec(128, n));
    aead("chacha20-poly1305", 32, "ChaCha20-Poly1305", "ChaCha20", IvParameterSpec::new);
    if (!reinitsWithSameNonce("ChaCha20-Poly1305", "ChaCha20")) {
      openOnlyFresh("chacha20-poly1305");
    }
    pbkdf2("pbkdf2-sha1", "PBKDF2WithHmacSHA1");
    pbkdf2("pbkdf2-sha256", "PBKDF2WithHmacSHA256");
    pbkdf2("pbkdf2-sha512", "PBKDF2WithHmacSHA512");
    TABLE.putAll(JdkJcaPubkey.jdk());
    TABLE.putAll(JdkPq.table());
  }

  /** A JCA cipher object with its key and direction; re-initialised with each message's IV. */
  private record Jca(
      Cipher cipher, SecretKeySpec key, int mode, Function<byte[], AlgorithmParameterSpec> iv) {}

  private static void digest(String id, String name) {
    // digest(msg) on one MessageDigest object: it resets itself after each digest
    TABLE.put(
        id, Shapes.digest(name, () -> MessageDigest.getInstance(name), MessageDigest::digest));
  }

  private static void checksum(String id, String name, Shapes.Make<Checksum> make) {
    TABLE.put(id, Shapes.digest(name, make, JdkLibrary::checksum));
  }

  private static byte[] checksum(Checksum checksum, byte[] msg) {
    checksum.reset();
    checksum.update(msg, 0, msg.length);
    return Hex.bigEndian(checksum.getValue(), 4);
  }

  private static Mac hmac(byte[] key) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(key, "HmacSHA256"));
    return mac;
  }

  private static void cipher(
      String id, int keyLen, String name, String alg, Function<byte[], AlgorithmParameterSpec> iv) {
    TABLE.put(
        id,
        Shapes.ctr(
            name,
            keyLen,
            key -> jca(name, alg, Cipher.ENCRYPT_MODE, key, iv),
            key -> jca(name, alg, Cipher.DECRYPT_MODE, key, iv),
            JdkLibrary::crypt));
  }

  private static void aead(
      String id, int keyLen, String name, String alg, Function<byte[], AlgorithmParameterSpec> iv) {
    TABLE.put(
        id,
        Shapes.aead(
            name,
            keyLen,
            key -> jca(name, alg, Cipher.ENCRYPT_MODE, key, iv),
            key -> jca(name, alg, Cipher.DECRYPT_MODE, key, iv),
            JdkLibrary::crypt));
  }

  private static Jca jca(
      String name, String alg, int mode, byte[] key, Function<byte[], AlgorithmParameterSpec> iv)
      throws Exception {
    return new Jca(Cipher.getInstance(name), new SecretKeySpec(key, alg), mode, iv);
  }

  /** init with this message's IV (GCM refuses to encrypt twice under one), AAD, doFinal. */
  private static int crypt(Jca c, byte[] nonce, byte[] aad, byte[] in, int len, byte[] out)
      throws Exception {
    c.cipher().init(c.mode(), c.key(), c.iv().apply(nonce));
    if (aad.length > 0) {
      c.cipher().updateAAD(aad);
    }
    return c.cipher().doFinal(in, 0, len, out, 0);
  }

  /** Whether one Cipher object may be initialised twice in a row with one key and nonce. */
  private static boolean reinitsWithSameNonce(String name, String alg) {
    try {
      Jca c = jca(name, alg, Cipher.DECRYPT_MODE, new byte[32], IvParameterSpec::new);
      c.cipher().init(c.mode(), c.key(), c.iv().apply(new byte[12]));
      c.cipher().init(c.mode(), c.key(), c.iv().apply(new byte[12]));
      return true;
    } catch (Exception e) {
      return false; // JDK 17 refuses it even to decrypt; later JDKs allow it
    }
  }

  /** open decrypts one ciphertext under one nonce again and again: only with a fresh object. */
  private static void openOnlyFresh(String id) {
    Primitive row = TABLE.get(id);
    Primitive.Prepare open = row.operations().get("open");
    row.operations()
        .put(
            "open",
            in -> {
              if (in.timed && !in.fresh) {
                throw RunnerException.unsupported(
                    "this JDK refuses to re-initialise a "
                        + row.nativeName()
                        + " Cipher with the same key and nonce, even to decrypt: open is offered"
                        + " with fresh_context=true only");
              }
              return open.prepare(in);
            });
  }

  private static void pbkdf2(String id, String name) {
    Primitive.Prepare derive =
        in -> {
          char[] password = Passwords.utf8(in.get("password"));
          byte[] salt = in.get("salt");
          int iterations = in.intParam("iterations", 1, Integer.MAX_VALUE);
          int outLen = in.intParam("out_len", 1, 1 << 16);
          SecretKeyFactory factory = SecretKeyFactory.getInstance(name);
          return () ->
              factory
                  .generateSecret(new PBEKeySpec(password, salt, iterations, outLen * 8))
                  .getEncoded();
        };
    TABLE.put(
        id,
        Shapes.custom(name, Set.of("iterations", "out_len"), null, Shapes.ops("derive", derive)));
  }

  @Override
  public String id() {
    return "jdk";
  }

  @Override
  public String version() {
    return Jvm.version();
  }

  @Override
  public JsonObject backend() {
    JsonObject backend = new JsonObject();
    backend.addProperty("name", "openjdk");
    backend.addProperty("version", Jvm.version());
    return backend;
  }

  @Override
  public String codePath() {
    String on = Jvm.intrinsics(Jvm.flags(), true);
    return on.isEmpty() ? "no HotSpot crypto intrinsics" : "HotSpot intrinsics: " + on;
  }

  @Override
  public String notes() {
    List<String> providers = new ArrayList<>();
    for (String name : List.of("SUN", "SunJCE", "SunEC", "SunRsaSign")) {
      Provider provider = Security.getProvider(name);
      if (provider != null) {
        providers.add(provider.getName() + " " + provider.getVersionStr());
      }
    }
    return "JCA providers "
        + String.join(", ", providers)
        + " and java.util.zip; one MessageDigest/Mac/Cipher object reused per case (Cipher"
        + " re-initialised with each message's IV); digest(msg) allocates its output; HMAC"
        + " verify: doFinal then MessageDigest.isEqual"
        + JdkPq.note();
  }

  @Override
  public synchronized Map<String, Primitive> table() {
    if (TABLE.isEmpty()) {
      fill();
    }
    return TABLE;
  }
}
