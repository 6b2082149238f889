"""What a lib_*.py file provides (a Library and its table rows), and finding those files.

Each lib_*.py file is one library with one dispatch table; a library whose package is not
installed in this interpreter is left out and named on stderr.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from cbrunner.protocol import AuthFailed
from cbrunner.timing import Inline

__all__ = [
    "Aead",
    "Derive",
    "Digest",
    "Inline",
    "Library",
    "Mac",
    "PasswordHash",
    "Stream",
    "keyed_verify",
]

RUNNER_DIR = Path(__file__).resolve().parents[1]


@dataclass
class Digest:
    """make(params) -> f(msg) -> bytes, or an Inline over `msg`: the call as source, timed
    with no Python frame of the runner's around it (timeit's statement)."""

    make: Callable
    operations: tuple = ("digest",)


@dataclass
class Mac:
    """make(key, params) -> f(msg) -> bytes; verify(key, params) -> f(msg, tag) -> b"ok"
    (AuthFailed when tag is not the MAC, of any length): the library's own verify, else the
    MAC computed as make does it and compared in constant time. None: `mac` only."""

    make: Callable
    verify: Callable | None = None

    @property
    def operations(self) -> tuple:
        return ("mac", "verify") if self.verify else ("mac",)


def keyed_verify(keyed, mismatch: type[Exception]) -> Callable[[bytes, bytes], bytes]:
    """A Mac's verify over the library's own tag check: ``keyed`` is its MAC object keyed once
    (copy(), update(msg), verify(tag)), ``mismatch`` what its verify raises when the tag is not
    the MAC, a tag of any other length included; that becomes AuthFailed, a match b"ok"."""

    def verify(msg: bytes, tag: bytes) -> bytes:
        h = keyed.copy()
        h.update(msg)
        try:
            h.verify(tag)
        except mismatch:
            raise AuthFailed() from None
        return b"ok"

    return verify


@dataclass
class Derive:
    """fn(password, salt, params) -> bytes."""

    fn: Callable
    operations: tuple = ("derive",)


@dataclass
class PasswordHash:
    """hash(password, salt|None, params) -> str; verify(password, encoded, params) -> bool."""

    hash: Callable
    verify: Callable
    derive: Callable | None = None
    takes_salt: bool = True

    @property
    def operations(self) -> tuple:
        return ("hash", "verify") + (("derive",) if self.derive else ())


@dataclass
class Aead:
    """key(key) -> ctx; seal(ctx, nonce, aad, msg) -> ct‖tag; open(ctx, nonce, aad, ct) -> msg.

    open raises AuthFailed on a bad tag. reuses_key False: ctx must be made per message.
    nonces: the nonce lengths declared in hello (ints or [lo, hi]); the dispatcher refuses
    others. None: the catalog's nonce length, which the library itself enforces.
    """

    key: Callable
    seal: Callable
    open: Callable
    reuses_key: bool = True
    operations: tuple = ("seal", "open", "roundtrip")
    nonces: list | None = None


@dataclass
class Stream:
    """key(key) -> ctx; encrypt(ctx, counter_block, msg) -> ciphertext (CTR: decrypt = encrypt)."""

    key: Callable
    encrypt: Callable
    reuses_key: bool = True
    operations: tuple = ("encrypt", "roundtrip")


@dataclass
class Library:
    name: str
    version: str
    backend: dict
    table: dict
    code_path: str = ""
    notes: str = ""
    extra: dict = field(default_factory=dict)


def _key(name: str) -> str:
    """A library id as its file is named: ``argon2-cffi`` is lib_argon2cffi.py and
    ``google-crc32c`` lib_google_crc32c.py (compared without case, ``-`` and ``_``)."""
    return name.lower().replace("-", "").replace("_", "")


class Libraries:
    """The lib_*.py files beside runner.py, each imported when first needed: every one for a
    full hello, those a brief hello's ``only`` names (docs/protocol.md), another one when a
    request first names it. A file whose package is not installed is left out, named on
    stderr; a lib_<library>_<part>.py without a LIBRARY is rows its library's file imports."""

    def __init__(self, folder: Path = RUNNER_DIR):
        self._paths = sorted(folder.glob("lib_*.py"))
        self._loaded: dict[Path, Library | None] = {}

    def _import(self, path: Path) -> Library | None:
        if path not in self._loaded:
            self._loaded[path] = None
            try:
                self._loaded[path] = getattr(importlib.import_module(path.stem), "LIBRARY", None)
            except ImportError as exc:
                print(f"python runner: {path.stem} left out: {exc}", file=sys.stderr)
        return self._loaded[path]

    def _imported(self, paths: list[Path]) -> list[Library]:
        return [lib for path in paths if (lib := self._import(path)) is not None]

    def load(self, names: list[str] | None = None) -> list[Library]:
        """The libraries named (None: all), imported now where not yet, in file name order;
        a name no file is named after imports every file to find it."""
        if names is None:
            return self._imported(self._paths)
        keys = {_key(n) for n in names}
        libs = self._imported([p for p in self._paths if _key(p.stem[4:]) in keys])
        if not set(names) <= {lib.name for lib in libs}:
            libs = self._imported(self._paths)
        return [lib for lib in libs if lib.name in names]

    def get(self, name: str) -> Library | None:
        found = self.load([name])
        return found[0] if found else None

    def names(self) -> list[str]:
        """Every library this interpreter can load (imports the files not imported yet)."""
        return [lib.name for lib in self.load()]
