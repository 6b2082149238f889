package dev.cryptobench.runner;

import java.security.Key;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.Security;
import java.security.Signature;
import java.security.SignatureException;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.KeySpec;
import java.security.spec.MGF1ParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.PSSParameterSpec;
import java.security.spec.RSAKeyGenParameterSpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.KeyAgreement;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;

/**
 * The public-key rows (families kex and signature) of a JCA provider: KeyAgreement, Signature,
 * KeyPairGenerator and KeyFactory asked for by name from that provider, keys translated by
 * JdkPubkeyCodec. Shared by java/jdk (SunEC and SunRsaSign), java/bc-jca, java/accp and
 * java/conscrypt; a row is offered only where the provider registers its KeyAgreement or Signature.
 * A provider with no KeyFactory for a key type parses keys with the JDK's (ACCP's Ed25519). The JCA
 * makes key pairs only at random: keygen refuses key_seed (unsupported).
 */
final class JdkJcaPubkey {
  private static final PSSParameterSpec PSS =
      new PSSParameterSpec("SHA-256", "MGF1", MGF1ParameterSpec.SHA256, 32, 1);

  private JdkJcaPubkey() {}

  /** Our private key in a KeyAgreement, and the factory that parses the peer's keys. */
  private record Agreement(KeyAgreement agreement, KeyFactory factory) {}

  /** How one signature scheme is asked for: names, key forms, and its parameters. */
  private record Scheme(
      String signature,
      String keyType,
      PubkeyShapes.Load<KeySpec> privateSpec,
      PubkeyShapes.Load<KeySpec> publicSpec,
      PSSParameterSpec params,
      int rsaBits,
      Refuse refuse) {}

  /**
   * Signatures refused before the provider sees them (an encoding the protocol does not allow and
   * the provider accepts): {@code length} other than this many bytes (P1363: r‖s is exactly 64),
   * or, with {@code derOnly}, anything but DER.
   */
  private record Refuse(int length, boolean derOnly) {}

  private static final Refuse NONE = new Refuse(0, false);

  /** RFC 8032: R‖S; JDK 17's SunEC accepts a 65th byte (Wycheproof ed25519 tcId 37). */
  private static final int ED25519_SIG_LEN = 64;

  /**
   * The first JDK seen here whose SunEC accepts a valid ECDSA signature whose k·G has an
   * x-coordinate ≥ n (Wycheproof ecdsa_secp256r1_sha256 tcIds 350 and 479): 17.0.15 refuses them,
   * 25.0.3 accepts them; the versions between were not tried.
   */
  private static final int JDK_LARGE_X = 25;

  /**
   * java/jdk's rows: SunEC and SunRsaSign. SunEC accepts an ECDSA signature whose INTEGER lacks its
   * leading zero byte (Wycheproof's "MissingZero", a legacy JDK encoding): only DER is passed on to
   * it. Before JDK_LARGE_X its ECDSA rows are not offered: verify would refuse valid signatures,
   * and the Wycheproof suite runs the verify vectors of every offered primitive.
   */
  static Map<String, Primitive> jdk() {
    Map<String, Primitive> t =
        table(Security.getProvider("SunEC"), Security.getProvider("SunRsaSign"), true);
    if (Runtime.version().feature() < JDK_LARGE_X) {
      t.remove("ecdsa-p256-sha256");
      t.remove("ecdsa-p256-sha256-p1363");
    }
    return t;
  }

  /** The rows the providers offer: ec serves X25519/P-256/Ed25519, rsa the RSA signatures. */
  static Map<String, Primitive> table(Provider ec, Provider rsa) {
    return table(ec, rsa, false);
  }

