"""hello's `only` (docs/protocol.md): a group's fresh process is told the one library it
serves, and the Python, Java and Node.js runners then load only that one (and another when a
request first names it). The orchestrator's side runs a fake runner that logs its hellos; the
runners' side runs the real runners (skipped with discovery's reason where they cannot run)."""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import subprocess
import sys
import textwrap

import pytest

from cryptobench.catalog import primitives as catalog
from cryptobench.measure import parallel, sampling
from cryptobench.measure.case import Prepared, noop_cases
from cryptobench.measure.rounds import Rounds
from cryptobench.plan.cases import Case
from cryptobench.results import document
from cryptobench.runtimes import session
from cryptobench.runtimes.discovery import RuntimeSpec, discover
from cryptobench.runtimes.session import Runtime

from .conftest import MemoryStore

SHA256_ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

# A runner hosting libraries "a" and "b" (both sha256 through hashlib): it logs every hello
# it gets (and the CPUs it may run on), and lists only the libraries a brief hello's `only`
# names.
FAKE = textwrap.dedent(
    """
    import hashlib, json, os, sys
    LOG, LIBS = sys.argv[1], ["a", "b"]
    for line in sys.stdin:
        req = json.loads(line)
        if req["op"] == "hello":
            with open(LOG, "a") as fh:  # with the CPUs this process may run on
                fh.write(json.dumps({**req, "cpus": sorted(os.sched_getaffinity(0))}) + "\\n")
            names = req.get("only") if req.get("brief") and "only" in req else LIBS
            impls = [{"library": n, "version": "1", "backend": {"name": n, "version": "1"},
                      "primitives": {"sha256": {"operations": ["digest"]}}} for n in names]
            res = {"protocol": 1, "runtime": {"name": "fake", "version": "1"},
                   "implementations": impls}
        else:
            msg = bytes.fromhex(req["inputs"]["msg"])
            if req["primitive"] == "noop":
                out = len(msg).to_bytes(8, "big").hex()
            else:
                out = hashlib.sha256(msg).hexdigest()
            n = req.get("iterations", 1)
            res = {"output": out,
                   "samples": [{"iterations": n, "ns": 100 * n}] * req.get("batches", 1)}
        print(json.dumps({"id": req["id"], "ok": True, "result": res}), flush=True)
    """
)


@pytest.fixture
def fake(tmp_path):
    """A started Runtime over the fake runner, and its hello log's path."""
    (tmp_path / "fake.py").write_text(FAKE)
    log = tmp_path / "hellos.jsonl"
    spec = RuntimeSpec(
        "fake", "fake", None, "fake", tmp_path, [sys.executable, "fake.py", str(log)]
    )
    rt = Runtime(spec)
    rt.start()
    assert rt.failed is None, rt.failed
    return rt, log


def _hellos(log) -> list[dict]:
    return [json.loads(line) for line in log.read_text().splitlines()]


def _prepared(rt: Runtime) -> list[Prepared]:
    prim = catalog.load().get("sha256")
    out = []
    cases = [Case(impl, prim, "digest", n, {}) for impl in rt.implementations for n in (16, 64)]
    for seq, case in enumerate(noop_cases(cases) + cases):
        msg = "00" * case.size
        want = case.size.to_bytes(8, "big").hex() if case.prim.id == "noop" else None
        expected = want or hashlib.sha256(bytes(case.size)).hexdigest()
        out.append(Prepared(seq, case, {"msg": msg}, expected, "fake"))
    return out


def test_each_group_process_is_told_the_one_library_it_serves(fake):
    rt, log = fake
    prepared = _prepared(rt)
    store = MemoryStore()
    run = {"id": "r", "seed": 3, "probes": [], "machine": {}}
    policy = sampling.Policy(budget_s=0.05)
    Rounds({rt.key: rt}, None, store, run, policy, rounds=2).measure(prepared)
    assert all(row["status"] == "ok" for row in store.rows.values()), store.rows
    first, *groups = _hellos(log)
    assert "brief" not in first and "only" not in first  # the runtime's description: full
    # two rounds of three groups (noop, a/sha256, b/sha256), each a fresh process
    assert len(groups) == 6
    assert all(h.get("brief") is True for h in groups)
    assert sorted(tuple(h["only"]) for h in groups) == sorted([(), ("a",), ("b",)] * 2)
    assert rt.only is None  # after the rounds: the next process serves every library


