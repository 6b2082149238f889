"""The run lock: two runs of one user never time at once on one machine.

The lock lives in a directory of ours (paths.lock_path: $XDG_RUNTIME_DIR, else a 0700
directory we create), is opened without following a symbolic link, must be a regular file we
own holding nothing but a pid, and is never truncated otherwise: a planted link or another
user's file is refused with one line (exit 1), never written through."""

from __future__ import annotations

import errno
import fcntl
import os
import re
import stat
from pathlib import Path

from ..errors import CryptobenchError
from ..paths import lock_path

_OPEN = os.O_RDWR | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_PID_ONLY = re.compile(rb"\s*(\d{1,10})?\s*")


class LockError(CryptobenchError):
    """The lock cannot be taken safely (exit 1): what is wrong and what to do."""


def _refuse(path: Path, what: str) -> LockError:
    return LockError(
        f"run lock {path}: {what}; refusing to use it (remove it, or set CRYPTOBENCH_LOCK "
        "to a file of yours)"
    )


def _open(path: Path) -> int:
    """A descriptor on the lock file, created (0600) if absent, never through a link."""
    for _ in range(3):  # a file removed between the two opens: try again
        try:
            return os.open(path, _OPEN | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        try:
            return os.open(path, _OPEN)
        except FileNotFoundError:
            continue
    raise _refuse(path, "it keeps appearing and disappearing")


def open_checked(path: Path) -> int:
    """Open ``path`` as a lock file: LockError, never an OSError, when it is not one."""
    try:
        fd = _open(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise _refuse(path, "it is a symbolic link") from None
        if exc.errno == errno.EISDIR:
            raise _refuse(path, "it is a directory") from None
        raise _refuse(path, f"cannot open it ({exc.strerror})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise _refuse(path, "it is not a regular file")
        if st.st_uid != os.geteuid():
            raise _refuse(path, f"it belongs to another user (uid {st.st_uid})")
        if not _PID_ONLY.fullmatch(os.pread(fd, 64, 0)):
            raise _refuse(path, "it holds something other than a cryptobench pid")
    except OSError as exc:
        os.close(fd)
        raise _refuse(path, f"cannot read it ({exc.strerror})") from None
    except LockError:
        os.close(fd)
        raise
    return fd


def private_dir(path: Path) -> Path:
    """``path`` as a directory of ours that nobody else can write: created 0700 if absent;
    a link, a file, another user's directory or one open to others is refused."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError as exc:
        raise LockError(f"cannot create {path} for the run lock ({exc.strerror})") from None
    st = os.lstat(path)
    what = None
    if stat.S_ISLNK(st.st_mode):
        what = "it is a symbolic link"
    elif not stat.S_ISDIR(st.st_mode):
        what = "it is not a directory"
    elif st.st_uid != os.geteuid():
        what = f"it belongs to another user (uid {st.st_uid})"
    elif st.st_mode & 0o022:
        what = f"others may write into it (mode {st.st_mode & 0o777:o}; chmod 700 it)"
    if what:
        raise LockError(f"directory {path}: {what}; refusing to keep the run lock there")
    return path


class RunLock:
    """An exclusive lock for the duration of a run: two runs never time at once."""

    def __init__(self, path: Path | None = None, wait: bool = False):
        self.explicit = path is not None or bool(os.environ.get("CRYPTOBENCH_LOCK"))
        self.path = path or lock_path()
        self.wait = wait
        self.fd: int | None = None

    def __enter__(self):
        if not self.explicit:
            private_dir(self.path.parent)
        fd = open_checked(self.path)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if self.wait else fcntl.LOCK_NB))
        except BlockingIOError:
            holder = os.pread(fd, 64, 0).decode(errors="replace").strip() or "?"
            os.close(fd)
            raise CryptobenchError(
                f"another cryptobench run holds {self.path} (pid {holder}); "
                "wait for it to finish: two runs timing at once spoil both"
            ) from None
        os.ftruncate(fd, 0)  # ours, regular, a pid at most (open_checked)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self.fd = fd
        return self

    def __exit__(self, *exc):
        if self.fd is not None:
            fcntl.flock(self.fd, fcntl.LOCK_UN)
            os.close(self.fd)
            self.fd = None
