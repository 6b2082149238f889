"""Instructions per operation (run --metric instructions; docs/methodology.md, "Instructions
per operation"): one row per counted case, the count beside the code path its instrumented
process reported, for every human-readable format (report/sections.py)."""

from __future__ import annotations

from .layout import impl_label

TITLE = (
    "instructions per operation (under valgrind: the code path it shows, not always the timed one)"
)
COLUMNS = ("case", "implementation", "instr/op", "instr/byte", "code path under valgrind")
NUMERIC = (False, False, True, True, False)


def counted(results: list[dict]) -> list[dict]:
    """The rows --metric instructions looked at (counted or not, with why)."""
    return [r for r in results if r.get("instructions") and r.get("operation") != "leak"]


def _case(r: dict) -> str:
    return f"{r['primitive']} {r['operation']} {r['size']} B"


def row(r: dict) -> tuple[str, str, tuple[str, float | None], tuple[str, float | None], str]:
    """(case, implementation, (text, value) per op, (text, value) per byte, path or why)."""
    got = r["instructions"]
    per_op = r.get("instructions_per_op")
    if per_op is None:
        return (
            _case(r),
            impl_label(r),
            (got.get("status", "?"), None),
            ("", None),
            got.get("detail", ""),
        )
    per_byte = r.get("instructions_per_byte")
    byte_cell = (f"{per_byte:,.2f}", per_byte) if per_byte is not None else ("", None)
    return (
        _case(r),
        impl_label(r),
        (f"{per_op:,.0f}", per_op),
        byte_cell,
        "(the runner's loop)" if r.get("family") == "noop" else got.get("code_path") or "?",
    )


def notes(rows: list[dict]) -> list[str]:
    """The CPU features each runtime saw under valgrind (its own CPUID), once per runtime."""
    seen: dict[str, str] = {}
    for r in rows:
        feats = (r.get("instructions") or {}).get("cpu_features")
        if feats is not None and r["runtime"] not in seen:
            seen[r["runtime"]] = " ".join(feats) or "none"
    if not seen:
        return []
    return [
        "CPU features detected under valgrind: " + "; ".join(f"{k}: {v}" for k, v in seen.items())
    ]
