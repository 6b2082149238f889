"""The orchestrator's side of the runner protocol v1 (docs/protocol.md): one process, JSON Lines,
what its ``hello`` declares, and the shape of its ``bench`` samples."""

from __future__ import annotations

import collections
import contextlib
import io
import json
import os
import queue
import select
import signal
import subprocess
import threading
import time
from dataclasses import dataclass

from . import trace

PROTOCOL_VERSION = 1
ERROR_KINDS = ("bad_request", "unsupported", "invalid_params", "auth_failed", "internal")
_EOF = object()
PIPE_READ = 1 << 16  # bytes a pump reads from its pipe at once (at most what is there)


class RunnerFailure(Exception):
    """The runner process misbehaved: crashed, hung, wrote garbage or broke the protocol.

    The process is unusable afterwards; the caller restarts it for the next case.
    """

    def __init__(self, kind: str, message: str, stderr: str = ""):
        self.kind = kind  # crashed | timeout | garbage | protocol | start
        self.message = message
        self.stderr = stderr
        detail = f" (stderr: {stderr.strip()[-300:]})" if stderr.strip() else ""
        super().__init__(f"{kind}: {message}{detail}")


class RemoteError(Exception):
    """A well-formed error answer: the runner is fine, the request was refused."""

    def __init__(self, kind: str, message: str):
        self.kind = kind
        self.message = message
        super().__init__(f"{kind}: {message}")


# Processes told to end (EOF) without waiting (RunnerProcess.close(wait=False)): a group's
# process exits while the next group's starts, and is reaped before anything is timed
# (``reap_exiting``: every request but a hello waits for it).
_exiting: list[RunnerProcess] = []
_exiting_lock = threading.Lock()


def reap_exiting() -> None:
    """Wait until every process told to end without waiting has ended, each killed (its
    process group) once its grace is spent: called before anything is timed, so no runner
    process of an earlier group is alive beside it (docs/methodology.md, "Why whole rounds
    ran slow")."""
    with _exiting_lock:
        procs, _exiting[:] = list(_exiting), []
    for p in procs:
        p.finish(max(0.0, p.deadline - time.monotonic()))


def _exits(proc: subprocess.Popen, timeout: float) -> bool:
    """Wait up to ``timeout`` s for the process to end and reap it, woken the moment it ends
    (a pidfd): Popen.wait(timeout) polls at 0.5, 1, 2 … 50 ms, so a runner that took 31 ms to
    exit was waited 64 ms (measured 2026-11-26: Python 63.9 ms, Node.js 15.5, Java 31.5, on
    exactly that schedule), once per group and round."""
    if proc.poll() is not None:  # reaped: its pid may be another process's by now
        return True
    try:
        fd = os.pidfd_open(proc.pid)
    except (AttributeError, OSError):  # no pidfd here, or already reaped
        try:
            proc.wait(timeout=timeout)
            return True
        except subprocess.TimeoutExpired:
            return False
    try:
        ready, _, _ = select.select([fd], [], [], timeout)
    finally:
        os.close(fd)
    if not ready:
        return False
    proc.wait()
    return True


