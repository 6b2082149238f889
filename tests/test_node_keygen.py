"""Regression: node:crypto's key generation deadlocked the Node.js runner's main thread
(docs/methodology.md, "Rounds"): `generateKeyPairSync(type).privateKey.export({format: "jwk"})`
holds the key's mutex while it allocates, and when that allocation collects the finished
key-generation job, the job's destructor takes the same mutex. It showed in about half of the
processes that loaded node:crypto alone (hello `only`), in a few of those that loaded every
library. Many such processes, each asked for key-generation benches: every request must be
answered. The timeout only detects a hang (far above what the request needs); nothing is timed.
"""

from __future__ import annotations

import pytest

from cryptobench.runtimes.discovery import discover
from cryptobench.runtimes.protocol import RunnerProcess

PROCESSES = 12
# primitive -> bytes of keygen's output (public key || private key)
KEYGEN = {"ed25519": 32 + 32, "x25519": 32 + 32, "ecdsa-p256-sha256": 65 + 32}
HANG_S = 60.0  # a request here needs well under a second


@pytest.fixture(scope="module")
def node_spec():
    spec = next((s for s in discover() if s.runtime_id == "node"), None)
    if spec is None or spec.skipped:
        pytest.skip(f"node: {spec.skipped if spec else 'no runner folder'}")
    return spec


def _keygens(proc: RunnerProcess) -> None:
    for primitive, size in KEYGEN.items():
        for _ in range(2):
            got = proc.request(
                "bench", HANG_S, impl="crypto", primitive=primitive, operation="keygen",
                inputs={}, params={}, iterations=200, batches=5,
            )  # fmt: skip
            assert len(bytes.fromhex(got["output"])) == size
            assert [s["iterations"] for s in got["samples"]] == [200] * 5


@pytest.mark.parametrize("hello", [{"brief": True, "only": ["crypto"]}, {}], ids=["only", "all"])
def test_keygen_in_fresh_node_processes_is_always_answered(node_spec, hello):
    for _ in range(PROCESSES):
        proc = RunnerProcess(node_spec.command, str(node_spec.folder), node_spec.env, "node")
        try:
            got = proc.start(node_spec.startup_timeout, **hello)
            libraries = [i["library"] for i in got["implementations"]]
            assert "crypto" in libraries and (libraries == ["crypto"]) == bool(hello)
            _keygens(proc)  # a hang raises RunnerFailure("timeout", ...)
        finally:
            proc.close()
