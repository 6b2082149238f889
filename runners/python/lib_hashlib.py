"""python/hashlib: hashlib (OpenSSL-backed; BLAKE2 built in), hmac, scrypt and PBKDF2."""

from __future__ import annotations

import hashlib
import hmac
import ssl

from cbrunner.protocol import AuthFailed
from cbrunner.registry import Derive, Digest, Inline, Library, Mac

# catalog id -> hashlib name
NAMES = {
    "md5": "md5",
    "sha1": "sha1",
    "sha224": "sha224",
    "sha256": "sha256",
    "sha384": "sha384",
    "sha512": "sha512",
    "sha512-224": "sha512_224",
    "sha512-256": "sha512_256",
    "sha3-224": "sha3_224",
    "sha3-256": "sha3_256",
    "sha3-384": "sha3_384",
    "sha3-512": "sha3_512",
    "blake2b-512": "blake2b",
    "blake2s-256": "blake2s",
    "ripemd160": "ripemd160",
    "sm3": "sm3",
    "md4": "md4",
    "whirlpool": "whirlpool",
}
XOFS = {"shake128": "shake_128", "shake256": "shake_256"}


def _constructor(name: str):
    """The named constructor (hashlib.sha256) where it exists: hashlib.new() is slower."""
    ctor = getattr(hashlib, name, None)
    return ctor if ctor is not None else (lambda data=b"": hashlib.new(name, data))


def _digest(name: str) -> Digest:
    ctor = _constructor(name)
    return Digest(lambda params: Inline("new(msg).digest()", new=ctor))


def _xof(name: str) -> Digest:
    ctor = _constructor(name)

    def make(params):
        return Inline("new(msg).digest(n)", new=ctor, n=int(params["out_len"]))

    return Digest(make)


def _hmac_sha256(key: bytes, params: dict):
    keyed = hmac.new(key, digestmod=hashlib.sha256)  # key schedule once

    def mac(msg: bytes) -> bytes:
        h = keyed.copy()
        h.update(msg)
        return h.digest()

    return mac


def _hmac_sha256_verify(key: bytes, params: dict):
    keyed, compare = hmac.new(key, digestmod=hashlib.sha256), hmac.compare_digest

    def verify(msg: bytes, tag: bytes) -> bytes:
        h = keyed.copy()
        h.update(msg)
        if not compare(h.digest(), tag):  # False for a tag of any other length
            raise AuthFailed()
        return b"ok"

    return verify


def _scrypt(password: bytes, salt: bytes, params: dict) -> bytes:
    n, r, p = int(params["n"]), int(params["r"]), int(params["p"])
    maxmem = 128 * r * (n + p + 2) + (1 << 20)  # the default 32 MiB refuses N=2^15..2^17, r=8
    return hashlib.scrypt(
        password, salt=salt, n=n, r=r, p=p, maxmem=maxmem, dklen=int(params["out_len"])
    )


def _pbkdf2(hash_name: str) -> Derive:
    def derive(password: bytes, salt: bytes, params: dict) -> bytes:
        return hashlib.pbkdf2_hmac(
            hash_name, password, salt, int(params["iterations"]), int(params["out_len"])
        )

    return Derive(derive)


def _table() -> dict:
    available = hashlib.algorithms_available
    table = {pid: _digest(n) for pid, n in NAMES.items() if n in available}
    table.update({pid: _xof(n) for pid, n in XOFS.items() if n in available})
    table["hmac-sha256"] = Mac(_hmac_sha256, verify=_hmac_sha256_verify)
    table["scrypt"] = Derive(_scrypt)
    table.update({f"pbkdf2-{h}": _pbkdf2(h) for h in ("sha1", "sha256", "sha512")})
    return table


LIBRARY = Library(
    name="hashlib",
    version="stdlib",
    backend={"name": "openssl", "version": ssl.OPENSSL_VERSION.split()[1]},
    table=_table(),
    notes="one-shot hashlib.<name>(msg).digest(); blake2b/blake2s are CPython's built-in "
    "implementation, not OpenSSL; hmac reuses a keyed object through copy(); hmac verify: "
    "that MAC, then hmac.compare_digest",
)
