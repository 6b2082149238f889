"""`cryptobench leak`: a dudect-style paired timing-leakage check (docs/methodology.md,
"Timing leakage"). Plan the targets per runtime (the two controls, AEAD `open` and MAC `verify`
with a bad tag, password `verify` with a wrong password, ML-KEM `decaps`, key agreement and
signing with the private key as the secret), measure each in replicates (a fresh runner process
and fresh inputs each, the classes' roles swapped in one, an A/A pair beside the target's
classes) through the runners' `leak` requests (docs/protocol.md), give the replicated verdict
(stats.leak) and store every case."""

from __future__ import annotations

import base64
import hashlib
import math
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
from rich.console import Console

from ..catalog import primitives as catalog_mod
from ..errors import UsageError
from ..results import document as results
from ..run.lifecycle import Lifecycle, document, stopping
from ..runtimes.protocol import RemoteError, RunnerFailure
from ..runtimes.session import open_runtimes
from ..stats.leak import (
    EDGE_REPLICATES,
    METHOD,
    block_ids,
    effect,
    leak_test,
    replicated_verdict,
    undecided,
    unsteady,
)
from . import taint
from .targets import (
    BUDGETED,
    PROBE,
    Side,
    Target,
    Unverified,
    budgeted_count,
    classes_for,
    plan_targets,
)
from .want import Unprepared

# Each case is sent as BLOCKS requests (fewer when short: at least BLOCK_MIN measurements
# each); every request prepares its calls afresh, so their placement in memory changes from
# block to block, and the test's unit is the block (stats.leak). Alternate requests swap
# which prepared call serves which class.
BLOCKS = 64
BLOCK_MIN = 60
NO_POWER = "no verdict: the early-exit control was not detected in this runtime (no power here)"
NO_CONTROL = "no verdict: the early-exit control did not run in this runtime"
DEFAULT_MEASUREMENTS = 50_000  # per measurement; a case takes 2 × (target + A/A) of them
# an unsteady process's measurement again: replicate AGAIN + i in place of replicate i (the same
# role orientation, AGAIN being even; inputs of their own, after the budget probe's draw)
AGAIN = EDGE_REPLICATES + 2


@dataclass
class LeakRequest:
    command: str
    db: Path
    runtimes: list[str] = field(default_factory=list)
    impls: list[str] = field(default_factory=list)
    primitives: list[str] = field(default_factory=list)
    measurements: int = DEFAULT_MEASUREMENTS
    control_bytes: int | None = None  # None: the runtime's runner.toml [leak], else 1024
    seed: int = 0
    timeout: float = 120.0
    wait: bool = False
    taint: bool = False  # also the secret-taint check under memcheck (leak/taint.py)


def _seeded(seed: int, label: str) -> np.random.Generator:
    """A generator drawn from the run's seed and a label (the case, the measurement)."""
    digest = hashlib.sha256(f"{seed}:{label}".encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "big"))


def order(seed: int, label: str, n: int) -> bytes:
    """The classes' interleaving (0 = A, 1 = B): random, from the run's seed and the case."""
    return _seeded(seed, label).integers(0, 2, n, dtype=np.uint8).tobytes()


def swaps(seed: int, label: str, blocks: int) -> list[bool]:
    """Which blocks give class B's inputs to the runner's first prepared call: half of them,
    at random from the run's seed. Not every other block: the C runner's allocator places a
    request's two calls in two layouts that alternate between requests, and an alternating
    swap turned that into a steady class difference (docs/methodology.md, "Measurement")."""
    return _seeded(seed, f"{label}:swap").permutation(np.arange(blocks) % 2 == 1).tolist()


def decode_ns(text: str, n: int) -> np.ndarray:
    """The runner's ``ns``: base64 of little-endian uint32, one per measurement."""
    try:
        raw = base64.b64decode(text, validate=True)
    except (ValueError, TypeError):
        raise RunnerFailure("protocol", "leak: ns is not base64") from None
    if len(raw) != 4 * n:
        raise RunnerFailure("protocol", f"leak: {len(raw) // 4} measurements for {n} asked")
    return np.frombuffer(raw, dtype="<u4").astype(float)


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
        "leak": {"target": t.name, "measurements": t.measurements},
    }