class RunnerProcess:
    """One running runner. Requests are strictly sequential; every wait has a timeout."""

    def __init__(self, argv: list[str], cwd: str, env: dict | None = None, name: str = "runner"):
        self.argv, self.cwd, self.name = argv, cwd, name
        self.env = {**os.environ, **(env or {})}
        self.proc: subprocess.Popen | None = None
        self._lines: queue.Queue = queue.Queue()
        self._stderr: collections.deque = collections.deque(maxlen=40)
        self._next_id = 1

    # -- lifecycle -------------------------------------------------------------------------
    def start(self, timeout: float, **hello_fields) -> dict:
        """Start the process and return its ``hello`` result."""
        try:
            self.proc = subprocess.Popen(
                self.argv,
                cwd=self.cwd,
                env=self.env,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,  # its own process group: we can end all of it
                bufsize=0,
            )
        except OSError as exc:
            raise RunnerFailure("start", f"cannot start {self.argv[0]}: {exc.strerror}") from None
        threading.Thread(target=self._pump_stdout, daemon=True).start()
        threading.Thread(target=self._pump_stderr, daemon=True).start()
        hello = self.request("hello", timeout=timeout, **hello_fields)
        if hello.get("protocol") != PROTOCOL_VERSION:
            self.kill()
            raise RunnerFailure("protocol", f"speaks protocol {hello.get('protocol')!r}, not 1")
        return hello

    def close(self, grace: float = 2.0, wait: bool = True) -> None:
        """EOF on stdin (the runner exits 0), then end the process group if it lingers.
        ``wait`` False: return at once; the process ends while the caller goes on (the next
        group's process starting), and ``reap_exiting`` waits for it before anything is
        timed."""
        if not self.proc:
            return
        with contextlib.suppress(OSError):
            self.proc.stdin.close()
        if wait:
            self.finish(grace)
            return
        self.deadline = time.monotonic() + grace
        with _exiting_lock:
            _exiting.append(self)

    def finish(self, grace: float) -> None:
        """Wait up to ``grace`` s for the process to exit, then end its process group."""
        if not _exits(self.proc, grace):
            self.kill()
        self._kill_group()

    def kill(self) -> None:
        if not self.proc:
            return
        self._kill_group()
        _exits(self.proc, 5)

    def _kill_group(self) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stderr_tail(self) -> str:
        return "\n".join(self._stderr)

    # -- I/O -------------------------------------------------------------------------------
    # The pipes are unbuffered (bufsize=0: a request reaches the runner the moment it is
    # written), and readline on an unbuffered pipe reads one byte per system call: an answer
    # carrying 8 KiB of ciphertext as hex took 18–20 ms to read, on every runtime, once per
    # bench request (docs/methodology.md, "What a request costs"). Each pump reads its pipe
    # through a buffer of its own instead; only the pump reads it.
    def _pump_stdout(self) -> None:
        for line in iter(_buffered(self.proc.stdout).readline, b""):
            self._lines.put(line)
        self._lines.put(_EOF)

    def _pump_stderr(self) -> None:
        for line in iter(_buffered(self.proc.stderr).readline, b""):
            self._stderr.append(line.decode("utf-8", "replace").rstrip())

    def request(self, op: str, timeout: float, **fields) -> dict:
        """Send one request and return its ``result``; raise RemoteError or RunnerFailure."""
        if not self.alive:
            raise RunnerFailure("crashed", f"{self.name} is not running", self.stderr_tail())
        if op != "hello":  # a hello only starts a process: any other request may be timed
            reap_exiting()
        rid = self._next_id
        self._next_id += 1
        payload = json.dumps({"id": rid, "op": op, **fields}, separators=(",", ":")) + "\n"
        span = trace.Span(self.proc.pid) if op == "bench" and trace.enabled() else None
        try:
            self.proc.stdin.write(payload.encode())
            self.proc.stdin.flush()
        except OSError:
            self.kill()
            raise RunnerFailure(
                "crashed", f"{self.name} closed its input", self.stderr_tail()
            ) from None
        answer = self._answer(rid, op, timeout)
        if span is not None:
            span.close(trace.enabled(), fields, self.name)
        return answer

    def _answer(self, rid: int, op: str, timeout: float) -> dict:
        deadline = time.monotonic() + timeout
        try:
            line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            self.kill()
            raise RunnerFailure(
                "timeout", f"no answer to {op} within {timeout:.1f} s", self.stderr_tail()
            ) from None
        if line is _EOF:
            self.kill()
            code = self.proc.returncode
            raise RunnerFailure(
                "crashed", f"{self.name} exited (status {code}) during {op}", self.stderr_tail()
            )
        msg = _parse(line)
        if msg is None:
            self.kill()
            shown = line[:80].decode("utf-8", "replace")
            raise RunnerFailure("garbage", f"non-protocol output on stdout: {shown!r}")
        if msg.get("id") != rid:
            self.kill()
            raise RunnerFailure("protocol", f"answer id {msg.get('id')!r} for request {rid}")
        if msg.get("ok") is True and isinstance(msg.get("result"), dict):
            return msg["result"]
        err = msg.get("error")
        if msg.get("ok") is False and isinstance(err, dict) and err.get("kind") in ERROR_KINDS:
            raise RemoteError(err["kind"], str(err.get("message", "")))
        self.kill()
        raise RunnerFailure("protocol", f"malformed answer to {op}: {line[:120]!r}")


