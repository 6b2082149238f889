#!/usr/bin/env python3
"""The pictures in README.md and docs/reports.md: the HTML report of committed results
documents, drawn by a real browser (headless Chromium through Playwright), cropped to the view
each picture shows, written as PNG under docs/img/.

    .venv/bin/python scripts/screenshots.py [--out docs/img] [--run FILE.json] [--pubkey FILE.json]

--run (default tests/fixtures/report-run.json: a `default` preset run measured on this project's
shared 2-core development machine, kept to five primitives, its samples and per-round details
removed, numbers to 5 significant digits) gives the Explore view, the size sweep and the hash
family's cost chart; --pubkey (default tests/golden/pubkey-run.json, a synthetic fixture)
the public-key and TLS handshake sections. Uses /usr/bin/chromium where it exists (as
tests/test_browser.py), else Playwright's own Chromium. Exit 1 when a picture is missing from
the page or larger than MAX_BYTES. tests/test_screenshots.py runs it.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking"]
MAX_BYTES = 200_000
# picture -> (which document, CSS selector of the element shown, viewport width)
SHOTS = {
    "report-overview.png": ("run", "body", 1200),
    "report-size-sweep.png": ("run", "#cb-sweeps", 1200),
    "report-family-hash.png": ("run", "#family-hash .cb-charts", 1000),
    "report-tls-handshake.png": ("pubkey", "#tls-handshake", 1400),
}
MAX_HEIGHT = 900  # px of the element kept (from its top)
# the element's box in page coordinates (what a full-page clip takes), or null
BOX = """sel => { const el = document.querySelector(sel); if (!el) return null;
    const r = el.getBoundingClientRect();
    return {x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height}; }"""
# sticky header and controls would otherwise be drawn over the element
UNSTICK = """() => document.querySelectorAll('.cb-nav, .cb-controls')
    .forEach(el => { el.style.position = 'static'; })"""


def arguments(argv: list[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    ap.add_argument("--run", type=Path, default=ROOT / "tests" / "fixtures" / "report-run.json")
    ap.add_argument("--pubkey", type=Path, default=ROOT / "tests" / "golden" / "pubkey-run.json")
    return ap.parse_args(argv)


def reports(args: argparse.Namespace, folder: Path) -> dict[str, Path]:
    """Each document's HTML report, written into folder."""
    import json

    from cryptobench.report.html import page

    out = {}
    for name in ("run", "pubkey"):
        doc = json.loads(getattr(args, name).read_text("utf-8"))
        out[name] = page.write(folder / f"{name}.html", [doc])
    return out


def shoot(browser, html: Path, selector: str, width: int, target: Path) -> int:
    """One cropped screenshot of selector's element; returns the PNG's size in bytes. The
    element is scrolled to the top of the viewport and the clip taken there: a full-page
    screenshot resizes the viewport to the page's height, and every Plotly chart of the page
    redrew for it (2026-12-07: 36–46 s a picture on the 2-core VM, ~1 s without)."""
    page = browser.new_page(viewport={"width": width, "height": MAX_HEIGHT}, device_scale_factor=1)
    page.goto(html.as_uri())
    page.wait_for_selector("body[data-tables]", timeout=60_000)
    page.wait_for_timeout(500)  # plotly's transitions
    page.evaluate(UNSTICK)
    box = page.evaluate(BOX, selector)
    if box is None:
        page.close()
        raise SystemExit(f"screenshots: {selector} is not on {html.name}")
    top = page.evaluate("y => { scrollTo(0, y); return scrollY; }", box["y"])
    page.wait_for_timeout(200)  # charts drawn as they scroll into view
    # the element's box in the viewport, in whole pixels as a page clip is rounded, from its
    # top (the page may end before it reaches the viewport's top)
    y = round(box["y"] - top)
    clip = {"x": round(box["x"]), "y": y, "width": round(box["width"])}
    clip["height"] = min(round(box["height"]), MAX_HEIGHT - y)
    page.screenshot(path=str(target), clip=clip, timeout=180_000)
    page.close()
    return target.stat().st_size


def launch(pw):
    if CHROMIUM.exists():
        return pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
    return pw.chromium.launch(args=ARGS)


def main(argv: list[str] | None = None) -> int:
    args = arguments(sys.argv[1:] if argv is None else argv)
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    too_big = []
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        pages = reports(args, Path(tmp))
        browser = launch(pw)
        for name, (doc, selector, width) in SHOTS.items():
            size = shoot(browser, pages[doc], selector, width, args.out / name)
            print(f"{args.out / name}: {size / 1000:.0f} kB")
            too_big += [name] if size > MAX_BYTES else []
        browser.close()
    if too_big:
        print(f"screenshots: larger than {MAX_BYTES} bytes: {', '.join(too_big)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
