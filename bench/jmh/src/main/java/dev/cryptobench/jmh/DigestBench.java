package dev.cryptobench.jmh;

import java.security.MessageDigest;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.bouncycastle.crypto.Digest;
import org.bouncycastle.crypto.digests.MD5Digest;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The calls the Java runner times for {@code digest}, one per JMH benchmark: a reused
 * MessageDigest's digest(msg) (java/jdk) and a reused BouncyCastle Digest's update + doFinal into
 * a new array (java/bc). {@code bcProvider} is not a runner case: it measures what going through
 * BouncyCastle's JCA provider instead of its lightweight API would cost (docs/runners/java.md).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class DigestBench {
  @Param({"sha256", "md5"})
  public String primitive;

  @Param({"128", "8192"})
  public int size;

  private byte[] msg;
  private MessageDigest jdk;
  private Digest bc;
  private MessageDigest bcProvider;

  @Setup
  public void setup() throws Exception {
    msg = new byte[size];
    new Random(size).nextBytes(msg);
    boolean sha256 = primitive.equals("sha256");
    jdk = MessageDigest.getInstance(sha256 ? "SHA-256" : "MD5");
    bc = sha256 ? new SHA256Digest() : new MD5Digest();
    bcProvider = MessageDigest.getInstance(sha256 ? "SHA-256" : "MD5", new BouncyCastleProvider());
  }

  @Benchmark
  public byte[] jdk() {
    return jdk.digest(msg);
  }

  @Benchmark
  public byte[] bc() {
    bc.update(msg, 0, msg.length);
    byte[] out = new byte[bc.getDigestSize()];
    bc.doFinal(out, 0);
    return out;
  }

  @Benchmark
  public byte[] bcProvider() {
    return bcProvider.digest(msg);
  }
}
