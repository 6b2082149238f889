"""A real, throw-away PostgreSQL server for the tests: initdb + pg_ctl in a temporary
directory, listening on loopback only at a free port, stopped and removed at the end.

initdb and postgres refuse to run as root, so as root they run as the `postgres` user (Debian's
package creates it), else `nobody`, through runuser, in a directory chowned to that user."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path

USER = "cryptobench"


def server_bin() -> Path | None:
    """The newest /usr/lib/postgresql/*/bin with initdb and pg_ctl (or both on PATH)."""
    dirs = sorted(
        glob.glob("/usr/lib/postgresql/*/bin"), key=lambda d: int(Path(d).parent.name or 0)
    )
    for d in reversed(dirs):
        if (Path(d) / "initdb").exists() and (Path(d) / "pg_ctl").exists():
            return Path(d)
    initdb, pg_ctl = shutil.which("initdb"), shutil.which("pg_ctl")
    return Path(initdb).parent if initdb and pg_ctl else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, bindir: Path):
        self.bindir = bindir
        self.base = Path(tempfile.mkdtemp(prefix="cryptobench-pg-"))
        self.data = self.base / "data"
        self.port = _free_port()
        self.runas: list[str] = []
        if os.geteuid() == 0:
            owner = _unprivileged_user()
            shutil.chown(self.base, owner, owner_group(owner))
            self.runas = ["runuser", "-u", owner, "--"]

    def _run(self, *argv: str) -> None:
        proc = subprocess.run(
            [*self.runas, *argv], capture_output=True, text=True, timeout=120, cwd=self.base
        )
        if proc.returncode != 0:
            raise RuntimeError(f"{argv[0]} failed: {proc.stderr or proc.stdout}")

    def start(self) -> Server:
        self._run(
            str(self.bindir / "initdb"),
            "-D",
            str(self.data),
            "-U",
            USER,
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
        )
        return self.start_server()

    def start_server(self) -> Server:
        """pg_ctl start (again, after stop_server: the fault tests stop it mid-run)."""
        opts = (
            f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.base} -c fsync=off "
            "-c max_connections=60"
        )
        self._run(
            str(self.bindir / "pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            opts,
            "-l",
            str(self.base / "server.log"),
            "-w",
            "-t",
            "60",
            "start",
        )
        return self

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{dbname}"

    def new_database(self) -> str:
        """A fresh, empty database; its URL."""
        import psycopg

        name = "t_" + uuid.uuid4().hex[:12]
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop_server(self) -> None:
        """pg_ctl stop -m fast: every connection is ended, the data directory stays."""
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "fast", "stop")

    def stop(self) -> None:
        try:
            self.stop_server()
        finally:
            shutil.rmtree(self.base, ignore_errors=True)


def _unprivileged_user() -> str:
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
            return name
        except KeyError:
            continue
    raise RuntimeError("no unprivileged user (postgres or nobody) to run PostgreSQL as")


def owner_group(user: str) -> int:
    return pwd.getpwnam(user).pw_gid
