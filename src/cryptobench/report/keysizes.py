"""The `public-key-sizes` view and the CSV's size columns: the bytes of each public-key
primitive's public key, private key, signature or ciphertext and shared secret
(docs/reports.md, "The public-key sizes view"). Every size but the private key's comes from
the results' ``wire_bytes`` (what one use puts on the wire, docs/results.md); the private key
never goes on the wire, so it is the catalog's encoding of it (``private_key_len``, or the
benchmark key's DER PKCS#8 for RSA: catalog/keys.toml). Implementations of one primitive
must report the same sizes; where they do not, the view shows every value and says which
implementation gave which, rather than pick one. Pure data shaping, shared by every format."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from ..catalog import keys, primitives
from ..catalog.primitives import PUBKEY_FAMILIES
from ..errors import DataError

# the CSV's size columns (appended after the others) and the size each one holds
CSV_COLUMNS = (
    "public_key_bytes",
    "private_key_bytes",
    "signature_bytes",
    "signature_is_max",
    "ciphertext_bytes",
    "shared_secret_bytes",
)
TITLE = (
    "public-key sizes: bytes of each primitive's keys, signature or ciphertext and shared "
    "secret (public-key-sizes)"
)
COLUMNS = (
    "primitive",
    "family",
    "public key (B)",
    "private key (B)",
    "signature or ciphertext (B)",
    "shared secret (B)",
    "implementations",
)
NUMERIC = (False, False, True, True, True, True, True)
NOTE = (
    "public key, signature or ciphertext, shared secret: the results' wire_bytes, what one "
    "use puts on the wire (RSA keys: the benchmark key's DER; ≤: a DER ECDSA signature's "
    "bound, 70–72 B); private key: the catalog's encoding of it (a seed where the protocol "
    "uses one; RSA: the benchmark key's DER PKCS#8), never sent. Implementations: how many "
    "verified and measured implementations' results give these sizes, which must agree."
)


@functools.cache
def _private_sizes() -> dict[str, int]:
    """Primitive id -> the private key's bytes, for the catalog's public-key primitives."""
    try:
        catalog, pairs = primitives.load(), keys.load()
    except DataError:
        return {}
    out = {}
    for p in catalog:
        n = p.private_key_len
        if n is None and p.id in pairs:
            n = len(pairs[p.id].private_key) // 2
        if p.is_pubkey and n is not None:
            out[p.id] = n
    return out


def private_key_bytes(primitive: str) -> int | None:
    return _private_sizes().get(primitive)


def sizes(r: dict) -> dict | None:
    """One result's sizes by CSV column; None for a result without ``wire_bytes`` (families
    without sizes, documents from before the public-key families)."""
    wire = r.get("wire_bytes")
    if r.get("family") not in PUBKEY_FAMILIES or not isinstance(wire, dict):
        return None
    return {
        "public_key_bytes": wire.get("public_key"),
        "private_key_bytes": private_key_bytes(r.get("primitive", "")),
        "signature_bytes": wire.get("signature"),
        "signature_is_max": None
        if wire.get("signature") is None
        else bool(wire.get("signature_is_max")),
        "ciphertext_bytes": wire.get("ciphertext"),
        "shared_secret_bytes": wire.get("shared_secret"),
    }


def _out(wire: dict) -> tuple | None:
    """The signature (with its bound mark) or the ciphertext: (bytes, "≤" or "")."""
    if wire.get("signature") is not None:
        return (wire["signature"], "≤" if wire.get("signature_is_max") else "")
    if wire.get("ciphertext") is not None:
        return (wire["ciphertext"], "")
    return None


# column -> what of a result's wire_bytes it shows
PARTS = {
    "public key (B)": lambda w: w.get("public_key"),
    "signature or ciphertext (B)": _out,
    "shared secret (B)": lambda w: w.get("shared_secret"),
}


@dataclass(frozen=True)
class Size:
    """One cell: the value every implementation gave, or ``by_value`` when they differ."""

    by_value: dict  # value -> implementations that gave it

    @property
    def agreed(self) -> bool:
        return len(self.by_value) <= 1

    @property
    def value(self) -> int | None:
        """The number to sort by: the agreed one, else the smallest."""
        found = [v[0] if isinstance(v, tuple) else v for v in self.by_value if v is not None]
        return min(found) if found else None

    def text(self) -> str:
        return " ≠ ".join(_text(v) for v in sorted(self.by_value, key=_order))


def _text(v) -> str:
    if v is None:
        return "—"
    if isinstance(v, tuple):
        return f"{v[1]}{v[0]}"
    return str(v)


def _order(v) -> tuple:
    if v is None:
        return (0, 0, "")
    return (1, *v) if isinstance(v, tuple) else (1, v, "")


@dataclass(frozen=True)
class Row:
    primitive: str
    family: str
    cells: dict[str, Size]  # by column of PARTS
    private_key: int | None
    implementations: int


def _wires(results: list[dict]) -> dict[tuple[str, str], dict[str, dict]]:
    """(family, primitive) -> implementation -> its wire_bytes (its first measured result's)."""
    out: dict[tuple[str, str], dict[str, dict]] = {}
    for r in results:
        if sizes(r) is None or r.get("status") != "ok":
            continue
        found = out.setdefault((r["family"], r["primitive"]), {})
        found.setdefault(r.get("implementation", "?"), r["wire_bytes"])
    return out


def rows(results: list[dict]) -> list[Row]:
    """One row per public-key primitive with sizes, by family (kex, signature, kem) then id."""
    out = []
    for (family, pid), by_impl in _wires(results).items():
        cells = {}
        for column, part in PARTS.items():
            by_value: dict = {}
            for impl, wire in sorted(by_impl.items()):
                by_value.setdefault(part(wire), []).append(impl)
            if list(by_value) == [None]:
                by_value = {}
            cells[column] = Size(by_value)
        out.append(Row(pid, family, cells, private_key_bytes(pid), len(by_impl)))
    return sorted(out, key=lambda r: (PUBKEY_FAMILIES.index(r.family), r.primitive))


def disagreements(found: list[Row]) -> list[str]:
    """A note per cell whose implementations gave different sizes (they must not)."""
    notes = []
    for row in found:
        for column, size in row.cells.items():
            if size.agreed:
                continue
            said = "; ".join(
                f"{_text(v)} from {', '.join(impls)}"
                for v, impls in sorted(size.by_value.items(), key=lambda kv: _order(kv[0]))
            )
            notes.append(f"{row.primitive} {column}: implementations disagree ({said})")
    return notes
