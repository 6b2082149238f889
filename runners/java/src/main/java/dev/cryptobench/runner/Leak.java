package dev.cryptobench.runner;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;

/**
 * The leak request (docs/protocol.md): two classes of inputs prepared before timing, one call timed
 * with System.nanoTime per measurement, in the order the orchestrator sends. No policy.
 */
final class Leak {
  /** Sets a library operation up from a request (Main's resolve + prepare). */
  interface Prepare {
    Op prepare(Request request) throws Exception;
  }

  private Leak() {}

  /**
   * The language's equality (Arrays.equals: an early-exit mismatch) and its constant-time
   * counterpart (MessageDigest.isEqual); output 01 equal, 00 differ.
   */
  private static Op control(String primitive, JsonObject inputs) throws RunnerException {
    byte[] a = hex(inputs, "a");
    byte[] b = hex(inputs, "b");
    byte[] one = {1};
    byte[] zero = {0};
    if (primitive.equals("equal")) {
      return () -> Arrays.equals(a, b) ? one : zero;
    }
    return () -> MessageDigest.isEqual(a, b) ? one : zero;
  }

  private static byte[] hex(JsonObject inputs, String name) throws RunnerException {
    JsonElement v = inputs.get(name);
    if (v == null || !v.isJsonPrimitive() || !v.getAsJsonPrimitive().isString()) {
      throw RunnerException.badRequest("input " + name + " must be a hex string");
    }
    return Hex.decode(name, v.getAsString());
  }

  static JsonObject run(Request request, JsonObject json, Prepare prepare) throws Exception {
    byte[] order = order(json);
    JsonElement classes = json.get("classes");
    if (classes == null
        || !classes.isJsonArray()
        || classes.getAsJsonArray().size() != 2
        || !classes.getAsJsonArray().get(0).isJsonObject()
        || !classes.getAsJsonArray().get(1).isJsonObject()) {
      throw RunnerException.badRequest("classes must be a list of two objects");
    }
    JsonElement shared = json.get("inputs");
    if (shared != null && !shared.isJsonObject()) {
      throw RunnerException.badRequest("inputs must be an object");
    }
    String primitive = request.primitive();
    boolean control = primitive.equals("equal") || primitive.equals("equal-ct");
    Op[] ops = new Op[2];
    JsonArray outcomes = new JsonArray();
    for (int c = 0; c < 2; c++) {
      JsonObject merged = shared == null ? new JsonObject() : shared.getAsJsonObject().deepCopy();
      for (var e : classes.getAsJsonArray().get(c).getAsJsonObject().entrySet()) {
        merged.add(e.getKey(), e.getValue());
      }
      JsonObject sub = json.deepCopy();
      sub.addProperty("op", "bench");
      sub.add("inputs", merged);
      ops[c] =
          control ? control(primitive, merged) : prepare.prepare(Request.parse(request.id, sub));
      outcomes.add(outcome(ops[c], request.operation()));
    }
    int[] ns = Bench.single(ops, order);
    ByteBuffer le = ByteBuffer.allocate(4 * ns.length).order(ByteOrder.LITTLE_ENDIAN);
    for (int v : ns) {
      le.putInt(v);
    }
    JsonObject result = new JsonObject();
    result.add("outcomes", outcomes);
    result.addProperty("ns", Base64.getEncoder().encodeToString(le.array()));
    result.addProperty("clock", "System.nanoTime");
    return result;
  }

  private static byte[] order(JsonObject json) throws RunnerException {
    JsonElement v = json.get("order");
    byte[] order;
    try {
      order = Base64.getDecoder().decode(v.getAsString());
    } catch (RuntimeException e) {
      throw RunnerException.badRequest("order must be a base64 string");
    }
    if (order.length == 0) {
      throw RunnerException.badRequest("order is empty");
    }
    for (byte c : order) {
      if (c != 0 && c != 1) {
        throw RunnerException.badRequest("order holds classes 0 and 1 only");
      }
    }
    return order;
  }

  private static String outcome(Op op, String operation) throws Exception {
    try {
      byte[] out = op.call();
      return Primitive.textOutput(operation)
          ? new String(out, StandardCharsets.UTF_8)
          : Hex.encode(out);
    } catch (Exception e) {
      RunnerException mapped = Errors.classify(e);
      if (!mapped.kind.equals("auth_failed")) {
        throw mapped;
      }
      return "auth_failed";
    }
  }
}
