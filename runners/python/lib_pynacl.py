"""python/pynacl: PyNaCl, the libsodium binding (its wheel bundles libsodium 1.0.20).

nacl.bindings calls libsodium's one-shot functions; its AEADs take the raw key per call
(libsodium keeps no key schedule to reuse, as in c/libsodium).
"""

from __future__ import annotations

import nacl
import nacl.bindings as sodium
from lib_pynacl_pubkey import ROWS as PUBKEY_ROWS
from nacl._sodium import lib as _lib
from nacl.exceptions import CryptoError, InvalidkeyError

from cbrunner.protocol import AuthFailed, Fail
from cbrunner.registry import Aead, Derive, Digest, Library, PasswordHash

ALGS = {
    "argon2id": sodium.crypto_pwhash_ALG_ARGON2ID13,
    "argon2i": sodium.crypto_pwhash_ALG_ARGON2I13,
}


def _aead(encrypt, decrypt) -> Aead:
    def open_(key, nonce, aad, sealed):
        try:
            return decrypt(sealed, aad, nonce, key)
        except CryptoError:
            raise AuthFailed() from None

    return Aead(
        key=lambda k: k,
        seal=lambda key, nonce, aad, msg: encrypt(msg, aad, nonce, key),
        open=open_,
    )


def _limits(params: dict) -> tuple[int, int]:
    if int(params["p"]) != 1:
        raise Fail("invalid_params", "libsodium's crypto_pwhash runs one lane: p must be 1")
    return int(params["t"]), int(params["m"]) * 1024


def _argon2(pid: str) -> PasswordHash:
    alg = ALGS[pid]

    def hash_(password, salt, params):
        if int(params["out_len"]) != 32:
            raise Fail("invalid_params", "crypto_pwhash_str always encodes a 32-byte hash")
        return sodium.crypto_pwhash_str_alg(password, *_limits(params), alg).decode()

    def verify(password, encoded, params):
        try:
            return sodium.crypto_pwhash_str_verify(encoded.encode(), password)
        except InvalidkeyError:
            return False

    def derive(password, salt, params):
        ops, mem = _limits(params)
        return sodium.crypto_pwhash_alg(int(params["out_len"]), password, salt, ops, mem, alg)

    return PasswordHash(hash_, verify, derive, takes_salt=False)


def _scrypt(password: bytes, salt: bytes, params: dict) -> bytes:
    n, r, p = int(params["n"]), int(params["r"]), int(params["p"])
    maxmem = 128 * r * (n + p + 2) + (1 << 20)
    return sodium.crypto_pwhash_scryptsalsa208sha256_ll(
        password, salt, n, r, p, dklen=int(params["out_len"]), maxmem=maxmem
    )


TABLE = {
    "sha256": Digest(lambda params: sodium.crypto_hash_sha256),
    "sha512": Digest(lambda params: sodium.crypto_hash_sha512),
    "blake2b-512": Digest(
        lambda params: lambda msg: sodium.crypto_generichash_blake2b_salt_personal(msg, 64)
    ),
    "chacha20-poly1305": _aead(
        sodium.crypto_aead_chacha20poly1305_ietf_encrypt,
        sodium.crypto_aead_chacha20poly1305_ietf_decrypt,
    ),
    "xchacha20-poly1305": _aead(
        sodium.crypto_aead_xchacha20poly1305_ietf_encrypt,
        sodium.crypto_aead_xchacha20poly1305_ietf_decrypt,
    ),
    "argon2id": _argon2("argon2id"),
    "argon2i": _argon2("argon2i"),
    "scrypt": Derive(_scrypt),
}
if _lib.crypto_aead_aes256gcm_is_available():
    TABLE["aes-256-gcm"] = _aead(
        sodium.crypto_aead_aes256gcm_encrypt, sodium.crypto_aead_aes256gcm_decrypt
    )
TABLE.update(PUBKEY_ROWS)

LIBRARY = Library(
    name="pynacl",
    version=nacl.__version__,
    backend={"name": "libsodium (bundled in the wheel)", "version": "1.0.20-stable"},
    table=TABLE,
    notes="nacl.bindings one-shot calls; AEADs take the raw key per call; argon2 hash "
    "generates its own salt; p must be 1; aes-256-gcm only where the CPU has AES-NI",
)
