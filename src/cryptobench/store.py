"""SQLite store: one row per run, one per case, committed after each round of each case."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from .errors import DataError, UsageError

APPLICATION_ID = 0x43425231  # "CBR1": marks the file as a cryptobench database
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id TEXT PRIMARY KEY,
    started TEXT NOT NULL,
    ended TEXT,
    status TEXT NOT NULL,
    data TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS cases (
    run_id TEXT NOT NULL REFERENCES runs(id),
    seq INTEGER NOT NULL,
    implementation TEXT NOT NULL,
    primitive TEXT NOT NULL,
    operation TEXT NOT NULL,
    size INTEGER NOT NULL,
    status TEXT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
);
"""


class Store:
    def __init__(self, path: Path):
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path)
            self._check()
        except sqlite3.DatabaseError as exc:
            raise DataError(f"{self.path}: not a usable cryptobench database ({exc})") from None
        except OSError as exc:
            raise DataError(f"{self.path}: cannot open the database ({exc.strerror})") from None

    def _check(self) -> None:
        app_id = self.db.execute("PRAGMA application_id").fetchone()[0]
        tables = {
            r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")
        }
        if app_id == 0 and not tables:
            self.db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            self.db.executescript(_SCHEMA)
            self.db.commit()
            return
        if app_id != APPLICATION_ID:
            raise DataError(
                f"{self.path} is an SQLite file of another application; choose another --db"
            )
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise DataError(f"{self.path}: written by a newer cryptobench (schema {version})")

    def _write(self, sql: str, args: tuple) -> None:
        try:
            self.db.execute(sql, args)
            self.db.commit()
        except sqlite3.OperationalError as exc:
            raise DataError(f"{self.path}: cannot write ({exc})") from None

    # -- writing ---------------------------------------------------------------------------
    def begin_run(self, run: dict) -> None:
        self._write(
            "INSERT INTO runs (id, started, ended, status, data) VALUES (?,?,?,?,?)",
            (run["id"], run["started"], run.get("ended"), run["status"], json.dumps(run)),
        )

    def update_run(self, run: dict) -> None:
        self._write(
            "UPDATE runs SET ended=?, status=?, data=? WHERE id=?",
            (run.get("ended"), run["status"], json.dumps(run), run["id"]),
        )

    def put_case(self, run_id: str, seq: int, result: dict) -> None:
        """Store a case's row, replacing the one its earlier rounds left."""
        self._write(
            "INSERT OR REPLACE INTO cases (run_id, seq, implementation, primitive, operation,"
            " size, status, data) VALUES (?,?,?,?,?,?,?,?)",
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

    def import_run(self, run: dict, results: list[dict]) -> None:
        if self.db.execute("SELECT 1 FROM runs WHERE id=?", (run["id"],)).fetchone():
            raise UsageError(f"run {run['id']} is already in {self.path}")
        self.begin_run(run)
        for seq, result in enumerate(results):
            self.put_case(run["id"], seq, result)

    # -- reading ---------------------------------------------------------------------------
    def runs(self) -> list[dict]:
        rows = self.db.execute("SELECT data FROM runs ORDER BY started").fetchall()
        out = []
        for (data,) in rows:
            run = json.loads(data)
            run["n_cases"] = self.db.execute(
                "SELECT COUNT(*) FROM cases WHERE run_id=?", (run["id"],)
            ).fetchone()[0]
            out.append(run)
        return out

    def resolve(self, ref: str) -> str:
        """A run id from a unique prefix or 'last'."""
        if ref == "last":
            row = self.db.execute("SELECT id FROM runs ORDER BY started DESC LIMIT 1").fetchone()
            if not row:
                raise UsageError(f"no runs in {self.path}")
            return row[0]
        ids = [r[0] for r in self.db.execute("SELECT id FROM runs WHERE id LIKE ?", (ref + "%",))]
        if len(ids) != 1:
            known = [r[0][:8] for r in self.db.execute("SELECT id FROM runs ORDER BY started")]
            what = "matches no run" if not ids else "is ambiguous"
            raise UsageError(f"run {ref!r} {what}; known runs: {', '.join(known) or 'none'}")
        return ids[0]

    def load(self, ref: str) -> tuple[dict, list[dict]]:
        run_id = self.resolve(ref)
        (data,) = self.db.execute("SELECT data FROM runs WHERE id=?", (run_id,)).fetchone()
        cases = [
            json.loads(d)
            for (d,) in self.db.execute(
                "SELECT data FROM cases WHERE run_id=? ORDER BY seq", (run_id,)
            )
        ]
        return json.loads(data), cases

    def close(self) -> None:
        self.db.close()
