"""The views that answer questions: fresh-context figures in the AEAD table, one table per
primitive, per runtime, the fastest per runtime, Markdown captions, width and NO_COLOR."""

from __future__ import annotations

import json
import re

import pytest

from cryptobench import report
from cryptobench.report import layout, tty

from .conftest import cli
from .fakes.results_docs import POLYGLOT, polyglot_doc, result

NON_REUSERS = sorted(impl for impl, (_, reuses) in POLYGLOT.items() if not reuses)


def _table(tables, title):
    return next(t for t in tables if t.title == title)


def test_every_aead_row_has_a_number_and_fresh_figures_are_marked():
    tables = layout.tables(polyglot_doc()["results"])
    titles = [t.title for t in tables]
    aead = _table(tables, "aead · seal · aad_len=0")
    # the fresh-context table held only stand-ins: it is not repeated
    assert "aead · seal · aad_len=0 fresh_context" not in titles
    assert len(aead.rows) == 2 * len(POLYGLOT)
    for label, cells in aead.rows:
        assert all(cells[s]["status"] == "ok" for s in aead.sizes), label
        impl = label.split()[1]
        assert label.endswith(layout.FRESH_MARK) == (impl in NON_REUSERS), label
        if impl in NON_REUSERS:
            assert all(cells[s]["params"]["fresh_context"] is False for s in aead.sizes)
            assert all(cells[s]["fresh_substitute"] for s in aead.sizes)
    assert layout.FRESH_NOTE in aead.notes
    assert set(aead.notes) <= {layout.FRESH_NOTE, layout.WIDE_NOTE, layout.TIE_NOTE}
    text = report.render("table", polyglot_doc())
    assert "node/crypto †" in text and layout.FRESH_NOTE in text
    assert "not offered" not in text


def test_a_fresh_context_table_with_its_own_results_stays():
    doc = polyglot_doc()
    gcm = {"aad_len": 0, "fresh_context": True}
    extra = result("go/stdlib", "aes-128-gcm", 64, __import__("numpy").random.default_rng(1))
    extra["params"] = gcm
    doc["results"].append(extra)
    tables = layout.tables(doc["results"])
    fresh = _table(tables, "aead · seal · aad_len=0 fresh_context")
    labels = [lbl for lbl, _ in fresh.rows]
    # every fresh figure is in it, unmarked: there it is what the table is about
    assert "aes-128-gcm  go/stdlib" in labels and "aes-128-gcm  node/crypto" in labels
    assert not any(lbl.endswith(layout.FRESH_MARK) for lbl in labels)


def test_group_by_primitive_gives_one_table_per_primitive():
    tables = layout.tables(polyglot_doc()["results"], "primitive")
    assert [t.title for t in tables] == [
        "blake2b-512 · digest",
        "sha256 · digest",
        "crc32c · digest",
        "aes-128-gcm · seal · aad_len=0",
        "chacha20-poly1305 · seal · aad_len=0",
    ]
    gcm = _table(tables, "aes-128-gcm · seal · aad_len=0")
    assert gcm.head == "implementation" and len(gcm.rows) == len(POLYGLOT)
    assert "node/crypto †" in dict(gcm.rows)
    assert gcm.best[1024] == "c/openssl"


def test_group_by_runtime_answers_which_library_in_python():
    tables = layout.tables(polyglot_doc()["results"], "runtime")
    python = [t for t in tables if t.title.startswith("python · ")]
    assert [t.title for t in python] == [
        "python · hash · digest",
        "python · checksum · digest",
        "python · aead · seal · aad_len=0",
    ]
    aead = python[-1]
    assert aead.head == "primitive  library"
    assert sorted(dict(aead.rows)) == [
        "aes-128-gcm  cryptography",
        "aes-128-gcm  hashlib",
        "aes-128-gcm  pycryptodome †",
        "chacha20-poly1305  cryptography",
        "chacha20-poly1305  hashlib",
        "chacha20-poly1305  pycryptodome †",
    ]
    assert {lbl.split()[0] for lbl, _ in tables[0].rows} <= {"sha256", "blake2b-512"}


