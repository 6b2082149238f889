package dev.cryptobench.runner;

import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.Map;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.Signer;
import org.bouncycastle.crypto.agreement.ECDHBasicAgreement;
import org.bouncycastle.crypto.agreement.X25519Agreement;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.crypto.engines.RSABlindedEngine;
import org.bouncycastle.crypto.generators.RSAKeyPairGenerator;
import org.bouncycastle.crypto.params.AsymmetricKeyParameter;
import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.crypto.params.ParametersWithRandom;
import org.bouncycastle.crypto.params.RSAKeyGenerationParameters;
import org.bouncycastle.crypto.params.RSAKeyParameters;
import org.bouncycastle.crypto.params.X25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.X25519PublicKeyParameters;
import org.bouncycastle.crypto.signers.DSADigestSigner;
import org.bouncycastle.crypto.signers.DSAEncoding;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.crypto.signers.Ed25519Signer;
import org.bouncycastle.crypto.signers.PSSSigner;
import org.bouncycastle.crypto.signers.PlainDSAEncoding;
import org.bouncycastle.crypto.signers.RSADigestSigner;
import org.bouncycastle.crypto.signers.StandardDSAEncoding;
import org.bouncycastle.crypto.util.PrivateKeyFactory;
import org.bouncycastle.crypto.util.PrivateKeyInfoFactory;
import org.bouncycastle.crypto.util.PublicKeyFactory;
import org.bouncycastle.crypto.util.SubjectPublicKeyInfoFactory;
import org.bouncycastle.jcajce.provider.asymmetric.util.PrimeCertaintyCalculator;
import org.bouncycastle.math.ec.FixedPointCombMultiplier;
import org.bouncycastle.util.BigIntegers;

/**
 * java/bc's public-key rows: BouncyCastle's lightweight API (X25519Agreement, ECDHBasicAgreement,
 * Ed25519Signer, ECDSASigner in a DSADigestSigner with SHA-256, PSSSigner, RSADigestSigner) over
 * its key parameter classes; X25519, Ed25519 and P-256 key pairs are made from key_seed when sent.
 * RSA keys cross as DER through its SubjectPublicKeyInfo/PKCS#8 factories.
 */
final class BcPubkey {
  static final Map<String, Primitive> TABLE = new LinkedHashMap<>();

  private static final SecureRandom RANDOM = new SecureRandom();
  private static final int SALT_LEN = 32;
  private static final BigInteger F4 = BigInteger.valueOf(65537);

  static {
    TABLE.put(
        "x25519",
        PubkeyShapes.kex(
            "X25519Agreement",
            () -> BcPubkey::x25519Pair,
            BcPubkey::x25519Load,
            BcPubkey::x25519Agree));
    TABLE.put(
        "ecdh-p256",
        PubkeyShapes.kex(
            "ECDHBasicAgreement (secp256r1)",
            () -> BcPubkey::p256Pair,
            BcPubkey::ecdhLoad,
            BcPubkey::ecdhAgree));
    TABLE.put(
        "ed25519",
        PubkeyShapes.signature(
            "Ed25519Signer",
            () -> BcPubkey::ed25519Pair,
            raw -> signer(new Ed25519Signer(), true, new Ed25519PrivateKeyParameters(raw)),
            BcPubkey::sign,
            raw -> signer(new Ed25519Signer(), false, new Ed25519PublicKeyParameters(raw)),
            BcPubkey::verify));
    ecdsa(
        "ecdsa-p256-sha256",
        "DSADigestSigner(ECDSASigner, SHA256Digest)",
        StandardDSAEncoding.INSTANCE);
    ecdsa(
        "ecdsa-p256-sha256-p1363",
        "DSADigestSigner(ECDSASigner, SHA256Digest, PlainDSAEncoding)",
        PlainDSAEncoding.INSTANCE);
    rsa("rsa-2048-pss-sha256", "PSSSigner(RSABlindedEngine, SHA256Digest, salt 32)", 2048, true);
    rsa("rsa-3072-pss-sha256", "PSSSigner(RSABlindedEngine, SHA256Digest, salt 32)", 3072, true);
    rsa("rsa-2048-pkcs1-sha256", "RSADigestSigner(SHA256Digest)", 2048, false);
  }

