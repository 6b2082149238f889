"""`cryptobench leak`'s public-key targets (docs/methodology.md, "Timing leakage"): which
targets are planned for ML-KEM decaps, key agreement and signing, how their classes are made
(keys and ciphertexts from the implementation, or a peer when it cannot), and what each class
must answer. A fake runtime answers `compute` and `leak`: a stand-in for the operations' data
flow (hashes, not cryptography), so nothing here depends on a runner or on timing."""

from __future__ import annotations

import base64
import hashlib
from types import SimpleNamespace

import pytest

from cryptobench.catalog import primitives as catalog_mod
from cryptobench.leak import command as leak
from cryptobench.leak import keyed
from cryptobench.leak import targets as lt
from cryptobench.leak.want import Side, Unprepared, Unverified, Want
from cryptobench.runtimes.protocol import Implementation, Offer, RemoteError
from cryptobench.stats.leak import CONTROL_REPLICATES, REPLICATES

CAT = catalog_mod.load()
KEM = ("keygen", "encaps", "decaps")
SIG = ("keygen", "sign", "verify")


def _h(*parts: str, n: int) -> str:
    return hashlib.shake_256(":".join(parts).encode()).hexdigest(n)


class FakeRuntime:
    """One runtime whose libraries answer with a hash-based stand-in of each operation, so
    the classes' bookkeeping can be checked; ``refuse``: (library, input) pairs refused as
    unsupported (a library that cannot take a key_seed or a chosen randomness)."""

    def __init__(self, rid: str, libs: dict[str, dict[str, tuple]], refuse=()):
        self.id, self.refuse, self.sent, self.made = rid, set(refuse), [], set()
        self.spec = SimpleNamespace(leak_control_bytes=None)
        self.implementations = [
            Implementation(
                f"{rid}/{lib}", rid, lib, "1", {}, {p: Offer(ops) for p, ops in prims.items()}
            )
            for lib, prims in libs.items()
        ]

    def stop(self):
        pass

    def request(self, op, timeout, **f):
        self.sent.append((op, f.get("impl"), f.get("operation"), f.get("inputs")))
        if op == "leak":
            return self._leak(f)
        for name in f["inputs"]:
            if (f["impl"], name) in self.refuse:
                raise RemoteError("unsupported", f"{f['impl']} takes no {name}")
        return {"output": self._compute(CAT.get(f["primitive"]), f["operation"], f["inputs"])}

    def _compute(self, prim, op, i):
        if op == "keygen":
            return _h("pub", i["key_seed"], n=prim.public_key_len) + i["key_seed"]
        if op == "encaps":
            m = i.get("randomness") or _h("m", str(len(self.sent)), n=32)
            ct = _h("ct", i["public_key"], m, n=prim.ciphertext_len)
            self.made.add(ct)
            return ct + _h("ss", ct, n=prim.output_len)
        if op == "decaps":
            ct = i["ciphertext"]
            return _h("ss" if ct in self.made else "reject", ct, n=prim.output_len)
        if op == "agree":
            return _h("dh", *sorted([i["private_key"], self._private(i["peer_public_key"])]), n=32)
        if op == "sign":
            return _h("sig", i["private_key"], i["msg"], n=prim.signature_len or 70)
        return "ok"  # verify

    def _private(self, public):
        for op, _, sub, i in self.sent:
            if op == "compute" and sub == "keygen":
                prim_len = len(public) // 2
                if _h("pub", i["key_seed"], n=prim_len) == public:
                    return i["key_seed"]
        raise AssertionError("unknown public key")

    def _leak(self, f):
        prim = CAT.get(f["primitive"])
        outs = [self._compute(prim, f["operation"], {**f["inputs"], **c}) for c in f["classes"]]
        n = len(base64.b64decode(f["order"]))
        return {"outcomes": outs, "ns": base64.b64encode(bytes(4 * n)).decode(), "clock": "x"}


def _req(**kw):
    return SimpleNamespace(
        **{"measurements": 50_000, "impls": [], "primitives": [], "control_bytes": None, **kw}
    )


def test_plan_gives_each_kem_two_targets_and_skips_what_is_no_target():
    rt = FakeRuntime(
        "go",
        {
            "stdlib": {"ml-kem-768": KEM, "x25519": ("keygen", "agree"), "ed25519": SIG},
            "enc-only": {"ml-kem-768": ("encaps",)},
            "rsa": {"rsa-2048-pss-sha256": SIG, "slh-dsa-sha2-128f": SIG},
        },
    )
    got = [
        (t.impl_id, t.primitive, t.name, t.measurements)
        for t in lt.plan_targets([rt], CAT, _req())
        if t.impl
    ]
    assert got == [
        ("go/stdlib", "ed25519", "sign", 50_000),
        ("go/stdlib", "ml-kem-768", "decaps fixed-random", 50_000),
        ("go/stdlib", "ml-kem-768", "decaps valid-rejected", 50_000),
        ("go/stdlib", "x25519", "agree", 50_000),
    ]  # no decaps to time in enc-only; RSA and SLH-DSA signing are not targets
    # the public-key targets' N is their ceiling: leak/command.py sizes them by a probe


