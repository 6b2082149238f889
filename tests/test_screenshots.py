"""The pictures in README.md and docs/: every one referenced exists, is a small PNG, and is one
scripts/screenshots.py draws; and the script draws them all in a real browser (skipped, with
the reason, where Chromium or Playwright is missing; a failure in CI: conftest.STRICT_SUITES).
"""

from __future__ import annotations

import importlib.util
import re
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT

SCRIPT = ROOT / "scripts" / "screenshots.py"
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)|<img [^>]*src=\"([^\"]+)\"")
PNG = b"\x89PNG\r\n\x1a\n"


def _script():
    spec = importlib.util.spec_from_file_location("screenshots", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _referenced() -> dict[Path, list[str]]:
    """picture → the documents that show it (README.md and docs/*.md)."""
    found: dict[Path, list[str]] = {}
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for match in IMAGE.finditer(doc.read_text("utf-8")):
            target = match.group(1) or match.group(2)
            assert not target.startswith(("http:", "https:")), f"{doc.name}: {target} is remote"
            found.setdefault((doc.parent / target).resolve(), []).append(doc.name)
    return found


def _size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == PNG, f"{path} is not a PNG"
    return struct.unpack(">II", head[16:24])


def test_every_picture_shown_exists_is_small_and_is_drawn_by_the_script():
    shown = _referenced()
    assert any("README.md" in docs for docs in shown.values())
    assert any("reports.md" in docs for docs in shown.values())
    drawn = {(ROOT / "docs" / "img" / name).resolve() for name in _script().SHOTS}
    for path, docs in shown.items():
        assert path.is_file(), f"{docs} show {path}, which does not exist"
        assert path in drawn, f"{path.name} is not drawn by scripts/screenshots.py"
        width, height = _size(path)
        assert 0 < width <= 1400 and 0 < height <= 900
        assert path.stat().st_size <= _script().MAX_BYTES, f"{path.name} is over 200 kB"
    unused = drawn - set(shown)
    assert not unused, f"drawn but shown nowhere: {sorted(p.name for p in unused)}"


def test_script_draws_every_picture_in_a_browser(tmp_path):
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("/usr/bin/chromium missing (Debian package chromium)")
    pytest.importorskip("playwright.sync_api", reason="playwright not installed")
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr
    for name in _script().SHOTS:
        fresh, committed = tmp_path / name, ROOT / "docs" / "img" / name
        assert fresh.stat().st_size <= _script().MAX_BYTES
        # the same view at the same size (the pixels differ: the page says when it was made)
        assert _size(fresh) == _size(committed), name
