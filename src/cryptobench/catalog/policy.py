"""The security policy of cryptobench's answers (catalog/policy.toml, docs/catalog.md "Policy"):
OWASP's password-storage minimums, how `calibrate` searches each primitive's cost, and what
`advise` may recommend for each use."""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import DataError, UsageError
from ..paths import project_root
from .primitives import FAMILIES, OPERATIONS, STATUSES, Catalog

SCALES = ("linear", "log2", "pow2")
RANKS = ("time", "order")
COSTS = ("first", "sum")  # a use's time: its first stored operation, or all its operations


@dataclass(frozen=True)
class Search:
    """How `calibrate` searches one primitive's cost parameter."""

    primitive: str
    param: str
    scale: str
    start: int
    memory: str  # a product of integers and parameter names, in bytes; "" = not memory-hard
    memory_param: str | None = None
    default_memory: int | None = None
    least: int | None = None  # the smallest value every implementation takes

    def memory_bytes(self, params: dict) -> int | None:
        if not self.memory:
            return None
        return math.prod(int(t) if t.isdigit() else int(params[t]) for t in self.memory.split("*"))


@dataclass(frozen=True)
class Use:
    name: str
    title: str
    families: tuple[str, ...]
    statuses: tuple[str, ...]
    operations: tuple[str, ...]
    rank: str
    order: tuple[str, ...] = ()
    exclude: dict = field(default_factory=dict)
    cost: str = "first"
    size: int | None = None  # the default --size (else advise's own default)
    security_bits: int | None = None  # compare only choices at this level (--security-bits)
    only: tuple[str, ...] = ()  # the primitives it may recommend (empty: its families' all)


@dataclass(frozen=True)
class Minimum:
    """OWASP's minimum for one primitive: equivalent settings, any of which suffices."""

    settings: tuple[dict, ...]
    source: str
    reviewed: str

    def met_by(self, params: dict) -> bool:
        return any(all(params.get(k, 0) >= v for k, v in s.items()) for s in self.settings)

    def text(self) -> str:
        return " or ".join(",".join(f"{k}={v}" for k, v in s.items()) for s in self.settings)


@dataclass
class Policy:
    searches: dict[str, Search]
    uses: dict[str, Use]
    minimums: dict[str, Minimum]
    owasp_source: str
    owasp_reviewed: str

    def search(self, pid: str) -> Search:
        if pid not in self.searches:
            raise UsageError(f"cannot calibrate {pid!r}; valid: {', '.join(sorted(self.searches))}")
        return self.searches[pid]

    def use(self, name: str) -> Use:
        if name not in self.uses:
            raise UsageError(f"unknown use {name!r}; valid: {', '.join(self.uses)}")
        return self.uses[name]

    def owasp(self, pid: str, params: dict) -> tuple[bool | None, str]:
        """(meets OWASP's minimum? None where OWASP lists none, why)."""
        m = self.minimums.get(pid)
        if m is None:
            return None, "OWASP lists no minimum for it"
        if m.met_by(params):
            return True, f"meets OWASP minimum ({m.text()})"
        return False, f"BELOW OWASP minimum ({m.text()}; {m.reviewed})"


def _check(where: str, values, allowed) -> tuple:
    bad = [v for v in values if v not in allowed]
    if bad:
        raise DataError(f"policy: {where}: {bad} not in {', '.join(allowed)}")
    return tuple(values)


def _search(pid: str, raw: dict, cat: Catalog) -> Search:
    prim = cat.primitives.get(pid)
    if prim is None or raw.get("param") not in prim.params:
        raise DataError(f"policy: calibrate.{pid}: unknown primitive or parameter")
    if raw.get("scale") not in SCALES:
        raise DataError(f"policy: calibrate.{pid}: scale must be one of {', '.join(SCALES)}")
    memory = str(raw.get("memory", ""))
    for term in filter(None, memory.split("*")):
        if not term.isdigit() and term not in prim.params:
            raise DataError(f"policy: calibrate.{pid}: memory term {term!r} is no parameter")
    return Search(
        pid,
        raw["param"],
        raw["scale"],
        int(raw["start"]),
        memory,
        raw.get("memory_param"),
        raw.get("default_memory"),
        raw.get("least"),
    )


def _use(name: str, raw: dict) -> Use:
    where = f"use.{name}"
    rank = raw.get("rank", "time")
    if rank not in RANKS:
        raise DataError(f"policy: {where}: rank must be one of {', '.join(RANKS)}")
    if raw.get("cost", "first") not in COSTS:
        raise DataError(f"policy: {where}: cost must be one of {', '.join(COSTS)}")
    return Use(
        name,
        raw.get("title", name),
        _check(where, raw.get("families", []), FAMILIES),
        _check(where, raw.get("statuses", []), STATUSES),
        _check(where, raw.get("operations", []), OPERATIONS),
        rank,
        tuple(raw.get("order", ())),
        dict(raw.get("exclude", {})),
        raw.get("cost", "first"),
        raw.get("size"),
        raw.get("security_bits"),
        tuple(raw.get("only", ())),
    )


def load(cat: Catalog, path: Path | None = None) -> Policy:
    path = path or project_root() / "catalog" / "policy.toml"
    try:
        with open(path, "rb") as fh:
            raw = tomllib.load(fh)
    except OSError as exc:
        raise DataError(f"cannot read policy {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"policy {path} is not valid TOML: {exc}") from None
    if raw.get("schema") != 1:
        raise DataError(f"policy {path}: unsupported schema {raw.get('schema')!r}")
    owasp = dict(raw.get("owasp", {}))
    source, reviewed = str(owasp.pop("source", "")), str(owasp.pop("reviewed", ""))
    minimums = {
        pid: Minimum(tuple(dict(s) for s in settings), source, reviewed)
        for pid, settings in owasp.items()
    }
    try:
        searches = {pid: _search(pid, r, cat) for pid, r in raw.get("calibrate", {}).items()}
    except (KeyError, TypeError, ValueError) as exc:
        raise DataError(f"policy {path}: calibrate: {exc}") from None
    uses = {name: _use(name, r) for name, r in raw.get("use", {}).items()}
    for use in uses.values():
        if unknown := [pid for pid in use.only if pid not in cat]:
            raise DataError(f"policy {path}: use.{use.name}: only: {unknown} not in the catalog")
    return Policy(searches, uses, minimums, source, reviewed)
