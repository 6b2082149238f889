"""Vectors marked `slow` (vectors/README.md) are left out of every run's verification, so they
are run here: Argon2's 64 MiB and 256 MiB known answers of the reference implementation's test
suite, by `verify --all-vectors`, on one library that takes them all (8-byte salts, t < 3)."""

from __future__ import annotations

import re

from cryptobench.verify import vectors
from tests.verifyhelp import verify_rows

PRIMS = ("argon2id", "argon2i")


def _count(slow: bool | None) -> dict[tuple[str, str], int]:
    """(primitive, operation) → how many Argon2 vectors (the slow ones too unless ``slow``
    is False) a library taking every capability runs; RFC 9106's need a secret, which
    argon2-cffi does not take (`needs`)."""
    out: dict[tuple[str, str], int] = {}
    for prim in PRIMS:
        for v in vectors.load()[prim]:
            if (slow is False and v.slow) or "secret-ad" in v.needs:
                continue
            key = (prim, v.operation)
            out[key] = out.get(key, 0) + 1
    return out


def _known(rows: list[dict]) -> dict[tuple[str, str], int]:
    out = {}
    for r in rows:
        assert r["status"] == "ok", r
        m = re.match(r"(\d+) known answers", r["detail"])
        out[(r["primitive"], r["operation"])] = int(m.group(1)) if m else 0
    return out


def test_argon2_s_slow_vectors_pass_where_verify_is_asked_for_all_of_them():
    where = ("--impl", "python/argon2-cffi", *(x for p in PRIMS for x in ("--primitive", p)))
    every = _known(verify_rows(*where, "--all-vectors"))
    assert every == _count(None)  # every vector, the slow ones too, passed
    assert all(_count(False)[k] < n for k, n in every.items())  # each has some slow ones
