package dev.cryptobench.runner;

import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.Map;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.SecretWithEncapsulation;
import org.bouncycastle.crypto.generators.MLDSAKeyPairGenerator;
import org.bouncycastle.crypto.generators.MLKEMKeyPairGenerator;
import org.bouncycastle.crypto.kems.MLKEMExtractor;
import org.bouncycastle.crypto.kems.MLKEMGenerator;
import org.bouncycastle.crypto.params.MLDSAKeyGenerationParameters;
import org.bouncycastle.crypto.params.MLDSAParameters;
import org.bouncycastle.crypto.params.MLDSAPrivateKeyParameters;
import org.bouncycastle.crypto.params.MLDSAPublicKeyParameters;
import org.bouncycastle.crypto.params.MLKEMKeyGenerationParameters;
import org.bouncycastle.crypto.params.MLKEMParameters;
import org.bouncycastle.crypto.params.MLKEMPrivateKeyParameters;
import org.bouncycastle.crypto.params.MLKEMPublicKeyParameters;
import org.bouncycastle.crypto.params.ParametersWithRandom;
import org.bouncycastle.crypto.signers.MLDSASigner;

/**
 * java/bc's post-quantum rows: ML-KEM (FIPS 203) through MLKEMGenerator and MLKEMExtractor, ML-DSA
 * (FIPS 204, pure, empty context) through MLDSASigner — BouncyCastle's lightweight API. Both take
 * the seed form: MLKEMPrivateKeyParameters and MLDSAPrivateKeyParameters derive the expanded key
 * from the 64-byte d‖z or the 32-byte ξ when the key is parsed. encaps with a given m calls
 * MLKEMGenerator.internalGenerateEncapsulated (ML-KEM.Encaps_internal); ML-DSA's rnd reaches
 * MLDSASigner as the SecureRandom of its ParametersWithRandom (JdkFixedRandom).
 */
final class BcPq {
  static final Map<String, Primitive> TABLE = new LinkedHashMap<>();

  private static final SecureRandom RANDOM = new SecureRandom();

  static {
    kem("ml-kem-512", MLKEMParameters.ml_kem_512, 800);
    kem("ml-kem-768", MLKEMParameters.ml_kem_768, 1184);
    kem("ml-kem-1024", MLKEMParameters.ml_kem_1024, 1568);
    mldsa("ml-dsa-44", MLDSAParameters.ml_dsa_44, 1312);
    mldsa("ml-dsa-65", MLDSAParameters.ml_dsa_65, 1952);
    mldsa("ml-dsa-87", MLDSAParameters.ml_dsa_87, 2592);
  }

  private BcPq() {}

  // -- ML-KEM ------------------------------------------------------------------------------------

  /** Our public key with the generator that encapsulates to it at random. */
  private record Encapsulator(MLKEMPublicKeyParameters key, MLKEMGenerator generator) {}

  private static void kem(String id, MLKEMParameters params, int publicLen) {
    TABLE.put(
        id,
        PqShapes.kem(
            "MLKEMGenerator/MLKEMExtractor (" + params.getName() + ")",
            params.getEncapsulationLength(),
            () -> kemKeygen(params),
            raw -> {
              PqShapes.checkLength("public_key", raw, publicLen);
              MLKEMPublicKeyParameters key = new MLKEMPublicKeyParameters(params, raw);
              return new Encapsulator(key, new MLKEMGenerator(RANDOM));
            },
            BcPq::encaps,
            seed -> new MLKEMExtractor(new MLKEMPrivateKeyParameters(params, seed)),
            MLKEMExtractor::extractSecret));
  }

  private static PubkeyShapes.KeyGen kemKeygen(MLKEMParameters params) {
    MLKEMKeyPairGenerator generator = new MLKEMKeyPairGenerator();
    generator.init(new MLKEMKeyGenerationParameters(RANDOM, params));
    return seed -> {
      MLKEMPrivateKeyParameters key =
          seed == null
              ? (MLKEMPrivateKeyParameters) generator.generateKeyPair().getPrivate()
              : new MLKEMPrivateKeyParameters(params, seed);
      return new byte[][] {key.getPublicKey(), key.getSeed()};
    };
  }

  private static byte[][] encaps(Encapsulator e, byte[] m) throws Exception {
    SecretWithEncapsulation sw =
        m == null
            ? e.generator().generateEncapsulated(e.key())
            : MLKEMGenerator.internalGenerateEncapsulated(e.key(), m);
    return new byte[][] {sw.getEncapsulation(), sw.getSecret()};
  }

  // -- ML-DSA ------------------------------------------------------------------------------------

  /** Our private key with the signer set up for hedged signing (fresh rnd from RANDOM). */
  private record Signing(MLDSAPrivateKeyParameters key, MLDSASigner hedged) {}

  private static void mldsa(String id, MLDSAParameters params, int publicLen) {
    TABLE.put(
        id,
        PqShapes.mldsa(
            "MLDSASigner (" + params.getName() + ")",
            () -> dsaKeygen(params),
            seed -> {
              MLDSAPrivateKeyParameters key = new MLDSAPrivateKeyParameters(params, seed);
              MLDSASigner signer = new MLDSASigner();
              signer.init(true, new ParametersWithRandom(key, RANDOM));
              return new Signing(key, signer);
            },
            BcPq::sign,
            raw -> {
              PqShapes.checkLength("public_key", raw, publicLen);
              MLDSASigner signer = new MLDSASigner();
              signer.init(false, new MLDSAPublicKeyParameters(params, raw));
              return signer;
            },
            BcPubkey::verify));
  }

  private static PubkeyShapes.KeyGen dsaKeygen(MLDSAParameters params) {
    MLDSAKeyPairGenerator generator = new MLDSAKeyPairGenerator();
    generator.init(new MLDSAKeyGenerationParameters(RANDOM, params));
    return seed -> {
      MLDSAPrivateKeyParameters key;
      if (seed == null) {
        AsymmetricCipherKeyPair pair = generator.generateKeyPair();
        key = (MLDSAPrivateKeyParameters) pair.getPrivate();
      } else {
        key = new MLDSAPrivateKeyParameters(params, seed);
      }
      return new byte[][] {key.getPublicKey(), key.getSeed()};
    };
  }

  /** Hedged with the case's signer; with a given rnd, a signer that draws exactly it. */
  private static byte[] sign(Signing s, byte[] msg, byte[] rnd) throws Exception {
    MLDSASigner signer = s.hedged();
    if (rnd != null) {
      signer = new MLDSASigner();
      signer.init(true, new ParametersWithRandom(s.key(), new JdkFixedRandom(rnd)));
    }
    return BcPubkey.sign(signer, msg);
  }
}
