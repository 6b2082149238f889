"""HMAC `verify` (docs/protocol.md, operations table) in every runner that offers it: a right
tag answers "ok", any other tag `auth_failed`, a tag that is not hex or no tag at all
`bad_request`; `bench` times the verified call and `leak` takes classes of tags. Functional
only: no timing assertions. Run against one runner:
`pytest tests/test_mac_verify_runners.py -k php`.

Known answer: RFC 4231, section 4.3 (test case 2, HMAC-SHA-256).
"""

from __future__ import annotations

import base64

import pytest

from cryptobench.runtimes.protocol import RemoteError

KEY = b"Jefe".hex()
MSG = b"what do ya want for nothing?".hex()
TAG = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"


def _flipped(tag: str, index: int) -> str:
    raw = bytearray.fromhex(tag)
    raw[index] ^= 0x01
    return raw.hex()


WRONG = {
    "first byte flipped": _flipped(TAG, 0),
    "last byte flipped": _flipped(TAG, -1),
    "truncated to 16 bytes": TAG[:32],
    "one byte short": TAG[:-2],
    "one byte more": TAG + "00",
    "empty": "",
}


def _verifiers(hello: dict) -> dict[str, bool]:
    """library -> whether it reuses a key (a bench or leak with fresh_context false)."""
    offers = {
        i["library"]: i["primitives"].get("hmac-sha256", {}) for i in hello["implementations"]
    }
    return {
        lib: offer.get("reuses_key", True)
        for lib, offer in offers.items()
        if "verify" in offer.get("operations", ())
    }


@pytest.fixture
def verifiers(runner):
    spec, proc, hello = runner
    libs = _verifiers(hello)
    if not libs:
        pytest.skip(f"{spec.runtime_id} offers no hmac-sha256 verify")
    return proc, libs


def _verify(proc, lib: str, tag: str | None, fresh: bool, op: str = "compute", **more) -> dict:
    """A verify request; tag None: sent without a `tag` input."""
    inputs = {"key": KEY, "msg": MSG} | ({} if tag is None else {"tag": tag})
    return proc.request(
        op,
        timeout=60,
        impl=lib,
        primitive="hmac-sha256",
        operation="verify",
        inputs=inputs,
        params={"fresh_context": fresh},
        **more,
    )


@pytest.mark.parametrize("fresh", [False, True])
def test_the_rfc_4231_tag_verifies_and_every_other_tag_fails(verifiers, fresh):
    proc, libs = verifiers
    for lib in libs:
        assert _verify(proc, lib, TAG, fresh)["output"] == "ok", lib
        for why, tag in WRONG.items():
            with pytest.raises(RemoteError) as err:
                _verify(proc, lib, tag, fresh)
            assert err.value.kind == "auth_failed", (lib, why, err.value)
        assert _verify(proc, lib, TAG, fresh)["output"] == "ok", lib  # still serving


@pytest.mark.parametrize("fresh", [False, True])
@pytest.mark.parametrize("tag", [None, "5bd", "zz" * 32, TAG[:-1] + "g"])
def test_a_missing_or_non_hex_tag_is_a_bad_request(verifiers, tag, fresh):
    """A missing input is a bad request (docs/protocol.md, error kinds), not an empty tag;
    so is a tag that is not hex."""
    proc, libs = verifiers
    for lib in libs:
        with pytest.raises(RemoteError) as err:
            _verify(proc, lib, tag, fresh)
        assert err.value.kind == "bad_request", (lib, err.value)
        assert _verify(proc, lib, TAG, fresh)["output"] == "ok", lib  # still serving


@pytest.mark.parametrize("fresh", [False, True])
def test_bench_times_the_verified_call(verifiers, fresh):
    proc, libs = verifiers
    for lib, reuses_key in libs.items():
        if not (fresh or reuses_key):
            continue  # fresh_context=true only: a reused-key bench is unsupported
        got = _verify(proc, lib, TAG, fresh, op="bench", iterations=5, batches=2)
        assert got["output"] == "ok", lib
        assert [s["iterations"] for s in got["samples"]] == [5, 5], lib
        with pytest.raises(RemoteError) as err:
            _verify(
                proc, lib, WRONG["last byte flipped"], fresh, op="bench", iterations=5, batches=2
            )
        assert err.value.kind == "auth_failed", lib


def test_leak_takes_classes_of_tags(verifiers):
    proc, libs = verifiers
    order = bytes([0, 1, 1, 0] * 25)
    for lib, reuses_key in libs.items():
        for classes, outcomes in (
            ([WRONG["first byte flipped"], WRONG["last byte flipped"]], ["auth_failed"] * 2),
            ([TAG, WRONG["truncated to 16 bytes"]], ["ok", "auth_failed"]),
        ):
            got = proc.request(
                "leak",
                timeout=60,
                impl=lib,
                primitive="hmac-sha256",
                operation="verify",
                inputs={"key": KEY, "msg": MSG},
                classes=[{"tag": t} for t in classes],
                params={"fresh_context": not reuses_key},
                order=base64.b64encode(order).decode(),
            )
            assert got["outcomes"] == outcomes, lib
            assert len(base64.b64decode(got["ns"])) == 4 * len(order), lib
