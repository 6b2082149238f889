"""Protocol conformance of every runner under runners/ (docs/protocol.md).

Run against one runner: `pytest tests/test_conformance.py -k go`. A runner that is not built
or whose toolchain is missing is skipped with discovery's reason.
"""

from __future__ import annotations

import json
import re
import subprocess

import pytest

from cryptobench.catalog import primitives as catalog_mod
from cryptobench.runtimes.protocol import ERROR_KINDS, RemoteError, check_alloc, parse_hello
from cryptobench.runtimes.session import Runtime
from cryptobench.verify import vectors as vectors_mod
from cryptobench.verify.verifier import Verifier

from .conftest import NOT_APPLICABLE

CATALOG = catalog_mod.load()
LIB_RE = re.compile(r"^[a-z0-9][a-z0-9._-]*$")


def raw_exchange(spec, lines: list[str], timeout: float = 60) -> tuple[list[dict], int]:
    """Send raw lines, close stdin; every stdout line must be JSON. (answers, exit status)."""
    res = subprocess.run(
        spec.command,
        cwd=spec.folder,
        input="".join(lines),
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**__import__("os").environ, **spec.env},
    )
    return [json.loads(line) for line in res.stdout.splitlines() if line.strip()], res.returncode


def first_offer(hello: dict, family: tuple[str, ...] = ("hash", "checksum")):
    for impl in hello["implementations"]:
        for pid, offer in impl["primitives"].items():
            if pid in CATALOG and CATALOG.get(pid).family in family:
                return impl["library"], pid, offer
    return None


def test_hello_describes_runtime_and_implementations(runner):
    spec, _, hello = runner
    assert hello["protocol"] == 1
    assert hello["runtime"]["name"] and hello["runtime"]["version"]
    assert hello["implementations"], "a runner hosts at least one implementation"
    libs = [i["library"] for i in hello["implementations"]]
    assert len(libs) == len(set(libs)), "library ids are unique"
    for impl in hello["implementations"]:
        assert LIB_RE.match(impl["library"]), impl["library"]
        assert isinstance(impl["version"], str) and impl["version"]
        assert impl["backend"]["name"] and "version" in impl["backend"]
        for pid, offer in impl["primitives"].items():
            prim = CATALOG.get(pid)  # raises for an id the catalog does not know
            assert offer["operations"], f"{pid}: no operations"
            assert set(offer["operations"]) <= set(prim.operations), (pid, offer)
    parse_hello(spec.runtime_id, hello)  # the orchestrator accepts it


def test_noop_returns_input_length(runner):
    _, proc, hello = runner
    lib = hello["implementations"][0]["library"]
    out = proc.request(
        "compute",
        30,
        impl=lib,
        primitive="noop",
        operation="digest",
        inputs={"msg": "ab" * 1024},
        params={},
    )
    assert out["output"] == (1024).to_bytes(8, "big").hex()


def test_bench_returns_the_verified_output_and_raw_batches(runner):
    _, proc, hello = runner
    found = first_offer(hello)
    if not found:
        pytest.skip(f"{NOT_APPLICABLE} this runtime offers no hash or checksum")
    lib, pid, _ = found
    params = CATALOG.resolve_params(CATALOG.get(pid), {}, "digest")
    inputs = {"msg": "61" * 100}
    want = proc.request(
        "compute", 30, impl=lib, primitive=pid, operation="digest", inputs=inputs, params=params
    )["output"]
    got = proc.request(
        "bench",
        60,
        impl=lib,
        primitive=pid,
        operation="digest",
        inputs=inputs,
        params=params,
        iterations=7,
        batches=3,
    )
    assert got["output"] == want
    assert len(got["samples"]) == 3
    for s in got["samples"]:
        assert s["iterations"] == 7 and isinstance(s["ns"], int) and s["ns"] > 0


