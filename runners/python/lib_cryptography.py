"""python/cryptography: pyca/cryptography's hazmat layer (its wheel bundles its own OpenSSL)."""

from __future__ import annotations

import cryptography
from cryptography.exceptions import InvalidKey, InvalidSignature, InvalidTag, UnsupportedAlgorithm
from cryptography.hazmat.backends.openssl import backend as openssl
from cryptography.hazmat.primitives import hashes, hmac
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import (
    AESGCM,
    AESGCMSIV,
    AESOCB3,
    ChaCha20Poly1305,
)
from cryptography.hazmat.primitives.kdf import argon2
from cryptography.hazmat.primitives.kdf.pbkdf2 import PBKDF2HMAC
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt
from lib_cryptography_pq import ROWS as PQ_ROWS
from lib_cryptography_pubkey import ROWS as PUBKEY_ROWS

from cbrunner.protocol import AuthFailed
from cbrunner.registry import Aead, Derive, Digest, Library, Mac, PasswordHash, Stream, keyed_verify

HASHES = {
    "md5": hashes.MD5,
    "sha1": hashes.SHA1,
    "sha224": hashes.SHA224,
    "sha256": hashes.SHA256,
    "sha384": hashes.SHA384,
    "sha512": hashes.SHA512,
    "sha512-224": hashes.SHA512_224,
    "sha512-256": hashes.SHA512_256,
    "sha3-224": hashes.SHA3_224,
    "sha3-256": hashes.SHA3_256,
    "sha3-384": hashes.SHA3_384,
    "sha3-512": hashes.SHA3_512,
    "sm3": hashes.SM3,
    "blake2b-512": lambda: hashes.BLAKE2b(64),
    "blake2s-256": lambda: hashes.BLAKE2s(32),
}
XOFS = {"shake128": hashes.SHAKE128, "shake256": hashes.SHAKE256}


def _digest(algo) -> Digest:
    def make(params):
        def digest(msg):
            h = hashes.Hash(algo())
            h.update(msg)
            return h.finalize()

        return digest

    return Digest(make)


def _xof(algo) -> Digest:
    def make(params):
        n = int(params["out_len"])

        def digest(msg):
            h = hashes.Hash(algo(digest_size=n))
            h.update(msg)
            return h.finalize()

        return digest

    return Digest(make)


def _hmac_sha256(key: bytes, params: dict):
    keyed = hmac.HMAC(key, hashes.SHA256())

    def mac(msg: bytes) -> bytes:
        h = keyed.copy()
        h.update(msg)
        return h.finalize()

    return mac


def _hmac_sha256_verify(key: bytes, params: dict):
    # HMAC.verify raises InvalidSignature on a mismatch, a tag of any other length included
    return keyed_verify(hmac.HMAC(key, hashes.SHA256()), InvalidSignature)


def _aead(cls, nonces=None) -> Aead:
    def open_(ctx, nonce, aad, sealed):
        try:
            return ctx.decrypt(nonce, sealed, aad)
        except InvalidTag:
            raise AuthFailed() from None

    seal = lambda ctx, nonce, aad, msg: ctx.encrypt(nonce, msg, aad)  # noqa: E731
    return Aead(key=cls, seal=seal, open=open_, nonces=nonces)


def _ctr(key, counter_block, msg):
    enc = Cipher(algorithms.AES(key), modes.CTR(counter_block)).encryptor()
    return enc.update(msg) + enc.finalize()


def _argon2(cls):
    def kdf(salt, params):
        secret = bytes.fromhex(params.get("secret", "")) or None
        ad = bytes.fromhex(params.get("ad", "")) or None
        return cls(
            salt=salt,
            length=int(params["out_len"]),
            iterations=int(params["t"]),
            lanes=int(params["p"]),
            memory_cost=int(params["m"]),
            ad=ad,
            secret=secret,
        )

    def verify(password, encoded, params):
        try:
            cls.verify_phc_encoded(password, encoded)
        except InvalidKey:
            return False
        return True

    return PasswordHash(
        hash=lambda password, salt, params: kdf(salt, params).derive_phc_encoded(password),
        verify=verify,
        derive=lambda password, salt, params: kdf(salt, params).derive(password),
    )


def _pbkdf2(algo) -> Derive:
    def derive(password, salt, params):
        return PBKDF2HMAC(algo(), int(params["out_len"]), salt, int(params["iterations"])).derive(
            password
        )

    return Derive(derive)


def _scrypt(password, salt, params):
    return Scrypt(
        salt, int(params["out_len"]), int(params["n"]), int(params["r"]), int(params["p"])
    ).derive(password)


def _supported(cls, key_len: int) -> bool:
    try:
        cls(bytes(key_len))
    except UnsupportedAlgorithm:
        return False
    return True


def _table() -> dict:
    table = {pid: _digest(a) for pid, a in HASHES.items()}
    table.update({pid: _xof(a) for pid, a in XOFS.items()})
    table["hmac-sha256"] = Mac(_hmac_sha256, verify=_hmac_sha256_verify)
    ctr = Stream(key=lambda k: k, encrypt=_ctr, reuses_key=False)
    table.update({"aes-128-ctr": ctr, "aes-256-ctr": ctr})
    for pid, cls, n in (
        ("aes-128-gcm", AESGCM, 16),
        ("aes-256-gcm", AESGCM, 32),
        ("aes-128-ocb", AESOCB3, 16),
        ("aes-256-ocb", AESOCB3, 32),
        ("aes-128-gcm-siv", AESGCMSIV, 16),
        ("aes-256-gcm-siv", AESGCMSIV, 32),
        ("chacha20-poly1305", ChaCha20Poly1305, 32),
    ):
        if _supported(cls, n):  # AESGCM takes 8- to 128-byte nonces
            table[pid] = _aead(cls, [[8, 128]] if cls is AESGCM else None)
    table.update({"argon2id": _argon2(argon2.Argon2id), "argon2i": _argon2(argon2.Argon2i)})
    table["scrypt"] = Derive(_scrypt)
    table.update(
        {
            "pbkdf2-sha1": _pbkdf2(hashes.SHA1),
            "pbkdf2-sha256": _pbkdf2(hashes.SHA256),
            "pbkdf2-sha512": _pbkdf2(hashes.SHA512),
        }
    )
    table.update(PUBKEY_ROWS)
    table.update(PQ_ROWS)
    return table


LIBRARY = Library(
    name="cryptography",
    version=cryptography.__version__,
    backend={"name": "openssl", "version": openssl.openssl_version_text().split()[1]},
    table=_table(),
    notes="hazmat API; the AEAD key objects (AESGCM(key) …) are reused across messages; CTR "
    "needs a new Cipher per counter block, so it is fresh_context only; hmac verify: "
    "HMAC.verify(tag); the wheel links its own OpenSSL build, not the system's",
)
