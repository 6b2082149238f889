"""The slow-operation policy, verification side (docs/methodology.md, "Slow operations").

When one call of a digest or MAC is long (≥ 100 ms, measured by the implementation's own
verified call) or its generated message huge (≥ 256 MiB), every extra call costs whole seconds
and a message's worth of memory in another process. Such a case gets one second opinion, not
several: the orchestrator's own hashlib/zlib result streamed over the generated blocks where
Python has the primitive and the implementation passed published vectors, else the first other
implementation that answers (a second one only to break a disagreement). Known answers are
checked as always, once per implementation, primitive and operation (the verifier keeps them),
whatever the sizes. The sampling side is `sampling.sample_floor` and its neighbours.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..catalog.primitives import Primitive
from ..runtimes.msggen import Generated, reference
from ..runtimes.protocol import Implementation, RemoteError, RunnerFailure
from ..verify.verifier import (
    Check,
    Unverifiable,
    Verifier,
    VerifyError,
    expected_len,
    same_backend,
    same_code,
)
from .sampling import is_long_call

HUGE_MESSAGE = 256 << 20  # from this size, one second opinion whatever the speed
NOTE = "slow-operation policy: one second opinion"


def one_opinion(size: int, call_ns: float | None) -> bool:
    """True when a case's agreement asks one second opinion (a huge message or a long call)."""
    return size >= HUGE_MESSAGE or is_long_call(call_ns)


def cannot_hold(exc: RemoteError) -> bool:
    """A runner's answer that it cannot take a generated message this large (protocol.md:
    ``invalid_params`` saying why), or the orchestrator's, for a runner without the generator."""
    return exc.kind == "invalid_params" and (
        "cannot hold" in exc.message or "no generator" in exc.message
    )


def check_once(
    verifier: Verifier, impl: Implementation, prim: Primitive, op: str, inputs: dict, params
) -> tuple[Check, dict, str | None]:
    """``Verifier.check_case`` for a digest or MAC under the slow-operation policy."""
    kat = verifier.known_answers(impl, prim.id, op)
    if not kat.ok:
        return kat, inputs, None
    try:
        got = verifier.output_for(impl, prim.id, op, inputs, params)
        n = expected_len(prim, op, inputs, params)
        if n is not None and len(got) != 2 * n:
            raise VerifyError(f"output is {len(got) // 2} bytes, expected {n}")
        return _second_opinion(verifier, impl, prim, op, (inputs, params), kat, got), inputs, got
    except Unverifiable as exc:
        return Check(False, f"unverifiable: {exc}", unverifiable=True), inputs, None
    except (RemoteError, VerifyError) as exc:
        return Check(False, f"cross-check: {exc}"), inputs, None


def _second_opinion(verifier, impl, prim, op, call, kat: Check, got: str) -> Check:
    inputs, params = call
    msg = inputs.get("msg")
    ref = reference(prim.id, msg, params) if kat.vectors and isinstance(msg, Generated) else None
    if ref is not None:
        if ref[0] != got:
            raise VerifyError(f"differs from {ref[1]} over the same generated message")
        return Check(True, f"{kat.detail}; matches {ref[1]} ({NOTE})", kat.vectors)
    disagreed = []
    for other in peers(verifier, impl, prim.id, op):
        try:
            theirs = verifier.output_for(other, prim.id, op, inputs, params)
        except (RunnerFailure, RemoteError):
            continue  # a peer that crashed or cannot hold the message is no opinion
        if theirs != got:
            disagreed.append(other.id)
            if len(disagreed) == 2:
                break
            continue  # one more, to break the tie
        if kat.vectors == 0 and same_backend(other, impl):
            raise VerifyError(f"no published vector, and {other.id} binds the same backend")
        return Check(True, f"{kat.detail}; agrees with {other.id} ({NOTE})", kat.vectors)
    if disagreed:
        raise VerifyError(f"disagrees with {', '.join(disagreed)}")
    if kat.vectors == 0:
        raise Unverifiable("no published vector and no second implementation to agree with")
    return Check(True, f"{kat.detail}; only implementation", kat.vectors)


def peers(verifier: Verifier, impl: Implementation, prim_id: str, op: str) -> Iterator:
    """Other implementations of prim/op, another backend first, then by id; each one's known
    answers are checked only when it is reached."""
    cands = [
        o
        for o in verifier.impls.values()
        if o.id != impl.id and o.offers(prim_id, op) and not same_code(o, impl)
    ]
    cands.sort(key=lambda o: (same_backend(o, impl), o.id))
    return (o for o in cands if verifier.known_answers(o, prim_id, op).ok)
