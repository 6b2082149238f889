package dev.cryptobench.runner;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;

/**
 * What each library takes beyond the catalog's fixed sizes, declared in hello as {@code sizes}
 * (docs/protocol.md, "Declared sizes"); verify checks every declared size against Wycheproof.
 */
final class Sizes {
  /** GCM's IV may have any length from 1 byte (SP 800-38D); declared up to 64 KiB. */
  private static final int GCM_MAX_NONCE = 65536;

  private Sizes() {}

  /** The declaration for one row, or null when the catalog's sizes are the whole truth. */
  static JsonObject of(String library, String primitive) {
    if (library.equals("conscrypt")) {
      return null; // BoringSSL's GCM behind Conscrypt: "Expected IV length of 12" (the catalog's)
    }
    if (primitive.equals("aes-128-gcm") || primitive.equals("aes-256-gcm")) {
      JsonArray range = new JsonArray();
      range.add(1);
      range.add(GCM_MAX_NONCE);
      JsonArray nonce = new JsonArray();
      nonce.add(range);
      JsonObject sizes = new JsonObject();
      sizes.add("nonce", nonce);
      return sizes;
    }
    if ((library.equals("jdk") || library.equals("bc-jca")) && primitive.startsWith("pbkdf2-")) {
      JsonObject sizes = new JsonObject(); // JCA's PBEKeySpec takes char[]: UTF-8 text only
      sizes.addProperty("password", "text");
      return sizes;
    }
    return null;
  }
}
