"""`cryptobench leak`: a dudect-style paired timing-leakage check (docs/methodology.md,
"Timing leakage"). Plan the targets per runtime (the two controls, AEAD `open` with a bad tag,
MAC `verify`, password `verify` with a wrong password), send each runner one `leak` request
(docs/protocol.md), test the two classes (stats.leak_test) and store every case."""

from __future__ import annotations

import base64
import hashlib
import os
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
from rich.console import Console

from . import catalog as catalog_mod
from . import machine, results, stats
from .errors import UsageError
from .inputs import _rng
from .lock import RunLock
from .protocol import RemoteError, RunnerFailure
from .session import Runtime, open_runtimes
from .store import open_store

CONTROLS = ("equal", "equal-ct")  # the runtime's early-exit equality and constant-time one
CONTROL_LEN = 64
TARGET_FAMILIES = {"aead": "open", "password-hash": "verify"}
CONTROL_FACTOR = 5  # the controls decide whether verdicts are given: more measurements there
CHUNKS = 4  # leak requests per case, alternating which prepared call serves which class
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
NO_POWER = "no verdict: the early-exit control was not detected in this runtime (no power here)"
NO_CONTROL = "no verdict: the early-exit control did not run in this runtime"
DEFAULT_MEASUREMENTS = 100_000


@dataclass
class LeakRequest:
    command: str
    db: Path
    runtimes: list[str] = field(default_factory=list)
    impls: list[str] = field(default_factory=list)
    primitives: list[str] = field(default_factory=list)
    measurements: int = DEFAULT_MEASUREMENTS
    control_bytes: int = CONTROL_LEN
    seed: int = 0
    timeout: float = 120.0
    wait: bool = False


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


def order(seed: int, label: str, n: int) -> bytes:
    """The classes' interleaving (0 = A, 1 = B): random, from the run's seed and the case."""
    digest = hashlib.sha256(f"{seed}:{label}".encode()).digest()
    rng = np.random.default_rng(int.from_bytes(digest[:8], "big"))
    return rng.integers(0, 2, n, dtype=np.uint8).tobytes()


def decode_ns(text: str, n: int) -> np.ndarray:
    """The runner's ``ns``: base64 of little-endian uint32, one per measurement."""
    try:
        raw = base64.b64decode(text, validate=True)
    except (ValueError, TypeError):
        raise RunnerFailure("protocol", "leak: ns is not base64") from None
    if len(raw) != 4 * n:
        raise RunnerFailure("protocol", f"leak: {len(raw) // 4} measurements for {n} asked")
    return np.frombuffer(raw, dtype="<u4").astype(float)


