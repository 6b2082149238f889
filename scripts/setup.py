#!/usr/bin/env python3
"""Install and build everything cryptobench needs (`make setup`).

1. Debian packages: the union of every runners/*/runner.toml [setup] apt list and
   scripts/apt-core.txt, installed with apt-get when missing (as root; otherwise the
   command to run is printed).
2. The orchestrator's virtual environment at .venv, made by a pinned uv (UV; pip where uv
   cannot be had or fails) (pinned dependencies from pyproject.toml,
   plus each runner's requirements.txt for runners that run in it, every version, transitive
   ones included, held by requirements.lock); the test tools (pytest,
   ruff, playwright, pyperf, …: the `dev` extra) only with --test-tools. Beside it, web/'s
   `npm ci` (the HTML report's chart and table libraries).
3. Each runner's [setup] build command, in its folder. A runner that fails to build is
   reported with the tail of its log and skipped later; the others go on. The builds run at
   once, beside step 2 (none needs another's output or the virtual environment), with make
   given every core (MAKEFLAGS -jN, which cargo's jobserver client shares). A fresh clone's
   setup on 2 cores, 2026-11-28: 137 s one step after another (Rust 66 s of it, most of that
   AWS-LC's C build; C++ 37 s on one core), 94 s this way. Rust's compiled crates are cached
   per user (runners/rust/Makefile), built from one copy of its sources, and the Java jar
   and Node's node_modules are kept per user (runners/java/Makefile, runners/node/Makefile):
   a later clone of the same code builds none of them.
4. With --test-tools (`make test` only): the `dev` extra above, and the tools the tests feed
   exports to that are not Python packages: benchstat, built from the Go module proxy into
   .venv/bin. `make bench` installs none of them.

Uses only the standard library (Python >= 3.11 for tomllib).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import importlib.util
import os
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENV = ROOT / ".venv"
BUILD_TIMEOUT = 40 * 60
# make's own parallelism for every build (a MAKEFLAGS the user set is kept)
BUILD_ENV = {"MAKEFLAGS": f"-j{os.cpu_count() or 1}", **os.environ}
# The builds yield to the orchestrator's install beside them, the longer path to "done" (a fresh
# clone, 2026-12-02: the builds done at 25.6 s, .venv at 32.3 s; both cores busy throughout)
NICE = ["nice", "-n", "10"] if shutil.which("nice") else []
# Makes .venv and installs into it (from its own cache, linked; bytecode compiled on every core):
# a fresh clone's .venv in ~12 s instead of ~35 s (`python3 -m venv` 5.5 s, pip 29 s: one core
# unpacking ~300 MB and compiling 5 000 modules; 2026-12-02), what setup waited for last
UV = "uv==0.13.9"
# tests/test_exports.py: golang.org/x/perf has no tagged release; this is its pseudo-version
BENCHSTAT = "golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da"


def cache_dir() -> Path:
    """The package's own paths.cache_dir(), read from its file: paths.py uses only the standard
    library, and setup runs before the package is installed."""
    spec = importlib.util.spec_from_file_location("_cb_paths", ROOT / "src/cryptobench/paths.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.cache_dir()


def say(msg: str) -> None:
    print(f"[setup] {msg}", flush=True)


def runner_tomls() -> list[tuple[Path, dict]]:
    out = []
    for path in sorted((ROOT / "runners").glob("*/runner.toml")):
        try:
            with open(path, "rb") as fh:
                out.append((path.parent, tomllib.load(fh)))
        except tomllib.TOMLDecodeError as exc:
            say(f"{path}: invalid TOML, skipped ({exc})")
    return out


def installed(pkg: str) -> bool:
    res = subprocess.run(["dpkg-query", "-W", "-f=${Status}", pkg], capture_output=True, text=True)
    return res.returncode == 0 and "install ok installed" in res.stdout


def apt_install(packages: list[str]) -> None:
    if not shutil.which("dpkg-query") or not shutil.which("apt-get"):
        say("not a Debian system: install the equivalents of these yourself: " + " ".join(packages))
        return
    missing = [p for p in packages if not installed(p)]
    if not missing:
        say(f"Debian packages: all {len(packages)} present")
        return
    if os.geteuid() != 0:
        say("run as root, or install these first: sudo apt-get install -y " + " ".join(missing))
        return
    say(f"installing {len(missing)} Debian packages: {' '.join(missing)}")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    lock = ["-o", "DPkg::Lock::Timeout=600"]
    subprocess.run(["apt-get", *lock, "update", "-qq"], env=env, check=False)
    cmd = ["apt-get", *lock, "install", "-y", "-qq", "--no-install-recommends"]
    if subprocess.run([*cmd, *missing], env=env).returncode != 0:
        for pkg in missing:  # one unknown name must not block the rest
            if subprocess.run([*cmd, pkg], env=env, capture_output=True).returncode != 0:
                say(f"could not install {pkg}: runners needing it will be skipped")


def uv() -> str | None:
    """A pinned uv (UV) kept per user, installed with pip the first time; None where that fails
    (no network, no wheel for this machine): the virtual environment is then made with pip."""
    target = cache_dir() / f"uv-{UV.split('==')[1]}"
    exe = target / "bin" / "uv"
    if exe.exists():
        return str(exe)
    say(f"installing {UV} into {target} (it makes .venv)")
    pip = [sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    pip.append("--root-user-action=ignore")  # a --target install touches no system package
    tmp = target.with_name(target.name + f".{os.getpid()}")
    if subprocess.run([*pip, "--target", str(tmp), UV]).returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        say(f"{UV} could not be installed: .venv is made with pip")
        return None
    try:
        tmp.rename(target)
    except OSError:  # another setup put it there meanwhile
        shutil.rmtree(tmp, ignore_errors=True)
    return str(exe) if exe.exists() else None


def venv(extra_requirements: list[Path], dev: bool) -> None:
    orchestrator = ["-e", f"{ROOT}[dev]" if dev else str(ROOT)]
    both = [*orchestrator, *(a for r in extra_requirements for a in ("-r", str(r)))]
    names = ", ".join(str(r.relative_to(ROOT)) for r in extra_requirements)
    say(f"installing the orchestrator, its pinned dependencies and {names or 'no runner'}")
    if (exe := uv()) and uv_venv(exe, both):
        return
    if not (VENV / "bin" / "python").exists():
        say("creating .venv")
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    pip = [
        str(VENV / "bin" / "python"),
        "-m",
        "pip",
        "install",
        "-q",
        "--disable-pip-version-check",
        "-c",  # every package's version, transitive ones included
        str(ROOT / "requirements.lock"),
    ]
    # One pip for the orchestrator and the runners' libraries: one resolve, one start (a fresh
    # clone's setup, 2026-12-02: 2.9 s of its 32.9 s wall were the second pip's, beside the
    # builds). Where that fails, each on its own: the orchestrator must install, a runner's
    # library that does not only leaves those libraries out.
    if subprocess.run([*pip, *both]).returncode == 0:
        return
    say("one install failed: the orchestrator, then each requirements file on its own")
    subprocess.run([*pip, *orchestrator], check=True)
    for req in extra_requirements:
        say(f"installing {req.relative_to(ROOT)}")
        if subprocess.run([*pip, "-r", str(req)]).returncode != 0:
            say(f"{req.relative_to(ROOT)} failed: those libraries will be left out")


def uv_venv(exe: str, both: list[str]) -> bool:
    """.venv made and filled by uv: the same pinned versions (requirements.lock as constraints),
    pip seeded into it, every module compiled to bytecode as pip does, on every core. False
    where it failed: pip then does it all (one requirements file may be what failed)."""
    if not (VENV / "bin" / "python").exists():
        cmd = [exe, "venv", "-q", "--seed", "--python", sys.executable, str(VENV)]
        if subprocess.run(cmd).returncode != 0:
            shutil.rmtree(VENV, ignore_errors=True)
            return False
    cmd = [exe, "pip", "install", "-q", "--python", str(VENV / "bin" / "python")]
    cmd += ["--compile-bytecode", "-c", str(ROOT / "requirements.lock"), *both]
    if subprocess.run(cmd).returncode == 0:
        return True
    say("uv could not install everything: pip does, one requirements file at a time if need be")
    return False


def bytecode(folders: list[Path]) -> None:
    """The orchestrator's and the Python runner's modules compiled to bytecode, as pip
    compiles an installed package's (uv's --compile-bytecode: site-packages only, not an
    editable install's sources). Where PYTHONDONTWRITEBYTECODE is set (this project's
    development machines and CI) Python never writes a .pyc, so without this every command and
    every Python runner process compiled its modules again: on the Xeon VM, busy, 2026-12-03,
    `compute --impl c/openssl` 0.44 / 0.36 s without, 0.29 / 0.26 s with (bench/startup, A B A
    B), `--version` 0.15 / 0.13 against 0.12 / 0.10 s. A failure only leaves them uncompiled."""
    cmd = [str(VENV / "bin" / "python"), "-m", "compileall", "-q", "-j", "0"]
    if subprocess.run([*cmd, *map(str, folders)], stdout=subprocess.DEVNULL).returncode != 0:
        say("compiling bytecode failed: each command compiles its modules as it starts")


def web_assets() -> None:
    """The HTML report's chart and table libraries (web/package.json, pinned by its lock):
    without them reports fall back to the larger bundles the Python packages ship."""
    if not shutil.which("npm"):
        say("web/: npm not found; HTML reports will inline the larger fallback bundles")
        return
    say("installing web/ (the HTML report's plotly.js partial bundle and DataTables)")
    cmd = ["npm", "ci", "--no-audit", "--no-fund"]
    if subprocess.run(cmd, cwd=ROOT / "web", capture_output=True).returncode != 0:
        say("web/: npm ci failed; HTML reports will inline the larger fallback bundles")


def test_tools() -> bool:
    """benchstat into .venv/bin (pinned; `go install` checks it against the Go checksum
    database). False when Go is missing or the build failed: the export tests say so."""
    if not shutil.which("go"):
        say("benchstat: go not found; tests/test_exports.py cannot run its benchstat checks")
        return False
    say(f"building {BENCHSTAT} into .venv/bin")
    env = {**os.environ, "GOBIN": str(VENV / "bin")}
    res = subprocess.run(["go", "install", BENCHSTAT], env=env, capture_output=True, text=True)
    if res.returncode != 0:
        say("benchstat FAILED to build:\n    " + "\n    ".join(res.stderr.splitlines()[-10:]))
    return res.returncode == 0


def build(folder: Path, cmd: list[str]) -> bool:
    log = folder / ".build.log"
    say(f"building runners/{folder.name}: {' '.join(cmd)}")
    start = time.monotonic()
    with open(log, "w") as fh:
        try:
            res = subprocess.run(
                NICE + cmd,
                cwd=folder,
                stdout=fh,
                stderr=subprocess.STDOUT,
                timeout=BUILD_TIMEOUT,
                env=BUILD_ENV,
            )
            ok = res.returncode == 0
        except (OSError, subprocess.TimeoutExpired) as exc:
            fh.write(f"\n{exc}\n")
            ok = False
    took = time.monotonic() - start
    if ok:
        say(f"runners/{folder.name} built in {took:.0f} s")
    else:
        tail = log.read_text(errors="replace").splitlines()[-15:]
        say(
            f"runners/{folder.name} FAILED to build after {took:.0f} s (log: {log}); "
            "it will be skipped:\n    " + "\n    ".join(tail)
        )
    return ok


def build_runner(folder: Path, toml: dict, with_variants: bool) -> list[str]:
    """Builds one runner, then its variants where asked; the names that failed."""
    cmd = toml.get("setup", {}).get("build")
    tools = [t for t in toml.get("requires", []) if "/" not in t and not shutil.which(t)]
    if tools:
        say(f"runners/{folder.name}: {', '.join(tools)} not found; not built (skipped)")
        return []
    if cmd and not build(folder, cmd):
        return [folder.name]
    return [
        f"{folder.name}@{var['name']}"
        for var in (toml.get("variants", []) if with_variants else ())
        if var.get("build") and not build(folder, var["build"])
    ]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="Install and build everything cryptobench needs.")
    parser.add_argument(
        "--variants",
        action="store_true",
        help="also build the runners' on-request variants (e.g. rust@native); `make test` does",
    )
    parser.add_argument(
        "--test-tools",
        action="store_true",
        help="also install the test tools (the dev extra, benchstat); `make test` does",
    )
    args = parser.parse_args(argv)
    with_variants = args.variants
    runners = runner_tomls()
    core = [
        ln.strip()
        for ln in (ROOT / "scripts" / "apt-core.txt").read_text().splitlines()
        if ln.strip() and not ln.startswith("#")
    ]
    packages = sorted({*core, *(p for _, t in runners for p in t.get("setup", {}).get("apt", []))})
    apt_install(packages)
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(runners) + 2) as pool:
        python = pool.submit(venv, sorted(ROOT.glob("runners/*/requirements.txt")), args.test_tools)
        web = pool.submit(web_assets)
        builds = [pool.submit(build_runner, f, toml, with_variants) for f, toml in runners]
        python.result()
        compiled = pool.submit(
            bytecode, [ROOT / "src" / "cryptobench", ROOT / "runners" / "python"]
        )
        web.result()
        compiled.result()
        failed = [name for job in builds for name in job.result()]
    if args.test_tools and not test_tools():
        failed.append("benchstat")
    say(
        "done" + (f"; failed to build: {', '.join(failed)} (skipped at run time)" if failed else "")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
