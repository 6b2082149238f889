"""One meaning for `aad` in every runner (docs/protocol.md, "One meaning for aad"), pinned with
Project Wycheproof known answers (vectors/wycheproof): the AAD sent is the AAD, `aad_len` is
optional and never changes the answer; empty AAD, long AAD and empty messages included.

Run against one runner: `pytest tests/test_conformance_aead.py -k go`.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from cryptobench.catalog import primitives as catalog_mod
from cryptobench.runtimes import declared_sizes as sizes
from cryptobench.runtimes.protocol import RemoteError, RunnerProcess, parse_hello
from cryptobench.verify import wycheproof

from .conftest import NOT_APPLICABLE, SPECS

CATALOG = catalog_mod.load()
CASES = wycheproof.load()


def aead_offers(runner):
    """(library, primitive, offer, fresh_context) for every AEAD the runner hosts."""
    spec, _, hello = runner
    _, impls = parse_hello(spec.runtime_id, hello)
    found = [
        (i.library, pid, offer, not offer.reuses_key)
        for i in impls
        for pid, offer in sorted(i.primitives.items())
        if pid in CATALOG and CATALOG.get(pid).family == "aead" and pid in CASES
    ]
    if not found:
        pytest.skip(f"{NOT_APPLICABLE} this runtime offers no AEAD with Wycheproof vectors")
    return found


def pick(pid: str, offer, want) -> wycheproof.Case:
    """The first valid vector of ``pid`` with the catalog's sizes that satisfies ``want``."""
    prim = CATALOG.get(pid)
    for case in CASES[pid]:
        fits = case.result == "valid" and not sizes.unsupported(prim, offer, case.sizes)
        if fits and case.sizes["nonce"] == prim.nonce_len and want(case):
            return case
    raise AssertionError(f"no Wycheproof vector for {pid} fits the test")


def call(proc, lib, pid, op, inputs, fresh, **params):
    return proc.request(
        "compute",
        60,
        impl=lib,
        primitive=pid,
        operation=op,
        inputs=inputs,
        params={"fresh_context": fresh, **params},
    )["output"]


def longest_aad(case: wycheproof.Case) -> bool:
    longest = max(len(c.inputs["aad"]) for c in CASES[case.primitive] if c.result == "valid")
    return len(case.inputs["aad"]) == longest


CHOICES = {
    "aad without aad_len": (lambda c: len(c.inputs["aad"]) >= 8 and c.inputs["msg"], {}),
    "aad with a disagreeing aad_len": (lambda c: len(c.inputs["aad"]) >= 8, {"aad_len": 0}),
    "aad with its own aad_len": (lambda c: c.inputs["aad"], "own"),
    "empty aad": (lambda c: not c.inputs["aad"] and c.inputs["msg"], {"aad_len": 0}),
    "long aad": (longest_aad, {}),
    "empty message": (lambda c: not c.inputs["msg"], {}),
}


