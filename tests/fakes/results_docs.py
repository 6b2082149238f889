"""Fixed results documents for report and compare tests: deterministic samples, no timing.

``make_doc`` builds a schema-valid document whose per-operation times are drawn from a seeded
generator around ``base_ns(impl, primitive, size) * speed[impl]``.
"""

from __future__ import annotations

import copy

import numpy as np

HOSTILE = "<img src=x onerror=window.__pwned=1>"
SCRIPT_BREAK = "</script><script>window.__pwned=2</script><!--"

FAST = {
    "sha256": ("hash", "digest", {}),
    "aes-128-gcm": ("aead", "seal", {"aad_len": 0}),
}
SLOW = {
    "argon2id": ("password-hash", "hash", {"t": 2, "m": 19456, "p": 1, "out_len": 32}),
    "scrypt": ("kdf", "derive", {"n": 16384, "r": 8, "p": 1, "out_len": 32}),
}
MORE = {
    "blake2b-512": ("hash", "digest", {}),
    "crc32c": ("checksum", "digest", {}),
    "chacha20-poly1305": ("aead", "seal", {"aad_len": 0}),
}
SIZES = (64, 1024, 8192)
IMPLS = ("go/stdlib", "rust/ring")


def base_ns(impl: str, primitive: str, size: int) -> float:
    if primitive in SLOW:
        return 40e6 if primitive == "argon2id" else 60e6
    per_call = 200.0 if impl.startswith("go") else 120.0
    per_byte = 2.0 if primitive == "sha256" else 0.8
    return per_call + per_byte * size


def samples(rng, mean_ns: float, n: int, noise: float) -> list[dict]:
    iterations = max(1, int(1e7 / mean_ns))
    per_op = rng.normal(mean_ns, mean_ns * noise, n).clip(mean_ns * 0.5)
    return [{"iterations": iterations, "ns": int(x * iterations)} for x in per_op]


