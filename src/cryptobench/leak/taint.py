"""`cryptobench leak --taint`: the deterministic check beside the timing test
(docs/methodology.md, "Secret taint"). The target's runner runs under Valgrind's memcheck
(runtimes.valgrind, runtimes.memcheck); its `leak` request names the secret inputs in
``taint`` (the controls' ``a``, an AEAD's or a MAC's ``key``, a public-key target's
``private_key``), which the runner marks undefined before it sets the call up, then makes its
calls; every branch or memory index computed from them is reported with its symbol. Two
processes, one per class (the input wrong at its first / its last position), give each site's
counts: a site that runs more often in one of them stops where the input differs (an early
exit); one that runs as often in both does not depend on the position (an accept/reject
decision, a key schedule)."""

from __future__ import annotations

import base64
import tempfile
from dataclasses import asdict, replace
from pathlib import Path

from ..runtimes import cpu_features, memcheck, valgrind
from ..runtimes.protocol import RemoteError, RunnerFailure, RunnerProcess
from .targets import Target, Unverified, classes_for
from .want import Unprepared

SECRETS = {  # what the runner marks, per target family
    "control": ["a"],
    "aead": ["key"],
    "mac": ["key"],
    "kem": ["private_key"],
    "kex": ["private_key"],
    "signature": ["private_key"],
}
SLOWDOWN = 50  # memcheck's slowdown, for timeouts only
GRACE_S = 120.0  # memcheck writes the end of its XML when the process exits


def refused(t: Target) -> str | None:
    """Why this target gets no taint check, or None."""
    if not t.runtime.spec.leak_taint:
        return "not offered: no [leak] taint = true in runner.toml for this runtime"
    if t.family not in SECRETS:
        return "not offered: the encoded hash's public parameters are parsed with the secret"
    why = valgrind.missing()
    return f"not checked: {why}" if why else None


def _fields(t: Target, cl, wrong: dict) -> dict:
    """The leak request of one checked process: both classes the same (``wrong``), so the
    counts of its sites belong to that class alone."""
    fields = {
        "primitive": t.primitive,
        "operation": t.operation,
        "inputs": cl.shared,
        "classes": [wrong.inputs[0], wrong.inputs[0]],
        "params": t.params,
        "order": base64.b64encode(bytes([0])).decode(),  # one timed call besides the checks
        "taint": SECRETS[t.family],
    }
    return {**fields, "impl": t.impl.library} if t.impl else fields


def _run(t: Target, fields: dict, xml: Path, timeout: float) -> dict:
    rt = t.runtime
    argv, env = cpu_features.apply(
        rt.spec.command, dict(rt.spec.env), rt.spec.cpu_features, rt.features_off
    )
    argv = valgrind.wrap(argv, "memcheck", memcheck.options(xml))
    proc = RunnerProcess(argv, str(rt.spec.folder), env, f"{rt.id} under memcheck")
    try:
        proc.start(rt.spec.startup_timeout * SLOWDOWN / 10)
        got = proc.request("leak", timeout=timeout * SLOWDOWN, **fields)
    except (RunnerFailure, RemoteError):
        proc.kill()
        raise
    proc.close(grace=GRACE_S)
    return got


def _checked(t: Target, cl, wrong: dict, timeout: float):
    """One process under memcheck with class ``wrong``: (the inputs it marked, its sites,
    their counts); None when the runner marked nothing."""
    with tempfile.TemporaryDirectory(prefix="cryptobench-memcheck-") as out:
        xml = Path(out) / "memcheck.xml"
        got = _run(t, _fields(t, cl, wrong), xml, timeout)
        if not got.get("tainted"):
            return None
        text = xml.read_text(errors="replace")
        return got["tainted"], memcheck.sites(text), memcheck.site_counts(text)


def merged(runs: list[tuple[list, dict]]) -> list[dict]:
    """The sites of the two processes (first-position class, last-position class), each
    with ``counts``: how often it ran in each."""
    out: dict[tuple[str, str], dict] = {}
    for k, (found, counts) in enumerate(runs):
        for s in found:
            key = (s.kind, s.symbol)
            if key not in out:
                out[key] = {**asdict(s), "stack": list(s.stack), "counts": [0] * len(runs)}
            out[key]["counts"][k] = counts.get(key, 0)
    return list(out.values())


def describe(found: list[dict]) -> str:
    """memcheck.describe's sentence, each site followed by its counts: "(3× in both
    classes)", or "(3× vs 48×: depends on where the input differs)" — an early exit."""
    if not found:
        return "none found"
    parts = []
    for f in found:
        site = memcheck.Site(f["kind"], f["symbol"], f["obj"], f["where"], tuple(f["stack"]))
        a, b = f["counts"]
        how = f"{a}× in both classes" if a == b else f"{a}× vs {b}×: depends on where it differs"
        parts.append(f"{memcheck.describe([site])} ({how})")
    return "; ".join(parts)


def check(t: Target, cat, seed: int, timeout: float) -> dict:
    """The ``taint`` field of a leak case: ``status`` (ok, not offered, failed), ``text``
    ("secret-dependent branch at SYMBOL (counts); …" or "none found"), and when checked
    ``tainted`` (the inputs the runner marked) and ``found`` (each site: kind, symbol, obj,
    where, stack, counts: how often it ran with the first-position class, with the last)."""
    why = refused(t)
    if why:
        return {"status": "not offered", "text": why}
    try:
        cl = classes_for(t, cat, seed, timeout)  # sealed by the untainted process
        runs = [_checked(t, cl, wrong, timeout) for wrong in (cl.first, cl.last)]
    except RemoteError as exc:
        if exc.kind == "unsupported" and t.params.get("fresh_context") is False:
            return check(replace(t, params={**t.params, "fresh_context": True}), cat, seed, timeout)
        return {"status": "failed", "text": f"under memcheck: {exc.kind}: {exc.message}"}
    except Unprepared as exc:
        return {"status": "not offered", "text": f"cannot prepare: {exc}"}
    except (RunnerFailure, Unverified, ValueError, OSError) as exc:
        return {"status": "failed", "text": f"under memcheck: {exc}"}
    if None in runs:
        return {"status": "not offered", "text": "the runner marked nothing"}
    found = merged([(r[1], r[2]) for r in runs])
    return {"status": "ok", "text": describe(found), "tainted": runs[0][0], "found": found}
