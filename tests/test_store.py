"""One store test-suite, run against SQLite and a real PostgreSQL server (tests/pgserver.py)."""

from __future__ import annotations

import datetime as dt
import sqlite3
import threading

import pytest

from cryptobench.errors import DataError, UsageError
from cryptobench.store import liveness
from cryptobench.store import schema as store_schema
from cryptobench.store.sqlite import SCHEMA_VERSION, open_store


@pytest.fixture(params=["sqlite", "postgresql"])
def ref(request, tmp_path):
    """Where a new store goes: a file, or a fresh database on the test server."""
    if request.param == "sqlite":
        return str(tmp_path / "store" / "r.sqlite")
    return request.getfixturevalue("pg_url")


def _run(run_id: str, name=None, label="box-a", host="elsewhere", pid=1, started="2026-01-01"):
    return {
        "id": run_id,
        "started": started,
        "status": "running",
        "name": name,
        "machine": {"machine_id": "m1", "label": label, "hostname": host, "cpu_model": "X"},
        "process": {"host": host, "pid": pid},
    }


def _case(impl: str, status: str = "ok", **extra) -> dict:
    return {
        "implementation": impl,
        "primitive": "sha256",
        "operation": "digest",
        "size": 64,
        "status": status,
        **extra,
    }


def test_cases_are_replaced_by_later_rounds_and_read_back(ref):
    store = open_store(ref)
    run = _run("0123456789abcdef")
    store.begin_run(run)
    store.put_case(run["id"], 0, _case("a/one", rounds=[1]))
    store.put_case(run["id"], 0, _case("a/one", rounds=[1, 2]))
    store.put_case(run["id"], 1, _case("a/two", "failed"))
    store.update_run({**run, "status": "complete", "ended": "2026-01-01T01"})
    got, cases = store.load("0123")
    assert got["status"] == "complete" and cases[0]["rounds"] == [1, 2]
    assert [c["status"] for c in cases] == ["ok", "failed"]
    assert store.resolve("last") == run["id"]
    assert [r["n_cases"] for r in store.runs()] == [2]
    with pytest.raises(UsageError, match="matches no run"):
        store.resolve("ffff")


def test_names_are_unique_per_machine_and_resolve(ref):
    store = open_store(ref)
    store.begin_run(_run("aaaa0001", name="baseline", label="box-a"))
    store.begin_run(_run("bbbb0001", name="baseline", label="box-b"))  # another machine: fine
    with pytest.raises(UsageError, match="already exists for machine 'box-a'"):
        store.begin_run(_run("cccc0001", name="baseline", label="box-a"))
    assert not store.has_run("cccc0001")
    assert store.resolve("baseline@box-b") == "bbbb0001"
    with pytest.raises(UsageError, match="baseline@box-a, baseline@box-b"):
        store.resolve("baseline")
    store.begin_run(_run("dddd0001", name="candidate"))
    assert store.resolve("candidate") == "dddd0001"


def test_a_machine_s_complete_runs_come_newest_first(ref):
    store = open_store(ref)
    for rid, started, status in (
        ("aaaa0002", "2026-01-01", "complete"),
        ("bbbb0002", "2026-01-03", "complete"),
        ("cccc0002", "2026-01-04", "interrupted"),
        ("dddd0002", "2026-01-05", "running"),
    ):
        store.begin_run({**_run(rid, started=started), "status": status})
    there = _run("eeee0002", started="2026-01-06")
    store.begin_run({**there, "status": "complete", "machine": {"machine_id": "m2"}})
    assert [r["id"] for r in store.complete_runs("m1")] == ["bbbb0002", "aaaa0002"]
    assert [r["id"] for r in store.complete_runs("m1", newest=1)] == ["bbbb0002"]
    assert store.complete_runs(None) == []


def test_import_is_idempotent(ref):
    store = open_store(ref)
    run = {**_run("eeee0001"), "status": "complete", "ended": "2026-01-01T02"}
    assert store.import_run(run, [_case("a/one"), _case("a/two")])
    assert not store.import_run(run, [_case("a/one"), _case("a/two")])
    assert [r["n_cases"] for r in store.runs()] == [2]


def test_a_missing_store_is_not_created_by_a_reader(ref, tmp_path):
    with pytest.raises(UsageError, match="no store at"):
        open_store(ref, create=False)
    if ref.startswith("postgresql"):
        import psycopg

        with psycopg.connect(ref) as conn:  # no table was created
            assert conn.execute("SELECT to_regclass('runs')").fetchone()[0] is None
        with pytest.raises(UsageError, match="no store at"):
            open_store(ref.rsplit("/", 1)[0] + "/no_such_db", create=False)
    else:
        assert not (tmp_path / "store").exists()
    open_store(ref).close()  # a writer creates it; then a reader opens it
    assert open_store(ref, create=False).runs() == []


def _make_v1(ref: str, run_json: str) -> None:
    """A store as cryptobench wrote it before schema step 2."""
    step1 = store_schema.STEPS[0].statements
    insert = "INSERT INTO runs (id, started, ended, status, data) VALUES (%s,%s,%s,%s,%s)"
    args = ("v1run000", "2025-01-01", None, "running", run_json)
    if ref.startswith("postgresql"):
        import psycopg

        with psycopg.connect(ref, autocommit=True) as conn:
            conn.execute("CREATE TABLE cryptobench_schema (version INTEGER NOT NULL)")
            conn.execute("INSERT INTO cryptobench_schema VALUES (1)")
            for stmt in step1:
                conn.execute(stmt)
            conn.execute(insert, args)
        return
    from pathlib import Path

    Path(ref).parent.mkdir(parents=True)
    db = sqlite3.connect(ref)
    db.execute("PRAGMA application_id = 1128419889")
    db.execute("PRAGMA user_version = 1")
    for stmt in step1:
        db.execute(stmt)
    db.execute(insert.replace("%s", "?"), args)
    db.commit()
    db.close()


