package dev.cryptobench.runner;

/** A request that gets an error answer; {@code kind} is one of the protocol's error kinds. */
final class RunnerException extends Exception {
  private static final long serialVersionUID = 1L;

  final String kind;

  RunnerException(String kind, String message) {
    super(message);
    this.kind = kind;
  }

  static RunnerException badRequest(String message) {
    return new RunnerException("bad_request", message);
  }

  static RunnerException unsupported(String message) {
    return new RunnerException("unsupported", message);
  }

  static RunnerException invalidParams(String message) {
    return new RunnerException("invalid_params", message);
  }

  static RunnerException authFailed(String message) {
    return new RunnerException("auth_failed", message);
  }

  static RunnerException internal(String message) {
    return new RunnerException("internal", message);
  }
}
