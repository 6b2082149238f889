"""`cryptobench doctor`: each runtime's toolchain found (with its version) or missing (with a
one-line install hint), and whether its runner is built. Only reads: it installs nothing."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from dataclasses import dataclass

from ..paths import installed, project_root
from .discovery import discover

# runtime → (version command, the minimum version the runner needs or None, install hint)
TOOLCHAINS: dict[str, tuple[list[str], str | None, str]] = {
    "c": (
        ["cc", "--version"],
        None,
        "apt install gcc make libssl-dev · dnf install gcc make "
        "openssl-devel · brew install openssl (more libraries: runners/c/runner.toml)",
    ),
    "cpp": (
        ["g++", "--version"],
        None,
        "apt install g++ libbotan-2-dev libcrypto++-dev "
        "nlohmann-json3-dev · dnf install gcc-c++ botan2-devel cryptopp-devel",
    ),
    "go": (
        ["go", "version"],
        "1.26",
        "https://go.dev/dl (Debian's golang-go is older) · dnf install golang · brew install go",
    ),
    "rust": (
        ["cargo", "--version"],
        "1.85",
        "https://rustup.rs (edition 2024) · dnf install cargo · brew install rust",
    ),
    "java": (
        ["java", "-version"],
        "17",
        "apt install openjdk-17-jdk-headless maven · "
        "dnf install java-17-openjdk-devel maven · brew install openjdk maven",
    ),
    "node": (
        ["node", "--version"],
        "20.19",
        "https://nodejs.org (Debian 12's nodejs is 18) · dnf install nodejs · brew install node",
    ),
    "php": (
        ["php", "--version"],
        None,
        "apt install php-cli · dnf install php-cli · brew install php",
    ),
    "pascal": (
        ["fpc", "-iV"],
        None,
        "apt install fp-compiler fp-units-fcl · dnf install fpc · brew install fpc",
    ),
    "python": ([sys.executable, "--version"], "3.11", "the interpreter cryptobench runs in"),
}


@dataclass(frozen=True)
class Check:
    runtime: str
    found: bool
    version: str  # the toolchain's, "" when missing
    too_old: bool
    runner: str  # "built", or why it cannot run yet
    hint: str


def _version(cmd: list[str]) -> str | None:
    if not shutil.which(cmd[0]):
        return None
    try:
        res = subprocess.run(cmd, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if res.returncode != 0:  # e.g. rustup's cargo with no default toolchain
        return None
    text = (res.stdout or res.stderr).strip()
    m = re.search(r"\d+\.\d+(\.\d+)?", text)
    return m[0] if m else (text.splitlines()[0] if text else "?")


def _older(version: str, minimum: str | None) -> bool:
    def key(v: str) -> tuple[int, ...]:
        return tuple(int(x) for x in re.findall(r"\d+", v)[:3])

    return bool(minimum) and bool(key(version)) and key(version) < key(minimum)


def runtimes() -> list[str]:
    """Every runtime cryptobench has a runner for (the checkout's or the package's)."""
    folder = project_root() / "runners"
    return sorted(p.parent.name for p in folder.glob("*/runner.toml"))


def checks() -> list[Check]:
    """One line per runtime (variants are the runtime's own business)."""
    found = {s.runtime_id: s for s in discover() if not s.variant}
    out = []
    for rid in runtimes():
        cmd, minimum, hint = TOOLCHAINS.get(rid, ([], None, ""))
        version = _version(cmd) if cmd else None
        spec = found.get(rid)
        setup = f"cryptobench setup {rid}" if installed() else "make setup"
        runner = (spec.skipped or "built") if spec else f"not set up (`{setup}`)"
        out.append(
            Check(
                runtime=rid,
                found=version is not None,
                version=version or "",
                too_old=version is not None and _older(version, minimum),
                runner=runner,
                hint=(f"needs ≥ {minimum}; " if minimum else "") + hint,
            )
        )
    return out


def render(items: list[Check]) -> str:
    lines = []
    for c in items:
        if not c.found:
            lines.append(f"{c.runtime:<8} {'missing':<10} install: {c.hint}")
        elif c.too_old:
            lines.append(f"{c.runtime:<8} {c.version:<10} too old: {c.hint}")
        else:
            runner = "runner built" if c.runner == "built" else f"runner {c.runner}"
            lines.append(f"{c.runtime:<8} {c.version:<10} {runner}")
    return "\n".join(lines) + "\n"
