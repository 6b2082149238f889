"""Runners that never die on input (docs/protocol.md, "Limits"): every hostile line gets one
error answer of the documented kind, and the runner then still answers a valid request.

Each case starts a fresh runner, sends the hostile line and a `noop` compute of "abc", closes
stdin and checks both answers and the exit status. Run against one runner:
`pytest tests/test_conformance_hostile.py -k go`.
"""

from __future__ import annotations

import json
import os
import subprocess

import pytest

LINE_LIMIT = 192 << 20  # docs/protocol.md, "Limits": the longest request line, newline excluded
DEPTH_LIMIT = 64
PROBE = b'{"id": 6, "op": "compute", "primitive": "noop", "operation": "digest", "impl": "%LIB%", "inputs": {"msg": "616263"}, "params": {}}\n'  # noqa: E501
PROBE_OUTPUT = (3).to_bytes(8, "big").hex()


def compute(inputs: str = '{"msg": "616263"}', params: str = "{}", **extra: str) -> bytes:
    """A noop compute line with id 5 and the given raw JSON fields."""
    fields = "".join(f', "{k}": {v}' for k, v in extra.items())
    return (
        '{"id": 5, "op": "compute", "impl": "%LIB%", "primitive": "noop", "operation": "digest", '
        f'"inputs": {inputs}, "params": {params}{fields}}}\n'
    ).encode()


def bench(iterations: str, batches: str) -> bytes:
    return compute(iterations=iterations, batches=batches).replace(b'"compute"', b'"bench"')


def generated(length: str, seed: str = "1") -> bytes:
    return compute(
        inputs=f'{{"msg": {{"generator": "xorshift64", "seed": {seed}, "length": {length}}}}}'
    )


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


