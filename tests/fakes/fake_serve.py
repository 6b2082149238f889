"""The protocol loop the fake runners share (fake_kem_runner.py, fake_pubkey_runner.py). They
run as scripts, so this file is imported from beside them."""

import json
import sys
from collections.abc import Callable


class Refused(Exception):
    """A request the fake answers with an error of this protocol kind."""

    def __init__(self, kind: str):
        super().__init__(kind)
        self.kind = kind


def hello(mode: str, library: str, primitives: dict) -> dict:
    return {
        "protocol": 1,
        "runtime": {"name": "fake", "version": mode},
        "implementations": [
            {
                "library": library,
                "version": "1",
                "backend": {"name": "fake", "version": "1"},
                "primitives": primitives,
            }
        ],
    }


def serve(greeting: dict, compute: Callable[[str, str, dict, bool], str]) -> None:
    """Answers hello, compute and bench, a line each, until stdin ends: ``compute(primitive,
    operation, inputs as bytes, bench)`` answers all but noop. Bench samples are a fixed
    1000 ns per iteration: nothing here is timed."""

    def answer(req: dict) -> dict:
        if req["op"] == "hello":
            return greeting
        inputs = {k: bytes.fromhex(v) for k, v in req.get("inputs", {}).items()}
        if req["primitive"] == "noop":
            out = len(inputs.get("msg", b"")).to_bytes(8, "big").hex()
        else:
            out = compute(req["primitive"], req["operation"], inputs, req["op"] == "bench")
        if req["op"] == "compute":
            return {"output": out}
        n, b = req["iterations"], req["batches"]
        return {"output": out, "samples": [{"iterations": n, "ns": n * 1000}] * b}

    for line in sys.stdin:
        req = json.loads(line)
        try:
            reply = {"id": req["id"], "ok": True, "result": answer(req)}
        except Refused as exc:
            error = {"kind": exc.kind, "message": exc.kind}
            reply = {"id": req["id"], "ok": False, "error": error}
        print(json.dumps(reply), flush=True)
