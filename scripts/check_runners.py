#!/usr/bin/env python3
"""Run each runner's [setup] check command (formatter/linter in check mode) — `make test`.

A runner whose toolchain is missing is skipped with a one-line reason.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    failed = []
    for path in sorted((ROOT / "runners").glob("*/runner.toml")):
        with open(path, "rb") as fh:
            toml = tomllib.load(fh)
        cmd = toml.get("setup", {}).get("check")
        name = path.parent.name
        if not cmd:
            continue
        missing = [t for t in toml.get("requires", []) if "/" not in t and not shutil.which(t)]
        if missing:
            print(f"[check] runners/{name}: skipped ({', '.join(missing)} not found)")
            continue
        res = subprocess.run(cmd, cwd=path.parent, capture_output=True, text=True)
        if res.returncode == 0:
            print(f"[check] runners/{name}: ok")
        else:
            failed.append(name)
            print(f"[check] runners/{name}: FAILED ({' '.join(cmd)})\n{res.stdout}{res.stderr}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
