"""Machine fingerprint and provenance, collected once per run (DESIGN.md, "Results")."""

from __future__ import annotations

import ctypes
import mmap
import os
import platform
import shutil
import subprocess
import time
from pathlib import Path

from ..paths import project_root

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


def _read(path: str) -> str | None:
    try:
        return Path(path).read_text().strip()
    except OSError:
        return None


def frequency_policy() -> dict:
    """The CPU frequency governor and turbo state where the kernel shows them (None where not:
    most VMs hide cpufreq)."""
    no_turbo = _read("/sys/devices/system/cpu/intel_pstate/no_turbo")
    boost = _read("/sys/devices/system/cpu/cpufreq/boost")
    turbo = None
    if no_turbo is not None:
        turbo = no_turbo == "0"
    elif boost is not None:
        turbo = boost == "1"
    return {
        "governor": _read("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"),
        "turbo": turbo,
    }


def usable_cpus() -> set[int]:
    """The CPUs this process may run on (its affinity where the OS has one: not on macOS)."""
    if hasattr(os, "sched_getaffinity"):
        return os.sched_getaffinity(0)
    return set(range(os.cpu_count() or 1))


def pin_plan(cpus: list[int] | None = None) -> dict | None:
    """Where ``--pin`` puts things: runners on one CPU, the orchestrator on another; None on a
    machine with fewer than 2 usable CPUs."""
    cpus = sorted(cpus if cpus is not None else usable_cpus())
    if len(cpus) < 2:
        return None
    return {"runner_cpu": cpus[-1], "orchestrator_cpu": cpus[0]}


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
        **frequency_policy(),
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
