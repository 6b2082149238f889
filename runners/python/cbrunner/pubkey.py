"""The public-key rows (families kex, signature and kem, docs/protocol.md "Public-key
operations" and "Key encapsulation") and how a request becomes their calls.

A row gives plain functions over the protocol's encodings (raw X25519/Ed25519 keys, SEC1
points and 32-byte scalars for P-256, DER SubjectPublicKeyInfo / PKCS#8 for RSA); a library
file converts to and from its own key objects.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cbrunner.protocol import AuthFailed, Fail, hex_input
from cbrunner.timing import Inline


@dataclass
class Kex:
    """keygen(seed | None) -> (public, private); load(private) -> key object;
    agree(key, peer_public) -> shared secret (the peer key is parsed in every call: it
    arrives with each handshake). A bad peer key raises ValueError (invalid_params)."""

    keygen: Callable
    load: Callable
    agree: Callable
    operations: tuple = ("keygen", "agree")


@dataclass
class Signature:
    """keygen(seed | None) -> (public, private); load_private(private) -> key;
    load_public(public) -> key; sign(key, msg) -> signature; verify(key, msg, sig) -> bool.
    keygen raises Fail("unsupported") for a seed it cannot take (RSA)."""

    keygen: Callable
    load_private: Callable
    load_public: Callable
    sign: Callable
    verify: Callable
    operations: tuple = ("keygen", "sign", "verify")


@dataclass
class Kem:
    """Key encapsulation (docs/protocol.md, "Key encapsulation"): keygen(seed | None) ->
    (public, seed); load_public(public) -> key; encaps(key, m | None) -> (ciphertext, secret);
    load_private(seed) -> key; decaps(key, ciphertext) -> secret (implicit rejection: a
    secret, never an error). encaps raises Fail("unsupported") for a randomness m it cannot
    take."""

    keygen: Callable
    load_public: Callable
    encaps: Callable
    load_private: Callable
    decaps: Callable
    seed_len: int = 64
    ciphertext_len: int = 0
    operations: tuple = ("keygen", "encaps", "decaps")


def _pair(keygen: Callable, seed: bytes | None) -> bytes:
    public, private = keygen(seed)
    return public + private


def _checked(verify: Callable) -> Callable:
    def ok(key, msg, sig) -> bytes:
        if not verify(key, msg, sig):
            raise AuthFailed()
        return b"ok"

    return ok


def seed_of(inputs: dict, name: str = "key_seed", size: int = 32) -> bytes | None:
    """keygen's optional key_seed: 32 bytes (docs/protocol.md; ML-KEM's: 64), or another
    optional input of a fixed length."""
    if name not in inputs:
        return None
    seed = hex_input(inputs, name)
    if len(seed) != size:
        raise Fail("invalid_params", f"{name} is {len(seed)} bytes, not {size}")
    return seed


def _joined(encaps: Callable) -> Callable:
    def both(key, m) -> bytes:
        ct, secret = encaps(key, m)
        return ct + secret

    return both


def prepare_kem(spec: Kem, op: str, inputs: dict, params: dict) -> tuple[Inline, Inline]:
    """(first, timed) calls of a kem row: encaps answers ciphertext ‖ shared secret."""
    fresh = bool(params.get("fresh_context", False))
    if op == "keygen":
        seed = seed_of(inputs, size=spec.seed_len)
        call = Inline("pair(keygen, seed)", pair=_pair, keygen=spec.keygen, seed=seed)
        return call, call
    if op == "encaps":
        public, m = hex_input(inputs, "public_key"), seed_of(inputs, "randomness", 32)
        env = {"encaps": _joined(spec.encaps), "m": m}
        return _keyed(spec.load_public, public, "encaps({key}, m)", fresh, **env)
    private, ct = hex_input(inputs, "private_key"), hex_input(inputs, "ciphertext")
    if len(private) != spec.seed_len or len(ct) != spec.ciphertext_len:
        raise Fail("invalid_params", f"private key {len(private)} B, ciphertext {len(ct)} B")
    return _keyed(spec.load_private, private, "decaps({key}, ct)", fresh, decaps=spec.decaps, ct=ct)


def prepare(spec, op: str, inputs: dict, params: dict) -> tuple[Inline, Inline]:
    """(first, timed) calls of a public-key row; fresh_context parses our key in every call."""
    if isinstance(spec, Kem):
        return prepare_kem(spec, op, inputs, params)
    fresh = bool(params.get("fresh_context", False))
    if op == "keygen":
        call = Inline("pair(keygen, seed)", pair=_pair, keygen=spec.keygen, seed=seed_of(inputs))
        return call, call
    if op == "agree":
        private, peer = hex_input(inputs, "private_key"), hex_input(inputs, "peer_public_key")
        return _keyed(spec.load, private, "agree({key}, peer)", fresh, agree=spec.agree, peer=peer)
    msg = hex_input(inputs, "msg")
    if op == "sign":
        if "randomness" in inputs:  # ML-DSA's rnd: no row here takes one
            raise Fail("unsupported", "this library signs with its own randomness only")
        private = hex_input(inputs, "private_key")
        env = {"sign": spec.sign, "msg": msg}
        return _keyed(spec.load_private, private, "sign({key}, msg)", fresh, **env)
    public, sig = hex_input(inputs, "public_key"), hex_input(inputs, "signature")
    env = {"verify": _checked(spec.verify), "msg": msg, "sig": sig}
    return _keyed(spec.load_public, public, "verify({key}, msg, sig)", fresh, **env)


def _keyed(load: Callable, raw: bytes, src: str, fresh: bool, **env):
    """The call over a key parsed once (or, fresh, inside every call)."""
    if fresh:
        call = Inline(src.format(key="load(raw)"), load=load, raw=raw, **env)
    else:
        call = Inline(src.format(key="key"), key=load(raw), **env)
    return call, call
