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
from .case import Prepared, prepare


def case_key(fps: Fingerprints, case: Case) -> str:
    """Not the seed: a case verified on one run's random inputs keeps them (and says so)."""
    what = [case.operation, case.size, case.params, list(case.cpu_off)]
    return fps.key(case.impl.id, case.prim.id, what)


def prepare_cached(
    verifier: Verifier, case: Case, seq: int, seed: int, cache: Cache, fps: Fingerprints
) -> Prepared | dict:
    """`prepare`, or the answer an earlier run verified for the same key."""
    key = case_key(fps, case)
    kept = cache.get(key)
    if kept is not None:
        why = f"{kept['verification']} (verified {kept['when']}, unchanged since: cached)"
        return Prepared(seq, case, kept["inputs"], kept["expected"], why, kept["call_ns"])
    got = prepare(verifier, case, seq, seed)
    if isinstance(got, Prepared):
        keep = {"inputs": got.inputs, "expected": got.expected, "verification": got.verification}
        cache.put(key, {**keep, "call_ns": got.call_ns, "when": now()[:10]})
    return got


def prepare_all(
    verifier: Verifier,
    numbered: list[tuple[int, Case]],
    seed: int,
    cache: Cache,
    fps: Fingerprints,
    on_done: Callable[[Case, Prepared | dict], None] = lambda c, got: None,
) -> dict[int, Prepared | dict]:
    """{row number: Prepared or the stored refusal}, one worker per runtime; each runtime's
    cases in the plan's order."""
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
    return out
