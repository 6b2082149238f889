"""The key, nonce and tag sizes an implementation takes per primitive (docs/protocol.md,
"Declared sizes"): what its `hello` declares, else the catalog's fixed sizes."""

from __future__ import annotations

from ..catalog.primitives import Primitive
from .protocol import Offer

KINDS = ("key", "nonce", "tag")
ANY = [[0, 1 << 30]]


def _valid(spec) -> bool:
    return isinstance(spec, list) and all(
        (isinstance(x, int) and x >= 0)
        or (isinstance(x, list) and len(x) == 2 and all(isinstance(y, int) for y in x))
        for x in spec
    )


def declared(prim: Primitive, offer: Offer) -> dict[str, list]:
    """{kind: [n or [lo, hi], ...]} for key, nonce and tag (bytes).

    Undeclared kinds default to the catalog: an AEAD takes its key_len, nonce_len and a
    16-byte tag; HMAC takes any key length (RFC 2104) and its full output as the tag."""
    out: dict[str, list] = {}
    if prim.family == "aead":
        out = {"key": [prim.key_len], "nonce": [prim.nonce_len], "tag": [prim.tag_len or 16]}
    elif prim.family == "mac":
        out = {"key": list(ANY), "tag": [prim.output_len]}
    for kind, spec in (offer.sizes or {}).items():
        if kind in KINDS and _valid(spec):
            out[kind] = spec
    return out


def takes(spec: list, n: int) -> bool:
    return any(n == x if isinstance(x, int) else x[0] <= n <= x[1] for x in spec)


def label(spec: list) -> str:
    """`12`, `1-1024`, `12, 16` (bytes)."""
    parts = [str(x) if isinstance(x, int) else f"{x[0]}-{x[1]}" for x in spec]
    return ", ".join(parts)


def summary(prim: Primitive, offer: Offer) -> str:
    """What `list` shows next to an AEAD: `nonce 12 B, tag 16 B, key 16 B`."""
    d = declared(prim, offer)
    return ", ".join(f"{k} {label(d[k])} B" for k in ("nonce", "tag", "key") if k in d)


def unsupported(prim: Primitive, offer: Offer, sizes: dict[str, int]) -> str | None:
    """The first size the implementation did not declare, as `nonce 8 B`; None if all are."""
    d = declared(prim, offer)
    for kind in KINDS:
        if kind in sizes and kind in d and not takes(d[kind], sizes[kind]):
            return f"{kind} {sizes[kind]} B"
    return None


def list_suffix(catalog, pid: str, offer: Offer) -> str:
    """`; nonce 12 B, tag 16 B, key 16 B` for an AEAD in `list`, `; UTF-8 text passwords`
    where a KDF declares it, else ``""``."""
    if (offer.sizes or {}).get("password") == "text":
        return "; UTF-8 text passwords"
    if catalog is None or pid not in catalog or catalog.get(pid).family != "aead":
        return ""
    return "; " + summary(catalog.get(pid), offer)


def declared_all(catalog, live) -> dict:
    """{implementation: {primitive: declared sizes}} for AEADs and MACs (`list --format json`)."""
    out: dict = {}
    for rt in live:
        for impl in rt.implementations:
            for pid, offer in sorted(impl.primitives.items()):
                if pid in catalog and catalog.get(pid).family in ("aead", "mac"):
                    out.setdefault(impl.id, {})[pid] = declared(catalog.get(pid), offer)
    return out
