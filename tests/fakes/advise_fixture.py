"""The stored fixture run of the `advise` tests (tests/fixtures/advise-run.json): synthetic,
deterministic, schema-valid, three rounds per case. Times are invented to be plausible for an
x86-64 machine with AES-NI, SHA-NI, SSE4.2 and PCLMULQDQ; what the tests check is the ranking,
the security filter and the interval rule over them, never a speed. Regenerate with
`python -m tests.fakes.advise_fixture` from the repository root."""

from __future__ import annotations

import json
from pathlib import Path

from cryptobench.catalog import primitives as catalog
from cryptobench.plan.cases import Case
from cryptobench.results import document as results
from cryptobench.runtimes.protocol import Implementation, Offer

OUT = Path(__file__).resolve().parents[1] / "fixtures" / "advise-run.json"
RUN_ID = "0a0a0a0a-0000-4000-8000-00000000ad01"

# implementation -> (code_path, {primitive: (operations, reuses_key)})
IMPLS = {
    "c/isa-l": (
        "SSE4.2 crc32 instruction (CRC32C), PCLMULQDQ folding (CRC32)",
        {"crc32c": (("digest",), True), "crc32": (("digest",), True)},
    ),
    "c/zlib": ("", {"crc32": (("digest",), True), "adler32": (("digest",), True)}),
    "rust/xxhash-rust": ("xxh3: SSE2 (compile time)", {"xxh3-64": (("digest",), True)}),
    "go/stdlib": (
        "SHA-NI (SHA-256), SSE4.2 (CRC-32C)",
        {
            "sha256": (("digest",), True),
            "md5": (("digest",), True),
            "fnv1a-64": (("digest",), True),
            "crc32c": (("digest",), True),
        },
    ),
    "go/x-crypto": (
        "",
        {"argon2id": (("hash", "verify", "derive"), True), "bcrypt": (("hash", "verify"), True)},
    ),
    "python/hashlib": (
        "OpenSSL 3.0: SHA-NI",
        {
            "md4": (("digest",), True),
            "md5": (("digest",), True),
            "sha1": (("digest",), True),
            "sha256": (("digest",), True),
            "pbkdf2-sha256": (("derive",), True),
        },
    ),
    "python/cryptography": (
        "OpenSSL 3.0: AES-NI, PCLMULQDQ",
        {
            "aes-128-gcm": (("seal", "open"), True),
            "chacha20-poly1305": (("seal", "open"), True),
            "argon2id": (("derive",), True),
            "hmac-sha256": (("mac",), True),
        },
    ),
    "python/pycryptodome": (
        "",
        {"aes-128-gcm": (("seal", "open"), False), "aes-128-ctr": (("encrypt",), False)},
    ),
}

# (implementation, primitive, operation, size, params, median ns, round spread, fresh_context)
CASES = [
    # checksum at 5000 B: adler32 is fastest but kept out; a hardware CRC path wins
    ("c/zlib", "adler32", "digest", 5000, {}, 150.0, 0.003),
    ("c/isa-l", "crc32c", "digest", 5000, {}, 210.0, 0.003),
    ("c/isa-l", "crc32", "digest", 5000, {}, 260.0, 0.003),
    ("go/stdlib", "crc32c", "digest", 5000, {}, 330.0, 0.003),
    ("rust/xxhash-rust", "xxh3-64", "digest", 5000, {"seed": 0}, 420.0, 0.003),
    ("c/zlib", "crc32", "digest", 5000, {}, 900.0, 0.003),
    ("go/stdlib", "fnv1a-64", "digest", 5000, {}, 5100.0, 0.003),
    # integrity at 1024 B: the broken hashes are faster but never win; intervals apart
    ("python/hashlib", "md4", "digest", 1024, {}, 380.0, 0.003),
    ("python/hashlib", "md5", "digest", 1024, {}, 1500.0, 0.003),
    ("python/hashlib", "sha1", "digest", 1024, {}, 450.0, 0.003),
    ("go/stdlib", "sha256", "digest", 1024, {}, 550.0, 0.003),
    ("python/hashlib", "sha256", "digest", 1024, {}, 640.0, 0.003),
    # integrity / small-digest at 16 B: sha256 in two runtimes, intervals overlapping
    ("python/hashlib", "md4", "digest", 16, {}, 150.0, 0.003),
    ("python/hashlib", "md5", "digest", 16, {}, 170.0, 0.003),
    ("python/hashlib", "sha1", "digest", 16, {}, 185.0, 0.003),
    ("go/stdlib", "sha256", "digest", 16, {}, 200.0, 0.03),
    ("python/hashlib", "sha256", "digest", 16, {}, 204.0, 0.03),
    # password and kdf at 8 B: fast digests of an 8-byte password are there to be refused
    ("python/hashlib", "md5", "digest", 8, {}, 160.0, 0.003),
    ("python/hashlib", "sha256", "digest", 8, {}, 190.0, 0.003),
    ("go/x-crypto", "argon2id", "verify", 8, None, 31e6, 0.01),
    ("go/x-crypto", "argon2id", "hash", 8, None, 31.5e6, 0.01),
    ("go/x-crypto", "argon2id", "derive", 8, None, 30.8e6, 0.01),
    ("python/cryptography", "argon2id", "derive", 8, None, 38e6, 0.01),
    ("go/x-crypto", "bcrypt", "verify", 8, None, 55e6, 0.01),
    ("python/hashlib", "pbkdf2-sha256", "derive", 8, None, 240e6, 0.01),
    # encryption at 13 B in Python: reused key, fresh objects, a faster non-AEAD
    ("python/cryptography", "aes-128-gcm", "seal", 13, {"fresh_context": False}, 900.0, 0.01),
    ("python/cryptography", "aes-128-gcm", "seal", 13, {"fresh_context": True}, 2600.0, 0.01),
    (
        "python/cryptography",
        "chacha20-poly1305",
        "seal",
        13,
        {"fresh_context": False},
        1100.0,
        0.01,
    ),
    ("python/pycryptodome", "aes-128-gcm", "seal", 13, {"fresh_context": True}, 9000.0, 0.01),
    ("python/pycryptodome", "aes-128-ctr", "encrypt", 13, {"fresh_context": True}, 300.0, 0.01),
    # mac at 1024 B
    ("python/cryptography", "hmac-sha256", "mac", 1024, {"fresh_context": False}, 1400.0, 0.01),
]
NOOP_NS = {"c": 4.0, "go": 9.0, "python": 60.0, "rust": 3.0}


