"""Every store failure is one line that says what is kept (issue 33, item 5): a damaged SQLite
file, a full disk, a PostgreSQL server that goes away (one reconnect, then "server gone");
exit 1 whenever a case failed or lost a round; `compare` of a run with itself says so; an
ambiguous run prefix lists what it matches."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from cryptobench.store.sql import StoreLost
from cryptobench.store.sqlite import open_store

from .conftest import ROOT

FAST = ["--primitive", "sha256", "--size", "64", "--time-per-case", "0.05"]
SLOW = [
    "run", "--primitive", "sha256", "--size", "64", "--size", "128", "--size", "256",
    "--size", "512", "--size", "1024", "--time-per-case", "0.5", "--rounds", "2",
]  # fmt: skip


def _fixture() -> dict:
    return json.loads((ROOT / "tests" / "fixtures" / "advise-run.json").read_text())


def _imported(run_cli, tmp_path, doc: dict | None = None, name: str = "in.json") -> None:
    path = tmp_path / name
    path.write_text(json.dumps(doc or _fixture()))
    proc = run_cli("import", str(path))
    assert proc.returncode == 0, proc.stderr


def _damage(db: Path) -> None:
    """Overwrite every page but the first (the schema stays readable, the tables do not)."""
    size = db.stat().st_size
    with open(db, "r+b") as fh:
        fh.seek(4096)
        fh.write(b"\xa5" * (size - 4096))


def test_a_damaged_database_is_one_line_naming_the_file(run_cli, isolated, fakes):
    _imported(run_cli, isolated)
    db = isolated / "results.sqlite"
    _damage(db)
    fakes("ok")
    for args in (["show", "last"], ["runs"], ["export", "--all"], ["run", *FAST]):
        proc = run_cli(*args)
        assert proc.returncode == 1, (args, proc.stderr)
        assert "Traceback" not in proc.stderr, args
        assert str(db) in proc.stderr and "damaged" in proc.stderr, (args, proc.stderr)


def test_a_full_disk_is_store_lost_saying_disk_full(tmp_path):
    store = open_store(tmp_path / "s.sqlite")
    store.db.execute("PRAGMA max_page_count = 12")  # SQLite's own SQLITE_FULL, as a full disk
    run = {"id": "0" * 8 + "-full", "started": "2026-01-01T00:00:00+00:00", "status": "running"}
    run.update(command="cryptobench run", machine={}, name=None)
    store.begin_run(run)
    row = {"implementation": "x/y", "primitive": "sha256", "operation": "digest", "size": 1}
    row.update(status="ok", samples=["z" * 2000] * 4)
    with pytest.raises(StoreLost, match="disk full") as got:
        for seq in range(200):
            store.put_case(run["id"], seq, row)
    assert got.value.kept > 0 and f"{got.value.kept} cases kept" in str(got.value)


# -- exit codes and messages ---------------------------------------------------------------


def test_a_case_that_lost_a_round_exits_1(fakes, run_cli, isolated):
    fakes("late-crash", env={"FAKE_STARTS_FILE": str(isolated / "starts")})
    proc = run_cli("run", *FAST, "--rounds", "3", "--format", "json")
    assert proc.returncode == 1, proc.stderr
    row = next(r for r in json.loads(proc.stdout)["results"] if r["family"] != "noop")
    assert row["status"] == "ok" and len(row["rounds"]) == 1  # kept, but a round was lost


def test_compare_of_a_run_with_itself_says_so(run_cli, isolated):
    _imported(run_cli, isolated)
    proc = run_cli("compare", "last", "last")
    assert "the same run" in proc.stderr


def test_an_ambiguous_prefix_lists_what_it_matches(run_cli, isolated):
    for i, rid in enumerate(("8aaa", "8bbb", "8ccc", "9ddd", "7eee")):
        doc = _fixture()
        doc["run"]["id"] = rid + "0000-0000-4000-8000-000000000000"
        _imported(run_cli, isolated, doc, f"{i}.json")
    proc = run_cli("show", "8")
    assert proc.returncode == 2
    assert "8aaa0000" in proc.stderr and "8ccc0000" in proc.stderr
    assert "9ddd" not in proc.stderr and "7eee" not in proc.stderr


# -- a full disk and a server gone, in a real run ------------------------------------------


def _count(ref: str) -> int:
    if ref.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(ref, connect_timeout=3) as db:
            return db.execute("SELECT COUNT(*) FROM cases").fetchone()[0]
    with contextlib.closing(sqlite3.connect(ref, timeout=5)) as db:
        return db.execute("SELECT COUNT(*) FROM cases").fetchone()[0]


def _start_and_wait(db: str, n: int = 2) -> tuple[subprocess.Popen, int]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "cryptobench", *SLOW, "--db", db],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        with contextlib.suppress(Exception):
            got = _count(db)
            if got >= n:
                return proc, got
        time.sleep(0.05)
    proc.kill()
    raise AssertionError(f"no {n} cases stored: {proc.communicate()[1]}")


def _fill(folder: Path) -> None:
    """Fill ``folder``'s file system until it refuses another byte."""
    with open(folder / "filler", "wb", buffering=0) as fh, contextlib.suppress(OSError):
        while True:
            fh.write(b"\0" * 4096)


