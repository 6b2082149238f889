"""A misbehaving runner for the fault tests. Its mode (argv[1]) says how it misbehaves.

It offers sha256 through hashlib (a test double, not a benchmarked runner):
  ok          a well-behaved runner
  fixed       bench samples are exactly 1000 ns per iteration (deterministic output tests)
  crash       exits in the middle of its second bench request
  hang        never answers a bench request
  garbage     writes a non-JSON line instead of a bench answer
  wrong       returns a wrong digest from compute and bench
  hello-exit  exits before answering hello
  slow-start  sleeps 2 s before reading anything
  slow        every bench batch sleeps 50 ms (for Ctrl-C tests); writes its pid to $FAKE_PID_FILE
  late-crash  counts in $FAKE_STARTS_FILE the processes that were asked to bench sha256; from
              the second on (round 2's, every group having a fresh process) it exits during
              that first sha256 bench request
"""

import hashlib
import json
import os
import sys
import time

MODE = sys.argv[1]
benches = 0

if MODE == "slow-start":
    time.sleep(2)
starts = 0  # late-crash: this process's number among those that benched sha256


def count_start() -> int:
    with open(os.environ["FAKE_STARTS_FILE"], "a+") as fh:
        fh.write("start\n")
        fh.seek(0)
        return len(fh.read().split())


if os.environ.get("FAKE_PID_FILE"):
    with open(os.environ["FAKE_PID_FILE"], "a") as fh:
        fh.write(f"{os.getpid()}\n")


def answer(req):
    global benches, starts
    op = req.get("op")
    if op == "hello":
        if MODE == "hello-exit":
            sys.exit(3)
        return {
            "protocol": 1,
            "runtime": {"name": "fake", "version": MODE},
            "implementations": [
                {
                    "library": "fakelib",
                    "version": "1",
                    "backend": {"name": "fake", "version": "1"},
                    "primitives": {
                        "sha256": {"operations": ["digest"]},
                        # lonely: a primitive no vector and no other implementation can check
                        **({"haval128-4": {"operations": ["digest"]}} if MODE == "lonely" else {}),
                    },
                    "code_path": "OPENSSL_ia32cap=" + os.environ.get("OPENSSL_ia32cap", ""),  # noqa: SIM112
                }
            ],
        }
    msg = bytes.fromhex(req["inputs"].get("msg", ""))
    if req.get("primitive") == "noop":
        out = len(msg).to_bytes(8, "big").hex()
    elif req.get("primitive") == "sha256":
        out = hashlib.sha256(msg).hexdigest()
    elif req.get("primitive") == "haval128-4" and MODE == "lonely":
        out = hashlib.sha256(msg).hexdigest()[:32]
    else:
        raise LookupError("unsupported")
    if MODE == "wrong":
        out = "00" + out[2:]
    if op == "compute":
        return {"output": out}
    benches += 1
    if MODE == "late-crash" and req.get("primitive") == "sha256" and not starts:
        starts = count_start()
    if MODE == "crash" and benches == 2 or MODE == "late-crash" and starts >= 2:
        os._exit(9)
    if MODE == "hang":
        time.sleep(3600)
    if MODE == "garbage":
        print("this is not JSON", flush=True)
        return None
    n, b = req["iterations"], req["batches"]
    if MODE == "fixed":
        return {"output": out, "samples": [{"iterations": n, "ns": n * 1000}] * b}
    samples = []
    for _ in range(b):
        t0 = time.perf_counter_ns()
        for _ in range(n):
            hashlib.sha256(msg).digest()
        if MODE == "slow":
            time.sleep(0.05)
        samples.append({"iterations": n, "ns": time.perf_counter_ns() - t0})
    return {"output": out, "samples": samples}


for line in sys.stdin:
    req = json.loads(line)
    try:
        result = answer(req)
    except LookupError as exc:
        print(
            json.dumps(
                {
                    "id": req["id"],
                    "ok": False,
                    "error": {"kind": "unsupported", "message": str(exc)},
                }
            ),
            flush=True,
        )
        continue
    if result is not None:
        print(json.dumps({"id": req["id"], "ok": True, "result": result}), flush=True)
