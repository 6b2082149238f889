"""CSV, one row per case. Cells a spreadsheet would run as a formula are neutralised."""

from __future__ import annotations

import csv as _csv
import io
import json

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
    writer.writerow(COLUMNS)
    for r in doc["results"]:
        writer.writerow([safe(r.get(c)) for c in COLUMNS])
    return buf.getvalue()
