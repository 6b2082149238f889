"""The public-key targets' classes (docs/methodology.md, "Timing leakage"): ML-KEM `decaps`
(fixed vs random valid ciphertexts; a valid ciphertext vs the same one with a bit flipped),
key agreement `agree` and signing `sign` (one fixed private key vs a private key drawn afresh
for every block). Keys and ciphertexts come from the implementation itself, or from another
implementation of the primitive (same runtime first) for what it cannot make: a key pair from
a given seed, an encapsulation with a chosen m. Everything is made before anything is timed."""

from __future__ import annotations

from ..runtimes.protocol import RemoteError
from .want import Classes, Side, Unprepared, Unverified, Want

RAND_LEN = {"x25519-mlkem768": 64}  # encaps' randomness: m (‖ the hybrid's X25519 scalar)
P256 = ("ecdh-p256", "ecdsa-p256-sha256", "ecdsa-p256-sha256-p1363")
P256_N = int("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551", 16)
# the fixed class's private key, the same in every replicate (dudect's fixed class): where the
# key is the scalar itself a low-weight one (X25519: 2^254 once clamped; P-256: 2^127), else
# the all-zero seed (Ed25519's secret and ML-DSA's ξ are hashed into the key)
FIXED_KEYS = {"x25519": "00" * 31 + "40", **{p: "00" * 16 + "80" + "00" * 15 for p in P256}}
DER_SIZES = (8, 72)  # ECDSA's DER signature over P-256
FLIP_AT = 0  # the rejected ciphertext: its first byte's lowest bit flipped


def classes(t, prim, rng, timeout: float, rep: int, blocks: int) -> Classes:
    """The replicate's classes; another runtime that helped is stopped afterwards, so no
    process of it idles beside the timed calls."""
    try:
        if t.kind == "valid-rejected":
            return _kem_valid_rejected(t, prim, rng, timeout, rep)
        if t.kind == "fixed-random":
            return _kem_fixed_random(t, prim, rng, timeout, blocks)
        if t.family == "kex":
            return _agree_classes(t, prim, rng, timeout, blocks)
        return _sign_classes(t, prim, rng, timeout, blocks)
    finally:
        for rt in {id(rt): rt for rt, _ in t.peers if rt is not t.runtime}.values():
            rt.stop()


def _ask(t, op: str, inputs: dict, timeout: float) -> str:
    """``op`` through the implementation, else the first peer that does not refuse it."""
    refused = f"no implementation here offers {op} of {t.primitive}"
    for rt, impl in [(t.runtime, t.impl), *t.peers]:
        offer = impl.primitives.get(t.primitive)
        if offer is None or op not in offer.operations:
            continue
        params = {**t.params, "fresh_context": not offer.reuses_key}
        try:
            got = rt.request(
                "compute",
                timeout,
                impl=impl.library,
                primitive=t.primitive,
                operation=op,
                inputs=inputs,
                params=params,
            )
        except RemoteError as exc:
            if exc.kind != "unsupported":
                raise
            refused = f"{op} of {t.primitive} {_given(inputs)}: {exc.message}"
            continue
        return got["output"]
    raise Unprepared(refused)


def _given(inputs: dict) -> str:
    extra = [k for k in ("key_seed", "randomness") if k in inputs]
    return f"with {', '.join(extra)}" if extra else "(plain)"


def _public(t, prim, private_key: str, timeout: float) -> str:
    """The public key of ``private_key`` (a seed or a scalar): keygen from it."""
    out = _ask(t, "keygen", {"key_seed": private_key}, timeout)
    cut = 2 * prim.public_key_len
    if out[cut:] != private_key:
        raise Unverified("keygen from a seed did not answer that seed as its private key")
    return out[:cut]


def _private_key(prim, rng) -> str:
    if prim.id in P256:
        while not 1 <= (d := int.from_bytes(rng.randbytes(32), "big")) < P256_N:
            pass
        return d.to_bytes(32, "big").hex()
    return rng.randbytes(prim.private_key_len).hex()


def _encaps(t, prim, public_key: str, timeout: float, m: str | None = None):
    """(ciphertext, shared secret) of an encapsulation; ``m``: a chosen randomness."""
    inputs = {"public_key": public_key, **({"randomness": m} if m else {})}
    out = _ask(t, "encaps", inputs, timeout)
    cut = 2 * prim.ciphertext_len
    return out[:cut], out[cut:]


def _valid(t, prim, public_key: str, timeout: float, blocks: int = 1) -> Side:
    """A class of valid ciphertexts, a fresh encapsulation per block; each must give its
    encapsulated secret back."""
    made = [_encaps(t, prim, public_key, timeout) for _ in range(blocks)]
    return Side(tuple({"ciphertext": c} for c, _ in made), tuple(Want(s) for _, s in made))


