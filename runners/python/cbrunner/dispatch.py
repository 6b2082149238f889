"""Request → library call: hello, compute and bench over the hosted libraries."""

from __future__ import annotations

import itertools
import struct
from collections.abc import Callable

from cbrunner.hello import hello
from cbrunner.leak import leak
from cbrunner.protocol import AuthFailed, Fail, hex_input
from cbrunner.registry import Aead, Derive, Digest, Library, Mac, PasswordHash, Stream
from cbrunner.threads import bench_threads
from cbrunner.timing import time_batches


def stepper(nonce: bytes) -> Callable[[], bytes]:
    """Successive nonces: a big-endian counter in the last 4 bytes, wrapping (docs/protocol.md)."""
    if not nonce:
        return lambda: nonce
    head, base, count = nonce[:-4], int.from_bytes(nonce[-4:], "big"), itertools.count(1)
    pack = struct.Struct(">I").pack
    return lambda: head + pack((base + next(count)) & 0xFFFFFFFF)


def prepare(spec, op: str, inputs: dict, params: dict, bench: bool) -> tuple[Callable, Callable]:
    """(first, timed): the verified call with the inputs as sent, and the per-iteration call.

    A single-use API refuses a reused-key *bench*; compute ignores fresh_context."""
    fresh = bool(params.get("fresh_context", False))
    if not getattr(spec, "reuses_key", True) and not fresh:
        if bench:
            raise Fail("unsupported", "this library cannot reuse a key/context: fresh_context only")
        fresh = True
    msg = hex_input(inputs, "msg")
    if isinstance(spec, Digest):
        f = spec.make(params)
        return (lambda: f(msg)), (lambda: f(msg))
    if isinstance(spec, Mac):
        key = hex_input(inputs, "key")
        if fresh:
            call = lambda: spec.make(key, params)(msg)  # noqa: E731
            return call, call
        f = spec.make(key, params)
        return (lambda: f(msg)), (lambda: f(msg))
    if isinstance(spec, (Aead, Stream)):
        return _cipher(spec, op, inputs, fresh)
    password = hex_input(inputs, "password")
    if isinstance(spec, Derive) or (isinstance(spec, PasswordHash) and op == "derive"):
        fn = spec.fn if isinstance(spec, Derive) else spec.derive
        salt = hex_input(inputs, "salt")
        call = lambda: fn(password, salt, params)  # noqa: E731
        return call, call
    if op == "hash":
        salt = hex_input(inputs, "salt") if spec.takes_salt else None
        call = lambda: spec.hash(password, salt, params).encode()  # noqa: E731
        return call, call
    encoded = inputs.get("encoded", "")

    def verify():
        if not spec.verify(password, encoded, params):
            raise AuthFailed()
        return b"ok"

    return verify, verify


def check_nonce(spec, nonce: bytes) -> None:
    """A nonce length the row did not declare is refused (docs/protocol.md, "Declared sizes")."""
    declared = getattr(spec, "nonces", None)
    n = len(nonce)
    if declared is not None and not any(
        n == d if isinstance(d, int) else d[0] <= n <= d[1] for d in declared
    ):
        raise Fail("invalid_params", f"nonce is {n} bytes; this row takes {declared}")


def _cipher(spec, op: str, inputs: dict, fresh: bool):
    key, nonce, msg = hex_input(inputs, "key"), hex_input(inputs, "nonce"), hex_input(inputs, "msg")
    aad = hex_input(inputs, "aad")
    check_nonce(spec, nonce)
    ctx = None if fresh else spec.key(key)
    get = (lambda: spec.key(key)) if fresh else (lambda: ctx)
    next_nonce = stepper(nonce)
    if isinstance(spec, Stream):

        def roundtrip(n):
            ct = spec.encrypt(get(), n, msg)
            if spec.encrypt(get(), n, ct) != msg:
                raise Fail("internal", "decrypt(encrypt(msg)) != msg")
            return ct

        one = (lambda n: spec.encrypt(get(), n, msg)) if op == "encrypt" else roundtrip
        return (lambda: one(nonce)), (lambda: one(next_nonce()))
    if op == "open":
        call = lambda: spec.open(get(), nonce, aad, msg)  # noqa: E731
        return call, call
    if op == "seal":
        return (lambda: spec.seal(get(), nonce, aad, msg)), (
            lambda: spec.seal(get(), next_nonce(), aad, msg)
        )

    def roundtrip_aead(n):
        ct = spec.seal(get(), n, aad, msg)
        if spec.open(get(), n, aad, ct) != msg:
            raise Fail("internal", "open(seal(msg)) != msg")
        return ct

    return (lambda: roundtrip_aead(nonce)), (lambda: roundtrip_aead(next_nonce()))


def _noop(inputs: dict):
    msg = hex_input(inputs, "msg")
    call = lambda: len(msg).to_bytes(8, "big")  # noqa: E731
    return call, call


class Dispatcher:
    def __init__(self, libraries: list[Library]):
        self.libs = {lib.name: lib for lib in libraries}

    def _calls(self, req: dict):
        inputs, params = req.get("inputs") or {}, req.get("params") or {}
        if not isinstance(inputs, dict) or not isinstance(params, dict):
            raise Fail("bad_request", "inputs and params must be objects")
        prim, op = req.get("primitive"), req.get("operation")
        if prim == "noop":
            if op != "digest":
                raise Fail("unsupported", "noop offers digest only")
            return _noop(inputs)
        lib = self.libs.get(req.get("impl"))
        if lib is None:
            raise Fail(
                "unsupported", f"no implementation {req.get('impl')!r}; have {sorted(self.libs)}"
            )
        spec = lib.table.get(prim)
        if spec is None:
            raise Fail("unsupported", f"{lib.name} does not offer {prim!r}")
        if op not in spec.operations:
            raise Fail(
                "unsupported", f"{lib.name}/{prim} offers {list(spec.operations)}, not {op!r}"
            )
        return prepare(spec, op, inputs, params, req.get("op") == "bench")

    def handle(self, req: dict) -> dict:
        op = req.get("op")
        if op == "hello":
            return hello(list(self.libs.values()))
        if op == "leak":
            return leak(self, req)
        if op not in ("compute", "bench"):
            raise Fail("bad_request", f"unknown op {op!r}")
        first, timed = self._calls(req)
        out = first()
        output = out.decode() if req.get("operation") in ("hash", "verify") else out.hex()
        if op == "compute":
            return {"output": output}
        iterations, batches = req.get("iterations"), req.get("batches")
        if (
            not isinstance(iterations, int)
            or not isinstance(batches, int)
            or iterations < 1
            or batches < 1
        ):
            raise Fail("bad_request", "iterations and batches must be positive integers")
        if req.get("threads", 1) != 1:
            got = bench_threads(self._calls, req, req["threads"], iterations, batches)
            return {"output": output, **got}
        return {"output": output, "samples": time_batches(timed, iterations, batches)}
