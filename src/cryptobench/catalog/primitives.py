"""The catalog: one validated entry per primitive (catalog/catalog.toml, docs/catalog.md)."""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import DataError, UsageError
from ..paths import project_root

FAMILIES = (
    "hash",
    "xof",
    "checksum",
    "mac",
    "cipher",
    "aead",
    "password-hash",
    "kdf",
    "kex",
    "signature",
    "kem",
)
OPERATIONS = (
    "digest",
    "mac",
    "encrypt",
    "seal",
    "open",
    "roundtrip",
    "hash",
    "verify",
    "derive",
    "keygen",
    "agree",
    "sign",
    "encaps",
    "decaps",
)
ENCODINGS = ("bytes", "int-be", "encoded")
STATUSES = ("recommended", "acceptable", "legacy", "broken", "non-cryptographic")
KEYED_OPERATIONS = ("mac", "encrypt", "seal", "open", "roundtrip")
SLOW_FAMILIES = ("password-hash", "kdf")
# key agreement and signatures (docs/protocol.md, "Public-key operations")
PUBKEY_FAMILIES = ("kex", "signature", "kem")
# fresh_context: the key parsed in every call
PUBKEY_KEYED = ("agree", "sign", "verify", "encaps", "decaps")
UNSIZED_OPERATIONS = ("keygen", "agree", "encaps", "decaps")  # no size axis: one case, size 0
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
class Transition:
    """A dated change of status (NIST SP 800-131A, NIST IR 8547): from the day after ``after``
    the primitive has ``status``; ``term`` is the source's own word ("deprecated",
    "disallowed")."""

    after: str  # YYYY-MM-DD, the last day of the status before
    status: str
    term: str
    source: str

    def text(self) -> str:
        return f"{self.term} after {self.after}, status {self.status} from then ({self.source})"


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
    public_key_len: int | None = None
    private_key_len: int | None = None
    signature_len: int | None = None
    ciphertext_len: int | None = None  # kem: the encapsulation's ciphertext
    security_bits: int | None = None
    transitions: tuple[Transition, ...] = ()
    check: dict | None = None
    native: dict = field(default_factory=dict)
    notes: str = ""
    params: dict[str, Param] = field(default_factory=dict)

    @property
    def is_slow(self) -> bool:
        """Password hashes and KDFs: sized by password length, shown in ms."""
        return self.family in SLOW_FAMILIES

    @property
    def is_pubkey(self) -> bool:
        """Key agreement, signatures and KEMs: verified by use (verify/pubkey.py, kem.py)."""
        return self.family in PUBKEY_FAMILIES

    def random_duration(self, operation: str) -> bool:
        """An operation sampled with many calls per round and reported with p10/p90: RSA key
        generation (a random prime search: every call takes a different time) and the signing
        of SLH-DSA's small-signature sets (-128s: long calls, where 3 slow-operation samples
        would say little of the median)."""
        if operation == "keygen" and self.id.startswith("rsa-"):
            return True
        return operation == "sign" and self.id.startswith("slh-dsa-") and self.id.endswith("s")

    def keyed(self, operation: str) -> bool:
        """Whether ``fresh_context`` is one of this operation's parameters."""
        return self.symmetric_keyed(operation) or self.is_pubkey and operation in PUBKEY_KEYED

    def symmetric_keyed(self, operation: str) -> bool:
        """A secret-key operation (a cipher or MAC object): a MAC's `verify` too."""
        return operation in KEYED_OPERATIONS or self.family == "mac" and operation == "verify"

    def defaults(self) -> dict:
        return {name: p.default for name, p in self.params.items()}

    def status_on(self, day: str) -> str:
        """The status on ``day`` (YYYY-MM-DD): the last transition in effect, else ``status``."""
        passed = [t for t in self.transitions if t.after < day]
        return passed[-1].status if passed else self.status


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


def _transitions(where: str, raw: list) -> tuple[Transition, ...]:
    out = []
    for t in raw:
        if not isinstance(t, dict) or not all(k in t for k in ("after", "status", "source")):
            raise DataError(f"{where}: a transition needs after, status and source")
        if t["status"] not in STATUSES:
            raise DataError(f"{where}: transition status must be one of {', '.join(STATUSES)}")
        after = str(t["after"])
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", after):
            raise DataError(f"{where}: transition after {after!r} is not YYYY-MM-DD")
        out.append(Transition(after, t["status"], str(t.get("term", t["status"])), t["source"]))
    if [t.after for t in out] != sorted(t.after for t in out):
        raise DataError(f"{where}: transitions must be in date order")
    return tuple(out)


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
        public_key_len=raw.get("public_key_len"),
        private_key_len=raw.get("private_key_len"),
        signature_len=raw.get("signature_len"),
        ciphertext_len=raw.get("ciphertext_len"),
        security_bits=raw.get("security_bits"),
        transitions=_transitions(where, raw.get("transitions", [])),
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
        if primitive.keyed(operation):
            out["fresh_context"] = False
        for name, value in user.items():
            if name == "fresh_context":
                if primitive.keyed(operation):
                    out[name] = typed_param(name, value, False)
                continue
            if name not in primitive.params:
                continue  # a param for another primitive in the same preset/run
            spec = primitive.params[name]
            value = typed_param(name, value, spec.default)
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

    def check_params(self, user: dict) -> None:
        """Each of the user's params of its declared type (that of its default in any
        primitive declaring it): a usage error before anything runs, not at the case."""
        for name, value in user.items():
            if name == "fresh_context":
                typed_param(name, value, False)
            for p in self:
                if name in p.params:
                    typed_param(name, value, p.params[name].default)
                    break


def typed_param(name: str, value, default):
    """``value`` as its param's declared type, that of its default: a boolean only from
    true/false or 1/0, an integer only from an integer, a float only when finite (issue 33:
    `fresh_context=no` once measured the fresh path)."""
    if isinstance(default, bool):
        if isinstance(value, bool):
            return value
        if type(value) is int and value in (0, 1):
            return bool(value)
        raise UsageError(f"{name}={value!r}: expects true or false (or 1/0)")
    if isinstance(default, int):
        if type(value) is int:
            return value
        raise UsageError(f"{name}={value!r}: expects an integer")
    if isinstance(default, float):
        if type(value) in (int, float) and math.isfinite(value):
            return float(value)
        raise UsageError(f"{name}={value!r}: expects a finite number")
    return value


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
