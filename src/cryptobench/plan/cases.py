"""Presets and the plan: which cases a run measures, from a preset and the user's filters."""

from __future__ import annotations

import fnmatch
import json
import math
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..catalog.primitives import (
    OPERATIONS,
    UNSIZED_OPERATIONS,
    Catalog,
    Primitive,
)
from ..errors import DataError, UsageError
from ..paths import project_root
from ..runtimes import cpu_features
from ..runtimes.discovery import runtime_matches
from ..runtimes.protocol import Implementation

DEFAULT_SIZES = (16, 64, 256, 1024, 8192, 16384)
PASSWORD_SIZES = (8,)
MESSAGE_SIZES = (32,)  # sign/verify: a 32-byte message (a digest-sized payload, as a JWT's)


@dataclass
class Group:
    primitives: list[str]
    operations: list[str] | None = None  # None: every operation the primitive has
    sizes: list[int] | None = None
    params: dict = field(default_factory=dict)


@dataclass
class Preset:
    name: str
    description: str
    groups: list[Group]
    time_per_case: float | None = None
    precision: float | None = None
    cpu_features: list[tuple[str, ...]] = field(default_factory=list)  # feature sets to run
    exclude: list[str] = field(default_factory=list)  # globs as --exclude, left to another preset
    metric: str = "time"  # "instructions": each case is also counted under valgrind


def preset_dir() -> Path:
    return project_root() / "presets"


def preset_names() -> list[str]:
    return sorted(p.stem for p in preset_dir().glob("*.toml"))


def load_preset(name: str, catalog: Catalog | None = None) -> Preset:
    """A built-in preset by name, or the user's preset file (a path ending in .toml)."""
    from ..catalog import primitives as catalog_mod
    from . import presetfile

    cat = catalog or catalog_mod.load()
    if presetfile.is_file(name):
        raw = presetfile.read(Path(name), cat)
    else:
        path = preset_dir() / f"{name}.toml"
        if not path.exists():
            raise UsageError(
                f"unknown preset {name!r}; valid: {', '.join(preset_names())}, or a FILE.toml"
            )
        try:
            raw = presetfile.read(path, cat)
        except UsageError as exc:  # a built-in preset that breaks the schema is corrupt
            raise DataError(f"preset {exc}") from None
    groups = [Group(**g) for g in raw.pop("groups")]
    return Preset(groups=groups, **raw)


@dataclass(frozen=True)
class Case:
    impl: Implementation
    prim: Primitive
    operation: str
    size: int
    params: dict  # resolved: every parameter, sent to the runner
    cpu_off: tuple[str, ...] = ()  # --cpu-features: switched off in its runner process

    @property
    def key(self) -> tuple:
        return (
            self.impl.id,
            self.prim.id,
            self.operation,
            self.size,
            json.dumps(self.params, sort_keys=True),
            *self.cpu_off,
        )

    @property
    def runtime_key(self) -> str:
        return cpu_features.runtime_key(self.impl.runtime_id, self.cpu_off)


@dataclass
class Filters:
    runtimes: list[str] = field(default_factory=list)
    impls: list[str] = field(default_factory=list)
    primitives: list[str] = field(default_factory=list)
    operations: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    params: dict = field(default_factory=dict)


def parse_param(text: str) -> tuple[str, object]:
    """``K=V`` with V an int, a finite float, true/false, or a string (checked against the
    param's declared type later: Catalog.check_params)."""
    if "=" not in text:
        raise UsageError(f"--param expects K=V, got {text!r}")
    key, value = text.split("=", 1)
    low = value.lower()
    if low in ("true", "false"):
        return key, low == "true"
    for cast in (int, float):
        try:
            got = cast(value)
        except ValueError:
            continue
        if not math.isfinite(got):
            raise UsageError(f"--param {text!r}: {value} is not a finite number")
        return key, got
    return key, value


def validate_filters(
    f: Filters, catalog: Catalog, runtime_ids: list[str], impl_ids: list[str]
) -> None:
    for r in f.runtimes:
        if not any(runtime_matches(rid, r) for rid in runtime_ids):
            raise UsageError(f"unknown runtime {r!r}; valid: {', '.join(sorted(runtime_ids))}")
    for i in f.impls:
        if i not in impl_ids:
            raise UsageError(f"unknown implementation {i!r}; valid: {', '.join(sorted(impl_ids))}")
    for p in f.primitives:
        catalog.get(p)
    for op in f.operations:
        if op not in OPERATIONS:
            raise UsageError(f"unknown operation {op!r}; valid: {', '.join(OPERATIONS)}")
    for s in f.sizes:
        if s < 0 or s > 1 << 30:
            raise UsageError(f"size {s} out of range: sizes are 0..{1 << 30} bytes")
    known = {"fresh_context"} | {n for p in catalog for n in p.params}
    for k in f.params:
        if k not in known:
            raise UsageError(f"unknown param {k!r}; valid: {', '.join(sorted(known))}")
    catalog.check_params(f.params)


