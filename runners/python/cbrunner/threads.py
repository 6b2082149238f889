"""`bench` with `threads: N` (docs/protocol.md): N threads of this process, each with its own
context (its own setup and untimed call), released together by a barrier, each timing the
same batches. CPython's threads share one interpreter lock: a library that holds it while it
works (small messages: the call overhead is Python code) runs one thread at a time; one that
releases it (hashlib above 2047 bytes) can run on every CPU."""

from __future__ import annotations

import threading
from collections.abc import Callable

from .protocol import Fail
from .timing import time_batches

MAX_THREADS = 256


def bench_threads(calls: Callable, req: dict, threads, iterations: int, batches: int) -> dict:
    """``calls(req)`` → (first, timed), a fresh context each time. Returns every thread's
    samples in ``thread_samples`` (``samples``: thread 0's)."""
    if not isinstance(threads, int) or isinstance(threads, bool) or not 1 <= threads <= MAX_THREADS:
        raise Fail("bad_request", f"threads must be an integer in 1..{MAX_THREADS}")
    contexts = [calls(req) for _ in range(threads)]
    outputs = [first() for first, _ in contexts]  # each context's untimed call
    if req.get("operation") != "hash" and len(set(outputs)) != 1:  # hash: a fresh salt each
        raise Fail("internal", "threads computed different outputs")
    barrier = threading.Barrier(threads)
    samples: list = [None] * threads
    errors: list = []

    def work(i: int) -> None:
        try:
            barrier.wait()
            samples[i] = time_batches(contexts[i][1], iterations, batches)
        except Exception as exc:  # reported below: a runner never dies on a request
            errors.append(exc)

    pool = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    if errors:
        raise errors[0]
    return {"samples": samples[0], "thread_samples": samples}
