"""The Go benchmark format (golang.org/design/14313-benchmark-format), read by `benchstat`.

One line per round of each case, so benchstat computes its own interval over the rounds
(it needs 6 for one at 95%). Configuration lines name the machine and the versions; values
that change from run to run (run id, date) are `#` comments, which the format ignores, so two
runs of one build land in the same benchstat table.
"""

from __future__ import annotations

from .cases import cpu_off, measured, one_line, per_byte, rounds, scalar, versions, workers

GOARCH = {"x86_64": "amd64", "amd64": "amd64", "aarch64": "arm64", "arm64": "arm64"}


def name(r: dict) -> str:
    """``BenchmarkSha256/impl=go:stdlib/op=digest/size=1024-1``: sub-benchmark keys that
    benchstat can project (``-col /impl``); a `/` inside a value becomes `:` (it would start a
    new key) and the trailing ``-N`` is the processes or threads at once."""
    prim = _part(r["primitive"])
    parts = [
        f"impl={r['implementation']}",
        f"op={r['operation']}",
        f"size={r['size']}",
        *(
            f"{k}={scalar(v)}"
            for k, v in sorted((r.get("params") or {}).items())
            if k not in ("processes", "threads")
        ),
    ]
    if cpu_off(r):
        parts.append(f"cpu={cpu_off(r)}")
    return "/".join([f"Benchmark{prim[:1].upper()}{prim[1:]}", *map(_part, parts)]) + (
        f"-{workers(r)}"
    )


def _part(text) -> str:
    return "_".join(str(text).replace("/", ":").split())


def config(doc: dict) -> list[str]:
    machine = doc.get("machine") or {}
    system = f"{machine.get('os', '')} {machine.get('kernel', '')}".lower()
    goos = next((g for g in ("linux", "darwin", "windows", "freebsd") if g in system), None)
    goarch = GOARCH.get(str(machine.get("arch", "")).lower(), machine.get("arch"))
    lines = [
        f"goos: {goos}" if goos else "",
        f"goarch: {goarch}" if goarch else "",
        "pkg: cryptobench",
        f"cpu: {one_line(machine['cpu_model'])}" if machine.get("cpu_model") else "",
    ]
    lines += [f"{_key(rid)}-version: {one_line(v)}" for rid, v in versions(doc)]
    return [ln for ln in lines if ln]


def _key(text: str) -> str:
    """A configuration key: lower case, no spaces (the format's rule)."""
    return "".join("-" if c.isspace() else c for c in text.lower())


def line(r: dict, median_ns: float, iterations: int, tsc_hz) -> str:
    fields = [name(r), str(iterations), f"{median_ns:.6g} ns/op"]
    if per_byte(r):
        fields.append(f"{r['size'] / median_ns * 1e3:.6g} MB/s")  # 10^6 B/s, as Go's MB/s
        if tsc_hz:
            fields.append(f"{median_ns * tsc_hz / 1e9 / r['size']:.4g} cycles/B")
    return "\t".join(fields)


def render(doc: dict, **_) -> str:
    run = doc["run"]
    out = [f"# cryptobench run {run.get('id')} started {run.get('started')}"]
    out += [f"# command: {one_line(run['command'])}"] if run.get("command") else []
    out += config(doc)
    tsc_hz = (doc.get("machine") or {}).get("tsc_hz")
    for r in measured(doc):
        out += [line(r, rd.median_ns, rd.iterations, tsc_hz) for rd in rounds(r)]
    return "\n".join(out) + "\n"
