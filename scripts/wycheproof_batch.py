#!/usr/bin/env python3
"""A Wycheproof test-vector file (MacTest, AeadTest) as `cryptobench compute --batch` requests.

    python3 scripts/wycheproof_batch.py FILE.json --impl python/hashlib [--impl go/stdlib ...]

Writes one request per test and implementation on stdout: a valid MAC must give its tag
(`expect`), an invalid one must not (`expect_not`); a valid AEAD test must seal to ct‖tag, an
invalid one must fail to open (`expect_error: auth_failed`). Tests the catalog's primitive
cannot take (another nonce or tag length) are left out, counted on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys

PRIMITIVES = {  # Wycheproof algorithm (and key bits) → catalog id, its nonce and tag bytes
    ("HMACSHA256", None): ("hmac-sha256", None, 32),
    ("AES-GCM", 128): ("aes-128-gcm", 12, 16),
    ("AES-GCM", 256): ("aes-256-gcm", 12, 16),
    ("CHACHA20-POLY1305", 256): ("chacha20-poly1305", 12, 16),
    ("XCHACHA20-POLY1305", 256): ("xchacha20-poly1305", 24, 16),
}


def requests(doc: dict, impls: list[str]):
    """(request or None for a test left out) for every test of the file."""
    alg = doc.get("algorithm")
    for group in doc.get("testGroups", []):
        key = (alg, None) if group.get("type") == "MacTest" else (alg, group.get("keySize"))
        spec = PRIMITIVES.get(key)
        for test in group.get("tests", []):
            if spec is None or group.get("tagSize", 0) // 8 != spec[2]:
                yield None
                continue
            prim, nonce_len, _ = spec
            if nonce_len is not None and len(test.get("iv", "")) // 2 != nonce_len:
                yield None
                continue
            for impl in impls:
                yield _one(prim, test, impl, group.get("type"))


def _one(prim: str, t: dict, impl: str, kind: str) -> dict:
    req = {"id": f"tc{t['tcId']}", "impl": impl, "primitive": prim}
    valid = t["result"] == "valid"
    if kind == "MacTest":
        req.update(operation="mac", inputs={"key": t["key"], "msg": t["msg"]})
        req["expect" if valid else "expect_not"] = t["tag"]
        return req
    inputs = {"key": t["key"], "nonce": t["iv"], "aad": t.get("aad", "")}
    if valid:
        req.update(operation="seal", inputs={**inputs, "msg": t["msg"]}, expect=t["ct"] + t["tag"])
    else:
        req.update(operation="open", inputs={**inputs, "msg": t["ct"] + t["tag"]})
        req["expect_error"] = "auth_failed"
    return req


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("--impl", action="append", required=True)
    args = ap.parse_args()
    with open(args.file, encoding="utf-8") as fh:
        doc = json.load(fh)
    left_out = 0
    for req in requests(doc, args.impl):
        if req is None:
            left_out += 1
        else:
            print(json.dumps(req))
    if left_out:
        print(f"{left_out} tests left out (not a catalog primitive's sizes)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
