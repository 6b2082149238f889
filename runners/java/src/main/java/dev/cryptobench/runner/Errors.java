package dev.cryptobench.runner;

import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.security.spec.InvalidKeySpecException;
import javax.crypto.AEADBadTagException;
import org.bouncycastle.crypto.DataLengthException;
import org.bouncycastle.crypto.InvalidCipherTextException;

/** Maps what a library throws to the protocol's error kinds. */
final class Errors {
  private Errors() {}

  static RunnerException classify(Throwable e) {
    if (e instanceof RunnerException) {
      return (RunnerException) e;
    }
    String message = e.getClass().getSimpleName() + ": " + e.getMessage();
    if (e instanceof AEADBadTagException || e instanceof InvalidCipherTextException) {
      return RunnerException.authFailed(message);
    }
    if (e instanceof NoSuchAlgorithmException) {
      return RunnerException.unsupported(message);
    }
    if (e instanceof InvalidKeyException
        || e instanceof InvalidAlgorithmParameterException
        || e instanceof InvalidKeySpecException
        || e instanceof DataLengthException
        || e instanceof IllegalArgumentException) {
      return RunnerException.invalidParams(message);
    }
    System.err.println("cryptobench java runner: internal error: " + message);
    return RunnerException.internal(message);
  }
}
