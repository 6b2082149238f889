package dev.cryptobench.runner;

import com.google.gson.JsonObject;
import java.security.Provider;
import java.util.Map;
import org.conscrypt.Conscrypt;

/**
 * java/conscrypt: Google's Conscrypt, a JCA provider over BoringSSL (native, through JNI; the
 * conscrypt-openjdk-uber jar carries the linux-x86_64 library). Asked for by name:
 * getInstance(name, conscryptProvider), not installed as the preferred provider.
 */
final class ConscryptLibrary implements Library {
  private static Provider provider;
  private static Map<String, Primitive> table;
  private static String error;

  private static synchronized Provider provider() {
    if (provider == null && error == null) {
      try {
        Conscrypt.checkAvailability(); // throws with the reason the native library did not load
        provider = Conscrypt.newProvider();
      } catch (Throwable t) {
        error = t.toString();
      }
    }
    return provider;
  }

  @Override
  public String id() {
    return "conscrypt";
  }

  @Override
  public String version() {
    if (provider() == null) {
      return "";
    }
    Conscrypt.Version v = Conscrypt.version();
    return v.major() + "." + v.minor() + "." + v.patch();
  }

  @Override
  public JsonObject backend() {
    JsonObject backend = new JsonObject();
    backend.addProperty("name", "boringssl (native, JNI)");
    backend.addProperty("version", "bundled with Conscrypt " + version());
    return backend;
  }

  @Override
  public String codePath() {
    return "BoringSSL's assembly, CPU features detected at load (native code, no JIT)";
  }

  @Override
  public String notes() {
    if (provider() == null) {
      return "skipped: native library did not load: " + error;
    }
    return "JCA provider "
        + JdkJca.describe(provider())
        + "; every call getInstance(name, Conscrypt); one MessageDigest/Mac/Cipher object"
        + " reused per case (Cipher re-initialised with each message's IV); HMAC verify: doFinal"
        + " then MessageDigest.isEqual";
  }

  @Override
  public synchronized Map<String, Primitive> table() {
    if (table == null) {
      table = provider() == null ? Map.of() : JdkJca.table(provider());
    }
    return table;
  }
}
