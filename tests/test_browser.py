"""The HTML report in a real browser: Debian's headless Chromium driven by Playwright.

Never downloads a browser: it launches /usr/bin/chromium (installed by `make setup` from
scripts/apt-core.txt) and is skipped, with the reason, where that is missing. A screenshot is
kept in the test's tmp folder and copied to out/report-screenshot.png for people to look at.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cryptobench.report.html import page as html_report

from .conftest import ROOT
from .fakes.results_docs import (
    HOSTILE,
    IMPLS,
    POLYGLOT,
    SCRIPT_BREAK,
    hostile_doc,
    make_doc,
    polyglot_doc,
)

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ID_B = "0b1b2c3d-0000-4000-8000-000000000002"

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="/usr/bin/chromium missing (Debian package chromium)"
)


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright not installed")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


class Page:
    """A report opened in a fresh page, with every console message and dialog recorded."""

    def __init__(self, browser, path: Path):
        self.page = browser.new_page(viewport={"width": 1400, "height": 1000})
        self.messages: list[str] = []
        self.dialogs: list[str] = []
        self.page.on("console", lambda m: self.messages.append(f"{m.type}: {m.text}"))
        self.page.on("pageerror", lambda e: self.messages.append(f"pageerror: {e}"))
        self.page.on("dialog", self._dialog)
        self.page.goto(path.as_uri())
        self.page.wait_for_selector("body[data-tables]", timeout=30_000)

    def _dialog(self, dialog):
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def errors(self) -> list[str]:
        return [m for m in self.messages if m.startswith(("error", "pageerror", "warning"))]

    def js(self, script: str, arg=None):
        return self.page.evaluate(script, arg)


def open_report(browser, tmp_path: Path, docs, name: str) -> Page:
    path = tmp_path / name
    html_report.write(path, docs)
    return Page(browser, path)


SERIES = """() => [...document.querySelectorAll('.js-plotly-plot')].map(el => ({
    id: el.id,
    traces: el.data.map(t => [t.name, t.x.length]),
    drawn: el.querySelectorAll('.scatterlayer .point, .barlayer .point').length,
}))"""

BARS = """() => [...document.querySelectorAll('#cb-bars .js-plotly-plot')].map(el => ({
    id: el.id,
    title: el.layout.title.text,
    labels: el.layout.yaxis.categoryarray,
    traces: el.data.map(t => ({name: t.name, y: t.y, x: t.x, color: t.marker.color,
        plus: t.error_x.array, minus: t.error_x.arrayminus})),
    drawn: el.querySelectorAll('.barlayer .point').length,
    whiskers: el.querySelectorAll('.errorbar').length,
}))"""

SWEEPS = """() => [...document.querySelectorAll('#cb-sweeps .js-plotly-plot')].map(el => ({
    title: el.layout.title.text, names: el.data.map(t => t.name)}))"""

COLUMN = """([table, heading]) => {
    const t = document.getElementById(table);
    const i = [...t.tHead.rows[0].cells].findIndex(c => c.textContent === heading);
    return [...t.tBodies[0].rows].map(r => r.cells[i].getAttribute('data-order'));
}"""


def test_report_charts_tables_and_sorting(browser, tmp_path):
    slower = {("go/stdlib", "sha256"): 1.1}
    docs = [make_doc(), make_doc(run_id=ID_B, cpu="Other CPU 9000", seed=2, speed=slower)]
    page = open_report(browser, tmp_path, docs, "two-runs.html")
    assert page.errors() == [] and page.dialogs == []
    assert page.js("() => document.body.dataset.tables") == "ready"

    charts = [c for c in page.js(SERIES) if c["id"].startswith("cb-chart-")]
    assert [c["id"] for c in charts] == ["cb-chart-1", "cb-chart-2"]  # the fit charts
    assert [n for _, n in charts[0]["traces"]] == [1, 1, 1, 1] and charts[0]["drawn"] == 4
    a, b = "0a1b2c3d on Fake CPU 3000", "0b1b2c3d on Other CPU 9000"
    bars = page.js(BARS)
    sha = next(c for c in bars if c["title"].startswith("sha256 · digest"))
    # one bar per implementation and run, told apart by the run's label
    assert sorted(sha["labels"]) == sorted(f"{i} · {r}" for i in IMPLS for r in (a, b))

    column = ("table-hash", "median (ns/op)")
    before = [float(x) for x in page.js(COLUMN, column)]
    assert len(before) == 12 and before != sorted(before)  # as measured: by run, impl, size
    header = page.page.locator("#table-hash thead th", has_text="median (ns/op)")
    header.click()
    page.page.wait_for_selector("#table-hash thead th[aria-sort=ascending]")
    up = [float(x) for x in page.js(COLUMN, column)]
    assert up == sorted(before)
    header.click()
    page.page.wait_for_selector("#table-hash thead th[aria-sort=descending]")
    down = [float(x) for x in page.js(COLUMN, column)]
    assert down == sorted(up, reverse=True)

    search = page.page.locator("#table-hash").locator(
        "xpath=ancestor::div[contains(@class,'dt-container')]//input[@type='search']"
    )
    search.fill("rust/ring")
    shown = page.js(COLUMN, ("table-hash", "implementation"))
    assert len(shown) == 6
    page.page.locator("#table-hash tbody tr").first.wait_for()
    texts = page.page.locator("#table-hash tbody tr td:nth-child(2)").all_inner_texts()
    assert set(texts) == {"rust/ring"}
    search.fill("")

    shot = tmp_path / "report-screenshot.png"
    page.page.evaluate("() => window.scrollTo(0, 0)")
    page.page.screenshot(path=str(shot))
    (ROOT / "out").mkdir(exist_ok=True)
    shutil.copyfile(shot, ROOT / "out" / "report-screenshot.png")
    assert page.errors() == []


def test_hostile_names_render_as_text_and_run_nothing(browser, tmp_path):
    page = open_report(browser, tmp_path, hostile_doc(), "hostile.html")
    assert page.errors() == [] and page.dialogs == []
    assert page.js("() => window.__pwned") is None
    assert page.js("() => document.querySelectorAll('img').length") == 0
    text = page.js("() => document.body.innerText")
    assert HOSTILE in text and SCRIPT_BREAK in text  # shown, as text
    legend = page.js("() => document.querySelector('#cb-chart-1 .legend').textContent")  # fit
    assert f"go/{HOSTILE}" in legend
    fit = next(c for c in page.js(SERIES) if c["id"] == "cb-chart-1")
    assert fit["drawn"] == 2  # the JSON block survived the hostile names
    labels = [lbl for c in page.js(BARS) for lbl in c["labels"]]
    assert f"go/{HOSTILE}".replace("<", "&lt;").replace(">", "&gt;") in labels
    bars_text = page.js("() => document.querySelector('#cb-bars').textContent")
    assert f"go/{HOSTILE}" in bars_text  # drawn as text
    page.page.screenshot(path=str(tmp_path / "hostile.png"))

    # defence in depth: markup injected past the escaping still runs nothing (the CSP)
    page.js(
        "(html) => { document.body.insertAdjacentHTML('beforeend', html); }",
        '<img src=x onerror="window.__pwned=3"><div onclick="window.__pwned=4" id=evil>x</div>',
    )
    page.page.locator("#evil").click()
    page.page.wait_for_timeout(200)
    assert page.js("() => window.__pwned") is None
    assert page.dialogs == []


def _values(chart) -> dict:
    """label -> (value, whisker above, whisker below) over the chart's traces."""
    out = {}
    for t in chart["traces"]:
        for y, x, hi, lo in zip(t["y"], t["x"], t["plus"], t["minus"], strict=True):
            out[y] = (x, hi, lo, t["color"])
    return out


