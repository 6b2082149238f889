"""Valgrind memcheck as a secret-taint checker (docs/methodology.md, "Secret taint"), beside
runtimes.valgrind (find, wrap; shared with --metric instructions). Pure helpers: the options,
and the reading of memcheck's XML output. Nothing here starts a process.

The runner marks the secret inputs undefined with memcheck's client request
(VALGRIND_MAKE_MEM_UNDEFINED), after writing ``MARK`` with VALGRIND_PRINTF; memcheck then
reports every conditional jump (``UninitCondition``) and every memory address or system-call
argument (``UninitValue``, ``SyscallParam``) computed from them: the errors after the mark are
the secret-dependent ones, as in ctgrind (A. Langley, 2010) and SUPERCOP's TIMECOP.

API:
- ``options(xml_path)`` → memcheck's options for one checked process;
- ``sites(xml_text)`` → the :class:`Site` list after the mark (one per kind and symbol);
- ``site_counts(xml_text)`` → {(kind, symbol): times it ran} for those sites;
- ``describe(sites)`` → "secret-dependent branch at SYMBOL; …" or "none found".
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

MARK = "cryptobench-taint-start"  # what the runner prints before it marks anything
KINDS = {
    "UninitCondition": "branch",
    "UninitValue": "memory index",
    "SyscallParam": "system call argument",
}


def options(xml_path: Path) -> list[str]:
    """Every error in XML (none hidden by a limit), short stacks, no leak report, no origin
    tracking (the origin is known: the marked inputs)."""
    return [
        "--xml=yes",
        f"--xml-file={xml_path}",
        "--error-limit=no",
        "--num-callers=8",
        "--leak-check=no",
        "--track-origins=no",
        "--trace-children=no",
    ]


@dataclass(frozen=True)
class Site:
    kind: str  # "branch", "memory index", "system call argument"
    symbol: str  # the innermost frame's function ("??" when unknown)
    obj: str  # its object file's name
    where: str  # "file:line" when known
    stack: tuple[str, ...] = field(default=(), compare=False)  # the frames' functions


def _frame(fr: ET.Element) -> tuple[str, str, str]:
    fn = fr.findtext("fn") or "??"
    obj = Path(fr.findtext("obj") or "").name
    line = fr.findtext("line")
    where = f"{fr.findtext('file')}:{line}" if fr.findtext("file") and line else ""
    return fn, obj, where


def _parse(xml_text: str) -> ET.Element:
    try:
        return ET.fromstring(xml_text)
    except ET.ParseError as exc:
        raise ValueError(f"memcheck XML: {exc}") from None


def _after_mark(root: ET.Element) -> list[tuple[Site, str]]:
    """Each error after the runner's mark as (its site, its ``unique`` id); ValueError when
    there is no mark."""
    out, marked = [], False
    for el in root:
        if el.tag == "clientmsg" and MARK in (el.findtext("text") or ""):
            marked = True
        if el.tag != "error" or not marked or el.findtext("kind") not in KINDS:
            continue
        frames = el.findall("stack/frame")
        fn, obj, where = _frame(frames[0]) if frames else ("??", "", "")
        site = Site(KINDS[el.findtext("kind")], fn, obj, where, tuple(_frame(f)[0] for f in frames))
        out.append((site, el.findtext("unique") or ""))
    if not marked:
        raise ValueError("the runner's mark is not in memcheck's output: nothing was tainted")
    return out


def sites(xml_text: str) -> list[Site]:
    """The secret-dependent sites: errors of memcheck's XML after the runner's mark, one per
    (kind, symbol), in order. ValueError when the XML cannot be read or has no mark."""
    out, seen = [], set()
    for site, _ in _after_mark(_parse(xml_text)):
        if (site.kind, site.symbol) not in seen:
            seen.add((site.kind, site.symbol))
            out.append(site)
    return out


def site_counts(xml_text: str) -> dict[tuple[str, str], int]:
    """How often each secret-dependent site ran: per (kind, symbol), the sum of memcheck's
    ``errorcounts`` over the errors after the mark (a branch in a loop counts once per
    iteration; memcheck reports each error once, and counts its repeats at exit)."""
    root = _parse(xml_text)
    counts = {
        p.findtext("unique"): int(p.findtext("count") or 0)
        for p in root.iterfind("errorcounts/pair")
    }
    out: dict[tuple[str, str], int] = {}
    for site, unique in _after_mark(root):
        key = (site.kind, site.symbol)
        out[key] = out.get(key, 0) + counts.get(unique, 1)
    return out


def name(s: Site) -> str:
    """The site's symbol; for code without symbols, its object and the first named caller."""
    if s.symbol != "??":
        return s.symbol
    caller = next((f for f in s.stack if f != "??"), None)
    return f"?? in {s.obj or 'unknown object'}" + (f" (called from {caller})" if caller else "")


def describe(found: list[Site]) -> str:
    """ "secret-dependent branch at SYMBOL; …", or "none found"."""
    if not found:
        return "none found"
    return "; ".join(f"secret-dependent {s.kind} at {name(s)}" for s in found)