def test_a_budget_raises_cheap_public_key_targets_over_their_divisor():
    n = 50_000
    fits = n * lt.COST_BUDGET_NS  # ns of calls the budget holds
    assert lt.budgeted_count(n, "sign", fits / 11_000) == 11_000  # ECDSA signing at ~22 µs
    assert lt.budgeted_count(n, "sign", 1.0) == n  # never more than N
    assert lt.budgeted_count(n, "sign", 1e6) == n // lt.COST_DIVISOR["sign"]  # the floor
    assert lt.budgeted_count(n, "decaps", 1e6) == n // lt.COST_DIVISOR["decaps"]
    assert lt.budgeted_count(2000, "agree", 1e6) == lt.COST_MIN  # never fewer than COST_MIN
    assert lt.budgeted_count(10 * n, "sign", fits / 11_000) == 10 * 11_000  # N scales it


def test_controls_take_more_processes_with_the_same_measurements():
    rt = FakeRuntime("go", {"stdlib": {"ed25519": SIG}})
    ctl = [t for t in lt.plan_targets([rt], CAT, _req()) if not t.impl]
    assert [t.replicates for t in ctl] == [CONTROL_REPLICATES] * 2
    total = 50_000 * lt.CONTROL_FACTOR * REPLICATES
    assert all(total - t.replicates < t.measurements * t.replicates <= total for t in ctl)


def test_counts_never_fall_under_the_minimum_and_peers_start_in_the_runtime():
    here = FakeRuntime("py", {"a": {"ml-kem-768": KEM}, "b": {"ml-kem-768": KEM}})
    there = FakeRuntime("go", {"c": {"ml-kem-768": KEM}})
    plan = [t for t in lt.plan_targets([there, here], CAT, _req(measurements=500)) if t.impl]
    assert {lt.budgeted_count(t.measurements, t.operation, 30e3) for t in plan} == {lt.COST_MIN}
    a = next(t for t in plan if t.impl_id == "py/a")
    assert [(rt.id, impl.library) for rt, impl in a.peers] == [("py", "b"), ("go", "c")]


def _target(rt, pid, kind="", peers=()):
    impl = rt.implementations[0]
    prim = CAT.get(pid)
    t = lt.Target(rt, impl, pid, prim.family, lt.TARGET_FAMILIES[prim.family], 1000, kind=kind)
    t.params, t.peers = {"fresh_context": False}, list(peers)
    return t


def test_valid_vs_rejected_classes_expect_the_secret_and_another_one():
    rt = FakeRuntime("go", {"stdlib": {"ml-kem-768": KEM}})
    t = _target(rt, "ml-kem-768", "valid-rejected")
    even = lt.classes_for(t, CAT, seed=1, timeout=5, rep=0, blocks=16)
    (valid, want), (bad, reject) = even.first.at(0), even.last.at(3)
    assert len(even.shared["private_key"]) == 2 * 64
    assert bytes.fromhex(valid["ciphertext"])[0] ^ bytes.fromhex(bad["ciphertext"])[0] == 1
    assert want.exact and reject.unlike == want.exact
    assert all(w.exact for s in even.aa for w in s.wants)  # even: two valid ciphertexts
    odd = lt.classes_for(t, CAT, seed=1, timeout=5, rep=1, blocks=16)
    assert all(w.unlike for s in odd.aa for w in s.wants)  # odd: two rejected ones
    assert odd.aa[0].inputs != odd.aa[1].inputs
    assert odd.shared != even.shared  # fresh key pair per replicate


def test_a_rejection_secret_equal_to_the_valid_one_or_an_error_is_not_accepted():
    w = Want(unlike="ab" * 32)
    assert w.ok("cd" * 32)
    assert not w.ok("ab" * 32) and not w.ok("auth_failed") and not w.ok("cd" * 31)
    assert Want(sizes=(8, 72)).ok("00" * 70) and not Want(sizes=(64, 64)).ok("00" * 63)


