"""Exports that other tools read: one module per format, each ``render(doc) -> str`` over the
results document (docs/exports.md says which consumer each one was checked with).

``EXPORTS`` maps a format's name to its function: `--format` and `--export` on the CLI, the
docs and the tests all discover the formats here.
"""

from __future__ import annotations

from . import bmf, gbench, github_action_benchmark, gobench, openmetrics, pyperf

EXPORTS = {
    "gobench": gobench.render,
    "bmf": bmf.render,
    "github-action-benchmark": github_action_benchmark.render,
    "pyperf": pyperf.render,
    "gbench": gbench.render,
    "openmetrics": openmetrics.render,
}