def _buffered(pipe) -> io.BufferedIOBase:
    """A pipe read through a buffer (one a caller's Popen made buffered already is kept)."""
    return pipe if isinstance(pipe, io.BufferedIOBase) else io.BufferedReader(pipe, PIPE_READ)


def _parse(line: bytes) -> dict | None:
    try:
        msg = json.loads(line)
    except (ValueError, UnicodeDecodeError):
        return None
    return msg if isinstance(msg, dict) else None


# -- what a runner declares (hello) ------------------------------------------------------
@dataclass
class Offer:
    operations: tuple[str, ...]
    reuses_key: bool = True
    takes_salt: bool = True
    native: str = ""
    sizes: dict | None = None  # declared key/nonce/tag sizes (declared_sizes); None: the catalog's


@dataclass
class Implementation:
    id: str  # runtime[@variant]/library
    runtime_id: str
    library: str
    version: str
    backend: dict
    primitives: dict[str, Offer]
    code_path: str = ""
    notes: str = ""

    def offers(self, primitive: str, operation: str) -> bool:
        offer = self.primitives.get(primitive)
        return offer is not None and operation in offer.operations

    @property
    def backend_label(self) -> str:
        b = self.backend or {}
        return f"{b.get('name', '?')} {b.get('version', '')}".strip()


def _offer(raw) -> Offer:
    if not isinstance(raw, dict) or not isinstance(raw.get("operations"), list):
        raise ValueError("each primitive needs an operations list")
    return Offer(
        operations=tuple(str(o) for o in raw["operations"]),
        reuses_key=bool(raw.get("reuses_key", True)),
        takes_salt=bool(raw.get("takes_salt", True)),
        native=str(raw.get("native", "")),
        sizes=raw["sizes"] if isinstance(raw.get("sizes"), dict) else None,
    )


def parse_hello(runtime_id: str, hello: dict) -> tuple[dict, list[Implementation]]:
    """The runtime description and implementations of a ``hello`` result."""
    impls = []
    for raw in hello.get("implementations", []):
        lib = str(raw.get("library", "")).lower()
        impls.append(
            Implementation(
                id=f"{runtime_id}/{lib}",
                runtime_id=runtime_id,
                library=lib,
                version=str(raw.get("version", "")),
                backend=raw.get("backend") if isinstance(raw.get("backend"), dict) else {},
                primitives={p: _offer(o) for p, o in (raw.get("primitives") or {}).items()},
                code_path=str(raw.get("code_path", "")),
                notes=str(raw.get("notes", "")),
            )
        )
    runtime = {
        "id": runtime_id,
        "name": (hello.get("runtime") or {}).get("name", ""),
        "version": (hello.get("runtime") or {}).get("version", ""),
        "details": (hello.get("runtime") or {}).get("details", {}),
        "cpu": hello.get("cpu", {}),
    }
    return runtime, impls


def check_samples(samples, iterations: int, batches: int) -> list[dict]:
    """A ``bench`` answer's samples, well formed (docs/protocol.md), or RunnerFailure."""
    ok = (
        isinstance(samples, list)
        and len(samples) == batches
        and all(
            isinstance(s, dict)
            and s.get("iterations") == iterations
            and isinstance(s.get("ns"), int)
            and s["ns"] >= 0
            and isinstance(s.get("compiles", 0), int | float)
            for s in samples
        )
    )
    if not ok:
        raise RunnerFailure("protocol", f"bench returned malformed samples: {str(samples)[:80]}")
    return samples


def check_alloc(res: dict) -> dict | None:
    """A ``bench`` answer's allocation of its untimed call (docs/protocol.md, ``alloc_bytes``,
    optional ``allocs`` and ``alloc_counter``): None when the runner does not offer it,
    RunnerFailure when malformed."""
    if "alloc_bytes" not in res:
        return None
    counts = [res.get("alloc_bytes"), res.get("allocs", 0)]
    if not all(type(v) is int and v >= 0 for v in counts):
        raise RunnerFailure("protocol", f"bench returned malformed alloc_bytes: {counts}")
    return {
        "bytes": res["alloc_bytes"],
        "allocs": res.get("allocs"),
        "counter": str(res.get("alloc_counter", "")),
    }
