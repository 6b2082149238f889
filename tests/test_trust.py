"""The trust logic in-process, with scripted runtimes (no runner processes): agreement
between implementations, the plan, and the store."""

from __future__ import annotations

import hashlib
import sqlite3

import pytest

from cryptobench.catalog import primitives as catalog
from cryptobench.errors import DataError, UsageError
from cryptobench.plan import cases as plan
from cryptobench.results import document as results
from cryptobench.runtimes.protocol import Implementation, Offer, RemoteError, RunnerFailure
from cryptobench.store.sqlite import Store
from cryptobench.verify import vectors
from cryptobench.verify.verifier import Verifier

CAT = catalog.load()
VECS = vectors.load_all(CAT)
SHA = CAT.get("sha256")


def right(msg: bytes) -> str:
    return hashlib.sha256(msg).hexdigest()


def wrong_at_1000(msg: bytes) -> str:
    """Passes every known answer, wrong on a 1000-byte message (a bug at some size)."""
    return "00" * 32 if len(msg) == 1000 else right(msg)


def crash_at_1000(msg: bytes) -> str:
    if len(msg) == 1000:
        raise RunnerFailure("crashed", "scripted crash")
    return right(msg)


class Scripted:
    """A runtime whose libraries are Python functions of the message."""

    def __init__(self, rid: str, libs: dict):
        self.id, self.libs = rid, libs
        self.implementations = [
            Implementation(
                f"{rid}/{lib}",
                rid,
                lib,
                "1",
                {"name": backend},
                {"sha256": Offer(("digest",)), "aes-128-gcm": Offer(("seal",), reuses_key=False)},
            )
            for lib, (backend, _) in libs.items()
        ]

    def request(self, op, timeout, impl, primitive, operation, inputs, params):
        if primitive != "sha256":
            raise RemoteError("unsupported", primitive)
        return {"output": self.libs[impl][1](bytes.fromhex(inputs["msg"]))}


def check(runtimes, impl_id: str, size: int = 1000):
    v = Verifier(CAT, VECS, runtimes)
    impl = v.impls[impl_id]
    inputs = {"msg": "ab" * size}
    return v.check_case(impl, SHA, "digest", inputs, {})[0]


def test_agreement_prefers_another_backend():
    rts = [
        Scripted("a", {"one": ("openssl", right), "two": ("openssl", right)}),
        Scripted("b", {"three": ("own", right)}),
    ]
    got = check(rts, "a/one")
    assert got.ok and got.detail.endswith("agrees with b/three")


def test_a_runtime_variant_of_the_same_library_is_no_second_opinion():
    rts = [Scripted("java", {"jdk": ("jdk", right)}), Scripted("java@25", {"jdk": ("jdk", right)})]
    got = check(rts, "java/jdk")
    assert got.ok and got.detail.endswith("only implementation")


def test_two_disagreements_fail_the_case():
    rts = [
        Scripted("a", {"buggy": ("x", wrong_at_1000)}),
        Scripted("b", {"p": ("y", right), "q": ("z", right)}),
    ]
    got = check(rts, "a/buggy")
    assert not got.ok and "disagrees with b/p, b/q" in got.detail
    assert check(rts, "a/buggy", size=64).ok  # the same implementation at another size agrees


def test_a_crashing_peer_is_skipped_not_a_failure():
    rts = [Scripted("a", {"mine": ("x", right)}), Scripted("b", {"peer": ("y", crash_at_1000)})]
    got = check(rts, "a/mine")
    assert got.ok and got.detail.endswith("only implementation")
    rts.append(Scripted("c", {"good": ("z", right)}))
    assert check(rts, "a/mine").detail.endswith("agrees with c/good")


def test_plan_build_sizes_exclusions_and_not_offered():
    impls = [
        i
        for rt in [Scripted("a", {"one": ("x", right), "two": ("y", right)})]
        for i in rt.implementations
    ]
    groups = [plan.Group(["sha256"], sizes=[16, 64]), plan.Group(["aes-128-gcm"], sizes=[64])]
    cases, not_offered = plan.build(groups, plan.Filters(exclude=["a/two:sha256"]), CAT, impls)
    measured = [(c.impl.id, c.prim.id, c.size, c.params.get("fresh_context")) for c in cases]
    assert measured[:2] == [("a/one", "sha256", 16, None), ("a/one", "sha256", 64, None)]
    assert {c.impl.id for c, _ in not_offered} == {"a/one", "a/two"}
    assert all("cannot reuse a key" in why for _, why in not_offered)
    # their fresh-context figure is measured instead, for the report to show in their place
    assert sorted(measured[2:]) == [
        ("a/one", "aes-128-gcm", 64, True),
        ("a/two", "aes-128-gcm", 64, True),
    ]
    fresh, none = plan.build(groups[1:], plan.Filters(params={"fresh_context": True}), CAT, impls)
    assert len(fresh) == 2 and none == []
    with pytest.raises(UsageError, match="valid: "):
        plan.validate_filters(plan.Filters(impls=["a/nope"]), CAT, ["a"], [i.id for i in impls])


def _row(impl: str, status: str = "ok") -> dict:
    return {
        "implementation": impl,
        "primitive": "sha256",
        "operation": "digest",
        "size": 64,
        "status": status,
        "family": "hash",
    }


def test_store_replaces_a_case_after_each_round_and_reads_it_back(tmp_path):
    store = Store(tmp_path / "r.sqlite")
    run = {"id": "0123456789abcdef", "started": "t0", "status": "running", "machine": {}}
    store.begin_run(run)
    store.put_case(run["id"], 0, {**_row("a/one"), "rounds": [1]})
    store.put_case(run["id"], 0, {**_row("a/one"), "rounds": [1, 2]})
    store.put_case(run["id"], 1, _row("a/two", "failed"))
    store.update_run({**run, "status": "complete", "ended": "t1"})
    got_run, cases = store.load("0123")
    assert got_run["status"] == "complete" and [c["rounds"] for c in cases[:1]] == [[1, 2]]
    assert [c["status"] for c in cases] == ["ok", "failed"]
    assert store.resolve("last") == run["id"]
    with pytest.raises(UsageError, match="matches no run"):
        store.resolve("ffff")


def test_store_refuses_foreign_and_newer_files(tmp_path):
    foreign = tmp_path / "other.sqlite"
    sqlite3.connect(foreign).execute("CREATE TABLE t (x)").connection.commit()
    with pytest.raises(DataError, match="another application"):
        Store(foreign)
    newer = tmp_path / "newer.sqlite"
    Store(newer).close()
    db = sqlite3.connect(newer)
    db.execute("PRAGMA user_version = 99")
    db.commit()
    with pytest.raises(DataError, match="newer cryptobench"):
        Store(newer)


def test_size_inversions_are_found_per_case():
    rows = [
        {**_row("a/one"), "size": 16, "ci_low_ns": 300.0, "ci_high_ns": 310.0, "params": {}},
        {**_row("a/one"), "size": 64, "ci_low_ns": 90.0, "ci_high_ns": 100.0, "params": {}},
        {**_row("a/two"), "size": 16, "ci_low_ns": 300.0, "ci_high_ns": 310.0, "params": {}},
    ]
    assert list(results.size_inversions(rows)) == [0]
