"""HMAC `verify` on the orchestrator's side (docs/protocol.md, operations table): the catalog
and the plan, the verifier's known answers (RFC 4231 tags accepted, flipped / truncated /
empty tags refused), agreement with another implementation's `mac`, Wycheproof, and the leak
target's classes. Fake runtimes answer with Python's own `hmac` (a real library) and, for the
failures, with a verify that accepts what it must not; no runner, no timing."""

from __future__ import annotations

import hashlib
import hmac
import json
from types import SimpleNamespace

import pytest

from cryptobench.catalog import primitives as catalog_mod
from cryptobench.cli.info import _hex_inputs
from cryptobench.errors import UsageError
from cryptobench.leak import taint
from cryptobench.leak import targets as lt
from cryptobench.leak.want import Unverified, Want
from cryptobench.paths import project_root
from cryptobench.plan import cases as plan
from cryptobench.runtimes.inputs import case_inputs
from cryptobench.runtimes.protocol import Implementation, Offer, RemoteError
from cryptobench.verify import vectors, wycheproof
from cryptobench.verify.checks import flip
from cryptobench.verify.verifier import Verifier

from .conftest import cli

CAT = catalog_mod.load()
VECS = vectors.load_all(CAT)
HMAC = CAT.get("hmac-sha256")
BOTH = ("mac", "verify")


def _mac(key: str, msg: str) -> str:
    return hmac.new(bytes.fromhex(key), bytes.fromhex(msg), hashlib.sha256).hexdigest()


def right(key: str, msg: str, tag: str) -> bool:
    return hmac.compare_digest(_mac(key, msg), tag)


def accepts_last_flip(key: str, msg: str, tag: str) -> bool:
    """Compares all but the last byte: a verify that misses the end of the tag."""
    return len(tag) == 64 and _mac(key, msg)[:62] == tag[:62]


def accepts_prefix(key: str, msg: str, tag: str) -> bool:
    """Compares as many bytes as it was sent (16 or more): a truncated tag passes."""
    return len(tag) >= 32 and _mac(key, msg).startswith(tag)


def crashes_on_length(key: str, msg: str, tag: str) -> bool:
    if len(tag) != 64:
        raise RemoteError("internal", "tag length")
    return right(key, msg, tag)


def wrong_at_1000(key: str, msg: str, tag: str) -> bool:
    """Right on every known answer, refuses a correct tag over a 1000-byte message."""
    return len(msg) != 2000 and right(key, msg, tag)


class MacRuntime:
    """A runtime whose libraries compute HMAC-SHA-256 with Python's hmac and verify with the
    given function; ``sent`` keeps every request's operation and inputs."""

    def __init__(self, rid: str, libs: dict, ops=BOTH, reuses_key=True):
        self.id, self.libs, self.sent = rid, libs, []
        self.spec = SimpleNamespace(leak_control_bytes=None)
        offer = Offer(ops, reuses_key=reuses_key)
        self.implementations = [
            Implementation(f"{rid}/{lib}", rid, lib, "1", {"name": lib}, {HMAC.id: offer})
            for lib in libs
        ]

    def request(self, op, timeout, impl, primitive, operation, inputs, params):
        self.sent.append((impl, operation, dict(inputs)))
        if primitive != HMAC.id:
            raise RemoteError("unsupported", primitive)
        if operation == "mac":
            return {"output": _mac(inputs["key"], inputs["msg"])}
        if self.libs[impl](inputs["key"], inputs["msg"], inputs["tag"]):
            return {"output": "ok"}
        raise RemoteError("auth_failed", "tag mismatch")


def _verifier(*rts) -> Verifier:
    return Verifier(CAT, VECS, list(rts))


def _kat(verify) -> tuple:
    rt = MacRuntime("a", {"lib": verify})
    v = _verifier(rt)
    return v.known_answers(v.impls["a/lib"], HMAC.id, "verify"), rt


# -- catalog and plan ---------------------------------------------------------------------------


def test_verify_of_a_mac_is_keyed_and_legal():
    assert HMAC.operations == BOTH
    assert HMAC.keyed("verify") and HMAC.symmetric_keyed("verify")
    assert CAT.resolve_params(HMAC, {"fresh_context": True}, "verify") == {"fresh_context": True}
    assert not CAT.get("argon2id").symmetric_keyed("verify")  # a password's verify is not


@pytest.mark.parametrize("name", ["default", "quick", "ci"])
def test_the_named_presets_plan_no_mac_verify(name):
    groups = plan.groups_for(plan.load_preset(name, CAT), plan.Filters(), CAT)
    planned = {
        (p, op)
        for g in groups
        for p in g.primitives
        for op in (g.operations or CAT.get(p).operations)
        if op in CAT.get(p).operations
    }
    assert planned
    assert not [(p, op) for p, op in planned if CAT.get(p).family == "mac" and op == "verify"]


def test_the_default_preset_times_hmac_mac_only():
    impls = MacRuntime("a", {"lib": right}).implementations
    groups = plan.groups_for(plan.load_preset("default", CAT), plan.Filters(), CAT)
    cases, _ = plan.build(groups, plan.Filters(), CAT, impls)
    assert {(c.prim.id, c.operation) for c in cases} == {(HMAC.id, "mac")}


