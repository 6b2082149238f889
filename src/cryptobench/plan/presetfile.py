"""A preset file, built in (presets/NAME.toml) or the user's own (--preset FILE.toml), read and
checked against the one preset schema; every error names the file and the line."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from ..catalog.primitives import OPERATIONS, Catalog
from ..catalog.sizes import parse_size
from ..errors import CryptobenchError, UsageError
from ..paths import MAX_PRESET_BYTES, NotReadable, read_text_limited
from ..runtimes import cpu_features

TOP = {
    "description": str,
    "time_per_case": (int, float),
    "precision": (int, float),
    "cpu_features": list,
    "exclude": list,
    "metric": str,
    "group": list,
}
METRICS = ("time", "instructions")  # --metric: instructions also counts each case (valgrind)
GROUP = {"primitives": list, "operations": list, "sizes": list, "params": dict}


class PresetError(UsageError):
    pass


def is_file(ref: str) -> bool:
    return ref.endswith(".toml") or "/" in ref


class _Lines:
    """Finds the line a key of the top level or of the i-th [[group]] is on (1-based)."""

    def __init__(self, text: str):
        self.lines = text.splitlines()
        self.groups = [n for n, s in enumerate(self.lines) if re.match(r"\s*\[\[\s*group\s*]]", s)]

    def of(self, key: str | None, group: int | None = None) -> int:
        if group is None:
            start, end = 0, (self.groups[0] if self.groups else len(self.lines))
        else:
            start = self.groups[group] if group < len(self.groups) else 0
            later = [g for g in self.groups if g > start]
            end = later[0] if later else len(self.lines)
        if key is None:
            return start + 1
        pat = re.compile(rf"\s*{re.escape(key)}\s*=")
        for n in range(start, end):
            if pat.match(self.lines[n]):
                return n + 1
        return start + 1


def read(path: Path, catalog: Catalog) -> dict:
    """The preset in ``path``, checked: {name, description, time_per_case, precision, groups:
    [{primitives, operations, sizes, params}]}; PresetError ("FILE:LINE: what is wrong")."""
    try:
        text = read_text_limited(path, MAX_PRESET_BYTES)
    except OSError as exc:
        raise UsageError(f"cannot read preset {path}: {exc.strerror}") from None
    except NotReadable as exc:
        raise UsageError(f"{exc}: a preset is a UTF-8 TOML file") from None
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        end = "end of document" in str(exc)
        line = getattr(exc, "lineno", None) or (
            len(text.splitlines()) if end else _line_in(str(exc))
        )
        raise PresetError(f"{path}:{line}: not valid TOML: {exc}") from None
    where = _Lines(text)

    def fail(msg: str, key: str | None, group: int | None = None):
        raise PresetError(f"{path}:{where.of(key, group)}: {msg}")

    _check_keys(raw, TOP, "the preset", lambda k, m: fail(m, k))
    groups = []
    for i, g in enumerate(raw.get("group", [])):
        if not isinstance(g, dict):
            fail("each [[group]] must be a table", "group")
        groups.append(_group(g, i, catalog, lambda m, k, i=i: fail(m, k, i)))
    if not groups:
        fail("a preset needs at least one [[group]] with primitives", None)
    try:
        sets = [cpu_features.parse(s) for s in raw.get("cpu_features", [])]
    except (UsageError, TypeError, AttributeError) as exc:
        fail(f"cpu_features: {exc}", "cpu_features")
    if raw.get("metric", "time") not in METRICS:
        fail(f"metric must be one of {', '.join(METRICS)}, not {raw['metric']!r}", "metric")
    for key, low, high in (("time_per_case", 0.01, 3600), ("precision", 0.0001, 0.5)):
        if key in raw and not low <= raw[key] <= high:
            fail(f"{key} must be between {low} and {high}, not {raw[key]}", key)
    return {
        "name": Path(path).stem,
        "description": raw.get("description", ""),
        "groups": groups,
        "time_per_case": raw.get("time_per_case"),
        "precision": raw.get("precision"),
        "cpu_features": sets,
        "exclude": [str(x) for x in raw.get("exclude", [])],
        "metric": raw.get("metric", "time"),
    }


def _check_keys(table: dict, schema: dict, what: str, fail) -> None:
    for key, value in table.items():
        if key not in schema:
            fail(key, f"unknown key {key!r} in {what}; valid: {', '.join(schema)}")
        if not isinstance(value, schema[key]) or isinstance(value, bool):
            kind = getattr(schema[key], "__name__", "number")
            fail(key, f"{key} must be a {kind if kind != 'dict' else 'table'}")


def _group(g: dict, i: int, catalog: Catalog, fail) -> dict:
    _check_keys(g, GROUP, f"group {i + 1}", lambda k, m: fail(m, k))
    if "primitives" not in g:
        fail(f"group {i + 1} has no primitives", None)
    for p in g["primitives"]:
        try:
            catalog.get(str(p))
        except CryptobenchError as exc:
            fail(str(exc), "primitives")
    for op in g.get("operations") or ():
        if op not in OPERATIONS:
            fail(f"unknown operation {op!r}; valid: {', '.join(OPERATIONS)}", "operations")
    sizes = []
    for s in g.get("sizes") or ():
        try:
            sizes.append(parse_size(s))
        except UsageError as exc:
            fail(str(exc), "sizes")
    known = {"fresh_context"} | {n for p in catalog for n in p.params}
    for k in g.get("params", {}):
        if k not in known:
            fail(f"unknown param {k!r}; valid: {', '.join(sorted(known))}", "params")
    try:
        catalog.check_params(g.get("params", {}))
    except UsageError as exc:
        fail(str(exc), "params")
    return {
        "primitives": [str(p) for p in g["primitives"]],
        "operations": g.get("operations"),
        "sizes": sizes or None,
        "params": dict(g.get("params", {})),
    }


def _line_in(message: str) -> str:
    found = re.search(r"line (\d+)", message)
    return found.group(1) if found else "?"
