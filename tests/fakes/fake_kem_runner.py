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

import json
import sys

from cryptography.hazmat.primitives.asymmetric import mlkem

MODE = sys.argv[1]
KEY = mlkem.MLKEM768PrivateKey


class Refused(Exception):
    def __init__(self, kind: str):
        super().__init__(kind)
        self.kind = kind


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


def compute(req: dict, bench: bool) -> str:
    prim, op = req["primitive"], req["operation"]
    inputs = {k: bytes.fromhex(v) for k, v in req.get("inputs", {}).items()}
    if prim == "noop":
        return len(inputs.get("msg", b"")).to_bytes(8, "big").hex()
    if op == "keygen":
        return keygen(inputs).hex()
    if op == "encaps":
        return encaps(inputs, bench).hex()
    return decaps(inputs).hex()


def hello() -> dict:
    return {
        "protocol": 1,
        "runtime": {"name": "fake", "version": MODE},
        "implementations": [
            {
                "library": "fakekem",
                "version": "1",
                "backend": {"name": "fake", "version": "1"},
                "primitives": {"ml-kem-768": {"operations": ["keygen", "encaps", "decaps"]}},
            }
        ],
    }


def answer(req: dict) -> dict:
    if req["op"] == "hello":
        return hello()
    out = compute(req, req["op"] == "bench")
    if req["op"] == "compute":
        return {"output": out}
    n, b = req["iterations"], req["batches"]
    return {"output": out, "samples": [{"iterations": n, "ns": n * 1000}] * b}


for line in sys.stdin:
    req = json.loads(line)
    try:
        reply = {"id": req["id"], "ok": True, "result": answer(req)}
    except Refused as exc:
        reply = {"id": req["id"], "ok": False, "error": {"kind": exc.kind, "message": exc.kind}}
    print(json.dumps(reply), flush=True)
