"""A public-key runner that lies in one way (argv[1]), for the verified-by-use tests.

It answers Ed25519, ECDSA P-256/SHA-256 (DER) and X25519 honestly through pyca/cryptography
(a test double, not a benchmarked runner), except:
  ok               nothing
  fixed-keypair    keygen always answers one constant key pair (a working one)
  fixed-signature  sign always answers one constant signature (of another message)
  bench-signature  compute is honest; bench's sign answers one constant signature
Bench samples are a fixed 1000 ns per iteration: nothing here is timed.
"""

import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives import serialization as ser
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, x25519
from fake_serve import Refused, hello, serve

MODE = sys.argv[1]
RAW = (ser.Encoding.Raw, ser.PublicFormat.Raw)
P256 = ec.SECP256R1()
SHA256 = ec.ECDSA(hashes.SHA256())


def p256_pair(key) -> bytes:
    public = key.public_key().public_bytes(ser.Encoding.X962, ser.PublicFormat.UncompressedPoint)
    return public + key.private_numbers().private_value.to_bytes(32, "big")


def raw_pair(key) -> bytes:
    private = key.private_bytes(ser.Encoding.Raw, ser.PrivateFormat.Raw, ser.NoEncryption())
    return key.public_key().public_bytes(*RAW) + private


def keygen(prim: str, seed: bytes | None) -> bytes:
    if prim == "ecdsa-p256-sha256":
        if seed is None:
            return p256_pair(ec.generate_private_key(P256))
        return p256_pair(ec.derive_private_key(int.from_bytes(seed, "big"), P256))
    cls = ed25519.Ed25519PrivateKey if prim == "ed25519" else x25519.X25519PrivateKey
    return raw_pair(cls.generate() if seed is None else cls.from_private_bytes(seed))


FIXED_PAIR = keygen("ecdsa-p256-sha256", bytes(31) + b"\x07")
FIXED_KEY = ec.derive_private_key(7, P256)
FIXED_SIGNATURE = FIXED_KEY.sign(b"another message", SHA256)


def sign(prim: str, private: bytes, msg: bytes) -> bytes:
    if prim == "ed25519":
        return ed25519.Ed25519PrivateKey.from_private_bytes(private).sign(msg)
    return ec.derive_private_key(int.from_bytes(private, "big"), P256).sign(msg, SHA256)


def verify(prim: str, public: bytes, msg: bytes, sig: bytes) -> bytes:
    try:
        if prim == "ed25519":
            ed25519.Ed25519PublicKey.from_public_bytes(public).verify(sig, msg)
        else:
            ec.EllipticCurvePublicKey.from_encoded_point(P256, public).verify(sig, msg, SHA256)
    except InvalidSignature:
        raise Refused("auth_failed") from None
    except ValueError:
        raise Refused("invalid_params") from None
    return b"ok"


def compute(prim: str, op: str, inputs: dict, bench: bool) -> str:
    if op == "keygen":
        if MODE == "fixed-keypair" and prim == "ecdsa-p256-sha256" and "key_seed" not in inputs:
            return FIXED_PAIR.hex()
        return keygen(prim, inputs.get("key_seed")).hex()
    if op == "agree":
        key = x25519.X25519PrivateKey.from_private_bytes(inputs["private_key"])
        try:
            peer = x25519.X25519PublicKey.from_public_bytes(inputs["peer_public_key"])
            return key.exchange(peer).hex()
        except ValueError:
            raise Refused("invalid_params") from None
    if op == "sign":
        lie = MODE == "fixed-signature" or MODE == "bench-signature" and bench
        if lie and prim == "ecdsa-p256-sha256":
            return FIXED_SIGNATURE.hex()
        return sign(prim, inputs["private_key"], inputs.get("msg", b"")).hex()
    public, sig = inputs["public_key"], inputs["signature"]
    return verify(prim, public, inputs.get("msg", b""), sig).decode()


SIG = {"operations": ["keygen", "sign", "verify"]}
PRIMITIVES = {
    "ed25519": SIG,
    "ecdsa-p256-sha256": SIG,
    "x25519": {"operations": ["keygen", "agree"]},
}

if __name__ == "__main__":
    serve(hello(MODE, "fakepk", PRIMITIVES), compute)
