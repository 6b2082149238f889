"""Live runtimes: a started runner, what its hello declared, and restarts after failures."""

from __future__ import annotations

from dataclasses import dataclass, field

from .protocol import RemoteError, RunnerFailure, RunnerProcess
from .runners import RuntimeSpec

MAX_RESTARTS = 3


@dataclass
class Offer:
    operations: tuple[str, ...]
    reuses_key: bool = True
    takes_salt: bool = True
    native: str = ""


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


@dataclass
class Runtime:
    """A discovered runtime; started lazily, restarted after a failure."""

    spec: RuntimeSpec
    info: dict = field(default_factory=dict)
    implementations: list[Implementation] = field(default_factory=list)
    failed: str | None = None  # set when it cannot be (re)started
    restarts: int = 0
    process: RunnerProcess | None = None

    @property
    def id(self) -> str:
        return self.spec.runtime_id

    def start(self) -> None:
        """Start the runner and read its hello; failures are recorded, not raised."""
        proc = RunnerProcess(self.spec.command, str(self.spec.folder), self.spec.env, self.id)
        try:
            hello = proc.start(self.spec.startup_timeout)
            self.info, self.implementations = parse_hello(self.id, hello)
        except (RunnerFailure, RemoteError, ValueError, TypeError, AttributeError) as exc:
            proc.kill()
            self.failed = f"failed at hello: {exc}"
            return
        self.process = proc

    def ensure(self) -> RunnerProcess:
        """A live process, restarting once more after a failure (at most MAX_RESTARTS)."""
        if self.process and self.process.alive:
            return self.process
        if self.failed:
            raise RunnerFailure("crashed", self.failed)
        if self.process is not None:
            self.restarts += 1
            if self.restarts > MAX_RESTARTS:
                self.failed = f"gave up after {MAX_RESTARTS} restarts"
                raise RunnerFailure("crashed", self.failed)
        self.start()
        if self.failed:
            raise RunnerFailure("crashed", self.failed)
        return self.process

    def request(self, op: str, timeout: float, **fields) -> dict:
        return self.ensure().request(op, timeout=timeout, **fields)

    def stop(self) -> None:
        if self.process:
            self.process.close()
            self.process = None


def start_all(specs: list[RuntimeSpec]) -> tuple[list[Runtime], list[tuple[str, str]]]:
    """Start every runnable spec; return live runtimes and (runtime, reason) skips."""
    live, skipped = [], []
    for spec in specs:
        if spec.skipped:
            skipped.append((spec.runtime_id, spec.skipped))
            continue
        rt = Runtime(spec)
        rt.start()
        if rt.failed:
            skipped.append((spec.runtime_id, rt.failed))
        else:
            live.append(rt)
    return live, skipped
