"""`cryptobench leak --taint`: the deterministic check beside the timing test
(docs/methodology.md, "Secret taint"). The target's runner runs under Valgrind's memcheck
(runtimes.valgrind, runtimes.memcheck); its `leak` request names the secret inputs in
``taint`` (the controls' ``a``, an AEAD's ``key``), which the runner marks undefined before it
sets the call up, then makes each class's call once; every branch or memory index computed
from them is reported with its symbol."""

from __future__ import annotations

import base64
import tempfile
from dataclasses import asdict, replace
from pathlib import Path

from ..runtimes import cpu_features, memcheck, valgrind
from ..runtimes.protocol import RemoteError, RunnerFailure, RunnerProcess
from .targets import Target, Unverified, classes_for

SECRETS = {"control": ["a"], "aead": ["key"]}  # what the runner marks, per target family
SLOWDOWN = 50  # memcheck's slowdown, for timeouts only
GRACE_S = 120.0  # memcheck writes the end of its XML when the process exits


def refused(t: Target) -> str | None:
    """Why this target gets no taint check, or None."""
    if not t.runtime.spec.leak_taint:
        return "not offered: this runner does not mark secrets for memcheck"
    if t.family not in SECRETS:
        return "not offered: the encoded hash's public parameters are parsed with the secret"
    why = valgrind.missing()
    return f"not checked: {why}" if why else None


def _fields(t: Target, cl) -> dict:
    fields = {
        "primitive": t.primitive,
        "operation": t.operation,
        "inputs": cl.shared,
        "classes": [cl.first, cl.last],
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


def check(t: Target, cat, seed: int, timeout: float) -> dict:
    """The ``taint`` field of a leak case: ``status`` (ok, not offered, failed), ``text``
    ("secret-dependent branch at SYMBOL; …" or "none found"), and when checked ``tainted``
    (the inputs the runner marked) and ``found`` (each site: kind, symbol, obj, where,
    stack)."""
    why = refused(t)
    if why:
        return {"status": "not offered", "text": why}
    try:
        cl = classes_for(t, cat, seed, timeout)  # sealed by the untainted process
        with tempfile.TemporaryDirectory(prefix="cryptobench-memcheck-") as out:
            xml = Path(out) / "memcheck.xml"
            got = _run(t, _fields(t, cl), xml, timeout)
            if not got.get("tainted"):
                return {"status": "not offered", "text": "the runner marked nothing"}
            found = memcheck.sites(xml.read_text(errors="replace"))
    except RemoteError as exc:
        if exc.kind == "unsupported" and t.params.get("fresh_context") is False:
            return check(replace(t, params={**t.params, "fresh_context": True}), cat, seed, timeout)
        return {"status": "failed", "text": f"under memcheck: {exc.kind}: {exc.message}"}
    except (RunnerFailure, Unverified, ValueError, OSError) as exc:
        return {"status": "failed", "text": f"under memcheck: {exc}"}
    return {
        "status": "ok",
        "text": memcheck.describe(found),
        "tainted": got["tainted"],
        "found": [{**asdict(s), "stack": list(s.stack)} for s in found],
    }
