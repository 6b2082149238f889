"""cryptobench's Python runner: serves the protocol on stdin/stdout (docs/protocol.md).

The roles live in cbrunner/ (protocol, dispatch, registry, timing, hello); each lib_*.py file
is one library with one dispatch table (docs/adding-a-runner.md).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cbrunner.dispatch import Dispatcher  # noqa: E402
from cbrunner.limits import TooLong, read_line  # noqa: E402
from cbrunner.protocol import answer, encode, error  # noqa: E402
from cbrunner.registry import Libraries  # noqa: E402


def serve(dispatcher: Dispatcher) -> int:
    out, stdin = sys.stdout, sys.stdin.buffer
    while True:
        try:
            line = read_line(stdin)
        except TooLong as exc:
            out.write(encode(error(None, "bad_request", str(exc))))
            out.flush()
            continue
        if line is None:
            return 0
        out.write(encode(answer(line, dispatcher.handle)))
        out.flush()


if __name__ == "__main__":
    sys.exit(serve(Dispatcher(Libraries())))