  private static Map<String, Primitive> table(Provider ec, Provider rsa, boolean derOnly) {
    Map<String, Primitive> t = new LinkedHashMap<>();
    if (offers(ec, "KeyAgreement", "X25519")) {
      t.put("x25519", x25519(ec));
    }
    if (offers(ec, "KeyAgreement", "ECDH")) {
      t.put("ecdh-p256", ecdh(ec));
    }
    if (offers(ec, "Signature", "Ed25519")) {
      ASN1ObjectIdentifier oid = JdkPubkeyCodec.ED25519;
      Scheme s =
          new Scheme(
              "Ed25519",
              "Ed25519",
              raw -> JdkPubkeyCodec.pkcs8(oid, raw),
              raw -> JdkPubkeyCodec.spki(oid, raw),
              null,
              0,
              new Refuse(ED25519_SIG_LEN, false));
      t.put("ed25519", signature(ec, s));
    }
    if (offers(ec, "Signature", "SHA256withECDSA")) {
      Refuse der = new Refuse(0, derOnly);
      t.put("ecdsa-p256-sha256", signature(ec, ecdsa("SHA256withECDSA", der)));
    }
    for (String name : new String[] {"SHA256withECDSAinP1363Format", "SHA256withPLAIN-ECDSA"}) {
      if (offers(ec, "Signature", name) && !t.containsKey("ecdsa-p256-sha256-p1363")) {
        Refuse p1363 = new Refuse(2 * JdkPubkeyCodec.P256_LEN, false);
        t.put("ecdsa-p256-sha256-p1363", signature(ec, ecdsa(name, p1363)));
      }
    }
    String pss = offers(rsa, "Signature", "RSASSA-PSS") ? "RSASSA-PSS" : "SHA256withRSA/PSS";
    if (offers(rsa, "Signature", pss)) {
      t.put("rsa-2048-pss-sha256", signature(rsa, rsa(pss, PSS, 2048)));
      t.put("rsa-3072-pss-sha256", signature(rsa, rsa(pss, PSS, 3072)));
    }
    if (offers(rsa, "Signature", "SHA256withRSA")) {
      t.put("rsa-2048-pkcs1-sha256", signature(rsa, rsa("SHA256withRSA", null, 2048)));
    }
    return t;
  }

  /** Whether the provider registers the service (or an alias of it). */
  static boolean offers(Provider p, String type, String name) {
    return p != null && p.getService(type, name) != null;
  }

  /** The provider's KeyFactory for the key type, else the JDK's. */
  private static KeyFactory factory(Provider p, String keyType) throws Exception {
    return offers(p, "KeyFactory", keyType)
        ? KeyFactory.getInstance(keyType, p)
        : KeyFactory.getInstance(keyType);
  }

  private static PubkeyShapes.KeyGen random(KeyPairGenerator kpg, Encode encode, String why) {
    return seed -> {
      if (seed != null) {
        throw PubkeyShapes.noSeed(why);
      }
      return encode.pair(kpg.generateKeyPair());
    };
  }

  /** A JCA key pair in the protocol's encodings. */
  @FunctionalInterface
  private interface Encode {
    byte[][] pair(KeyPair pair) throws Exception;
  }

  private static final Encode RAW =
      kp ->
          new byte[][] {
            JdkPubkeyCodec.rawPublic(kp.getPublic()), JdkPubkeyCodec.rawPrivate(kp.getPrivate())
          };

  private static final Encode EC =
      kp ->
          new byte[][] {
            JdkPubkeyCodec.point((ECPublicKey) kp.getPublic()),
            JdkPubkeyCodec.scalar((ECPrivateKey) kp.getPrivate())
          };

  private static final Encode DER =
      kp -> new byte[][] {kp.getPublic().getEncoded(), kp.getPrivate().getEncoded()};

  private static final String JCA_RANDOM =
      "the JCA's KeyPairGenerator makes key pairs at random only";

  private static Primitive x25519(Provider p) {
    Shapes.Make<PubkeyShapes.KeyGen> keygen =
        () -> random(KeyPairGenerator.getInstance("X25519", p), RAW, JCA_RANDOM);
    return PubkeyShapes.kex(
        "KeyAgreement X25519",
        keygen,
        raw -> agreement(p, "X25519", "X25519", JdkPubkeyCodec.pkcs8(JdkPubkeyCodec.X25519, raw)),
        (a, peer) -> agree(a, () -> JdkPubkeyCodec.spki(JdkPubkeyCodec.X25519, peer)));
  }

  private static Primitive ecdh(Provider p) {
    Shapes.Make<PubkeyShapes.KeyGen> keygen =
        () -> {
          KeyPairGenerator kpg = KeyPairGenerator.getInstance("EC", p);
          kpg.initialize(new ECGenParameterSpec("secp256r1"));
          return random(kpg, EC, JCA_RANDOM);
        };
    return PubkeyShapes.kex(
        "KeyAgreement ECDH (secp256r1)",
        keygen,
        raw -> agreement(p, "ECDH", "EC", JdkPubkeyCodec.ecPrivate(raw)),
        (a, peer) -> agree(a, () -> JdkPubkeyCodec.ecPublic(peer)));
  }

  private static Agreement agreement(Provider p, String name, String keyType, KeySpec spec)
      throws Exception {
    KeyFactory factory = factory(p, keyType);
    KeyAgreement agreement = KeyAgreement.getInstance(name, p);
    agreement.init(factory.generatePrivate(spec));
    return new Agreement(agreement, factory);
  }

