"""Each key's answer worked out once, however many threads ask for it at the same time.

Verification asks the runtimes at once, one worker per runtime (measure/verified.py,
calibrate/verified.py), and a worker's check may need another implementation's known answers
(a password hash verified by other libraries' verify, a signature by another verifier):
without this, two workers that asked for the same known answers together both computed them
(measured: `advise --use password` on an empty cache made 150 Argon2id verify calls at
m=64 MiB where 78 were needed; docs/methodology.md, "Verification off the critical path").
A later asker waits for the first one's answer instead.

Waiting is safe while what a key's work asks for never asks for that key back: known answers
depend one way (a hash's or a signature's on the verifiers', a verify's on nothing else).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable


class Once:
    """A memo: ``get(key, make)`` returns ``make()``'s answer for ``key``, made once. An answer
    set with ``put`` (a check taken from the cache) is never made; a ``make`` that raises
    stores nothing, and the next asker makes it again."""

    def __init__(self) -> None:
        self.answers: dict = {}
        self._guard = threading.Lock()
        self._locks: dict[Hashable, threading.Lock] = {}

    def get(self, key: Hashable, make: Callable[[], object]):
        if key in self.answers:
            return self.answers[key]
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            if key not in self.answers:
                self.answers[key] = make()
        return self.answers[key]

    def put(self, key: Hashable, answer) -> None:
        """``answer`` for ``key`` unless one is there already."""
        with self._guard:
            self.answers.setdefault(key, answer)

    def __contains__(self, key: Hashable) -> bool:
        return key in self.answers
