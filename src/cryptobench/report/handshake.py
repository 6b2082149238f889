"""The `tls-handshake` view: what the server side of one TLS 1.3 handshake costs in each
runtime and implementation — one ephemeral key pair (``kex`` keygen), one key agreement
(``agree``) and one signature (``sign`` over a 32-byte message) — for every choice of key
exchange and signature that implementation measured (docs/reports.md, "The TLS handshake
view"). The interval is computed per round, then across rounds: each round's three medians
are summed (stats.round_sum) and the round sums go to stats.rounds_ci, as one case's rounds
would; intervals are never added. Pure data shaping, shared by every format."""

from __future__ import annotations

from dataclasses import dataclass

from .. import stats

SIGN_SIZE = 32  # the message a handshake signs is a hash-sized transcript digest
TITLE = "TLS handshake, server side: one ECDHE keygen + agree + one signature (tls-handshake)"
COLUMNS = (
    "implementation",
    "key exchange",
    "signature",
    "handshake µs (95% CI)",
    "handshakes/s",
    "keygen µs",
    "agree µs",
    "sign µs",
    "server sends (B)",
)
NUMERIC = (False, False, False, True, True, True, True, True, False)
NOTE = (
    "handshake = keygen + agree + sign of a 32-byte message, all three from the same "
    "implementation: in each round the three round medians are added (their variances add; "
    "intervals are never added), then the 95% interval over the rounds' sums, as for any case "
    "(one round: that round's own interval). keygen, agree, sign: each operation's own "
    "estimate. Server sends: its key share plus its signature (≤: a DER ECDSA signature's "
    "bound); the certificate chain is not counted."
)


@dataclass(frozen=True)
class Handshake:
    implementation: str
    kex: str
    signature: str
    estimate: stats.RoundsCI
    parts: tuple[dict, dict, dict]  # the keygen, agree and sign results

    @property
    def wire(self) -> str:
        share = (self.parts[0].get("wire_bytes") or {}).get("public_key")
        sig = self.parts[2].get("wire_bytes") or {}
        if share is None or sig.get("signature") is None:
            return ""
        bound = "≤" if sig.get("signature_is_max") else ""
        total = share + sig["signature"]
        return f"{share} + {bound}{sig['signature']} = {bound}{total}"


def _usable(r: dict) -> bool:
    """A default-path, single-worker, measured result (no stand-in, no switched-off feature)."""
    return (
        r.get("status") == "ok"
        and bool(r.get("median_ns"))
        and not r.get("cpu_features_off")
        and not r.get("parallel")
        and not (r.get("params") or {}).get("fresh_context")
    )


def _parts(results: list[dict]) -> dict[str, dict[str, dict[str, dict]]]:
    """implementation -> role (keygen, agree, sign) -> primitive -> result."""
    out: dict[str, dict[str, dict[str, dict]]] = {}
    for r in results:
        if not _usable(r):
            continue
        fam, op = r.get("family"), r.get("operation")
        if fam == "kex" and op in ("keygen", "agree"):
            role = op
        elif fam == "signature" and op == "sign" and r.get("size") == SIGN_SIZE:
            role = "sign"
        else:
            continue
        out.setdefault(r["implementation"], {}).setdefault(role, {})[r["primitive"]] = r
    return out


def _rounds(r: dict) -> dict[int, dict]:
    """A result's rounds by number; a result without them is its own one round."""
    rounds = r.get("rounds") or [{**r, "round": 1}]
    return {x["round"]: x for x in rounds}


def estimate(keygen: dict, agree: dict, sign: dict) -> stats.RoundsCI:
    """The handshake's estimate (see :func:`use_estimate`)."""
    return use_estimate([keygen, agree, sign])


def use_estimate(parts: list[dict], weights=None) -> stats.RoundsCI:
    """A use made of several measured operations (each ``weights[i]`` times): per round the
    weighted sum (stats.round_sum), across rounds stats.rounds_ci. Rounds are paired by
    number; only rounds every part has are used."""
    by = [_rounds(p) for p in parts]
    common = sorted(set.intersection(*(set(b) for b in by)))
    if not common:  # rounds numbered differently: each result as one round
        by, common = [{1: p} for p in parts], [1]
    sums = []
    for n in common:
        rs = [b[n] for b in by]
        sums.append(
            stats.round_sum(
                [p["median_ns"] for p in rs],
                [p["ci_low_ns"] for p in rs],
                [p["ci_high_ns"] for p in rs],
                weights,
            )
        )
    return stats.rounds_ci([s[0] for s in sums], [s[1] for s in sums], [s[2] for s in sums])


def handshakes(results: list[dict]) -> list[Handshake]:
    """Every implementation × key exchange × signature with all three operations measured."""
    out = []
    for impl, roles in sorted(_parts(results).items()):
        for kex in sorted(set(roles.get("keygen", {})) & set(roles.get("agree", {}))):
            for sig, sign in sorted(roles.get("sign", {}).items()):
                keygen, agree = roles["keygen"][kex], roles["agree"][kex]
                est = estimate(keygen, agree, sign)
                out.append(Handshake(impl, kex, sig, est, (keygen, agree, sign)))
    return out


def us(ns: float) -> str:
    return f"{ns / 1e3:.1f}"


def interval_text(e: stats.RoundsCI) -> str:
    return f"{us(e.median)} ({us(e.low)}–{us(e.high)})"