def result(impl, primitive, size, rng, speed=1.0, n=20, noise=0.005, **over) -> dict:
    family, op, params = {**FAST, **SLOW, **MORE}[primitive]
    ss = samples(rng, base_ns(impl, primitive, size) * speed, n, noise)
    per_op = sorted(s["ns"] / s["iterations"] for s in ss)
    med = float(np.median(per_op))
    low, high = per_op[n // 2 - 4], per_op[n // 2 + 3]
    slow = family in ("password-hash", "kdf")
    r = {
        "runtime": impl.split("/")[0],
        "implementation": impl,
        "library": impl.split("/")[1],
        "library_version": "1.0",
        "backend": "fake 1",
        "primitive": primitive,
        "family": family,
        "operation": op,
        "size": size,
        "params": dict(params),
        "status": "ok",
        "error": None,
        "verified": True,
        "verification": "2 known answers; agrees with another",
        "median_ns": med,
        "ci_low_ns": low,
        "ci_high_ns": high,
        "precision": (high - low) / 2 / med,
        "throughput_mb_s": None if slow else size / med * 1e3,
        "ops_per_s": 1e9 / med,
        "cycles_per_byte": None if slow else med * 3.0 / size,
        "n_samples": n,
        "samples": ss,
        "warmup_ns": 1_000_000,
        "warmup_samples": [],
        "flags": [],
        "security_status": "recommended",
        "code_path": "SHA-NI" if primitive == "sha256" else "generic",
    }
    r.update(over)
    return r


def make_doc(
    run_id: str = "0a1b2c3d-0000-4000-8000-000000000001",
    cpu: str = "Fake CPU 3000",
    seed: int = 1,
    speed: dict | None = None,
    impls=IMPLS,
    slow: bool = True,
    noise: float = 0.005,
) -> dict:
    rng = np.random.default_rng(seed)
    speed = speed or {}
    results = [
        result(impl, prim, size, rng, speed.get((impl, prim), 1.0), noise=noise)
        for impl in impls
        for prim in FAST
        for size in SIZES
    ]
    if slow:
        results += [
            result(impl, prim, 8, rng, speed.get((impl, prim), 1.0), n=10, noise=noise)
            for impl in impls
            for prim in SLOW
        ]
    noop = result("go/stdlib", "sha256", 64, rng, family="noop", implementation="go/noop")
    results.append({**noop, "primitive": "noop", "library": "noop"})
    return {
        "schema": "cryptobench/results/v1",
        "run": {
            "id": run_id,
            "started": "2026-11-22T01:00:00+00:00",
            "ended": "2026-11-22T01:05:00+00:00",
            "status": "complete",
            "command": "cryptobench run --preset quick",
            "preset": "quick",
            "seed": seed,
            "git_commit": "0123abc",
            "settings": {"precision": 0.02, "time_per_case": 0.25},
            "runtimes": [{"id": "go", "name": "go", "version": "go1.26"}],
            "implementations": [{"id": i, "version": "1.0"} for i in impls],
            "skipped": [{"runtime": "pascal", "reason": "toolchain missing: fpc not found"}],
        },
        "machine": {
            "cpu_model": cpu,
            "cpu_flags": {"aes": True, "sha_ni": False},
            "cores": 2,
            "tsc_hz": 3.0e9,
            "kernel": "6.1",
            "os": "Debian 12",
        },
        "results": results,
    }


def hostile_doc() -> dict:
    """Every string a results file can carry, made hostile."""
    doc = make_doc(impls=(f"go/{HOSTILE}", f"rust/{SCRIPT_BREAK}"))
    doc["machine"]["cpu_model"] = HOSTILE
    doc["machine"]["os"] = SCRIPT_BREAK
    doc["run"]["command"] = HOSTILE
    doc["run"]["skipped"] = [{"runtime": HOSTILE, "reason": SCRIPT_BREAK}]
    for r in doc["results"]:
        r["library_version"] = HOSTILE
        r["backend"] = SCRIPT_BREAK
        r["code_path"] = HOSTILE
        r["flags"] = [HOSTILE]
    failed = copy.deepcopy(doc["results"][0])
    failed.update(status="failed", error=HOSTILE, samples=[], size=16, n_samples=0)
    for k in ("median_ns", "ci_low_ns", "ci_high_ns", "precision", "throughput_mb_s"):
        failed[k] = None
    doc["results"].append(failed)
    return doc


# runtime/library -> (speed factor, reuses its key object)
POLYGLOT = {
    "c/openssl": (0.5, True),
    "go/stdlib": (1.0, True),
    "rust/ring": (0.6, True),
    "rust/rustcrypto": (0.9, True),
    "java/jdk": (1.4, True),
    "java/bc": (2.2, True),
    "python/hashlib": (0.8, True),
    "python/cryptography": (1.1, True),
    "python/pycryptodome": (3.0, False),
    "node/crypto": (1.3, False),
    "node/noble": (6.0, False),
    "php/openssl": (1.6, False),
}


def polyglot_doc(seed: int = 3) -> dict:
    """A run shaped like `default` on many runtimes: hashes, a checksum and AEADs at four
    sizes; libraries whose API has no reusable key object have their reused-key AEAD case
    "not offered" and a fresh-context figure instead (as plan.build schedules it)."""
    rng = np.random.default_rng(seed)
    doc = make_doc(impls=("go/stdlib",), slow=False, seed=seed)
    out = [r for r in doc["results"] if r["family"] == "noop"]
    sizes = (16, 64, 1024, 16384)
    for impl, (speed, reuses) in POLYGLOT.items():
        for prim in ("sha256", "blake2b-512", "crc32c", "aes-128-gcm", "chacha20-poly1305"):
            family, op, params = {**FAST, **MORE}[prim]
            for size in sizes:
                if family != "aead":
                    out.append(result(impl, prim, size, rng, speed, n=10))
                    continue
                keyed = {**params, "fresh_context": False}
                if reuses:
                    out.append(result(impl, prim, size, rng, speed, n=10, params=keyed))
                    continue
                skipped = result(impl, prim, size, rng, speed, n=10, params=keyed)
                for k in ("median_ns", "ci_low_ns", "ci_high_ns", "precision", "throughput_mb_s"):
                    skipped[k] = None
                skipped.update(
                    status="skipped",
                    samples=[],
                    n_samples=0,
                    error="not offered: this API cannot reuse a key/context "
                    "(measured with fresh_context=true)",
                )
                out.append(skipped)
                fresh = {**params, "fresh_context": True}
                out.append(result(impl, prim, size, rng, speed * 1.2, n=10, params=fresh))
    doc["results"] = out
    doc["run"]["command"] = "cryptobench run --preset default"
    doc["run"]["preset"] = "default"
    return doc
