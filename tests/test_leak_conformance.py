"""The `leak` request of every runner under runners/ (docs/protocol.md, "leak").

Functional only: the times are decoded and counted, never judged (no timing assertions).
Run against one runner: `pytest tests/test_leak_conformance.py -k go`.
"""

from __future__ import annotations

import base64

import numpy as np
import pytest

from cryptobench.catalog import primitives as catalog_mod
from cryptobench.leak import command as leak
from cryptobench.leak import targets as leak_targets
from cryptobench.runtimes.protocol import RemoteError

CATALOG = catalog_mod.load()
N = 2000


def ask(proc, order: bytes, **fields) -> dict:
    return proc.request("leak", timeout=120, order=base64.b64encode(order).decode(), **fields)


def control_fields(primitive: str) -> dict:
    a = bytes(range(64))
    first, last = bytearray(a), bytearray(a)
    first[0] ^= 1
    last[63] ^= 1
    return {
        "primitive": primitive,
        "operation": "compare",
        "inputs": {"a": a.hex()},
        "classes": [{"b": first.hex()}, {"b": last.hex()}],
        "params": {},
    }


@pytest.mark.parametrize("primitive", leak_targets.CONTROLS)
def test_controls_return_one_time_per_measurement(runner, primitive):
    _, proc, _ = runner
    order = leak.order(7, primitive, N)
    got = ask(proc, order, **control_fields(primitive))
    assert got["outcomes"] == ["00", "00"]  # both classes differ from `a`
    ns = leak.decode_ns(got["ns"], N)
    assert len(ns) == N and (ns > 0).any()
    assert isinstance(got["clock"], str) and got["clock"]


def test_equal_inputs_compare_equal(runner):
    _, proc, _ = runner
    fields = control_fields("equal-ct")
    fields["classes"] = [{"b": fields["inputs"]["a"]}, {"b": fields["inputs"]["a"]}]
    assert ask(proc, bytes([0, 1] * 10), **fields)["outcomes"] == ["01", "01"]


def _first(hello, family: str, ops: tuple[str, ...]):
    for impl in hello["implementations"]:
        for pid, offer in sorted(impl["primitives"].items()):
            prim = CATALOG.get(pid)
            if prim.family == family and set(ops) <= set(offer["operations"]):
                return impl["library"], prim, offer
    return None


def test_aead_open_with_bad_tags_fails_in_both_classes(runner):
    _, proc, hello = runner
    found = _first(hello, "aead", ("seal", "open"))
    if found is None:
        pytest.skip("no AEAD offered")
    lib, prim, offer = found
    params = {**prim.defaults(), "fresh_context": not offer.get("reuses_key", True)}
    shared = {"key": "11" * prim.key_len, "nonce": "22" * prim.nonce_len, "aad": ""}
    common = {"impl": lib, "primitive": prim.id, "params": params}
    ct = proc.request(
        "compute", timeout=30, operation="seal", inputs={**shared, "msg": "33" * 64}, **common
    )["output"]
    a, b = bytearray.fromhex(ct), bytearray.fromhex(ct)
    a[len(a) - 16] ^= 1
    b[-1] ^= 1
    got = ask(
        proc,
        leak.order(1, "aead", 200),
        operation="open",
        inputs=shared,
        classes=[{"msg": a.hex()}, {"msg": b.hex()}],
        **common,
    )
    assert got["outcomes"] == ["auth_failed", "auth_failed"]
    assert len(leak.decode_ns(got["ns"], 200)) == 200


def test_password_verify_with_wrong_passwords_fails_in_both_classes(runner):
    _, proc, hello = runner
    found = _first(hello, "password-hash", ("hash", "verify"))
    if found is None:
        pytest.skip("no password hash offered")
    lib, prim, _ = found
    params = {**prim.defaults(), **leak_targets.PASSWORD_PARAMS.get(prim.id, {})}
    common = {"impl": lib, "primitive": prim.id, "params": params}
    encoded = proc.request(
        "compute",
        timeout=60,
        operation="hash",
        inputs={"password": b"correct horse".hex(), "salt": "44" * (prim.salt_len or 16)},
        **common,
    )["output"]
    got = ask(
        proc,
        bytes([0, 1, 1, 0]),
        operation="verify",
        inputs={"encoded": encoded},
        classes=[{"password": b"Correct horse".hex()}, {"password": b"correct horsE".hex()}],
        **common,
    )
    assert got["outcomes"] == ["auth_failed", "auth_failed"]
    assert len(leak.decode_ns(got["ns"], 4)) == 4


