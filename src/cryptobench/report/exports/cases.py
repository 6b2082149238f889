"""What every export reads from a results document: the measured cases, one name per case,
and each case's rounds (docs/exports.md)."""

from __future__ import annotations

import json
from dataclasses import dataclass


@dataclass(frozen=True)
class Round:
    median_ns: float
    iterations: int  # operations timed in the round (kept batches × iterations per batch)


def measured(doc: dict) -> list[dict]:
    """The cases with a number: verified and measured (failed and skipped ones have none)."""
    return [r for r in doc["results"] if r.get("status") == "ok" and r.get("median_ns")]


def params_text(r: dict, sep: str = " ") -> str:
    """``aad_len=0 fresh_context=false``: the parameters in a stable order."""
    params = r.get("params") or {}
    return sep.join(f"{k}={scalar(v)}" for k, v in sorted(params.items()))


def scalar(value) -> str:
    text = json.dumps(value) if isinstance(value, bool | dict | list) else str(value)
    return "_".join(text.split())  # a name never holds whitespace


def cpu_off(r: dict) -> str:
    """``-sha,-aes`` for the CPU features switched off in the case's process ("" = none)."""
    return ",".join(f"-{f}" for f in r.get("cpu_features_off") or ())


def label(r: dict) -> str:
    """One readable name per case, unique in a run: implementation, primitive, operation,
    size, parameters, CPU features off: ``go/stdlib sha256 digest 1024B``."""
    parts = [r["implementation"], r["primitive"], r["operation"], f"{r['size']}B"]
    parts += [f"{k}={scalar(v)}" for k, v in sorted((r.get("params") or {}).items())]
    if cpu_off(r):
        parts.append(f"cpu={cpu_off(r)}")
    return " ".join(scalar(p) for p in parts)


def rounds(r: dict) -> list[Round]:
    """A case's rounds; a version-1 case (one round, no ``rounds``) is its own round."""
    entries = r.get("rounds") or []
    if entries:
        return [
            Round(e["median_ns"], max(1, int(e.get("iterations") or 1) * int(e["n_samples"] or 1)))
            for e in entries
            if e.get("median_ns")
        ]
    total = sum(int(s["iterations"]) for s in r.get("samples") or ())
    return [Round(r["median_ns"], max(1, total))]


def workers(r: dict) -> int:
    """How many processes or threads ran the case at once (1: alone)."""
    params = r.get("params") or {}
    return int(params.get("processes") or params.get("threads") or 1)


def per_byte(r: dict) -> bool:
    """A throughput makes sense: a message size, not a password length or the noop."""
    return r.get("throughput_mb_s") is not None and r.get("size", 0) > 0


def versions(doc: dict) -> list[tuple[str, str]]:
    """(runtime id, version) for every runtime of the run."""
    return [
        (str(rt.get("id") or rt.get("name")), str(rt.get("version")))
        for rt in doc["run"].get("runtimes") or ()
        if rt.get("version")
    ]


def one_line(value) -> str:
    """A value on one line: metadata and config formats refuse newlines."""
    return " ".join(str(value).split())
