"""The store's schema as numbered SQL steps, the same text for SQLite and PostgreSQL.

A store records the step it has reached (SQLite: ``PRAGMA user_version``; PostgreSQL: the
``cryptobench_schema`` table) and applies the later ones, in one transaction, when it is opened.
A step is never edited once released: a store written by this version stays readable by the
next. See docs/results.md ("Schema versions") for why this is not a migration tool.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass


def columns(run: dict) -> tuple:
    """The indexed columns a run document fills: its name and machine (for filters), and the
    process writing it (for liveness)."""
    m = run.get("machine") or {}
    proc = run.get("process") or {}
    label = m.get("label") or m.get("hostname")
    return (run.get("name"), m.get("machine_id"), label, proc.get("host"), proc.get("pid"))


def _backfill_v2(execute: Callable) -> None:
    """Fill the v2 columns of runs stored before them (heartbeat: their last known time)."""
    for run_id, data in list(execute("SELECT id, data FROM runs")):
        run = json.loads(data)
        execute(
            "UPDATE runs SET name=?, machine_id=?, machine_label=?, hostname=?, pid=?,"
            " heartbeat=? WHERE id=?",
            (*columns(run), run.get("ended") or run.get("started"), run_id),
        )


@dataclass(frozen=True)
class Step:
    version: int
    statements: tuple[str, ...]
    backfill: Callable = lambda execute: None


STEPS = (
    Step(
        1,
        (
            "CREATE TABLE IF NOT EXISTS runs (id TEXT PRIMARY KEY, started TEXT NOT NULL,"
            " ended TEXT, status TEXT NOT NULL, data TEXT NOT NULL)",
            "CREATE TABLE IF NOT EXISTS cases (run_id TEXT NOT NULL REFERENCES runs(id),"
            " seq INTEGER NOT NULL, implementation TEXT NOT NULL, primitive TEXT NOT NULL,"
            " operation TEXT NOT NULL, size BIGINT NOT NULL, status TEXT NOT NULL,"
            " data TEXT NOT NULL, PRIMARY KEY (run_id, seq))",
        ),
    ),
    Step(
        2,
        (
            "ALTER TABLE runs ADD COLUMN name TEXT",
            "ALTER TABLE runs ADD COLUMN machine_id TEXT",
            "ALTER TABLE runs ADD COLUMN machine_label TEXT",
            "ALTER TABLE runs ADD COLUMN hostname TEXT",
            "ALTER TABLE runs ADD COLUMN pid BIGINT",
            "ALTER TABLE runs ADD COLUMN heartbeat TEXT",
            # a name is unique per machine (id and label); NULL names never collide
            "CREATE UNIQUE INDEX runs_machine_name ON runs (machine_id, machine_label, name)",
            "CREATE INDEX runs_started ON runs (started)",
            "CREATE INDEX runs_label ON runs (machine_label)",
        ),
        _backfill_v2,
    ),
)
VERSION = STEPS[-1].version


def steps_after(version: int) -> list[Step]:
    return [s for s in STEPS if s.version > version]
