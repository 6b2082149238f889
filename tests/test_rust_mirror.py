"""runners/rust/mirror.sh: the one copy of the Rust runner's sources every checkout builds from
(runners/rust/Makefile), rewritten only where its bytes differ so Cargo rebuilds only that."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

MIRROR = Path(__file__).resolve().parents[1] / "runners" / "rust" / "mirror.sh"


def _mirror(src: Path, dst: Path) -> None:
    subprocess.run(["sh", str(MIRROR), str(src), str(dst)], check=True)


def _tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def test_a_mirror_copies_the_sources_and_leaves_build_output_and_dotfiles_out(tmp_path):
    src, dst = tmp_path / "checkout", tmp_path / "cache" / "src"
    _tree(
        src,
        {
            "Cargo.toml": "[package]\n",
            "src/main.rs": "fn main() {}\n",
            "target/release/cryptobench-rust": "binary",
            ".build.log": "setup's log",
        },
    )
    _mirror(src, dst)
    got = sorted(str(p.relative_to(dst)) for p in dst.rglob("*") if p.is_file())
    assert got == ["Cargo.toml", "src/main.rs"]
    assert (dst / "src/main.rs").read_text() == "fn main() {}\n"


def test_only_a_changed_file_is_rewritten_and_a_removed_one_is_removed(tmp_path):
    src, dst = tmp_path / "checkout", tmp_path / "cache" / "src"
    _tree(src, {"Cargo.toml": "[package]\n", "src/a.rs": "a\n", "src/b.rs": "b\n"})
    _mirror(src, dst)
    old = 1_000_000_000
    for name in ("Cargo.toml", "src/a.rs", "src/b.rs"):
        os.utime(dst / name, (old, old))  # as a build long ago left them
    (src / "src/a.rs").write_text("a, changed\n")
    (src / "src/b.rs").unlink()
    os.utime(src / "Cargo.toml")  # a fresh clone: every file new, most of them unchanged
    _mirror(src, dst)
    assert (dst / "src/a.rs").read_text() == "a, changed\n"
    assert (dst / "src/a.rs").stat().st_mtime > old  # Cargo sees it changed
    assert (dst / "Cargo.toml").stat().st_mtime == old  # … and nothing else
    assert not (dst / "src/b.rs").exists()