def test_a_brief_hello_with_only_may_list_those_alone_but_not_fewer(fake):
    rt, log = fake
    rt.stop(only=("b",))
    assert rt.request("compute", 10, impl="b", primitive="sha256", operation="digest",
                      inputs={"msg": "616263"}, params={})["output"] == SHA256_ABC  # fmt: skip
    assert _hellos(log)[-1]["only"] == ["b"] and rt.failed is None
    rt._same_implementations(["b"])  # accepted: a subset holding the asked one
    for declared in ([], ["a"], ["b", "c"]):
        with pytest.raises(ValueError, match="other implementations"):
            rt._same_implementations(declared)
    rt.stop()
    with pytest.raises(ValueError, match="other implementations"):
        rt._same_implementations(["b"])  # without `only`: every library, as the first listed
    rt.stop()


def test_parallel_workers_are_told_the_one_library_they_serve(fake):
    """--parallel's fresh processes start as a round's group process does (measure/parallel)."""
    rt, log = fake
    p = next(x for x in _prepared(rt) if x.case.impl.library == "b")
    plan = parallel.Plan(iterations=2, warmup_batches=1, batches=3, timeout=30.0)
    cpus = parallel.cpus_for("all")[:2]
    samples, _ = parallel.one_round(rt, cpus, p, plan)
    assert [len(w) for w in samples] == [3] * len(cpus)
    _, *workers = _hellos(log)
    assert [(h.get("brief"), h.get("only")) for h in workers] == [(True, ["b"])] * len(cpus)


def _spec(runtime: str) -> RuntimeSpec:
    spec = next((s for s in discover() if s.runtime_id == runtime), None)
    if spec is None or spec.skipped:
        pytest.skip(f"{runtime}: {spec.skipped if spec else 'no runner folder'}")
    return spec


def _session(spec, argv: list[str], hello: dict, requests: list[dict], env=None):
    lines = [json.dumps({"id": 1, "op": "hello", **hello})]
    lines += [json.dumps({"id": i, **r}) for i, r in enumerate(requests, 2)]
    res = subprocess.run(
        argv, cwd=spec.folder, input="\n".join(lines) + "\n", capture_output=True, text=True,
        timeout=120, env={**os.environ, **spec.env, **(env or {})},
    )  # fmt: skip
    answers = [json.loads(line) for line in res.stdout.splitlines() if line.strip()]
    assert res.returncode == 0 and len(answers) == len(lines), res.stderr[-2000:]
    return answers, res.stderr


def _compute(impl: str) -> dict:
    return {"op": "compute", "impl": impl, "primitive": "sha256", "operation": "digest",
            "inputs": {"msg": "616263"}, "params": {}}  # fmt: skip


def _python_modules(stderr: str) -> set[str]:
    """The modules -X importtime (PYTHONPROFILEIMPORTTIME) saw imported: a lib_*.py file is
    not among them (importlib.import_module is not timed), the packages it imports are."""
    return {
        line.rsplit("|", 1)[1].strip()
        for line in stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    }


def test_python_runner_told_only_hashlib_imports_no_other_library():
    spec = _spec("python")
    env = {"PYTHONPROFILEIMPORTTIME": "1"}
    full, err = _session(spec, spec.command, {}, [], env)
    libs = [i["library"] for i in full[0]["result"]["implementations"]]
    if not {"hashlib", "pycryptodome"} <= set(libs):
        pytest.skip(f"python runner lacks hashlib or pycryptodome here (has {libs})")
    assert "Crypto" in _python_modules(err)  # a full hello imports every library
    brief = {"brief": True, "only": ["hashlib"]}
    got, err = _session(spec, spec.command, brief, [_compute("hashlib")], env)
    assert [i["library"] for i in got[0]["result"]["implementations"]] == ["hashlib"]
    assert got[1]["result"]["output"] == SHA256_ABC
    modules = _python_modules(err)
    assert not {m for m in modules if m.split(".")[0] in ("Crypto", "cryptography", "nacl")}
    # another library still answers when asked (verification may), imported then
    got, err = _session(spec, spec.command, brief, [_compute("pycryptodome")], env)
    assert got[1]["result"]["output"] == SHA256_ABC
    assert "Crypto" in _python_modules(err)


