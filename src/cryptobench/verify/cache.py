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
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

from .. import __version__
from ..paths import cache_dir, project_root
from ..runtimes.msggen import Generated
from ..runtimes.session import Runtime

SKIP_DIRS = {"node_modules", "vendor", "target", "bin", "__pycache__", ".venv", "obj"}
INPUT_CODE = ("inputs.py", "msggen.py")  # what derives a case's inputs from its seed
SOURCE_EXT = {".py", ".php", ".js", ".mjs", ".pas", ".toml", ".json"}


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


def _files_digest(paths) -> str:
    h = hashlib.sha256()
    for p in sorted(paths):
        h.update(str(p).encode())
        h.update(p.read_bytes())
    return h.hexdigest()


def data_digest(root: Path | None = None) -> str:
    """The catalog, vector and orchestrator verification sources, as one digest."""
    root = root or project_root()
    files = [p for d in ("catalog", "vectors") for p in (root / d).rglob("*") if p.is_file()]
    here = Path(__file__).parent
    files += list(here.glob("*.py")) + [here.parent / "runtimes" / f for f in INPUT_CODE]
    return hashlib.sha256(f"{__version__}:{_files_digest(files)}".encode()).hexdigest()


def runner_digest(rt: Runtime) -> str:
    """The runner's build: its artifacts' size and time, and its interpreted sources."""
    folder = rt.spec.folder
    h = hashlib.sha256(dumps([rt.spec.command, rt.spec.env]).encode())
    for a in rt.spec.command:
        p = folder / a
        if p.is_file():
            st = p.stat()
            h.update(f"{a}:{st.st_size}:{st.st_mtime_ns}".encode())
    sources = [
        p
        for p in folder.rglob("*")
        if p.suffix in SOURCE_EXT and p.is_file() and not SKIP_DIRS & set(p.parts)
    ]
    h.update(_files_digest(sources).encode())
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
