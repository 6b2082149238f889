"""The store: one row per run, one per case, committed after each round of each case.

One interface (``RunStore``) over two back-ends with the same SQL and semantics: SQLite, the
embedded default (``SqliteStore``), and PostgreSQL for a team or a fleet (``store_pg``).
``open_store`` picks one from ``--db``: a ``postgresql://`` URL or a file path.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from ..errors import DataError, UsageError
from . import schema as store_schema
from .redact import redact
from .sql import RunStore

APPLICATION_ID = 0x43425231  # "CBR1": marks the file as a cryptobench database
SCHEMA_VERSION = store_schema.VERSION
URL_SCHEMES = ("postgresql://", "postgres://")


def is_url(ref) -> bool:
    return isinstance(ref, str) and ref.startswith(URL_SCHEMES)


def open_store(ref, create: bool = True) -> RunStore:
    """The store at ``ref`` (a path or a PostgreSQL URL). ``create=False`` (every read
    command): a store that does not exist is a usage error (exit 2), never created."""
    if is_url(ref):
        from .postgres import PostgresStore

        return PostgresStore(ref, create=create)
    if isinstance(ref, str) and "://" in ref:
        raise UsageError(
            f"--db {redact(ref)}: not a store; valid: a file path, or a URL starting with "
            + " or ".join(URL_SCHEMES)
        )
    return SqliteStore(Path(ref), create=create)


class SqliteStore(RunStore):
    def __init__(self, path: Path, create: bool = True):
        self.where = redact(str(path))
        self.file = Path(path)
        if not create and not self.file.exists():
            raise UsageError(
                f"no store at {self.where}: nothing has been stored there (give --db the "
                "path a run wrote to, or run `cryptobench run` first)"
            )
        try:
            if create:
                self.file.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.file, timeout=30)
            self._check()
            self._journal()  # after the check: never another application's file
        except sqlite3.DatabaseError as exc:
            raise DataError(
                f"{self.where}: not a usable cryptobench database ({exc}; if it is damaged, "
                f"`sqlite3 {self.where} .recover` may save what it can still read)"
            ) from None
        except OSError as exc:
            raise DataError(f"{self.where}: cannot open the database ({exc.strerror})") from None

    def _journal(self) -> None:
        """Write-ahead logging, synced at checkpoints (synchronous=NORMAL): a run commits
        after every round of every case, between two requests, and a rollback journal synced
        on each commit cost 0.77 ms a commit here against 0.026 ms (2026-12-02, 300 commits of a
        case-sized row, the median; a `default` run commits ~2 500 times). A killed process
        loses nothing committed; a power loss may lose the last commits, never the file. A
        store that cannot switch (read-only, a file system without shared memory) keeps its
        mode."""
        try:
            if self.db.execute("PRAGMA journal_mode=WAL").fetchone()[0].lower() == "wal":
                self.db.execute("PRAGMA synchronous=NORMAL")
        except sqlite3.OperationalError:
            pass

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
                f"{self.where} is an SQLite file of another application; choose another --db"
            )
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise DataError(f"{self.where}: written by a newer cryptobench (schema {version})")
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
            return _Rows(cur, self)
        except sqlite3.IntegrityError:
            self.db.rollback()
            raise
        except sqlite3.DatabaseError as exc:
            raise self.failure(exc) from None

    def failure(self, exc: sqlite3.DatabaseError) -> Exception:
        """What an SQLite error means for the user: a full disk (StoreLost: the run stops
        saying what it kept), a damaged file, or a write refused (both DataError)."""
        code = getattr(exc, "sqlite_errorcode", None)
        if code == sqlite3.SQLITE_FULL or (code == sqlite3.SQLITE_IOERR and _disk_full(self.file)):
            return self.lost("disk full")
        if isinstance(exc, sqlite3.OperationalError):
            return DataError(f"{self.where}: cannot write ({exc})")
        return DataError(
            f"{self.where}: the database is damaged ({exc}); `sqlite3 {self.where} .recover` "
            "may save what it can still read"
        )

    def _is_conflict(self, exc: Exception) -> bool:
        return isinstance(exc, sqlite3.IntegrityError)


Store = SqliteStore  # the name callers used before there were two back-ends


def _disk_full(path: Path) -> bool:
    try:
        return os.statvfs(path.parent).f_bavail == 0
    except OSError:
        return False


class _Rows:
    """A cursor whose rows, fetched as they are read, turn SQLite errors (a damaged page met
    half-way) into the store's one-line errors."""

    def __init__(self, cur: sqlite3.Cursor, store: SqliteStore):
        self.cur, self.store = cur, store

    def _guard(self, fetch):
        try:
            return fetch()
        except sqlite3.DatabaseError as exc:
            raise self.store.failure(exc) from None

    def fetchone(self):
        return self._guard(self.cur.fetchone)

    def fetchall(self):
        return self._guard(self.cur.fetchall)

    def __iter__(self):
        while (row := self.fetchone()) is not None:
            yield row
