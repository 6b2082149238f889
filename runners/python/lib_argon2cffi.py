"""python/argon2-cffi: the reference C implementation (phc-winner-argon2) through CFFI."""

from __future__ import annotations

from importlib.metadata import version

from argon2 import low_level
from argon2.exceptions import VerificationError

from cbrunner.protocol import Fail
from cbrunner.registry import Library, PasswordHash


def _args(params: dict) -> dict:
    if params.get("secret") or params.get("ad"):
        raise Fail("invalid_params", "argon2-cffi's API takes no secret key or associated data")
    return {
        "time_cost": int(params["t"]),
        "memory_cost": int(params["m"]),
        "parallelism": int(params["p"]),
        "hash_len": int(params["out_len"]),
    }


def _argon2(kind) -> PasswordHash:
    def hash_(password, salt, params):
        return low_level.hash_secret(password, salt, type=kind, **_args(params)).decode()

    def verify(password, encoded, params):
        try:
            return low_level.verify_secret(encoded.encode(), password, kind)
        except VerificationError:
            return False

    def derive(password, salt, params):
        return low_level.hash_secret_raw(password, salt, type=kind, **_args(params))

    return PasswordHash(hash_, verify, derive)


LIBRARY = Library(
    name="argon2-cffi",
    version=version("argon2-cffi"),
    backend={"name": "libargon2 (reference)", "version": hex(low_level.ARGON2_VERSION)},
    table={"argon2id": _argon2(low_level.Type.ID), "argon2i": _argon2(low_level.Type.I)},
)