def test_a_primitive_named_alone_plans_mac_and_verify_with_a_fresh_key_where_needed():
    impls = MacRuntime("a", {"lib": right}, reuses_key=False).implementations
    groups = plan.groups_for(None, plan.Filters(primitives=[HMAC.id]), CAT)
    cases, not_offered = plan.build(groups, plan.Filters(sizes=[64]), CAT, impls)
    assert sorted((c.operation, c.params["fresh_context"]) for c in cases) == [
        ("mac", True),
        ("verify", True),
    ]
    assert sorted(c.operation for c, _ in not_offered) == ["mac", "verify"]


def test_verify_inputs_send_the_message_as_hex():
    inputs = case_inputs(HMAC, "verify", 64, {"fresh_context": False}, seed=1)
    assert isinstance(inputs["msg"], str) and len(inputs["msg"]) == 128
    assert len(inputs["key"]) == 64 and "tag" not in inputs  # the tag: made by verification


def test_compute_takes_a_hex_tag():
    assert _hex_inputs({"tag": "AB01", "key": None}) == {"tag": "ab01"}
    with pytest.raises(UsageError, match="--tag must be hex"):
        _hex_inputs({"tag": "zz"})


# -- known answers ------------------------------------------------------------------------------


def test_a_correct_verify_passes_every_rfc_tag_and_refuses_each_tampered_one():
    check, rt = _kat(right)
    tags = [v.output for v in VECS[HMAC.id] if v.output]
    assert check.ok and check.vectors == len(tags)
    sent = [i for _, op, i in rt.sent if op == "verify"]
    assert all(set(i) == {"key", "msg", "tag"} for i in sent)  # never a password's inputs
    for tag in tags:
        assert {tag, flip(tag, 0), flip(tag, -1), tag[:32], ""} <= {i["tag"] for i in sent}


@pytest.mark.parametrize(
    ("verify", "says"),
    [
        (accepts_last_flip, "accepted a tag: its last byte flipped"),
        (accepts_prefix, "accepted a tag: 16 bytes of it"),
        (crashes_on_length, "internal instead of auth_failed"),
        (lambda k, m, t: True, "accepted a tag: its first byte flipped"),
    ],
)
def test_a_verify_that_accepts_or_crashes_on_a_wrong_tag_fails(verify, says):
    check, _ = _kat(verify)
    assert not check.ok and says in check.detail


# -- agreement ----------------------------------------------------------------------------------


def _case(v: Verifier, impl_id: str, size: int):
    inputs = case_inputs(HMAC, "verify", size, {"fresh_context": False}, seed=7)
    params = {"fresh_context": False}
    return v.check_case(v.impls[impl_id], HMAC, "verify", inputs, params), inputs


def test_verify_accepts_another_backends_tag_and_times_that_tag():
    v = _verifier(MacRuntime("a", {"mine": right}), MacRuntime("b", {"peer": right}))
    (check, bench_inputs, expected), inputs = _case(v, "a/mine", 1000)
    assert check.ok and check.detail.endswith("verifies b/peer's tag")
    assert expected == "ok"
    assert bench_inputs == {**inputs, "tag": _mac(inputs["key"], inputs["msg"])}


def test_verify_alone_uses_its_own_mac_and_a_refused_correct_tag_fails():
    v = _verifier(MacRuntime("a", {"mine": right}))
    assert _case(v, "a/mine", 64)[0][0].detail.endswith("verifies a/mine's tag")
    v = _verifier(MacRuntime("a", {"buggy": wrong_at_1000}), MacRuntime("b", {"peer": right}))
    check = _case(v, "a/buggy", 1000)[0][0]
    assert not check.ok and check.detail.startswith("cross-check")


# -- Wycheproof ---------------------------------------------------------------------------------


def _wycheproof_tally(verify):
    doc = json.loads((project_root() / "vectors/wycheproof/hmac_sha256_test.json").read_text())
    cases = {HMAC.id: wycheproof._cases_of("hmac_sha256", doc)}
    rt = MacRuntime("a", {"lib": verify})
    suite = wycheproof.Suite(_verifier(rt), CAT)
    return suite.run(rt.implementations[0], cases), cases[HMAC.id], rt


def test_wycheproof_verifies_full_length_valid_tags_and_refuses_the_rest():
    tally, cases, rt = _wycheproof_tally(right)
    assert tally.ok and tally.passed == len(cases)
    full = [c for c in cases if c.result == "valid" and c.sizes["tag"] == HMAC.output_len]
    verified = {i["tag"] for _, op, i in rt.sent if op == "verify"}
    assert full and all(flip(c.expected, -1) in verified for c in full)
    assert any(c.sizes["tag"] < HMAC.output_len and c.expected in verified for c in cases)


