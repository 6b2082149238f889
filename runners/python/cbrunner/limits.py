"""Request limits (docs/protocol.md, "Limits"): a line too long, too deeply nested, not UTF-8
or empty is answered bad_request before it is parsed; impossible sizes are refused before
anything is allocated."""

from __future__ import annotations

import re
from typing import BinaryIO

LINE_LIMIT = 192 << 20  # bytes before the newline: 64 MiB of message as hex, and room to spare
DEPTH_LIMIT = 64  # arrays and objects, the request object included
MAX_GENERATED = 1 << 40  # bytes of a generated message
MAX_ITERATIONS = 1 << 40
MAX_BATCHES = 1 << 16
_CHUNK = 1 << 20

_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


class TooLong(Exception):
    """The line was longer than LINE_LIMIT; its rest has been read and dropped."""


def read_line(stream: BinaryIO) -> bytes | None:
    """The next line without its newline (None at EOF); raises TooLong, having skipped the
    rest of a line over the limit without holding it."""
    line = stream.readline(LINE_LIMIT + 1)
    if not line:
        return None
    if line.endswith(b"\n"):
        return line[:-1]
    if len(line) <= LINE_LIMIT:
        return line  # the last line, without a newline
    while (rest := stream.readline(_CHUNK)) and not rest.endswith(b"\n"):
        pass
    raise TooLong(f"request line longer than {LINE_LIMIT} bytes")


def refusal(line: bytes) -> str | None:
    """Why ``line`` is refused before parsing (None: parse it)."""
    if not line.strip(b" \t\r\n"):
        return "empty request line"
    try:
        line.decode("utf-8")
    except UnicodeDecodeError:
        return "request line is not UTF-8"
    if line.count(b"[") + line.count(b"{") <= DEPTH_LIMIT:
        return None
    depth = 0
    for c in _STRING.sub(b"", line).translate(None, _NOT_BRACKETS):
        depth += 1 if c in b"[{" else -1
        if depth > DEPTH_LIMIT:
            return f"JSON nested deeper than {DEPTH_LIMIT} levels"
    return None
