package dev.cryptobench.runner;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The cryptobench runner for the JVM: protocol v1 over stdin/stdout (docs/protocol.md). */
public final class Main {
  private static final Gson GSON =
      new GsonBuilder().disableHtmlEscaping().serializeNulls().create();
  private static final List<Library> LIBRARIES =
      List.of(
          new JdkLibrary(),
          new BcLibrary(),
          new BcJcaLibrary(),
          new AccpLibrary(),
          new ConscryptLibrary());

  private Main() {}

  public static void main(String[] args) throws IOException {
    Bench.openLogNow();
    PrintStream protocol =
        new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
    System.setOut(System.err); // nothing but protocol messages may reach stdout
    Limits requests = new Limits(System.in);
    byte[] line;
    while ((line = requests.next()) != null) {
      JsonObject response =
          requests.tooLong()
              ? Request.error(null, "bad_request", "request line longer than 201326592 bytes")
              : answer(line);
      protocol.print(GSON.toJson(response));
      protocol.print('\n');
      protocol.flush();
    }
  }

  /** One response for one request line (bytes): refused before parsing, or answered. */
  static JsonObject answer(byte[] line) {
    String why = Limits.refusal(line);
    String text = why == null ? Limits.text(line) : null;
    if (why == null && text == null) {
      why = "request line is not UTF-8";
    }
    return why != null ? Request.error(null, "bad_request", why) : answer(text);
  }

  /** One response for one request line; never throws. */
  static JsonObject answer(String line) {
    Long id = null;
    try {
      JsonObject json = Request.json(line);
      id = Request.id(json);
      return Request.ok(id, handle(Request.parse(id, json)));
    } catch (Exception | StackOverflowError | OutOfMemoryError e) {
      RunnerException mapped = Errors.classify(e);
      return Request.error(id, mapped.kind, mapped.getMessage());
    }
  }

  private static JsonObject handle(Request request) throws Exception {
    switch (request.op) {
      case "hello":
        return Hello.build(served(request), request.flag("brief"));
      case "compute":
        return compute(request, false);
      case "bench":
        return compute(request, true);
      case "leak":
        return Leak.run(request, request.json, r -> resolve(r).prepare(r.primitive(), r.inputs()));
      default:
        throw RunnerException.badRequest("unknown op " + request.op);
    }
  }

  /**
   * The libraries a hello lists: those a brief hello's {@code only} names (docs/protocol.md), so
   * that a group's process never builds the others' tables, registers their providers or loads
   * their native code; every one otherwise. Another library is still loaded when a request first
   * names it (its table is built on first use).
   */
  private static List<Library> served(Request request) throws RunnerException {
    JsonElement only = request.json.get("only");
    if (!request.flag("brief") || only == null || only.isJsonNull()) {
      return LIBRARIES;
    }
    List<String> names = new ArrayList<>();
    if (only.isJsonArray()) {
      for (JsonElement name : only.getAsJsonArray()) {
        names.add(
            name.isJsonPrimitive() && name.getAsJsonPrimitive().isString()
                ? name.getAsString()
                : null);
      }
    }
    if (!only.isJsonArray() || names.contains(null)) {
      throw RunnerException.badRequest("only must be a list of implementation names");
    }
    List<Library> served = new ArrayList<>();
    for (Library library : LIBRARIES) {
      if (names.contains(library.id())) {
        served.add(library);
      }
    }
    return served;
  }

  private static JsonObject compute(Request request, boolean bench) throws Exception {
    Op op = resolve(request).prepare(request.primitive(), request.inputs());
    JsonObject result = new JsonObject();
    byte[] output;
    int threads = bench ? request.count("threads", 1) : 1;
    if (threads > 1) {
      output = Threads.bench(resolve(request), request, op, threads, result);
    } else if (bench) {
      output =
          Bench.run(
              op,
              request.bounded("iterations", Integer.MAX_VALUE),
              request.bounded("batches", Limits.MAX_BATCHES),
              result);
    } else {
      output = op.call();
    }
    JsonElement encoded =
        GSON.toJsonTree(
            Primitive.textOutput(request.operation())
                ? new String(output, StandardCharsets.UTF_8)
                : Hex.encode(output));
    result.add("output", encoded);
    return result;
  }

  private static Primitive resolve(Request request) throws RunnerException {
    String impl = request.impl();
    String name = request.primitive();
    request.operation(); // a missing operation is a bad_request before anything else
    Library library = null;
    for (Library candidate : LIBRARIES) {
      if (candidate.id().equals(impl)) {
        library = candidate;
      }
    }
    if (library == null && !(impl == null && name.equals("noop"))) {
      throw RunnerException.unsupported("no implementation " + impl + " here");
    }
    if (name.equals("noop")) {
      return Noop.PRIMITIVE;
    }
    Primitive primitive = library.table().get(name);
    if (primitive == null) {
      throw RunnerException.unsupported(name + " is not offered by " + impl);
    }
    return primitive;
  }
}
