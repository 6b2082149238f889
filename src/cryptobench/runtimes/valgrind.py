"""Valgrind plumbing shared by the instrumented measurements (docs/methodology.md,
"Instructions per operation"): find valgrind, wrap a runner's argv in a tool, and read what
callgrind wrote. Nothing here starts a runner (`version` and `dump` run valgrind tools).

API:
- ``find()`` → the valgrind executable's path, or None;
- ``version(path)`` → "valgrind-3.19.0" (or None);
- ``missing(callgrind_control=False)`` → None when valgrind (and callgrind_control, if
  asked) can be used, else the one-line reason;
- ``wrap(argv, tool, options)`` → ``[valgrind, --tool=TOOL, *options, *argv]``;
- ``callgrind_options(out_dir)`` → callgrind's options for a count per thread, written into
  ``out_dir`` (one file per thread at exit: ``callgrind.out.PID-TT``);
- ``read_thread_totals(out_dir, part=None)`` → {thread number: instructions} of the files
  there (``part``: only the files of that dump, ``callgrind.out.PID.PART-TT``);
- ``dump(pid)`` → asks a running callgrind to write its counts since the last dump (and
  start again from zero), through ``callgrind_control -d`` (vgdb: it works while the
  process is blocked reading its stdin);
- ``per_op(counts_n, counts_2n, n)`` → (instructions per operation, the thread counted).
"""

from __future__ import annotations

import functools
import re
import shutil
import subprocess
from pathlib import Path

OUT_NAME = "callgrind.out"
_THREAD = re.compile(r"^thread:\s*(\d+)\s*$", re.M)
_TOTALS = re.compile(r"^(?:totals|summary):\s*(\d+)", re.M)


def find() -> str | None:
    return shutil.which("valgrind")


@functools.cache
def version(path: str | None = None) -> str | None:
    path = path or find()
    if not path:
        return None
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() or None


def control() -> str | None:
    return shutil.which("callgrind_control")


def missing(callgrind_control: bool = False) -> str | None:
    """Why valgrind (and, if asked, callgrind_control) cannot be used here, or None."""
    if not find():
        return "valgrind not found (Debian package `valgrind`)"
    if callgrind_control and not control():
        return "callgrind_control not found (Debian package `valgrind`)"
    if not version():
        return "valgrind does not run here (`valgrind --version` failed)"
    return None


def wrap(argv: list[str], tool: str, options: list[str] = ()) -> list[str]:
    """A runner's argv run under valgrind's ``tool`` with ``options``."""
    path = find()
    if not path:
        raise FileNotFoundError("valgrind not found")
    return [path, f"--tool={tool}", *options, *argv]


def callgrind_options(out_dir: Path) -> list[str]:
    """Count instructions per thread (--separate-threads), no cache simulation, one dump at
    exit per thread; children (a shell, a JVM's helpers) are not followed."""
    return [
        "--separate-threads=yes",
        "--cache-sim=no",
        "--branch-sim=no",
        "--trace-children=no",
        f"--callgrind-out-file={out_dir}/{OUT_NAME}.%p",
    ]


def parse_dump(text: str) -> tuple[int, int]:
    """(thread number, instructions) of one callgrind dump file (its ``thread:`` line, 1 when
    absent, and its ``totals:`` line, else ``summary:``)."""
    thread = _THREAD.search(text)
    totals = _TOTALS.findall(text)
    if not totals:
        raise ValueError("no totals or summary line in the callgrind output")
    return (int(thread.group(1)) if thread else 1), int(totals[-1])


def dump(pid: int, timeout: float = 300.0) -> None:
    """Callgrind in process ``pid`` writes the counts since its last dump (one file per
    thread, the next part number) and starts from zero; raises OSError if it did not."""
    try:
        got = subprocess.run(
            [control() or "callgrind_control", "-d", str(pid)],
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        raise OSError(f"callgrind_control -d {pid} did not answer in {timeout:.0f} s") from None
    if got.returncode != 0 or "OK" not in got.stdout:
        raise OSError(f"callgrind_control -d {pid}: {(got.stdout + got.stderr).strip()[:200]}")


def read_thread_totals(out_dir: Path, part: int | None = None) -> dict[int, int]:
    """Every thread's instruction count in the callgrind files of ``out_dir`` (empty files,
    such as the process's own when threads are separated, are left out); with ``part``,
    only that dump's files."""
    counts: dict[int, int] = {}
    pattern = f"{OUT_NAME}.*.{part}-*" if part is not None else f"{OUT_NAME}.*"
    for f in sorted(Path(out_dir).glob(pattern)):
        text = f.read_text(errors="replace")
        if not text.strip():
            continue
        thread, total = parse_dump(text)
        counts[thread] = counts.get(thread, 0) + total
    return counts


def per_op(counts_n: dict[int, int], counts_2n: dict[int, int], n: int) -> tuple[float, int]:
    """Instructions per operation from the counts of two identical requests but for ``n``
    and ``2n`` iterations (each dumped on its own): in each, the thread that ran the timed
    loop is the busiest one (a runtime may serve two requests from two threads); the
    difference of the two, divided by ``n``. What both requests did alike (the request's
    parsing, the set-up, the untimed verified call, the answer) cancels out."""
    if n < 1:
        raise ValueError("n must be at least 1")
    if not counts_n or not counts_2n:
        raise ValueError("no instruction counts")
    t_n, thread = max(counts_n, key=counts_n.get), max(counts_2n, key=counts_2n.get)
    grew = counts_2n[thread] - counts_n[t_n]
    if grew <= 0:
        raise ValueError("the loop's thread ran no more instructions with twice the iterations")
    return grew / n, thread
