"""CSV, one row per case. Cells a spreadsheet would run as a formula are neutralised. The
size columns (report.keysizes.CSV_COLUMNS) come last, so the older columns keep their places;
they are empty for the families without sizes."""

from __future__ import annotations

import csv as _csv
import io
import json

from . import keysizes

COLUMNS = (
    "runtime",
    "implementation",
    "library_version",
    "backend",
    "primitive",
    "family",
    "operation",
    "size",
    "params",
    "status",
    "error",
    "median_ns",
    "ci_low_ns",
    "ci_high_ns",
    "precision",
    "throughput_mb_s",
    "cycles_per_byte",
    "n_samples",
    "warmup_ns",
    "security_status",
    "cpu_features_off",
)


def safe(value) -> str:
    """OWASP CSV injection: a leading = + - @ tab or CR gets a quote prefix."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        value = " ".join(map(str, value))
    if isinstance(value, dict):
        value = json.dumps(value, sort_keys=True)
    text = str(value)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return text
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def render(doc: dict, opts=None, **_) -> str:
    buf = io.StringIO()
    writer = _csv.writer(buf, lineterminator="\n")
    writer.writerow(COLUMNS + keysizes.CSV_COLUMNS)
    for r in doc["results"]:
        sizes = keysizes.sizes(r) or {}
        writer.writerow(
            [safe(r.get(c)) for c in COLUMNS] + [safe(sizes.get(c)) for c in keysizes.CSV_COLUMNS]
        )
    return buf.getvalue()