def test_best_view_puts_each_runtimes_fastest_side_by_side():
    tables = layout.tables(polyglot_doc()["results"], "best")
    sha = _table(tables, "sha256 · digest · fastest per runtime")
    rows = dict(sha.rows)
    assert sorted(rows) == ["c", "go", "java", "node", "php", "python", "rust"]
    assert rows["rust"][64]["best_of_runtime"] == "ring"  # ring is faster than rustcrypto
    assert rows["python"][64]["best_of_runtime"] == "hashlib"
    assert layout.cell(rows["java"][1024], sha.unit).endswith(" jdk")
    assert sha.best[64] == "c"


def test_markdown_has_a_caption_with_the_machine_and_the_command():
    doc = polyglot_doc()
    doc["run"]["command"] = "cryptobench run --exclude '*_x' --preset default"
    text = report.render("markdown", doc, group_by="runtime")
    captions = [ln for ln in text.splitlines() if ln.startswith("*ms/op") or ln.startswith("*MB/s")]
    n_tables = sum(ln.startswith("### ") and "Per-call" not in ln for ln in text.splitlines())
    assert len(captions) == n_tables > 0
    assert all("Fake CPU 3000, 2 cores, Debian 12" in c for c in captions)
    assert all(
        "command: cryptobench run --exclude '\\*\\_x' --preset default" in c for c in captions
    )
    assert "### python · aead · seal · aad_len=0 (MB/s)" in text
    assert layout.FRESH_NOTE in text


@pytest.mark.parametrize("width", [60, 80, 120])
def test_tables_fit_the_width_and_titles_keep_their_words(width):
    text = report.render("table", polyglot_doc(), width=width, group_by="primitive")
    lines = text.splitlines()
    assert max(len(ln) for ln in lines) <= width
    # a title is printed whole or wrapped between words, never inside one
    title_lines = [ln for ln in lines if ln.startswith("chacha20-poly1305 · seal")]
    assert title_lines
    for ln in lines:
        for token in re.findall(r"[^\s┃│┏┓┗┛━─┡┩╇┳┻┯┷┠┨┼┬┴]+", ln):
            if token.startswith(("chacha20", "aad_")):
                assert token in {"chacha20-poly1305", "aad_len=0"}, ln
    # the sizes that do not fit go to a continuation part, none is lost
    for size in (16, 64, 1024, 16384):
        assert f"{size} B" in text


def test_colour_only_on_a_terminal_and_never_with_no_color(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert tty.color_wanted(True) and not tty.color_wanted(False)
    monkeypatch.setenv("NO_COLOR", "1")
    assert not tty.color_wanted(True)
    coloured = report.render("table", polyglot_doc(), color=True)
    plain = report.render("table", polyglot_doc(), color=False)
    assert "\x1b[" in coloured and "\x1b[" not in plain


def test_show_group_by_through_the_cli(tmp_path):
    path = tmp_path / "polyglot.json"
    path.write_text(json.dumps(polyglot_doc()))
    db = str(tmp_path / "views.sqlite")
    assert cli("import", str(path), "--db", db).returncode == 0
    env = {"COLUMNS": "70", "NO_COLOR": "1"}
    proc = cli("show", "last", "--db", db, "--group-by", "runtime", env=env)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert "\x1b[" not in proc.stdout and max(len(ln) for ln in lines) <= 70
    assert any(ln.startswith("python · aead · seal · aad_len=0") for ln in lines)
    md = cli("show", "last", "--db", db, "--group-by", "best", "--format", "markdown")
    assert md.returncode == 0, md.stderr
    assert "### aes-128-gcm · seal · aad_len=0 · fastest per runtime (MB/s)" in md.stdout
    assert "command: cryptobench run --preset default" in md.stdout
    bad = cli("show", "last", "--db", db, "--group-by", "colour")
    assert bad.returncode == 2 and "primitive" in bad.stderr and "runtime" in bad.stderr
