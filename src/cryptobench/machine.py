"""Machine fingerprint and provenance, collected once per run (DESIGN.md, "Results")."""

from __future__ import annotations

import ctypes
import fcntl
import mmap
import os
import platform
import shutil
import subprocess
import time
from pathlib import Path

from .errors import CryptobenchError
from .paths import lock_path, project_root

FLAGS = ("aes", "pclmulqdq", "sha_ni", "sse4_2", "avx2", "avx512f", "vaes", "vpclmulqdq")


def _cpuinfo() -> dict:
    info = {}
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return info
    for line in text.splitlines():
        if ":" in line:
            key, _, value = line.partition(":")
            info.setdefault(key.strip(), value.strip())
    return info


def _os_name() -> str:
    try:
        for line in Path("/etc/os-release").read_text().splitlines():
            if line.startswith("PRETTY_NAME="):
                return line.split("=", 1)[1].strip('"')
    except OSError:
        pass
    return platform.platform()


def _virtualisation(flags: set[str]) -> str:
    if shutil.which("systemd-detect-virt"):
        out = subprocess.run(["systemd-detect-virt"], capture_output=True, text=True)
        if out.stdout.strip():
            return out.stdout.strip()
    return "hypervisor" if "hypervisor" in flags else "none detected"


def cpu_times() -> dict:
    """Aggregate CPU jiffies from /proc/stat (for steal time and load during the run)."""
    try:
        fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    except (OSError, IndexError):
        return {}
    names = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal")
    return {n: int(v) for n, v in zip(names, fields, strict=False)}


def steal_fraction(before: dict, after: dict) -> float | None:
    if not before or not after:
        return None
    total = sum(after.values()) - sum(before.values())
    return (after.get("steal", 0) - before.get("steal", 0)) / total if total > 0 else 0.0


# rdtsc; shl rdx, 32; or rax, rdx; ret  (x86-64 System V)
_RDTSC = bytes.fromhex("0f3148c1e2204809d0c3")


def tsc_hz(duration_s: float = 0.05) -> float | None:
    """The TSC's rate, measured against the monotonic clock (x86-64 Linux only)."""
    if platform.machine() not in ("x86_64", "AMD64"):
        return None
    try:
        buf = mmap.mmap(-1, mmap.PAGESIZE, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    except (OSError, ValueError, AttributeError):
        return None
    buf.write(_RDTSC)
    addr = ctypes.addressof(ctypes.c_char.from_buffer(buf))
    rdtsc = ctypes.CFUNCTYPE(ctypes.c_uint64)(addr)
    rates = []
    for _ in range(3):
        t0, c0 = time.perf_counter_ns(), rdtsc()
        time.sleep(duration_s)
        t1, c1 = time.perf_counter_ns(), rdtsc()
        rates.append((c1 - c0) / (t1 - t0) * 1e9)
    del rdtsc
    return sorted(rates)[1]


def fingerprint() -> dict:
    info = _cpuinfo()
    flags = set(info.get("flags", "").split())
    mem_kib = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                mem_kib = int(line.split()[1])
    except OSError:
        pass
    hz = tsc_hz()
    return {
        "cpu_model": info.get("model name", platform.processor() or "unknown"),
        "cpu_flags": {f: f in flags for f in FLAGS},
        "cores": os.cpu_count(),
        "memory_gib": round(mem_kib / 2**20, 1) if mem_kib else None,
        "virtualisation": _virtualisation(flags),
        "kernel": platform.release(),
        "os": _os_name(),
        "arch": platform.machine(),
        "tsc_hz": hz,
        "tsc_constant": "constant_tsc" in flags,
        "python": platform.python_version(),
    }


def git_commit() -> str | None:
    root = project_root()
    try:
        head = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
        )
        if head.returncode != 0:
            return None
        dirty = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return head.stdout.strip() + ("-dirty" if dirty.stdout.strip() else "")


class RunLock:
    """An exclusive lock for the duration of a run: two runs never time at once."""

    def __init__(self, path: Path | None = None, wait: bool = False):
        self.path = path or lock_path()
        self.wait = wait
        self.fh = None

    def __enter__(self):
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.fh = open(self.path, "a+")  # noqa: SIM115 (held for the run)
        try:
            fcntl.flock(self.fh, fcntl.LOCK_EX | (0 if self.wait else fcntl.LOCK_NB))
        except BlockingIOError:
            self.fh.seek(0)
            holder = self.fh.read().strip() or "?"
            self.fh.close()
            raise CryptobenchError(
                f"another cryptobench run holds {self.path} (pid {holder}); "
                "wait for it to finish: two runs timing at once spoil both"
            ) from None
        self.fh.truncate(0)
        self.fh.write(str(os.getpid()))
        self.fh.flush()
        return self

    def __exit__(self, *exc):
        fcntl.flock(self.fh, fcntl.LOCK_UN)
        self.fh.close()
