"""Output formats: one module per format, each ``render(doc, **options) -> str``.

``doc`` is the results document of results.document(): {"schema", "run", "machine", "results"}.
"""

from __future__ import annotations

from . import csv, json, markdown, terminal

FORMATS = {"table": terminal, "json": json, "csv": csv, "markdown": markdown}


def render(fmt: str, doc: dict, **options) -> str:
    return FORMATS[fmt].render(doc, **options)