def _shot(page, name: str) -> Path:
    (ROOT / "out").mkdir(exist_ok=True)
    path = ROOT / "out" / name
    page.page.screenshot(path=str(path), full_page=False)
    print(f"screenshot: {path}")
    return path


def test_explore_views_size_selector_runtime_filter_and_sweep(browser, tmp_path):
    """The views that answer questions, on a run shaped like `default` on seven runtimes."""
    page = open_report(browser, tmp_path, [polyglot_doc()], "polyglot.html")
    size = (tmp_path / "polyglot.html").stat().st_size
    print(f"report size: {size} bytes")
    assert page.errors() == [] and page.dialogs == []
    colors = page.js(
        "() => JSON.parse(document.getElementById('cb-data').textContent).explore.colors"
    )

    # one bar chart per primitive at 1024 B, fastest on top, whiskers, colour by runtime
    assert page.js("() => document.body.dataset.view") == "primitive 1024"
    bars = page.js(BARS)
    titles = [c["title"].split(" <span")[0] for c in bars]
    assert titles == [
        "blake2b-512 · digest",
        "sha256 · digest",
        "crc32c · digest",
        "aes-128-gcm · seal · aad_len=0",
        "chacha20-poly1305 · seal · aad_len=0",
    ]
    for chart in bars:
        values = _values(chart)
        assert len(values) == len(POLYGLOT) and chart["drawn"] == len(POLYGLOT)
        shown = [values[lbl][0] for lbl in chart["labels"]]
        assert shown == sorted(shown, reverse=True)  # fastest first (drawn on top)
        assert all(hi > 0 and lo > 0 for _, hi, lo, _ in values.values())
        assert chart["whiskers"] == len(POLYGLOT)
        for label, (_, _, _, color) in values.items():
            assert color == colors[label.split("/")[0]]
        assert "at 1024 B" in chart["title"]
    gcm = _values(bars[3])
    # every AEAD row has a number; fresh-context figures are marked
    for impl, (_, reuses) in POLYGLOT.items():
        assert (impl if reuses else f"{impl} †") in gcm
    assert "fresh_context" not in " ".join(titles)
    _shot(page, "report-explore-primitive.png")

    # the size selector redraws every chart at that size
    page.page.select_option("#cb-size", "64")
    page.page.wait_for_selector("body[data-view='primitive 64']")
    at64 = page.js(BARS)
    assert all("at 64 B" in c["title"] for c in at64)
    assert _values(at64[1])["c/openssl"][0] < _values(bars[1])["c/openssl"][0]

    # the runtime filter
    page.page.locator("#cb-runtimes input[value='c']").uncheck()
    labels = [lbl for c in page.js(BARS) for lbl in c["labels"]]
    assert labels and not any(lbl.startswith("c/") for lbl in labels)
    page.page.locator("#cb-rt-all").click()

    # per runtime: in Python, which library?
    page.page.select_option("#cb-view", "runtime")
    runtime = page.js(BARS)
    python = [c for c in runtime if c["title"].startswith("python · ")]
    assert [c["title"].split(" <span")[0] for c in python] == [
        "python · hash · digest",
        "python · checksum · digest",
        "python · aead · seal · aad_len=0",
    ]
    assert sorted(python[2]["labels"]) == [
        "aes-128-gcm  cryptography",
        "aes-128-gcm  hashlib",
        "aes-128-gcm  pycryptodome †",
        "chacha20-poly1305  cryptography",
        "chacha20-poly1305  hashlib",
        "chacha20-poly1305  pycryptodome †",
    ]
    page.page.locator("#explore").scroll_into_view_if_needed()
    page.page.evaluate("() => document.querySelector('#cb-bars').scrollIntoView()")
    _shot(page, "report-explore-runtime.png")

    # the fastest implementation of each runtime, side by side
    page.page.select_option("#cb-view", "best")
    page.page.select_option("#cb-size", "1024")
    best = page.js(BARS)
    sha = next(c for c in best if c["title"].startswith("sha256"))
    assert sha["labels"][:2] == ["c (openssl)", "rust (ring)"]
    assert len(sha["labels"]) == len({impl.split("/")[0] for impl in POLYGLOT})
    page.page.evaluate("() => window.scrollTo(0, 0)")
    _shot(page, "report-explore-best.png")

    # the size sweep: the fastest of each runtime by default; clicking bars picks others
    sweeps = page.js(SWEEPS)
    assert len(sweeps) == 5 and all(len(s["names"]) == 7 for s in sweeps)
    page.page.select_option("#cb-view", "primitive")
    first = page.page.locator("#cb-bars-2 .barlayer .point").first  # sha256's bars
    first.scroll_into_view_if_needed()
    box = first.bounding_box()
    page.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.page.wait_for_function("() => document.body.dataset.sweeps !== undefined")
    picked = page.js(SWEEPS)
    assert picked and all(len(s["names"]) == 1 for s in picked)
    page.page.evaluate("() => document.querySelector('#explore h3').scrollIntoView()")
    _shot(page, "report-explore-sweep.png")
    assert page.errors() == [] and page.dialogs == []


