"""Verified answers kept between runs (docs/methodology.md, "Verification"): a case verified
once is not verified again until something that could change its answer changed.

An entry is keyed by everything that can: the case (implementation, primitive, operation,
the inputs sent, the parameters, the CPU features switched off), the implementation's
fingerprint (library and backend versions, the runner's build, its variant), the
fingerprints of every other implementation of the same primitive that the run can consult
(agreement's peers), the catalog and vector files, and the orchestrator's version. Only
passed verifications are kept: a failure is asked again every time. The file is
$XDG_CACHE_HOME/cryptobench/verified.sqlite; `--reverify` ignores it (and rewrites it)."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

from .. import __version__
from ..paths import cache_dir, project_root
from ..runtimes.msggen import Generated
from ..runtimes.session import Runtime

# What a build or an install writes into a runner's folder: never a source of its answers
BUILT = {"node_modules", "vendor", "target", "bin", "build", "__pycache__", ".venv", "obj"}
INPUT_CODE = ("inputs.py", "msggen.py")  # what derives a case's inputs from its seed


def _encode(value):
    if isinstance(value, Generated):
        return {"__generated__": [value.seed, value.length]}
    raise TypeError(f"cannot keep {type(value).__name__}")


def _decode(obj: dict):
    g = obj.get("__generated__")
    return Generated(g[0], g[1]) if g is not None and len(obj) == 1 else obj


def dumps(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=_encode)


def loads(text: str):
    return json.loads(text, object_hook=_decode)


def _files_digest(paths, root: Path) -> str:
    """The files' contents and their paths relative to ``root``: the same in every checkout."""
    h = hashlib.sha256()
    for p in sorted(paths):
        h.update(str(p.relative_to(root)).encode())
        h.update(p.read_bytes())
    return h.hexdigest()


def data_digest(root: Path | None = None) -> str:
    """The catalog, vector and orchestrator verification sources, as one digest."""
    root = root or project_root()
    files = [p for d in ("catalog", "vectors") for p in (root / d).rglob("*") if p.is_file()]
    here = Path(__file__).parent
    code = list(here.glob("*.py")) + [here.parent / "runtimes" / f for f in INPUT_CODE]
    digest = f"{_files_digest(files, root)}:{_files_digest(code, here.parent)}"
    return hashlib.sha256(f"{__version__}:{digest}".encode()).hexdigest()


def _sources(folder: Path) -> list[Path]:
    """A runner's sources: every file of its folder but what builds write (BUILT) and hidden
    files (a build's log)."""
    out = []
    for top, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if d not in BUILT and not d.startswith(".")]
        out += [Path(top) / f for f in files if not f.startswith(".")]
    return out


def _relative(arg: str, folder: Path) -> str:
    """A command's argument as seen from the runner's folder: discovery resolves the folder's
    paths to absolute ones, which differ from one checkout to the next."""
    if os.path.isabs(arg) and Path(arg).is_relative_to(folder):
        return os.path.relpath(arg, folder)
    return arg


def runner_digest(rt: Runtime) -> str:
    """The runner's build: its command and environment and its sources (runner code, build
    files, lock files), by content and relative path, so a fresh clone built from the same
    sources with the same library versions takes the answers an earlier checkout verified.
    A built artifact of the command (under bin/, target/, …) that is older than a source (a
    build not redone since an edit) adds its size and time, so an answer verified on that
    stale build is never taken for the rebuilt one."""
    folder = rt.spec.folder
    command = [_relative(a, folder) for a in rt.spec.command]
    h = hashlib.sha256(dumps([command, rt.spec.env]).encode())
    sources = _sources(folder)
    h.update(_files_digest(sources, folder).encode())
    newest = max((p.stat().st_mtime_ns for p in sources), default=0)
    inside = folder.resolve()
    for a in command:
        p = folder / a
        if p.is_file() and BUILT & set(Path(a).parts) and p.resolve().is_relative_to(inside):
            st = p.stat()
            if st.st_mtime_ns < newest:
                h.update(f"stale {a}:{st.st_size}:{st.st_mtime_ns}".encode())
    return h.hexdigest()


@dataclass
class Fingerprints:
    """Every live implementation's fingerprint, and the shared data digest."""

    data: str
    impls: dict[str, str]  # implementation id -> digest
    offers: dict[str, set[str]]  # primitive -> implementation ids offering it

    @classmethod
    def of(cls, runtimes: list[Runtime]) -> Fingerprints:
        data, impls, offers = data_digest(), {}, {}
        for rt in runtimes:
            build = runner_digest(rt)
            for i in rt.implementations:
                who = {
                    "id": i.id,
                    "version": i.version,
                    "backend": i.backend,
                    "runtime": rt.info.get("version") if isinstance(rt.info, dict) else None,
                    "build": build,
                    "off": list(rt.features_off),
                }
                impls[i.id] = hashlib.sha256(dumps(who).encode()).hexdigest()
                for pid in i.primitives:
                    offers.setdefault(pid, set()).add(i.id)
        return cls(data, impls, offers)

    def key(self, impl_id: str, primitive: str, what) -> str:
        peers = sorted((i, self.impls[i]) for i in self.offers.get(primitive, ()))
        text = dumps([self.data, self.impls.get(impl_id), peers, impl_id, primitive, what])
        return hashlib.sha256(text.encode()).hexdigest()


class Cache:
    """A key-value file of verified answers; a damaged or unreadable file is started afresh
    (it only ever saves time)."""

    def __init__(self, path: Path | None = None, enabled: bool = True):
        self.path = path or cache_dir() / "verified.sqlite"
        self.enabled, self.hits, self.misses = enabled, 0, 0  # counted per case
        self._db = None
        self._lock = threading.Lock()

    def _conn(self):
        if self._db is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            try:
                self._db = self._open()
            except sqlite3.DatabaseError:
                self.path.unlink(missing_ok=True)
                self._db = self._open()
        return self._db

    def _open(self):
        db = sqlite3.connect(self.path, timeout=30, check_same_thread=False)
        db.execute("CREATE TABLE IF NOT EXISTS verified (key TEXT PRIMARY KEY, value TEXT)")
        return db

    def get(self, key: str):
        if not self.enabled:
            self.misses += 1
            return None
        try:
            with self._lock:
                row = self._conn().execute("SELECT value FROM verified WHERE key = ?", (key,))
                row = row.fetchone()
        except sqlite3.Error:
            row = None
        if row is None:
            self.misses += 1
            return None
        self.hits += 1
        return loads(row[0])

    def put(self, key: str, value) -> None:
        try:
            with self._lock:
                db = self._conn()
                db.execute("INSERT OR REPLACE INTO verified VALUES (?, ?)", (key, dumps(value)))
                db.commit()
        except sqlite3.Error:
            pass  # a cache that cannot be written costs time, never a result

    def summary(self) -> str:
        if not self.enabled:
            return f"verification: {self.misses} checked (--reverify: the cache was not read)"
        return (
            f"verification: {self.hits} taken from the cache ({self.path}), {self.misses} checked"
        )
