"""The PostgreSQL back-end of the store (psycopg 3): one server for a team or a fleet.

Same SQL and semantics as SQLite (store/sqlite.py): autocommit, so each case is committed as it is
written; every writer has its own connection and writes only its own run's rows, so several
machines write at once without locks of ours. Opening the store applies the schema steps under
a transaction-scoped advisory lock, so two machines starting at once migrate it once.
"""

from __future__ import annotations

import psycopg

from ..errors import DataError, UsageError
from . import schema as store_schema
from .redact import redact, remember
from .sql import RunStore

MIGRATION_LOCK = 0x43425231  # pg_advisory_xact_lock key: "CBR1"
CONNECT_TIMEOUT_S = 10


def _one_line(exc: Exception) -> str:
    return redact(" ".join(str(exc).split()))


class PostgresStore(RunStore):
    def __init__(self, url: str, create: bool = True):
        remember(url)  # its password is masked in every message from now on
        self.where = redact(url)
        self._url = url  # kept for the one reconnect after a dropped connection
        try:
            self.db = psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S)
        except psycopg.Error as exc:
            msg = _one_line(exc)
            if not create and "does not exist" in msg:
                raise UsageError(f"no store at {self.where}: {msg}") from None
            raise DataError(f"{self.where}: cannot connect ({msg})") from None
        try:
            self._check(create)
        except psycopg.Error as exc:
            self.db.close()
            raise DataError(
                f"{self.where}: not a usable cryptobench store ({_one_line(exc)})"
            ) from None

    def _check(self, create: bool) -> None:
        with self.db.transaction():
            self.db.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            ours = self.db.execute("SELECT to_regclass('cryptobench_schema')").fetchone()[0]
            if ours is None:
                if self.db.execute("SELECT to_regclass('runs')").fetchone()[0] is not None:
                    raise DataError(
                        f"{self.where} has a 'runs' table of another application; "
                        "choose another database"
                    )
                if not create:
                    raise UsageError(
                        f"no store at {self.where}: the database has no cryptobench tables "
                        "(run `cryptobench run --db URL` or `cryptobench import` first)"
                    )
                self.db.execute("CREATE TABLE cryptobench_schema (version INTEGER NOT NULL)")
                self.db.execute("INSERT INTO cryptobench_schema VALUES (0)")
            (version,) = self.db.execute("SELECT version FROM cryptobench_schema").fetchone()
            if version > store_schema.VERSION:
                raise DataError(f"{self.where}: written by a newer cryptobench (schema {version})")
            cur = self.db.cursor()
            for step in store_schema.steps_after(version):
                for stmt in step.statements:
                    cur.execute(stmt)
                step.backfill(lambda sql, args=(): cur.execute(sql.replace("?", "%s"), args))
            if version < store_schema.VERSION:
                cur.execute("UPDATE cryptobench_schema SET version=%s", (store_schema.VERSION,))

    def _exec(self, sql: str, args: tuple = ()):
        """One statement; a connection found dropped (server restarted, connection killed) is
        opened again once and the statement repeated (every write here is idempotent: an
        upsert or an update of the run's own row); if that fails too: StoreLost."""
        for attempt in (1, 2):
            try:
                return self.db.execute(sql.replace("?", "%s"), args)
            except psycopg.errors.UniqueViolation:
                raise
            except psycopg.Error as exc:
                if not self._dropped(exc):
                    raise DataError(f"{self.where}: {_one_line(exc)}") from None
                if attempt == 2 or not self._reconnect():
                    raise self.lost("server gone") from None
        raise AssertionError("unreachable")

    def _dropped(self, exc: Exception) -> bool:
        """The connection is gone: psycopg marked it so, or the error says it — no SQLSTATE (a
        client-side "connection socket closed": a terminated backend can close the socket
        before psycopg marks the connection broken), class 08 (connection exception) or
        57P01–57P03 (the server terminated it, is shutting down, cannot connect now)."""
        state = getattr(exc, "sqlstate", None)
        gone = isinstance(exc, psycopg.OperationalError) and (
            state is None or state.startswith("08") or state in ("57P01", "57P02", "57P03")
        )
        return self.db.closed or self.db.broken or gone

    def _reconnect(self) -> bool:
        try:
            self.db = psycopg.connect(self._url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S)
        except psycopg.Error:
            return False
        return True

    def _is_conflict(self, exc: Exception) -> bool:
        return isinstance(exc, psycopg.errors.UniqueViolation)
