"""Request → library call: hello, compute and bench over the hosted libraries."""

from __future__ import annotations

import itertools
import struct

from cbrunner import pubkey
from cbrunner.alloc import COUNTER as ALLOC_COUNTER
from cbrunner.alloc import traced_call
from cbrunner.hello import hello
from cbrunner.leak import leak
from cbrunner.limits import MAX_BATCHES, MAX_ITERATIONS
from cbrunner.protocol import AuthFailed, Fail, hex_input, required
from cbrunner.registry import Aead, Derive, Digest, Libraries, Mac, PasswordHash, Stream
from cbrunner.threads import bench_threads
from cbrunner.timing import Inline, time_batches


def stepped(nonce: bytes) -> tuple[str, dict]:
    """Successive nonces as source: a big-endian counter in the last 4 bytes, wrapping
    (docs/protocol.md), the first timed call taking nonce + 1."""
    if not nonce:
        return "nonce", {}
    head, base, count = nonce[:-4], int.from_bytes(nonce[-4:], "big"), itertools.count(1)
    env = {"head": head, "base": base, "step": count.__next__, "pack": struct.Struct(">I").pack}
    return "head + pack((base + step()) & 0xFFFFFFFF)", env


def library_call(f, **args) -> Inline:
    """A row's call with the request's inputs bound: the row's own source where it gives one
    (an Inline over those names), else a call of the function it returned."""
    if isinstance(f, Inline):
        return f.bind(**args)
    return Inline(f"f({', '.join(args)})", f=f, **args)


def prepare(spec, op: str, inputs: dict, params: dict, bench: bool) -> tuple[Inline, Inline]:
    """(first, timed): the verified call with the inputs as sent, and the timed call (the same
    call; seal and encrypt step the nonce), each as source for timing.py's compiled loop.

    A single-use API refuses a reused-key *bench*; compute ignores fresh_context."""
    if isinstance(spec, (pubkey.Kex, pubkey.Signature, pubkey.Kem)):
        return pubkey.prepare(spec, op, inputs, params)
    fresh = bool(params.get("fresh_context", False))
    if not getattr(spec, "reuses_key", True) and not fresh:
        if bench:
            raise Fail("unsupported", "this library cannot reuse a key/context: fresh_context only")
        fresh = True
    if isinstance(spec, Digest):
        call = library_call(spec.make(params), msg=hex_input(inputs, "msg"))
        return call, call
    if isinstance(spec, Mac):
        call = _mac(spec, op, inputs, params, fresh, hex_input(inputs, "msg"))
        return call, call
    if isinstance(spec, (Aead, Stream)):
        return _cipher(spec, op, inputs, fresh)
    password = hex_input(inputs, "password")
    if isinstance(spec, Derive) or (isinstance(spec, PasswordHash) and op == "derive"):
        fn = spec.fn if isinstance(spec, Derive) else spec.derive
        salt = hex_input(inputs, "salt", optional=True)  # HKDF's salt is optional
        src = "fn(password, salt, params)"
        call = Inline(src, fn=fn, password=password, salt=salt, params=params)
        return call, call
    if op == "hash":
        salt = hex_input(inputs, "salt") if spec.takes_salt else None
        call = Inline(
            "hash(password, salt, params).encode()",
            hash=spec.hash,
            password=password,
            salt=salt,
            params=params,
        )
        return call, call
    encoded = required(inputs, "encoded")

    def verify():
        if not spec.verify(password, encoded, params):
            raise AuthFailed()
        return b"ok"

    call = Inline("verify()", verify=verify)
    return call, call


