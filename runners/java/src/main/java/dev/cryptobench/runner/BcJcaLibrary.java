package dev.cryptobench.runner;

import com.google.gson.JsonObject;
import java.security.Provider;
import java.security.Security;
import java.util.Map;
import org.bouncycastle.jce.provider.BouncyCastleProvider;

/**
 * java/bc-jca: BouncyCastle through its JCA provider, as most code uses it:
 * Security.addProvider(new BouncyCastleProvider()) and getInstance(name, "BC"). The same
 * BouncyCastle classes as java/bc, behind the JCA's lookup and object layers.
 */
final class BcJcaLibrary implements Library {
  private static Provider provider;
  private static Map<String, Primitive> table;

  private static synchronized Provider provider() {
    if (provider == null) {
      if (Security.getProvider(BouncyCastleProvider.PROVIDER_NAME) == null) {
        Security.addProvider(new BouncyCastleProvider());
      }
      provider = Security.getProvider(BouncyCastleProvider.PROVIDER_NAME);
    }
    return provider;
  }

  @Override
  public String id() {
    return "bc-jca";
  }

  @Override
  public String version() {
    return provider().getVersionStr();
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
    return "JCA provider "
        + JdkJca.describe(provider())
        + " (Security.addProvider); every call getInstance(name, BC); one MessageDigest/Mac/"
        + "Cipher object reused per case (Cipher re-initialised with each message's IV); HMAC"
        + " verify: doFinal then MessageDigest.isEqual";
  }

  @Override
  public synchronized Map<String, Primitive> table() {
    if (table == null) {
      table = JdkJca.table(provider());
    }
    return table;
  }
}
