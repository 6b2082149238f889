package dev.cryptobench.runner;

import com.google.gson.JsonObject;
import java.util.Map;

/** One library hosted by this runner: its hello entry and its dispatch table. */
interface Library {
  /** The short lowercase id, the part after the slash in {@code java/jdk}. */
  String id();

  String version();

  /** The code that actually runs: {"name", "version"}. */
  JsonObject backend();

  String codePath();

  String notes();

  /** Catalog primitive id to its implementation. */
  Map<String, Primitive> table();
}
