"""Facts with one home: the report's methodology is docs/methodology.md, the version is
cryptobench.__version__, and what `compare` says of its test is what it ran (issue 32)."""

from __future__ import annotations

import importlib.metadata
import json
import re
import tomllib
from html.parser import HTMLParser

from cryptobench import __version__
from cryptobench.report import comparison
from cryptobench.report.html import page as html_report
from cryptobench.results import compare

from .conftest import ROOT, cli
from .fakes.results_docs import make_doc


class _Section(HTMLParser):
    """The text of <section id=ID> (and of nothing else), block elements on lines of their own."""

    BLOCKS = {"p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "tr", "td", "th"}

    def __init__(self, ident: str):
        super().__init__()
        self.ident, self.depth, self.parts = ident, 0, []

    def handle_starttag(self, tag, attrs):
        if self.depth or (tag == "section" and ("id", self.ident) in attrs):
            self.depth += tag == "section"
            self.parts.append("\n" if tag in self.BLOCKS else "")

    def handle_endtag(self, tag):
        if self.depth and tag == "section":
            self.depth -= 1

    def handle_data(self, data):
        if self.depth:
            self.parts.append(data)


def _words(html: str, ident: str | None = None) -> list[str]:
    if ident is None:
        html, ident = f'<section id="x">{html}</section>', "x"
    parser = _Section(ident)
    parser.feed(html)
    return "".join(parser.parts).split()


def test_report_methodology_is_the_rendering_of_docs_methodology_md():
    from markdown_it import MarkdownIt

    text = (ROOT / "docs" / "methodology.md").read_text("utf-8")
    # an independent rendering: plain CommonMark with tables, as a reader of the file sees it
    expected = _words(MarkdownIt("commonmark", {"html": False}).enable("table").render(text))
    page = html_report.render([make_doc()])
    shown = _words(page, "methodology")
    assert len(expected) > 5000 and shown == expected
    headings = re.findall(r"^(#+) (.+)$", text, re.M)
    for hashes, title in headings:  # one level down: the page's title is its only h1
        level = len(hashes) + 1
        plain = re.sub(r"`([^`]*)`", r"<code>\1</code>", title)
        assert f"<h{level}>{plain}</h{level}>" in page, title
    assert "at least 10 kept batches" not in page  # the hand-kept copy this replaced


def test_version_has_one_home():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert "version" not in project and "version" in project["dynamic"]
    assert importlib.metadata.version("cryptobench") == __version__
    proc = cli("--version")
    assert proc.returncode == 0 and proc.stdout.split()[-1] == __version__
    page = html_report.render([make_doc()])
    assert f'<meta name="generator" content="cryptobench {__version__}; ' in page


def test_compare_json_names_the_test_it_ran():
    base = make_doc()
    doc = json.loads(comparison.render("json", compare.compare(base, base), "a", "b"))
    methods = {c.method for c in compare.compare(base, base).cases}
    assert doc["method"]["test"] == "; ".join(comparison.TESTS[m] for m in sorted(methods))
    v1 = json.loads((ROOT / "tests" / "golden" / "results-v1.json").read_text())
    doc = json.loads(comparison.render("json", compare.compare(v1, v1), "a", "b"))
    assert doc["method"]["test"].startswith("Mann-Whitney U")


def test_compare_help_describes_the_current_method():
    text = " ".join(cli("compare", "--help").stdout.split())
    assert "Welch's t over the rounds" in text and "Benjamini–Hochberg control" in text
    assert "its CI excludes 1" in text and "exact ratio of the counts" in text
    assert "Mann–Whitney U on the batches only for one-round runs" in text


def test_readme_sample_is_what_show_prints_for_the_fixture():
    from cryptobench import report

    doc = json.loads((ROOT / "tests" / "fixtures" / "report-run.json").read_text())
    doc["results"] = [r for r in doc["results"] if r["primitive"] in ("sha256", "noop")]
    text = report.render("table", doc, color=False, width=118, group_by="best")
    lines = text.splitlines()
    expected = lines[
        : lines.index("per-call overhead and per-byte cost: t(n) = a + b·n (Theil–Sen)")
    ]
    expected = [line for line in expected if line] + [
        next(line for line in lines if line.startswith("runner overhead"))
    ]
    readme = (ROOT / "README.md").read_text()
    sample = readme.split("## A sample", 1)[1].split("```text\n", 1)[1].split("\n```", 1)[0]
    assert sample.splitlines() == expected
