"""cryptobench's Python runner: serves the protocol on stdin/stdout (docs/protocol.md).

The roles live in cbrunner/ (protocol, dispatch, registry, timing, hello); each lib_*.py file
is one library with one dispatch table (docs/adding-a-runner.md).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cbrunner.dispatch import Dispatcher  # noqa: E402
from cbrunner.protocol import answer, encode  # noqa: E402
from cbrunner.registry import libraries  # noqa: E402


def serve(dispatcher: Dispatcher) -> int:
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        out.write(encode(answer(line, dispatcher.handle)))
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(serve(Dispatcher(libraries())))
