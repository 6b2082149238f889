"""python/pycryptodome: Crypto.Hash, Crypto.Cipher (AES CTR/GCM/OCB, ChaCha20-Poly1305) and
Crypto.Protocol.KDF. Cipher objects are single-use, so AEAD/CTR cases need fresh_context."""

from __future__ import annotations

import Crypto
from Crypto.Cipher import AES, ChaCha20_Poly1305
from Crypto.Hash import (
    HMAC,
    MD2,
    MD4,
    MD5,
    RIPEMD160,
    SHA1,
    SHA3_224,
    SHA3_256,
    SHA3_384,
    SHA3_512,
    SHA224,
    SHA256,
    SHA384,
    SHA512,
    SHAKE128,
    SHAKE256,
    BLAKE2b,
    BLAKE2s,
    keccak,
)
from Crypto.Protocol import KDF
from lib_pycryptodome_pubkey import ROWS as PUBKEY_ROWS

from cbrunner.protocol import AuthFailed
from cbrunner.registry import (
    Aead,
    Derive,
    Digest,
    Inline,
    Library,
    Mac,
    PasswordHash,
    Stream,
    keyed_verify,
)


def _digest(new) -> Digest:
    return Digest(lambda params: Inline("new(msg).digest()", new=new))


def _xof(module) -> Digest:
    def make(params):
        n = int(params["out_len"])
        return lambda msg: module.new(msg).read(n)

    return Digest(make)


def _hmac_sha256(key: bytes, params: dict):
    keyed = HMAC.new(key, digestmod=SHA256)

    def mac(msg: bytes) -> bytes:
        h = keyed.copy()
        h.update(msg)
        return h.digest()

    return mac


def _hmac_sha256_verify(key: bytes, params: dict):
    # HMAC.verify raises ValueError on a mismatch, a tag of any other length included
    return keyed_verify(HMAC.new(key, digestmod=SHA256), ValueError)


def _aes_aead(mode, nonces=None) -> Aead:
    def seal(key, nonce, aad, msg):
        c = AES.new(key, mode, nonce=nonce, mac_len=16)
        c.update(aad)
        ct, tag = c.encrypt_and_digest(msg)
        return ct + tag

    def open_(key, nonce, aad, sealed):
        c = AES.new(key, mode, nonce=nonce, mac_len=16)
        c.update(aad)
        try:
            return c.decrypt_and_verify(sealed[:-16], sealed[-16:])
        except ValueError:
            raise AuthFailed() from None

    return Aead(key=lambda k: k, seal=seal, open=open_, reuses_key=False, nonces=nonces)


def _chacha_seal(key, nonce, aad, msg):
    c = ChaCha20_Poly1305.new(key=key, nonce=nonce)  # 24-byte nonce: XChaCha20
    c.update(aad)
    ct, tag = c.encrypt_and_digest(msg)
    return ct + tag


def _chacha_open(key, nonce, aad, sealed):
    c = ChaCha20_Poly1305.new(key=key, nonce=nonce)
    c.update(aad)
    try:
        return c.decrypt_and_verify(sealed[:-16], sealed[-16:])
    except ValueError:
        raise AuthFailed() from None


def _ctr(key, counter_block, msg):
    # nonce=b"" makes the whole 16-byte block the big-endian counter (SP 800-38A)
    return AES.new(key, AES.MODE_CTR, nonce=b"", initial_value=counter_block).encrypt(msg)


def _bcrypt_hash(password, salt, params):
    encoded = KDF.bcrypt(password, int(params["cost"]), salt=salt).decode()
    return "$2b$" + encoded[4:]


def _bcrypt_verify(password, encoded, params):
    if encoded[:4] in ("$2b$", "$2y$"):  # pycryptodome reads only $2a$; same algorithm <= 72 B
        encoded = "$2a$" + encoded[4:]
    try:
        KDF.bcrypt_check(password, encoded.encode())
    except ValueError:
        return False
    return True


def _scrypt(password, salt, params):
    return KDF.scrypt(
        password,
        salt,
        int(params["out_len"]),
        N=int(params["n"]),
        r=int(params["r"]),
        p=int(params["p"]),
    )


def _pbkdf2(module) -> Derive:
    def derive(password, salt, params):
        return KDF.PBKDF2(
            password,
            salt,
            int(params["out_len"]),
            count=int(params["iterations"]),
            hmac_hash_module=module,
        )

    return Derive(derive)


TABLE = {
    "md2": _digest(MD2.new),
    "md4": _digest(MD4.new),
    "md5": _digest(MD5.new),
    "sha1": _digest(SHA1.new),
    "sha224": _digest(SHA224.new),
    "sha256": _digest(SHA256.new),
    "sha384": _digest(SHA384.new),
    "sha512": _digest(SHA512.new),
    "sha512-224": _digest(lambda m: SHA512.new(m, truncate="224")),
    "sha512-256": _digest(lambda m: SHA512.new(m, truncate="256")),
    "sha3-224": _digest(SHA3_224.new),
    "sha3-256": _digest(SHA3_256.new),
    "sha3-384": _digest(SHA3_384.new),
    "sha3-512": _digest(SHA3_512.new),
    "shake128": _xof(SHAKE128),
    "shake256": _xof(SHAKE256),
    "keccak-256": _digest(lambda m: keccak.new(data=m, digest_bits=256)),
    "blake2b-512": _digest(lambda m: BLAKE2b.new(data=m, digest_bits=512)),
    "blake2s-256": _digest(lambda m: BLAKE2s.new(data=m, digest_bits=256)),
    "ripemd160": _digest(RIPEMD160.new),
    "hmac-sha256": Mac(_hmac_sha256, verify=_hmac_sha256_verify),
    "aes-128-ctr": Stream(key=lambda k: k, encrypt=_ctr, reuses_key=False),
    "aes-256-ctr": Stream(key=lambda k: k, encrypt=_ctr, reuses_key=False),
    # GCM takes any IV length from 1 byte (SP 800-38D); declared up to 64 KiB
    "aes-128-gcm": _aes_aead(AES.MODE_GCM, [[1, 65536]]),
    "aes-256-gcm": _aes_aead(AES.MODE_GCM, [[1, 65536]]),
    "aes-128-ocb": _aes_aead(AES.MODE_OCB),
    "aes-256-ocb": _aes_aead(AES.MODE_OCB),
    # the nonce length picks the algorithm (8: original, 12: IETF, 24: XChaCha): one per id
    "chacha20-poly1305": Aead(lambda k: k, _chacha_seal, _chacha_open, False, nonces=[12]),
    "xchacha20-poly1305": Aead(lambda k: k, _chacha_seal, _chacha_open, False, nonces=[24]),
    "bcrypt": PasswordHash(_bcrypt_hash, _bcrypt_verify),
    "scrypt": Derive(_scrypt),
    "pbkdf2-sha1": _pbkdf2(SHA1),
    "pbkdf2-sha256": _pbkdf2(SHA256),
    "pbkdf2-sha512": _pbkdf2(SHA512),
}
TABLE.update(PUBKEY_ROWS)

LIBRARY = Library(
    name="pycryptodome",
    version=Crypto.__version__,
    backend={"name": "pycryptodome", "version": Crypto.__version__},
    table=TABLE,
    code_path="AES-NI/CLMUL when the CPU has them (pycryptodome's own C code)",
    notes="cipher objects are single-use: AEAD/CTR cases exist only with fresh_context=true; "
    "one-shot <Hash>.new(msg).digest(); HMAC reuses a keyed object through copy(); HMAC "
    "verify: HMAC.verify(tag)",
)
