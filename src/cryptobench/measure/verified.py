"""Every case of a run verified before any is timed, off the critical path: nothing is timed
while verifying, so the runtimes are asked at once (one worker per runtime), and a case
verified by an earlier run with nothing changed is taken from the cache (verify/cache.py)."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from ..plan.cases import Case
from ..results.document import now
from ..verify.cache import Cache, Fingerprints
from ..verify.verifier import Verifier
from .case import Prepared, own_call_again, prepare, slow_own_call


def case_key(fps: Fingerprints, case: Case) -> str:
    """Not the seed: a case verified on one run's random inputs keeps them (and says so)."""
    what = [case.operation, case.size, case.params, list(case.cpu_off)]
    return fps.key(case.impl.id, case.prim.id, what)


def prepare_cached(
    verifier: Verifier, case: Case, seq: int, seed: int, cache: Cache, fps: Fingerprints
) -> Prepared | dict:
    """`prepare`, or the answer an earlier run verified for the same key (verified again where
    it lacks the call a slow family's verification now times: case.slow_own_call)."""
    key = case_key(fps, case)
    kept = cache.get(key)
    if kept is not None and (kept.get("call_ns") or not slow_own_call(case)):
        why = f"{kept['verification']} (verified {kept['when']}, unchanged since: cached)"
        inputs, expected = kept["inputs"], kept["expected"]
        return Prepared(seq, case, inputs, expected, why, kept["call_ns"], cached=True)
    got = prepare(verifier, case, seq, seed)
    if isinstance(got, Prepared):
        _keep(cache, key, got)
    return got


def _keep(cache: Cache, key: str, p: Prepared) -> None:
    keep = {"inputs": p.inputs, "expected": p.expected, "verification": p.verification}
    cache.put(key, {**keep, "call_ns": p.call_ns, "when": now()[:10]})


def retime_slow(verifier: Verifier, prepared: list, cache: Cache, fps: Fingerprints) -> None:
    """Each slow own call verified afresh (case.slow_own_call), asked once more once every
    runtime has verified, one at a time, the shorter kept (here and in the cache): the call
    verification timed ran beside every other runtime's verification on a shared machine.
    Measured: `run --preset default --reverify` on a busy 2-core VM (2026-12-07 23:18), 31
    password-hash cases: verification's calls 3.3 s together against 1.3 s of their medians
    (the family's 40 ms prior: 1.2 s), java/bc's scrypt 394 ms against 310 ms."""
    for p in prepared:
        if not isinstance(p, Prepared) or p.cached or not p.call_ns or not slow_own_call(p.case):
            continue
        again = own_call_again(verifier, p)
        if again is not None and again < p.call_ns:
            p.call_ns = again
            _keep(cache, case_key(fps, p.case), p)


def prepare_all(
    verifier: Verifier,
    numbered: list[tuple[int, Case]],
    seed: int,
    cache: Cache,
    fps: Fingerprints,
    on_done: Callable[[Case, Prepared | dict], None] = lambda c, got: None,
) -> dict[int, Prepared | dict]:
    """{row number: Prepared or the stored refusal}, one worker per runtime; each runtime's
    cases in the plan's order; then the slow calls timed again one at a time (retime_slow)."""
    by_runtime: dict[str, list[tuple[int, Case]]] = {}
    for seq, case in numbered:
        by_runtime.setdefault(case.runtime_key, []).append((seq, case))
    out: dict[int, Prepared | dict] = {}

    def work(items: list[tuple[int, Case]]) -> None:
        for seq, case in items:
            out[seq] = prepare_cached(verifier, case, seq, seed, cache, fps)
            on_done(case, out[seq])

    with ThreadPoolExecutor(max_workers=max(1, len(by_runtime))) as pool:
        for f in [pool.submit(work, items) for items in by_runtime.values()]:
            f.result()
    retime_slow(verifier, [out[seq] for seq, _ in numbered], cache, fps)
    return out