def _java_classes(stdout: str) -> list[str]:
    """The classes -verbose:class saw loaded (its lines share stdout with the answers)."""
    return [line for line in stdout.splitlines() if "class,load" in line]


def test_java_runner_told_only_jdk_loads_no_other_provider():
    spec = _spec("java")
    jar = spec.command.index("-jar")
    argv = [*spec.command[:jar], "-verbose:class", *spec.command[jar:]]

    def session(hello: dict, impl: str) -> tuple[dict, list[str]]:
        lines = [
            json.dumps({"id": 1, "op": "hello", **hello}),
            json.dumps({"id": 2, **_compute(impl)}),
        ]
        res = subprocess.run(
            argv, cwd=spec.folder, input="\n".join(lines) + "\n", capture_output=True,
            text=True, timeout=120, env={**os.environ, **spec.env},
        )  # fmt: skip
        answers = [json.loads(x) for x in res.stdout.splitlines() if x.startswith("{")]
        assert res.returncode == 0 and len(answers) == 2, res.stderr[-2000:]
        assert answers[1]["result"]["output"] == SHA256_ABC
        return answers[0]["result"], _java_classes(res.stdout)

    full, classes = session({"brief": True}, "jdk")
    if "conscrypt" not in [i["library"] for i in full["implementations"]]:
        pytest.skip("java runner lists no conscrypt here")
    if not any("org.conscrypt." in c for c in classes):
        pytest.skip("-verbose:class names no class on this JVM")
    only, classes = session({"brief": True, "only": ["jdk"]}, "jdk")
    assert [i["library"] for i in only["implementations"]] == ["jdk"]
    assert not [c for c in classes if "org.conscrypt." in c]
    # ACCP's provider class is loaded (not initialised) for the bytecode verifier; none other
    accp = [c for c in classes if "corretto.crypto.provider." in c]
    assert not [c for c in accp if "provider.AmazonCorrettoCryptoProvider " not in c]
    _, classes = session({"brief": True, "only": ["jdk"]}, "conscrypt")  # loaded when asked
    assert any("org.conscrypt." in c for c in classes)


def _node_modules(stderr: str) -> set[str]:
    """The modules NODE_DEBUG=esm saw Node translate (each ES or CommonJS module it loaded)."""
    return set(re.findall(r"Translating \w+ (file://\S+)", stderr))


def _noop() -> dict:
    return {"op": "compute", "primitive": "noop", "operation": "digest",
            "inputs": {"msg": "616263"}, "params": {}}  # fmt: skip


def test_node_runner_told_only_crypto_loads_no_other_library():
    spec = _spec("node")
    env = {"NODE_DEBUG": "esm"}
    full, err = _session(spec, spec.command, {}, [], env)
    libs = {i["library"]: i for i in full[0]["result"]["implementations"]}
    if not libs.get("noble", {}).get("primitives", {}).get("sha256"):
        pytest.skip(f"node runner offers no noble sha256 here (has {sorted(libs)})")
    if not _node_modules(err):
        pytest.skip("NODE_DEBUG=esm names no module on this Node")
    assert any(m.endswith("/lib_noble.js") for m in _node_modules(err))  # a full hello: all
    brief = {"brief": True, "only": ["crypto"]}
    got, err = _session(spec, spec.command, brief, [_compute("crypto")], env)
    assert [i["library"] for i in got[0]["result"]["implementations"]] == ["crypto"]
    assert got[1]["result"]["output"] == SHA256_ABC
    modules = _node_modules(err)
    libraries = {m.rsplit("/", 1)[1] for m in modules if "/lib_" in m}
    assert libraries == {"lib_crypto.js", "lib_crypto_pubkey.js"}
    assert not [m for m in modules if "/node_modules/" in m]  # no package of another library
    # another library still answers when asked (verification may), loaded then
    got, err = _session(spec, spec.command, brief, [_compute("noble")], env)
    assert got[1]["result"]["output"] == SHA256_ABC
    assert any(m.endswith("/lib_noble.js") for m in _node_modules(err))
    # a noop group's process: no library at all
    got, err = _session(spec, spec.command, {"brief": True, "only": []}, [_noop()], env)
    assert got[0]["result"]["implementations"] == []
    assert got[1]["result"]["output"] == (3).to_bytes(8, "big").hex()
    assert not [m for m in _node_modules(err) if "/lib_" in m]


