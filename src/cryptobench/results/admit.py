"""What `import` lets into a store: only runs and rows the tool itself could have written. The
results schema checks the shape; this checks the content against the catalog and the naming
rules (a primitive not in the catalog, a run name or machine label no command accepts,
markup or control characters in an identifier), and says which run or row it refused."""

from __future__ import annotations

import math
import re

from ..catalog.primitives import OPERATIONS, Catalog
from ..errors import UsageError
from .identity import check_label

NAME_RE = re.compile(r"[A-Za-z0-9._-]{1,64}")  # cli.common.validate_name's rule
ID_RE = re.compile(r"[A-Za-z0-9@._+/-]{1,128}")  # runtime and implementation ids
# text fields and the longest each may be (a code path lists every switch a library read:
# Botan's is over 300 characters)
TEXT_FIELDS = {"library": 200, "library_version": 200, "backend": 200, "code_path": 2000}
LEAK_CONTROLS = ("equal", "equal-ct")  # leak.targets.CONTROLS: the rows of `leak`'s controls
NUMBERS = ("median_ns", "ci_low_ns", "ci_high_ns", "precision", "throughput_mb_s", "ops_per_s")


def run_problem(doc: dict) -> str | None:
    """Why a whole run is refused (its name or machine label), else None."""
    name = doc["run"].get("name")
    if name is not None and (
        not NAME_RE.fullmatch(str(name)) or name == "last" or re.fullmatch(r"[0-9a-f-]+", name)
    ):
        return f"run name {name!r} breaks the naming rule (1–64 letters, digits, '.', '_', '-')"
    label = (doc.get("machine") or {}).get("label")
    if label is not None:
        try:
            check_label(str(label), "machine label")
        except UsageError as exc:
            return str(exc)
    return None


def _plain(text, longest: int = 200) -> bool:
    return text is None or (
        isinstance(text, str)
        and len(text) <= longest
        and text.isprintable()
        and not set("<>") & set(text)
    )


def row_problem(row: dict, cat: Catalog) -> str | None:
    """Why one case row is refused, else None."""
    for key in ("runtime", "implementation"):
        if not ID_RE.fullmatch(str(row.get(key))):
            return f"{key} {str(row.get(key))[:40]!r} is not an id the tool writes"
    bad = next((k for k, n in TEXT_FIELDS.items() if not _plain(row.get(k), n)), None)
    if bad:
        return f"{bad} holds markup or control characters, or is over {TEXT_FIELDS[bad]} long"
    prim, op, family = row.get("primitive"), row.get("operation"), row.get("family")
    if family == "noop":
        ok = prim == "noop"
    elif family == "control":
        ok = prim in LEAK_CONTROLS and op == "leak"
    elif prim in cat:
        p = cat.get(prim)
        ok = family == p.family and (op in p.operations or op == "leak")
    else:
        return f"primitive {str(prim)[:40]!r} is not in the catalog"
    if not ok or (op not in OPERATIONS and op != "leak"):
        return f"{prim} {family} {op}: not a primitive, family and operation of the catalog"
    nums = [row.get(k) for k in NUMBERS]
    if any(isinstance(v, float) and not math.isfinite(v) for v in nums):
        return "a figure is NaN or infinite"
    return None


def admit(doc: dict, cat: Catalog) -> tuple[dict | None, list[str]]:
    """(the document with only the rows the tool could have written, or None when the whole
    run is refused; one line per refusal)."""
    rid = str(doc["run"].get("id", "?"))[:8]
    why = run_problem(doc)
    if why:
        return None, [f"refused run {rid}: {why}"]
    kept, refused = [], []
    for i, row in enumerate(doc["results"]):
        why = row_problem(row, cat)
        if why:
            refused.append(f"refused row {i} of run {rid}: {why}")
        else:
            kept.append(row)
    return {**doc, "results": kept}, refused
