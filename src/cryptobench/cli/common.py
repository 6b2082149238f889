"""What every command shares: the error console, the guard that turns known errors into one
line, loading runs or results files, and writing output."""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

import click

from ..errors import CryptobenchError, DataError
from ..paths import default_db


class _ErrConsole:
    """The stderr console, created on first use: rich is not imported by commands that
    never print through it (`--version`, `compute`)."""

    _console = None

    def get(self):
        if _ErrConsole._console is None:
            from rich.console import Console

            _ErrConsole._console = Console(stderr=True, highlight=False, soft_wrap=True)
        return _ErrConsole._console

    def __getattr__(self, name):
        return getattr(self.get(), name)


err = _ErrConsole()
# the formats other tools read: report.exports.EXPORTS (spelt out here so that a command's
# --help does not import the report stack; tests/test_exports.py checks the two agree)
EXPORT_FORMATS = ("gobench", "bmf", "github-action-benchmark", "pyperf", "gbench", "openmetrics")
FORMATS = ("table", "json", "csv", "markdown", *EXPORT_FORMATS)
SCHEMA_PATH = Path(__file__).parent.parent / "results" / "results.schema.json"
DB_HELP = "SQLite file or postgresql:// URL (default $CRYPTOBENCH_DB, else ~/.local/share/…)"


def db_option(fn):
    return click.option("--db", type=click.Path(dir_okay=False), default=None, help=DB_HELP)(fn)


def guarded(fn):
    """Known errors become one line and an exit code, never a traceback."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        from sqlite3 import DatabaseError

        from ..store.redact import redact

        try:
            return fn(*args, **kwargs)
        except CryptobenchError as exc:
            err.print(f"cryptobench: {redact(exc)}", markup=False)
            sys.exit(exc.exit_code)
        except DatabaseError as exc:  # the store names its file; this is the last resort
            err.print(f"cryptobench: the database is damaged or unreadable ({exc})", markup=False)
            sys.exit(1)

    return wrapper


NAME_CHARS = "letters, digits, '.', '_' and '-'"


def validate_name(ctx, param, value):
    """A run name: 1–64 of NAME_CHARS, not `last`, not all hex (an id prefix)."""
    import re

    if value is None:
        return value
    if (
        not re.fullmatch(r"[A-Za-z0-9._-]{1,64}", value)
        or value == "last"
        or re.fullmatch(r"[0-9a-f-]+", value)
    ):
        raise click.BadParameter(
            f"{value!r}: a name is 1–64 {NAME_CHARS}, not `last`, and not only hex digits "
            "(that reads as a run id)"
        )
    return value


def print_skips(skipped) -> None:
    for rid, why in skipped:
        err.print(f"skipped {rid}: {why}", markup=False)


@functools.cache
def _validator():
    import jsonschema  # only when a file is read: keeps every other command quick to start

    return jsonschema.Draft202012Validator(json.loads(SCHEMA_PATH.read_text()))


def _short(text: str, limit: int = 160) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def read_user_file(path: Path) -> str:
    """A results or store file's text: a regular file of at most MAX_RESULTS_BYTES (a device
    or a FIFO is refused at once, never read forever); DataError if not."""
    from ..paths import MAX_RESULTS_BYTES, NotReadable, read_text_limited

    try:
        return read_text_limited(path, MAX_RESULTS_BYTES)
    except OSError as exc:
        raise DataError(f"cannot read {path}: {exc.strerror}") from None
    except NotReadable as exc:
        raise DataError(f"{exc}: not a cryptobench results file") from None


def read_results_file(path: Path) -> dict:
    """A results document from a file, validated against the schema (DataError if not)."""
    text = read_user_file(path)
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(
            f"{path}: not a cryptobench results file (invalid JSON: {exc.msg} at line "
            f"{exc.lineno} column {exc.colno})"
        ) from None
    from jsonschema.exceptions import best_match

    from ..results import document as results

    error = best_match(_validator().iter_errors(doc))
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "the document"
        raise DataError(
            f"{path}: not a valid cryptobench results file (schema {results.SCHEMA}): "
            f"at {_short(where, 60)}: {_short(error.message)}"
        )
    return doc


def _is_file_ref(ref: str) -> bool:
    return ref.endswith(".json") or "/" in ref or Path(ref).is_file()


class Sources:
    """Resolves RUN or FILE.json arguments; opens the store only when a run id is given. A
    store that does not exist is an error (exit 2) unless ``create`` (import)."""

    def __init__(self, db: str | None, create: bool = False):
        self.db = db
        self.create = create
        self._store = None

    @property
    def store(self):
        from ..store.sqlite import open_store

        if self._store is None:
            self._store = open_store(self.db or default_db(), create=self.create)
        return self._store

    def load(self, ref: str, raw: bool = True, primitives: set[str] | None = None) -> dict:
        """A results document; ``raw=False``: without raw samples where the store can leave
        them out (RunStore.load); ``primitives``: only their cases where the store can filter
        (a file's are all read)."""
        if _is_file_ref(ref):
            from ..store.redact import redact

            doc = read_results_file(Path(ref))
            if doc["run"].get("command"):  # shown as a store would show it: masked
                doc["run"]["command"] = redact(doc["run"]["command"])
            return doc
        from ..results import document as results

        run, stored = self.store.load(ref, raw=raw, primitives=primitives)
        return results.document(run, stored)


def write(text: str, output: str | None) -> None:
    if not output:
        click.echo(text, nl=False)
        return
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CryptobenchError(f"cannot write {output}: {exc.strerror}") from None
    err.print(f"wrote {output}", markup=False)


def output(
    doc: dict, fmt: str, path: str | None, show_precision: bool, group_by: str = "family"
) -> None:
    """A results document in a format, on stdout or into ``path``: on a terminal, tables fit
    its width and are coloured unless NO_COLOR is set."""
    from .. import report
    from ..report import tty

    to_terminal = fmt == "table" and path is None
    text = report.render(
        fmt,
        doc,
        show_precision=show_precision,
        color=tty.color_wanted(to_terminal and sys.stdout.isatty()),
        width=tty.terminal_width() if to_terminal else None,
        group_by=group_by,
    )
    write(text, path)


def parse_exports(ctx, param, values) -> list[tuple[str, str]]:
    """``--export FORMAT=FILE`` (repeatable) → [(format, file)], checked before a run starts."""
    valid = [f for f in FORMATS if f != "table"]
    out = []
    for value in values:
        fmt, sep, path = value.partition("=")
        if not sep or not path or fmt not in valid:
            raise click.BadParameter(
                f"{value!r}: give FORMAT=FILE, FORMAT one of {', '.join(valid)}"
            )
        out.append((fmt, path))
    return out


def write_exports(doc: dict, exports: list[tuple[str, str]], show_precision: bool) -> None:
    for fmt, path in exports:
        output(doc, fmt, path, show_precision)
