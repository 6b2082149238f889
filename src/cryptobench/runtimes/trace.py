"""The round-anatomy instrument (docs/methodology.md, "Why whole rounds ran slow"): with
``CRYPTOBENCH_TRACE=FILE`` every bench request appends one JSON line to FILE with what the
runner process itself spent during it (user and system CPU, page faults, context switches)
and which other processes used the CPU meanwhile. The snapshots are taken before the request
is written and after its answer is read, never while the runner times; off by default."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

CLK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def enabled() -> str | None:
    return os.environ.get("CRYPTOBENCH_TRACE") or None


def _stat(pid: int) -> tuple[str, list[str]] | None:
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    lp, rp = raw.find("("), raw.rfind(")")
    return raw[lp + 1 : rp], raw[rp + 2 :].split()


def _switches(pid: int) -> tuple[int, int]:
    vol = invol = 0
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("voluntary_ctxt_switches"):
                vol = int(line.split()[1])
            elif line.startswith("nonvoluntary_ctxt_switches"):
                invol = int(line.split()[1])
    except OSError:
        pass
    return vol, invol


def _group_cpu(pgid: int) -> dict:
    """CPU ticks, faults and switches summed over the runner's process group (its threads
    are in the process's totals)."""
    tot = {"utime": 0, "stime": 0, "minflt": 0, "majflt": 0, "vcsw": 0, "ivcsw": 0}
    for pid in _pids():
        st = _stat(pid)
        if st is None or int(st[1][2]) != pgid:
            continue
        f = st[1]
        tot["minflt"] += int(f[7])
        tot["majflt"] += int(f[9])
        tot["utime"] += int(f[11])
        tot["stime"] += int(f[12])
        v, i = _switches(pid)
        tot["vcsw"] += v
        tot["ivcsw"] += i
    return tot


def _pids() -> list[int]:
    return [int(p) for p in os.listdir("/proc") if p.isdigit()]


def _all_cpu(skip_pgid: int) -> dict[tuple[int, str], int]:
    out = {}
    for pid in _pids():
        st = _stat(pid)
        if st is None or int(st[1][2]) == skip_pgid:
            continue
        out[(pid, st[0])] = int(st[1][11]) + int(st[1][12])
    return out


class Span:
    """One request's snapshots."""

    def __init__(self, pgid: int):
        self.pgid, self.t0 = pgid, time.monotonic()
        self.own0, self.others0 = _group_cpu(pgid), _all_cpu(pgid)

    def close(self, path: str, fields: dict, runner: str) -> None:
        wall = time.monotonic() - self.t0
        own1, others1 = _group_cpu(self.pgid), _all_cpu(self.pgid)
        own = {k: own1[k] - self.own0[k] for k in own1}
        busy = []
        for key, ticks in others1.items():
            d = ticks - self.others0.get(key, ticks)
            if d > 0:
                busy.append({"pid": key[0], "comm": key[1], "ms": d * 1000 / CLK})
        busy.sort(key=lambda b: -b["ms"])
        inputs = fields.get("inputs") or {}
        msg = inputs.get("msg")
        size = msg.get("len") if isinstance(msg, dict) else (len(msg) // 2 if msg else None)
        row = {
            "t": time.time(),
            "runner": runner,
            "impl": f"{runner}/{fields.get('impl')}",
            "primitive": fields.get("primitive"),
            "operation": fields.get("operation"),
            "size": size,
            "iterations": fields.get("iterations"),
            "batches": fields.get("batches"),
            "wall_ms": wall * 1000,
            "own_user_ms": own["utime"] * 1000 / CLK,
            "own_sys_ms": own["stime"] * 1000 / CLK,
            "minflt": own["minflt"],
            "majflt": own["majflt"],
            "vcsw": own["vcsw"],
            "ivcsw": own["ivcsw"],
            "others_ms": sum(b["ms"] for b in busy),
            "others": busy[:5],
        }
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps(row) + "\n")
