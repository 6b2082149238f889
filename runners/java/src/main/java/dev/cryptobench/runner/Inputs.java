package dev.cryptobench.runner;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/** The decoded inputs and parameters of one compute or bench request. */
final class Inputs {
  private static final Set<String> STRING_INPUTS = Set.of("encoded");

  final String operation;

  /** fresh_context: setup inside every timed call. */
  final boolean fresh;

  /** A bench request (compute accepts and ignores fresh_context). */
  final boolean timed;

  private final Map<String, byte[]> bytes = new HashMap<>();
  private final Map<String, JsonPrimitive> params = new HashMap<>();
  private String encoded;

  private Inputs(String operation, boolean fresh, boolean timed) {
    this.operation = operation;
    this.fresh = fresh;
    this.timed = timed;
  }

  static Inputs parse(String operation, JsonObject inputs, JsonObject params, boolean timed)
      throws RunnerException {
    boolean fresh = false;
    JsonElement freshValue = params.get("fresh_context");
    if (freshValue != null) {
      if (!freshValue.isJsonPrimitive() || !freshValue.getAsJsonPrimitive().isBoolean()) {
        throw RunnerException.badRequest("params.fresh_context must be a boolean");
      }
      fresh = freshValue.getAsBoolean();
    }
    Inputs in = new Inputs(operation, fresh, timed);
    for (Map.Entry<String, JsonElement> e : inputs.entrySet()) {
      JsonElement v = e.getValue();
      if (e.getKey().equals("msg") && v.isJsonObject()) {
        in.bytes.put("msg", MsgGen.expand(v.getAsJsonObject()));
        continue;
      }
      if (!v.isJsonPrimitive() || !v.getAsJsonPrimitive().isString()) {
        throw RunnerException.badRequest("inputs." + e.getKey() + " must be a string");
      }
      if (STRING_INPUTS.contains(e.getKey())) {
        in.encoded = v.getAsString();
      } else {
        in.bytes.put(e.getKey(), Hex.decode("inputs." + e.getKey(), v.getAsString()));
      }
    }
    for (Map.Entry<String, JsonElement> e : params.entrySet()) {
      if (!e.getValue().isJsonPrimitive()) {
        throw RunnerException.badRequest("params." + e.getKey() + " must be a number/bool/string");
      }
      if (!e.getKey().equals("fresh_context")) {
        in.params.put(e.getKey(), e.getValue().getAsJsonPrimitive());
      }
    }
    return in;
  }

  /** A required byte-string input. */
  byte[] get(String name) throws RunnerException {
    byte[] value = bytes.get(name);
    if (value == null) {
      throw RunnerException.badRequest("inputs." + name + " is missing");
    }
    return value;
  }

  /** Whether a byte-string input was sent (keygen's optional key_seed). */
  boolean has(String name) {
    return bytes.containsKey(name);
  }

  /** An optional byte-string input; empty when absent. */
  byte[] optional(String name) {
    return bytes.getOrDefault(name, new byte[0]);
  }

  String encoded() throws RunnerException {
    if (encoded == null) {
      throw RunnerException.badRequest("inputs.encoded is missing");
    }
    return encoded;
  }

  /** Every parameter sent, other than fresh_context, must be one the primitive understands. */
  void checkParams(Set<String> accepted) throws RunnerException {
    for (String name : params.keySet()) {
      if (!accepted.contains(name)) {
        throw RunnerException.invalidParams("parameter " + name + " is not understood here");
      }
    }
  }

  /**
   * An optional byte-string parameter sent as a hex string (Argon2's secret and ad); empty when
   * absent.
   */
  byte[] hexParam(String name) throws RunnerException {
    JsonPrimitive value = params.get(name);
    if (value == null) {
      return new byte[0];
    }
    if (!value.isString()) {
      throw RunnerException.invalidParams("parameter " + name + " must be a hex string");
    }
    return Hex.decode("params." + name, value.getAsString());
  }

  /** A required integer parameter within [min, max]. */
  int intParam(String name, long min, long max) throws RunnerException {
    JsonPrimitive value = params.get(name);
    if (value == null) {
      throw RunnerException.invalidParams("parameter " + name + " is missing");
    }
    long n;
    try {
      n = new BigDecimal(value.getAsString()).longValueExact();
    } catch (ArithmeticException | NumberFormatException e) {
      throw RunnerException.invalidParams("parameter " + name + " must be an integer");
    }
    if (!value.isNumber() || n < min || n > max) {
      throw RunnerException.invalidParams(
          "parameter " + name + " = " + value + " is outside [" + min + ", " + max + "]");
    }
    return (int) n;
  }
}
