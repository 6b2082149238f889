"""The verification-test body the key-agreement, signature and KEM tests share (test_pubkey.py,
test_kem.py, test_mldsa.py, test_slhdsa.py): `cryptobench verify` over real runners, what one
runtime made checked by another's implementation, the Wycheproof (or ACVP) tallies, and
wrong-length inputs refused as invalid_params."""

from __future__ import annotations

import json

import pytest

from tests.conftest import built, cli, compute_errors


def flags(name: str, values) -> list[str]:
    """``--name v`` for every value, e.g. flags("runtime", ("go", "node"))."""
    return [a for v in values for a in (f"--{name}", v)]


def verify_rows(*where: str, timeout: float = 900) -> list[dict]:
    """The rows of `cryptobench verify WHERE --format json`, which exits 0."""
    res = cli("verify", *where, "--format", "json", timeout=timeout)
    assert res.returncode == 0, res.stderr[-2000:]
    return json.loads(res.stdout)["verification"]


def wycheproof_tallies(*where: str, timeout: float = 900) -> dict[str, dict]:
    """implementation → its tally from `cryptobench verify --suite wycheproof WHERE`, which
    exits 0."""
    res = cli("verify", "--suite", "wycheproof", *where, "--format", "json", timeout=timeout)
    assert res.returncode == 0, res.stderr[-2000:]
    return {t["implementation"]: t for t in json.loads(res.stdout)["wycheproof"]}


def assert_checked_by_another_runtime(rows: list[dict], runtimes, made: str) -> None:
    """What each `made` row (sign, encaps) made was checked by an implementation of another
    of `runtimes` (its detail names it)."""
    for r in rows:
        if r["operation"] == made:
            runtime = r["implementation"].split("/")[0]
            assert any(f"{o}/" in r["detail"] for o in runtimes if o != runtime), r


def rustcrypto_and_circl_check_each_other(sizes, operations, made: str) -> dict:
    """rust/rustcrypto offers `operations` of every primitive in `sizes`, go/circl checks what
    it made (`made`: sign, encaps) and it checks circl's, every row ok; returns its one
    Wycheproof tally."""
    prims = flags("primitive", sizes)
    rows = verify_rows("--runtime", "rust", "--runtime", "go", *prims)
    rows = [r for r in rows if r["primitive"] in sizes]
    rust = [r for r in rows if r["implementation"] == "rust/rustcrypto"]
    ops = {(p, op) for p in sizes for op in operations}
    assert {(r["primitive"], r["operation"]) for r in rust} == ops
    assert all(r["status"] == "ok" for r in rows)
    for r in rust:
        if r["operation"] == made:
            assert "go/circl" in r["detail"], r
    circl = [r for r in rows if r["implementation"] == "go/circl" and r["operation"] == made]
    assert len(circl) == len(sizes) and all("rust/rustcrypto" in r["detail"] for r in circl)
    (tally,) = wycheproof_tallies("--impl", "rust/rustcrypto", *prims).values()
    return tally


def java_checked_by_circl(where, sizes, java: set[str], made: str) -> tuple[list[dict], dict]:
    """`verify WHERE` (java and go): the `java` implementations and not JDK 17's (no ML-KEM nor
    ML-DSA before JDK 24), every row ok, what a Java row made (`made`) checked by go/circl (the
    JDK takes no seed); returns the rows of `sizes`' primitives and the Wycheproof tallies."""
    rows = [r for r in verify_rows(*where) if r["primitive"] in sizes]
    impls = {r["implementation"] for r in rows}
    assert impls >= java and "java/jdk" not in impls
    assert all(r["status"] == "ok" for r in rows)
    for r in rows:
        if r["operation"] == made and r["implementation"] in java:
            assert "go/circl" in r["detail"], r
    return rows, wycheproof_tallies(*where)


def assert_wrong_lengths_refused(runtime: str, impl: str, primitive: str, wrong) -> None:
    """Every ``(operation, inputs)`` of `wrong` answered invalid_params by a fresh runner."""
    if not built(runtime):
        pytest.skip(f"{runtime} not built")
    kinds = compute_errors(runtime, impl, primitive, wrong)
    assert kinds == ["invalid_params"] * len(wrong), kinds


def assert_every_case_passed(tallies: dict[str, dict], impls, cases: int) -> None:
    """Each of `impls` passed all `cases` of its Wycheproof (or ACVP) tally: none unsupported,
    none failed."""
    for impl in impls:
        got = tallies[impl]
        assert (got["passed"], got["unsupported"], got["failed"]) == (cases, 0, 0), (impl, got)