def _selected(impl: Implementation, f: Filters) -> bool:
    if f.runtimes and not any(runtime_matches(impl.runtime_id, r) for r in f.runtimes):
        return False
    return not f.impls or impl.id in f.impls


def _excluded(case_name: str, impl: Implementation, prim: str, f: Filters) -> bool:
    names = (impl.id, prim, f"{impl.id}:{prim}", case_name)
    return any(fnmatch.fnmatch(n, pat) for pat in f.exclude for n in names)


def excludes_runtime(runtime_id: str, f: Filters) -> bool:
    """Whether ``f``'s exclusions leave out every implementation ``runtime_id`` could host
    (a glob ending in ``*`` that matches ``runtime_id/``, as `java@25/*`), and no --impl names
    one of them: a run need not start that runtime at all."""
    if any(i.split("/")[0] == runtime_id for i in f.impls):
        return False
    whole = f"{runtime_id}/"
    return any(pat.endswith("*") and fnmatch.fnmatch(whole, pat) for pat in f.exclude)


def with_preset_exclusions(preset: Preset | None, f: Filters) -> Filters:
    """The preset's own exclusions added to the filters, unless implementations were named."""
    if preset is None or not preset.exclude or f.impls:
        return f
    return replace(f, exclude=[*f.exclude, *preset.exclude])


def selection_for(preset: Preset | None, f: Filters, catalog: Catalog) -> Preset | None:
    """Whose exclusions a run takes: its preset's; a question that names primitives but no
    preset, runtime or implementation takes `default`'s (the everyday selection: the variants
    and wrappers it leaves to `full`, each a fresh-JVM group per round), so `run --primitive
    sha256` asks the implementations a bare `run` asks; `--preset full`, `--runtime` or
    `--impl` asks the rest."""
    if preset is not None or f.runtimes or f.impls:
        return preset
    return load_preset("default", catalog)


def left_out(cases: list[Case], kept: list[Case]) -> list[str]:
    """The implementations of ``cases`` that the exclusions left with no case in ``kept``."""
    have = {c.impl.id for c in kept}
    return sorted({c.impl.id for c in cases} - have)


def groups_for(preset: Preset | None, f: Filters, catalog: Catalog) -> list[Group]:
    """The preset's groups narrowed by the filters, or ad-hoc groups from --primitive."""
    if preset is None:
        return [Group([p]) for p in f.primitives]
    groups = []
    for g in preset.groups:
        prims = [p for p in g.primitives if not f.primitives or p in f.primitives]
        if prims:
            groups.append(Group(prims, g.operations, g.sizes, dict(g.params)))
    return groups


def build(
    groups: list[Group], f: Filters, catalog: Catalog, impls: list[Implementation]
) -> tuple[list[Case], list[tuple[Case, str]]]:
    """Cases to measure, and cases shown as "not offered" (with the reason)."""
    cases, not_offered, seen = [], [], set()
    for g in groups:
        for pid in g.primitives:
            prim = catalog.get(pid)
            ops = [o for o in (g.operations or prim.operations) if o in prim.operations]
            ops = [o for o in ops if not f.operations or o in f.operations]
            for op in ops:
                sizes = sizes_for(prim, op, f.sizes or g.sizes)
                params = catalog.resolve_params(prim, {**g.params, **f.params}, op)
                for impl in impls:
                    if not _selected(impl, f) or not impl.offers(pid, op):
                        continue
                    if _excluded(f"{impl.id}:{pid}:{op}", impl, pid, f):
                        continue
                    for size in sizes:
                        case = Case(impl, prim, op, size, params)
                        if case.key in seen:
                            continue
                        seen.add(case.key)
                        offer = impl.primitives[pid]
                        if (
                            prim.symmetric_keyed(op)
                            and not params.get("fresh_context")
                            and not offer.reuses_key
                        ):
                            not_offered.append(
                                (
                                    case,
                                    "not offered: this API cannot reuse a "
                                    "key/context (measured with fresh_context=true)",
                                )
                            )
                            _add_fresh(case, cases, seen)
                        else:
                            cases.append(case)
    return cases, not_offered


def sizes_for(prim: Primitive, op: str, asked) -> list[int]:
    """The sizes of one primitive and operation: keygen and agree have no size axis (one case,
    size 0); sign and verify are sized by the message (32 B unless asked)."""
    if prim.is_pubkey and op in UNSIZED_OPERATIONS:
        return [0]
    if asked:
        return list(asked)
    if prim.is_pubkey:
        return list(MESSAGE_SIZES)
    return list(PASSWORD_SIZES if prim.is_slow else DEFAULT_SIZES)


def _add_fresh(case: Case, cases: list[Case], seen: set) -> None:
    """A library with no reusable key object is measured with key setup in every message, so
    the reused-key table shows its figure, marked (report/layout.py), instead of a gap."""
    fresh = Case(
        case.impl, case.prim, case.operation, case.size, {**case.params, "fresh_context": True}
    )
    if fresh.key not in seen:
        seen.add(fresh.key)
        cases.append(fresh)
