package dev.cryptobench.runner;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.util.List;
import java.util.Map;

/** The hello answer: runtime, CPU as HotSpot sees it, and every library's table. */
final class Hello {
  private Hello() {}

  /**
   * The hello answer. {@code brief} (a fresh process the orchestrator already knows, see
   * docs/protocol.md) leaves out what needs the JVM's management beans (flags, details, cpu, code
   * paths): they cost half a second a start.
   */
  static JsonObject build(List<Library> libraries, boolean brief) {
    JsonObject runtime = new JsonObject();
    runtime.addProperty("name", "java");
    runtime.addProperty("version", Jvm.version());
    JsonArray implementations = new JsonArray();
    for (Library library : libraries) {
      implementations.add(implementation(library, brief));
    }
    JsonObject result = new JsonObject();
    result.addProperty("protocol", 1);
    JsonArray generators = new JsonArray();
    for (String g : MsgGen.GENERATORS) {
      generators.add(g);
    }
    result.add("generators", generators);
    result.add("runtime", runtime);
    if (!brief) {
      JsonObject flags = Jvm.flags();
      runtime.add("details", Jvm.details(flags));
      result.add("cpu", Jvm.cpu(flags));
    }
    result.add("implementations", implementations);
    return result;
  }

  private static JsonObject implementation(Library library, boolean brief) {
    JsonObject primitives = new JsonObject();
    for (Map.Entry<String, Primitive> row : library.table().entrySet()) {
      Primitive p = row.getValue();
      JsonObject entry = new JsonObject();
      JsonArray operations = new JsonArray();
      p.operations().keySet().forEach(operations::add);
      entry.add("operations", operations);
      if (p.keyLen() > 0 || p.operations().containsKey("mac")) {
        entry.addProperty("reuses_key", p.reusesKey());
      }
      if (p.takesSalt() != null) {
        entry.addProperty("takes_salt", p.takesSalt());
      }
      entry.addProperty("native", p.nativeName());
      JsonObject sizes = Sizes.of(library.id(), row.getKey());
      if (sizes != null) {
        entry.add("sizes", sizes);
      }
      primitives.add(row.getKey(), entry);
    }
    JsonObject impl = new JsonObject();
    impl.addProperty("library", library.id());
    impl.addProperty("version", library.version());
    impl.add("backend", library.backend());
    if (!brief) {
      impl.addProperty("code_path", library.codePath());
      impl.addProperty("notes", library.notes());
    }
    impl.add("primitives", primitives);
    return impl;
  }
}