  /** The shared secret with the peer's key; a key or result the provider refuses: invalid. */
  private static byte[] agree(Agreement a, PeerSpec peer) throws Exception {
    try {
      PublicKey key = a.factory().generatePublic(peer.spec());
      a.agreement().doPhase(key, true);
      return a.agreement().generateSecret();
    } catch (RunnerException e) {
      throw e;
    } catch (Exception e) {
      throw PubkeyShapes.peer(e);
    }
  }

  /** The peer's public key as a KeySpec, built in every agree call. */
  @FunctionalInterface
  private interface PeerSpec {
    KeySpec spec() throws Exception;
  }

  private static Scheme ecdsa(String name, Refuse refuse) {
    return new Scheme(
        name, "EC", JdkPubkeyCodec::ecPrivate, JdkPubkeyCodec::ecPublic, null, 0, refuse);
  }

  private static Scheme rsa(String name, PSSParameterSpec params, int bits) {
    return new Scheme(
        name, "RSA", PKCS8EncodedKeySpec::new, X509EncodedKeySpec::new, params, bits, NONE);
  }

  private static Primitive signature(Provider p, Scheme s) {
    String nativeName = "Signature " + s.signature() + (s.params() == null ? "" : PSS_NAME);
    return PubkeyShapes.signature(
        nativeName,
        () -> keygen(p, s),
        raw -> signer(p, s, raw),
        JdkJcaPubkey::sign,
        raw -> verifier(p, s, raw),
        (signature, msg, sig) -> verify(s.refuse(), signature, msg, sig));
  }

  private static final String PSS_NAME = " (PSSParameterSpec SHA-256, MGF1 SHA-256, salt 32)";

  private static PubkeyShapes.KeyGen keygen(Provider p, Scheme s) throws Exception {
    if (s.rsaBits() > 0) {
      KeyPairGenerator kpg = KeyPairGenerator.getInstance("RSA", p);
      kpg.initialize(new RSAKeyGenParameterSpec(s.rsaBits(), RSAKeyGenParameterSpec.F4));
      return random(kpg, DER, "RSA has no standard key generation from a seed");
    }
    if (s.keyType().equals("EC")) {
      KeyPairGenerator kpg = KeyPairGenerator.getInstance("EC", p);
      kpg.initialize(new ECGenParameterSpec("secp256r1"));
      return random(kpg, EC, JCA_RANDOM);
    }
    return random(KeyPairGenerator.getInstance(s.keyType(), p), RAW, JCA_RANDOM);
  }

  private static Signature signer(Provider p, Scheme s, byte[] raw) throws Exception {
    KeyFactory factory = factory(p, s.keyType());
    PrivateKey key = factory.generatePrivate(s.privateSpec().load(raw));
    checkBits(s, key);
    Signature signature = Signature.getInstance(s.signature(), p);
    signature.initSign(key);
    if (s.params() != null) {
      signature.setParameter(s.params());
    }
    return signature;
  }

  private static Signature verifier(Provider p, Scheme s, byte[] raw) throws Exception {
    KeyFactory factory = factory(p, s.keyType());
    PublicKey key = factory.generatePublic(s.publicSpec().load(raw));
    checkBits(s, key);
    Signature signature = Signature.getInstance(s.signature(), p);
    signature.initVerify(key);
    if (s.params() != null) {
      signature.setParameter(s.params());
    }
    return signature;
  }

  /** An RSA key of another size than the primitive's: invalid_params. */
  private static void checkBits(Scheme s, Key key) throws RunnerException {
    if (s.rsaBits() > 0 && ((RSAKey) key).getModulus().bitLength() != s.rsaBits()) {
      throw RunnerException.invalidParams("not an RSA-" + s.rsaBits() + " key");
    }
  }

  private static byte[] sign(Signature signature, byte[] msg) throws Exception {
    signature.update(msg);
    return signature.sign();
  }

  /** A signature the provider cannot even parse is refused like one that does not verify. */
  private static boolean verify(Refuse refuse, Signature signature, byte[] msg, byte[] sig)
      throws Exception {
    if (refuse.length() > 0 && sig.length != refuse.length()) {
      return false;
    }
    if (refuse.derOnly() && !JdkPubkeyCodec.isDer(sig)) {
      return false;
    }
    signature.update(msg);
    try {
      return signature.verify(sig);
    } catch (SignatureException e) {
      return false;
    }
  }
}
