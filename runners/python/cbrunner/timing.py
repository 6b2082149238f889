"""The timed batches: the only place that reads the clock (time.perf_counter_ns). No policy.

A timed call is an `Inline`: the library call written as source over named values, the way
timeit takes a statement. Each bench gets a loop compiled from that source, with the names
bound to locals and `itertools.repeat(None, n)` as the counter (timeit's template), so an
iteration runs the library call itself and no Python frame of the runner's.
"""

from __future__ import annotations

import base64
import itertools
import sys
import time
from array import array
from collections.abc import Callable

from cbrunner.protocol import AuthFailed

_SINK: list = []

# timeit's inner template (Lib/timeit.py): locals only, no attribute or global lookup per
# iteration beyond what the call itself does.
_LOOP = """\
def loop(_n, _clock, _repeat, {names}):
    _t0 = _clock()
    for _ in _repeat(None, _n):
        _out = {expr}
    _t1 = _clock()
    return _t1 - _t0, _out
"""
_ONCE = "def once({names}):\n    return {expr}\n"


def _compile(template: str, expr: str, names: tuple[str, ...], label: str):
    scope: dict = {}
    code = compile(template.format(names=", ".join(names), expr=expr), label, "exec")
    exec(code, {"__builtins__": __builtins__}, scope)  # noqa: S102 - our own source
    return next(iter(scope.values()))


class Inline:
    """A library call as source: ``Inline("new(msg).digest()", new=hashlib.sha256, msg=m)``.

    Calling it runs the call once (the untimed, verified call and the leak request's single
    calls); `time_batches` runs it in a loop compiled for this call. Names must not start
    with an underscore (the loop's own locals do)."""

    __slots__ = ("expr", "env", "_once", "_loop")

    def __init__(self, expr: str, **env):
        if any(n.startswith("_") for n in env):
            raise ValueError("Inline names must not start with an underscore")
        self.expr, self.env = expr, env
        self._once = self._loop = None

    def bind(self, **more) -> Inline:
        """The same source with more names bound (a row's call given the request's inputs)."""
        return Inline(self.expr, **self.env, **more)

    def __call__(self):
        if self._once is None:
            self._once = _compile(_ONCE, self.expr, tuple(self.env), "<cryptobench call>")
        return self._once(**self.env)

    def compiled(self) -> Callable[[], object]:
        """The call with its names bound, compiled now: calling it allocates only what the
        call does (cbrunner/alloc.py traces the untimed call through it)."""
        if self._once is None:
            self._once = _compile(_ONCE, self.expr, tuple(self.env), "<cryptobench call>")
        once, values = self._once, tuple(self.env.values())
        return lambda: once(*values)

    def loop(self) -> Callable:
        """This call's timed loop: compiled once per Inline, i.e. once per prepared call."""
        if self._loop is None:
            self._loop = _compile(_LOOP, self.expr, tuple(self.env), "<cryptobench loop>")
        return self._loop


def time_batches(call: Inline | Callable, iterations: int, batches: int) -> list[dict]:
    """`batches` timed loops of `iterations` calls (a plain function: the source `call()`)."""
    if not isinstance(call, Inline):
        call = Inline("call()", call=call)
    clock, repeat = time.perf_counter_ns, itertools.repeat
    loop, values = call.loop(), list(call.env.values())
    samples, sink = [], 0
    for _ in range(batches):
        ns, out = loop(iterations, clock, repeat, *values)
        sink ^= out[0] if out else 0  # keep the output alive
        samples.append({"iterations": iterations, "ns": ns})
    _SINK.append(sink)
    return samples


def time_single_calls(calls: list[Callable], order: bytes) -> str:
    """The leak request: one call of ``calls[order[i]]`` per measurement, each timed alone
    (a bad tag or password is the expected outcome); base64 of little-endian uint32 ns."""
    clock = time.perf_counter_ns
    ns = array("I", bytes(4 * len(order)))
    sink = 0
    for i, c in enumerate(order):
        call = calls[c]
        t0 = clock()
        try:
            out = call()
        except AuthFailed:
            out = b""
        t1 = clock()
        ns[i] = min(t1 - t0, 0xFFFFFFFF)
        sink ^= out[0] if out else 0
    _SINK.append(sink)
    if sys.byteorder != "little":
        ns.byteswap()
    return base64.b64encode(ns.tobytes()).decode()
