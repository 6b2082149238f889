"""What `cryptobench leak` checks (docs/methodology.md, "Timing leakage"): per runtime the
two equality controls, every implementation's AEAD `open` with a bad tag, MAC `verify` with a
bad tag, password `verify` with a wrong password, ML-KEM `decaps` (two targets), key agreement
and signing (leak/keyed.py), and for each replicate the two classes of inputs, their A/A pair
(and what each class must answer), prepared by the implementation itself before anything is
timed."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..runtimes.inputs import _rng
from ..runtimes.protocol import RemoteError
from ..runtimes.session import Runtime
from ..stats.leak import CONTROL_REPLICATES, REPLICATES
from . import keyed  # the public-key families' classes
from .want import Classes, Side, Unverified, Want

CONTROLS = ("equal", "equal-ct")  # the runtime's early-exit equality and constant-time one
CONTROL_LEN = 1024  # the controls compare this many bytes (docs/methodology.md: their power)
TARGET_FAMILIES = {
    "aead": "open",
    "mac": "verify",  # only where the implementation offers verify (a MAC compare)
    "password-hash": "verify",
    "kem": "decaps",
    "kex": "agree",
    "signature": "sign",
}
# kem: two targets per primitive (leak/keyed.py): fixed vs random valid ciphertexts, and a
# valid ciphertext vs the same one with a bit flipped (implicit rejection)
KEM_KINDS = ("fixed-random", "valid-rejected")
# signing: the deterministic Ed25519 and, randomised per call, ECDSA (DER; the P1363 row signs
# with the same code) and ML-DSA (hedged); not RSA (a key pair per block would take hundreds
# of RSA key generations) nor SLH-DSA (milliseconds per signature): docs/methodology.md
SIGN_PRIMITIVES = ("ed25519", "ecdsa-p256-sha256", "ml-dsa-44", "ml-dsa-65", "ml-dsa-87")
CONTROL_FACTOR = 5  # the controls decide whether verdicts are given: more measurements there
# ... in CONTROL_REPLICATES processes (stats.leak), sharing CONTROL_FACTOR × REPLICATES
# measurements
PASSWORD_DIVISOR = 100  # password verify is ~10⁴× slower: that many times fewer measurements
PASSWORD_MIN = 1000
# public-key calls take 20–1000 µs (AEAD open ~1 µs): they get N / COST_DIVISOR measurements,
# or more, up to N, where the calls are cheap enough to fit more in a time budget of
# N × COST_BUDGET_NS (0.25 s at the default N = 50 000), their cost probed on PROBE calls
# before the replicates; at least COST_MIN. N/20 alone gave OpenSSL's ECDSA signing 2 500
# measurements, where its 0.4% difference showed in 7 of 9 (docs/methodology.md)
COST_DIVISOR = {"decaps": 10, "agree": 10, "sign": 20}
BUDGETED = tuple(COST_DIVISOR)
COST_BUDGET_NS = 5_000
COST_MIN = 1000  # ≥ 16 blocks of ≥ 60 measurements
PROBE = 64
PASSWORD_LEN = 16
MAC_KEY_LEN, MAC_MSG_LEN = 32, 64  # a MAC verify target's random key and message
# cheapest parameters each library accepts: the leak is in the final comparison, not the cost
PASSWORD_PARAMS = {
    "bcrypt": {"cost": 4},
    "argon2id": {"t": 1, "m": 64, "p": 1},
    "argon2i": {"t": 3, "m": 64, "p": 1},
    "argon2d": {"t": 1, "m": 64, "p": 1},
}

__all__ = ["Classes", "Side", "Target", "Unverified", "Want", "classes_for", "plan_targets"]


@dataclass
class Target:
    runtime: Runtime
    impl: object | None  # protocol.Implementation; None for the controls
    primitive: str
    family: str
    operation: str  # what is timed: compare, open, verify, decaps, agree, sign
    measurements: int
    params: dict = field(default_factory=dict)
    size: int = 0  # the controls' input length
    replicates: int = REPLICATES  # fresh processes, each with its own inputs and A/A pair
    kind: str = ""  # kem: which of KEM_KINDS
    # (runtime, implementation) pairs that may make this target's keys and ciphertexts when
    # the implementation cannot (encaps with a chosen m, keygen from a seed): same runtime first
    peers: list = field(default_factory=list)

    @property
    def impl_id(self) -> str:
        return self.impl.id if self.impl else f"{self.runtime.id}/control"

    @property
    def name(self) -> str:
        """The target as rows show it: the operation, and the kind for a KEM's two."""
        return f"{self.operation} {self.kind}" if self.kind else self.operation