def test_wycheproof_fails_a_verify_that_accepts_a_truncated_tag():
    tally, cases, _ = _wycheproof_tally(accepts_prefix)
    truncated = [c for c in cases if c.result == "valid" and c.sizes["tag"] < HMAC.output_len]
    assert truncated and not tally.ok
    assert all("expected auth_failed" in f for f in tally.failed)


# -- the leak target ----------------------------------------------------------------------------


def _req():
    return SimpleNamespace(measurements=50_000, impls=[], primitives=[], control_bytes=None)


def test_only_an_implementation_offering_verify_is_a_mac_target():
    rt = MacRuntime("a", {"v": right}, reuses_key=False)
    rt.implementations.append(Implementation("a/m", "a", "m", "1", {}, {HMAC.id: Offer(("mac",))}))
    got = [t for t in lt.plan_targets([rt], CAT, _req()) if t.impl]
    assert [(t.impl_id, t.family, t.operation, t.measurements) for t in got] == [
        ("a/v", "mac", "verify", _req().measurements)
    ]
    assert got[0].params == {**HMAC.defaults(), "fresh_context": True}


def _target(verify) -> lt.Target:
    rt = MacRuntime("a", {"lib": verify})
    return next(t for t in lt.plan_targets([rt], CAT, _req()) if t.impl)


def _differs_at(a: str, b: str) -> list[int]:
    return [
        k for k, (x, y) in enumerate(zip(bytes.fromhex(a), bytes.fromhex(b), strict=True)) if x != y
    ]


@pytest.mark.parametrize("rep", [0, 1])
def test_mac_classes_flip_the_first_and_last_tag_byte_and_the_pair_one_position(rep):
    cl = lt.classes_for(_target(right), CAT, seed=3, timeout=1.0, rep=rep)
    key, msg = cl.shared["key"], cl.shared["msg"]
    assert (len(key), len(msg)) == (2 * lt.MAC_KEY_LEN, 2 * lt.MAC_MSG_LEN)
    tag, last = _mac(key, msg), HMAC.output_len - 1
    sides = {"A": cl.first, "B": cl.last, "aa0": cl.aa[0], "aa1": cl.aa[1]}
    at = {name: _differs_at(tag, s.inputs[0]["tag"]) for name, s in sides.items()}
    assert at["A"] == [0] and at["B"] == [last]
    assert at["aa0"] == at["aa1"] == [0 if rep == 0 else last]
    assert cl.aa[0].inputs[0]["tag"] != cl.aa[1].inputs[0]["tag"]  # two different masks
    assert all(s.wants == (Want("auth_failed"),) for s in sides.values())
    assert all(not right(key, msg, s.inputs[0]["tag"]) for s in sides.values())


class SaysTrue(MacRuntime):
    """A verify that answers something other than "ok" for a matching tag."""

    def request(self, op, timeout, impl, primitive, operation, inputs, params):
        if operation == "verify":
            return {"output": "true"}
        return super().request(op, timeout, impl, primitive, operation, inputs, params)


@pytest.mark.parametrize(
    ("rt", "says"),
    [
        (MacRuntime("a", {"lib": lambda k, m, t: False}), "gave 'auth_failed', not ok"),
        (SaysTrue("a", {"lib": right}), "gave 'true', not ok"),
    ],
)
def test_mac_classes_are_unverified_when_its_own_tag_does_not_verify(rt, says):
    t = next(t for t in lt.plan_targets([rt], CAT, _req()) if t.impl)
    with pytest.raises(Unverified, match=says):
        lt.classes_for(t, CAT, seed=3, timeout=1.0)


def test_the_taint_check_marks_the_mac_key():
    t = _target(right)
    cl = lt.classes_for(t, CAT, seed=3, timeout=1.0)
    fields = taint._fields(t, cl, cl.first)
    assert fields["taint"] == ["key"] and fields["operation"] == "verify"
    assert fields["inputs"] == cl.shared and fields["classes"][0] == cl.first.inputs[0]


# -- end to end, the Python runner ----------------------------------------------------------


def test_verify_and_leak_of_hmac_verify_through_the_python_runner():
    """Every Python library whose hello offers HMAC verify passes the verification matrix
    (known answers and another implementation's tag) and gets a leak target whose classes
    both answer auth_failed (no verdict judged)."""
    proc = cli("verify", "--runtime", "python", "--primitive", HMAC.id, "--format", "json")
    rows = [r for r in json.loads(proc.stdout)["verification"] if r.get("operation") == "verify"]
    if not rows:
        pytest.skip("no Python library offers HMAC verify")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert all(r["status"] == "ok" and "'s tag" in r["detail"] for r in rows), rows
    args = ("--runtime", "python", "--primitive", HMAC.id, "--measurements", "1000")
    proc = cli("leak", *args, "--seed", "3", "--format", "json")
    assert proc.returncode == 0, proc.stderr[-2000:]
    macs = [r for r in json.loads(proc.stdout)["results"] if r["family"] == "mac"]
    assert sorted(r["implementation"] for r in macs) == sorted(r["implementation"] for r in rows)
    for r in macs:
        assert r["status"] == "ok" and r["leak"]["target"] == "verify", r
        assert r["verification"] == "both classes and the A/A pair: auth_failed"
