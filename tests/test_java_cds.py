"""The Java runner's AppCDS archives (runners/java/Makefile) serve the jar they sit beside:
the runner's own command, as runner.toml starts it, loads its classes from the archive. An
archive the JVM cannot use (a jar copied without its time, a JVM other than the one that
wrote it) is ignored without a word, and every fresh JVM of a run would start slower."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from cryptobench.runtimes.discovery import discover


@pytest.mark.parametrize("runtime", ["java", "java@25"])
def test_the_runner_loads_its_classes_from_the_archive_it_was_built_with(runtime):
    spec = next((s for s in discover() if s.runtime_id == runtime), None)
    if spec is None or spec.skipped:
        pytest.skip(f"{runtime}: {spec.skipped if spec else 'no runner folder'}")
    jar = spec.command.index("-jar")
    argv = [*spec.command[:jar], "-Xlog:class+load=info", *spec.command[jar:]]
    hello = json.dumps({"id": 1, "op": "hello", "brief": True}) + "\n"
    res = subprocess.run(
        argv, cwd=spec.folder, input=hello, capture_output=True, text=True, timeout=120,
        env={**os.environ, **spec.env},
    )  # fmt: skip
    assert res.returncode == 0, res.stderr[-2000:]
    main = [ln for ln in res.stdout.splitlines() if "dev.cryptobench.runner.Main " in ln]
    assert main and "source: shared objects file" in main[0], main or res.stdout[-2000:]
