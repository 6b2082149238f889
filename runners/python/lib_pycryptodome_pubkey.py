"""python/pycryptodome's public-key rows (added to lib_pycryptodome's table): X25519 and ECDH
P-256 (Crypto.Protocol.DH, no KDF), Ed25519 (eddsa rfc8032), ECDSA P-256 (DSS fips-186-3,
DER or binary r||s), RSA-PSS and PKCS#1 v1.5 (Crypto.Signature.pss / pkcs1_15)."""

from __future__ import annotations

from collections.abc import Callable

from Crypto.Hash import SHA256
from Crypto.Protocol import DH
from Crypto.PublicKey import ECC, RSA
from Crypto.Signature import DSS, eddsa, pkcs1_15, pss

from cbrunner.protocol import Fail
from cbrunner.pubkey import Kex, Signature

P256_ORDER = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551  # FIPS 186-5 n


def _raw_kdf(secret: bytes) -> bytes:
    return secret  # the protocol's shared secret is the raw output (no KDF)


def _x25519_keygen(seed):
    key = ECC.generate(curve="curve25519") if seed is None else _x25519_load(seed)
    return key.public_key().export_key(format="raw"), key.seed


def _x25519_load(raw: bytes):
    return DH.import_x25519_private_key(raw)


def _x25519_agree(key, peer: bytes) -> bytes:
    return DH.key_agreement(
        static_priv=key, static_pub=DH.import_x25519_public_key(peer), kdf=_raw_kdf
    )


def _p256_load(raw: bytes):
    d = int.from_bytes(raw, "big")
    if len(raw) != 32 or not 0 < d < P256_ORDER:
        raise ValueError("a P-256 private key is a 32-byte scalar in [1, n-1]")
    return ECC.construct(curve="p256", d=d)


def _p256_keygen(seed):
    key = ECC.generate(curve="p256") if seed is None else _p256_load(seed)
    return key.public_key().export_key(format="raw"), int(key.d).to_bytes(32, "big")


def _p256_public(raw: bytes):
    if raw[:1] != b"\x04" or len(raw) != 65:
        raise ValueError("public keys are uncompressed SEC1 points (04||X||Y)")
    return ECC.import_key(raw, curve_name="p256")


def _ecdh_agree(key, peer: bytes) -> bytes:
    return DH.key_agreement(static_priv=key, static_pub=_p256_public(peer), kdf=_raw_kdf)


def _ed25519_keygen(seed):
    key = ECC.generate(curve="ed25519") if seed is None else _ed25519_load(seed)
    return key.public_key().export_key(format="raw"), key.seed


def _ed25519_load(raw: bytes):
    return eddsa.import_private_key(raw)


def _verified(verify: Callable) -> Callable:
    def ok(key, msg: bytes, sig: bytes) -> bool:
        try:
            verify(key, msg, sig)
        except ValueError:  # pycryptodome's "signature is not authentic" (and malformed ones)
            return False
        return True

    return ok


def _ecdsa(encoding: str) -> Signature:
    return Signature(
        keygen=_p256_keygen,
        load_private=_p256_load,
        load_public=_p256_public,
        sign=lambda key, msg: DSS.new(key, "fips-186-3", encoding).sign(SHA256.new(msg)),
        verify=_verified(
            lambda key, msg, sig: DSS.new(key, "fips-186-3", encoding).verify(SHA256.new(msg), sig)
        ),
    )


def _rsa_keygen(bits: int):
    def keygen(seed):
        if seed is not None:
            raise Fail("unsupported", "RSA has no key generation from a seed")
        key = RSA.generate(bits, e=65537)
        return key.public_key().export_key("DER"), key.export_key("DER", pkcs=8)

    return keygen


def _rsa_load(bits: int, private: bool):
    def load(raw: bytes):
        key = RSA.import_key(raw)
        if key.size_in_bits() != bits or key.has_private() != private:
            raise ValueError(f"not an RSA-{bits} {'private' if private else 'public'} key")
        return key

    return load


def _rsa(bits: int, scheme: Callable) -> Signature:
    return Signature(
        keygen=_rsa_keygen(bits),
        load_private=_rsa_load(bits, True),
        load_public=_rsa_load(bits, False),
        sign=lambda key, msg: scheme(key).sign(SHA256.new(msg)),
        verify=_verified(lambda key, msg, sig: scheme(key).verify(SHA256.new(msg), sig)),
    )


def _pss(key):
    return pss.new(key, salt_bytes=32)  # MGF1 with the message's hash (SHA-256)


ROWS = {
    "x25519": Kex(_x25519_keygen, _x25519_load, _x25519_agree),
    "ecdh-p256": Kex(_p256_keygen, _p256_load, _ecdh_agree),
    "ed25519": Signature(
        keygen=_ed25519_keygen,
        load_private=_ed25519_load,
        load_public=eddsa.import_public_key,
        sign=lambda key, msg: eddsa.new(key, "rfc8032").sign(msg),
        verify=_verified(lambda key, msg, sig: eddsa.new(key, "rfc8032").verify(msg, sig)),
    ),
    "ecdsa-p256-sha256": _ecdsa("der"),
    "ecdsa-p256-sha256-p1363": _ecdsa("binary"),
    "rsa-2048-pss-sha256": _rsa(2048, _pss),
    "rsa-3072-pss-sha256": _rsa(3072, _pss),
    "rsa-2048-pkcs1-sha256": _rsa(2048, pkcs1_15.new),
}
