package dev.cryptobench.runner;

import com.google.gson.JsonObject;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.bouncycastle.jce.provider.BouncyCastleProvider;

/**
 * java/bc: BouncyCastle's lightweight API (the classes its JCA provider wraps), called directly.
 * Its table is the union of the per-family tables in BcHashes, BcCiphers and BcPasswords.
 */
final class BcLibrary implements Library {
  /**
   * The rows, built when first asked for (a holder class): a process serving another library never
   * loads BouncyCastle's classes.
   */
  private static final class Rows {
    static final Map<String, Primitive> TABLE;

    static {
      Map<String, Primitive> table = new LinkedHashMap<>(BcHashes.TABLE);
      table.putAll(BcCiphers.TABLE);
      table.putAll(BcPasswords.TABLE);
      table.putAll(BcPubkey.TABLE);
      table.putAll(BcPq.TABLE);
      TABLE = Collections.unmodifiableMap(table);
    }
  }

  private static String version;

  @Override
  public String id() {
    return "bc";
  }

  @Override
  public synchronized String version() {
    if (version == null) {
      version = new BouncyCastleProvider().getVersionStr();
    }
    return version;
  }

  @Override
  public JsonObject backend() {
    JsonObject backend = new JsonObject();
    backend.addProperty("name", "bouncycastle");
    backend.addProperty("version", version());
    return backend;
  }

  @Override
  public String codePath() {
    return "pure Java, JIT-compiled (HotSpot's crypto intrinsics apply to JDK classes only)";
  }

  @Override
  public String notes() {
    return "lightweight API (org.bouncycastle.crypto), not the JCA provider; one Digest/HMac/"
        + "cipher object reused per case (later inits pass a null key to keep the key schedule);"
        + " HMAC verify: HMac then Arrays.constantTimeAreEqual;"
        + " Argon2 raw output only; argon2 derive also takes the optional params secret and ad (hex);"
        + " public-key rows: one Signer/agreement object per case, keygen from key_seed for"
        + " X25519, Ed25519 and P-256; ML-KEM and ML-DSA (MLKEMGenerator/MLKEMExtractor,"
        + " MLDSASigner) take the seed form and derive the expanded key when the key is parsed,"
        + " encaps with a given m through internalGenerateEncapsulated, ML-DSA's rnd through the"
        + " signer's SecureRandom";
  }

  @Override
  public Map<String, Primitive> table() {
    return Rows.TABLE;
  }
}