def test_a_store_of_the_previous_schema_is_migrated_and_readable(ref):
    run_json = '{"id": "v1run000", "started": "2025-01-01", "status": "running", "machine": {}}'
    _make_v1(ref, run_json)
    store = open_store(ref, create=False)
    (run,) = store.runs()
    # an old run that never finished, with no heartbeat since it started: interrupted
    assert run["id"] == "v1run000" and run["status"] == "interrupted"
    store.begin_run(_run("ffff0002", name="new"))
    assert store.resolve("new") == "ffff0002"
    store.close()
    open_store(ref).close()  # opening again migrates nothing more


def test_a_newer_schema_is_refused(ref):
    open_store(ref).close()
    if ref.startswith("postgresql"):
        import psycopg

        with psycopg.connect(ref, autocommit=True) as conn:
            conn.execute("UPDATE cryptobench_schema SET version=99")
    else:
        db = sqlite3.connect(ref)
        db.execute("PRAGMA user_version = 99")
        db.commit()
        db.close()
    with pytest.raises(DataError, match="newer cryptobench"):
        open_store(ref)
    assert SCHEMA_VERSION < 99


def test_concurrent_writers_lose_and_mix_nothing(ref):
    open_store(ref).close()
    errors = []

    def writer(k: int) -> None:
        try:
            store = open_store(ref)  # each writer its own connection, as each machine has
            run = _run(f"{k:04d}-run", label=f"box-{k}")
            store.begin_run(run)
            for seq in range(25):
                store.put_case(run["id"], seq, _case(f"impl/{k}", size_tag=seq))
            store.update_run({**run, "status": "complete"})
            store.close()
        except Exception as exc:  # noqa: BLE001 (reported below)
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    store = open_store(ref)
    for k in range(4):
        run, cases = store.load(f"{k:04d}-run")
        assert run["status"] == "complete"
        assert [c["size_tag"] for c in cases] == list(range(25))
        assert {c["implementation"] for c in cases} == {f"impl/{k}"}


def test_a_running_run_whose_process_is_gone_reads_as_interrupted(ref):
    store = open_store(ref)
    dead = _run("dead0001", host=liveness.this_host(), pid=2**22 + 12345)
    store.begin_run(dead)
    store.begin_run(_run("away0001", host="other-host"))
    got = {r["id"]: r for r in store.runs()}
    assert got["dead0001"]["status"] == "interrupted"
    assert "is gone" in got["dead0001"]["status_detail"]
    assert got["away0001"]["status"] == "running"
    assert got["away0001"]["status_detail"] == "running on other-host"


def test_liveness_rules():
    now = dt.datetime(2026, 1, 1, 12, 0, tzinfo=dt.UTC)
    fresh = (now - dt.timedelta(seconds=60)).isoformat()
    stale = (now - dt.timedelta(seconds=liveness.LEASE_S + 1)).isoformat()
    running = {"status": "running"}
    me = liveness.this_host()
    import os

    assert liveness.status(running, me, os.getpid(), fresh, now) == ("running", None)
    assert liveness.status(running, "far", 1, fresh, now) == ("running", "running on far")
    assert liveness.status(running, "far", 1, stale, now)[0] == "interrupted"
    assert liveness.status(running, me, os.getpid(), stale, now)[0] == "interrupted"  # pid reuse
    assert liveness.status({"status": "complete"}, "far", 1, stale, now) == ("complete", None)


def test_an_sqlite_store_logs_ahead_and_leaves_other_files_alone(tmp_path):
    """WAL, synced at checkpoints (store/sqlite.py _journal): what one connection committed
    another reads at once, and the rows survive the writer's process being gone (its
    connection dropped unclosed); another application's SQLite file keeps its journal mode."""
    path = tmp_path / "r.sqlite"
    writer = open_store(str(path))
    assert writer.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert writer.db.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    writer.begin_run(_run("r1"))
    writer.put_case("r1", 0, _case("c/openssl"))
    reader = open_store(str(path), create=False)
    assert [c["implementation"] for c in reader.load("r1")[1]] == ["c/openssl"]
    del writer  # no close: as a killed run leaves it
    assert [c["implementation"] for c in open_store(str(path)).load("r1")[1]] == ["c/openssl"]

    other = tmp_path / "other.sqlite"
    db = sqlite3.connect(other)
    db.execute("PRAGMA application_id = 7")
    db.execute("CREATE TABLE t (x)")
    db.commit()
    db.close()
    with pytest.raises(DataError, match="another application"):
        open_store(str(other))
    db = sqlite3.connect(other)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    db.close()


def test_the_newest_runs_come_newest_first_without_counting_cases(ref):
    store = open_store(ref)
    for i, started in enumerate(["2026-01-01", "2026-01-03", "2026-01-02"]):
        store.begin_run(_run(f"{i}" * 16, started=started))
    store.put_case("1" * 16, 0, _case("a/one"))
    got = store.newest_runs(2)
    assert [r["id"] for r in got] == ["1" * 16, "2" * 16]
    assert "n_cases" not in got[0]