  private BcPubkey() {}

  /** P-256 as BouncyCastle's custom curve implementation (the one its JCA provider uses). */
  private static final class P256 {
    static final ECDomainParameters DOMAIN = domain();

    private static ECDomainParameters domain() {
      X9ECParameters x9 = CustomNamedCurves.getByName("secp256r1");
      return new ECDomainParameters(x9.getCurve(), x9.getG(), x9.getN(), x9.getH());
    }
  }

  // -- X25519 and Ed25519: raw 32-byte keys -----------------------------------------------------

  private static byte[][] x25519Pair(byte[] seed) {
    X25519PrivateKeyParameters key =
        seed == null
            ? new X25519PrivateKeyParameters(RANDOM)
            : new X25519PrivateKeyParameters(seed);
    return new byte[][] {key.generatePublicKey().getEncoded(), key.getEncoded()};
  }

  private static X25519Agreement x25519Load(byte[] raw) {
    X25519Agreement agreement = new X25519Agreement();
    agreement.init(new X25519PrivateKeyParameters(raw));
    return agreement;
  }

  /** The shared secret; BouncyCastle refuses an all-zero one (a low-order peer point). */
  private static byte[] x25519Agree(X25519Agreement agreement, byte[] peer) throws RunnerException {
    byte[] secret = new byte[agreement.getAgreementSize()];
    try {
      agreement.calculateAgreement(new X25519PublicKeyParameters(peer), secret, 0);
    } catch (RuntimeException e) {
      throw PubkeyShapes.peer(e);
    }
    return secret;
  }

  private static byte[][] ed25519Pair(byte[] seed) {
    Ed25519PrivateKeyParameters key =
        seed == null
            ? new Ed25519PrivateKeyParameters(RANDOM)
            : new Ed25519PrivateKeyParameters(seed);
    return new byte[][] {key.generatePublicKey().getEncoded(), key.getEncoded()};
  }

  // -- P-256: SEC1 points and 32-byte scalars ---------------------------------------------------

  /** A key pair from the scalar (1 ≤ d < n, else invalid_params) or at random. */
  private static byte[][] p256Pair(byte[] seed) throws RunnerException {
    BigInteger d = seed == null ? null : new BigInteger(1, seed);
    if (d == null) {
      do {
        d = BigIntegers.createRandomBigInteger(256, RANDOM);
      } while (d.signum() == 0 || d.compareTo(P256.DOMAIN.getN()) >= 0);
    } else if (d.signum() == 0 || d.compareTo(P256.DOMAIN.getN()) >= 0) {
      throw RunnerException.invalidParams("key_seed: the P-256 scalar is not in [1, n - 1]");
    }
    byte[] point = new FixedPointCombMultiplier().multiply(P256.DOMAIN.getG(), d).getEncoded(false);
    return new byte[][] {point, BigIntegers.asUnsignedByteArray(JdkPubkeyCodec.P256_LEN, d)};
  }

  private static ECPrivateKeyParameters p256Private(byte[] raw) throws RunnerException {
    if (raw.length != JdkPubkeyCodec.P256_LEN) {
      throw RunnerException.invalidParams("a P-256 private key is 32 bytes, not " + raw.length);
    }
    return new ECPrivateKeyParameters(new BigInteger(1, raw), P256.DOMAIN);
  }

  /** An uncompressed SEC1 point on P-256 (decodePoint and the parameters check it). */
  private static ECPublicKeyParameters p256Public(byte[] point) throws RunnerException {
    if (point.length != 1 + 2 * JdkPubkeyCodec.P256_LEN || point[0] != 4) {
      throw RunnerException.invalidParams("public keys are uncompressed SEC1 points (04||X||Y)");
    }
    return new ECPublicKeyParameters(P256.DOMAIN.getCurve().decodePoint(point), P256.DOMAIN);
  }

  private static ECDHBasicAgreement ecdhLoad(byte[] raw) throws RunnerException {
    ECDHBasicAgreement agreement = new ECDHBasicAgreement();
    agreement.init(p256Private(raw));
    return agreement;
  }

