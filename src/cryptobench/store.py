"""The store: one row per run, one per case, committed after each round of each case.

One interface (``RunStore``) over two back-ends with the same SQL and semantics: SQLite, the
embedded default (``SqliteStore``), and PostgreSQL for a team or a fleet (``store_pg``).
``open_store`` picks one from ``--db``: a ``postgresql://`` URL or a file path.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from . import liveness, store_schema
from .errors import DataError, UsageError

APPLICATION_ID = 0x43425231  # "CBR1": marks the file as a cryptobench database
SCHEMA_VERSION = store_schema.VERSION
URL_SCHEMES = ("postgresql://", "postgres://")


def is_url(ref) -> bool:
    return isinstance(ref, str) and ref.startswith(URL_SCHEMES)


def open_store(ref, create: bool = True) -> RunStore:
    """The store at ``ref`` (a path or a PostgreSQL URL). ``create=False`` (every read
    command): a store that does not exist is a usage error (exit 2), never created."""
    if is_url(ref):
        from .store_pg import PostgresStore  # psycopg: loaded only for a PostgreSQL store

        return PostgresStore(ref, create=create)
    return SqliteStore(Path(ref), create=create)


class RunStore:
    """What every back-end shares. Subclasses set ``self.db`` (a DB-API connection whose
    writes commit at once), ``self.where`` (for messages), ``_exec`` and ``_is_conflict``."""

    where: str

    def _exec(self, sql: str, args: tuple = ()):
        raise NotImplementedError

    def _is_conflict(self, exc: Exception) -> bool:
        raise NotImplementedError

    @property
    def path(self) -> str:  # what messages print: a file path or a URL without password
        return self.where

    # -- writing ---------------------------------------------------------------------------
    def begin_run(self, run: dict, heartbeat: str | None = None) -> None:
        """A new run row; ``heartbeat``: when its writer was last known alive (now)."""
        try:
            self._exec(
                "INSERT INTO runs (id, started, ended, status, data, name, machine_id,"
                " machine_label, hostname, pid, heartbeat) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (
                    run["id"],
                    run["started"],
                    run.get("ended"),
                    run["status"],
                    json.dumps(run),
                    *store_schema.columns(run),
                    heartbeat or liveness.now_iso(),
                ),
            )
        except Exception as exc:
            if self._is_conflict(exc) and run.get("name"):
                raise UsageError(
                    f"a run named {run['name']!r} already exists for machine "
                    f"{store_schema.columns(run)[2]!r} in {self.where}; choose another --name"
                ) from None
            raise

    def update_run(self, run: dict) -> None:
        self._exec(
            "UPDATE runs SET ended=?, status=?, data=?, heartbeat=? WHERE id=?",
            (run.get("ended"), run["status"], json.dumps(run), liveness.now_iso(), run["id"]),
        )

    def heartbeat(self, run_id: str) -> None:
        self._exec("UPDATE runs SET heartbeat=? WHERE id=?", (liveness.now_iso(), run_id))

    def put_case(self, run_id: str, seq: int, result: dict) -> None:
        """Store a case's row, replacing the one its earlier rounds left."""
        self._exec(
            "INSERT INTO cases (run_id, seq, implementation, primitive, operation,"
            " size, status, data) VALUES (?,?,?,?,?,?,?,?) ON CONFLICT (run_id, seq) DO UPDATE"
            " SET implementation=excluded.implementation, primitive=excluded.primitive,"
            " operation=excluded.operation, size=excluded.size, status=excluded.status,"
            " data=excluded.data",
            (
                run_id,
                seq,
                result["implementation"],
                result["primitive"],
                result["operation"],
                result["size"],
                result["status"],
                json.dumps(result),
            ),
        )

    def has_run(self, run_id: str) -> bool:
        return bool(self._exec("SELECT 1 FROM runs WHERE id=?", (run_id,)).fetchall())

    def import_run(self, run: dict, results: list[dict]) -> bool:
        """Add a run with its cases; False (nothing added) when its id is already here."""
        if self.has_run(run["id"]):
            return False
        self.begin_run(run, heartbeat=run.get("ended") or run["started"])
        for seq, result in enumerate(results):
            self.put_case(run["id"], seq, result)
        return True

    def name_taken(self, name: str, machine_id, label) -> bool:
        rows = self._exec(
            "SELECT 1 FROM runs WHERE name=? AND machine_id=? AND machine_label=?",
            (name, machine_id, label),
        ).fetchall()
        return bool(rows)

    # -- reading ---------------------------------------------------------------------------
    def _run_from_row(self, data, hostname, pid, heartbeat) -> dict:
        run = json.loads(data)
        run["status"], detail = liveness.status(run, hostname, pid, heartbeat)
        if detail:
            run["status_detail"] = detail
        return run

    def runs(self) -> list[dict]:
        rows = self._exec(
            "SELECT r.data, r.hostname, r.pid, r.heartbeat, COUNT(c.seq) FROM runs r"
            " LEFT JOIN cases c ON c.run_id = r.id"
            " GROUP BY r.id, r.data, r.hostname, r.pid, r.heartbeat, r.started"
            " ORDER BY r.started, r.id"
        ).fetchall()
        out = []
        for data, host, pid, beat, n in rows:
            run = self._run_from_row(data, host, pid, beat)
            run["n_cases"] = n
            out.append(run)
        return out

    def resolve(self, ref: str) -> str:
        """A run id from 'last', a run name (``NAME`` or ``NAME@MACHINE``) or a unique id
        prefix."""
        if ref == "last":
            rows = self._exec("SELECT id FROM runs ORDER BY started DESC, id DESC LIMIT 1")
            row = rows.fetchone()
            if not row:
                raise UsageError(f"no runs in {self.where}")
            return row[0]
        name, _, machine = ref.partition("@")
        named = self._exec(
            "SELECT id, machine_label FROM runs WHERE name=? ORDER BY started", (name,)
        ).fetchall()
        if machine:
            named = [r for r in named if r[1] == machine]
        if len(named) == 1:
            return named[0][0]
        if len(named) > 1:
            where = ", ".join(f"{name}@{r[1]}" for r in named)
            raise UsageError(f"run name {ref!r} is on several machines; say which: {where}")
        ids = [r[0] for r in self._exec("SELECT id FROM runs WHERE id LIKE ?", (ref + "%",))]
        if len(ids) != 1:
            known = [
                r[1] or r[0][:8] for r in self._exec("SELECT id, name FROM runs ORDER BY started")
            ]
            what = "matches no run" if not ids else "is ambiguous"
            raise UsageError(f"run {ref!r} {what}; known runs: {', '.join(known) or 'none'}")
        return ids[0]

    def load(self, ref: str) -> tuple[dict, list[dict]]:
        run_id = self.resolve(ref)
        row = self._exec(
            "SELECT data, hostname, pid, heartbeat FROM runs WHERE id=?", (run_id,)
        ).fetchone()
        cases = [
            json.loads(d)
            for (d,) in self._exec("SELECT data FROM cases WHERE run_id=? ORDER BY seq", (run_id,))
        ]
        return self._run_from_row(*row), cases

    def run_ids(self) -> list[str]:
        return [r[0] for r in self._exec("SELECT id FROM runs ORDER BY started, id")]

    def close(self) -> None:
        self.db.close()


