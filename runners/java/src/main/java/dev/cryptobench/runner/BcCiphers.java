package dev.cryptobench.runner;

import java.util.LinkedHashMap;
import java.util.Map;
import org.bouncycastle.crypto.StreamCipher;
import org.bouncycastle.crypto.engines.AESEngine;
import org.bouncycastle.crypto.modes.AEADCipher;
import org.bouncycastle.crypto.modes.ChaCha20Poly1305;
import org.bouncycastle.crypto.modes.GCMBlockCipher;
import org.bouncycastle.crypto.modes.GCMSIVBlockCipher;
import org.bouncycastle.crypto.modes.OCBBlockCipher;
import org.bouncycastle.crypto.modes.SICBlockCipher;
import org.bouncycastle.crypto.params.AEADParameters;
import org.bouncycastle.crypto.params.KeyParameter;
import org.bouncycastle.crypto.params.ParametersWithIV;

/** java/bc ciphers and AEADs: BouncyCastle's lightweight modes over its AESEngine. */
final class BcCiphers {
  static final Map<String, Primitive> TABLE = new LinkedHashMap<>();

  static {
    ctr("aes-128-ctr", 16);
    ctr("aes-256-ctr", 32);
    aead("aes-128-gcm", 16, "GCMBlockCipher(AESEngine)", BcCiphers::gcm, true);
    aead("aes-256-gcm", 32, "GCMBlockCipher(AESEngine)", BcCiphers::gcm, true);
    aead("aes-128-ocb", 16, "OCBBlockCipher(AESEngine, AESEngine)", BcCiphers::ocb, true);
    aead("aes-256-ocb", 32, "OCBBlockCipher(AESEngine, AESEngine)", BcCiphers::ocb, true);
    aead("aes-128-gcm-siv", 16, "GCMSIVBlockCipher(AESEngine)", BcCiphers::gcmSiv, false);
    aead("aes-256-gcm-siv", 32, "GCMSIVBlockCipher(AESEngine)", BcCiphers::gcmSiv, false);
    aead("chacha20-poly1305", 32, "ChaCha20Poly1305", ChaCha20Poly1305::new, true);
  }

  private BcCiphers() {}

  /**
   * A cipher object with its direction. The key goes in with the first init only; later inits pass
   * a null key, BouncyCastle's way of keeping the expanded key (and GHASH tables), except for
   * GCM-SIV, which refuses a null key and takes the key again with every nonce.
   */
  private static final class Keyed<C> {
    final C cipher;
    final boolean encrypt;
    private final boolean keepsKey;
    private KeyParameter key;

    Keyed(C cipher, boolean encrypt, byte[] key, boolean keepsKey) {
      this.cipher = cipher;
      this.encrypt = encrypt;
      this.keepsKey = keepsKey;
      this.key = new KeyParameter(key);
    }

    /** The key for this init: null after the first when the cipher keeps its key. */
    KeyParameter takeKey() {
      KeyParameter current = key;
      if (keepsKey) {
        key = null;
      }
      return current;
    }
  }

  private static AEADCipher gcm() {
    return GCMBlockCipher.newInstance(AESEngine.newInstance());
  }

  private static AEADCipher ocb() {
    return new OCBBlockCipher(AESEngine.newInstance(), AESEngine.newInstance());
  }

  private static AEADCipher gcmSiv() {
    return new GCMSIVBlockCipher(AESEngine.newInstance());
  }

  private static void ctr(String id, int keyLen) {
    Shapes.Keyed<Keyed<StreamCipher>> make =
        key -> new Keyed<>(SICBlockCipher.newInstance(AESEngine.newInstance()), true, key, true);
    TABLE.put(id, Shapes.ctr("SICBlockCipher(AESEngine)", keyLen, make, make, BcCiphers::ctr));
  }

  private static int ctr(
      Keyed<StreamCipher> c, byte[] nonce, byte[] aad, byte[] in, int len, byte[] out) {
    c.cipher.init(c.encrypt, new ParametersWithIV(c.takeKey(), nonce));
    return c.cipher.processBytes(in, 0, len, out, 0);
  }

  private static void aead(
      String id, int keyLen, String name, Shapes.Make<AEADCipher> make, boolean keepsKey) {
    TABLE.put(
        id,
        Shapes.aead(
            name,
            keyLen,
            key -> new Keyed<>(make.make(), true, key, keepsKey),
            key -> new Keyed<>(make.make(), false, key, keepsKey),
            BcCiphers::aead));
  }

  private static int aead(
      Keyed<AEADCipher> c, byte[] nonce, byte[] aad, byte[] in, int len, byte[] out)
      throws Exception {
    c.cipher.init(c.encrypt, new AEADParameters(c.takeKey(), 8 * Shapes.TAG_LEN, nonce, aad));
    int written = c.cipher.processBytes(in, 0, len, out, 0);
    return written + c.cipher.doFinal(out, written);
  }
}
