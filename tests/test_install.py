"""cryptobench installed from a wheel into a fresh venv, used from /tmp with the checkout out
of reach: `doctor` lists every runtime, and a run builds the runners it needs into the user's
cache from the package's data (docs/install.md).

The wheel is built for real (`pip wheel`, setup.py copying catalog, presets, vectors and the
runners' sources in) and installed with `--no-deps`; its dependencies are borrowed from this
checkout's .venv through a .pth path line (which adds only that directory, not the checkout's
editable install), so the test needs no index. Where `unshare -m` works (root), the checkout's
src/, runners/, catalog/, presets/, vectors/ and more are hidden under empty mounts in a mount
namespace of the test's own, so nothing can be read from them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from .conftest import ROOT

pytestmark = pytest.mark.slow
HIDDEN = ("src", "runners", "catalog", "presets", "vectors", "tests", "scripts", "web")
BUILT = ("bin", "build", "target", "node_modules", "__pycache__", ".build.log")  # setup.py's


def source_copy(dest: Path) -> Path:
    """What an sdist would hold, copied (so the build writes nothing into the checkout, and
    setup.py takes its no-git path): build outputs left out as runners/*/.gitignore does."""
    skip = shutil.ignore_patterns(*BUILT, "*.egg-info", "*.o", "*.ppu")
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(ROOT / name, dest / name)
    for name in ("src", "catalog", "presets", "vectors", "runners"):
        shutil.copytree(ROOT / name, dest / name, ignore=skip)
    (dest / "docs").mkdir()
    shutil.copy2(ROOT / "docs" / "methodology.md", dest / "docs" / "methodology.md")
    return dest


@pytest.fixture(scope="module")
def venv(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("install")
    src = source_copy(tmp_path_factory.mktemp("source"))
    wheel_cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp / "dist")]
    build = subprocess.run([*wheel_cmd, str(src)], capture_output=True, text=True, timeout=600)
    assert build.returncode == 0, build.stderr
    wheel = next((tmp / "dist").glob("cryptobench-*.whl"))
    subprocess.run([sys.executable, "-m", "venv", str(tmp / "venv")], check=True)
    py = str(tmp / "venv" / "bin" / "python")
    subprocess.run([py, "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)],
                   check=True, timeout=300)  # fmt: skip
    purelib = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    site = subprocess.run([py, "-c", purelib], capture_output=True, text=True, check=True)
    deps = Path(site.stdout.strip()) / "_cryptobench_deps.pth"
    deps.write_text(sysconfig.get_paths()["purelib"] + "\n")
    return tmp


def hidden_checkout() -> bool:
    if os.geteuid() != 0 or not shutil.which("unshare"):
        return False
    probe = subprocess.run(["unshare", "-m", "true"], capture_output=True)
    return probe.returncode == 0


def in_tmp(venv: Path, script: str) -> subprocess.CompletedProcess:
    """``script`` (sh) from /tmp, HOME and caches in the test's folder, the checkout hidden."""
    home = venv / "home"
    env = {
        "PATH": f"{venv / 'venv' / 'bin'}:{os.environ['PATH']}",
        "HOME": str(home),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "CRYPTOBENCH_LOCK": str(venv / "run.lock"),
    }
    if shutil.which("go"):  # the Go build cache `make setup` filled: a rebuild, not a cold one
        for var in ("GOCACHE", "GOMODCACHE", "GOPATH"):
            env[var] = subprocess.run(
                ["go", "env", var], capture_output=True, text=True
            ).stdout.strip()
    cmd = ["sh", "-c", script]
    if hidden_checkout():
        (venv / "empty").mkdir(exist_ok=True)
        mounts = "".join(f"mount --bind {venv / 'empty'} {ROOT / d} && " for d in HIDDEN)
        cmd = ["unshare", "-m", "sh", "-c", f"{mounts}{script}"]
    return subprocess.run(cmd, cwd="/tmp", env=env, capture_output=True, text=True, timeout=1200)


def test_doctor_lists_every_runtime_from_the_installed_package(venv):
    proc = in_tmp(venv, "cryptobench doctor")
    assert proc.returncode == 0, proc.stderr
    rows = {ln.split()[0]: ln for ln in proc.stdout.splitlines()}
    expected = {p.parent.name for p in (ROOT / "runners").glob("*/runner.toml")}
    assert set(rows) == expected
    assert f"{sys.version_info.major}.{sys.version_info.minor}" in rows["python"]
    assert "cryptobench setup python" in rows["python"] or "built" in rows["python"]


def test_a_run_from_tmp_builds_its_runners_into_the_user_cache(venv):
    runtimes = "--runtime python" + (" --runtime go" if shutil.which("go") else "")
    proc = in_tmp(
        venv,
        "cryptobench run " + runtimes + " --primitive sha256 --size 1KiB --time-per-case 0.05 "
        "--rounds 1 --format json && cryptobench setup python",
    )
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout[: proc.stdout.rindex("}") + 1])
    ok = {r["implementation"] for r in doc["results"] if r["status"] == "ok"}
    assert "python/hashlib" in ok
    cache = venv / "home" / ".cache" / "cryptobench" / "runners"
    assert (cache / "python" / "runner.py").exists()
    if shutil.which("go"):
        assert "go/stdlib" in ok and (cache / "go" / "bin" / "runner").exists()
    assert "python   ok: up to date" in proc.stdout


def test_the_report_methodology_ships_in_the_package(venv):
    """The HTML report's Methodology section renders docs/methodology.md (report/html/
    methodology.py): the wheel carries it where paths.project_root() looks."""
    found = list((venv / "venv").glob("lib/python*/site-packages/cryptobench/_share/docs/*.md"))
    assert [p.name for p in found] == ["methodology.md"]
    assert found[0].read_text() == (ROOT / "docs" / "methodology.md").read_text()