def _mac(spec: Mac, op: str, inputs: dict, params: dict, fresh: bool, msg: bytes) -> Inline:
    """mac, or verify of the tag as sent (the same tag in every timed call): the row's call
    keyed once, or keyed inside every call (fresh) — the same rule for both operations.
    verify without a tag is a bad request, as in every runner (an empty tag: auth_failed)."""
    key = hex_input(inputs, "key")
    make, args = spec.make, {"msg": msg}
    if op == "verify":
        make, args["tag"] = spec.verify, hex_input(inputs, "tag")
    if fresh:
        src = f"make(key, params)({', '.join(args)})"
        return Inline(src, make=make, key=key, params=params, **args)
    return library_call(make(key, params), **args)


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
    aad = hex_input(inputs, "aad", optional=True)  # absent means empty (docs/protocol.md)
    check_nonce(spec, nonce)
    # The context: made once, or per message (fresh) inside the timed call itself.
    ctx_src = "make_key(key)" if fresh else "ctx"
    env = {"make_key": spec.key} if fresh else {"ctx": spec.key(key)}
    env.update(key=key, nonce=nonce, aad=aad, msg=msg)
    step_src, step_env = stepped(nonce)
    env.update(step_env)
    if isinstance(spec, Stream):
        src = f"encrypt({ctx_src}, {{n}}, msg)"
        if op == "roundtrip":

            def roundtrip(n, ctx):
                ct = spec.encrypt(ctx, n, msg)
                if spec.encrypt(spec.key(key) if fresh else ctx, n, ct) != msg:
                    raise Fail("internal", "decrypt(encrypt(msg)) != msg")
                return ct

            src = f"roundtrip({{n}}, {ctx_src})"
            env["roundtrip"] = roundtrip
        env["encrypt"] = spec.encrypt
        return Inline(src.format(n="nonce"), **env), Inline(src.format(n=step_src), **env)
    if op == "open":
        call = Inline(f"open({ctx_src}, nonce, aad, msg)", open=spec.open, **env)
        return call, call
    if op == "seal":
        src = f"seal({ctx_src}, {{n}}, aad, msg)"
        env["seal"] = spec.seal
        return Inline(src.format(n="nonce"), **env), Inline(src.format(n=step_src), **env)

    def roundtrip_aead(n, ctx):
        ct = spec.seal(ctx, n, aad, msg)
        if spec.open(spec.key(key) if fresh else ctx, n, aad, ct) != msg:
            raise Fail("internal", "open(seal(msg)) != msg")
        return ct

    src = f"roundtrip({{n}}, {ctx_src})"
    env["roundtrip"] = roundtrip_aead
    return Inline(src.format(n="nonce"), **env), Inline(src.format(n=step_src), **env)


def _noop(inputs: dict):
    call = Inline("len(msg).to_bytes(8, 'big')", msg=hex_input(inputs, "msg"))
    return call, call


def _only(req: dict) -> list[str] | None:
    """A brief hello's ``only`` (docs/protocol.md): the libraries to load and list; None: all."""
    only = req.get("only")
    if not req.get("brief") or only is None:
        return None
    if not isinstance(only, list) or not all(isinstance(n, str) for n in only):
        raise Fail("bad_request", "only must be a list of implementation names")
    return only


class Dispatcher:
    def __init__(self, libraries: Libraries):
        self.libs = libraries  # imported when a hello or a request first needs them

    def _calls(self, req: dict):
        inputs, params = req.get("inputs", {}), req.get("params", {})
        if not isinstance(inputs, dict) or not isinstance(params, dict):
            raise Fail("bad_request", "inputs and params must be objects")
        prim, op = req.get("primitive"), req.get("operation")
        if not isinstance(prim, str) or not isinstance(op, str):
            raise Fail("bad_request", "primitive and operation must be strings")
        if not isinstance(req.get("impl", ""), str):
            raise Fail("bad_request", "impl must be a string")
        if prim == "noop":
            if op != "digest":
                raise Fail("unsupported", "noop offers digest only")
            return _noop(inputs)
        lib = self.libs.get(req.get("impl"))
        if lib is None:
            have = sorted(self.libs.names())
            raise Fail("unsupported", f"no implementation {req.get('impl')!r}; have {have}")
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
            return hello(self.libs.load(_only(req)))
        if op == "leak":
            return leak(self, req)
        if op not in ("compute", "bench"):
            raise Fail("bad_request", f"unknown op {op!r}")
        first, timed = self._calls(req)
        out, alloc = traced_call(first) if op == "bench" else (first(), None)
        output = out.decode() if req.get("operation") in ("hash", "verify") else out.hex()
        if op == "compute":
            return {"output": output}
        iterations, batches = req.get("iterations"), req.get("batches")
        if type(iterations) is not int or type(batches) is not int or iterations < 1 or batches < 1:
            raise Fail("bad_request", "iterations and batches must be positive integers")
        if iterations > MAX_ITERATIONS or batches > MAX_BATCHES:
            raise Fail(
                "invalid_params", f"at most {MAX_ITERATIONS} iterations and {MAX_BATCHES} batches"
            )
        if req.get("threads", 1) != 1:
            got = bench_threads(self._calls, req, req["threads"], iterations, batches)
            return {"output": output, **got}
        answer = {"output": output, "samples": time_batches(timed, iterations, batches)}
        if alloc is not None:
            answer.update(alloc_bytes=alloc, alloc_counter=ALLOC_COUNTER)
        return answer
