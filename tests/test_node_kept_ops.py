"""The Node.js runner keeps a digest's or a MAC's prepared operation (and its loop) for later
bench requests of the same case in one process (runners/node/dispatch.js; docs/methodology.md,
"Node.js: one loop per case"). Kept by the request as sent: a different message or key is a
different case and gets its own, and an operation that steps a nonce is prepared again for
every request, so each request's untimed, verified call still sees exactly what was sent.
Checked against Python's hashlib/hmac and against the runner's own first answer, through the
real runner; nothing is timed."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from cryptobench.runtimes.discovery import discover
from cryptobench.runtimes.protocol import RunnerProcess

ANSWER_S = 60.0  # a request here needs well under a second
FRESH = {"fresh_context": True}  # node:crypto's MAC and AEAD take their key in every call


@pytest.fixture(scope="module")
def node():
    spec = next((s for s in discover() if s.runtime_id == "node"), None)
    if spec is None or spec.skipped:
        pytest.skip(f"node: {spec.skipped if spec else 'no runner folder'}")
    proc = RunnerProcess(spec.command, str(spec.folder), spec.env, "node")
    try:
        proc.start(spec.startup_timeout)
        yield proc
    finally:
        proc.close()


def _bench(proc, impl, primitive, operation, inputs, params=None) -> str:
    got = proc.request(
        "bench", ANSWER_S, impl=impl, primitive=primitive, operation=operation,
        inputs={k: v.hex() for k, v in inputs.items()}, params=params or {},
        iterations=50, batches=2,
    )  # fmt: skip
    assert [s["iterations"] for s in got["samples"]] == [50, 50]
    return got["output"]


def test_a_kept_digest_answers_for_the_message_sent(node):
    a, b = bytes(range(64)), bytes(reversed(range(64)))
    for msg in (a, b, a, b):  # same case and size, two messages, each asked twice
        assert (
            _bench(node, "crypto", "sha256", "digest", {"msg": msg})
            == hashlib.sha256(msg).hexdigest()
        )


def test_a_kept_mac_answers_for_the_key_sent(node):
    msg = b"m" * 64
    for key in (b"k" * 32, b"K" * 32, b"k" * 32):
        want = hmac.new(key, msg, "sha256").hexdigest()
        got = _bench(node, "crypto", "hmac-sha256", "mac", {"key": key, "msg": msg}, FRESH)
        assert got == want


def test_a_sealing_operation_starts_from_the_nonce_sent_every_time(node):
    # each request's batches step the nonce 100 times; a kept operation would answer the
    # second request from the stepped nonce
    inputs = {"key": bytes(16), "nonce": bytes(12), "msg": b"p" * 64}
    first = _bench(node, "crypto", "aes-128-gcm", "seal", inputs, FRESH)
    assert _bench(node, "crypto", "aes-128-gcm", "seal", inputs, FRESH) == first
