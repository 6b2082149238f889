"""python/cryptography's public-key rows (added to lib_cryptography's table): X25519, ECDH and
ECDSA over P-256, Ed25519, RSA-PSS and PKCS#1 v1.5, through the hazmat key objects."""

from __future__ import annotations

from collections.abc import Callable

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives import serialization as ser
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa, utils, x25519

from cbrunner.protocol import Fail
from cbrunner.pubkey import Kex, Signature

RAW, DER = ser.Encoding.Raw, ser.Encoding.DER
P256 = ec.SECP256R1()
SHA256 = hashes.SHA256()
PSS = padding.PSS(mgf=padding.MGF1(SHA256), salt_length=32)
PKCS1 = padding.PKCS1v15()


def _raw_pair(key) -> tuple[bytes, bytes]:
    public = key.public_key().public_bytes(RAW, ser.PublicFormat.Raw)
    return public, key.private_bytes(RAW, ser.PrivateFormat.Raw, ser.NoEncryption())


def _x25519_keygen(seed):
    key = x25519.X25519PrivateKey.generate() if seed is None else _x25519_load(seed)
    return _raw_pair(key)


def _x25519_load(raw: bytes):
    return x25519.X25519PrivateKey.from_private_bytes(raw)


def _x25519_agree(key, peer: bytes) -> bytes:
    return key.exchange(x25519.X25519PublicKey.from_public_bytes(peer))


def _p256_load(raw: bytes):
    if len(raw) != 32:
        raise ValueError(f"a P-256 private key is 32 bytes, not {len(raw)}")
    return ec.derive_private_key(int.from_bytes(raw, "big"), P256)


def _p256_keygen(seed):
    key = ec.generate_private_key(P256) if seed is None else _p256_load(seed)
    point = key.public_key().public_bytes(ser.Encoding.X962, ser.PublicFormat.UncompressedPoint)
    return point, key.private_numbers().private_value.to_bytes(32, "big")


def _p256_public(raw: bytes):
    if raw[:1] != b"\x04":
        raise ValueError("public keys are uncompressed SEC1 points (04||X||Y)")
    return ec.EllipticCurvePublicKey.from_encoded_point(P256, raw)


def _ecdh_agree(key, peer: bytes) -> bytes:
    return key.exchange(ec.ECDH(), _p256_public(peer))


def _ed25519_keygen(seed):
    key = ed25519.Ed25519PrivateKey.generate() if seed is None else _ed25519_load(seed)
    return _raw_pair(key)


def _ed25519_load(raw: bytes):
    return ed25519.Ed25519PrivateKey.from_private_bytes(raw)


def _ed25519_public(raw: bytes):
    return ed25519.Ed25519PublicKey.from_public_bytes(raw)


def _verified(verify: Callable) -> Callable:
    def ok(key, msg, sig) -> bool:
        try:
            verify(key, msg, sig)
        except InvalidSignature:
            return False
        return True

    return ok


def _ecdsa_sign_p1363(key, msg: bytes) -> bytes:
    r, s = utils.decode_dss_signature(key.sign(msg, ec.ECDSA(SHA256)))
    return r.to_bytes(32, "big") + s.to_bytes(32, "big")


def _ecdsa_verify_p1363(key, msg: bytes, sig: bytes) -> None:
    if len(sig) != 64:
        raise InvalidSignature()
    r, s = int.from_bytes(sig[:32], "big"), int.from_bytes(sig[32:], "big")
    key.verify(utils.encode_dss_signature(r, s), msg, ec.ECDSA(SHA256))


def _rsa_keygen(bits: int):
    def keygen(seed):
        if seed is not None:
            raise Fail("unsupported", "RSA has no key generation from a seed")
        key = rsa.generate_private_key(65537, bits)
        public = key.public_key().public_bytes(DER, ser.PublicFormat.SubjectPublicKeyInfo)
        return public, key.private_bytes(DER, ser.PrivateFormat.PKCS8, ser.NoEncryption())

    return keygen


def _rsa_private(bits: int):
    def load(raw: bytes):
        key = ser.load_der_private_key(raw, None)
        if not isinstance(key, rsa.RSAPrivateKey) or key.key_size != bits:
            raise ValueError(f"not an RSA-{bits} private key")
        return key

    return load


def _rsa_public(bits: int):
    def load(raw: bytes):
        key = ser.load_der_public_key(raw)
        if not isinstance(key, rsa.RSAPublicKey) or key.key_size != bits:
            raise ValueError(f"not an RSA-{bits} public key")
        return key

    return load


def _rsa(bits: int, pad) -> Signature:
    return Signature(
        keygen=_rsa_keygen(bits),
        load_private=_rsa_private(bits),
        load_public=_rsa_public(bits),
        sign=lambda key, msg: key.sign(msg, pad, SHA256),
        verify=_verified(lambda key, msg, sig: key.verify(sig, msg, pad, SHA256)),
    )


def _ecdsa(sign, verify) -> Signature:
    return Signature(_p256_keygen, _p256_load, _p256_public, sign, _verified(verify))


ROWS = {
    "x25519": Kex(_x25519_keygen, _x25519_load, _x25519_agree),
    "ecdh-p256": Kex(_p256_keygen, _p256_load, _ecdh_agree),
    "ed25519": Signature(
        _ed25519_keygen,
        _ed25519_load,
        _ed25519_public,
        lambda key, msg: key.sign(msg),
        _verified(lambda key, msg, sig: key.verify(sig, msg)),
    ),
    "ecdsa-p256-sha256": _ecdsa(
        lambda key, msg: key.sign(msg, ec.ECDSA(SHA256)),
        lambda key, msg, sig: key.verify(sig, msg, ec.ECDSA(SHA256)),
    ),
    "ecdsa-p256-sha256-p1363": _ecdsa(_ecdsa_sign_p1363, _ecdsa_verify_p1363),
    "rsa-2048-pss-sha256": _rsa(2048, PSS),
    "rsa-3072-pss-sha256": _rsa(3072, PSS),
    "rsa-2048-pkcs1-sha256": _rsa(2048, PKCS1),
}