BAD, INVALID = {"bad_request"}, {"invalid_params"}
EITHER = (5, None)  # a parser may refuse the line before it reads the id
# (name, raw line, accepted kinds, the id the answer carries: 5, None for null, or EITHER)
HOSTILE = [
    ("empty line", b"\n", BAD, None),
    ("whitespace-only line", b" \t  \t\n", BAD, None),
    ("carriage return only", b"\r\n", BAD, None),
    ("not JSON", b"this is not json\n", BAD, None),
    ("truncated object", b'{"id": 5, "op": "hello"\n', BAD, None),
    ("trailing garbage", b'{"id": 5, "op": "hello"} x\n', BAD, None),
    ("two objects on a line", b'{"id": 5, "op": "hello"}{"id": 7, "op": "hello"}\n', BAD, None),
    ("array", b"[1, 2, 3]\n", BAD, None),
    ("string", b'"hello"\n', BAD, None),
    ("number", b"42\n", BAD, None),
    ("null", b"null\n", BAD, None),
    ("id missing", b'{"op": "hello"}\n', BAD, None),
    ("id a string", b'{"id": "5", "op": "hello"}\n', BAD, None),
    ("id fractional", b'{"id": 5.5, "op": "hello"}\n', BAD, None),
    ("id a boolean", b'{"id": true, "op": "hello"}\n', BAD, None),
    ("id an object", b'{"id": {"a": 1}, "op": "hello"}\n', BAD, None),
    ("op a number", b'{"id": 5, "op": 3}\n', BAD, 5),
    ("op missing", b'{"id": 5}\n', BAD, 5),
    ("inputs null", compute(inputs="null"), BAD, 5),
    ("inputs a string", compute(inputs='"616263"'), BAD, 5),
    ("inputs an array", compute(inputs='["616263"]'), BAD, 5),
    ("params null", compute(params="null"), BAD, 5),
    ("params an array", compute(params="[]"), BAD, 5),
    ("msg a number", compute(inputs='{"msg": 616263}'), BAD, 5),
    ("msg null", compute(inputs='{"msg": null}'), BAD, 5),
    ("msg an array", compute(inputs='{"msg": ["61"]}'), BAD, 5),
    ("msg odd hex", compute(inputs='{"msg": "616"}'), BAD, 5),
    ("msg missing", compute(inputs="{}"), BAD, 5),  # a required input: never read as empty
    ("primitive a number", compute().replace(b'"noop"', b"7"), BAD, 5),
    ("iterations a string", bench('"7"', "1"), BAD, 5),
    ("iterations fractional", bench("7.5", "1"), BAD, 5),
    ("iterations negative", bench("-7", "1"), BAD, 5),
    ("iterations 2^62", bench(str(1 << 62), "1"), INVALID, 5),
    ("iterations 2^64", bench(str(1 << 64), "1"), BAD | INVALID, EITHER),
    ("batches 2^40", bench("1", str(1 << 40)), INVALID, 5),
    ("generated length 2^62", generated(str(1 << 62)), INVALID, 5),
    ("generated length 2^53", generated(str(1 << 53)), INVALID, 5),
    ("generated length 2^64", generated(str(1 << 64)), BAD | INVALID, EITHER),
    ("generated length 1e300", generated("1e300"), BAD | INVALID, EITHER),
    ("generated length fractional", generated("1.5"), BAD, 5),
    ("generated length a string", generated('"10"'), BAD, 5),
    ("generated seed null", generated("10", seed="null"), BAD, 5),
    ("nesting 65 levels", b'{"id": 5, "op": "hello", "x": ' + nested(64).encode() + b"}\n",
     BAD, None),
    ("nesting 2000 levels", nested(2000).encode() + b"\n", BAD, None),
    ("nesting 100000 levels", nested(100000).encode() + b"\n", BAD, None),
    ("nesting 100000 objects", b'{"a": ' * 100000 + b"1" + b"}" * 100000 + b"\n", BAD, None),
    ("nesting 100000 unclosed", b"[" * 100000 + b"\n", BAD, None),
    ("NUL byte alone", b"\x00\n", BAD, None),
    ("NUL byte in a string", b'{"id": 5, "op": "hello", "x": "a\x00b"}\n', BAD, None),
    ("NUL after the object", b'{"id": 5, "op": "hello"}\x00\n', BAD, None),
    ("escaped NUL in a name", compute().replace(b'"noop"', b'"noop\\u0000"'),
     {"bad_request", "unsupported"}, EITHER),
    ("invalid UTF-8 in a string", b'{"id": 5, "op": "hello", "x": "\xff\xfe"}\n', BAD, None),
    ("overlong UTF-8", b'{"id": 5, "op": "hello", "x": "\xc0\xaf"}\n', BAD, None),
    ("UTF-16 surrogate in UTF-8", b'{"id": 5, "op": "hello", "x": "\xed\xa0\x80"}\n', BAD, None),
    ("lone escaped surrogate in a name", compute().replace(b'"noop"', b'"\\ud800"'),
     {"bad_request", "unsupported"}, EITHER),
    ("multi-MB bad hex", compute(inputs='{"msg": "' + "zz" * (4 << 20) + '"}'), BAD, 5),
    ("multi-MB nesting", nested(3 << 20).encode() + b"\n", BAD, None),
]  # fmt: skip


def exchange(spec, data: bytes, timeout: float = 120) -> tuple[list[dict], int, bytes]:
    """Send raw bytes, close stdin: (answers, exit status, stderr); every stdout line is JSON."""
    res = subprocess.run(
        spec.command,
        cwd=spec.folder,
        input=data,
        capture_output=True,
        timeout=timeout,
        env={**os.environ, **spec.env},
    )
    return [json.loads(line) for line in res.stdout.splitlines()], res.returncode, res.stderr


def probe(hello: dict) -> bytes:
    return PROBE.replace(b"%LIB%", hello["implementations"][0]["library"].encode())


def check_served(answers: list[dict], status: int, stderr: bytes, want: int) -> None:
    tail = stderr.decode(errors="replace")[-2000:]
    assert status == 0, f"exit status {status}; stderr: {tail}"
    assert len(answers) == want, f"one answer per line; got {answers!r:.2000}; stderr: {tail}"
    last = answers[-1]
    assert last == {"id": 6, "ok": True, "result": {"output": PROBE_OUTPUT}}, last


