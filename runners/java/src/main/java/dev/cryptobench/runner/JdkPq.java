package dev.cryptobench.runner;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Security;
import java.security.Signature;
import java.security.SignatureException;
import java.security.spec.NamedParameterSpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.SecretKey;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;

/**
 * java/jdk's post-quantum rows, offered where the running JDK has them (JDK 24+, JEP 496/497; none
 * on 17): ML-KEM through javax.crypto.KEM (SunJCE), ML-DSA through Signature (SUN). The jar is
 * compiled for Java 17, which has no javax.crypto.KEM: it is reached through method handles looked
 * up once. The JCA takes no seed and keeps only expanded private keys (a JDK 25 ML-KEM or ML-DSA
 * PKCS#8 key holds the expanded form): a seed (d‖z, ξ) and a fixed m or rnd reach the JDK as the
 * SecureRandom its KeyPairGenerator, KEM encapsulator or Signature draws from (JdkFixedRandom), and
 * a private key is parsed by generating its key pair from the seed that way. That relies on the JDK
 * drawing FIPS 203/204's bytes in their order: the known answers and the other implementations
 * check it (docs/protocol.md).
 */
final class JdkPq {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final String NIST_ALGS = "2.16.840.1.101.3.4.";

  private JdkPq() {}

  private static final Map<String, Primitive> TABLE = build();

  /** The rows this JDK offers: empty on a JDK without ML-KEM and ML-DSA. */
  static Map<String, Primitive> table() {
    return TABLE;
  }

  private static Map<String, Primitive> build() {
    Map<String, Primitive> t = new LinkedHashMap<>();
    Provider sunJce = Security.getProvider("SunJCE");
    if (JdkJcaPubkey.offers(sunJce, "KEM", "ML-KEM") && Kem.HANDLES != null) {
      kem(t, sunJce, "ml-kem-512", "ML-KEM-512", "4.1", 800, 768);
      kem(t, sunJce, "ml-kem-768", "ML-KEM-768", "4.2", 1184, 1088);
      kem(t, sunJce, "ml-kem-1024", "ML-KEM-1024", "4.3", 1568, 1568);
    }
    Provider sun = Security.getProvider("SUN");
    if (JdkJcaPubkey.offers(sun, "Signature", "ML-DSA")) {
      mldsa(t, sun, "ml-dsa-44", "ML-DSA-44", "3.17", 1312);
      mldsa(t, sun, "ml-dsa-65", "ML-DSA-65", "3.18", 1952);
      mldsa(t, sun, "ml-dsa-87", "ML-DSA-87", "3.19", 2592);
    }
    return t;
  }

  /** What java/jdk's notes say about ML-KEM and ML-DSA on this JDK. */
  static String note() {
    if (table().isEmpty()) {
      return "; ML-KEM and ML-DSA not offered: this JDK ("
          + Runtime.version().feature()
          + ") has no KEM ML-KEM or Signature ML-DSA (JDK 24+, JEP 496/497)";
    }
    return "; ML-KEM (javax.crypto.KEM, reached by method handles: the jar is built for Java 17)"
        + " and ML-DSA (Signature) take no seed and keep expanded keys: seeds, m and rnd reach"
        + " the JDK as the SecureRandom it draws from, and a private key is parsed by generating"
        + " its key pair from the seed";
  }

  // -- key pairs from a seed, through the SecureRandom the generator draws from ---------------

  /** A KeyPairGenerator for one parameter set that draws its seed from a JdkFixedRandom. */
  private record Seeded(KeyPairGenerator generator, JdkFixedRandom random, int seedLen) {
    static Seeded of(Provider p, String family, String name, int seedLen) throws Exception {
      KeyPairGenerator generator = KeyPairGenerator.getInstance(family, p);
      JdkFixedRandom random = new JdkFixedRandom(new byte[seedLen]);
      generator.initialize(new NamedParameterSpec(name), random);
      return new Seeded(generator, random, seedLen);
    }

    KeyPair pair(byte[] seed) {
      random.serve(seed);
      return generator.generateKeyPair();
    }

    /** {raw public key, seed}; a fresh random seed when seed is null. */
    byte[][] keygen(byte[] seed) {
      byte[] s = seed;
      if (s == null) {
        s = new byte[seedLen];
        RANDOM.nextBytes(s);
      }
      return new byte[][] {rawPublic(pair(s).getPublic()), s};
    }
  }

  private static byte[] rawPublic(PublicKey key) {
    return SubjectPublicKeyInfo.getInstance(key.getEncoded()).getPublicKeyData().getOctets();
  }

  /** A raw FIPS 203/204 public key of the right length as the JDK's PublicKey. */
  private static PublicKey publicKey(KeyFactory factory, String oid, byte[] raw, int len)
      throws Exception {
    PqShapes.checkLength("public_key", raw, len);
    AlgorithmIdentifier alg = new AlgorithmIdentifier(new ASN1ObjectIdentifier(NIST_ALGS + oid));
    byte[] spki = new SubjectPublicKeyInfo(alg, raw).getEncoded();
    return factory.generatePublic(new X509EncodedKeySpec(spki));
  }

  // -- ML-KEM: javax.crypto.KEM through method handles -----------------------------------------

