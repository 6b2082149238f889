"""Results documents for the export tests, built through the real results functions
(results.document.measured, round entries as the pipeline stores them): synthetic and
deterministic, with as many rounds per case as asked. Times are invented; the tests check
what other tools conclude from them, never a speed."""

from __future__ import annotations

import numpy as np

from cryptobench.catalog import primitives as catalog
from cryptobench.plan.cases import Case
from cryptobench.results import document as results
from cryptobench.runtimes.protocol import Implementation, Offer
from tests.fakes.advise_fixture import round_entry

RUN_ID = "0e0e0e0e-0000-4000-8000-0000000000e1"

# (implementation, primitive, operation, size, params, median ns)
CASES = [
    ("go/stdlib", "sha256", "digest", 64, {}, 180.0),
    ("go/stdlib", "sha256", "digest", 1024, {}, 550.0),
    ("rust/ring", "aes-128-gcm", "seal", 1024, {"fresh_context": False}, 420.0),
    ("go/x-crypto", "argon2id", "hash", 8, None, 31e6),
]
PLANTED = ("go/stdlib", "sha256", "digest", 1024)  # the case a test slows down 2×
EXAMPLE = [CASES[1]]  # docs/exports.md: one case


def implementation(impl_id: str) -> Implementation:
    runtime, library = impl_id.split("/")
    prims = {c[1]: Offer((c[2],), True) for c in CASES if c[0] == impl_id}
    return Implementation(
        impl_id, runtime, library, "1.0", {"name": library, "version": "1.0"}, prims, ""
    )


def round_entries(rng, median: float, n: int, noise: float) -> list[dict]:
    """``n`` rounds, each with its own offset (sd ``noise``) and five batches around it."""
    return [round_entry(r, median * (1 + d)) for r, d in enumerate(rng.normal(0.0, noise, n), 1)]


def make_doc(
    rounds: int = 6,
    seed: int = 1,
    slow: dict | None = None,
    cases=CASES,
    noise: float = 0.01,
    run_id: str = RUN_ID,
) -> dict:
    """A schema-valid run; ``slow`` maps (impl, primitive, operation, size) to a factor."""
    cat = catalog.load()
    rng = np.random.default_rng(seed)
    ctx = {"tsc_hz": 3e9, "errors": []}
    rows = []
    for impl_id, pid, op, size, params, median in cases:
        factor = (slow or {}).get((impl_id, pid, op, size), 1.0)
        prim = cat.get(pid)
        case = Case(
            implementation(impl_id), prim, op, size, cat.resolve_params(prim, params or {}, op)
        )
        rows.append(
            results.measured(
                case, round_entries(rng, median * factor, rounds, noise), rounds, "fixture", ctx
            )
        )
    if cases is CASES:
        impl = implementation("go/stdlib")
        noop = Case(impl, catalog.NOOP, "digest", catalog.NOOP_SIZE, {})
        rows.append(
            results.as_noop(
                results.measured(
                    noop, round_entries(rng, 9.0, rounds, noise), rounds, "returns its length", ctx
                ),
                "go",
            )
        )
        sha = cat.get("sha256")
        rows.append(results.failed(Case(impl, sha, "digest", 16, {}), "wrong output"))
    run = {
        "id": run_id,
        "started": "2026-11-25T01:00:00+00:00",
        "ended": "2026-11-25T01:10:00+00:00",
        "status": "complete",
        "command": f"cryptobench run --rounds {rounds} (synthetic: tests/fakes/export_docs.py)",
        "preset": None,
        "seed": seed,
        "git_commit": None,
        "settings": {"precision": 0.01, "time_per_case": 1.0, "rounds": rounds, "pin": None},
        "runtimes": [
            {"id": "go", "name": "go", "version": "go1.26.8"},
            {"id": "rust", "name": "rust", "version": "1.91.0"},
        ],
        "implementations": [
            results.implementation_dict(implementation(i))
            for i in dict.fromkeys(c[0] for c in cases)
        ],
        "skipped": [],
        "probes": [],
        "machine": {
            "cpu_model": "synthetic x86-64 CPU @ 3.00GHz",
            "cpu_flags": {"aes": True},
            "cores": 2,
            "arch": "x86_64",
            "os": "Debian GNU/Linux 12",
            "kernel": "6.1.0",
            "hostname": "bench-1",
            "tsc_hz": 3e9,
        },
    }
    return results.document(run, rows)
