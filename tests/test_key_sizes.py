"""The public-key-sizes view (report.keysizes) and the CSV's size columns, on the fixture run
tests/golden/pubkey-run.json with key-encapsulation rows and a hash row added: one row per
kex, signature and kem primitive in every text format, every size from the rows' wire_bytes
(the private key's from the catalog), implementations that disagree shown, not hidden, and
empty size cells for a family without sizes."""

from __future__ import annotations

import copy
import csv
import io
import json
from pathlib import Path

from cryptobench import report
from cryptobench.catalog import keys, primitives
from cryptobench.report import csv as csv_report
from cryptobench.report import keysizes, sections

GOLDEN = Path(__file__).parent / "golden"
PUBKEY_RUN = json.loads((GOLDEN / "pubkey-run.json").read_text())
V1_RUN = json.loads((GOLDEN / "results-v1.json").read_text())
CATALOG = primitives.load()
MLKEM = keys.wire_bytes(CATALOG.get("ml-kem-768"))


def _like(r: dict, **changes) -> dict:
    return {**copy.deepcopy(r), **changes}


def doc_with_kem_and_hash() -> dict:
    """The public-key fixture plus ML-KEM-768 keygen/encaps rows and one SHA-256 row."""
    doc = copy.deepcopy(PUBKEY_RUN)
    base = next(r for r in doc["results"] if r["implementation"] == "go/stdlib")
    kem = [
        _like(base, family="kem", primitive="ml-kem-768", operation=op, wire_bytes=MLKEM)
        for op in ("keygen", "encaps")
    ]
    sha = next(r for r in V1_RUN["results"] if r["primitive"] == "sha256")
    doc["results"] += kem + [copy.deepcopy(sha)]
    return doc


def rows_by_primitive(doc: dict) -> dict[str, tuple]:
    (section,) = sections.public_key_sizes(doc["results"])
    return {row[0]: tuple(str(c) for c in row) for row in section.rows}


def test_one_row_per_kex_signature_and_kem_primitive_with_its_sizes():
    rows = rows_by_primitive(doc_with_kem_and_hash())
    assert set(rows) == {"x25519", "ecdh-p256", "ed25519", "ecdsa-p256-sha256", "ml-kem-768"}
    x, ed = (keys.wire_bytes(CATALOG.get(p)) for p in ("x25519", "ed25519"))
    kem_private = str(CATALOG.get("ml-kem-768").private_key_len)
    assert rows["x25519"][1:] == ("kex", str(x["public_key"]), "32", "", "32", "3")
    assert rows["ed25519"][1:] == ("signature", "32", "32", str(ed["signature"]), "", "3")
    assert rows["ecdsa-p256-sha256"][4] == "≤72"  # DER: the bound, marked
    assert rows["ml-kem-768"][1:] == (
        "kem",
        str(MLKEM["public_key"]),
        kem_private,
        str(MLKEM["ciphertext"]),
        str(MLKEM["shared_secret"]),
        "1",
    )
    assert (MLKEM["public_key"], MLKEM["ciphertext"]) == (1184, 1088)  # FIPS 203, ML-KEM-768


def test_terminal_and_markdown_show_the_sizes_section():
    doc = doc_with_kem_and_hash()
    for fmt in ("table", "markdown"):
        out = report.render(fmt, doc, width=200)
        title = "ublic-key sizes: bytes of each primitive"  # Markdown capitalises it
        assert title in out
        part = out[out.index(title) :]
        for text in ("private key (B)", "ml-kem-768", "1184", "1088", "≤72", "ed25519"):
            assert text in part
        assert out.index(title) < out.index("TLS handshake")  # before the views of a use


def test_implementations_that_disagree_are_shown_not_hidden():
    doc = copy.deepcopy(PUBKEY_RUN)
    odd = next(r for r in doc["results"] if r["implementation"] == "rust/ring")
    doc["results"].append(
        _like(odd, implementation="rust/odd", wire_bytes={"public_key": 33, "shared_secret": 32})
    )
    odd_sig = next(r for r in doc["results"] if r["primitive"] == "ed25519")
    doc["results"].append(
        _like(odd_sig, implementation="rust/odd", wire_bytes={"public_key": 32, "signature": 65})
    )
    (section,) = sections.public_key_sizes(doc["results"])
    rows = {row[0]: row for row in section.rows}
    assert str(rows["x25519"][2]) == "32 ≠ 33" and str(rows["x25519"][5]) == "32"
    assert str(rows["ed25519"][4]) == "64 ≠ 65"
    notes = " ".join(section.notes)
    assert "x25519 public key (B): implementations disagree" in notes
    assert "33 from rust/odd" in notes and "32 from go/stdlib, python/cryptography" in notes
    assert "ed25519 signature or ciphertext (B)" in notes and "ecdh-p256" not in notes
    md = report.render("markdown", doc)
    assert "32 ≠ 33" in md and "implementations disagree" in md


def test_only_measured_results_count_as_implementations():
    doc = copy.deepcopy(PUBKEY_RUN)
    ring = next(r for r in doc["results"] if r["implementation"] == "rust/ring")
    skipped = _like(ring, implementation="rust/none", status="skipped", median_ns=None)
    doc["results"].append({**skipped, "wire_bytes": {"public_key": 99, "shared_secret": 32}})
    assert rows_by_primitive(doc)["x25519"][2] == "32"  # not "32 ≠ 99"
    assert rows_by_primitive(doc)["x25519"][-1] == "3"


def test_a_run_without_public_key_rows_has_no_sizes_section():
    assert sections.public_key_sizes(V1_RUN["results"]) == []
    assert "public-key sizes" not in report.render("table", V1_RUN, width=160).lower()


def test_csv_appends_the_size_columns_and_keeps_the_others_in_place():
    doc = doc_with_kem_and_hash()
    table = list(csv.DictReader(io.StringIO(report.render("csv", doc))))
    header = report.render("csv", doc).splitlines()[0].split(",")
    assert header == [*csv_report.COLUMNS, *keysizes.CSV_COLUMNS]
    get = {(r["primitive"], r["operation"], r["size"], r["implementation"]): r for r in table}
    kem = get[("ml-kem-768", "encaps", "0", "go/stdlib")]
    assert {c: kem[c] for c in keysizes.CSV_COLUMNS} == {
        "public_key_bytes": str(MLKEM["public_key"]),
        "private_key_bytes": str(CATALOG.get("ml-kem-768").private_key_len),
        "signature_bytes": "",
        "signature_is_max": "",
        "ciphertext_bytes": str(MLKEM["ciphertext"]),
        "shared_secret_bytes": str(MLKEM["shared_secret"]),
    }
    ecdsa = get[("ecdsa-p256-sha256", "sign", "32", "go/stdlib")]
    assert (ecdsa["signature_bytes"], ecdsa["signature_is_max"]) == ("72", "true")
    ed = get[("ed25519", "sign", "32", "rust/ring")]
    assert (ed["signature_bytes"], ed["signature_is_max"], ed["shared_secret_bytes"]) == (
        "64",
        "false",
        "",
    )
    sha = next(r for r in table if r["primitive"] == "sha256")
    assert sha["median_ns"] and all(sha[c] == "" for c in keysizes.CSV_COLUMNS)


def test_rsa_private_key_is_the_benchmark_keys_der():
    pair = keys.for_primitive("rsa-2048-pss-sha256")
    assert CATALOG.get("rsa-2048-pss-sha256").private_key_len is None  # DER: variable length
    assert keysizes.private_key_bytes("rsa-2048-pss-sha256") == len(pair.private_key) // 2
    assert keysizes.private_key_bytes("no-such-primitive") is None
