"""python/pynacl's public-key rows (added to lib_pynacl's table): X25519 (crypto_scalarmult)
and Ed25519 (crypto_sign_seed_keypair, detached signatures), libsodium's one-shot calls."""

from __future__ import annotations

import os

import nacl.bindings as sodium
from nacl.exceptions import BadSignatureError, CryptoError

from cbrunner.pubkey import Kex, Signature


def _x25519_keygen(seed):
    private = os.urandom(32) if seed is None else seed
    return sodium.crypto_scalarmult_base(private), private


def _x25519_agree(private: bytes, peer: bytes) -> bytes:
    if len(peer) != 32:
        raise ValueError(f"an X25519 public key is 32 bytes, not {len(peer)}")
    try:
        return sodium.crypto_scalarmult(private, peer)
    except CryptoError as exc:  # libsodium refuses a low-order point (all-zero result)
        raise ValueError(f"crypto_scalarmult: {exc}") from None


def _length(n: int):
    def load(raw: bytes) -> bytes:
        if len(raw) != n:
            raise ValueError(f"the key is {len(raw)} bytes, not {n}")
        return raw

    return load


def _ed25519_keygen(seed):
    public, secret = sodium.crypto_sign_seed_keypair(os.urandom(32) if seed is None else seed)
    return public, secret[:32]  # libsodium's secret key is seed||public


def _ed25519_load(seed: bytes) -> bytes:
    if len(seed) != 32:
        raise ValueError(f"an Ed25519 private key is 32 bytes, not {len(seed)}")
    return sodium.crypto_sign_seed_keypair(seed)[1]


def _ed25519_sign(secret: bytes, msg: bytes) -> bytes:
    return sodium.crypto_sign(msg, secret)[:64]  # signed message = signature||msg


def _ed25519_verify(public: bytes, msg: bytes, sig: bytes) -> bool:
    if len(sig) != 64:
        return False
    try:
        sodium.crypto_sign_open(sig + msg, public)
    except BadSignatureError:
        return False
    return True


ROWS = {
    "x25519": Kex(_x25519_keygen, _length(32), _x25519_agree),
    "ed25519": Signature(
        _ed25519_keygen, _ed25519_load, _length(32), _ed25519_sign, _ed25519_verify
    ),
}
