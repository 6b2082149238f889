"""--metric instructions for real: c/openssl (else python/hashlib) SHA-256 of 1 KiB counted
under valgrind twice. Skips with the reason when valgrind or the runner is missing; in CI
(CRYPTOBENCH_STRICT=1, tests/conftest.py) such a skip is a failure."""

from __future__ import annotations

import hashlib

import pytest

from cryptobench.catalog import primitives as catalog
from cryptobench.measure import instructions
from cryptobench.measure.case import Prepared
from cryptobench.plan.cases import Case
from cryptobench.runtimes import discovery, valgrind
from cryptobench.runtimes.session import Runtime

MSG = bytes(range(256)) * 4  # 1 KiB


def runtime() -> tuple[Runtime, str]:
    why = valgrind.missing(callgrind_control=True)
    if why:
        pytest.skip(why)
    specs = {s.runtime_id: s for s in discovery.discover()}
    for rid, library in (("c", "openssl"), ("python", "hashlib")):
        spec = specs.get(rid)
        if spec and not spec.skipped:
            rt = Runtime(spec)
            rt.start()
            if rt.failed is None and any(i.library == library for i in rt.implementations):
                return rt, library
            rt.stop()
    pytest.skip("neither the c runner (openssl) nor python/hashlib can run (make setup)")


def prepared(rt: Runtime, library: str) -> Prepared:
    impl = next(i for i in rt.implementations if i.library == library)
    case = Case(impl, catalog.load().get("sha256"), "digest", len(MSG), {})
    expected = hashlib.sha256(MSG).hexdigest()  # the verified output the count must return
    return Prepared(0, case, {"msg": MSG.hex()}, expected, "hashlib")


def test_sha256_is_counted_the_same_twice_on_the_path_valgrind_shows():
    rt, library = runtime()
    try:
        p = prepared(rt, library)
        first = instructions.count(rt, p, 20_000.0, 600.0)  # N = 100
        second = instructions.count(rt, p, 20_000.0, 600.0)
    finally:
        rt.stop()
    a, b = first["instructions_per_op"], second["instructions_per_op"]
    # 1 KiB is 17 compression blocks with the padding: thousands of instructions, not tens
    assert 17 * 500 < a < 17 * 20_000
    assert abs(b / a - 1) < 0.001  # counts, not times: they agree within 0.1%
    assert first["instructions"]["code_path"] == second["instructions"]["code_path"]
    assert "avx512f" not in first["instructions"]["cpu_features"]  # valgrind's own CPUID


def test_a_wrong_verified_output_stops_the_count():
    rt, library = runtime()
    try:
        p = prepared(rt, library)
        p.expected = "00" * 32
        with pytest.raises(instructions.CountError, match="differs from the verified output"):
            instructions.count(rt, p, 20_000.0, 600.0)
    finally:
        rt.stop()
