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

from cbrunner.timing import Inline

__all__ = ["Aead", "Derive", "Digest", "Inline", "Library", "Mac", "PasswordHash", "Stream"]

RUNNER_DIR = Path(__file__).resolve().parents[1]


@dataclass
class Digest:
    """make(params) -> f(msg) -> bytes, or an Inline over `msg`: the call as source, timed
    with no Python frame of the runner's around it (timeit's statement)."""

    make: Callable
    operations: tuple = ("digest",)


@dataclass
class Mac:
    """make(key, params) -> f(msg) -> bytes."""

    make: Callable
    operations: tuple = ("mac",)


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


def libraries() -> list[Library]:
    """Every lib_*.py beside runner.py that imports in this interpreter, in name order; a
    lib_<library>_<part>.py without a LIBRARY is rows its library's file imports."""
    libs = []
    for path in sorted(RUNNER_DIR.glob("lib_*.py")):
        try:
            module = importlib.import_module(path.stem)
            if hasattr(module, "LIBRARY"):
                libs.append(module.LIBRARY)
        except ImportError as exc:
            print(f"python runner: {path.stem} left out: {exc}", file=sys.stderr)
    return libs
