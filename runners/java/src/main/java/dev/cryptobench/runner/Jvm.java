package dev.cryptobench.runner;

import com.google.gson.JsonObject;
import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/** What the JVM itself reports: its version and the flags that change crypto code paths. */
final class Jvm {
  /** HotSpot flags that switch crypto intrinsics or the vector code they use. */
  private static final List<String> CRYPTO_FLAGS =
      List.of(
          "UseSHA",
          "UseSHA1Intrinsics",
          "UseSHA256Intrinsics",
          "UseSHA512Intrinsics",
          "UseSHA3Intrinsics",
          "UseMD5Intrinsics",
          "UseAES",
          "UseAESIntrinsics",
          "UseAESCTRIntrinsics",
          "UseGHASHIntrinsics",
          "UseChaCha20Intrinsics",
          "UsePoly1305Intrinsics",
          "UseCRC32Intrinsics",
          "UseCRC32CIntrinsics",
          "UseAdler32Intrinsics",
          "UseCLMUL",
          "UseAVX",
          "UseSSE",
          "UseBMI2Instructions",
          "UseVectorizedMismatchIntrinsic",
          "TieredCompilation",
          "TieredStopAtLevel");

  private Jvm() {}

  static String version() {
    return Runtime.version().toString();
  }

  /** The flags above that exist on this JVM, with their values and where the value came from. */
  static JsonObject flags() {
    JsonObject flags = new JsonObject();
    HotSpotDiagnosticMXBean bean =
        ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
    if (bean == null) {
      return flags;
    }
    for (String name : CRYPTO_FLAGS) {
      try {
        VMOption option = bean.getVMOption(name);
        String value = option.getValue();
        if (value.equals("true") || value.equals("false")) {
          flags.addProperty(name, Boolean.parseBoolean(value));
        } else {
          flags.addProperty(name, value);
        }
      } catch (IllegalArgumentException e) {
        // not a flag of this JVM (e.g. UseSHA3Intrinsics before JDK 16): nothing to report
      }
    }
    return flags;
  }

  static boolean on(JsonObject flags, String name) {
    return flags.has(name)
        && flags.get(name).getAsJsonPrimitive().isBoolean()
        && flags.get(name).getAsBoolean();
  }

  /** Flat, short details for reports: who built the JVM, its arguments, its crypto flags. */
  static JsonObject details(JsonObject flags) {
    JsonObject details = new JsonObject();
    details.addProperty("vendor", System.getProperty("java.vendor"));
    details.addProperty("vm", System.getProperty("java.vm.name"));
    details.addProperty("home", System.getProperty("java.home"));
    details.addProperty(
        "jvm_args", String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()));
    String on = intrinsics(flags, true);
    String off = intrinsics(flags, false);
    details.addProperty("intrinsics_on", on.isEmpty() ? "none" : on);
    details.addProperty("intrinsics_off", off.isEmpty() ? "none" : off);
    for (String name : List.of("UseAVX", "UseSSE", "TieredCompilation", "TieredStopAtLevel")) {
      if (flags.has(name)) {
        details.add(name, flags.get(name));
      }
    }
    return details;
  }

  /** The Use*Intrinsics flags of this JVM that are on (or off), short names, comma-separated. */
  static String intrinsics(JsonObject flags, boolean on) {
    List<String> names = new ArrayList<>();
    for (String name : flags.keySet()) {
      if (name.endsWith("Intrinsics") && Jvm.on(flags, name) == on) {
        names.add(name.substring(3, name.length() - "Intrinsics".length()));
      }
    }
    return String.join(", ", names);
  }

  /** The CPU features HotSpot detected, as its flags show them (it enables a flag only then). */
  static JsonObject cpu(JsonObject flags) {
    JsonObject features = new JsonObject();
    features.addProperty("aes", on(flags, "UseAES"));
    features.addProperty("sha", on(flags, "UseSHA"));
    features.addProperty("pclmulqdq", on(flags, "UseCLMUL"));
    features.addProperty("bmi2", on(flags, "UseBMI2Instructions"));
    if (flags.has("UseAVX")) {
      int avx = Integer.parseInt(flags.get("UseAVX").getAsString());
      features.addProperty("avx", avx >= 1);
      features.addProperty("avx2", avx >= 2);
      features.addProperty("avx512f", avx >= 3);
    }
    if (flags.has("UseSSE")) {
      features.addProperty("sse4_1", Integer.parseInt(flags.get("UseSSE").getAsString()) >= 4);
    }
    JsonObject cpu = new JsonObject();
    cpu.add("features", features);
    cpu.addProperty("source", "HotSpot VM flags (HotSpotDiagnosticMXBean)");
    return cpu;
  }
}
