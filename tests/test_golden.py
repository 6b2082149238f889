"""A stored results-v1 document (tests/golden/results-v1.json, one round per case, as the
first release wrote them) rendered in every format and compared with the stored output, so a
report change is a visible diff. Regenerate after an intended change with
`CRYPTOBENCH_UPDATE_GOLDEN=1 pytest tests/test_golden.py` and review the diff."""

from __future__ import annotations

import json
import os
from pathlib import Path

import jsonschema
import pytest

import cryptobench
from cryptobench import report
from cryptobench.results import compare

GOLDEN = Path(__file__).parent / "golden"
DOC = json.loads((GOLDEN / "results-v1.json").read_text())
SCHEMA = json.loads(
    (Path(cryptobench.__file__).parent / "results" / "results.schema.json").read_text()
)
EXT = {"table": "txt", "json": "json", "csv": "csv", "markdown": "md"}


def test_the_golden_document_is_a_valid_v1_results_file():
    assert DOC["schema"] == "cryptobench/results/v1"
    jsonschema.validate(DOC, SCHEMA)


@pytest.mark.parametrize("fmt", sorted(EXT))
def test_every_format_renders_the_golden_run_as_stored(fmt):
    got = report.render(fmt, DOC, show_precision=True, color=False)
    path = GOLDEN / f"results-v1.{EXT[fmt]}"
    if os.environ.get("CRYPTOBENCH_UPDATE_GOLDEN"):
        path.write_text(got)
    assert got == path.read_text()


def test_a_v1_run_is_compared_batch_by_batch_with_a_warning():
    faster = json.loads(json.dumps(DOC))
    for r in faster["results"]:
        for s in r["samples"]:
            s["ns"] = int(s["ns"] * 0.8)
    cmp = compare.compare(DOC, faster)
    assert all(c.method == "batches" for c in cmp.cases)
    assert any("batch by batch" in w for w in cmp.warnings)
    assert all(c.verdict == "faster" for c in cmp.cases)