  /** KEM's methods, looked up once; null on a JDK without javax.crypto.KEM (17). */
  private record Kem(
      MethodHandle getInstance,
      MethodHandle newEncapsulator,
      MethodHandle encapsulate,
      MethodHandle encapsulation,
      MethodHandle key,
      MethodHandle newDecapsulator,
      MethodHandle decapsulate) {
    static final Kem HANDLES = lookup();

    private static Kem lookup() {
      try {
        MethodHandles.Lookup l = MethodHandles.publicLookup();
        Class<?> kem = Class.forName("javax.crypto.KEM");
        Class<?> enc = Class.forName("javax.crypto.KEM$Encapsulator");
        Class<?> encd = Class.forName("javax.crypto.KEM$Encapsulated");
        Class<?> dec = Class.forName("javax.crypto.KEM$Decapsulator");
        return new Kem(
            l.findStatic(
                kem, "getInstance", MethodType.methodType(kem, String.class, Provider.class)),
            l.findVirtual(
                kem,
                "newEncapsulator",
                MethodType.methodType(enc, PublicKey.class, SecureRandom.class)),
            l.findVirtual(enc, "encapsulate", MethodType.methodType(encd)),
            l.findVirtual(encd, "encapsulation", MethodType.methodType(byte[].class)),
            l.findVirtual(encd, "key", MethodType.methodType(SecretKey.class)),
            l.findVirtual(kem, "newDecapsulator", MethodType.methodType(dec, PrivateKey.class)),
            l.findVirtual(
                dec, "decapsulate", MethodType.methodType(SecretKey.class, byte[].class)));
      } catch (ReflectiveOperationException e) {
        return null;
      }
    }
  }

  /** What a method handle throws, as an Exception (an Error is rethrown as it is). */
  private static Exception unwrap(Throwable t) {
    if (t instanceof Error e) {
      throw e;
    }
    return (Exception) t;
  }

  /** Our encapsulation key with the KEM object and its random encapsulator. */
  private record Encapsulation(Object kem, PublicKey key, Object hedged) {}

  private static void kem(
      Map<String, Primitive> t,
      Provider p,
      String id,
      String name,
      String oid,
      int publicLen,
      int ctLen) {
    Kem h = Kem.HANDLES;
    t.put(
        id,
        PqShapes.kem(
            "KEM ML-KEM (" + name + ", SunJCE)",
            ctLen,
            () -> Seeded.of(p, "ML-KEM", name, PqShapes.KEM_SEED_LEN)::keygen,
            raw -> {
              PublicKey key = publicKey(KeyFactory.getInstance("ML-KEM", p), oid, raw, publicLen);
              try {
                Object kem = h.getInstance().invoke("ML-KEM", p);
                return new Encapsulation(kem, key, h.newEncapsulator().invoke(kem, key, RANDOM));
              } catch (Throwable e) {
                throw unwrap(e);
              }
            },
            JdkPq::encaps,
            seed -> {
              PrivateKey key = Seeded.of(p, "ML-KEM", name, seed.length).pair(seed).getPrivate();
              try {
                return h.newDecapsulator().invoke(h.getInstance().invoke("ML-KEM", p), key);
              } catch (Throwable e) {
                throw unwrap(e);
              }
            },
            JdkPq::decaps));
  }

  private static byte[][] encaps(Encapsulation e, byte[] m) throws Exception {
    Kem h = Kem.HANDLES;
    try {
      Object encapsulator =
          m == null
              ? e.hedged()
              : h.newEncapsulator().invoke(e.kem(), e.key(), new JdkFixedRandom(m));
      Object out = h.encapsulate().invoke(encapsulator);
      byte[] ct = (byte[]) h.encapsulation().invoke(out);
      SecretKey secret = (SecretKey) h.key().invoke(out);
      return new byte[][] {ct, secret.getEncoded()};
    } catch (Throwable t) {
      throw unwrap(t);
    }
  }

  private static byte[] decaps(Object decapsulator, byte[] ct) throws Exception {
    try {
      return ((SecretKey) Kem.HANDLES.decapsulate().invoke(decapsulator, ct)).getEncoded();
    } catch (Throwable t) {
      throw unwrap(t);
    }
  }

  // -- ML-DSA: Signature ------------------------------------------------------------------------

  /** Our private key with a Signature set up for hedged signing. */
  private record Signing(PrivateKey key, Signature hedged) {}

  private static void mldsa(
      Map<String, Primitive> t, Provider p, String id, String name, String oid, int publicLen) {
    t.put(
        id,
        PqShapes.mldsa(
            "Signature " + name + " (SUN)",
            () -> Seeded.of(p, "ML-DSA", name, PqShapes.MLDSA_SEED_LEN)::keygen,
            seed -> {
              PrivateKey key = Seeded.of(p, "ML-DSA", name, seed.length).pair(seed).getPrivate();
              Signature hedged = Signature.getInstance(name, p);
              hedged.initSign(key, RANDOM);
              return new Signing(key, hedged);
            },
            (s, msg, rnd) -> sign(p, name, s, msg, rnd),
            raw -> {
              Signature verifier = Signature.getInstance(name, p);
              verifier.initVerify(
                  publicKey(KeyFactory.getInstance("ML-DSA", p), oid, raw, publicLen));
              return verifier;
            },
            JdkPq::verify));
  }

  private static byte[] sign(Provider p, String name, Signing s, byte[] msg, byte[] rnd)
      throws Exception {
    Signature signer = s.hedged();
    if (rnd != null) {
      signer = Signature.getInstance(name, p);
      signer.initSign(s.key(), new JdkFixedRandom(rnd));
    }
    signer.update(msg);
    return signer.sign();
  }

  private static boolean verify(Signature verifier, byte[] msg, byte[] sig) throws Exception {
    verifier.update(msg);
    try {
      return verifier.verify(sig);
    } catch (SignatureException e) {
      return false;
    }
  }
}