def implementation(impl_id: str) -> Implementation:
    code_path, prims = IMPLS[impl_id]
    runtime, library = impl_id.split("/")
    offers = {p: Offer(ops, reuses) for p, (ops, reuses) in prims.items()}
    return Implementation(
        impl_id, runtime, library, "1.0", {"name": library, "version": "1.0"}, offers, code_path
    )


def rounds(median: float, spread: float, size: int) -> list[dict]:
    return [round_entry(r, median * (1 + d)) for r, d in enumerate((-spread, 0.0, spread), 1)]


def round_entry(r: int, median: float) -> dict:
    """Round ``r`` of a case as the pipeline stores it: five batches within ±0.4% of
    ``median`` ns/op, ~10 ms each (also tests/fakes/export_docs.py's)."""
    iters = max(1, int(1e7 / median))
    samples = [
        {"iterations": iters, "ns": int(median * (1 + e) * iters), "round": r}
        for e in (-0.004, -0.002, 0.0, 0.002, 0.004)
    ]
    return {
        "round": r,
        "median_ns": median,
        "ci_low_ns": median * 0.996,
        "ci_high_ns": median * 1.004,
        "n_samples": len(samples),
        "iterations": iters,
        "warmup_ns": 1000,
        "warmup_batches": 1,
        "warmup_reason": "no downward trend",
        "stop_reason": "precision",
        "target": 0.01,
        "elapsed_s": 0.1,
        "flags": [],
        "samples": samples,
        "warmup_samples": [],
    }


def build() -> dict:
    cat = catalog.load()
    rows = []
    for impl_id, pid, op, size, params, median, spread in CASES:
        prim = cat.get(pid)
        resolved = cat.resolve_params(prim, params or {}, op)
        case = Case(implementation(impl_id), prim, op, size, resolved)
        rows.append(
            results.measured(
                case, rounds(median, spread, size), 3, "fixture", {"tsc_hz": 3e9, "errors": []}
            )
        )
        if op == "seal" and impl_id == "python/pycryptodome":
            reused = Case(case.impl, prim, op, size, {**resolved, "fresh_context": False})
            rows.append(results.skipped(reused, "not offered: this API cannot reuse a key/context"))
    for runtime, ns in NOOP_NS.items():
        impl = next(implementation(i) for i in IMPLS if i.startswith(runtime + "/"))
        case = Case(impl, catalog.NOOP, "digest", catalog.NOOP_SIZE, {})
        row = results.measured(
            case, rounds(ns, 0.003, 16), 3, "returns its length", {"tsc_hz": 3e9, "errors": []}
        )
        rows.append(results.as_noop(row, runtime))
    run = {
        "id": RUN_ID,
        "started": "2026-11-22T12:00:00+00:00",
        "ended": "2026-11-22T12:10:00+00:00",
        "status": "complete",
        "command": "cryptobench run (synthetic fixture: tests/fakes/advise_fixture.py)",
        "preset": None,
        "seed": 1,
        "git_commit": None,
        "settings": {"precision": 0.01, "time_per_case": 1.0, "rounds": 3, "pin": None},
        "runtimes": [{"id": r, "name": r, "version": "1"} for r in NOOP_NS],
        "implementations": [results.implementation_dict(implementation(i)) for i in IMPLS],
        "skipped": [],
        "probes": [{"round": r, "median_ns": 2000.0} for r in (1, 2, 3)],
        "machine": {
            "cpu_model": "synthetic x86-64 (AES-NI, SHA-NI, SSE4.2, PCLMULQDQ)",
            "cpu_flags": {"aes": True, "sha_ni": True, "sse4_2": True, "pclmulqdq": True},
            "cores": 2,
        },
    }
    return results.document(run, rows)


if __name__ == "__main__":
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(build(), indent=1) + "\n")
    print(OUT)
