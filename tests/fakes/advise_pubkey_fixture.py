"""The stored fixture run of the `advise --use key-exchange|signature` tests
(tests/fixtures/advise-pubkey-run.json): synthetic, deterministic, schema-valid, three rounds
per case (rounds as tests/fakes/advise_fixture.py makes them). Times are invented, plausible in
order of magnitude for an x86-64 core; what the tests check is how one use is added up, the
security level compared and the dated transitions, never a speed. Regenerate with
`python -m tests.fakes.advise_pubkey_fixture` from the repository root."""

from __future__ import annotations

import json
from pathlib import Path

from cryptobench.catalog import primitives as catalog
from cryptobench.plan.cases import Case
from cryptobench.results import document as results
from cryptobench.runtimes.protocol import Implementation, Offer
from tests.fakes.advise_fixture import rounds

OUT = Path(__file__).resolve().parents[1] / "fixtures" / "advise-pubkey-run.json"
RUN_ID = "0a0a0a0a-0000-4000-8000-00000000ad02"
KEX = ("keygen", "agree")
SIG = ("keygen", "sign", "verify")
KEM = ("keygen", "encaps", "decaps")

IMPLS = {
    "go/stdlib": {
        "x25519": KEX,
        "ecdh-p256": KEX,
        "ed25519": SIG,
        "ecdsa-p256-sha256": SIG,
        "rsa-2048-pss-sha256": SIG,
        "rsa-3072-pss-sha256": SIG,
        "ml-kem-512": KEM,
        "ml-kem-768": KEM,
        "x25519-mlkem768": KEM,
    },
    "go/circl": {"ml-kem-768": KEM, "ml-dsa-65": SIG},
    "python/cryptography": {
        "x25519": KEX,
        "ed25519": SIG,
        "rsa-2048-pkcs1-sha256": SIG,
        "ml-kem-768": KEM,
        "ml-dsa-65": SIG,
    },
    "node/node": {"ed25519": SIG},
}

# (implementation, primitive, operation, median ns); sign/verify at 32 B, keygen/agree size 0
CASES = [
    # key exchange: ECDH P-256's pair is faster here than X25519's, Python's X25519 last
    ("go/stdlib", "x25519", "keygen", 30e3),
    ("go/stdlib", "x25519", "agree", 60e3),
    ("go/stdlib", "ecdh-p256", "keygen", 15e3),
    ("go/stdlib", "ecdh-p256", "agree", 50e3),
    ("python/cryptography", "x25519", "keygen", 45e3),
    ("python/cryptography", "x25519", "agree", 75e3),
    # signature: RSA-2048 (112-bit) verifies fastest and is not compared with the 128-bit ones
    ("go/stdlib", "ed25519", "sign", 20e3),
    ("go/stdlib", "ed25519", "verify", 45e3),
    ("go/stdlib", "ecdsa-p256-sha256", "sign", 25e3),
    ("go/stdlib", "ecdsa-p256-sha256", "verify", 70e3),
    ("go/stdlib", "rsa-2048-pss-sha256", "sign", 900e3),
    ("go/stdlib", "rsa-2048-pss-sha256", "verify", 25e3),
    ("go/stdlib", "rsa-3072-pss-sha256", "sign", 2600e3),
    ("go/stdlib", "rsa-3072-pss-sha256", "verify", 55e3),
    ("python/cryptography", "ed25519", "sign", 30e3),
    ("python/cryptography", "ed25519", "verify", 65e3),
    ("python/cryptography", "rsa-2048-pkcs1-sha256", "sign", 800e3),
    ("python/cryptography", "rsa-2048-pkcs1-sha256", "verify", 22e3),
    # node signs but its verify was not stored: not a whole use, listed as incomplete
    ("node/node", "ed25519", "sign", 25e3),
    # post-quantum (advise --pq): go's ML-KEM-768 fastest; ML-KEM-512 is another category
    ("go/stdlib", "ml-kem-768", "keygen", 40e3),
    ("go/stdlib", "ml-kem-768", "encaps", 35e3),
    ("go/stdlib", "ml-kem-768", "decaps", 45e3),
    ("go/stdlib", "ml-kem-512", "keygen", 25e3),
    ("go/stdlib", "ml-kem-512", "encaps", 22e3),
    ("go/stdlib", "ml-kem-512", "decaps", 28e3),
    ("go/stdlib", "x25519-mlkem768", "keygen", 70e3),
    ("go/stdlib", "x25519-mlkem768", "encaps", 100e3),
    ("go/stdlib", "x25519-mlkem768", "decaps", 95e3),
    ("go/circl", "ml-kem-768", "keygen", 60e3),
    ("go/circl", "ml-kem-768", "encaps", 55e3),
    ("go/circl", "ml-kem-768", "decaps", 70e3),
    ("python/cryptography", "ml-kem-768", "keygen", 50e3),
    ("python/cryptography", "ml-kem-768", "encaps", 45e3),
    ("python/cryptography", "ml-kem-768", "decaps", 55e3),
    ("go/circl", "ml-dsa-65", "sign", 300e3),
    ("go/circl", "ml-dsa-65", "verify", 90e3),
    ("python/cryptography", "ml-dsa-65", "sign", 350e3),
    ("python/cryptography", "ml-dsa-65", "verify", 100e3),
]
SIGN_SIZE = 32


def implementation(impl_id: str) -> Implementation:
    runtime, library = impl_id.split("/")
    offers = {p: Offer(ops, True) for p, ops in IMPLS[impl_id].items()}
    return Implementation(
        impl_id, runtime, library, "1.0", {"name": library, "version": "1.0"}, offers
    )


def build() -> dict:
    cat = catalog.load()
    rows = []
    for impl_id, pid, op, median in CASES:
        prim = cat.get(pid)
        size = 0 if op in catalog.UNSIZED_OPERATIONS else SIGN_SIZE
        case = Case(implementation(impl_id), prim, op, size, cat.resolve_params(prim, {}, op))
        ctx = {"tsc_hz": 3e9, "errors": []}
        rows.append(results.measured(case, rounds(median, 0.01, size), 3, "fixture", ctx))
    run = {
        "id": RUN_ID,
        "started": "2026-11-24T12:00:00+00:00",
        "ended": "2026-11-24T12:10:00+00:00",
        "status": "complete",
        "command": "cryptobench run (synthetic fixture: tests/fakes/advise_pubkey_fixture.py)",
        "preset": None,
        "seed": 1,
        "git_commit": None,
        "settings": {"precision": 0.01, "time_per_case": 1.0, "rounds": 3, "pin": None},
        "runtimes": [{"id": r, "name": r, "version": "1"} for r in ("go", "python", "node")],
        "implementations": [results.implementation_dict(implementation(i)) for i in IMPLS],
        "skipped": [],
        "probes": [{"round": r, "median_ns": 2000.0} for r in (1, 2, 3)],
        "machine": {"cpu_model": "synthetic x86-64", "cpu_flags": {}, "cores": 2},
    }
    return results.document(run, rows)


if __name__ == "__main__":
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(build(), indent=1) + "\n")
    print(OUT)