@contextlib.contextmanager
def _tmpfs(size: str = "1m"):
    base = Path(tempfile.mkdtemp(prefix="cb-full-"))
    ok = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(base)],
                        capture_output=True).returncode == 0  # fmt: skip
    try:
        if not ok:
            pytest.skip("cannot mount a small tmpfs here (needs root): bench/faults says so too")
        yield base
    finally:
        if ok:
            subprocess.run(["umount", str(base)], check=False)
        base.rmdir()


def test_a_disk_filling_up_mid_run_fails_it_keeping_every_case(fakes):
    fakes("slow")
    with _tmpfs() as fs:
        db = str(fs / "results.sqlite")
        proc, before = _start_and_wait(db)
        try:
            _fill(fs)
            _, err = proc.communicate(timeout=120)
        finally:
            proc.kill()
            proc.wait()
        kept = _count(db)
    assert proc.returncode == 1, err
    assert "failed: disk full" in err and f"{kept} cases kept" in err, err
    assert "Traceback" not in err and kept >= before


@pytest.fixture
def own_pg():
    """A PostgreSQL server of this test alone: it is stopped mid-run."""
    from .pgserver import Server, server_bin

    if server_bin() is None:
        pytest.skip("PostgreSQL server binaries absent")
    server = Server(server_bin()).start()
    yield server
    server.stop()


def test_a_dropped_connection_is_reconnected_once(own_pg):
    import psycopg

    url = own_pg.new_database()
    store = open_store(url)
    pid = store.db.info.backend_pid
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        gone = "SELECT count(*) FROM pg_stat_activity WHERE pid = %s"
        for _ in range(200):  # pg_terminate_backend only signals: wait until it has exited
            if admin.execute(gone, (pid,)).fetchone()[0] == 0:
                break
            time.sleep(0.05)
    assert store.run_ids() == []  # answered over a new connection
    assert store.db.info.backend_pid != pid


def test_a_server_gone_mid_run_keeps_every_case(own_pg, fakes):
    fakes("slow")
    url = own_pg.new_database()
    proc, before = _start_and_wait(url)
    own_pg.stop_server()
    _, err = proc.communicate(timeout=120)
    own_pg.start_server()
    kept = _count(url)
    assert proc.returncode == 1, err
    assert "server gone" in err and f"{kept} cases kept" in err, err
    assert "Traceback" not in err and kept >= before


def test_the_html_report_reads_a_run_without_its_raw_samples(run_cli, isolated):
    _imported(run_cli, isolated)
    store = open_store(isolated / "results.sqlite", create=False)
    run, lean = store.load("last", raw=False)
    _, full = store.load("last")
    assert any(r.get("samples") for r in full)
    assert not any("samples" in r or "warmup_samples" in r for r in lean)
    assert [r["median_ns"] for r in lean] == [r["median_ns"] for r in full]


def test_a_long_code_path_is_admitted_and_markup_in_it_is_not():
    from cryptobench.catalog import primitives
    from cryptobench.results import admit

    cat = primitives.load()
    doc = json.loads((Path(__file__).parent / "fixtures" / "report-run.json").read_text())
    row = next(r for r in doc["results"] if r["family"] != "noop")
    botan_like = "CPUID flags " + ", ".join(f"feature{i}" for i in range(40))  # > 300 chars
    assert len(botan_like) > 300
    assert admit.row_problem({**row, "code_path": botan_like}, cat) is None
    marked = admit.row_problem({**row, "code_path": botan_like + "<script>"}, cat)
    assert marked.startswith("code_path holds markup")
    assert admit.row_problem({**row, "code_path": "x" * 2001}, cat).startswith("code_path")
    assert admit.row_problem({**row, "library": "x" * 201}, cat).startswith("library")


def test_what_counts_as_a_dropped_connection():
    """The reconnect rule on fixed errors: a client-side socket error (no SQLSTATE) and the
    server's termination are a dropped connection; a cancelled query is not."""
    psycopg = pytest.importorskip("psycopg")
    from types import SimpleNamespace

    from cryptobench.store.postgres import PostgresStore

    store = PostgresStore.__new__(PostgresStore)
    store.db = SimpleNamespace(closed=False, broken=False)
    assert store._dropped(psycopg.OperationalError("connection socket closed"))
    assert store._dropped(psycopg.errors.AdminShutdown("terminating connection"))
    assert not store._dropped(psycopg.errors.QueryCanceled("canceling statement"))
    assert not store._dropped(psycopg.errors.UndefinedTable("no such table"))
    store.db = SimpleNamespace(closed=False, broken=True)
    assert store._dropped(psycopg.errors.UndefinedTable("no such table"))
