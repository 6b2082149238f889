package dev.cryptobench.runner;

import java.util.Map;
import java.util.Set;

/**
 * One row of a library's dispatch table: the operations it offers for a catalog primitive and how
 * each is prepared.
 *
 * @param nativeName the library's own name for it
 * @param operations operation name to its preparation, in the catalog's order
 * @param params the parameters it understands, besides fresh_context
 * @param reusesKey false when the key/context cannot be reused across messages
 * @param takesSalt for password hashes: whether {@code hash} takes the salt sent; null otherwise
 * @param keyLen the key length in bytes it requires, 0 when it takes no key
 */
record Primitive(
    String nativeName,
    Map<String, Prepare> operations,
    Set<String> params,
    boolean reusesKey,
    Boolean takesSalt,
    int keyLen) {

  /** Prepares one operation: the setup done once per bench request unless fresh_context. */
  @FunctionalInterface
  interface Prepare {
    Op prepare(Inputs in) throws Exception;
  }

  Op prepare(String name, Inputs in) throws Exception {
    Prepare prepare = operations.get(in.operation);
    if (prepare == null) {
      throw RunnerException.unsupported(name + "/" + in.operation + " is not offered");
    }
    in.checkParams(params);
    if (!reusesKey && in.timed && !in.fresh) {
      throw RunnerException.unsupported(name + " cannot reuse its key: only fresh_context=true");
    }
    if (keyLen > 0 && in.get("key").length != keyLen) {
      throw RunnerException.invalidParams(name + " takes a " + keyLen + "-byte key");
    }
    return prepare.prepare(in);
  }

  /** Whether the output is an encoded string (password hashes) rather than bytes. */
  static boolean textOutput(String operation) {
    return operation.equals("hash") || operation.equals("verify");
  }
}
