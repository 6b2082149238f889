package dev.cryptobench.runner;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.bouncycastle.crypto.Digest;
import org.bouncycastle.crypto.digests.SHA1Digest;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.digests.SHA512Digest;
import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.generators.OpenBSDBCrypt;
import org.bouncycastle.crypto.generators.PKCS5S2ParametersGenerator;
import org.bouncycastle.crypto.generators.SCrypt;
import org.bouncycastle.crypto.params.Argon2Parameters;
import org.bouncycastle.crypto.params.KeyParameter;

/** java/bc password hashes and KDFs: bcrypt, scrypt, Argon2 (raw), PBKDF2. */
final class BcPasswords {
  static final Map<String, Primitive> TABLE = new LinkedHashMap<>();
  private static final byte[] OK = "ok".getBytes(StandardCharsets.US_ASCII);

  static {
    TABLE.put(
        "bcrypt",
        Shapes.custom(
            "OpenBSDBCrypt",
            Set.of("cost"),
            true,
            Shapes.ops("hash", BcPasswords::bcrypt, "verify", verify())));
    TABLE.put(
        "scrypt",
        Shapes.custom(
            "SCrypt.generate",
            Set.of("n", "r", "p", "out_len"),
            null,
            Shapes.ops("derive", BcPasswords::scrypt)));
    argon2("argon2id", "Argon2BytesGenerator(ARGON2_id)", Argon2Parameters.ARGON2_id);
    argon2("argon2i", "Argon2BytesGenerator(ARGON2_i)", Argon2Parameters.ARGON2_i);
    pbkdf2("pbkdf2-sha1", "PKCS5S2ParametersGenerator(SHA1Digest)", SHA1Digest::new);
    pbkdf2("pbkdf2-sha256", "PKCS5S2ParametersGenerator(SHA256Digest)", SHA256Digest::new);
    pbkdf2("pbkdf2-sha512", "PKCS5S2ParametersGenerator(SHA512Digest)", SHA512Digest::new);
  }

  private BcPasswords() {}

  /** $2b$ with the salt sent; BouncyCastle takes the password bytes as they are. */
  private static Op bcrypt(Inputs in) throws RunnerException {
    byte[] password = in.get("password");
    byte[] salt = in.get("salt");
    int cost = in.intParam("cost", 4, 31);
    return () ->
        OpenBSDBCrypt.generate("2b", password, salt, cost).getBytes(StandardCharsets.US_ASCII);
  }

  private static Primitive.Prepare verify() {
    return in -> {
      byte[] password = in.get("password");
      String encoded = in.encoded();
      return () -> {
        if (!OpenBSDBCrypt.checkPassword(encoded, password)) {
          throw RunnerException.authFailed("password does not match");
        }
        return OK;
      };
    };
  }

  private static Op scrypt(Inputs in) throws RunnerException {
    byte[] password = in.get("password");
    byte[] salt = in.get("salt");
    int n = in.intParam("n", 2, Integer.MAX_VALUE);
    int r = in.intParam("r", 1, Integer.MAX_VALUE);
    int p = in.intParam("p", 1, Integer.MAX_VALUE);
    int outLen = in.intParam("out_len", 1, 1 << 20);
    return () -> SCrypt.generate(password, salt, n, r, p, outLen);
  }

  /**
   * Raw Argon2 (derive); BouncyCastle has no PHC string form, so no hash/verify. It takes RFC
   * 9106's secret key and associated data as the optional params secret and ad (hex).
   */
  private static void argon2(String id, String name, int type) {
    Primitive.Prepare derive =
        in -> {
          byte[] password = in.get("password");
          Argon2Parameters params =
              new Argon2Parameters.Builder(type)
                  .withVersion(Argon2Parameters.ARGON2_VERSION_13)
                  .withIterations(in.intParam("t", 1, Integer.MAX_VALUE))
                  .withMemoryAsKB(in.intParam("m", 8, Integer.MAX_VALUE))
                  .withParallelism(in.intParam("p", 1, (1 << 24) - 1))
                  .withSalt(in.get("salt"))
                  .withSecret(in.hexParam("secret"))
                  .withAdditional(in.hexParam("ad"))
                  .build();
          byte[] out = new byte[in.intParam("out_len", 4, 1 << 20)];
          return () -> {
            Argon2BytesGenerator generator = new Argon2BytesGenerator();
            generator.init(params);
            generator.generateBytes(password, out);
            return out;
          };
        };
    TABLE.put(
        id,
        Shapes.custom(
            name,
            Set.of("t", "m", "p", "out_len", "secret", "ad"),
            null,
            Shapes.ops("derive", derive)));
  }

  private static void pbkdf2(String id, String name, Shapes.Make<Digest> digest) {
    Primitive.Prepare derive =
        in -> {
          byte[] password = in.get("password");
          byte[] salt = in.get("salt");
          int iterations = in.intParam("iterations", 1, Integer.MAX_VALUE);
          int outLen = in.intParam("out_len", 1, 1 << 16);
          PKCS5S2ParametersGenerator generator = new PKCS5S2ParametersGenerator(digest.make());
          return () -> {
            generator.init(password, salt, iterations);
            return ((KeyParameter) generator.generateDerivedParameters(outLen * 8)).getKey();
          };
        };
    TABLE.put(
        id,
        Shapes.custom(name, Set.of("iterations", "out_len"), null, Shapes.ops("derive", derive)));
  }
}
