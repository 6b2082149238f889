"""Shared fixtures: an isolated data directory, fake runners, and the CLI as a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cryptobench.runtimes.discovery import discover
from cryptobench.runtimes.protocol import RunnerProcess

ROOT = Path(__file__).resolve().parents[1]
SPECS = {s.runtime_id: s for s in discover()}  # every runner folder, built or not
FAKE = Path(__file__).resolve().parent / "fakes" / "fake_runner.py"


@pytest.fixture(autouse=True)
def isolated(tmp_path, monkeypatch):
    """Tests never touch the user's home: database, lock, data and cache dirs (the cache of
    verified answers) live in tmp_path."""
    monkeypatch.setenv("CRYPTOBENCH_DB", str(tmp_path / "results.sqlite"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("CRYPTOBENCH_LOCK", str(tmp_path / "run.lock"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("CRYPTOBENCH_RUNNERS", raising=False)
    # A CLI child writes to a pipe, so its tables are report.tty.DEFAULT_WIDTH wide -- unless
    # COLUMNS is inherited: GNU readline (imported for pytest's debugger) puts COLUMNS=80 into
    # the C environment, which an xdist worker then starts with in os.environ.
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("LINES", raising=False)
    return tmp_path


def make_fakes(root: Path, *modes: str, env: dict | None = None) -> Path:
    """A runners/ folder with one fake runtime per mode (runtime id fake-<mode>)."""
    for mode in modes:
        folder = root / "runners" / f"fake-{mode}"
        folder.mkdir(parents=True)
        env_toml = "".join(f'{k} = "{v}"\n' for k, v in (env or {}).items())
        (folder / "runner.toml").write_text(
            f'schema = 1\nruntime = "fake-{mode}"\nlanguage = "fake"\nstartup_timeout = 5\n'
            f'[run]\ncommand = ["{sys.executable}", "{FAKE}", "{mode}"]\n'
            f"[run.env]\n{env_toml}"
        )
    return root / "runners"


@pytest.fixture
def fakes(tmp_path, monkeypatch):
    def _make(*modes, env=None):
        path = make_fakes(tmp_path, *modes, env=env)
        monkeypatch.setenv("CRYPTOBENCH_RUNNERS", str(path))
        return path

    return _make


def cli(*args: str, timeout: float = 600, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run `cryptobench ARGS` as a user would; returns the completed process."""
    return subprocess.run(
        [sys.executable, "-m", "cryptobench", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
        cwd=ROOT,
    )


@pytest.fixture
def run_cli():
    return cli


# `cryptobench run` of one case every setup can measure, briefly: python's md5 at 64 B.
QUICK_RUN = (
    "run",
    "--runtime",
    "python",
    "--primitive",
    "md5",
    "--size",
    "64",
    "--time-per-case",
    "0.05",
)


# In CI (`CRYPTOBENCH_STRICT=1`, set by .ci/run) everything was set up by `make test` itself,
# so a conformance or browser test that skips (a runner not built, no Chromium) is a failure:
# a suite that cannot run must not pass silently. Only a test that does not apply to a runner
# (Pascal offers no AEAD) may skip, with a reason that starts with NOT_APPLICABLE.
STRICT_SUITES = (
    "test_conformance.py",
    "test_conformance_hostile.py",
    "test_browser.py",
    "test_screenshots.py",
    "test_exports.py",
    "test_instructions_valgrind.py",
)
NOT_APPLICABLE = "not applicable:"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    strict = os.environ.get("CRYPTOBENCH_STRICT") == "1"
    if strict and rep.skipped and Path(str(item.fspath)).name in STRICT_SUITES:
        reason = rep.longrepr[2] if isinstance(rep.longrepr, tuple) else str(rep.longrepr)
        if reason.removeprefix("Skipped: ").startswith(NOT_APPLICABLE):
            return
        rep.outcome = "failed"
        rep.longrepr = f"skipped in CI (CRYPTOBENCH_STRICT=1), which must run it: {reason}"


@pytest.fixture(scope="session")
def pg_server():
    """A real PostgreSQL server for the whole session (tests/pgserver.py)."""
    from .pgserver import Server, server_bin

    bindir = server_bin()
    if bindir is None:
        pytest.skip(
            "PostgreSQL server binaries (initdb, pg_ctl) absent: install Debian's `postgresql` "
            "(scripts/apt-core.txt)"
        )
    try:
        import psycopg  # noqa: F401
    except ImportError:
        pytest.skip("psycopg not installed (pip install -e .)")
    server = Server(bindir).start()
    yield server
    server.stop()


@pytest.fixture
def pg_url(pg_server):
    """The URL of a fresh, empty database on the test server."""
    return pg_server.new_database()


@pytest.fixture(scope="module", params=sorted(SPECS))
def runner(request):
    """A started runner of each runtime (skipped with the reason when it cannot run):
    (spec, process, hello), shared by the conformance suites."""
    spec = SPECS[request.param]
    if spec.skipped:
        pytest.skip(f"{spec.runtime_id}: {spec.skipped}")
    proc = RunnerProcess(spec.command, str(spec.folder), spec.env, spec.runtime_id)
    hello = proc.start(spec.startup_timeout)
    yield spec, proc, hello
    proc.close()


def load_script(path: Path, name: str):
    """The Python script at ``path`` (bench/ and scripts/ are no packages, some files have no
    .py ending) as module ``name``, registered in sys.modules (its dataclasses look it up)."""
    import importlib.machinery
    import importlib.util

    loader = importlib.machinery.SourceFileLoader(name, str(path))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(name, loader))
    sys.modules[name] = module
    loader.exec_module(module)
    return module


def built(runtime: str) -> bool:
    """Whether this runtime's runner is discovered and built here."""
    spec = next((s for s in discover() if s.runtime_id == runtime), None)
    return spec is not None and not spec.skipped


def compute_errors(runtime: str, impl: str, primitive: str, requests) -> list[str | None]:
    """The error kind (None: an answer) of each ``(operation, inputs)`` compute request sent
    to a fresh ``runtime`` runner process, in order."""
    import json

    spec = next(s for s in discover() if s.runtime_id == runtime)
    lines = "".join(
        json.dumps({"id": i, "op": "compute", "impl": impl, "primitive": primitive,
                    "operation": op, "inputs": inputs, "params": {}}) + "\n"
        for i, (op, inputs) in enumerate(requests, 1)
    )  # fmt: skip
    res = subprocess.run(
        spec.command, cwd=spec.folder, input=lines, capture_output=True, text=True,
        timeout=120, env={**os.environ, **spec.env},
    )  # fmt: skip
    answers = [json.loads(line) for line in res.stdout.splitlines() if line.strip()]
    answers = [a for a in answers if "error" in a or "result" in a or "output" in a]
    return [a.get("error", {}).get("kind") for a in answers]


class MemoryStore:
    """The run store's two calls `Rounds` makes, kept in memory (tests of the rounds loop)."""

    def __init__(self):
        self.rows = {}

    def put_case(self, run_id, seq, row):
        self.rows[seq] = row

    def update_run(self, run):
        pass