def test_every_node_runner_process_keeps_v8_s_initial_young_generation():
    # V8 grew a process's new space 4 -> 32 MB while it ran, and an allocating call's speed
    # with it (docs/methodology.md, "One young generation"): the runner's own command bounds it,
    # and its hello says so (results carry runtime.details)
    spec = _spec("node")
    got, _ = _session(spec, spec.command, {"brief": True, "only": ["crypto"]}, [])
    assert got[0]["result"]["runtime"]["details"]["exec_argv"] == "--max-semi-space-size=1"


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="one CPU here: nothing to pin")
def test_a_group_whose_calls_wait_on_a_thread_pool_runs_on_one_cpu(fake, monkeypatch):
    """runner.toml [run.one_cpu] (docs/methodology.md, "Calls that wait on a thread pool"):
    the groups of a library it names run with every thread on one CPU, the last usable one;
    every other process (the other library's groups, noop, the first full hello) on all."""
    rt, log = fake
    rt.spec.one_cpu = {"a": "awaits a pool"}
    store, run = MemoryStore(), {"id": "r", "seed": 3, "probes": [], "machine": {}}
    Rounds({rt.key: rt}, None, store, run, sampling.Policy(budget_s=0.05), rounds=1).measure(
        _prepared(rt)
    )
    assert all(row["status"] == "ok" for row in store.rows.values()), store.rows
    every = sorted(os.sched_getaffinity(0))
    first, *groups = _hellos(log)
    assert first["cpus"] == every
    cpus = {tuple(h["only"]): h["cpus"] for h in groups}
    assert cpus == {("a",): [every[-1]], ("b",): every, (): every}
    assert rt.one_cpu_why("a") == "awaits a pool" and rt.one_cpu_why("b") is None
    listed = document.start("run", None, 3, {}, {}, None, [rt], [])["implementations"]
    assert {i["library"]: i.get("one_cpu") for i in listed} == {"a": "awaits a pool", "b": None}
    rt.cpu = every[0]  # --pin puts every runner on one CPU already: nothing to say per library
    assert rt.one_cpu_why("a") is None
    rt.cpu = None
    monkeypatch.setattr(session.shutil, "which", lambda name: None)  # no taskset: not pinned
    # read once a process: a fresh one, for this test only
    monkeypatch.setattr(session, "_spare_cpu", functools.cache(session._spare_cpu.__wrapped__))
    assert rt.one_cpu_why("a") is None


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="one CPU here: nothing to pin")
def test_a_runtime_whose_one_cpu_names_every_library_runs_every_process_on_one_cpu(fake):
    """runner.toml [run.one_cpu] "*" (docs/methodology.md, "Helper threads on the other
    vCPU"): every process of the runtime, each library's groups and noop's, runs with every
    thread on the last usable CPU; a library named on its own keeps its own reason."""
    rt, log = fake
    rt.spec.one_cpu = {"*": "helpers on the other vCPU", "a": "awaits a pool"}
    store, run = MemoryStore(), {"id": "r", "seed": 3, "probes": [], "machine": {}}
    Rounds({rt.key: rt}, None, store, run, sampling.Policy(budget_s=0.05), rounds=1).measure(
        _prepared(rt)
    )
    assert all(row["status"] == "ok" for row in store.rows.values()), store.rows
    last = sorted(os.sched_getaffinity(0))[-1]
    cpus = {tuple(h["only"]): h["cpus"] for h in _hellos(log)[1:]}
    assert cpus == {("a",): [last], ("b",): [last], (): [last]}
    assert rt.one_cpu_why("a") == "awaits a pool"
    assert rt.one_cpu_why("b") == "helpers on the other vCPU"


def test_runner_toml_names_the_libraries_that_run_on_one_cpu(tmp_path):
    from cryptobench.runtimes import discovery

    node = {s.runtime_id: s for s in discovery.discover()}["node"]
    # every process: V8's helper threads; and why each of these two would be on its own
    assert set(node.one_cpu) == {"*", "webcrypto", "argon2"}
    for bad in ("one_cpu = 1", "one_cpu = { a = 1 }", 'one_cpu = { a = "" }'):
        (tmp_path / "runner.toml").write_text(
            f'schema = 1\nruntime = "x"\n[run]\ncommand = ["bin/x"]\n{bad}\n'
        )
        with pytest.raises(discovery.RunnerTomlError, match="run.one_cpu"):
            discovery.load_toml(tmp_path)