def budgeted_count(n: int, operation: str, call_ns: float) -> int:
    """A public-key target's measurements: n / COST_DIVISOR, or what fits in n ×
    COST_BUDGET_NS of calls of ``call_ns`` each when that is more (at most n); ≥ COST_MIN."""
    fits = int(n * COST_BUDGET_NS / max(call_ns, 1.0))
    return max(COST_MIN, n // COST_DIVISOR[operation], min(n, fits))


def _library_targets(rt, impl, pid, offer, prim, req) -> list[Target]:
    """The targets one implementation's primitive offers (none, one, or a KEM's two)."""
    op = TARGET_FAMILIES.get(prim.family)
    if op is None or op not in offer.operations:
        return []
    if prim.family == "password-hash":
        if "hash" not in offer.operations:
            return []
        params = {**prim.defaults(), **PASSWORD_PARAMS.get(pid, {})}
        pw_n = max(PASSWORD_MIN, req.measurements // PASSWORD_DIVISOR)
        return [Target(rt, impl, pid, prim.family, op, pw_n, params)]
    if prim.family == "signature" and pid not in SIGN_PRIMITIVES:
        return []
    params = {**prim.defaults(), "fresh_context": not offer.reuses_key}
    n = req.measurements  # the budgeted operations' ceiling: leak/command.py sizes them
    if prim.family == "kem":
        return [Target(rt, impl, pid, prim.family, op, n, params, kind=k) for k in KEM_KINDS]
    return [Target(rt, impl, pid, prim.family, op, n, params)]


def _makers(live: list[Runtime], pid: str) -> list[tuple[Runtime, object]]:
    """Every (runtime, implementation) offering ``pid``, in the order of ``live``."""
    return [(rt, impl) for rt in live for impl in rt.implementations if pid in impl.primitives]


def plan_targets(live: list[Runtime], cat, req) -> list[Target]:
    """Per runtime: the two controls, then each implementation's offered targets."""
    out = []
    for rt in live:
        n_ctl = req.measurements * CONTROL_FACTOR * REPLICATES // CONTROL_REPLICATES
        out += [
            Target(rt, None, c, "control", "compare", n_ctl, replicates=CONTROL_REPLICATES)
            for c in CONTROLS
        ]
        for ctl in out[-2:]:
            ctl.size = req.control_bytes or rt.spec.leak_control_bytes or CONTROL_LEN
        for impl in rt.implementations:
            if req.impls and impl.id not in req.impls:
                continue
            for pid, offer in sorted(impl.primitives.items()):
                if pid not in cat or (req.primitives and pid not in req.primitives):
                    continue
                out += _library_targets(rt, impl, pid, offer, cat.get(pid), req)
    for t in out:
        if t.family in ("kem", "kex", "signature"):
            mine = [rt for rt in live if rt is t.runtime]
            others = [rt for rt in live if rt is not t.runtime]
            t.peers = [p for p in _makers(mine + others, t.primitive) if p[1] is not t.impl]
    return out


def _flip(hexstr: str, index: int, mask: int = 0x01) -> str:
    b = bytearray(bytes.fromhex(hexstr))
    b[index] ^= mask
    return b.hex()


def _masks(rng) -> tuple[int, int]:
    """Two different non-zero byte masks."""
    m1 = rng.randrange(1, 256)
    return m1, rng.choice([m for m in range(1, 256) if m != m1])


def classes_for(
    t: Target, cat, seed: int, timeout: float, rep: int = 0, blocks: int = 1
) -> Classes:
    """Fresh inputs for replicate ``rep`` (its own draw from the run's seed). The A/A pair is
    wrong at the first position in even replicates, at the last in odd ones. ``blocks``: how
    many requests a measurement takes (a class drawn afresh per block has that many inputs)."""
    rng = _rng(seed, "leak", t.primitive, rep) if not t.kind else _rng(seed, "leak", t.name, rep)
    if t.family == "control":
        size = t.size or CONTROL_LEN
        a = rng.randbytes(size).hex()
        at = 0 if rep % 2 == 0 else size - 1
        pair = tuple(Side.one({"b": _flip(a, at, m)}, Want("00")) for m in _masks(rng))
        first = Side.one({"b": _flip(a, 0)}, Want("00"))
        return Classes({"a": a}, first, Side.one({"b": _flip(a, size - 1)}, Want("00")), pair)
    if t.family == "aead":
        return _aead_classes(t, cat.get(t.primitive), rng, timeout, rep)
    if t.family == "mac":
        return _mac_classes(t, rng, timeout, rep)
    if t.family == "password-hash":
        return _password_classes(t, cat.get(t.primitive), rng, timeout, rep)
    return keyed.classes(t, cat.get(t.primitive), rng, timeout, rep, blocks)


def _aead_classes(t: Target, prim, rng, timeout: float, rep: int) -> Classes:
    key, nonce = rng.randbytes(prim.key_len).hex(), rng.randbytes(prim.nonce_len).hex()
    msg, aad = rng.randbytes(64).hex(), ""
    shared = {"key": key, "nonce": nonce, "aad": aad}
    common = {"impl": t.impl.library, "primitive": t.primitive, "params": t.params}
    ask = t.runtime.request
    ct = ask("compute", timeout, operation="seal", inputs={**shared, "msg": msg}, **common)
    ct = ct["output"]
    opened = ask("compute", timeout, operation="open", inputs={**shared, "msg": ct}, **common)
    if opened.get("output") != msg:
        raise Unverified("open(seal(msg)) did not give msg back")
    first, last = len(ct) // 2 - (prim.tag_len or 16), len(ct) // 2 - 1
    at = first if rep % 2 == 0 else last
    fail = Want("auth_failed")
    pair = tuple(Side.one({"msg": _flip(ct, at, m)}, fail) for m in _masks(rng))
    a, b = Side.one({"msg": _flip(ct, first)}, fail), Side.one({"msg": _flip(ct, last)}, fail)
    return Classes(shared, a, b, pair)


def _mac_classes(t: Target, rng, timeout: float, rep: int) -> Classes:
    """A MAC's verify: the tag the implementation's own `mac` makes (untimed) must verify;
    classes A and B have its first / last byte wrong, the A/A pair the same position (first
    in even replicates, last in odd ones) by two different masks."""
    shared = {"key": rng.randbytes(MAC_KEY_LEN).hex(), "msg": rng.randbytes(MAC_MSG_LEN).hex()}
    common = {"impl": t.impl.library, "primitive": t.primitive, "params": t.params}
    ask = t.runtime.request
    tag = ask("compute", timeout, operation="mac", inputs=shared, **common)["output"]
    try:
        ok = ask("compute", timeout, operation="verify", inputs={**shared, "tag": tag}, **common)
    except RemoteError as exc:
        if exc.kind != "auth_failed":
            raise
        ok = {"output": exc.kind}
    if ok.get("output") != "ok":
        raise Unverified(f"verify of its own mac's tag gave {ok.get('output')!r}, not ok")
    first, last = 0, len(tag) // 2 - 1
    at = first if rep % 2 == 0 else last
    fail = Want("auth_failed")
    pair = tuple(Side.one({"tag": _flip(tag, at, m)}, fail) for m in _masks(rng))
    a, b = Side.one({"tag": _flip(tag, first)}, fail), Side.one({"tag": _flip(tag, last)}, fail)
    return Classes(shared, a, b, pair)


def _password_classes(t: Target, prim, rng, timeout: float, rep: int) -> Classes:
    letters = b"abcdefghijkmnopqrstuvwxyz"
    password = bytes(rng.choice(letters) for _ in range(PASSWORD_LEN))
    salt = rng.randbytes(prim.salt_len or 16).hex()
    encoded = t.runtime.request(
        "compute",
        timeout,
        impl=t.impl.library,
        primitive=t.primitive,
        operation="hash",
        inputs={"password": password.hex(), "salt": salt},
        params=t.params,
    )["output"]

    def wrong(at: int, ch: int) -> Side:
        pw = password[:at] + bytes([ch]) + password[at + 1 :]
        return Side.one({"password": pw.hex()}, Want("auth_failed"))

    at = 0 if rep % 2 == 0 else PASSWORD_LEN - 1
    others = [c for c in letters if c != password[at]]
    pair = tuple(wrong(at, c) for c in rng.sample(others, 2))
    return Classes(
        {"encoded": encoded},
        wrong(0, password[0] ^ 0x01),
        wrong(PASSWORD_LEN - 1, password[-1] ^ 0x01),
        pair,
    )
