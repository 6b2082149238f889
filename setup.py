"""Build hook only (the metadata is in pyproject.toml): a wheel carries the data cryptobench
reads outside a checkout — catalog/, presets/, vectors/ and the runners' sources — under
cryptobench/_share/, where paths.project_root() finds them; `cryptobench setup` builds the
runners from there into the user's cache directory (docs/install.md). An editable install
(`make setup`) reads the checkout itself and gets no copy."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
# docs/methodology.md: the HTML report's Methodology section is its rendering
SHARED = ("catalog", "presets", "vectors", "runners", "docs/methodology.md")
# what `make setup` writes into runners/ (their .gitignore files), when git cannot list sources
BUILT = {"bin", "build", "target", "node_modules", "__pycache__", ".build.log"}


def source_files() -> list[Path]:
    """The shared folders' files as git sees them (tracked, or new and not ignored); without
    git (an sdist), every file that is not a build output."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z", *SHARED],
            cwd=ROOT,
            capture_output=True,
            check=True,
        ).stdout
        return [ROOT / p for p in out.decode().split("\0") if p and (ROOT / p).is_file()]
    except (OSError, subprocess.CalledProcessError):
        tops = [ROOT / d for d in SHARED]
        files = [p for t in tops for p in ([t] if t.is_file() else t.rglob("*")) if p.is_file()]
        return [p for p in files if not BUILT & set(p.relative_to(ROOT).parts)]


class BuildWithShare(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        share = Path(self.build_lib) / "cryptobench" / "_share"
        for path in source_files():
            target = share / path.relative_to(ROOT)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target)


setup(cmdclass={"build_py": BuildWithShare})
