package dev.cryptobench.runner;

import java.util.LinkedHashMap;
import java.util.Map;
import org.bouncycastle.crypto.Digest;
import org.bouncycastle.crypto.Xof;
import org.bouncycastle.crypto.digests.Blake2bDigest;
import org.bouncycastle.crypto.digests.Blake2sDigest;
import org.bouncycastle.crypto.digests.Blake3Digest;
import org.bouncycastle.crypto.digests.GOST3411Digest;
import org.bouncycastle.crypto.digests.GOST3411_2012_256Digest;
import org.bouncycastle.crypto.digests.GOST3411_2012_512Digest;
import org.bouncycastle.crypto.digests.KeccakDigest;
import org.bouncycastle.crypto.digests.MD2Digest;
import org.bouncycastle.crypto.digests.MD4Digest;
import org.bouncycastle.crypto.digests.MD5Digest;
import org.bouncycastle.crypto.digests.RIPEMD128Digest;
import org.bouncycastle.crypto.digests.RIPEMD160Digest;
import org.bouncycastle.crypto.digests.RIPEMD256Digest;
import org.bouncycastle.crypto.digests.RIPEMD320Digest;
import org.bouncycastle.crypto.digests.SHA1Digest;
import org.bouncycastle.crypto.digests.SHA224Digest;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.digests.SHA384Digest;
import org.bouncycastle.crypto.digests.SHA3Digest;
import org.bouncycastle.crypto.digests.SHA512Digest;
import org.bouncycastle.crypto.digests.SHA512tDigest;
import org.bouncycastle.crypto.digests.SHAKEDigest;
import org.bouncycastle.crypto.digests.SM3Digest;
import org.bouncycastle.crypto.digests.TigerDigest;
import org.bouncycastle.crypto.digests.WhirlpoolDigest;
import org.bouncycastle.crypto.engines.GOST28147Engine;
import org.bouncycastle.crypto.macs.HMac;
import org.bouncycastle.crypto.params.KeyParameter;
import org.bouncycastle.util.Arrays;

/** java/bc hashes, XOFs and HMAC: BouncyCastle's lightweight Digest classes. */
final class BcHashes {
  static final Map<String, Primitive> TABLE = new LinkedHashMap<>();

  static {
    digest("md2", "MD2Digest", MD2Digest::new);
    digest("md4", "MD4Digest", MD4Digest::new);
    digest("md5", "MD5Digest", MD5Digest::new);
    digest("sha1", "SHA1Digest", SHA1Digest::new);
    digest("sha224", "SHA224Digest", SHA224Digest::new);
    digest("sha256", "SHA256Digest", SHA256Digest::new);
    digest("sha384", "SHA384Digest", SHA384Digest::new);
    digest("sha512", "SHA512Digest", SHA512Digest::new);
    digest("sha512-224", "SHA512tDigest(224)", () -> new SHA512tDigest(224));
    digest("sha512-256", "SHA512tDigest(256)", () -> new SHA512tDigest(256));
    digest("sha3-224", "SHA3Digest(224)", () -> new SHA3Digest(224));
    digest("sha3-256", "SHA3Digest(256)", () -> new SHA3Digest(256));
    digest("sha3-384", "SHA3Digest(384)", () -> new SHA3Digest(384));
    digest("sha3-512", "SHA3Digest(512)", () -> new SHA3Digest(512));
    xof("shake128", "SHAKEDigest(128)", () -> new SHAKEDigest(128));
    xof("shake256", "SHAKEDigest(256)", () -> new SHAKEDigest(256));
    digest("keccak-256", "KeccakDigest(256)", () -> new KeccakDigest(256));
    digest("blake2b-512", "Blake2bDigest(512)", () -> new Blake2bDigest(512));
    digest("blake2s-256", "Blake2sDigest(256)", () -> new Blake2sDigest(256));
    digest("blake3", "Blake3Digest(256)", () -> new Blake3Digest(256));
    digest("ripemd128", "RIPEMD128Digest", RIPEMD128Digest::new);
    digest("ripemd160", "RIPEMD160Digest", RIPEMD160Digest::new);
    digest("ripemd256", "RIPEMD256Digest", RIPEMD256Digest::new);
    digest("ripemd320", "RIPEMD320Digest", RIPEMD320Digest::new);
    digest("whirlpool", "WhirlpoolDigest", WhirlpoolDigest::new);
    digest("tiger192-3", "TigerDigest", TigerDigest::new);
    // BouncyCastle's default S-box is the CryptoPro one (RFC 5831 §7.3.2 vectors)
    digest("gost94-cryptopro", "GOST3411Digest", GOST3411Digest::new);
    digest(
        "gost94-test",
        "GOST3411Digest(getSBox(\"D-Test\"))",
        () -> new GOST3411Digest(GOST28147Engine.getSBox("D-Test")));
    digest("streebog-256", "GOST3411_2012_256Digest", GOST3411_2012_256Digest::new);
    digest("streebog-512", "GOST3411_2012_512Digest", GOST3411_2012_512Digest::new);
    digest("sm3", "SM3Digest", SM3Digest::new);
    TABLE.put(
        "hmac-sha256",
        Shapes.mac(
            "HMac(SHA256Digest)", BcHashes::hmac, BcHashes::mac, Arrays::constantTimeAreEqual));
  }

  private BcHashes() {}

  private static void digest(String id, String name, Shapes.Make<Digest> make) {
    TABLE.put(id, Shapes.digest(name, make, BcHashes::finish));
  }

  private static void xof(String id, String name, Shapes.Make<Xof> make) {
    TABLE.put(id, Shapes.xof(name, make, BcHashes::squeeze));
  }

  /** update then doFinal into a new array, as BouncyCastle's own JCA provider does. */
  private static byte[] finish(Digest digest, byte[] msg) {
    digest.update(msg, 0, msg.length);
    byte[] out = new byte[digest.getDigestSize()];
    digest.doFinal(out, 0);
    return out;
  }

  private static byte[] squeeze(Xof xof, byte[] msg, int outLen) {
    xof.update(msg, 0, msg.length);
    byte[] out = new byte[outLen];
    xof.doFinal(out, 0, outLen);
    return out;
  }

  private static HMac hmac(byte[] key) {
    HMac mac = new HMac(new SHA256Digest());
    mac.init(new KeyParameter(key));
    return mac;
  }

  private static byte[] mac(HMac mac, byte[] msg) {
    mac.update(msg, 0, msg.length);
    byte[] out = new byte[mac.getMacSize()];
    mac.doFinal(out, 0);
    return out;
  }
}
