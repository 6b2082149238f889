"""Runtimes start at once (session.start_all), and the output keeps the runners' order;
`compute` still starts only the runtime it needs. Through the CLI, with fake runners."""

from __future__ import annotations

import json
import sys

from .conftest import FAKE, cli


def slow_fakes(root, names, env=None):
    """Fake runtimes that each sleep 2 s before their hello (mode slow-start), plus one that
    exits at hello; the folder names set the discovery order."""
    env_toml = "".join(f'{k} = "{v}"\n' for k, v in (env or {}).items())
    for name, mode in names:
        folder = root / "runners" / name
        folder.mkdir(parents=True)
        (folder / "runner.toml").write_text(
            f'schema = 1\nruntime = "{name}"\nlanguage = "fake"\nstartup_timeout = 20\n'
            f'[run]\ncommand = ["{sys.executable}", "{FAKE}", "{mode}"]\n[run.env]\n{env_toml}'
        )
    return root / "runners"


NAMES = [("fake-a", "slow-start"), ("fake-b", "hello-exit"), ("fake-c", "slow-start"),
         ("fake-d", "slow-start")]  # fmt: skip


def test_list_starts_every_runtime_and_keeps_their_order(tmp_path):
    runners = slow_fakes(tmp_path, NAMES)
    proc = cli("list", "--format", "json", env={"CRYPTOBENCH_RUNNERS": str(runners)})
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert [r["id"] for r in doc["runtimes"]] == ["fake-a", "fake-c", "fake-d"]
    assert [i["id"] for i in doc["implementations"]] == [
        "fake-a/fakelib", "fake-c/fakelib", "fake-d/fakelib"]  # fmt: skip
    (skip,) = doc["skipped"]
    assert skip["runtime"] == "fake-b" and skip["reason"].startswith("failed at hello")


def test_the_list_table_keeps_the_order_too(tmp_path):
    runners = slow_fakes(tmp_path, NAMES)
    proc = cli("list", env={"CRYPTOBENCH_RUNNERS": str(runners), "COLUMNS": "200"})
    assert proc.returncode == 0, proc.stderr
    at = [proc.stdout.index(f"{n}/fakelib") for n in ("fake-a", "fake-c", "fake-d")]
    assert at == sorted(at) and "failed at hello" in proc.stdout


def test_compute_starts_only_its_runtime(tmp_path):
    starts = tmp_path / "starts"
    runners = slow_fakes(
        tmp_path, [("fake-a", "ok"), ("fake-c", "ok")], env={"FAKE_PID_FILE": str(starts)}
    )
    proc = cli(
        "compute", "--impl", "fake-c/fakelib", "--primitive", "sha256", "--operation", "digest",
        "--msg", "616263",
        env={"CRYPTOBENCH_RUNNERS": str(runners)},
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" in proc.stdout
    assert len(starts.read_text().split()) == 1  # one runner process started, not two