@pytest.mark.parametrize(
    ("line", "kinds", "rid"), [case[1:] for case in HOSTILE], ids=[case[0] for case in HOSTILE]
)
def test_a_hostile_line_gets_an_error_and_the_runner_keeps_serving(runner, line, kinds, rid):
    spec, _, hello = runner
    lib = hello["implementations"][0]["library"].encode()
    answers, status, stderr = exchange(spec, line.replace(b"%LIB%", lib) + probe(hello))
    check_served(answers, status, stderr, 2)
    err = answers[0]
    assert err["ok"] is False and err["error"]["kind"] in kinds, err
    assert isinstance(err["error"]["message"], str) and err["error"]["message"], err
    assert err["id"] in rid if isinstance(rid, tuple) else err["id"] == rid, err


def test_every_line_of_a_hostile_stream_is_answered_in_order(runner):
    """All hostile lines in one process, each followed by a valid request: nothing is lost,
    nothing is answered twice, and the runner is still serving at the end."""
    spec, _, hello = runner
    lib = hello["implementations"][0]["library"].encode()
    data = b"".join(case[1].replace(b"%LIB%", lib) + probe(hello) for case in HOSTILE[:-2])
    answers, status, stderr = exchange(spec, data)
    check_served(answers, status, stderr, 2 * len(HOSTILE[:-2]))
    for (name, _, kinds, _), err, ok in zip(HOSTILE, answers[::2], answers[1::2], strict=False):
        assert err["ok"] is False and err["error"]["kind"] in kinds, (name, err)
        assert ok["id"] == 6 and ok["ok"] is True, (name, ok)


def noop_line_of(lib: str, size: int) -> tuple[bytes, int]:
    """A noop compute line of exactly ``size`` bytes (newline excluded) and its message length."""
    head, tail = compute(inputs='{"msg": "@"}').replace(b"%LIB%", lib.encode()).split(b"@")
    tail = tail.rstrip(b"\n")
    digits = size - len(head) - len(tail)
    pad = b" " * (digits % 2)  # JSON whitespace makes up an odd byte
    return head + b"ab" * (digits // 2) + tail[:-1] + pad + tail[-1:], digits // 2


def test_a_line_of_exactly_the_limit_is_served(runner):
    """A line of exactly the limit (96 MiB of message as hex: more than the 64 MiB the
    orchestrator ever sends without a generator) is answered, not refused."""
    spec, _, hello = runner
    line, length = noop_line_of(hello["implementations"][0]["library"], LINE_LIMIT)
    assert len(line) == LINE_LIMIT and length > 64 << 20
    answers, status, stderr = exchange(spec, line + b"\n" + probe(hello), timeout=300)
    check_served(answers, status, stderr, 2)
    assert answers[0] == {
        "id": 5,
        "ok": True,
        "result": {"output": length.to_bytes(8, "big").hex()},
    }


def test_a_line_over_the_limit_is_refused_and_skipped(runner):
    """One byte over the limit: bad_request with a null id, and the rest of the line is
    skipped (the next line is read as a request of its own)."""
    spec, _, hello = runner
    line, _ = noop_line_of(hello["implementations"][0]["library"], LINE_LIMIT + 1)
    assert len(line) == LINE_LIMIT + 1
    answers, status, stderr = exchange(spec, line + b"\n" + probe(hello), timeout=300)
    check_served(answers, status, stderr, 2)
    err = answers[0]
    assert err["ok"] is False and err["error"]["kind"] == "bad_request", err
    assert err["id"] is None, err


def test_nesting_of_exactly_the_limit_is_served(runner):
    """64 levels (the request object and 63 arrays inside it) are within the limit."""
    spec, _, hello = runner
    line = b'{"id": 5, "op": "hello", "x": ' + nested(DEPTH_LIMIT - 1).encode() + b"}\n"
    answers, status, stderr = exchange(spec, line + probe(hello))
    check_served(answers, status, stderr, 2)
    assert answers[0]["id"] == 5 and answers[0]["ok"] is True, answers[0]
