"""The run lock: two runs never time at once on one machine."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from ..errors import CryptobenchError
from ..paths import lock_path


class RunLock:
    """An exclusive lock for the duration of a run: two runs never time at once."""

    def __init__(self, path: Path | None = None, wait: bool = False):
        self.path = path or lock_path()
        self.wait = wait
        self.fh = None

    def __enter__(self):
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.fh = open(self.path, "a+")  # noqa: SIM115 (held for the run)
        try:
            fcntl.flock(self.fh, fcntl.LOCK_EX | (0 if self.wait else fcntl.LOCK_NB))
        except BlockingIOError:
            self.fh.seek(0)
            holder = self.fh.read().strip() or "?"
            self.fh.close()
            raise CryptobenchError(
                f"another cryptobench run holds {self.path} (pid {holder}); "
                "wait for it to finish: two runs timing at once spoil both"
            ) from None
        self.fh.truncate(0)
        self.fh.write(str(os.getpid()))
        self.fh.flush()
        return self

    def __exit__(self, *exc):
        fcntl.flock(self.fh, fcntl.LOCK_UN)
        self.fh.close()
