"""bench/vs-criterion's anchor times the runner's code: every criterion benchmark the script
names is in bench/criterion/benches/fidelity.rs, and bench/criterion's Cargo.lock holds the
rust runner's version of every crate it times (ring, aes-gcm, ml-kem and every crate under
them), so neither side builds another release of the code it times. Nothing is timed."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from tests.conftest import load_script

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "bench" / "vs-criterion"


@pytest.fixture(scope="module")
def vscrit():
    return load_script(SCRIPT, "bench_vs_criterion")


TIMED = ("ring", "aes-gcm", "ml-kem")  # the crates benches/fidelity.rs calls


def packages(lock: Path) -> dict[str, list[dict]]:
    found: dict[str, list[dict]] = {}
    for package in tomllib.loads(lock.read_text())["package"]:
        found.setdefault(package["name"], []).append(package)
    return found


def timed_versions(lock: Path) -> dict[str, set[str]]:
    """{crate: versions} of TIMED and every crate under them in a Cargo.lock."""
    by_name, found = packages(lock), {}
    todo = [(name, None) for name in TIMED]
    while todo:
        name, version = todo.pop()
        for package in by_name[name]:
            if version in (None, package["version"]) and package["version"] not in found.get(
                name, ()
            ):
                found.setdefault(name, set()).add(package["version"])
                # a dependency is "name" or, where two versions are locked, "name version"
                todo += [
                    tuple(d.split(" ")[:2]) if " " in d else (d, None)
                    for d in package.get("dependencies", [])
                ]
    return found


def test_every_case_names_a_benchmark_of_the_criterion_crate(vscrit):
    source = (ROOT / "bench" / "criterion" / "benches" / "fidelity.rs").read_text()
    assert {"rust/rustcrypto ml-kem-768 encaps", "rust/ring sha256 digest 1024 B"} <= set(
        vscrit.CASES
    )
    for bench_id, *_ in vscrit.CASES.values():
        assert f'"{bench_id}"' in source or f'"{bench_id.rsplit("-", 1)[0]}-{{' in source


def test_the_criterion_crate_locks_the_runners_versions_of_what_it_times():
    runner = packages(ROOT / "runners" / "rust" / "Cargo.lock")
    anchor = timed_versions(ROOT / "bench" / "criterion" / "Cargo.lock")
    assert {"ml-kem", "sha3", "keccak", "module-lattice", "aes"} <= set(anchor)
    have = {name: {p["version"] for p in runner.get(name, [])} for name in anchor}
    assert {n: (v, have[n]) for n, v in anchor.items() if not v <= have[n]} == {}


def test_the_table_uses_the_modes_target(vscrit):
    crit = {"rust/rustcrypto ml-kem-768 decaps": [100.0, 100.0, 100.0]}
    cb = {"rust/rustcrypto ml-kem-768 decaps": [104.0, 96.0, None]}
    text = vscrit.table(crit, cb, 0.05)
    assert "| within 5% |" in text
    assert "| 100.0 | 100.0 | 1.000 | 0.960-1.040 | yes |" in text
    assert "| no |" in vscrit.table(crit, {k: [104.0] * 3 for k in cb}, 0.03)