@pytest.mark.parametrize("what", sorted(CHOICES))
def test_aad_means_the_aad_sent(runner, what):
    """seal and open give Wycheproof's answer however aad_len is sent (or not)."""
    _, proc, _ = runner
    want, params = CHOICES[what]
    failures = []
    for lib, pid, offer, fresh in aead_offers(runner):
        case = pick(pid, offer, want)
        extra = {"aad_len": len(case.inputs["aad"]) // 2} if params == "own" else params
        sealed = case.expected
        try:
            got = call(proc, lib, pid, "seal", case.inputs, fresh, **extra)
            if got != sealed:
                failures.append(f"{lib} {pid} seal {case.where}: {got[-32:]} != {sealed[-32:]}")
            opened = call(proc, lib, pid, "open", dict(case.inputs, msg=sealed), fresh, **extra)
            if opened != case.inputs["msg"]:
                failures.append(f"{lib} {pid} open {case.where}: wrong plaintext")
        except RemoteError as exc:
            failures.append(f"{lib} {pid} {case.where} ({what}): {exc.kind}: {exc.message}")
    assert not failures, "\n".join(failures)


def test_absent_aad_is_empty_aad(runner):
    _, proc, _ = runner
    failures = []
    for lib, pid, offer, fresh in aead_offers(runner):
        case = pick(pid, offer, lambda c: not c.inputs["aad"])
        inputs = {k: v for k, v in case.inputs.items() if k != "aad"}
        try:
            got = call(proc, lib, pid, "seal", inputs, fresh)
        except RemoteError as exc:
            failures.append(f"{lib} {pid}: {exc.kind}: {exc.message}")
            continue
        if got != case.expected:
            failures.append(f"{lib} {pid} {case.where}: {got[-32:]} != {case.expected[-32:]}")
    assert not failures, "\n".join(failures)


def test_a_1_kib_aad_is_authenticated_whole(runner):
    """1 KiB of AAD (longer than any Wycheproof vector): opens, and a flipped last byte of
    the AAD is refused, so every byte sent was authenticated."""
    _, proc, _ = runner
    failures = []
    for lib, pid, _offer, fresh in aead_offers(runner):
        prim = CATALOG.get(pid)
        aad = bytes(range(256)).hex() * 4
        inputs = {"key": "42" * prim.key_len, "nonce": "24" * prim.nonce_len, "msg": "61" * 100}
        sealed = call(proc, lib, pid, "seal", dict(inputs, aad=aad), fresh)
        back = call(proc, lib, pid, "open", dict(inputs, aad=aad, msg=sealed), fresh)
        if back != inputs["msg"]:
            failures.append(f"{lib} {pid}: open did not give the message back")
        flipped = aad[:-2] + "00"
        try:
            call(proc, lib, pid, "open", dict(inputs, aad=flipped, msg=sealed), fresh)
            failures.append(f"{lib} {pid}: open accepted a changed last AAD byte")
        except RemoteError as exc:
            if exc.kind != "auth_failed":
                failures.append(f"{lib} {pid}: {exc.kind} instead of auth_failed")
    assert not failures, "\n".join(failures)


def _compute(*args) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "cryptobench", "compute", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_compute_aad_gives_the_same_answer_in_every_runtime():
    """`compute --aad` with no aad_len: Wycheproof's answer from the first AES-128-GCM
    implementation of every built runtime (the issue's 4-byte-AAD report, pinned)."""
    case = next(
        c
        for c in CASES["aes-128-gcm"]
        if c.result == "valid" and c.sizes["nonce"] == 12 and c.inputs["aad"] and c.inputs["msg"]
    )
    checked, wrong = [], []
    for rid, spec in sorted(SPECS.items()):
        if spec.skipped:
            continue
        proc = RunnerProcess(spec.command, str(spec.folder), spec.env, rid)
        try:
            _, impls = parse_hello(rid, proc.start(spec.startup_timeout))
        finally:
            proc.close()
        impl = next((i for i in impls if "aes-128-gcm" in i.primitives), None)
        if impl is None:
            continue
        res = _compute(
            *("--impl", impl.id, "--primitive", "aes-128-gcm", "--operation", "seal"),
            *(f"--{k}={v}" for k, v in case.inputs.items()),
        )
        checked.append(impl.id)
        if res.returncode != 0 or res.stdout.strip() != case.expected:
            wrong.append(f"{impl.id}: exit {res.returncode} {res.stdout.strip()} {res.stderr}")
    if not checked:
        pytest.skip(f"{NOT_APPLICABLE} no built runtime offers aes-128-gcm")
    assert not wrong, "\n".join(wrong)


def test_compute_refuses_an_aad_len_that_disagrees_with_aad():
    res = _compute(
        *("--impl", "python/cryptography", "--primitive", "aes-128-gcm", "--operation", "seal"),
        *("--key", "00" * 16, "--nonce", "00" * 12, "--msg", "", "--aad", "01020304"),
        *("--param", "aad_len=0"),
    )
    assert res.returncode == 2, res.stderr
    assert "aad_len=0 but --aad is 4 bytes" in res.stderr
