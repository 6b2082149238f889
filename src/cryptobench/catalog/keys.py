"""The benchmark key pairs of the public-key families (catalog/keys.toml): published test
keys that sign, verify and agree are timed with, the same for every implementation."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ..errors import DataError
from ..paths import project_root

FIELDS = ("private_key", "public_key", "peer_public_key", "ciphertext")


@dataclass(frozen=True)
class KeyPair:
    primitive: str
    private_key: str
    public_key: str
    peer_public_key: str = ""  # key agreement: the other party's public key
    ciphertext: str = ""  # kem: an encapsulation to public_key, what decaps is timed with
    source: str = ""


def _pair(pid: str, raw: dict) -> KeyPair:
    where = f"catalog/keys.toml: key.{pid}"
    for name in ("private_key", "public_key", "source"):
        if not raw.get(name):
            raise DataError(f"{where}: missing {name}")
    values = {}
    for name in FIELDS:
        value = str(raw.get(name, "")).lower()
        try:
            bytes.fromhex(value)
        except ValueError:
            raise DataError(f"{where}: {name} is not hex") from None
        values[name] = value
    return KeyPair(pid, source=str(raw["source"]), **values)


@cache
def load(path: Path | None = None) -> dict[str, KeyPair]:
    """Key pairs by primitive id."""
    path = path or project_root() / "catalog" / "keys.toml"
    try:
        with open(path, "rb") as fh:
            raw = tomllib.load(fh)
    except OSError as exc:
        raise DataError(f"cannot read {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{path.name} is not valid TOML: {exc}") from None
    return {pid: _pair(pid, entry) for pid, entry in raw.get("key", {}).items()}


def for_primitive(pid: str) -> KeyPair:
    pairs = load()
    if pid not in pairs:
        raise DataError(f"catalog/keys.toml has no key pair for {pid}")
    return pairs[pid]


ECDSA_DER_MAX = 72  # SEQUENCE { INTEGER r, INTEGER s } over P-256: 70-72 bytes, at most 72


def wire_bytes(prim) -> dict | None:
    """What one use puts on the wire, in bytes: the public key and the signature or the shared
    secret, and a KEM's ciphertext (results' ``wire_bytes``; docs/results.md). RSA keys: the
    benchmark key's DER."""
    if not prim.is_pubkey:
        return None
    public = prim.public_key_len
    if public is None and prim.id in load():
        public = len(load()[prim.id].public_key) // 2
    if prim.family == "kex":
        return {"public_key": public, "shared_secret": prim.output_len}
    if prim.family == "kem":
        return {
            "public_key": public,
            "ciphertext": prim.ciphertext_len,
            "shared_secret": prim.output_len,
        }
    if prim.signature_len:
        return {"public_key": public, "signature": prim.signature_len}
    return {"public_key": public, "signature": ECDSA_DER_MAX, "signature_is_max": True}
