"""The `leak` request (docs/protocol.md): single calls timed one by one, two classes of inputs
prepared before timing, interleaved in the order the orchestrator sends. No policy."""

from __future__ import annotations

import base64
import binascii
import hmac
from collections.abc import Callable

from cbrunner.protocol import AuthFailed, Fail, hex_input
from cbrunner.timing import time_single_calls

CLOCK = "time.perf_counter_ns"


def _controls(primitive: str, inputs: dict) -> Callable | None:
    """The runtime's own equality (`==` on bytes, early exit in memcmp) and its constant-time
    counterpart (hmac.compare_digest); output 01 equal, 00 differ."""
    if primitive not in ("equal", "equal-ct"):
        return None
    a, b = hex_input(inputs, "a"), hex_input(inputs, "b")
    if primitive == "equal":
        return lambda: b"\x01" if a == b else b"\x00"
    compare = hmac.compare_digest
    return lambda: b"\x01" if compare(a, b) else b"\x00"


def _order(req: dict) -> bytes:
    raw = req.get("order")
    if not isinstance(raw, str):
        raise Fail("bad_request", "order must be a base64 string")
    try:
        order = base64.b64decode(raw, validate=True)
    except (binascii.Error, ValueError):
        raise Fail("bad_request", "order is not base64") from None
    if not order or any(c > 1 for c in order):
        raise Fail("bad_request", "order must be a non-empty list of classes 0 and 1")
    return order


def _outcome(call: Callable) -> str:
    try:
        out = call()
    except AuthFailed:
        return "auth_failed"
    return out.decode() if out == b"ok" else out.hex()


def leak(dispatcher, req: dict) -> dict:
    """Time each call of the class ``order[i]``; ``ns`` is base64 of little-endian uint32."""
    order = _order(req)
    inputs, classes = req.get("inputs") or {}, req.get("classes")
    two = isinstance(classes, list) and len(classes) == 2
    if not isinstance(inputs, dict) or not (two and all(isinstance(c, dict) for c in classes)):
        raise Fail("bad_request", "inputs must be an object and classes a list of two objects")
    calls = []
    for overrides in classes:
        merged = {**inputs, **overrides}
        call = _controls(req.get("primitive"), merged)
        if call is None:
            sub = {**req, "op": "bench", "inputs": merged}
            _, call = dispatcher._calls(sub)
        calls.append(call)
    outcomes = [_outcome(c) for c in calls]
    return {"outcomes": outcomes, "ns": time_single_calls(calls, order), "clock": CLOCK}
