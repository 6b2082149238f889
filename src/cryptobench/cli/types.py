"""Option types that refuse what would be measured wrongly: NaN and infinities wherever a number
is taken, seeds outside their declared range, labels that would break a listing."""

from __future__ import annotations

import math

import click

SEED_MAX = 2**63 - 1  # a signed 64-bit integer: what every store and JSON reader carries


class Finite(click.FloatRange):
    """A float range that also refuses NaN and ±inf (a range check lets NaN through)."""

    name = "finite number"

    def convert(self, value, param, ctx):
        got = super().convert(value, param, ctx)
        if not math.isfinite(got):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return got


SEED = click.IntRange(0, SEED_MAX)
TIMEOUT = Finite(0, min_open=True)


def label_option(ctx, param, value):
    """A click callback: a machine label checked as identity.check_label does (exit 2)."""
    from ..errors import UsageError
    from ..results.identity import check_label

    if value is None:
        return value
    try:
        return check_label(value)
    except UsageError as exc:
        raise click.BadParameter(str(exc)) from None