def plan_targets(live: list[Runtime], cat, req: LeakRequest) -> list[Target]:
    """Per runtime: the two controls, then each implementation's offered targets."""
    out = []
    pw_n = max(PASSWORD_MIN, req.measurements // PASSWORD_DIVISOR)
    for rt in live:
        n_ctl = req.measurements * CONTROL_FACTOR
        out += [Target(rt, None, c, "control", "compare", n_ctl) for c in CONTROLS]
        for ctl in out[-2:]:
            ctl.size = req.control_bytes
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
                elif prim.family == "aead":
                    if op in offer.operations:
                        params = {**prim.defaults(), "fresh_context": not offer.reuses_key}
                        out.append(Target(rt, impl, pid, prim.family, op, req.measurements, params))
                elif "mac" in offer.operations and pid == "hmac-sha256":
                    params = {"fresh_context": False}
                    out.append(Target(rt, impl, pid, prim.family, op, req.measurements, params))
    return out


def _flip(hexstr: str, index: int) -> str:
    b = bytearray(bytes.fromhex(hexstr))
    b[index] ^= 0x01
    return b.hex()


def classes_for(t: Target, cat, seed: int, timeout: float) -> tuple[dict, list[dict], dict]:
    """(shared inputs, [class A overrides, class B overrides], expected outcomes)."""
    rng = _rng(seed, "leak", t.primitive)
    if t.family == "control":
        size = t.size or CONTROL_LEN
        a = rng.randbytes(size).hex()
        return {"a": a}, [{"b": _flip(a, 0)}, {"b": _flip(a, size - 1)}], "00"
    prim = cat.get(t.primitive)
    ask = t.runtime.request
    if t.family == "aead":
        key, nonce = rng.randbytes(prim.key_len).hex(), rng.randbytes(prim.nonce_len).hex()
        msg, aad = rng.randbytes(64).hex(), ""
        shared = {"key": key, "nonce": nonce, "aad": aad}
        common = {"impl": t.impl.library, "primitive": t.primitive, "params": t.params}
        sealed = ask("compute", timeout, operation="seal", inputs={**shared, "msg": msg}, **common)
        ct = sealed["output"]
        opened = ask("compute", timeout, operation="open", inputs={**shared, "msg": ct}, **common)
        if opened.get("output") != msg:
            raise _Unverified("open(seal(msg)) did not give msg back")
        tag_at = len(ct) // 2 - (prim.tag_len or 16)
        return shared, [{"msg": _flip(ct, tag_at)}, {"msg": _flip(ct, len(ct) // 2 - 1)}], "auth"
    if t.family == "mac":
        key, msg = rng.randbytes(32).hex(), rng.randbytes(64).hex()
        common = {"impl": t.impl.library, "primitive": t.primitive, "params": t.params}
        tag = ask("compute", timeout, operation="mac", inputs={"key": key, "msg": msg}, **common)
        tag = tag["output"]
        shared = {"key": key, "msg": msg}
        return shared, [{"tag": _flip(tag, 0)}, {"tag": _flip(tag, len(tag) // 2 - 1)}], "auth"
    password = bytes(rng.choice(b"abcdefghijkmnopqrstuvwxyz") for _ in range(PASSWORD_LEN))
    salt = rng.randbytes(prim.salt_len or 16).hex()
    encoded = ask(
        "compute",
        timeout,
        impl=t.impl.library,
        primitive=t.primitive,
        operation="hash",
        inputs={"password": password.hex(), "salt": salt},
        params=t.params,
    )["output"]
    wrong_first = bytes([password[0] ^ 0x01]) + password[1:]
    wrong_last = password[:-1] + bytes([password[-1] ^ 0x01])
    return (
        {"encoded": encoded},
        [{"password": wrong_first.hex()}, {"password": wrong_last.hex()}],
        "auth",
    )


class _Unverified(Exception):
    pass


def _case(t: Target, req: LeakRequest) -> dict:
    impl = t.impl
    return {
        "runtime": t.runtime.id,
        "implementation": t.impl_id,
        "library": impl.library if impl else "control",
        "library_version": impl.version if impl else t.runtime.info.get("version", ""),
        "backend": impl.backend_label if impl else "",
        "primitive": t.primitive,
        "family": t.family,
        "operation": "leak",
        "size": t.size,
        "params": t.params,
        "security_status": "",
        "code_path": impl.code_path if impl else "",
        **results.unmeasured(),
        "leak": {"target": t.operation, "measurements": t.measurements},
    }


def _chunks(n: int) -> list[tuple[int, int]]:
    cuts = np.linspace(0, n, CHUNKS + 1).astype(int)
    return [(int(a), int(b)) for a, b in zip(cuts[:-1], cuts[1:], strict=True) if b > a]


def _chunk(t: Target, req, shared, classes, seq: bytes, swap: bool, want):
    """One leak request over a slice of the order. ``swap``: the runner's first prepared
    call gets class B's inputs, so which of its two set-ups (key schedule, buffers, their
    addresses) serves a class alternates between requests and cancels out of the test."""
    sent = (1 - np.frombuffer(seq, dtype=np.uint8)).astype(np.uint8).tobytes() if swap else seq
    got = t.runtime.request(
        "leak",
        req.timeout,
        **({"impl": t.impl.library} if t.impl else {}),
        primitive=t.primitive,
        operation=t.operation,
        inputs=shared,
        classes=classes[::-1] if swap else classes,
        params=t.params,
        order=base64.b64encode(sent).decode(),
    )
    if got.get("outcomes") != want:
        raise _Unverified(f"classes gave {got.get('outcomes')!r}, not {want!r}")
    return decode_ns(got.get("ns", ""), len(seq)), str(got.get("clock", ""))


def measure(t: Target, cat, req: LeakRequest) -> dict:
    """One target: its classes' inputs, the runner's single-call times, the dudect tests."""
    res = _case(t, req)
    label = f"{t.impl_id}:{t.primitive}:{t.operation}"
    want = []
    try:
        shared, classes, expect = classes_for(t, cat, req.seed, req.timeout)
        want = ["auth_failed", "auth_failed"] if expect == "auth" else [expect, expect]
        seq = order(req.seed, label, t.measurements)
        parts = [
            _chunk(t, req, shared, classes, seq[lo:hi], swap=k % 2 == 1, want=want)
            for k, (lo, hi) in enumerate(_chunks(t.measurements))
        ]
        ns, clock = np.concatenate([p[0] for p in parts]), parts[0][1]
    except RemoteError as exc:
        if exc.kind == "unsupported" and t.params.get("fresh_context") is False:
            # an API that refuses to reuse its key for this operation: fresh contexts
            return measure(replace(t, params={**t.params, "fresh_context": True}), cat, req)
        status = "skipped" if exc.kind == "unsupported" else "failed"
        return {**res, "status": status, "error": f"{exc.kind}: {exc.message}"}
    except RunnerFailure as exc:
        return {**res, "status": "failed", "error": str(exc)}
    except _Unverified as exc:
        return {**res, "status": "failed", "error": f"not verified: {exc}"}
    classes_arr = np.frombuffer(seq, dtype=np.uint8)
    test = stats.leak_test(ns, classes_arr)
    res["leak"].update(
        t=test.t,
        test=test.test,
        n_a=test.n_a,
        n_b=test.n_b,
        detectable_ns=test.detectable_ns,
        median_a_ns=test.median_a,
        median_b_ns=test.median_b,
        distinct=test.distinct,
        curve=test.curve,
        verdict=stats.leak_verdict(test),
        clock=clock,
        classes=(
            "differ at byte 0 / at the last byte"
            if t.family == "control"
            else "wrong first / last byte of the tag"
            if t.family in ("aead", "mac")
            else "password wrong in its first / last character"
        ),
    )
    med = float(np.median(ns))
    return {
        **res,
        "status": "ok",
        "verified": True,
        "verification": f"both classes: {want[0]}",
        "median_ns": med,
        "ci_low_ns": med,
        "ci_high_ns": med,
        "n_samples": t.measurements,
    }


def gate(cases: list[dict]) -> None:
    """A runtime whose early-exit control was not flagged had no power: no verdicts there.
    A flagged constant-time control says the check may see what is not in the call."""
    for rt in {c["runtime"] for c in cases}:
        mine = [c for c in cases if c["runtime"] == rt and c["status"] == "ok"]
        ctl = {c["primitive"]: c["leak"]["verdict"] for c in mine if c["family"] == "control"}
        for c in mine:
            if c["family"] == "control" or c["leak"].get("gated"):
                continue
            c["leak"]["gated"] = True  # once: the controls come first in each runtime
            if ctl.get("equal") != "leak":
                c["leak"]["verdict_before_gate"] = c["leak"]["verdict"]
                c["leak"]["verdict"] = NO_POWER if "equal" in ctl else NO_CONTROL
            elif ctl.get("equal-ct") == "leak":
                c["flags"].append(
                    "the constant-time control was flagged too: a leak here may not be the call's"
                )


@dataclass
class Outcome:
    run: dict
    results: list[dict]
    failures: int


def run(req: LeakRequest, console: Console) -> Outcome:
    cat = catalog_mod.load()
    for p in req.primitives:
        cat.get(p)  # unknown → UsageError listing the valid ids
    store = open_store(req.db)
    live, skipped = open_runtimes(req.runtimes, req.impls, only_needed=True)
    try:
        known = [i.id for rt in live for i in rt.implementations]
        for i in req.impls:
            if i not in known:
                raise UsageError(f"unknown implementation {i!r}; valid: {', '.join(known)}")
        for rid, why in skipped:
            console.print(f"skipped {rid}: {why}", markup=False)
        targets = plan_targets(live, cat, req)
        if not any(t.impl for t in targets) and (req.impls or req.primitives):
            raise UsageError("nothing to check: no selected implementation offers a leak target")
        with RunLock(wait=req.wait):
            run_doc = results.start(
                req.command,
                None,
                req.seed,
                {"measurements": req.measurements, "operation": "leak"},
                machine.fingerprint(),
                machine.git_commit(),
                live,
                skipped,
            )
            store.begin_run(run_doc)
            console.print(
                f"leak run {run_doc['id'][:8]}: {len(targets)} cases; results in {store.path}",
                markup=False,
            )
            cpu0, load0 = machine.cpu_times(), os.getloadavg()[0]
            cases, interrupted = [], True
            try:
                for seq, t in enumerate(targets):
                    if t.runtime.isolate:
                        t.runtime.stop()  # JIT runtimes: a fresh process per case, as `run`
                    res = measure(t, cat, req)
                    cases.append(res)
                    gate(cases)  # controls come first in each runtime
                    store.put_case(run_doc["id"], seq, res)
                    console.print(_progress(res), markup=False)
                interrupted = False
            finally:
                steal = machine.steal_fraction(cpu0, machine.cpu_times())
                results.finish(run_doc, interrupted, steal, load0)
                store.update_run(run_doc)
    finally:
        for rt in live:
            rt.stop()
    run_doc, stored = store.load(run_doc["id"])
    return Outcome(run_doc, stored, sum(r["status"] == "failed" for r in stored))


def _progress(res: dict) -> str:
    head = f"{res['implementation']} {res['primitive']} {res['leak']['target']}"
    if res["status"] != "ok":
        return f"{head}: {res['status']} ({res['error']})"
    lk = res["leak"]
    return f"{head}: |t| = {abs(lk['t']):.1f} over {res['n_samples']}: {lk['verdict']}"
