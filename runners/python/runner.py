"""cryptobench's Python runner: serves the protocol on stdin/stdout (docs/protocol.md).

Each lib_*.py file is one library with one dispatch table; a library whose package is not
installed in this interpreter is left out and named on stderr.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cbrunner import Runner  # noqa: E402


def libraries() -> list:
    libs = []
    for path in sorted(Path(__file__).resolve().parent.glob("lib_*.py")):
        try:
            libs.append(importlib.import_module(path.stem).LIBRARY)
        except ImportError as exc:
            print(f"python runner: {path.stem} left out: {exc}", file=sys.stderr)
    return libs


if __name__ == "__main__":
    sys.exit(Runner(libraries()).serve())
