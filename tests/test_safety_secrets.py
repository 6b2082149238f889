"""Secrets never stored or printed (issue 33, item 2): one mask for a database reference in every
form, and every output of every command that reads the store (each `--format` choice, found
from the commands themselves, so a format or export added later is covered) greps clean of
the password of a run made with it."""

from __future__ import annotations

import json
import sqlite3

import click
import pytest
from click.testing import CliRunner

from cryptobench.cli import main
from cryptobench.store import redact as redact_mod
from cryptobench.store.redact import command_line, redact

from .conftest import ROOT

PW = "S3cretPW-hunter2"
QPW = "Qry-Secret-77"
# how to call each command that reads the store; a new such command must be added here
ARGS = {
    "show": ["last"],
    "export": ["last"],
    "compare": ["last", "last"],
    "runs": [],
    "machines": [],
    "history": ["*:*"],
    "advise": ["--use", "checksum", "--size", "5000", "--no-measure"],
    "report": ["last"],
    "import": None,  # writes, prints only ids and a summary (tested below)
    "run": None,  # measures: its own output is checked by the PostgreSQL run below
    "calibrate": None,  # measure, then print as `show` does
    "leak": None,
}


@pytest.mark.parametrize(
    "text",
    [
        f"postgresql://alice:{PW}@db.example:5432/bench",
        f"postgres://alice:{PW}@db.example/bench?sslmode=require",
        f"postgresql://db.example/bench?user=alice&password={PW}&sslmode=require",
        f"postgresql://alice:{PW}@h/b?password={QPW}",
        f"host=db.example user=alice password={PW} dbname=bench",
        f"host=db.example password='{PW} with spaces' dbname=bench",
        f"sslpassword={PW}",
        f"PGPASSWORD={PW} cryptobench run --db postgresql://alice@h/b",
        f"cannot connect to postgresql://alice:{PW}@h/b: FATAL: no",
        "postgresql://alice:p%40ss%3AS3cretPW-hunter2@h/b",
    ],
)
def test_every_form_of_a_reference_is_masked(text):
    out = redact(text)
    assert PW not in out and QPW not in out and "***" in out


def test_a_reference_without_password_is_unchanged():
    for text in ("postgresql://alice@h:5432/b?sslmode=require", "/home/a/results.sqlite"):
        assert redact(text) == text


def test_a_password_opened_once_is_masked_in_any_later_message(monkeypatch):
    monkeypatch.setattr(redact_mod, "_known", set())
    redact_mod.remember(f"postgresql://h/b?password={PW}")
    assert PW not in redact(f'FATAL: invalid value "{PW}" for parameter')


def test_pgpassword_is_never_echoed(monkeypatch):
    monkeypatch.setenv("PGPASSWORD", PW)
    assert PW not in redact(f"the server said {PW}")


def test_a_command_line_is_masked_argument_by_argument():
    argv = ["cryptobench", "run", "--db", f"postgresql://a:{PW}@h/b?password={QPW}&x=1"]
    line = command_line(argv)
    assert PW not in line and QPW not in line and "x=1" in line


# -- every output of a store holding a run made with a password ----------------------------


def _store_commands() -> dict[str, click.Command]:
    ctx = click.Context(main)
    out = {}
    for name in main.list_commands(ctx):
        cmd = main.get_command(ctx, name)
        if any(p.name == "db" for p in cmd.params):
            out[name] = cmd
    return out


def _formats(cmd: click.Command) -> list[str | None]:
    for p in cmd.params:
        if "--format" in getattr(p, "opts", ()) and isinstance(p.type, click.Choice):
            return list(p.type.choices)
    return [None]


def _outputs(db: str, tmp_path) -> dict[str, str]:
    """What every store-reading command prints or writes, in every format it offers."""
    runner = CliRunner()
    got = {}
    commands = _store_commands()
    missing = sorted(set(commands) - set(ARGS))
    assert not missing, f"add how to call {missing} to ARGS: they read the store"
    for name, cmd in commands.items():
        if ARGS[name] is None:
            continue
        for fmt in _formats(cmd):
            args = [name, *ARGS[name], "--db", db]
            args += ["--format", fmt] if fmt else []
            out_file = tmp_path / f"{name}-{fmt}.out"
            if name == "report":
                args += ["--html", str(out_file)]
            elif any("--output" in getattr(p, "opts", ()) for p in cmd.params):
                args += ["--output", str(out_file)]
            res = runner.invoke(main, args, catch_exceptions=False)
            written = out_file.read_text() if out_file.exists() else ""
            got[f"{name} --format {fmt}"] = res.output + written
    return got


def _assert_clean(outputs: dict[str, str]) -> None:
    leaks = [k for k, text in outputs.items() if PW in text or QPW in text]
    assert not leaks, f"the password is printed by: {leaks}"
    assert len(outputs) >= 8  # runs, show × 4, export, compare × n, machines, history, report


def _fixture_with_password(isolated) -> dict:
    doc = json.loads((ROOT / "tests" / "fixtures" / "advise-run.json").read_text())
    doc["run"]["command"] = f"cryptobench run --db postgresql://alice:{PW}@h/b?password={QPW}"
    return doc


def test_an_imported_run_is_stored_and_shown_without_its_password(isolated, tmp_path):
    src = tmp_path / "with-password.json"
    src.write_text(json.dumps(_fixture_with_password(isolated)))
    db = str(tmp_path / "store.sqlite")
    res = CliRunner().invoke(main, ["import", str(src), "--db", db], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    raw = sqlite3.connect(db).execute("SELECT data FROM runs").fetchone()[0]
    assert PW not in raw and QPW not in raw
    _assert_clean(_outputs(db, tmp_path))


def test_a_store_written_before_the_mask_is_shown_without_its_password(isolated, tmp_path):
    src = tmp_path / "run.json"
    src.write_text(json.dumps(_fixture_with_password(isolated)))
    db = str(tmp_path / "old.sqlite")
    CliRunner().invoke(main, ["import", str(src), "--db", db], catch_exceptions=False)
    con = sqlite3.connect(db)
    (data,) = con.execute("SELECT data FROM runs").fetchone()
    run = json.loads(data)
    run["command"] = f"cryptobench run --db postgresql://alice:{PW}@h/b?password={QPW}"
    con.execute("UPDATE runs SET data=?", (json.dumps(run),))  # as an older version stored it
    con.commit()
    _assert_clean(_outputs(db, tmp_path))


def test_a_run_over_postgresql_with_a_password_never_shows_it(pg_url, fakes, run_cli, tmp_path):
    fakes("ok")
    # the test server trusts loopback: the password is accepted and ignored, as a real one
    # would be checked; both forms at once (userinfo and query)
    url = pg_url.replace("cryptobench@", f"cryptobench:{PW}@") + f"?password={QPW}"
    proc = run_cli(
        "run", "--primitive", "sha256", "--size", "64", "--time-per-case", "0.05",
        "--rounds", "1", "--db", url,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert PW not in proc.stdout + proc.stderr and QPW not in proc.stdout + proc.stderr
    import psycopg

    with psycopg.connect(pg_url) as con:
        (data,) = con.execute("SELECT data FROM runs").fetchone()
    assert PW not in data and QPW not in data and "***" in json.loads(data)["command"]
    _assert_clean(_outputs(url, tmp_path))


def test_a_connection_error_never_shows_the_password(run_cli):
    url = f"postgresql://alice:{PW}@127.0.0.1:1/b?password={QPW}&connect_timeout=2"
    proc = run_cli("runs", "--db", url)
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    assert PW not in proc.stderr and QPW not in proc.stderr
    assert "127.0.0.1" in proc.stderr
