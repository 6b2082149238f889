"""Message sizes with units: `64KiB`, `1GiB`, `1.5MB`, `1000` (bytes), in options and presets."""

from __future__ import annotations

import re

import click

from ..errors import UsageError

UNITS = {
    "": 1,
    "b": 1,
    "kib": 1 << 10,
    "mib": 1 << 20,
    "gib": 1 << 30,
    "kb": 10**3,
    "mb": 10**6,
    "gb": 10**9,
}
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$", re.I)
VALID = "bytes, or a number with B, KiB, MiB, GiB (×1024) or kB, MB, GB (×1000): 64KiB, 1GiB"


def parse_size(text) -> int:
    """A size in bytes; UsageError for anything else."""
    if isinstance(text, int) and not isinstance(text, bool):
        value, unit = text, ""
    else:
        found = _SIZE.match(str(text))
        if not found or found.group(2).lower() not in UNITS:
            raise UsageError(f"invalid size {text!r}: {VALID}")
        value, unit = found.group(1), found.group(2).lower()
    n = float(value) * UNITS[unit] if "." in str(value) else int(value) * UNITS[unit]
    if n != int(n) or n < 0:
        raise UsageError(f"invalid size {text!r}: not a whole number of bytes; {VALID}")
    return int(n)


class SizeType(click.ParamType):
    name = "size"

    def convert(self, value, param, ctx):
        try:
            return parse_size(value)
        except UsageError as exc:
            self.fail(str(exc), param, ctx)


SIZE = SizeType()