def test_fixed_vs_random_encapsulates_the_zero_message_and_a_fresh_one_per_block():
    rt = FakeRuntime("go", {"stdlib": {"x25519-mlkem768": KEM}})
    t = _target(rt, "x25519-mlkem768", "fixed-random")
    cl = lt.classes_for(t, CAT, seed=2, timeout=5, rep=0, blocks=8)
    chosen = [i["randomness"] for op, _, sub, i in rt.sent if sub == "encaps" and "randomness" in i]
    assert len(chosen) == 1 and chosen[0][:64] == "00" * 32 and len(chosen[0]) == 2 * 64
    assert len(cl.first.inputs) == 1
    for side in (cl.last, *cl.aa):
        assert len(side.inputs) == len(side.wants) == 8
        assert len({i["ciphertext"] for i in side.inputs}) == 8


def test_a_chosen_m_refused_by_the_library_comes_from_a_peer_or_the_case_is_skipped():
    rt = FakeRuntime("py", {"crypto": {"ml-kem-768": KEM}}, refuse=[("crypto", "randomness")])
    peer = FakeRuntime("go", {"stdlib": {"ml-kem-768": KEM}})
    t = _target(rt, "ml-kem-768", "fixed-random", peers=[(peer, peer.implementations[0])])
    stopped = []
    peer.stop = lambda: stopped.append(peer.id)
    lt.classes_for(t, CAT, seed=3, timeout=5, blocks=2)
    assert [s[2] for s in peer.sent] == ["encaps"]  # only the one rt refused
    assert stopped == ["go"]  # no idle helper beside the timed calls
    t.peers = []
    with pytest.raises(Unprepared, match="randomness"):
        lt.classes_for(t, CAT, seed=3, timeout=5, blocks=2)


def test_agreement_classes_a_fixed_low_weight_key_against_drawn_ones():
    rt = FakeRuntime("go", {"stdlib": {"ecdh-p256": ("keygen", "agree")}})
    t = _target(rt, "ecdh-p256")
    cl = lt.classes_for(t, CAT, seed=4, timeout=5, blocks=16)
    assert cl.first.inputs == ({"private_key": keyed.FIXED_KEYS["ecdh-p256"]},)
    assert cl.first.wants[0].exact  # what the peer's side agrees with the fixed key
    drawn = [i["private_key"] for s in (cl.last, *cl.aa) for i in s.inputs]
    assert len(set(drawn)) == 48
    assert all(0 < int(k, 16) < keyed.P256_N for k in drawn)
    assert set(cl.shared) == {"peer_public_key"}


def test_signing_checks_the_fixed_keys_signature_first():
    rt = FakeRuntime("go", {"stdlib": {"ed25519": SIG}})
    t = _target(rt, "ed25519")
    cl = lt.classes_for(t, CAT, seed=5, timeout=5, blocks=8)
    assert cl.first.wants[0].exact  # Ed25519 is deterministic: the very signature
    assert cl.last.wants[0].sizes == (64, 64) and set(cl.shared) == {"msg"}

    def refuse(op, timeout, **f):
        if f.get("operation") == "verify":
            raise RemoteError("auth_failed", "bad signature")
        return FakeRuntime.request(rt, op, timeout, **f)

    rt.request = refuse
    with pytest.raises(Unverified, match="does not verify"):
        lt.classes_for(t, CAT, seed=5, timeout=5, blocks=8)


def test_a_measurement_checks_each_blocks_outcomes_in_the_swapped_order_too():
    rt = FakeRuntime("go", {"stdlib": {"ml-kem-768": KEM}})
    t = _target(rt, "ml-kem-768", "valid-rejected")
    cl = lt.classes_for(t, CAT, seed=6, timeout=5, blocks=16)
    req = leak.LeakRequest(command="x", db=None, seed=6)
    m = leak._measurement(t, req, cl.shared, (cl.first, cl.last), "")
    assert len(m.ns) == t.measurements and len(set(m.blocks.tolist())) == 16
    sent = [f for f in rt.sent if f[0] == "leak"]
    assert len(sent) == 16
    wrong = Side.one(cl.last.inputs[0], Want(cl.first.wants[0].exact))  # a rejection as valid
    with pytest.raises(Unverified, match="not"):
        leak._measurement(t, req, cl.shared, (cl.first, wrong), "")


def test_a_kem_case_ends_skipped_with_the_reason_when_nothing_can_prepare_it():
    rt = FakeRuntime("py", {"crypto": {"ml-kem-768": KEM}}, refuse=[("crypto", "randomness")])
    t = _target(rt, "ml-kem-768", "fixed-random")
    res = leak.measure(t, CAT, leak.LeakRequest(command="x", db=None, seed=1))
    assert res["status"] == "skipped" and "randomness" in res["error"]
    assert res["leak"]["target"] == "decaps fixed-random"


def test_taint_marks_the_private_key_of_the_public_key_targets():
    from cryptobench.leak import taint

    for family in ("kem", "kex", "signature"):
        assert taint.SECRETS[family] == ["private_key"]
