"""The catalog: one validated entry per primitive (catalog/catalog.toml, docs/catalog.md)."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import DataError, UsageError
from ..paths import project_root

FAMILIES = ("hash", "xof", "checksum", "mac", "cipher", "aead", "password-hash", "kdf")
OPERATIONS = ("digest", "mac", "encrypt", "seal", "open", "roundtrip", "hash", "verify", "derive")
ENCODINGS = ("bytes", "int-be", "encoded")
STATUSES = ("recommended", "acceptable", "legacy", "broken", "non-cryptographic")
KEYED_OPERATIONS = ("mac", "encrypt", "seal", "open", "roundtrip")
SLOW_FAMILIES = ("password-hash", "kdf")
ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")


@dataclass(frozen=True)
class Param:
    name: str
    default: object
    unit: str = ""
    min: float | None = None
    max: float | None = None
    description: str = ""


@dataclass(frozen=True)
class Primitive:
    id: str
    family: str
    title: str
    operations: tuple[str, ...]
    encoding: str
    status: str
    status_reason: str
    status_date: str
    output_len: int | None = None
    key_len: int | None = None
    nonce_len: int | None = None
    tag_len: int | None = None
    salt_len: int | None = None
    check: dict | None = None
    native: dict = field(default_factory=dict)
    notes: str = ""
    params: dict[str, Param] = field(default_factory=dict)

    @property
    def is_slow(self) -> bool:
        """Password hashes and KDFs: sized by password length, shown in ms."""
        return self.family in SLOW_FAMILIES

    def defaults(self) -> dict:
        return {name: p.default for name, p in self.params.items()}


NOOP = Primitive(
    "noop",
    "noop",
    "noop (loop and call overhead)",
    ("digest",),
    "bytes",
    "non-cryptographic",
    "measures the runner, not a primitive",
    "",
    8,
    notes="every runner answers it: the input's length as 8 bytes (docs/protocol.md, noop)",
)
NOOP_SIZE = 16


def _param(pid: str, name: str, raw: dict) -> Param:
    if not isinstance(raw, dict) or "default" not in raw:
        raise DataError(f"catalog: {pid}.params.{name} needs a default")
    return Param(
        name=name,
        default=raw["default"],
        unit=raw.get("unit", ""),
        min=raw.get("min"),
        max=raw.get("max"),
        description=raw.get("description", ""),
    )


def _primitive(pid: str, raw: dict) -> Primitive:
    where = f"catalog: primitive {pid!r}"
    if not ID_RE.match(pid):
        raise DataError(f"{where}: id must match [a-z0-9-]+")
    for key in ("family", "operations", "encoding", "status", "status_reason", "status_date"):
        if key not in raw:
            raise DataError(f"{where}: missing {key!r}")
    if raw["family"] not in FAMILIES:
        raise DataError(f"{where}: family {raw['family']!r} not one of {', '.join(FAMILIES)}")
    bad_ops = [op for op in raw["operations"] if op not in OPERATIONS]
    if bad_ops or not raw["operations"]:
        raise DataError(f"{where}: operations {bad_ops} not in {', '.join(OPERATIONS)}")
    if raw["encoding"] not in ENCODINGS:
        raise DataError(f"{where}: encoding must be one of {', '.join(ENCODINGS)}")
    if raw["status"] not in STATUSES:
        raise DataError(f"{where}: status must be one of {', '.join(STATUSES)}")
    params = {n: _param(pid, n, p) for n, p in raw.get("params", {}).items()}
    return Primitive(
        id=pid,
        family=raw["family"],
        title=raw.get("title", pid),
        operations=tuple(raw["operations"]),
        encoding=raw["encoding"],
        status=raw["status"],
        status_reason=raw["status_reason"],
        status_date=str(raw["status_date"]),
        output_len=raw.get("output_len"),
        key_len=raw.get("key_len"),
        nonce_len=raw.get("nonce_len"),
        tag_len=raw.get("tag_len"),
        salt_len=raw.get("salt_len"),
        check=raw.get("check"),
        native=dict(raw.get("native", {})),
        notes=raw.get("notes", ""),
        params=params,
    )


class Catalog:
    def __init__(self, primitives: dict[str, Primitive]):
        self.primitives = primitives

    def __contains__(self, pid: str) -> bool:
        return pid in self.primitives

    def __iter__(self):
        return iter(self.primitives.values())

    def get(self, pid: str) -> Primitive:
        """The entry for ``pid``; an unknown id is a usage error listing the valid ones."""
        try:
            return self.primitives[pid]
        except KeyError:
            raise UsageError(
                f"unknown primitive {pid!r}; valid: {', '.join(sorted(self.primitives))}"
            ) from None

    def resolve_params(self, primitive: Primitive, user: dict, operation: str) -> dict:
        """Catalog defaults merged with the user's, validated; every param sent explicitly."""
        out = primitive.defaults()
        if operation in KEYED_OPERATIONS:
            out["fresh_context"] = False
        for name, value in user.items():
            if name == "fresh_context":
                if operation in KEYED_OPERATIONS:
                    out[name] = bool(value)
                continue
            if name not in primitive.params:
                continue  # a param for another primitive in the same preset/run
            spec = primitive.params[name]
            if (
                spec.min is not None
                and value < spec.min
                or spec.max is not None
                and value > spec.max
            ):
                raise UsageError(
                    f"{primitive.id}: {name}={value} out of range [{spec.min}, {spec.max}]"
                )
            out[name] = value
        return out


def load(path: Path | None = None) -> Catalog:
    path = path or project_root() / "catalog" / "catalog.toml"
    try:
        with open(path, "rb") as fh:
            raw = tomllib.load(fh)
    except OSError as exc:
        raise DataError(f"cannot read catalog {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"catalog {path} is not valid TOML: {exc}") from None
    if raw.get("schema") != 1:
        raise DataError(f"catalog {path}: unsupported schema {raw.get('schema')!r}")
    prims = {pid: _primitive(pid, entry) for pid, entry in raw.get("primitive", {}).items()}
    return Catalog(prims)
