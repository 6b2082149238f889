#!/usr/bin/env python3
"""Fidelity check of the Java runner against JMH: same calls, two harnesses, ratios.

Runs JMH (bench/jmh, one fork per benchmark) and `cryptobench run` on SHA-256 and MD5 at 128 B
and 8 KiB in java/jdk and java/bc, alternately for --rounds rounds so that machine drift hits
both, and prints cryptobench's median ns/op divided by JMH's median ns/op per case, with the
spread over rounds. Target: within 5 %. Both sides take the same statistic: the median of
~10 ms batches (JMH iterations of 10 ms after 5 × 1 s of warm-up), so a busy machine's
preemptions, which JMH's usual 1 s iterations would average in, are filtered alike. It builds
the JMH jar first, against the runner's own BouncyCastle (so does `make -C bench/jmh build`).

    .venv/bin/python bench/jmh/compare.py [--rounds 3] [--runtime java@25]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
JAR = HERE / "target" / "benchmarks.jar"
RUNNER_POM = ROOT / "runners" / "java" / "pom.xml"
PRIMITIVES = ("sha256", "md5")
SIZES = (128, 8192)
IMPLS = ("jdk", "bc")  # bc-provider (JMH only) is printed for the record
JAVA_OF = {"java": "java", "java@25": "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java"}


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def runner_bouncycastle() -> str:
    """The BouncyCastle version the Java runner is built with (runners/java/pom.xml)."""
    ns = {"m": "http://maven.apache.org/POM/4.0.0"}
    found = ET.parse(RUNNER_POM).find("m:properties/m:bouncycastle.version", ns)
    if found is None or not (found.text or "").strip():
        raise SystemExit(f"{RUNNER_POM}: no <bouncycastle.version> property")
    return found.text.strip()


def build() -> None:
    """Build the JMH jar against the runner's own BouncyCastle: the same library on both
    sides (built against 1.84 while the runner had 1.87, JMH read java/bc SHA-256 11-13%
    slower; 2026-11-29). Maven repackages in a few seconds, so every call rebuilds: a jar
    left from an earlier version is never compared."""
    version = runner_bouncycastle()
    log(f"building bench/jmh against BouncyCastle {version} (runners/java/pom.xml)")
    subprocess.run(
        ["mvn", "-q", "-B", "package", f"-Dbouncycastle.version={version}"], cwd=HERE, check=True
    )


def jmh_round(
    java: str, args: argparse.Namespace, out: Path, select: str = "DigestBench", params=()
) -> dict:
    """{(impl, primitive, size): median ns/op over JMH's measurement iterations}; `select`
    and `params` (JMH's -p name=values) narrow the benchmarks run."""
    cmd = [java, "-jar", str(JAR), select, *params, "-f", str(args.forks)]
    cmd += ["-wi", str(args.warmups), "-w", "1s", "-i", str(args.iterations), "-r", "10ms"]
    cmd += ["-rf", "json", "-rff", str(out)]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    result = {}
    for bench in json.loads(out.read_text()):
        impl = bench["benchmark"].rsplit(".", 1)[1]
        impl = "bc-provider" if impl == "bcProvider" else impl
        key = (impl, bench["params"]["primitive"], int(bench["params"]["size"]))
        raw = [v for fork in bench["primaryMetric"]["rawData"] for v in fork]
        result[key] = statistics.median(raw)
    return result


def cryptobench_round(runtime: str, args: argparse.Namespace, out: Path, db: Path) -> dict:
    """{(impl, primitive, size): (median ns/op, warm-up ms, kept samples)} from one run."""
    cmd = [
        str(ROOT / ".venv" / "bin" / "cryptobench"),
        "run",
        "--runtime",
        runtime,
        "--operation",
        "digest",
        "--time-per-case",
        str(args.time_per_case),
        "--format",
        "json",
        "--output",
        str(out),
        "--db",
        str(db),
    ]
    for p in PRIMITIVES:
        cmd += ["--primitive", p]
    for s in SIZES:
        cmd += ["--size", str(s)]
    for _ in range(240):  # another run holds the lock: wait for it (up to an hour)
        done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if done.returncode == 0 or "holds" not in done.stderr:
            break
        time.sleep(15)
    if done.returncode != 0:
        raise SystemExit(f"cryptobench run failed: {done.stderr.strip()[-500:]}")
    result = {}
    for case in json.loads(out.read_text())["results"]:
        if case["status"] != "ok" or case["runtime"] != runtime:
            continue
        key = (case["library"], case["primitive"], case["size"])
        result[key] = (case["median_ns"], case["warmup_ns"] / 1e6, case["n_samples"])
    return result


def report(jmh: list[dict], cb: list[dict]) -> int:
    print(
        f"{'case':<22} {'JMH ns/op':>10} {'cb ns/op':>10} {'ratio':>7} "
        f"{'ratio min..max':>15} {'cb warm-up ms':>14}"
    )
    worst = 0.0
    for impl in IMPLS:
        for prim in PRIMITIVES:
            for size in SIZES:
                key = (impl, prim, size)
                pairs = [
                    (j[key], c[key]) for j, c in zip(jmh, cb, strict=True) if key in j and key in c
                ]
                if not pairs:
                    print(f"{impl}/{prim} {size:<6} missing")
                    continue
                ratios = [c[0] / j for j, c in pairs]
                r = statistics.median(ratios)
                worst = max(worst, abs(r - 1))
                print(
                    f"{impl + '/' + prim + ' ' + str(size):<22} "
                    f"{statistics.median(j for j, _ in pairs):>10.1f} "
                    f"{statistics.median(c[0] for _, c in pairs):>10.1f} {r:>7.3f} "
                    f"{min(ratios):>7.3f}..{max(ratios):<7.3f} "
                    f"{statistics.median(c[1] for _, c in pairs):>14.0f}"
                )
    for prim in PRIMITIVES:
        for size in SIZES:
            key = ("bc-provider", prim, size)
            vals = [j[key] for j in jmh if key in j]
            lw = [j[("bc", prim, size)] for j in jmh if ("bc", prim, size) in j]
            if vals and lw:
                print(
                    f"JMH only: bc via its JCA provider, {prim} {size}: "
                    f"{statistics.median(vals):.1f} ns/op "
                    f"({statistics.median(vals) / statistics.median(lw):.3f} x lightweight)"
                )
    print(f"largest |ratio - 1| (median over rounds): {worst:.1%} (target: within 5%)")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runtime", default="java", choices=sorted(JAVA_OF))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--forks", type=int, default=1)
    ap.add_argument("--warmups", type=int, default=5, help="JMH warm-up iterations (1 s each)")
    ap.add_argument(
        "--iterations", type=int, default=300, help="JMH measurement iterations (10 ms each)"
    )
    ap.add_argument("--time-per-case", type=float, default=2.0)
    args = ap.parse_args()
    java = JAVA_OF[args.runtime]
    if shutil.which(java) is None:
        log(f"{java} not found: {args.runtime} is not installed")
        return 2
    if shutil.which("mvn") is None:
        log("mvn not found: the JMH twin cannot be built")
        return 2
    build()
    jmh, cb = [], []
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        for i in range(args.rounds):
            log(f"round {i + 1}/{args.rounds}: JMH")
            jmh.append(jmh_round(java, args, t / f"jmh{i}.json"))
            log(f"round {i + 1}/{args.rounds}: cryptobench")
            cb.append(cryptobench_round(args.runtime, args, t / f"cb{i}.json", t / "cb.sqlite"))
    return report(jmh, cb)


if __name__ == "__main__":
    sys.exit(main())
