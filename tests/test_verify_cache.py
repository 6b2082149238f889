"""The cache of verified answers (verify/cache.py, measure/verified.py): a second run
re-verifies nothing that did not change, and anything that could change an answer
invalidates it. Fake runners (tests/fakes) keep it fast."""

from __future__ import annotations

import json
import os
from pathlib import Path

from cryptobench.runtimes.discovery import RuntimeSpec
from cryptobench.runtimes.protocol import Implementation, Offer
from cryptobench.runtimes.session import Runtime
from cryptobench.verify.cache import Cache, Fingerprints

FAST = ["--primitive", "sha256", "--size", "64", "--time-per-case", "0.05", "--rounds", "1"]


def _rows(proc) -> dict:
    doc = json.loads(proc.stdout)
    return {r["implementation"]: r for r in doc["results"] if r["family"] != "noop"}


def test_a_second_run_takes_verification_from_the_cache(fakes, run_cli):
    fakes("ok", "fixed")
    first = run_cli("run", *FAST, "--format", "json")
    assert first.returncode == 0, first.stderr
    assert "verification: 0 taken from the cache" in first.stderr
    second = run_cli("run", *FAST, "--format", "json")
    assert second.returncode == 0, second.stderr
    assert "verification: 4 taken from the cache" in second.stderr, second.stderr
    assert "0 checked" in second.stderr
    row = _rows(second)["fake-ok/fakelib"]
    assert row["status"] == "ok" and "cached" in row["verification"]
    again = run_cli("run", *FAST, "--reverify", "--format", "json")
    assert "the cache was not read" in again.stderr
    assert "cached" not in _rows(again)["fake-ok/fakelib"]["verification"]


def test_a_failed_verification_is_never_kept(fakes, run_cli):
    fakes("wrong")
    for taken, checked in ((0, 2), (1, 1)):  # the noop is kept; the wrong digest never
        proc = run_cli("run", *FAST, "--format", "json")
        assert proc.returncode == 1
        assert _rows(proc)["fake-wrong/fakelib"]["status"] == "failed"
        assert f"{taken} taken from the cache" in proc.stderr
        assert f"{checked} checked" in proc.stderr


def _runtime(folder: Path, version: str, backend: str = "1.0") -> Runtime:
    spec = RuntimeSpec("fake", "fake", None, "fake", folder, command=["runner.py"])
    impl = Implementation(
        "fake/lib",
        "fake",
        "lib",
        version,
        {"name": "x", "version": backend},
        {"sha256": Offer(("digest",))},
    )
    return Runtime(spec, info={"version": "1"}, implementations=[impl])


def test_the_key_changes_with_anything_that_can_change_an_answer(tmp_path):
    (tmp_path / "runner.py").write_text("print('v1')\n")
    key = Fingerprints.of([_runtime(tmp_path, "1.0")]).key("fake/lib", "sha256", ["digest"])
    assert key == Fingerprints.of([_runtime(tmp_path, "1.0")]).key("fake/lib", "sha256", ["digest"])
    changed = [
        Fingerprints.of([_runtime(tmp_path, "1.1")]),  # the library's version
        Fingerprints.of([_runtime(tmp_path, "1.0", backend="1.1")]),  # its backend's
    ]
    (tmp_path / "runner.py").write_text("print('v2')\n")  # the runner's source
    changed.append(Fingerprints.of([_runtime(tmp_path, "1.0")]))
    other = _runtime(tmp_path, "1.0")
    other.features_off = ("sha",)  # a --cpu-features set
    changed.append(Fingerprints.of([other]))
    keys = {fp.key("fake/lib", "sha256", ["digest"]) for fp in changed}
    assert key not in keys and len(keys) == len(changed)


def _built(folder: Path, source: str, binary: bytes) -> Runtime:
    """A compiled runner: its source and its build output under bin/ (and a build log)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "runner.c").write_text(source)
    (folder / ".build.log").write_text(f"built at {folder}\n")
    (folder / "bin").mkdir(exist_ok=True)
    (folder / "bin" / "runner").write_bytes(binary)
    command = [str(folder / "bin" / "runner")]  # as discovery resolves it: absolute
    spec = RuntimeSpec("fake", "fake", None, "fake", folder, command=command)
    impl = Implementation("fake/lib", "fake", "lib", "1.0", {}, {"sha256": Offer(("digest",))})
    return Runtime(spec, info={"version": "1"}, implementations=[impl])


def _key(rt: Runtime) -> str:
    return Fingerprints.of([rt]).key("fake/lib", "sha256", ["digest"])


def test_a_fresh_clone_built_from_the_same_sources_takes_the_same_answers(tmp_path):
    # another directory, another build (its paths, its time), the same sources and versions
    one = _built(tmp_path / "one" / "runners" / "c", "int main;\n", b"built in one")
    two = _built(tmp_path / "two" / "runners" / "c", "int main;\n", b"built in two")
    assert _key(one) == _key(two)
    three = _built(tmp_path / "three" / "runners" / "c", "int main(void);\n", b"built in two")
    assert _key(three) != _key(one)  # the sources changed


def test_an_answer_verified_on_a_stale_build_is_not_taken_for_the_rebuilt_one(tmp_path):
    rt = _built(tmp_path / "c", "int main;\n", b"old build")
    src, binary = tmp_path / "c" / "runner.c", tmp_path / "c" / "bin" / "runner"
    src.write_text("int main(void);\n")  # edited, not rebuilt: the binary is older
    os.utime(binary, ns=(src.stat().st_mtime_ns - 10**9,) * 2)
    stale = _key(rt)
    binary.write_bytes(b"new build")  # rebuilt: newer than its sources again
    os.utime(binary, ns=(src.stat().st_mtime_ns + 10**9,) * 2)
    assert _key(rt) != stale


def test_a_peer_that_changed_invalidates_agreement(tmp_path):
    (tmp_path / "runner.py").write_text("")
    me = _runtime(tmp_path, "1.0")
    peer_dir = tmp_path / "peer"
    peer_dir.mkdir()
    peer = _runtime(peer_dir, "2.0")
    peer.implementations[0].id = "peer/lib"
    before = Fingerprints.of([me, peer]).key("fake/lib", "sha256", ["digest"])
    peer.implementations[0].version = "2.1"
    assert Fingerprints.of([me, peer]).key("fake/lib", "sha256", ["digest"]) != before


def test_a_damaged_cache_file_is_started_afresh(tmp_path):
    path = tmp_path / "verified.sqlite"
    path.write_bytes(b"not a database" * 100)
    cache = Cache(path)
    assert cache.get("k") is None
    cache.put("k", {"expected": "00"})
    assert Cache(path).get("k") == {"expected": "00"}
