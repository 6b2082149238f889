"""The HTML report without a browser: content, escaping, self-containment; and the
report/import/export commands end to end."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
from html.parser import HTMLParser

import pytest

from cryptobench import stats
from cryptobench.report.html import page as html_report

from .fakes.results_docs import HOSTILE, POLYGLOT, SCRIPT_BREAK, hostile_doc, make_doc, polyglot_doc

ID_B = "0b1b2c3d-0000-4000-8000-000000000002"


def no_traceback(proc):
    assert "Traceback" not in proc.stderr + proc.stdout
    return proc


class Tags(HTMLParser):
    """Every start tag with its attributes, and the text of every <script>."""

    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.scripts: list[tuple[dict, str]] = []
        self._in_script: dict | None = None

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag == "script":
            self._in_script = dict(attrs)
            self.scripts.append((self._in_script, ""))

    def handle_data(self, data):
        if self._in_script is not None:
            attrs, text = self.scripts[-1]
            self.scripts[-1] = (attrs, text + data)

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = None


def parse(text: str) -> Tags:
    tags = Tags()
    tags.feed(text)
    return tags


def chart_data(text: str) -> dict:
    (data,) = [t for a, t in parse(text).scripts if a.get("id") == "cb-data"]
    return json.loads(data)


@pytest.fixture(scope="module")
def two_runs() -> str:
    slower = {("go/stdlib", "sha256"): 1.1}
    docs = [make_doc(), make_doc(run_id=ID_B, cpu="Other CPU 9000", seed=2, speed=slower)]
    return html_report.render(docs)


@pytest.fixture(scope="module")
def hostile() -> str:
    return html_report.render(hostile_doc())


def test_json_for_script_never_closes_the_script():
    text = html_report.json_for_script({"x": SCRIPT_BREAK + " & <b>"})
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == {"x": SCRIPT_BREAK + " & <b>"}


def test_every_script_is_ours_and_listed_in_the_csp(two_runs):
    tags = parse(two_runs)
    csp = next(
        a["content"] for t, a in tags.tags if a.get("http-equiv") == "Content-Security-Policy"
    )
    assert (
        "default-src 'none'" in csp
        and "connect-src 'none'" in csp
        and "unsafe-inline'" not in csp.split("style-src")[0]
    )
    executed = [text for attrs, text in tags.scripts if "type" not in attrs]
    assert len(executed) == 3  # plotly.js and the page's own two scripts
    for text in executed:
        digest = base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in csp
    types = sorted(attrs.get("type", "") for attrs, _ in tags.scripts)
    assert types == ["", "", "", "application/json", "text/plain"]


def test_self_contained_no_external_resource(two_runs):
    for tag, attrs in parse(two_runs).tags:
        for name in ("src", "href", "action", "data"):
            value = attrs.get(name)
            assert value is None or value.startswith("#"), (tag, name, value)
    assert "<link" not in two_runs and "@import" not in two_runs
    assert re.search(r"plotly\.js (\(basic - minified\) )?v4", two_runs)  # inlined, not fetched


def test_per_family_charts_are_the_fit_charts(two_runs):
    charts = chart_data(two_runs)["charts"]
    kinds = [(c["kind"], c["layout"]["title"]["text"]) for c in charts]
    assert kinds == [
        ("fit", "hash: per-call overhead vs per-byte cost, t(n) = a + b·n"),
        ("fit", "aead: per-call overhead vs per-byte cost, t(n) = a + b·n"),
    ]
    names = [t["name"] for t in charts[0]["data"]]
    assert names == [
        "go/stdlib · 0a1b2c3d on Fake CPU 3000",
        "go/stdlib · 0b1b2c3d on Other CPU 9000",
        "rust/ring · 0a1b2c3d on Fake CPU 3000",
        "rust/ring · 0b1b2c3d on Other CPU 9000",
    ]


def explore_records(text: str) -> list[dict]:
    data = chart_data(text)["explore"]
    return [dict(zip(data["fields"], row, strict=True)) for row in data["records"]]


def test_explore_data_has_every_measured_case_of_every_run(two_runs):
    data = chart_data(two_runs)["explore"]
    recs = explore_records(two_runs)
    # 2 runs x 2 implementations x (2 fast primitives x 3 sizes + 2 slow ones); no noop
    assert len(recs) == 2 * 2 * (2 * 3 + 2)
    assert data["runtimes"] == ["go", "rust"] and data["sizes"] == [64, 1024, 8192]
    assert data["size"] == 1024 and set(data["colors"]) == {"go", "rust"}
    assert data["runs"] == ["0a1b2c3d on Fake CPU 3000", "0b1b2c3d on Other CPU 9000"]
    # the whiskers come from the round-level interval of the median
    doc = make_doc()
    r = next(r for r in doc["results"] if r["implementation"] == "go/stdlib" and r["size"] == 64)
    rec = next(x for x in recs if x["impl"] == "go/stdlib" and x["size"] == 64 and x["run"] == 0)
    assert rec["ns"] == pytest.approx(r["median_ns"], rel=1e-5)
    assert rec["lo"] == pytest.approx(r["ci_low_ns"], rel=1e-5)
    assert rec["hi"] == pytest.approx(r["ci_high_ns"], rel=1e-5)
    assert {x["slow"] for x in recs if x["family"] in ("kdf", "password-hash")} == {1}


def test_explore_shows_fresh_context_figures_in_place_of_not_offered():
    recs = explore_records(html_report.render(polyglot_doc()))
    gcm = [x for x in recs if x["primitive"] == "aes-128-gcm"]
    assert {x["params"] for x in gcm} == {"aad_len=0"}  # the fresh-only group is not repeated
    fresh = {x["impl"] for x in gcm if x["fresh"]}
    assert fresh == {"node/crypto", "node/noble", "php/openssl", "python/pycryptodome"}
    assert len({x["impl"] for x in gcm}) == len(POLYGLOT)


def test_report_size_with_the_partial_bundle():
    name, _ = html_report.plotly_bundle()
    if "basic" not in name:
        why = "web/node_modules not installed (make setup): the full plotly.js is inlined"
        if os.environ.get("CRYPTOBENCH_STRICT") == "1":  # CI: make test set web/ up
            pytest.fail(why)
        pytest.skip(why)
    text = html_report.render(polyglot_doc())
    assert "plotly.js (basic - minified) v" in text
    assert len(text.encode()) < 2_000_000


def test_fit_table_uses_stats_fit_overhead():
    doc = make_doc(slow=False, impls=("go/stdlib",))
    text = html_report.render(doc)
    rs = [r for r in doc["results"] if r["primitive"] == "sha256" and r["family"] == "hash"]
    fit = stats.fit_overhead([r["size"] for r in rs], [r["median_ns"] for r in rs])
    section = text[text.index('id="fits"') :]
    assert f'data-order="{float(fit.per_call_ns):.9g}"' in section
    assert f'data-order="{float(fit.per_byte_ns):.9g}"' in section


def test_tables_carry_every_number_status_and_path(two_runs):
    row = re.search(r"<tr class=\"cb-ok\">(.*?)(?=<tr|</tbody>)", two_runs).group(1)
    cells = re.findall(r"<td[^>]*>([^<]*)", row)
    assert cells[:9] == ["0a1b2c3d on Fake CPU 3000", "go/stdlib", "1.0", "fake 1"] + [
        "sha256",
        "digest",
        "",
        "64",
        "ok",
    ]
    assert cells[12].startswith("±") and cells[18] == "yes" and cells[19] == "SHA-NI"
    assert cells[20] == "recommended"
    headings = "median (ns/op)|CI low (ns)|CI high (ns)|precision|MB/s|ms/op|cycles/byte"
    for heading in (headings + "|verified|code path|security status|flags").split("|"):
        assert f">{heading}</th>" in two_runs
    assert 'id="table-machines"' in two_runs and "Other CPU 9000" in two_runs
    # docs/methodology.md rendered (tests/test_one_source.py checks it word for word)
    assert 'id="methodology"' in two_runs and "<h3>The interval over rounds</h3>" in two_runs


def test_hostile_strings_are_text(hostile):
    for evil in (HOSTILE, SCRIPT_BREAK, "<img", "</script><script>"):
        assert evil not in hostile
    assert "&lt;img src=x onerror=window.__pwned=1&gt;" in hostile
    tags = parse(hostile)
    assert not [t for t, _ in tags.tags if t == "img"]
    assert not [a for _, a in tags.tags if any(k.startswith("on") for k in a)]
    data = chart_data(hostile)  # the JSON block parsed whole: nothing broke out of it
    names = {t["name"] for c in data["charts"] for t in c["data"]}
    assert "go/&lt;img src=x onerror=window.__pwned=1&gt;" in names


def test_busy_machine_is_flagged():
    doc = make_doc()
    doc["machine"].update(load_avg_start=7.0, load_avg_end=9.5, cores=2)
    assert "busy machine: load average 7.0–9.5 on 2 cores" in html_report.render(doc)


def test_a_machine_slower_than_it_has_been_is_flagged_busy():
    doc = make_doc()
    doc["run"]["probes"] = [{"round": 1, "median_ns": 1900.0}, {"round": 2, "median_ns": 1950.0}]
    fastest = {"ns": 800.0, "run": "0123456789abcdef", "started": "2026-12-02T04:03:00+00:00"}
    doc["run"]["measuring"] = {"fastest_probe": fastest}
    said = "busy machine: the drift probe 2.41x as long as in this machine&#x27;s fastest"
    assert said in html_report.render(doc)
    doc["run"]["probes"][1]["median_ns"] = 2900.0  # and 1.53x from one round to another
    assert "the drift probe 1.53x as long in one round as in another; the drift probe 2.93x" in (
        html_report.render(doc).replace("&#x27;", "'")
    )


# -- the commands ------------------------------------------------------------------------


def write(tmp_path, name, doc):
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return str(path)


def test_cli_report_from_files(tmp_path, run_cli):
    a = write(tmp_path, "a.json", make_doc())
    b = write(tmp_path, "b.json", make_doc(run_id=ID_B, seed=3))
    out = tmp_path / "report.html"
    proc = no_traceback(run_cli("report", a, b, "--html", str(out)))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == str(out.resolve())
    assert len(chart_data(out.read_text())["charts"]) == 2
    assert len(explore_records(out.read_text())) == 2 * 2 * (2 * 3 + 2)
    assert not (tmp_path / "results.sqlite").exists()  # files only: the store is not opened


def test_cli_report_errors_are_one_line(tmp_path, run_cli):
    out = str(tmp_path / "r.html")
    proc = no_traceback(run_cli("report", str(tmp_path / "nope.json"), "--html", out))
    assert proc.returncode == 1 and "cannot read" in proc.stderr and proc.stderr.count("\n") == 1
    proc = no_traceback(run_cli("report", "last", "--html", out))
    assert proc.returncode == 2 and "no store at" in proc.stderr  # nothing stored yet
    a = write(tmp_path, "a.json", make_doc())
    proc = no_traceback(run_cli("report", a, "--html", str(tmp_path / "no" / "dir.html")))
    assert proc.returncode == 1 and "cannot write" in proc.stderr


def test_cli_report_of_the_last_stored_run(fakes, run_cli, tmp_path):
    fakes("fixed")
    args = ["run", "--primitive", "sha256", "--size", "64", "--size", "1024"]
    assert no_traceback(run_cli(*args, "--time-per-case", "0.05")).returncode == 0
    out = tmp_path / "last.html"
    proc = no_traceback(run_cli("report", "--html", str(out)))
    assert proc.returncode == 0, proc.stderr
    recs = explore_records(out.read_text())
    assert [(x["impl"], x["size"]) for x in recs] == [
        ("fake-fixed/fakelib", 64),
        ("fake-fixed/fakelib", 1024),
    ]
    assert [x["ns"] for x in recs] == pytest.approx([1000.0, 1000.0])  # 1000 ns per op


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "invalid JSON: Expecting property name enclosed in double quotes at line 1"),
        ('{"schema": "other/v9"}', "not a valid cryptobench results file"),
        (b"\xff\xfe", "not UTF-8 text"),
    ],
)
def test_cli_import_rejects_bad_files_in_one_line(tmp_path, run_cli, content, message):
    path = tmp_path / "bad.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    proc = no_traceback(run_cli("import", str(path)))
    assert proc.returncode == 1 and message in proc.stderr
    assert proc.stderr.count("\n") == 1


def test_cli_import_names_the_invalid_field(tmp_path, run_cli):
    doc = make_doc()
    doc["results"][3]["size"] = "big"
    proc = no_traceback(run_cli("import", write(tmp_path, "x.json", doc)))
    assert proc.returncode == 1
    assert "at results/3/size: 'big' is not of type 'integer'" in proc.stderr


def test_cli_import_export_round_trip(tmp_path, run_cli):
    doc = make_doc()
    path = write(tmp_path, "a.json", doc)
    proc = no_traceback(run_cli("import", path))
    assert proc.returncode == 0 and proc.stdout.strip() == doc["run"]["id"]
    again = no_traceback(run_cli("import", path))
    assert again.returncode == 0 and "imported 0 runs (0 cases)" in again.stderr
    assert "1 already there" in again.stderr and again.stdout == ""
    proc = no_traceback(run_cli("export", "0a1b", "--format", "json"))
    assert proc.returncode == 0
    assert json.loads(proc.stdout) == doc
    out = tmp_path / "exported.json"
    assert no_traceback(run_cli("export", "last", "--output", str(out))).returncode == 0
    assert json.loads(out.read_text()) == doc
    proc = no_traceback(run_cli("export", "ffff"))
    assert proc.returncode == 2 and "matches no run" in proc.stderr