def test_aead_nonce_stepping_keeps_the_verified_call_on_the_sent_nonce(runner):
    _, proc, hello = runner
    found = first_offer(hello, ("aead",))
    if not found:
        pytest.skip(f"{NOT_APPLICABLE} this runtime offers no AEAD")
    lib, pid, offer = found
    prim = CATALOG.get(pid)
    params = CATALOG.resolve_params(
        prim, {"fresh_context": not offer.get("reuses_key", True)}, "seal"
    )
    inputs = {
        "key": "11" * prim.key_len,
        "nonce": "22" * prim.nonce_len,
        "aad": "",
        "msg": "33" * 64,
    }
    want = proc.request(
        "compute", 30, impl=lib, primitive=pid, operation="seal", inputs=inputs, params=params
    )["output"]
    got = proc.request(
        "bench",
        60,
        impl=lib,
        primitive=pid,
        operation="seal",
        inputs=inputs,
        params=params,
        iterations=5,
        batches=2,
    )
    assert got["output"] == want and len(want) == 2 * (64 + 16)


@pytest.mark.parametrize(
    ("request_line", "kind"),
    [
        ("this is not json\n", "bad_request"),
        ('{"id": 5, "op": "frobnicate"}\n', "bad_request"),
        (
            '{"id": 5, "op": "compute", "impl": "no-such-lib", "primitive": "sha256", '
            '"operation": "digest", "inputs": {"msg": ""}, "params": {}}\n',
            "unsupported",
        ),
        (
            '{"id": 5, "op": "compute", "impl": "%LIB%", "primitive": "no-such-primitive", '
            '"operation": "digest", "inputs": {"msg": ""}, "params": {}}\n',
            "unsupported",
        ),
        (
            '{"id": 5, "op": "compute", "impl": "%LIB%", "primitive": "noop", '
            '"operation": "digest", "inputs": {"msg": "zz"}, "params": {}}\n',
            "bad_request",
        ),
        (
            '{"id": 5, "op": "bench", "impl": "%LIB%", "primitive": "noop", '
            '"operation": "digest", "inputs": {"msg": "00"}, "params": {}, "iterations": 0, '
            '"batches": 1}\n',
            "bad_request",
        ),
    ],
)
def test_bad_requests_get_an_error_and_the_runner_keeps_serving(runner, request_line, kind):
    spec, _, hello = runner
    lib = hello["implementations"][0]["library"]
    answers, status = raw_exchange(
        spec, [request_line.replace("%LIB%", lib), '{"id": 6, "op": "hello"}\n']
    )
    assert status == 0, "a runner exits 0 on EOF"
    assert len(answers) == 2, answers
    err, after = answers
    assert err["ok"] is False and err["error"]["kind"] == kind, err
    assert err["error"]["kind"] in ERROR_KINDS
    assert err["id"] in (5, None)
    assert after["id"] == 6 and after["ok"] is True


def test_known_answers_of_every_offered_primitive(runner):
    """The verifier's known-answer checks (vectors, check values, forgeries) for this runner."""
    spec, proc, hello = runner
    rt = Runtime(spec)
    rt.info, rt.implementations = parse_hello(spec.runtime_id, hello)
    rt.process = proc
    verifier = Verifier(CATALOG, vectors_mod.load_all(CATALOG), [rt], timeout=120)
    failures = []
    for impl in rt.implementations:
        for pid, offer in impl.primitives.items():
            for op in offer.operations:
                try:
                    check = verifier.known_answers(impl, pid, op)
                except RemoteError as exc:
                    failures.append(f"{impl.id} {pid} {op}: {exc}")
                    continue
                if not check.ok:
                    failures.append(f"{impl.id} {pid} {op}: {check.detail}")
                elif check.vectors == 0 and op != "hash" and "not applicable" not in check.detail:
                    # "no known answer here" must mean there is none, not that none was run
                    prim = CATALOG.get(pid)
                    known = [v for v in verifier._vectors_for(prim, op) if not v.agreement_only]
                    if known:
                        failures.append(f"{impl.id} {pid} {op}: {len(known)} vectors, none run")
    assert not failures, "\n".join(failures)


