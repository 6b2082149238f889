"""python/bcrypt: pyca/bcrypt (Rust core). Takes an explicit salt through its encoded form."""

from __future__ import annotations

import base64

import bcrypt

from cbrunner.registry import Library, PasswordHash

# bcrypt's salt alphabet vs standard base64 (an encoding, not cryptography)
_TO_BCRYPT = bytes.maketrans(
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
    b"./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
)


def _salt(cost: int, salt: bytes) -> bytes:
    if len(salt) != 16:
        raise ValueError("bcrypt salts are 16 bytes")
    return b"$2b$%02d$" % cost + base64.b64encode(salt)[:22].translate(_TO_BCRYPT)


def _hash(password: bytes, salt: bytes, params: dict) -> str:
    return bcrypt.hashpw(password, _salt(int(params["cost"]), salt)).decode()


def _verify(password: bytes, encoded: str, params: dict) -> bool:
    return bcrypt.checkpw(password, encoded.encode())


LIBRARY = Library(
    name="bcrypt",
    version=bcrypt.__version__,
    backend={"name": "bcrypt (rust)", "version": bcrypt.__version__},
    table={"bcrypt": PasswordHash(_hash, _verify)},
    notes="hashpw with an explicit salt; refuses passwords over 72 bytes instead of truncating",
)
