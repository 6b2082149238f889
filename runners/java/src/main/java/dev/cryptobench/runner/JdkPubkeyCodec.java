package dev.cryptobench.runner;

import java.math.BigInteger;
import java.security.AlgorithmParameters;
import java.security.Key;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.ECPrivateKeySpec;
import java.security.spec.ECPublicKeySpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.asn1.ASN1Sequence;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.util.BigIntegers;

/**
 * The protocol's key encodings (docs/protocol.md, "Public-key operations") to and from the JCA's:
 * raw X25519/Ed25519 keys in the X.509/PKCS#8 structures of RFC 8410 (built and read with
 * BouncyCastle's ASN.1 classes), P-256 keys as ECPublicKeySpec/ECPrivateKeySpec.
 */
final class JdkPubkeyCodec {
  /** RFC 8410 §3: id-X25519 and id-Ed25519. */
  static final ASN1ObjectIdentifier X25519 = new ASN1ObjectIdentifier("1.3.101.110");

  static final ASN1ObjectIdentifier ED25519 = new ASN1ObjectIdentifier("1.3.101.112");

  static final int P256_LEN = 32;

  private JdkPubkeyCodec() {}

  /** A raw RFC 8410 public key as a SubjectPublicKeyInfo. */
  static X509EncodedKeySpec spki(ASN1ObjectIdentifier oid, byte[] raw) throws Exception {
    if (raw.length != 32) {
      throw RunnerException.invalidParams("the public key is " + raw.length + " bytes, not 32");
    }
    return new X509EncodedKeySpec(
        new SubjectPublicKeyInfo(new AlgorithmIdentifier(oid), raw).getEncoded());
  }

  /** A raw RFC 8410 private key as a PKCS#8 PrivateKeyInfo. */
  static PKCS8EncodedKeySpec pkcs8(ASN1ObjectIdentifier oid, byte[] raw) throws Exception {
    if (raw.length != 32) {
      throw RunnerException.invalidParams("the private key is " + raw.length + " bytes, not 32");
    }
    PrivateKeyInfo info = new PrivateKeyInfo(new AlgorithmIdentifier(oid), new DEROctetString(raw));
    return new PKCS8EncodedKeySpec(info.getEncoded());
  }

  /** The raw key inside an RFC 8410 SubjectPublicKeyInfo (a JCA key's getEncoded()). */
  static byte[] rawPublic(Key key) {
    return SubjectPublicKeyInfo.getInstance(key.getEncoded()).getPublicKeyData().getOctets();
  }

  /** The raw key inside an RFC 8410 PKCS#8 PrivateKeyInfo (a JCA key's getEncoded()). */
  static byte[] rawPrivate(Key key) throws Exception {
    PrivateKeyInfo info = PrivateKeyInfo.getInstance(key.getEncoded());
    return ASN1OctetString.getInstance(info.parsePrivateKey()).getOctets();
  }

  /** P-256's domain parameters, as the JDK names them. */
  static ECParameterSpec p256() throws Exception {
    return Holder.P256;
  }

  /** Computed on first use, not at start-up. */
  private static final class Holder {
    static final ECParameterSpec P256 = load();

    private static ECParameterSpec load() {
      try {
        AlgorithmParameters params = AlgorithmParameters.getInstance("EC");
        params.init(new ECGenParameterSpec("secp256r1"));
        return params.getParameterSpec(ECParameterSpec.class);
      } catch (Exception e) {
        throw new IllegalStateException("no secp256r1 parameters in this JDK", e);
      }
    }
  }

  /** An uncompressed SEC1 point 04‖X‖Y as an ECPublicKeySpec (other forms: invalid_params). */
  static ECPublicKeySpec ecPublic(byte[] point) throws Exception {
    if (point.length != 1 + 2 * P256_LEN || point[0] != 4) {
      throw RunnerException.invalidParams("public keys are uncompressed SEC1 points (04||X||Y)");
    }
    BigInteger x = new BigInteger(1, Arrays.copyOfRange(point, 1, 1 + P256_LEN));
    BigInteger y = new BigInteger(1, Arrays.copyOfRange(point, 1 + P256_LEN, point.length));
    return new ECPublicKeySpec(new ECPoint(x, y), p256());
  }

  /** A 32-byte big-endian scalar as an ECPrivateKeySpec. */
  static ECPrivateKeySpec ecPrivate(byte[] scalar) throws Exception {
    if (scalar.length != P256_LEN) {
      throw RunnerException.invalidParams("a P-256 private key is 32 bytes, not " + scalar.length);
    }
    return new ECPrivateKeySpec(new BigInteger(1, scalar), p256());
  }

  /** A P-256 public key as the uncompressed SEC1 point 04‖X‖Y. */
  static byte[] point(ECPublicKey key) {
    byte[] out = new byte[1 + 2 * P256_LEN];
    out[0] = 4;
    BigIntegers.asUnsignedByteArray(key.getW().getAffineX(), out, 1, P256_LEN);
    BigIntegers.asUnsignedByteArray(key.getW().getAffineY(), out, 1 + P256_LEN, P256_LEN);
    return out;
  }

  /**
   * Whether an ECDSA signature is DER: SEQUENCE { r INTEGER, s INTEGER }, both positive, encoded
   * exactly as DER re-encodes it (no BER lengths, no missing or extra leading zero bytes).
   */
  static boolean isDer(byte[] sig) {
    try {
      ASN1Sequence seq = ASN1Sequence.getInstance(sig);
      if (seq.size() != 2) {
        return false;
      }
      for (int i = 0; i < 2; i++) {
        if (!(seq.getObjectAt(i) instanceof ASN1Integer n) || n.getValue().signum() <= 0) {
          return false;
        }
      }
      return Arrays.equals(seq.getEncoded(ASN1Encoding.DER), sig);
    } catch (Exception e) {
      return false;
    }
  }

  /** A P-256 private key as its 32-byte big-endian scalar. */
  static byte[] scalar(ECPrivateKey key) {
    return BigIntegers.asUnsignedByteArray(P256_LEN, key.getS());
  }
}
