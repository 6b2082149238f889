package dev.cryptobench.runner;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import java.io.IOException;
import java.io.StringReader;
import java.math.BigDecimal;

/** One request line, read field by field so that a bad field gets a bad_request answer. */
final class Request {
  final Long id;
  final String op;
  final JsonObject json;
  private String impl;
  private String primitive;
  private String operation;

  private Request(Long id, JsonObject json) throws RunnerException {
    this.id = id;
    this.json = json;
    this.op = string("op", true);
  }

  /** The request's object; bad_request (answered with a null id) when the line is not one. */
  static JsonObject json(String line) throws RunnerException {
    try (JsonReader reader = new JsonReader(new StringReader(line))) {
      reader.setStrictness(Strictness.STRICT);
      JsonElement element = JsonParser.parseReader(reader);
      if (reader.peek() != JsonToken.END_DOCUMENT) {
        throw RunnerException.badRequest("trailing data after the JSON object");
      }
      if (!element.isJsonObject()) {
        throw RunnerException.badRequest("a request must be a JSON object");
      }
      return element.getAsJsonObject();
    } catch (JsonParseException | IOException | IllegalStateException e) {
      throw RunnerException.badRequest("not JSON: " + e.getMessage());
    }
  }

  /** The integer id, or null when it is missing or not an integer. */
  static Long id(JsonObject json) {
    JsonElement id = json.get("id");
    if (id == null || !id.isJsonPrimitive() || !id.getAsJsonPrimitive().isNumber()) {
      return null;
    }
    try {
      return new BigDecimal(id.getAsString()).longValueExact();
    } catch (ArithmeticException | NumberFormatException e) {
      return null;
    }
  }

  static Request parse(Long id, JsonObject json) throws RunnerException {
    if (id == null) {
      throw RunnerException.badRequest("id is missing or not an integer");
    }
    return new Request(id, json);
  }

  /** An optional boolean field: true only when present and true. */
  boolean flag(String name) {
    JsonElement value = json.get(name);
    return value != null
        && value.isJsonPrimitive()
        && value.getAsJsonPrimitive().isBoolean()
        && value.getAsBoolean();
  }

  String impl() throws RunnerException {
    if (impl == null) {
      impl = string("impl", false);
    }
    return impl;
  }

  String primitive() throws RunnerException {
    if (primitive == null) {
      primitive = string("primitive", true);
    }
    return primitive;
  }

  String operation() throws RunnerException {
    if (operation == null) {
      operation = string("operation", true);
    }
    return operation;
  }

  Inputs inputs() throws RunnerException {
    return Inputs.parse(operation(), object("inputs"), object("params"), op.equals("bench"));
  }

  /** A positive integer field (threads). */
  int count(String name) throws RunnerException {
    return bounded(name, Integer.MAX_VALUE);
  }

  /**
   * A positive integer field (iterations, batches): above {@code max} (at most 2^31 - 1) is
   * invalid_params (docs/protocol.md, "Limits").
   */
  int bounded(String name, long max) throws RunnerException {
    JsonElement value = json.get(name);
    BigDecimal n;
    try {
      n = new BigDecimal(value.getAsJsonPrimitive().getAsString());
      n.toBigIntegerExact();
    } catch (RuntimeException e) {
      n = null;
    }
    if (n == null || !value.getAsJsonPrimitive().isNumber() || n.signum() < 1) {
      throw RunnerException.badRequest(name + " must be a positive integer");
    }
    if (n.compareTo(BigDecimal.valueOf(max)) > 0) {
      throw RunnerException.invalidParams(name + " must be at most " + max + " here");
    }
    return n.intValueExact();
  }

  /** An optional positive integer field (threads): ``absent`` when it is not there. */
  int count(String name, int absent) throws RunnerException {
    JsonElement value = json.get(name);
    return value == null || value.isJsonNull() ? absent : count(name);
  }

  private String string(String name, boolean required) throws RunnerException {
    JsonElement value = json.get(name);
    if (value == null || value.isJsonNull()) {
      if (required) {
        throw RunnerException.badRequest(name + " is missing");
      }
      return null;
    }
    if (!value.isJsonPrimitive() || !value.getAsJsonPrimitive().isString()) {
      throw RunnerException.badRequest(name + " must be a string");
    }
    return value.getAsString();
  }

  private JsonObject object(String name) throws RunnerException {
    JsonElement value = json.get(name);
    if (value == null) {
      return new JsonObject();
    }
    if (!value.isJsonObject()) {
      throw RunnerException.badRequest(name + " must be an object");
    }
    return value.getAsJsonObject();
  }

  static JsonObject ok(Long id, JsonObject result) {
    JsonObject response = new JsonObject();
    response.addProperty("id", id);
    response.addProperty("ok", true);
    response.add("result", result);
    return response;
  }

  static JsonObject error(Long id, String kind, String message) {
    JsonObject error = new JsonObject();
    error.addProperty("kind", kind);
    error.addProperty("message", message == null ? kind : message);
    JsonObject response = new JsonObject();
    response.addProperty("id", id);
    response.addProperty("ok", false);
    response.add("error", error);
    return response;
  }
}