  private static byte[] ecdhAgree(ECDHBasicAgreement agreement, byte[] peer)
      throws RunnerException {
    try {
      BigInteger x = agreement.calculateAgreement(p256Public(peer));
      return BigIntegers.asUnsignedByteArray(agreement.getFieldSize(), x);
    } catch (RunnerException e) {
      throw e;
    } catch (RuntimeException e) {
      throw PubkeyShapes.peer(e);
    }
  }

  private static void ecdsa(String id, String nativeName, DSAEncoding encoding) {
    TABLE.put(
        id,
        PubkeyShapes.signature(
            nativeName,
            () -> BcPubkey::p256Pair,
            raw -> signer(dsa(encoding), true, random(p256Private(raw))),
            BcPubkey::sign,
            raw -> signer(dsa(encoding), false, p256Public(raw)),
            BcPubkey::verify));
  }

  private static Signer dsa(DSAEncoding encoding) {
    return new DSADigestSigner(new ECDSASigner(), new SHA256Digest(), encoding);
  }

  // -- RSA: DER SubjectPublicKeyInfo and PKCS#8 ---------------------------------------------------

  private static void rsa(String id, String nativeName, int bits, boolean pss) {
    TABLE.put(
        id,
        PubkeyShapes.signature(
            nativeName,
            () -> rsaKeygen(bits),
            raw ->
                signer(
                    rsaSigner(pss), true, random(rsaKey(PrivateKeyFactory.createKey(raw), bits))),
            BcPubkey::sign,
            raw -> signer(rsaSigner(pss), false, rsaKey(PublicKeyFactory.createKey(raw), bits)),
            BcPubkey::verify));
  }

  private static Signer rsaSigner(boolean pss) {
    return pss
        ? new PSSSigner(new RSABlindedEngine(), new SHA256Digest(), SALT_LEN)
        : new RSADigestSigner(new SHA256Digest());
  }

  private static PubkeyShapes.KeyGen rsaKeygen(int bits) {
    RSAKeyPairGenerator generator = new RSAKeyPairGenerator();
    int certainty = PrimeCertaintyCalculator.getDefaultCertainty(bits);
    generator.init(new RSAKeyGenerationParameters(F4, RANDOM, bits, certainty));
    return seed -> {
      if (seed != null) {
        throw PubkeyShapes.noSeed("RSA has no standard key generation from a seed");
      }
      AsymmetricCipherKeyPair pair = generator.generateKeyPair();
      return new byte[][] {
        SubjectPublicKeyInfoFactory.createSubjectPublicKeyInfo(pair.getPublic()).getEncoded(),
        PrivateKeyInfoFactory.createPrivateKeyInfo(pair.getPrivate()).getEncoded()
      };
    };
  }

  /** An RSA key of the primitive's size; anything else is invalid_params. */
  private static RSAKeyParameters rsaKey(AsymmetricKeyParameter key, int bits)
      throws RunnerException {
    if (!(key instanceof RSAKeyParameters rsa) || rsa.getModulus().bitLength() != bits) {
      throw RunnerException.invalidParams("not an RSA-" + bits + " key");
    }
    return rsa;
  }

  // -- one Signer object per case (BcPq's ML-DSA rows sign and verify with these too) ------------

  private static ParametersWithRandom random(AsymmetricKeyParameter key) {
    return new ParametersWithRandom(key, RANDOM);
  }

  private static Signer signer(
      Signer signer, boolean forSigning, org.bouncycastle.crypto.CipherParameters key) {
    signer.init(forSigning, key);
    return signer;
  }

  static byte[] sign(Signer signer, byte[] msg) throws Exception {
    signer.update(msg, 0, msg.length);
    return signer.generateSignature();
  }

  /**
   * A signature the library cannot even parse (ML-DSA: one of the wrong length) is refused like one
   * that does not verify.
   */
  static boolean verify(Signer signer, byte[] msg, byte[] sig) {
    signer.update(msg, 0, msg.length);
    try {
      return signer.verifySignature(sig);
    } catch (RuntimeException e) {
      signer.reset();
      return false;
    }
  }
}