def blocks_for(n: int) -> int:
    return max(1, min(BLOCKS, n // BLOCK_MIN))


def _spans(blocks: np.ndarray) -> list[tuple[int, int]]:
    """(start, end) of each block's contiguous run of measurements."""
    edges = np.flatnonzero(np.diff(blocks)) + 1
    cuts = [0, *edges.tolist(), len(blocks)]
    return list(zip(cuts[:-1], cuts[1:], strict=True))


def _chunk(t: Target, req, shared, classes, seq: bytes, swap: bool, want):
    """One leak request over a slice of the order. ``swap``: the runner's first prepared
    call gets class B's inputs, so which of its two set-ups (key schedule, buffers, their
    addresses) serves a class is random over the requests and cancels out of the test.
    ``want``: what each class's untimed call must answer (targets.Want)."""
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
    outcomes, want = got.get("outcomes"), want[::-1] if swap else want
    if not isinstance(outcomes, list) or len(outcomes) != 2:
        raise Unverified(f"classes gave {outcomes!r}, not two outcomes")
    if not all(w.ok(o) for w, o in zip(want, outcomes, strict=True)):
        raise Unverified(f"classes gave {outcomes!r}, not {[str(w) for w in want]!r}")
    return decode_ns(got.get("ns", ""), len(seq)), str(got.get("clock", ""))


CLASSES = {
    "control": "differ at byte 0 / at the last byte",
    "aead": "wrong first / last byte of the tag",
    "mac": "wrong first / last byte of the tag",
    "password-hash": "password wrong in its first / last character",
    "fixed-random": "the ciphertext of the all-zero message / a fresh valid one per block",
    "valid-rejected": "a valid ciphertext / the same with its first bit flipped (rejected)",
    "kex": "a fixed low-weight private key / a fresh random one per block",
    "signature": "a fixed private key / a fresh random one per block",
}
AA_CLASSES = "both wrong at the same position (first, then last) by two different random values"
AA_KEYED = {
    "fixed-random": "two classes of fresh valid ciphertexts",
    "valid-rejected": "two valid ciphertexts, then the same one flipped by two different masks",
    "kex": "two classes of fresh random private keys",
    "signature": "two classes of fresh random private keys",
}


@dataclass
class Measured:
    """One measurement (one class pair, its blocks): times, classes, block ids, clock."""

    ns: np.ndarray
    classes: np.ndarray
    blocks: np.ndarray
    clock: str


def _measurement(t: Target, req: LeakRequest, shared, pair: tuple[Side, Side], label: str):
    """One measurement of the class pair (class 0, class 1), block by block (each block's
    own inputs where a class is drawn afresh per block)."""
    name = f"{t.impl_id}:{t.primitive}:{t.name}{label}"
    seq = order(req.seed, name, t.measurements)
    blocks = block_ids(t.measurements, blocks_for(t.measurements))
    spans = _spans(blocks)
    swapped = swaps(req.seed, name, len(spans))
    parts = []
    for k, (k0, k1) in enumerate(spans):
        (in0, w0), (in1, w1) = pair[0].at(k), pair[1].at(k)
        parts.append(_chunk(t, req, shared, [in0, in1], seq[k0:k1], swapped[k], [w0, w1]))
    ns = np.concatenate([p[0] for p in parts])
    return Measured(ns, np.frombuffer(seq, dtype=np.uint8), blocks, parts[0][1])


def _replicate(t: Target, cat, req: LeakRequest, rep: int):
    """Replicate ``rep`` in a fresh runner process with fresh inputs: the target's two classes
    (their roles swapped in odd replicates), then its A/A pair. (target measurement, its
    oriented effect, the A/A effect, what the classes were checked to answer)."""
    t.runtime.stop()  # the next request starts a fresh process
    cl = classes_for(t, cat, req.seed, req.timeout, rep, blocks_for(t.measurements))
    sign = 1 if rep % 2 == 0 else -1
    pair = (cl.first, cl.last) if sign > 0 else (cl.last, cl.first)
    label = "" if rep == 0 else f":{rep}"  # replicate 0 keeps the order of earlier versions
    m = _measurement(t, req, cl.shared, pair, label)
    ab = effect(m.ns, m.classes, m.blocks, sign)
    a = _measurement(t, req, cl.shared, cl.aa, f":{rep}:aa")
    return m, ab, effect(a.ns, a.classes, a.blocks, sign), cl.verification


def _budgeted(t: Target, cat, req: LeakRequest) -> tuple[Target, float | None]:
    """A public-key target sized by its time budget (targets.budgeted_count): the median of
    PROBE calls of its two classes, on inputs of their own (drawn as a replicate after the
    last a target may take), in a fresh process; (the sized target, the probed ns per call)."""
    if t.operation not in BUDGETED:
        return t, None
    t.runtime.stop()
    cl = classes_for(t, cat, req.seed, req.timeout, max(t.replicates, EDGE_REPLICATES), 1)
    (in0, w0), (in1, w1) = cl.first.at(0), cl.last.at(0)
    seq = order(req.seed, f"{t.impl_id}:{t.primitive}:{t.name}:probe", PROBE)
    ns, _ = _chunk(t, req, cl.shared, [in0, in1], seq, False, [w0, w1])
    call_ns = float(np.median(ns))
    n = budgeted_count(req.measurements, t.operation, call_ns)
    return replace(t, measurements=n), call_ns


def _num(x: float) -> float | None:
    """JSON has no NaN or infinity: null."""
    return float(x) if math.isfinite(x) else None


def _effect_dict(e) -> dict:
    """One measurement's effect and its blocks' differences (oriented like it: a stored run
    can be decided again from them)."""
    return {
        "diff_ns": _num(e.diff_ns),
        "low_ns": _num(e.low_ns),
        "high_ns": _num(e.high_ns),
        "p": e.p,
        "n_a": e.n_a,
        "n_b": e.n_b,
        "blocks": e.blocks,
        "median_ns": _num(e.median_ns),
        "block_diffs_ns": [_num(x) for x in e.diffs],
    }


def _record(test, v, reps, aas, first: Measured, replaced: list[dict]) -> dict:
    """The case's ``leak`` fields: the verdict and its effect, each measurement's effect, and
    dudect's tests on the first replicate (for the |t| curve)."""
    e = v.effect
    return {
        "verdict": v.verdict,
        "summary": v.summary,
        "diff_ns": _num(e.diff_ns),
        "diff_low_ns": _num(e.low_ns),
        "diff_high_ns": _num(e.high_ns),
        "fraction": _num(v.fraction),
        "floor_ns": _num(v.floor_ns),
        "detectable_ns": _num(v.detectable_ns),
        "aa_flagged": v.aa_flagged,
        "method": METHOD,
        "replicates": [_effect_dict(r) for r in reps],
        "aa": [_effect_dict(a) for a in aas],
        "replaced": replaced,
        "t": test.t,
        "test": test.test,
        "p_holm": test.p_holm,
        "n_a": test.n_a,
        "n_b": test.n_b,
        "median_a_ns": test.median_a,
        "median_b_ns": test.median_b,
        "distinct": test.distinct,
        "curve": test.curve,
        "blocks": test.blocks,
        "clock": first.clock,
    }


def _measure_replicates(t: Target, cat, req: LeakRequest):
    """The target's replicates, and more (up to EDGE_REPLICATES) while the first leave the
    verdict undecided (stats.leak.undecided); then an unsteady process's measured again."""
    out = [_replicate(t, cat, req, rep) for rep in range(t.replicates)]
    reps, aas, v = _decided(out)
    if undecided(reps, v):
        out += [_replicate(t, cat, req, rep) for rep in range(len(out), EDGE_REPLICATES)]
        reps, aas, v = _decided(out)
    replaced = _measure_unsteady_again(t, cat, req, out, reps, aas)
    if replaced:
        reps, aas, v = _decided(out)
    first = out[0][0]
    test = leak_test(first.ns, first.classes, first.blocks)
    return _record(test, v, reps, aas, first, replaced), out[0][3]


def _decided(out: list) -> tuple[list, list, object]:
    """The replicates' target effects, their A/A effects and the verdict on them."""
    reps, aas = [o[1] for o in out], [o[2] for o in out]
    return reps, aas, replicated_verdict(reps, aas)


def _measure_unsteady_again(t: Target, cat, req: LeakRequest, out: list, reps, aas) -> list[dict]:
    """Each unsteady process (stats.leak.unsteady: three or more) measured once more in a
    fresh one, in its place in ``out`` (``reps``, ``aas``: its effects, from ``_decided``);
    what the record keeps of each replaced one, and why."""
    replaced = []
    for i, (ratio, which) in unsteady(reps, aas).items():
        why = (
            f"process {i + 1}'s {which} blocks scattered {ratio:.0f}x the other processes' "
            "(standard error over their median): measured again in a fresh process"
        )
        old = {"target": _effect_dict(reps[i]), "aa": _effect_dict(aas[i])}
        replaced.append({"replicate": i, "why": why, **old})
        out[i] = _replicate(t, cat, req, AGAIN + i)
    return replaced


def measure(t: Target, cat, req: LeakRequest) -> dict:
    """One target: its replicates (each: fresh process and inputs, the target's classes
    then their A/A pair), the verdict (stats.leak.replicated_verdict) and dudect's tests."""
    res = _case(t, req)
    try:
        t, probe_ns = _budgeted(t, cat, req)
        record, outcome = _measure_replicates(t, cat, req)
    except RemoteError as exc:
        if exc.kind == "unsupported" and t.params.get("fresh_context") is False:
            # an API that refuses to reuse its key for this operation: fresh contexts
            return measure(replace(t, params={**t.params, "fresh_context": True}), cat, req)
        status = "skipped" if exc.kind == "unsupported" else "failed"
        return {**res, "status": status, "error": f"{exc.kind}: {exc.message}"}
    except RunnerFailure as exc:
        return {**res, "status": "failed", "error": str(exc)}
    except Unverified as exc:
        return {**res, "status": "failed", "error": f"not verified: {exc}"}
    except Unprepared as exc:
        return {**res, "status": "skipped", "error": f"unsupported: cannot prepare: {exc}"}
    key = t.kind or t.family
    aa = AA_KEYED.get(key, AA_CLASSES)
    res["leak"].update(record, classes=CLASSES[key], aa_classes=aa, measurements=t.measurements)
    if probe_ns is not None:
        res["leak"]["probe_ns"] = probe_ns  # the call's cost that sized the measurements
    med = record["replicates"][0]["median_ns"] or 0.0
    return {
        **res,
        "status": "ok",
        "verified": True,
        "verification": f"both classes and the A/A pair: {outcome}",
        "median_ns": med,
        "ci_low_ns": med,
        "ci_high_ns": med,
        "n_samples": t.measurements * len(record["replicates"]),
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
                if "summary" in c["leak"]:
                    c["leak"]["summary_before_gate"] = c["leak"]["summary"]
                    c["leak"]["summary"] = c["leak"]["verdict"]
            elif ctl.get("equal-ct") == "leak":
                c["flags"].append(
                    "the constant-time control was flagged too: a leak here may not be the call's"
                )


@dataclass
class Outcome:
    run: dict
    results: list[dict]
    failures: int


def _start(req: LeakRequest, live, skipped, cat, console: Console):
    """Check the selection and plan the targets (UsageError when nothing fits)."""
    known = [i.id for rt in live for i in rt.implementations]
    for i in req.impls:
        if i not in known:
            raise UsageError(f"unknown implementation {i!r}; valid: {', '.join(known)}")
    for rid, why in skipped:
        console.print(f"skipped {rid}: {why}", markup=False)
    targets = plan_targets(live, cat, req)
    if not any(t.impl for t in targets) and (req.impls or req.primitives):
        raise UsageError("nothing to check: no selected implementation offers a leak target")
    return targets


def _measure_all(targets, cat, req: LeakRequest, store, run_doc: dict, console) -> None:
    """Every target in order, gated and stored as it finishes."""
    cases = []
    for seq, t in enumerate(targets):
        res = measure(t, cat, req)
        if req.taint and res["status"] == "ok":
            res["leak"]["taint"] = taint.check(t, cat, req.seed, req.timeout)
        cases.append(res)
        gate(cases)  # controls come first in each runtime
        store.put_case(run_doc["id"], seq, res)
        console.print(_progress(res), markup=False)


def run(req: LeakRequest, console: Console) -> Outcome:
    cat = catalog_mod.load()
    for p in req.primitives:
        cat.get(p)  # unknown → UsageError listing the valid ids
    # Ctrl-C: the run is closed "interrupted" and the command ends (no document shown)
    life = Lifecycle(req.db, console, wait=req.wait, keep_interrupted=False)
    live, skipped = open_runtimes(req.runtimes, req.impls, only_needed=True)
    with stopping(lambda: live):
        targets = _start(req, live, skipped, cat, console)
        with life:
            settings = {"measurements": req.measurements, "operation": "leak"}
            run_doc = life.begin(
                document(req.command, None, req.seed, settings, live, skipped),
                lambda doc: console.print(
                    f"leak run {doc['id'][:8]}: {len(targets)} cases; results in {life.store.path}",
                    markup=False,
                ),
            )
            _measure_all(targets, cat, req, life.store, run_doc, console)
    run_doc, stored = life.store.load(run_doc["id"])
    return Outcome(run_doc, stored, sum(r["status"] == "failed" for r in stored))


def _progress(res: dict) -> str:
    head = f"{res['implementation']} {res['primitive']} {res['leak']['target']}"
    if res["status"] != "ok":
        return f"{head}: {res['status']} ({res['error']})"
    lk = res["leak"]
    return f"{head} ({res['n_samples']} measurements): {lk.get('summary') or lk['verdict']}"
