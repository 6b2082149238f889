"""What `cryptobench leak` checks (docs/methodology.md, "Timing leakage"): per runtime the
two equality controls, every implementation's AEAD `open` with a bad tag and password `verify`
with a wrong password, and for each replicate the two classes of inputs, their A/A pair (and
their expected outcome), prepared by the implementation itself before anything is timed."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..runtimes.inputs import _rng
from ..runtimes.session import Runtime

CONTROLS = ("equal", "equal-ct")  # the runtime's early-exit equality and constant-time one
CONTROL_LEN = 64
TARGET_FAMILIES = {"aead": "open", "password-hash": "verify"}
CONTROL_FACTOR = 5  # the controls decide whether verdicts are given: more measurements there
PASSWORD_DIVISOR = 100  # password verify is ~10⁴× slower: that many times fewer measurements
PASSWORD_MIN = 1000
PASSWORD_LEN = 16
# cheapest parameters each library accepts: the leak is in the final comparison, not the cost
PASSWORD_PARAMS = {
    "bcrypt": {"cost": 4},
    "argon2id": {"t": 1, "m": 64, "p": 1},
    "argon2i": {"t": 3, "m": 64, "p": 1},
    "argon2d": {"t": 1, "m": 64, "p": 1},
}


@dataclass
class Target:
    runtime: Runtime
    impl: object | None  # protocol.Implementation; None for the controls
    primitive: str
    family: str
    operation: str  # what is timed: compare, open, verify
    measurements: int
    params: dict = field(default_factory=dict)
    size: int = 0  # the controls' input length

    @property
    def impl_id(self) -> str:
        return self.impl.id if self.impl else f"{self.runtime.id}/control"


def plan_targets(live: list[Runtime], cat, req) -> list[Target]:
    """Per runtime: the two controls, then each implementation's offered targets."""
    out = []
    pw_n = max(PASSWORD_MIN, req.measurements // PASSWORD_DIVISOR)
    for rt in live:
        n_ctl = req.measurements * CONTROL_FACTOR
        out += [Target(rt, None, c, "control", "compare", n_ctl) for c in CONTROLS]
        for ctl in out[-2:]:
            ctl.size = req.control_bytes or rt.spec.leak_control_bytes or CONTROL_LEN
        for impl in rt.implementations:
            if req.impls and impl.id not in req.impls:
                continue
            for pid, offer in sorted(impl.primitives.items()):
                if pid not in cat or (req.primitives and pid not in req.primitives):
                    continue
                prim = cat.get(pid)
                op = TARGET_FAMILIES.get(prim.family)
                if op is None:
                    continue
                if prim.family == "password-hash":
                    if op not in offer.operations or "hash" not in offer.operations:
                        continue
                    params = {**prim.defaults(), **PASSWORD_PARAMS.get(pid, {})}
                    out.append(Target(rt, impl, pid, prim.family, op, pw_n, params))
                elif prim.family == "aead" and op in offer.operations:
                    params = {**prim.defaults(), "fresh_context": not offer.reuses_key}
                    out.append(Target(rt, impl, pid, prim.family, op, req.measurements, params))
    return out


def _flip(hexstr: str, index: int, mask: int = 0x01) -> str:
    b = bytearray(bytes.fromhex(hexstr))
    b[index] ^= mask
    return b.hex()


@dataclass
class Classes:
    """One replicate's inputs: shared ones, the two classes of the target (wrong at the first
    / the last position) and the A/A pair (both wrong at the same position, by two different
    random values), and what every class must answer."""

    shared: dict
    first: dict
    last: dict
    aa: tuple[dict, dict]
    expect: str  # "auth" (auth_failed) or a control's output


def _masks(rng) -> tuple[int, int]:
    """Two different non-zero byte masks."""
    m1 = rng.randrange(1, 256)
    return m1, rng.choice([m for m in range(1, 256) if m != m1])


def classes_for(t: Target, cat, seed: int, timeout: float, rep: int = 0) -> Classes:
    """Fresh inputs for replicate ``rep`` (its own draw from the run's seed). The A/A pair is
    wrong at the first position in even replicates, at the last in odd ones."""
    rng = _rng(seed, "leak", t.primitive, rep)
    if t.family == "control":
        size = t.size or CONTROL_LEN
        a = rng.randbytes(size).hex()
        at = 0 if rep % 2 == 0 else size - 1
        pair = tuple({"b": _flip(a, at, m)} for m in _masks(rng))
        return Classes({"a": a}, {"b": _flip(a, 0)}, {"b": _flip(a, size - 1)}, pair, "00")
    if t.family == "aead":
        return _aead_classes(t, cat.get(t.primitive), rng, timeout, rep)
    return _password_classes(t, cat.get(t.primitive), rng, timeout, rep)


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
    pair = tuple({"msg": _flip(ct, at, m)} for m in _masks(rng))
    return Classes(shared, {"msg": _flip(ct, first)}, {"msg": _flip(ct, last)}, pair, "auth")


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

    def wrong(at: int, ch: int) -> dict:
        return {"password": (password[:at] + bytes([ch]) + password[at + 1 :]).hex()}

    at = 0 if rep % 2 == 0 else PASSWORD_LEN - 1
    others = [c for c in letters if c != password[at]]
    pair = tuple(wrong(at, c) for c in rng.sample(others, 2))
    return Classes(
        {"encoded": encoded},
        wrong(0, password[0] ^ 0x01),
        wrong(PASSWORD_LEN - 1, password[-1] ^ 0x01),
        pair,
        "auth",
    )


class Unverified(Exception):
    pass