def _keyed(hello, family: str, ops: tuple[str, ...]):
    """The first implementation × primitive of ``family`` offering ``ops`` that `leak` plans a
    target for (signatures: leak_targets.SIGN_PRIMITIVES)."""
    for impl in hello["implementations"]:
        for pid, offer in sorted(impl["primitives"].items()):
            prim = CATALOG.get(pid)
            wanted = family != "signature" or pid in leak_targets.SIGN_PRIMITIVES
            if prim.family == family and wanted and set(ops) <= set(offer["operations"]):
                return impl["library"], prim, {**prim.defaults(), "fresh_context": False}
    return None


def _compute(proc, lib, prim, params, operation, inputs) -> str:
    return proc.request(
        "compute",
        timeout=60,
        impl=lib,
        primitive=prim.id,
        operation=operation,
        inputs=inputs,
        params=params,
    )["output"]


def test_kem_decaps_of_a_valid_and_a_rejected_ciphertext(runner):
    """The implicit rejection answers a secret, not auth_failed: both classes are timed."""
    _, proc, hello = runner
    found = _keyed(hello, "kem", ("keygen", "encaps", "decaps"))
    if found is None:
        pytest.skip("no ML-KEM decapsulation offered")
    lib, prim, params = found
    keys = _compute(proc, lib, prim, params, "keygen", {})
    public, private = keys[: 2 * prim.public_key_len], keys[2 * prim.public_key_len :]
    out = _compute(proc, lib, prim, params, "encaps", {"public_key": public})
    ct, secret = out[: 2 * prim.ciphertext_len], out[2 * prim.ciphertext_len :]
    flipped = bytearray.fromhex(ct)
    flipped[0] ^= 1
    got = ask(
        proc,
        leak.order(1, "kem", 200),
        impl=lib,
        primitive=prim.id,
        operation="decaps",
        inputs={"private_key": private},
        classes=[{"ciphertext": ct}, {"ciphertext": flipped.hex()}],
        params=params,
    )
    assert got["outcomes"][0] == secret
    assert leak_targets.Want(unlike=secret).ok(got["outcomes"][1]), got["outcomes"]
    assert len(leak.decode_ns(got["ns"], 200)) == 200


@pytest.mark.parametrize(("family", "operation"), [("kex", "agree"), ("signature", "sign")])
def test_agree_and_sign_with_two_private_keys(runner, family, operation):
    _, proc, hello = runner
    found = _keyed(hello, family, ("keygen", operation))
    if found is None:
        pytest.skip(f"no {family} offered")
    lib, prim, params = found
    pairs = [_compute(proc, lib, prim, params, "keygen", {}) for _ in range(3)]
    cut = 2 * prim.public_key_len
    shared = {"peer_public_key": pairs[2][:cut]} if family == "kex" else {"msg": "5a" * 32}
    got = ask(
        proc,
        leak.order(2, family, 100),
        impl=lib,
        primitive=prim.id,
        operation=operation,
        inputs=shared,
        classes=[{"private_key": p[cut:]} for p in pairs[:2]],
        params=params,
    )
    a, b = got["outcomes"]
    assert a != b and all(len(bytes.fromhex(o)) >= 32 for o in (a, b))
    assert len(leak.decode_ns(got["ns"], 100)) == 100


@pytest.mark.parametrize(
    "change",
    [
        {"order": "not base64!"},
        {"order": base64.b64encode(bytes([0, 2, 1])).decode()},
        {"order": ""},
        {"classes": [{}]},
        {"classes": "x"},
    ],
    ids=["order-not-base64", "order-class-2", "order-empty", "one-class", "classes-not-list"],
)
def test_bad_leak_requests_get_bad_request_and_the_runner_keeps_serving(runner, change):
    spec, proc, _ = runner
    fields = {**control_fields("equal"), "order": base64.b64encode(bytes([0, 1])).decode()}
    fields.update(change)
    with pytest.raises(RemoteError) as err:
        proc.request("leak", timeout=30, **fields)
    assert err.value.kind == "bad_request"
    assert proc.request("hello", timeout=30)["protocol"] == 1


def test_unknown_primitive_is_unsupported(runner):
    _, proc, hello = runner
    lib = hello["implementations"][0]["library"]
    with pytest.raises(RemoteError) as err:
        ask(
            proc,
            bytes([0, 1]),
            impl=lib,
            primitive="no-such-primitive",
            operation="open",
            inputs={},
            classes=[{}, {}],
            params={},
        )
    assert err.value.kind == "unsupported"


def test_order_is_deterministic_per_seed_and_balanced():
    a = leak.order(42, "python/control:equal:compare", 10_000)
    assert a == leak.order(42, "python/control:equal:compare", 10_000)
    assert a != leak.order(43, "python/control:equal:compare", 10_000)
    assert a != leak.order(42, "go/control:equal:compare", 10_000)
    counts = np.bincount(np.frombuffer(a, dtype=np.uint8), minlength=2)
    assert set(np.frombuffer(a, dtype=np.uint8)) == {0, 1}
    assert abs(int(counts[0]) - int(counts[1])) < 400  # random, not alternating
