"""The C and C++ runners' public-key rows (issue 30): every Project Wycheproof vector of every
primitive they offer (valid ones accepted, invalid ones refused) and agreement by use with the
other implementations, through `cryptobench verify`; and the request shapes the protocol fixes
(keygen from key_seed, RSA refusing one, verify answering "ok")."""

from __future__ import annotations

import json
import subprocess

import pytest

from cryptobench.runtimes.discovery import discover
from tests.conftest import cli
from tests.test_pubkey import KEX, SIGNATURES, WYCHEPROOF_COUNTS

# RFC 7748 section 6.1 (Alice's key pair) and RFC 8032 section 7.1 TEST 1.
X25519_SEED = "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"
X25519_PUBLIC = "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a"
ED25519_SEED = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"
ED25519_SIG = (
    "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39"
    "701cf9b46bd25bf5f0595bbe24655141438e7a100b"
)


def _spec(runtime: str):
    spec = next((s for s in discover() if s.runtime_id == runtime), None)
    return spec if spec is not None and not spec.skipped else None


def _ask(runtime: str, requests: list[dict]) -> list[dict]:
    spec = _spec(runtime)
    lines = "".join(json.dumps({"id": i, **r}) + "\n" for i, r in enumerate(requests))
    proc = subprocess.run(
        spec.command, input=lines, capture_output=True, text=True, cwd=spec.folder, timeout=120
    )
    return [json.loads(line) for line in proc.stdout.splitlines()]


def _compute(impl: str, prim: str, op: str, inputs: dict) -> dict:
    return {"op": "compute", "impl": impl, "primitive": prim, "operation": op, "inputs": inputs}


# (runtime, implementation, primitives it offers)
ROWS = [
    ("c", "openssl", (*KEX, *SIGNATURES)),
    ("c", "libsodium", ("x25519", "ed25519")),
    ("cpp", "cryptopp", (*KEX, *SIGNATURES)),
]
# What Wycheproof finds in the libraries (Debian 12's builds): invalid signatures they accept.
# Ed25519 with S >= L (malleability, RFC 8032 §5.1.7 requires S < L): Crypto++ 8.7 and Botan
# 2.19; one PKCS#1 v1.5 signature Crypto++ accepts. verify reports each as a failure.
FINDINGS = {
    "cpp/cryptopp": {
        "ed25519_test.json #63",
        "ed25519_test.json #85",
        "rsa_signature_2048_sha256_test.json #244",
    },
}


@pytest.mark.parametrize(("runtime", "impl", "prims"), ROWS)
def test_known_answers_and_key_seed_rules(runtime, impl, prims):
    if _spec(runtime) is None:
        pytest.skip(f"{runtime} runner not built")
    x25519, ed25519 = "x25519" in prims, "ed25519" in prims
    reqs = [_compute(impl, "x25519", "keygen", {"key_seed": X25519_SEED})] if x25519 else []
    if ed25519:
        reqs += [_compute(impl, "ed25519", "sign", {"private_key": ED25519_SEED, "msg": ""})]
        sig = {"public_key": "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"}
        reqs += [_compute(impl, "ed25519", "verify", {**sig, "msg": "", "signature": ED25519_SIG})]
        reqs += [_compute(impl, "ed25519", "keygen", {"key_seed": "00"})]
    if "rsa-2048-pss-sha256" in prims:
        reqs += [_compute(impl, "rsa-2048-pss-sha256", "keygen", {"key_seed": X25519_SEED})]
    answers = {a["id"]: a for a in _ask(runtime, reqs)}
    got = [
        answers[i].get("result", {}).get("output") or answers[i]["error"]["kind"] for i in answers
    ]
    want = [X25519_PUBLIC + X25519_SEED] if x25519 else []
    want += [ED25519_SIG, "ok", "invalid_params"] if ed25519 else []
    want += ["unsupported"] if "rsa-2048-pss-sha256" in prims else []
    assert got == want


@pytest.mark.parametrize(("runtime", "impl", "prims"), ROWS)
def test_wycheproof_and_agreement_by_use(runtime, impl, prims):
    if _spec(runtime) is None:
        pytest.skip(f"{runtime} runner not built")
    where = ("--impl", f"{runtime}/{impl}", *[a for p in prims for a in ("--primitive", p)])
    res = cli("verify", *where, "--format", "json", timeout=900)
    assert res.returncode == 0, res.stderr[-2000:]
    rows = json.loads(res.stdout)["verification"]
    assert rows and all(r["status"] == "ok" for r in rows)
    res = cli("verify", "--suite", "wycheproof", *where, "--format", "json", timeout=900)
    findings = FINDINGS.get(f"{runtime}/{impl}", set())
    assert res.returncode == (1 if findings else 0), res.stderr[-2000:]
    (tally,) = json.loads(res.stdout)["wycheproof"]
    assert {f.split(" (")[0] for f in tally["failures"]} == findings
    total = sum(sum(WYCHEPROOF_COUNTS[p]) for p in prims)
    assert tally["passed"] + len(findings) == total
