"""The HTML report and `cryptobench leak` cases: the charts and tables of the families leave
them out (:func:`without_leak`); their own section is the section model's ``leak`` section
(report.sections, drawn by html.sections with the |t| curve as an inline SVG line)."""

from __future__ import annotations

from .. import leak as leak_report


def without_leak(doc: dict) -> dict:
    """The document the other sections chart: every case but the leak ones."""
    return {**doc, "results": [r for r in doc.get("results", []) if not leak_report.is_leak(r)]}
