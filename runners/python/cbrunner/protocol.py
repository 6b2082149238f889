"""Protocol v1 framing (docs/protocol.md): error kinds, hex inputs, one answer per line."""

from __future__ import annotations

import json
from collections.abc import Callable

from cbrunner import limits, msggen

PROTOCOL = 1


class Fail(Exception):
    """An error answer: kind is one of docs/protocol.md's error kinds."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


class AuthFailed(Exception):
    """Raised by a library adapter when a tag or password does not verify."""


def required(inputs: dict, name: str):
    """Input ``name`` as sent; a missing one is a bad request (docs/protocol.md)."""
    if name not in inputs:
        raise Fail("bad_request", f"missing input {name}")
    return inputs[name]


def hex_input(inputs: dict, name: str, optional: bool = False) -> bytes:
    """Input ``name`` as bytes; a missing one is a bad request unless ``optional`` (then
    empty: an absent `aad`, docs/protocol.md)."""
    value = inputs.get(name, "") if optional else required(inputs, name)
    if value is None:
        raise Fail("bad_request", f"input {name} must be a hex string")
    if name == "msg" and isinstance(value, dict):
        return generated(value)
    if not isinstance(value, str):
        raise Fail("bad_request", f"input {name} must be a hex string")
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise Fail("bad_request", f"input {name} is not hex") from None


def generated(spec: dict) -> bytes:
    try:
        return msggen.expand(spec)
    except ValueError as exc:
        raise Fail("bad_request", str(exc)) from None
    except MemoryError as exc:
        raise Fail("invalid_params", str(exc)) from None


def error(rid, kind: str, message: str) -> dict:
    return {"id": rid, "ok": False, "error": {"kind": kind, "message": message}}


def answer(line: bytes, handle: Callable[[dict], dict]) -> dict:
    """One request line → one response object; never raises (a runner never dies)."""
    why = limits.refusal(line)
    if why is not None:
        return error(None, "bad_request", why)
    try:
        req = json.loads(line)
    except (ValueError, RecursionError):
        return error(None, "bad_request", "not JSON")
    if not isinstance(req, dict):
        return error(None, "bad_request", "not an object")
    rid = req.get("id")
    if type(rid) is not int or not -(1 << 63) <= rid < 1 << 63:
        return error(None, "bad_request", "id must be an integer")
    try:
        return {"id": rid, "ok": True, "result": handle(req)}
    except Fail as exc:
        return error(rid, exc.kind, str(exc))
    except AuthFailed:
        return error(rid, "auth_failed", "authentication failed")
    except (ValueError, TypeError, OverflowError) as exc:
        return error(rid, "invalid_params", str(exc))
    except Exception as exc:  # a runner never dies on a request
        return error(rid, "internal", f"{type(exc).__name__}: {exc}")


def encode(response: dict) -> str:
    return json.dumps(response, separators=(",", ":")) + "\n"