MATRIX = """() => [...document.querySelectorAll('#machines-matrix table')].map(t => ({
    kind: t.className, prim: t.dataset.primitive, size: t.dataset.size,
    head: [...t.tHead.rows[0].cells].map(c => c.textContent),
    rows: [...t.tBodies[0].rows].map(r => [...r.cells].map(c => c.textContent)),
    fastest: [...t.querySelectorAll('td.cb-fastest')].length,
}))"""


def test_machine_matrix_from_two_stored_runs(browser, tmp_path, run_cli):
    """Two runs with different machine labels, stored and reported through the CLI."""
    import json

    hostile = "<img src=x onerror=alert(1)>"
    slower = {("go/stdlib", "sha256"): 1.5}
    docs = [make_doc(), make_doc(run_id=ID_B, seed=2, speed=slower)]
    for doc, label in zip(docs, ("c7i.large", hostile), strict=True):
        doc["machine"].update(label=label, hostname="h", machine_id=label[:4])
        path = tmp_path / f"{doc['run']['id']}.json"
        path.write_text(json.dumps(doc))
        assert run_cli("import", str(path)).returncode == 0
    out = tmp_path / "machines.html"
    proc = run_cli(
        "report",
        "--html",
        str(out),
        "--machines",
        f"c7i.large,{hostile}",
        "--normalise-to",
        "c7i.large",
    )
    assert proc.returncode == 0, proc.stderr
    bad = run_cli("report", "--html", str(out), "--machines", "nope")
    assert bad.returncode == 2 and "c7i.large" in bad.stderr and "no run of machine" in bad.stderr
    page = Page(browser, out)
    assert page.errors() == [] and page.dialogs == []
    tables = page.js(MATRIX)
    sha64 = [t for t in tables if t["prim"] == "sha256" and t["size"] == "64"]
    absolute, normalised = sha64
    assert absolute["kind"] == "cb-matrix" and normalised["kind"] == "cb-matrix-norm"
    assert absolute["head"] == ["implementation", "c7i.large", hostile, "fastest machine"]
    go = next(r for r in absolute["rows"] if r[0] == "go/stdlib")
    assert go[3] == "c7i.large" and go[1].endswith("MB/s")
    go_norm = next(r for r in normalised["rows"] if r[0] == "go/stdlib")
    assert go_norm[1] == "×1" and go_norm[2].startswith("×0.6")  # 1/1.5
    assert absolute["fastest"] >= 1
    assert len(tables) % 2 == 0 and page.js("() => document.querySelectorAll('img').length") == 0
