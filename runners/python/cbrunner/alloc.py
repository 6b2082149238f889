"""What the bench request's untimed call allocates (docs/protocol.md, `alloc_bytes`).

tracemalloc runs around that one call only: started right before it, stopped right after (its
hooks leave CPython's allocators), so no timed batch ever runs traced. It traces the Python
heap (PyMem_*/PyObject_* allocations: objects, bytes, buffers); what a wrapped C or Rust
library allocates with its own malloc is not seen. The figure is the peak of traced memory
during the call above the start (bytes live at once, its output included), not a total.
"""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable

from cbrunner.timing import Inline

COUNTER = "tracemalloc peak (Python heap)"


def traced_call(call: Inline | Callable) -> tuple[object, int | None]:
    """(output, peak traced bytes) of one call; None (the call still made) where tracemalloc
    was already tracing: someone else's tracing is neither stopped nor measured into."""
    if tracemalloc.is_tracing():
        return call(), None
    # an Inline compiles its source and binds its names first: not the call's allocation
    run = call.compiled() if isinstance(call, Inline) else call
    tracemalloc.start(1)
    try:
        out = run()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return out, peak
