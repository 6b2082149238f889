"""The hello answer: the interpreter and every library's primitives."""

from __future__ import annotations

import platform
import sys

from cbrunner.msggen import GENERATORS
from cbrunner.protocol import PROTOCOL
from cbrunner.registry import Library, PasswordHash


def _offers(lib: Library) -> dict:
    prims = {}
    for pid, spec in lib.table.items():
        offer = {"operations": list(spec.operations)}
        if hasattr(spec, "reuses_key"):
            offer["reuses_key"] = spec.reuses_key
        if isinstance(spec, PasswordHash):
            offer["takes_salt"] = spec.takes_salt
        if getattr(spec, "nonces", None) is not None:
            offer["sizes"] = {"nonce": spec.nonces}
        prims[pid] = offer
    return prims


def hello(libs: list[Library]) -> dict:
    impls = [
        {
            "library": lib.name,
            "version": lib.version,
            "backend": lib.backend,
            "code_path": lib.code_path,
            "notes": lib.notes,
            "primitives": _offers(lib),
        }
        for lib in libs
    ]
    impl = platform.python_implementation()
    return {
        "protocol": PROTOCOL,
        "generators": GENERATORS,
        "runtime": {
            "name": impl.lower(),
            "version": platform.python_version(),
            "details": {
                "executable": sys.executable,
                "build": platform.python_build()[0],
                "compiler": platform.python_compiler(),
            },
        },
        "cpu": {},
        "implementations": impls,
    }
