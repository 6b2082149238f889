"""The message generator (docs/protocol.md, "Generated messages") and its documented vectors."""

from __future__ import annotations

import hashlib
import re
import zlib

import pytest

from cryptobench.runtimes.msggen import BLOCK, HEX_LIMIT, Generated, block, reference, wire_inputs

from .conftest import ROOT


def doc_vectors():
    """The vectors table of docs/protocol.md: seed, first 32 bytes, SHA-256 of 1 MiB, of 100 000."""
    text = (ROOT / "docs" / "protocol.md").read_text()
    rows = re.findall(r"^\| (\d+) \| `(\w{64})` \| `(\w{64})` \| `(\w{64})` \|$", text, re.M)
    assert len(rows) >= 2
    return [(int(s), a, b, c) for s, a, b, c in rows]


@pytest.mark.parametrize("seed,first,mib,short", doc_vectors())
def test_the_documented_vectors(seed, first, mib, short):
    assert Generated(seed, 32).bytes().hex() == first
    assert hashlib.sha256(Generated(seed, 1 << 20).bytes()).hexdigest() == mib
    assert hashlib.sha256(Generated(seed, 100000).bytes()).hexdigest() == short


def test_the_message_is_the_block_repeated_and_cut():
    msg = Generated(5, 2 * BLOCK + 3).bytes()
    assert len(msg) == 2 * BLOCK + 3
    assert msg[:BLOCK] == msg[BLOCK : 2 * BLOCK] == block(5)
    assert msg[2 * BLOCK :] == block(5)[:3]
    assert Generated(5, 0).bytes() == b""


def test_seeds_out_of_range_are_refused():
    with pytest.raises(ValueError):
        block(1 << 32)
    with pytest.raises(ValueError):
        block(-1)


def test_the_reference_streams_without_building_the_message():
    msg = Generated(9, 3 * BLOCK + 11)
    assert reference("sha256", msg, {}) == (
        hashlib.sha256(msg.bytes()).hexdigest(),
        "hashlib.sha256",
    )
    assert reference("crc32", msg, {})[0] == zlib.crc32(msg.bytes()).to_bytes(4, "big").hex()
    assert reference("xxh64", msg, {"seed": 0}) is None
    assert reference("blake2b-512", msg, {"out_len": 32}) is None  # not the default length


def test_wire_inputs_sends_an_object_or_hex():
    msg = Generated(1, 4)
    assert wire_inputs({"msg": msg, "key": "00"}, True) == {
        "msg": {"generator": "xorshift64", "seed": 1, "length": 4},
        "key": "00",
    }
    assert wire_inputs({"msg": msg}, False) == {"msg": msg.bytes().hex()}
    with pytest.raises(ValueError, match="too large"):
        wire_inputs({"msg": Generated(1, HEX_LIMIT + 1)}, False)


def test_a_run_checks_a_generated_message_against_hashlib(fakes):
    import json

    from .conftest import cli

    fakes("ok")  # declares no generator: its messages go as hex
    proc = cli("run", "--primitive", "sha256", "--size", "1MiB", "--time-per-case", "0.05",
               "--rounds", "1", "--format", "json")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    row = next(r for r in json.loads(proc.stdout)["results"] if r["primitive"] == "sha256")
    assert row["size"] == 1 << 20 and row["status"] == "ok"
    assert "matches hashlib.sha256" in row["verification"]


def test_a_runtime_without_the_generator_says_why_it_cannot_take_a_huge_message(fakes):
    from .conftest import cli

    fakes("ok")
    proc = cli("run", "--primitive", "sha256", "--size", "65MiB", "--time-per-case", "0.05",
               "--rounds", "1")  # fmt: skip
    assert proc.returncode == 0  # skipped with its reason, not failed
    said = " ".join(proc.stderr.split())  # as one line, however the console wrapped it
    assert (
        "skipped: a 68157440-byte message is too large to send as hex: fake-ok has no "
        "generator" in said
    )
    assert "Traceback" not in proc.stderr
