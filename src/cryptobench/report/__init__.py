"""Output formats: one module per format, each ``render(doc, options) -> str`` with
``options`` a sections.Options (keyword arguments are accepted and turned into one). The
human-readable formats lay out the section model of ``sections`` (built once per document).

``doc`` is the results document of results.document(): {"schema", "run", "machine", "results"}.
The formats other tools read (benchstat, pyperf, Bencher, …) are in ``exports`` (EXPORTS).
"""

from __future__ import annotations

from . import csv, json, markdown, sections, terminal
from .exports import EXPORTS

FORMATS = {"table": terminal, "json": json, "csv": csv, "markdown": markdown}


def render(fmt: str, doc: dict, **options) -> str:
    if fmt in EXPORTS:
        return EXPORTS[fmt](doc, **options)
    return FORMATS[fmt].render(doc, sections.options(**options))
