#!/usr/bin/env python3
"""A pull request's performance gate: the base and the head measured alternately on one
machine, then `cryptobench compare BASE HEAD --fail-above PCT` (docs/ci.md).

    ci_gate.py measure BASE_DIR HEAD_DIR OUT [--preset quick] [--passes 6] [-- RUN_ARGS...]
    ci_gate.py gate OUT [--fail-above 5]

`measure` runs each checkout's own cryptobench (BASE_DIR/.venv/bin/cryptobench, as `make
setup` installs it) for one round per pass, alternating base and head and swapping which goes
first every pass (base, head, head, base, …), with the same seed for both in a pass: drift in
the machine's speed during the job falls on both sides alike. Each pass writes OUT/base-N.json
and OUT/head-N.json.

`gate` merges each side's passes into one run whose rounds are the passes (OUT/base.json,
OUT/head.json: every round was a fresh process, which is what a round is), then compares them
with the same Python's cryptobench. Exit status: compare's (0 no significant slowdown above
PCT, 3 one, 1 nothing in common); with $GITHUB_STEP_SUMMARY set, the comparison in Markdown is
appended to it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

SIDES = ("base", "head")
ONE_ROUND = "one round:"  # the flag of a one-round run, no longer true once merged


def order(passes: int) -> list[tuple[int, str]]:
    """(pass, side) in the order they run: base, head, head, base, base, head, …"""
    return [(p, s) for p in range(1, passes + 1) for s in (SIDES if p % 2 else SIDES[::-1])]


def measure(args) -> int:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    dirs = {"base": Path(args.base_dir).resolve(), "head": Path(args.head_dir).resolve()}
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(3), "big")
    for p, side in order(args.passes):
        cmd = [
            str(dirs[side] / ".venv" / "bin" / "cryptobench"),
            "run",
            "--preset",
            args.preset,
            "--rounds",
            "1",
            "--seed",
            str(seed + p),
            "--format",
            "json",
            "--output",
            str(out / f"{side}-{p}.json"),
            "--db",
            str(out / f"{side}.sqlite"),
            *args.run_args,
        ]
        print(f"[ci-gate] pass {p}/{args.passes}, {side}: {' '.join(cmd)}", flush=True)
        if args.dry_run:
            continue
        code = subprocess.run(cmd, cwd=dirs[side]).returncode
        if code not in (0, 1):  # 1: some case failed, the others are measured and kept
            print(f"[ci-gate] {side} pass {p} ended with exit code {code}", file=sys.stderr)
            return code
    return 0


def case_key(r: dict) -> tuple:
    params = json.dumps(r.get("params") or {}, sort_keys=True)
    off = tuple(r.get("cpu_features_off") or ())
    return (r["implementation"], r["primitive"], r["operation"], r["size"], params, off)


def _measured(r: dict) -> bool:
    return r.get("status") == "ok" and bool(r.get("rounds"))


def merge_case(rows: list[dict]) -> dict:
    """One case from its passes: the measured passes' rounds, renumbered, become its rounds;
    the estimate and interval are recomputed from them as a run's are."""
    from cryptobench import stats

    ok = [r for r in rows if _measured(r)]
    if not ok:
        return rows[0]
    rounds, samples, flags = [], [], []
    for i, r in enumerate(rows, 1):
        if not _measured(r):
            flags.append(f"pass {i}: {r.get('status')}: {r.get('error')}")
            continue
        for rd in r["rounds"]:
            n = len(rounds) + 1
            samples += [
                {**s, "round": n} for s in r.get("samples") or () if s["round"] == rd["round"]
            ]
            rounds.append({**rd, "round": n})
        flags += [f for f in r.get("flags") or () if not f.startswith(ONE_ROUND)]
    ci = stats.rounds_ci(
        [x["median_ns"] for x in rounds],
        [x["ci_low_ns"] for x in rounds],
        [x["ci_high_ns"] for x in rounds],
    )
    first, scale = ok[0], ci.median / ok[0]["median_ns"]
    merged = {
        **first,
        "median_ns": ci.median,
        "ci_low_ns": ci.low,
        "ci_high_ns": ci.high,
        "precision": ci.precision,
        "ops_per_s": 1e9 / ci.median,
        "n_samples": sum(x["n_samples"] for x in rounds),
        "samples": samples,
        "rounds": rounds,
        "rounds_planned": len(rows) * (first.get("rounds_planned") or 1),
        "between_round_sd": ci.between,
        "flags": list(dict.fromkeys(flags)),
    }
    for k in ("throughput_mb_s", "cycles_per_byte"):
        if first.get(k) is not None:
            merged[k] = first[k] / scale if k == "throughput_mb_s" else first[k] * scale
    return merged


def merge(docs: list[dict], name: str) -> dict:
    """One results document from runs of one build: each case's passes merged in order."""
    by_key: dict[tuple, list[dict]] = {}
    for doc in docs:
        for r in doc["results"]:
            by_key.setdefault(case_key(r), []).append(r)
    first, last = docs[0], docs[-1]
    run = {
        **first["run"],
        "id": str(uuid.uuid4()),
        "name": name,
        "ended": last["run"].get("ended"),
        "command": f"ci_gate.py merge of {len(docs)} runs: {first['run'].get('command')}",
        "settings": {**(first["run"].get("settings") or {}), "rounds": len(docs)},
    }
    results = [merge_case(rows) for rows in by_key.values()]
    return {**first, "run": run, "results": results}


def passes(out: Path, side: str) -> list[Path]:
    found = sorted(out.glob(f"{side}-*.json"), key=lambda p: int(p.stem.split("-")[1]))
    if not found:
        sys.exit(f"ci_gate: no {side}-N.json in {out} (run `ci_gate.py measure` first)")
    return found


def gate(args) -> int:
    out = Path(args.out)
    merged = {}
    for side in SIDES:
        docs = [json.loads(p.read_text()) for p in passes(out, side)]
        merged[side] = out / f"{side}.json"
        merged[side].write_text(json.dumps(merge(docs, side), indent=2))
    compare = [sys.executable, "-m", "cryptobench", "compare", str(merged["base"])]
    compare += [str(merged["head"]), "--fail-above", str(args.fail_above)]
    code = subprocess.run(compare).returncode
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        md = subprocess.run([*compare, "--format", "markdown"], capture_output=True, text=True)
        with open(summary, "a", encoding="utf-8") as fh:
            fh.write(md.stdout)
    verdict = {0: "passed", 3: f"FAILED: a significant slowdown above {args.fail_above}%"}
    print(f"[ci-gate] {verdict.get(code, f'compare exited {code}')}", file=sys.stderr)
    return code


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="step", required=True)
    m = sub.add_parser("measure", help="base and head alternately, one round per pass")
    m.add_argument("base_dir")
    m.add_argument("head_dir")
    m.add_argument("out")
    m.add_argument("--preset", default="quick")
    m.add_argument("--passes", type=int, default=6, help="rounds per side (benchstat needs 6)")
    m.add_argument("--seed", type=int, default=None)
    m.add_argument("--dry-run", action="store_true", help="print the commands, run nothing")
    g = sub.add_parser("gate", help="merge each side's passes and compare them")
    g.add_argument("out")
    g.add_argument("--fail-above", type=float, default=5.0, help="percent (default 5)")
    cut = argv.index("--") if "--" in argv else len(argv)  # then more `cryptobench run` options
    args = parser.parse_args(argv[:cut])
    args.run_args = argv[cut + 1 :]
    return measure(args) if args.step == "measure" else gate(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
