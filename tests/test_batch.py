"""`compute --batch FILE.jsonl` (docs/compute-batch.md) through the CLI, and the Wycheproof
converter that feeds it."""

from __future__ import annotations

import importlib.util
import json

from .conftest import ROOT, cli

ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"


def _converter():
    spec = importlib.util.spec_from_file_location("wb", ROOT / "scripts" / "wycheproof_batch.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _write(tmp_path, lines: list) -> str:
    path = tmp_path / "batch.jsonl"
    path.write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines))
    return str(path)


def sha(msg, **extra):
    req = {"impl": "fake-ok/fakelib", "primitive": "sha256", "operation": "digest"}
    return {**req, "inputs": {"msg": msg}, **extra}


def test_one_answer_per_line_in_order(fakes, tmp_path):
    fakes("ok")
    path = _write(tmp_path, [sha("616263", id=7, expect=ABC), sha("", id="b"), sha("00")])
    proc = cli("compute", "--batch", path)
    assert proc.returncode == 0, proc.stderr
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [a["line"] for a in answers] == [1, 2, 3]
    assert answers[0] == {
        "line": 1, "id": 7, "impl": "fake-ok/fakelib", "primitive": "sha256",
        "operation": "digest", "output": ABC, "ok": True, "pass": True,
    }  # fmt: skip
    assert answers[1]["id"] == "b" and answers[1]["output"].startswith("e3b0c442")
    assert "pass" not in answers[1]
    assert "3 requests: 1 met their expectation, 0 failed" in proc.stderr


def test_bad_lines_are_answered_and_the_rest_goes_on(fakes, tmp_path):
    fakes("ok")
    lines = [
        "not json",
        sha("zz"),  # the runner refuses bad hex
        {**sha("00"), "impl": "cobol/x"},
        {**sha("00"), "operation": "mac"},
        {**sha("00"), "colour": 1},
        sha("616263", expect="00"),
        sha("616263", expect_not=ABC),
        sha("616263", expect=ABC),
    ]
    proc = cli("compute", "--batch", _write(tmp_path, lines))
    assert proc.returncode == 1
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(answers) == len(lines)
    assert answers[0]["error"]["kind"] == "bad_request"
    assert answers[1]["ok"] is False
    assert "unknown implementation 'cobol/x'" in answers[2]["error"]["message"]
    assert "operations digest" in answers[3]["error"]["message"]
    assert "unknown field 'colour'" in answers[4]["error"]["message"]
    assert answers[5]["pass"] is False and answers[6]["pass"] is False
    assert answers[7]["pass"] is True
    assert "Traceback" not in proc.stderr


def test_batch_usage_errors_exit_2(fakes, tmp_path):
    fakes("ok")
    assert cli("compute", "--batch", str(tmp_path / "none.jsonl")).returncode == 2
    (tmp_path / "empty.jsonl").write_text("\n")
    assert cli("compute", "--batch", str(tmp_path / "empty.jsonl")).returncode == 2
    both = cli("compute", "--batch", _write(tmp_path, [sha("00")]), "--msg", "00")
    assert both.returncode == 2 and "no other input options" in both.stderr
    alone = cli("compute", "--impl", "fake-ok/fakelib")
    assert alone.returncode == 2 and "--primitive, --operation" in alone.stderr


def test_the_documented_batch_file_is_the_converter_output():
    conv = _converter()
    doc = json.loads((ROOT / "docs/examples/hmac-sha256-wycheproof.json").read_text())
    lines = [json.dumps(r) for r in conv.requests(doc, ["python/hashlib"])]
    assert (ROOT / "docs/examples/hmac-sha256-batch.jsonl").read_text().splitlines() == lines
    kinds = [next(k for k in ("expect", "expect_not") if k in json.loads(x)) for x in lines]
    assert kinds == ["expect", "expect", "expect_not"]


def test_the_converter_maps_aead_tests():
    conv = _converter()
    test = {"tcId": 5, "key": "00" * 16, "iv": "11" * 12, "aad": "", "msg": "22", "ct": "33",
            "tag": "44" * 16}  # fmt: skip
    doc = {
        "algorithm": "AES-GCM",
        "testGroups": [
            {"type": "AeadTest", "keySize": 128, "tagSize": 128, "tests": [
                {**test, "result": "valid"}, {**test, "tcId": 6, "result": "invalid"},
                {**test, "tcId": 7, "iv": "11" * 8, "result": "valid"}]},
        ],
    }  # fmt: skip
    got = list(conv.requests(doc, ["go/stdlib"]))
    assert got[0]["operation"] == "seal" and got[0]["expect"] == "33" + "44" * 16
    assert got[1]["operation"] == "open" and got[1]["expect_error"] == "auth_failed"
    assert got[1]["inputs"]["msg"] == "33" + "44" * 16
    assert got[2] is None  # an 8-byte nonce: not the catalog's aes-128-gcm
