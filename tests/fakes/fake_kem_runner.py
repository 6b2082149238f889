"""A key-encapsulation runner that lies in one way (argv[1]), for the verified-by-use tests.

It answers ML-KEM-768 honestly through pyca/cryptography (a test double, not a benchmarked
runner; its wheel's OpenSSL has ML-KEM), except:
  ok                    nothing
  fixed-keypair         keygen without a seed always answers one constant (working) key pair
  fixed-encapsulation   encaps always answers one constant (valid) encapsulation
  bench-encapsulation   compute is honest; bench's encaps answers an encapsulation to another key
cryptography takes no encapsulation randomness: encaps with ``randomness`` is unsupported.
Bench samples are a fixed 1000 ns per iteration: nothing here is timed.
"""

import sys

from cryptography.hazmat.primitives.asymmetric import mlkem
from fake_serve import Refused, hello, serve

MODE = sys.argv[1]
KEY = mlkem.MLKEM768PrivateKey


def pair(key) -> bytes:
    return key.public_key().public_bytes_raw() + key.private_bytes_raw()


def encapsulation(public) -> bytes:
    secret, ct = public.encapsulate()
    return ct + secret


FIXED_PAIR = pair(KEY.from_seed_bytes(bytes(range(64))))
OTHER = KEY.from_seed_bytes(bytes(64)).public_key()
FIXED_ENCAPSULATION = {}  # public key → the one encapsulation answered for it


def keygen(inputs: dict) -> bytes:
    if "key_seed" in inputs:
        return pair(KEY.from_seed_bytes(inputs["key_seed"]))
    return FIXED_PAIR if MODE == "fixed-keypair" else pair(KEY.generate())


def encaps(inputs: dict, bench: bool) -> bytes:
    if "randomness" in inputs:
        raise Refused("unsupported")
    try:
        public = mlkem.MLKEM768PublicKey.from_public_bytes(inputs["public_key"])
    except ValueError:
        raise Refused("invalid_params") from None
    if MODE == "bench-encapsulation" and bench:
        return encapsulation(OTHER)
    if MODE == "fixed-encapsulation":
        return FIXED_ENCAPSULATION.setdefault(inputs["public_key"], encapsulation(public))
    return encapsulation(public)


def decaps(inputs: dict) -> bytes:
    seed, ct = inputs["private_key"], inputs["ciphertext"]
    if len(seed) != 64 or len(ct) != 1088:
        raise Refused("invalid_params")
    return KEY.from_seed_bytes(seed).decapsulate(ct)


def compute(prim: str, op: str, inputs: dict, bench: bool) -> str:
    if op == "keygen":
        return keygen(inputs).hex()
    if op == "encaps":
        return encaps(inputs, bench).hex()
    return decaps(inputs).hex()


if __name__ == "__main__":
    serve(
        hello(MODE, "fakekem", {"ml-kem-768": {"operations": ["keygen", "encaps", "decaps"]}}),
        compute,
    )