# docs/protocol.md, "Generated messages": (seed, SHA-256 of 1 MiB, SHA-256 of 100 000 bytes)
GENERATED = [
    (0, "808c0757510a9eb9de711144541ad727b8542716772e2c2065ec8e36e8591592",
     "f21fc4e11ebc3ef6c089679bd11e9a79f342aa08099578727dad866328d33aab"),
    (1, "756f7d94c964641bdeb312b3ff4b360310286cd406a3335d0b631eafaa4c2530",
     "9ae8e81d16b747f1def645d56ceeae508a697de34f7659b5bceab90da08845ab"),
    (4294967295, "7de86f20afa4fc410cc4721378d8fa8819ade6d9e17dd3eeaa1d5e853b567d9c",
     "90f84d8fd4c9d7729bc0e6f8296cbe9c3eb45a5253d968c290204c79ff14223f"),
]  # fmt: skip


def _generated(seed: int, length: int) -> dict:
    return {"generator": "xorshift64", "seed": seed, "length": length}


def _sha256_offer(hello):
    for impl in hello["implementations"]:
        if "digest" in impl["primitives"].get("sha256", {}).get("operations", []):
            return impl["library"]
    return None


def test_generated_messages_expand_to_the_documented_bytes(runner):
    from cryptobench.runtimes.msggen import Generated

    _, proc, hello = runner
    assert "xorshift64" in hello.get("generators", []), "hello declares generators"
    lib = _sha256_offer(hello)
    for seed, mib, short in GENERATED if lib else ():
        for length, want in ((1 << 20, mib), (100000, short)):
            inputs = {"msg": _generated(seed, length)}
            got = proc.request(
                "compute", 60, impl=lib, primitive="sha256", operation="digest",
                inputs=inputs, params={},
            )  # fmt: skip
            assert got["output"] == want, (seed, length)
    found = first_offer(hello)
    if not found:
        return
    # any hash: the generated message gives what its bytes sent as hex give, in compute and bench
    flib, pid, _ = found
    params = CATALOG.resolve_params(CATALOG.get(pid), {}, "digest")
    msg = Generated(7, 70000)
    common = {"impl": flib, "primitive": pid, "operation": "digest", "params": params}
    want = proc.request("compute", 60, inputs={"msg": msg.hex()}, **common)["output"]
    assert proc.request("compute", 60, inputs={"msg": msg.wire()}, **common)["output"] == want
    bench = proc.request("bench", 60, inputs={"msg": msg.wire()}, iterations=2, batches=1, **common)
    assert bench["output"] == want


@pytest.mark.parametrize(
    "spec",
    [
        {"generator": "mt19937", "seed": 1, "length": 10},
        {"generator": "xorshift64", "seed": -1, "length": 10},
        {"generator": "xorshift64", "seed": 1 << 32, "length": 10},
        {"generator": "xorshift64", "seed": 1, "length": -1},
    ],
)
def test_a_bad_generator_object_is_a_bad_request(runner, spec):
    _, proc, hello = runner
    lib = hello["implementations"][0]["library"]
    with pytest.raises(RemoteError) as exc:
        proc.request(
            "compute", 30, impl=lib, primitive="noop", operation="digest",
            inputs={"msg": spec}, params={},
        )  # fmt: skip
    assert exc.value.kind == "bad_request"
    out = proc.request(
        "compute", 30, impl=lib, primitive="noop", operation="digest",
        inputs={"msg": _generated(3, 5)}, params={},
    )  # fmt: skip
    assert out["output"] == (5).to_bytes(8, "big").hex()


# docs/methodology.md, "Memory": the runtimes whose runner reads an allocation counter
ALLOC_RUNTIMES = {"go", "java", "python"}


def test_a_bench_answer_carries_alloc_bytes_exactly_where_the_runtime_offers_it(runner):
    spec, proc, hello = runner
    found = first_offer(hello)
    if not found:
        pytest.skip(f"{NOT_APPLICABLE} this runtime offers no hash or checksum")
    lib, pid, _ = found
    params = CATALOG.resolve_params(CATALOG.get(pid), {}, "digest")
    got = proc.request(
        "bench", 60, impl=lib, primitive=pid, operation="digest",
        inputs={"msg": "61" * 100}, params=params, iterations=3, batches=2,
    )  # fmt: skip
    reading = check_alloc(got)  # malformed: RunnerFailure
    if spec.runtime_id.split("@")[0] in ALLOC_RUNTIMES:
        assert reading is not None and reading["bytes"] >= 0 and reading["counter"]
    else:
        assert reading is None, "documented as not offered (docs/methodology.md, Memory)"
