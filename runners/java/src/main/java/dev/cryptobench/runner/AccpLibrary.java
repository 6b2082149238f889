package dev.cryptobench.runner;

import com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider;
import com.google.gson.JsonObject;
import java.util.Map;

/**
 * java/accp: Amazon Corretto Crypto Provider, a JCA provider over AWS-LC (native, through JNI; its
 * jar carries the linux-x86_64 library). Asked for by name: getInstance(name, ACCP), not installed
 * as the preferred provider. A machine where the native library cannot load gets no rows and the
 * loading error in the notes.
 */
final class AccpLibrary implements Library {
  private static Map<String, Primitive> table;

  private static Throwable loadingError() {
    try {
      return AmazonCorrettoCryptoProvider.INSTANCE.getLoadingError();
    } catch (Throwable t) { // the class itself cannot initialise
      return t;
    }
  }

  @Override
  public String id() {
    return "accp";
  }

  @Override
  public String version() {
    return loadingError() == null ? AmazonCorrettoCryptoProvider.INSTANCE.getVersionStr() : "";
  }

  @Override
  public JsonObject backend() {
    JsonObject backend = new JsonObject();
    backend.addProperty("name", "aws-lc (native, JNI)");
    backend.addProperty("version", "bundled with ACCP " + version());
    return backend;
  }

  @Override
  public String codePath() {
    return "AWS-LC's assembly, CPU features detected at load (native code, no JIT)";
  }

  @Override
  public String notes() {
    Throwable error = loadingError();
    if (error != null) {
      return "skipped: native library did not load: " + error;
    }
    return "JCA provider "
        + JdkJca.describe(AmazonCorrettoCryptoProvider.INSTANCE)
        + "; every call getInstance(name, ACCP); one MessageDigest/Mac/Cipher object reused per"
        + " case (Cipher re-initialised with each message's IV); HMAC verify: doFinal then"
        + " MessageDigest.isEqual";
  }

  @Override
  public synchronized Map<String, Primitive> table() {
    if (table == null) {
      table =
          loadingError() == null ? JdkJca.table(AmazonCorrettoCryptoProvider.INSTANCE) : Map.of();
    }
    return table;
  }
}
