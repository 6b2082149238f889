"""The Python runner's protocol loop and timing (docs/protocol.md). Libraries live in lib_*.py."""

from __future__ import annotations

import itertools
import json
import platform
import struct
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

PROTOCOL = 1


class Fail(Exception):
    """An error answer: kind is one of docs/protocol.md's error kinds."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


class AuthFailed(Exception):
    """Raised by a library adapter when a tag or password does not verify."""


@dataclass
class Digest:
    """make(params) -> f(msg) -> bytes."""

    make: Callable
    operations: tuple = ("digest",)


@dataclass
class Mac:
    """make(key, params) -> f(msg) -> bytes."""

    make: Callable
    operations: tuple = ("mac",)


@dataclass
class Derive:
    """fn(password, salt, params) -> bytes."""

    fn: Callable
    operations: tuple = ("derive",)


@dataclass
class PasswordHash:
    """hash(password, salt|None, params) -> str; verify(password, encoded, params) -> bool."""

    hash: Callable
    verify: Callable
    derive: Callable | None = None
    takes_salt: bool = True

    @property
    def operations(self) -> tuple:
        return ("hash", "verify") + (("derive",) if self.derive else ())


@dataclass
class Aead:
    """key(key) -> ctx; seal(ctx, nonce, aad, msg) -> ct‖tag; open(ctx, nonce, aad, ct) -> msg.

    open raises AuthFailed on a bad tag. reuses_key False: ctx must be made per message.
    """

    key: Callable
    seal: Callable
    open: Callable
    reuses_key: bool = True
    operations: tuple = ("seal", "open", "roundtrip")


@dataclass
class Stream:
    """key(key) -> ctx; encrypt(ctx, counter_block, msg) -> ciphertext (CTR: decrypt = encrypt)."""

    key: Callable
    encrypt: Callable
    reuses_key: bool = True
    operations: tuple = ("encrypt", "roundtrip")


@dataclass
class Library:
    name: str
    version: str
    backend: dict
    table: dict
    code_path: str = ""
    notes: str = ""
    extra: dict = field(default_factory=dict)


def stepper(nonce: bytes) -> Callable[[], bytes]:
    """Successive nonces: a big-endian counter in the last 4 bytes, wrapping (docs/protocol.md)."""
    if not nonce:
        return lambda: nonce
    head, base, count = nonce[:-4], int.from_bytes(nonce[-4:], "big"), itertools.count(1)
    pack = struct.Struct(">I").pack
    return lambda: head + pack((base + next(count)) & 0xFFFFFFFF)


def _hex(inputs: dict, name: str) -> bytes:
    value = inputs.get(name, "")
    if not isinstance(value, str):
        raise Fail("bad_request", f"input {name} must be a hex string")
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise Fail("bad_request", f"input {name} is not hex") from None


def prepare(spec, op: str, inputs: dict, params: dict, bench: bool) -> tuple[Callable, Callable]:
    """(first, timed): the verified call with the inputs as sent, and the per-iteration call.

    A single-use API refuses a reused-key *bench*; compute ignores fresh_context."""
    fresh = bool(params.get("fresh_context", False))
    if not getattr(spec, "reuses_key", True) and not fresh:
        if bench:
            raise Fail("unsupported", "this library cannot reuse a key/context: fresh_context only")
        fresh = True
    msg = _hex(inputs, "msg")
    if isinstance(spec, Digest):
        f = spec.make(params)
        return (lambda: f(msg)), (lambda: f(msg))
    if isinstance(spec, Mac):
        key = _hex(inputs, "key")
        if fresh:
            call = lambda: spec.make(key, params)(msg)  # noqa: E731
            return call, call
        f = spec.make(key, params)
        return (lambda: f(msg)), (lambda: f(msg))
    if isinstance(spec, (Aead, Stream)):
        return _cipher(spec, op, inputs, fresh)
    password = _hex(inputs, "password")
    if isinstance(spec, Derive) or (isinstance(spec, PasswordHash) and op == "derive"):
        fn = spec.fn if isinstance(spec, Derive) else spec.derive
        salt = _hex(inputs, "salt")
        call = lambda: fn(password, salt, params)  # noqa: E731
        return call, call
    if op == "hash":
        salt = _hex(inputs, "salt") if spec.takes_salt else None
        call = lambda: spec.hash(password, salt, params).encode()  # noqa: E731
        return call, call
    encoded = inputs.get("encoded", "")

    def verify():
        if not spec.verify(password, encoded, params):
            raise AuthFailed()
        return b"ok"

    return verify, verify


def _cipher(spec, op: str, inputs: dict, fresh: bool):
    key, nonce, msg = _hex(inputs, "key"), _hex(inputs, "nonce"), _hex(inputs, "msg")
    aad = _hex(inputs, "aad")
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


def time_batches(call: Callable, iterations: int, batches: int) -> list[dict]:
    clock = time.perf_counter_ns
    samples, sink = [], 0
    rng = range(iterations)
    for _ in range(batches):
        t0 = clock()
        for _ in rng:
            out = call()
        t1 = clock()
        sink ^= out[0] if out else 0  # keep the output alive
        samples.append({"iterations": iterations, "ns": t1 - t0})
    _SINK.append(sink)
    return samples


_SINK: list = []


def _noop(inputs: dict):
    msg = _hex(inputs, "msg")
    call = lambda: len(msg).to_bytes(8, "big")  # noqa: E731
    return call, call


class Runner:
    def __init__(self, libraries: list[Library]):
        self.libs = {lib.name: lib for lib in libraries}

    def hello(self) -> dict:
        impls = []
        for lib in self.libs.values():
            prims = {}
            for pid, spec in lib.table.items():
                offer = {"operations": list(spec.operations)}
                if hasattr(spec, "reuses_key"):
                    offer["reuses_key"] = spec.reuses_key
                if isinstance(spec, PasswordHash):
                    offer["takes_salt"] = spec.takes_salt
                prims[pid] = offer
            impls.append(
                {
                    "library": lib.name,
                    "version": lib.version,
                    "backend": lib.backend,
                    "code_path": lib.code_path,
                    "notes": lib.notes,
                    "primitives": prims,
                }
            )
        impl = platform.python_implementation()
        return {
            "protocol": PROTOCOL,
            "runtime": {
                "name": impl.lower(),
                "version": platform.python_version(),
                "details": {
                    "executable": sys.executable,
                    "build": platform.python_build()[0],
                    "compiler": platform.python_compiler(),
                },
            },
            "cpu": {},
            "implementations": impls,
        }

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
            return self.hello()
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
        return {"output": output, "samples": time_batches(timed, iterations, batches)}

    def answer(self, line: str) -> dict:
        try:
            req = json.loads(line)
        except ValueError:
            return {
                "id": None,
                "ok": False,
                "error": {"kind": "bad_request", "message": "not JSON"},
            }
        if not isinstance(req, dict):
            return {
                "id": None,
                "ok": False,
                "error": {"kind": "bad_request", "message": "not an object"},
            }
        rid = req.get("id")
        try:
            return {"id": rid, "ok": True, "result": self.handle(req)}
        except Fail as exc:
            return {"id": rid, "ok": False, "error": {"kind": exc.kind, "message": str(exc)}}
        except AuthFailed:
            return {
                "id": rid,
                "ok": False,
                "error": {"kind": "auth_failed", "message": "authentication failed"},
            }
        except (ValueError, TypeError, OverflowError) as exc:
            return {
                "id": rid,
                "ok": False,
                "error": {"kind": "invalid_params", "message": str(exc)},
            }
        except Exception as exc:  # a runner never dies on a request
            return {
                "id": rid,
                "ok": False,
                "error": {"kind": "internal", "message": f"{type(exc).__name__}: {exc}"},
            }

    def serve(self) -> int:
        out = sys.stdout
        for line in sys.stdin:
            if not line.strip():
                continue
            out.write(json.dumps(self.answer(line), separators=(",", ":")) + "\n")
            out.flush()
        return 0
