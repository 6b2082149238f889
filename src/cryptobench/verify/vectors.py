"""Known-answer vectors (vectors/*.toml, format in vectors/README.md), each with its source."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import DataError
from ..paths import project_root

HEX_INPUTS = (
    "msg",
    "key",
    "nonce",
    "aad",
    "password",
    "salt",
    # public-key families (docs/protocol.md, "Public-key operations")
    "private_key",
    "public_key",
    "peer_public_key",
    "signature",
    "key_seed",
    # kem (docs/protocol.md, "Key encapsulation"); ML-DSA's sign takes randomness too
    "ciphertext",
    "randomness",
)


@dataclass(frozen=True)
class Vector:
    primitive: str
    operation: str | None  # None: the primitive's first operation
    inputs: dict  # hex strings (+ "encoded")
    params: dict
    output: str | None  # None: no published value, agreement required
    source: str
    file: str
    slow: bool = False
    needs: str = ""  # e.g. "secret-ad": only for libraries that take those inputs
    transform: str = ""
    extra: dict = field(default_factory=dict)

    @property
    def agreement_only(self) -> bool:
        return self.output is None


def _inputs(raw: dict, where: str) -> dict:
    out = {}
    repeat = int(raw.get("repeat", 1))
    for name in HEX_INPUTS:
        if f"{name}_text" in raw:
            value = raw[f"{name}_text"].encode().hex()
        elif name in raw:
            value = str(raw[name]).lower()
            try:
                bytes.fromhex(value)
            except ValueError:
                raise DataError(f"{where}: {name} is not hex") from None
        else:
            continue
        out[name] = value * repeat if name == "msg" else value
    if "encoded" in raw:
        out["encoded"] = str(raw["encoded"])
    return out


def load_file(path: Path) -> list[Vector]:
    try:
        with open(path, "rb") as fh:
            raw = tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{path.name}: not valid TOML: {exc}") from None
    source = raw.get("source")
    if not source:
        raise DataError(f"{path.name}: every vector file names its source")
    vectors = []
    for i, v in enumerate(raw.get("vector", [])):
        where = f"{path.name} vector {i + 1}"
        if "primitive" not in v:
            raise DataError(f"{where}: missing primitive")
        output = v.get("output")
        if output is None and v.get("operation") == "verify" and "encoded" in v:
            output = "ok"  # a verify known answer: the password matches the encoded hash
        vectors.append(
            Vector(
                primitive=v["primitive"],
                operation=v.get("operation"),
                inputs=_inputs(v, where),
                params=dict(v.get("params", {})),
                output=None if output is None else str(output),
                source=v.get("source", source),
                file=path.name,
                slow=bool(v.get("slow", False)),
                needs=str(v.get("needs", "")),
                transform=v.get("transform", raw.get("transform", "")),
            )
        )
    return vectors


def load(folder: Path | None = None) -> dict[str, list[Vector]]:
    """Vectors grouped by primitive id."""
    folder = folder or project_root() / "vectors"
    grouped: dict[str, list[Vector]] = {}
    for path in sorted(folder.glob("*.toml")):
        for vec in load_file(path):
            grouped.setdefault(vec.primitive, []).append(vec)
    return grouped


def check_values(catalog) -> dict[str, list[Vector]]:
    """The catalog's check values as known answers (digest of an ASCII input)."""
    out: dict[str, list[Vector]] = {}
    for prim in catalog:
        check = prim.check
        if check and "digest" in prim.operations and check.get("output"):
            out[prim.id] = [
                Vector(
                    prim.id,
                    "digest",
                    {"msg": check["input"].encode().hex()},
                    {},
                    str(check["output"]).lower(),
                    "catalog check value",
                    "catalog.toml",
                )
            ]
    return out


def load_all(catalog, folder: Path | None = None) -> dict[str, list[Vector]]:
    """Vector files plus the catalog's check values, grouped by primitive."""
    grouped = load(folder)
    for pid, vecs in check_values(catalog).items():
        grouped.setdefault(pid, []).extend(vecs)
    return grouped