class SqliteStore(RunStore):
    def __init__(self, path: Path, create: bool = True):
        self.where = str(path)
        self.file = Path(path)
        if not create and not self.file.exists():
            raise UsageError(
                f"no store at {self.file}: nothing has been stored there (give --db the "
                "path a run wrote to, or run `cryptobench run` first)"
            )
        try:
            if create:
                self.file.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.file, timeout=30)
            self._check()
        except sqlite3.DatabaseError as exc:
            raise DataError(f"{self.file}: not a usable cryptobench database ({exc})") from None
        except OSError as exc:
            raise DataError(f"{self.file}: cannot open the database ({exc.strerror})") from None

    def _check(self) -> None:
        app_id = self.db.execute("PRAGMA application_id").fetchone()[0]
        tables = {
            r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")
        }
        if app_id == 0 and not tables:
            self.db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            self.db.commit()
        elif app_id != APPLICATION_ID:
            raise DataError(
                f"{self.file} is an SQLite file of another application; choose another --db"
            )
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise DataError(f"{self.file}: written by a newer cryptobench (schema {version})")
        if version < SCHEMA_VERSION:
            self._migrate(version)

    def _migrate(self, version: int) -> None:
        """Apply every migration after ``version`` in one transaction (a crash leaves the
        file at the old version)."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            now = self.db.execute("PRAGMA user_version").fetchone()[0]  # another writer's?
            for step in store_schema.steps_after(now):
                for stmt in step.statements:
                    self.db.execute(stmt)
                step.backfill(self.db.execute)
            self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            self.db.commit()
        except BaseException:
            self.db.rollback()
            raise

    def _exec(self, sql: str, args: tuple = ()):
        try:
            cur = self.db.execute(sql, args)
            if self.db.in_transaction:
                self.db.commit()
            return cur
        except sqlite3.IntegrityError:
            self.db.rollback()
            raise
        except sqlite3.OperationalError as exc:
            raise DataError(f"{self.file}: cannot write ({exc})") from None

    def _is_conflict(self, exc: Exception) -> bool:
        return isinstance(exc, sqlite3.IntegrityError)


Store = SqliteStore  # the name callers used before there were two back-ends
