"""The `pq-migration` view: what moving one key exchange and one signature to post-quantum
costs in each runtime (docs/reports.md, "The post-quantum migration view"). For each runtime
and each choice — classical, post-quantum, hybrid — the fastest implementation the runtime
measured, the cost of one use with its 95% interval, the bytes that use puts on the wire,
and its ratio to the runtime's classical choice with a 95% interval (Welch's t over the
rounds, stats.rounds_diff, as `compare` does). Pure data shaping, shared by every format.

One use, both parties counted:
- key exchange, ECDH (x25519): each side makes a key pair and agrees, 2 keygen + 2 agree;
  on the wire both public keys;
- key exchange, a KEM (ml-kem-768, the hybrid x25519-mlkem768): the client makes a key pair,
  the server encapsulates, the client decapsulates; on the wire the encapsulation key and
  the ciphertext;
- signature (ed25519, ml-dsa-65): one sign and one verify of a 32-byte message; on the wire
  the public key and the signature.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import stats
from .handshake import SIGN_SIZE, _usable, interval_text, use_estimate

# use -> (kind, primitive, the operations one use runs and how often) in the order shown
CHOICES = {
    "key exchange": (
        ("classical", "x25519", {"keygen": 2, "agree": 2}),
        ("post-quantum", "ml-kem-768", {"keygen": 1, "encaps": 1, "decaps": 1}),
        ("hybrid", "x25519-mlkem768", {"keygen": 1, "encaps": 1, "decaps": 1}),
    ),
    "signature": (
        ("classical", "ed25519", {"sign": 1, "verify": 1}),
        ("post-quantum", "ml-dsa-65", {"sign": 1, "verify": 1}),
    ),
}
TITLE = "post-quantum migration: one key exchange and one signature per runtime (pq-migration)"
COLUMNS = (
    "runtime",
    "use",
    "choice",
    "primitive",
    "fastest implementation",
    "µs per use (95% CI)",
    "on the wire (B)",
    "× classical (95% CI)",
)
NUMERIC = (False, False, False, False, False, True, True, True)
ALLOC_COLUMN = "alloc/use (B)"
ALLOC_NOTE = (
    "alloc/use: heap bytes one use's operations allocate, weighted as their time (results' "
    "alloc_bytes_per_op, read around each bench request's untimed call): Go and Java count "
    "every byte allocated, Python the most bytes live at once (its heap only); — where the "
    'runtime offers no counter (docs/methodology.md, "Memory").'
)
NOTE = (
    "one use counts both parties: an ECDH key exchange is 2 keygen + 2 agree, a KEM's is "
    "keygen + encaps + decaps, a signature is sign + verify of a 32-byte message; per round "
    "the operations' medians are added (their variances add), then the 95% interval over the "
    "rounds. On the wire: both key shares, or the encapsulation key and the ciphertext, or "
    "the public key and the signature. × classical: against the runtime's classical choice, "
    "Welch's t over the rounds. Each choice's fastest implementation in that runtime."
)


@dataclass(frozen=True)
class Choice:
    runtime: str
    use: str
    kind: str
    primitive: str
    implementation: str
    estimate: stats.RoundsCI
    wire: int | None
    versus: stats.Diff | None  # against the runtime's classical choice
    alloc: float | None = None  # heap bytes one use allocates, where every operation has it


def _ops(results: list[dict]) -> dict[tuple[str, str], dict[str, dict]]:
    """(implementation, primitive) -> operation -> result (signatures: the 32-byte ones)."""
    out: dict[tuple[str, str], dict[str, dict]] = {}
    for r in results:
        if not _usable(r) or r.get("family") not in ("kex", "kem", "signature"):
            continue
        if r.get("operation") in ("sign", "verify") and r.get("size") != SIGN_SIZE:
            continue
        out.setdefault((r["implementation"], r["primitive"]), {})[r["operation"]] = r
    return out


def wire_of(use: str, ops: dict[str, dict]) -> int | None:
    """The bytes one use puts on the wire (the results' wire_bytes; None when not known)."""
    wire = next(iter(ops.values())).get("wire_bytes") or {}
    if use == "signature":
        parts = [wire.get("public_key"), wire.get("signature")]
    elif "ciphertext" in wire:
        parts = [wire.get("public_key"), wire.get("ciphertext")]
    else:
        parts = [wire.get("public_key"), wire.get("public_key")]
    return None if None in parts else sum(parts)


def alloc_of(ops: dict[str, dict], weights: dict[str, int]) -> float | None:
    """Heap bytes one use allocates: its operations' alloc_bytes_per_op (docs/results.md),
    weighted as their time is; None unless every operation has one."""
    if any(ops[op].get("alloc_bytes_per_op") is None for op in weights):
        return None
    return sum(w * ops[op]["alloc_bytes_per_op"] for op, w in weights.items())


def shows_alloc(found: list[Choice]) -> bool:
    """The view gains its allocation column when any row has a figure."""
    return any(c.alloc is not None for c in found)


def columns(alloc: bool) -> tuple[tuple[str, ...], tuple[bool, ...]]:
    """The view's columns and which are numeric, with the allocation column or not."""
    return (COLUMNS + (ALLOC_COLUMN,), NUMERIC + (True,)) if alloc else (COLUMNS, NUMERIC)


def alloc_text(alloc: float | None) -> str:
    return "—" if alloc is None else f"{alloc:,.0f}"


def _fastest(found: dict, primitive: str, weights: dict[str, int]):
    """(implementation, estimate, ops) of the fastest implementation with every operation."""
    best = None
    for (impl, pid), ops in sorted(found.items()):
        if pid != primitive or not set(weights) <= set(ops):
            continue
        parts = [ops[op] for op in weights]
        est = use_estimate(parts, [weights[op] for op in weights])
        if best is None or est.median < best[1].median:
            best = (impl, est, {op: ops[op] for op in weights})
    return best


def choices(results: list[dict]) -> list[Choice]:
    """Every runtime × use × choice it measured, classical first."""
    by_runtime: dict[str, list[dict]] = {}
    for r in results:
        by_runtime.setdefault(r.get("runtime", ""), []).append(r)
    out = []
    for runtime, rs in sorted(by_runtime.items()):
        found = _ops(rs)
        for use, options in CHOICES.items():
            classical = None
            for kind, pid, weights in options:
                best = _fastest(found, pid, weights)
                if best is None:
                    continue
                impl, est, ops = best
                if kind == "classical":
                    classical = est
                versus = None
                if classical is not None and kind != "classical":
                    versus = stats.rounds_diff(classical, est)
                wire, alloc = wire_of(use, ops), alloc_of(ops, weights)
                out.append(Choice(runtime, use, kind, pid, impl, est, wire, versus, alloc))
    return [c for c in out if any(o.kind != "classical" for o in out if o.runtime == c.runtime)]


def versus_text(d: stats.Diff | None) -> str:
    if d is None:
        return ""
    return f"{d.ratio:.2f} ({d.low:.2f}–{d.high:.2f})"


def estimate_text(e: stats.RoundsCI) -> str:
    return interval_text(e)