def _kem_key(t, prim, rng, timeout: float) -> tuple[str, str]:
    seed = rng.randbytes(prim.private_key_len).hex()
    return seed, _public(t, prim, seed, timeout)


def _kem_valid_rejected(t, prim, rng, timeout: float, rep: int) -> Classes:
    """A: a valid ciphertext; B: the same with one bit flipped (implicitly rejected: some other
    secret, never an error). A/A: two valid ones (even replicates), or the same ciphertext
    flipped at the same byte by two different masks (odd)."""
    seed, public = _kem_key(t, prim, rng, timeout)
    ct, secret = _encaps(t, prim, public, timeout)
    valid = Side.one({"ciphertext": ct}, Want(secret))

    def rejected(mask: int) -> Side:
        flipped = bytearray.fromhex(ct)
        flipped[FLIP_AT] ^= mask
        return Side.one({"ciphertext": flipped.hex()}, Want(unlike=secret))

    if rep % 2 == 0:
        pair = (_valid(t, prim, public, timeout), _valid(t, prim, public, timeout))
    else:
        m1 = rng.randrange(2, 256)
        pair = (rejected(1), rejected(m1))
    text = "valid: the encapsulated secret; rejected: another secret of its length"
    return Classes({"private_key": seed}, valid, rejected(1), pair, text)


def _kem_fixed_random(t, prim, rng, timeout: float, blocks: int) -> Classes:
    """A: the valid ciphertext of the all-zero message m (the fixed class); B: a fresh valid
    ciphertext in every block. A/A: two classes of fresh ones."""
    seed, public = _kem_key(t, prim, rng, timeout)
    m = bytes(32) + rng.randbytes(RAND_LEN.get(prim.id, 32) - 32)
    ct, secret = _encaps(t, prim, public, timeout, m.hex())
    fixed = Side.one({"ciphertext": ct}, Want(secret))
    fresh = [_valid(t, prim, public, timeout, blocks) for _ in range(3)]
    text = "every ciphertext: its encapsulated secret"
    return Classes({"private_key": seed}, fixed, fresh[0], (fresh[1], fresh[2]), text)


def _drawn(prim, rng, blocks: int, want: Want) -> Side:
    keys = [_private_key(prim, rng) for _ in range(blocks)]
    return Side(tuple({"private_key": k} for k in keys), (want,))


def _agree_classes(t, prim, rng, timeout: float, blocks: int) -> Classes:
    """A: the fixed private key; B: a key drawn for every block; the peer's public key shared.
    The fixed key's secret must be the one the peer's side agrees (keygen + agree)."""
    fixed = FIXED_KEYS.get(prim.id) or "00" * prim.private_key_len
    peer = _private_key(prim, rng)
    shared = {"peer_public_key": _public(t, prim, peer, timeout)}
    theirs = {"private_key": peer, "peer_public_key": _public(t, prim, fixed, timeout)}
    expect = _ask(t, "agree", theirs, timeout)
    size = Want(sizes=(prim.output_len, prim.output_len))
    a = Side.one({"private_key": fixed}, Want(expect))
    drawn = [_drawn(prim, rng, blocks, size) for _ in range(3)]
    text = f"the fixed key: the peer's side's secret; drawn keys: {size} of secret"
    return Classes(shared, a, drawn[0], (drawn[1], drawn[2]), text)


def _sign_classes(t, prim, rng, timeout: float, blocks: int) -> Classes:
    """A: the fixed private key; B: a key drawn for every block; the message shared. The fixed
    key's signature must verify under its public key (and equal it for Ed25519)."""
    fixed = FIXED_KEYS.get(prim.id) or "00" * prim.private_key_len
    msg = rng.randbytes(32).hex()
    sig = _ask(t, "sign", {"private_key": fixed, "msg": msg}, timeout)
    check = {"public_key": _public(t, prim, fixed, timeout), "msg": msg, "signature": sig}
    try:
        _ask(t, "verify", check, timeout)
    except RemoteError as exc:
        if exc.kind not in ("auth_failed", "invalid_params"):
            raise
        raise Unverified("the fixed key's signature does not verify under its public key") from None
    n = prim.signature_len
    size = Want(sizes=(n, n) if n else DER_SIZES)
    a = Side.one({"private_key": fixed}, Want(sig) if prim.id == "ed25519" else size)
    drawn = [_drawn(prim, rng, blocks, size) for _ in range(3)]
    text = f"signatures of {size} (the fixed key's verified by its public key)"
    return Classes({"msg": msg}, a, drawn[0], (drawn[1], drawn[2]), text)
