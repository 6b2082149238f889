"""A deterministic KDF runner for the `calibrate` tests (a test double, not a benchmarked
runner). Two libraries offer pbkdf2-sha256 `derive` through hashlib (real outputs, so the
known answers pass):

  fakekdf   bench samples cost exactly 100 ns per PBKDF2 iteration: the search is exact
  fixedkdf  a fixed-cost binding: refuses (invalid_params) every iteration count but those of
            the known-answer vectors (1 and 80000)
  skewkdf   a call costs 100 ns per iteration in a request of 3 batches (calibrate's probes,
            round 1 among them) and 130 ns in any other (calibrate's later rounds, a dropped
            call and a kept one each): the rounds put the probed value off, so calibrate must
            measure another value in rounds

FAKE_KDF_VERSION: the libraries' version (default 1), for the cache of verified answers.
"""

import hashlib
import json
import os
import sys

NS_PER_ITERATION = 100
SKEWED_NS_PER_ITERATION = 130  # skewkdf, a request of other than a probe's 3 batches


def derive(req) -> str:
    inputs, params = req["inputs"], req["params"]
    if req["impl"] == "fixedkdf" and params["iterations"] not in (1, 80000):
        raise ValueError(f"fixed cost: iterations={params['iterations']} not supported")
    return hashlib.pbkdf2_hmac(
        "sha256",
        bytes.fromhex(inputs["password"]),
        bytes.fromhex(inputs["salt"]),
        params["iterations"],
        params["out_len"],
    ).hex()


def answer(req):
    if req["op"] == "hello":
        offer = {"pbkdf2-sha256": {"operations": ["derive"]}}
        return {
            "protocol": 1,
            "runtime": {"name": "fake-kdf", "version": "1"},
            "implementations": [
                {
                    "library": lib,
                    "version": os.environ.get("FAKE_KDF_VERSION", "1"),
                    "backend": {"name": lib, "version": "1"},
                    "primitives": offer,
                }
                for lib in ("fakekdf", "fixedkdf", "skewkdf")
            ],
        }
    if req.get("primitive") == "noop":
        out = (len(req["inputs"].get("msg", "")) // 2).to_bytes(8, "big").hex()
        per_op = 10
    elif req.get("primitive") == "pbkdf2-sha256":
        out = derive(req)
        per_op = req["params"]["iterations"] * NS_PER_ITERATION
        if req["impl"] == "skewkdf" and req.get("batches", 1) != 3:
            per_op = req["params"]["iterations"] * SKEWED_NS_PER_ITERATION
    else:
        raise LookupError(f"unsupported: {req.get('primitive')}")
    if req["op"] == "compute":
        return {"output": out}
    n = req["iterations"]
    return {"output": out, "samples": [{"iterations": n, "ns": n * per_op}] * req["batches"]}


for line in sys.stdin:
    req = json.loads(line)
    try:
        result = {"id": req["id"], "ok": True, "result": answer(req)}
    except LookupError as exc:
        result = {
            "id": req["id"],
            "ok": False,
            "error": {"kind": "unsupported", "message": str(exc)},
        }
    except ValueError as exc:
        result = {
            "id": req["id"],
            "ok": False,
            "error": {"kind": "invalid_params", "message": str(exc)},
        }
    print(json.dumps(result), flush=True)
