"""Deterministic inputs for a case: the same seed gives every implementation the same bytes."""

from __future__ import annotations

import hashlib
import random
import string

from ..catalog import keys
from ..catalog.primitives import Primitive
from .msggen import Generated

PRINTABLE = (string.ascii_letters + string.digits + string.punctuation).encode()
# outputs of the size of one digest or tag: the message travels as a generator (runtimes/msggen.py)
GENERATED_OPERATIONS = ("digest", "mac")


def _rng(seed: int, *parts) -> random.Random:
    label = ":".join(str(p) for p in (seed, *parts))
    return random.Random(int.from_bytes(hashlib.sha256(label.encode()).digest()[:8], "big"))


def case_inputs(prim: Primitive, operation: str, size: int, params: dict, seed: int) -> dict:
    """Inputs for one case: hex, and for digests and MACs a generated message (a seed and a
    length, runtimes/msggen.py). ``size`` is the message length, or the password length for password
    hashes and KDFs (printable ASCII: JCA's PBKDF2 takes char[])."""
    rng = _rng(seed, prim.id, size)
    out: dict = {}
    if prim.is_slow:
        out["password"] = bytes(rng.choice(PRINTABLE) for _ in range(size)).hex()
        out["salt"] = rng.randbytes(prim.salt_len or 16).hex()
        return out
    if prim.is_pubkey:
        return pubkey_inputs(prim, operation, Generated(rng.getrandbits(32), size).hex())
    msg = Generated(rng.getrandbits(32), size)
    out["msg"] = msg if operation in GENERATED_OPERATIONS else msg.hex()
    if prim.key_len:
        out["key"] = rng.randbytes(prim.key_len).hex()
    elif prim.family == "mac":
        out["key"] = rng.randbytes(32).hex()
    if prim.nonce_len:
        out["nonce"] = rng.randbytes(prim.nonce_len).hex()
    if prim.family == "aead":
        out["aad"] = rng.randbytes(int(params.get("aad_len", 0))).hex()
    return out


def pubkey_inputs(prim: Primitive, operation: str, msg: str) -> dict:
    """keygen: nothing (a fresh random key pair each call); agree: our private key and the
    peer's public key; sign: the private key and the message; verify: the public key and the
    message (the signature is another implementation's, made during verification); kem:
    encaps the public key, decaps the private key and the benchmark ciphertext."""
    pair = keys.for_primitive(prim.id)
    if operation == "keygen":
        return {}
    if operation == "encaps":  # kem: a fresh encapsulation to the benchmark key each call
        return {"public_key": pair.public_key}
    if operation == "decaps":
        return {"private_key": pair.private_key, "ciphertext": pair.ciphertext}
    if operation == "agree":
        return {"private_key": pair.private_key, "peer_public_key": pair.peer_public_key}
    if operation == "sign":
        return {"private_key": pair.private_key, "msg": msg}
    return {"public_key": pair.public_key, "msg": msg}
