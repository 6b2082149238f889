"""--cpu-features: the translation per runtime (unit, from the real runner.toml tables), and a
fake runner that cannot switch a feature off reporting its cases not offered (CLI)."""

from __future__ import annotations

import csv
import io
import json
import sys

import pytest

from cryptobench.errors import UsageError
from cryptobench.report import hardware
from cryptobench.runtimes import cpu_features as cf
from cryptobench.runtimes.discovery import load_toml

from .conftest import FAKE, ROOT


def table(runner: str) -> dict:
    return load_toml(ROOT / "runners" / runner)["cpu_features"]


def test_parse_names_minus_optional_and_baseline_is_every_feature():
    assert cf.parse("-sha,-aes") == ("sha", "aes")
    assert cf.parse("aes, -sha") == ("sha", "aes")  # canonical order, duplicates merged
    assert cf.parse("baseline") == cf.FEATURES
    assert cf.parse("default") == () and cf.parse(None) == ()


def test_an_unknown_feature_is_a_usage_error_listing_the_valid_ones():
    with pytest.raises(UsageError) as exc:
        cf.parse("-sse9")
    assert exc.value.exit_code == 2
    assert "-sha" in str(exc.value) and "baseline" in str(exc.value)


def test_features_are_refused_on_a_machine_that_is_not_x86_64():
    assert cf.parse("-sha", machine="x86_64") == ("sha",)
    assert cf.parse("default", machine="aarch64") == ()  # the default paths need no feature
    with pytest.raises(UsageError) as exc:
        cf.parse("-sha", machine="aarch64")
    assert exc.value.exit_code == 2 and "this machine is aarch64" in str(exc.value)


def test_openssl_sha_clears_bit_29_of_the_second_word():
    env, args = cf.translate(table("c"), ("sha",))
    assert env == {"OPENSSL_ia32cap": "~0x0:~0x20000000"} and args == []


def test_openssl_aes_and_pclmul_combine_into_one_mask_per_word():
    env, _ = cf.translate(table("python"), ("aes", "pclmul"))
    # bit 57 AES-NI | bit 33 PCLMULQDQ (OpenSSL's own example); VAES and VPCLMULQDQ in word 1
    assert env["OPENSSL_ia32cap"] == "~0x200000200000000:~0x60000000000"


def test_openssl_baseline_clears_every_listed_bit():
    env, _ = cf.translate(table("node"), cf.FEATURES)
    w0, w1 = (int(w.lstrip("~"), 16) for w in env["OPENSSL_ia32cap"].split(":"))
    assert w0 == (1 << 57) | (1 << 33)
    for bit in (29, 41, 42, 16, 17, 21, 30, 31, 5):
        assert w1 & (1 << bit), bit


def test_go_godebug_names_are_internal_cpu_names():
    env, args = cf.translate(table("go"), cf.parse("-sha,-crc32,-avx2"))
    assert env == {"GODEBUG": "cpu.sha=off,cpu.avx2=off,cpu.sse42=off"} and args == []


def test_go_keeps_a_godebug_setting_already_in_the_runners_environment():
    argv, env = cf.apply(["bin/runner"], {"GODEBUG": "madvdontneed=1"}, table("go"), ("sha",))
    assert argv == ["bin/runner"]
    assert env["GODEBUG"] == "madvdontneed=1,cpu.sha=off"


def test_java_flags_go_before_the_jar_and_the_stricter_avx_cap_wins():
    argv = ["java", "-XX:+UnlockDiagnosticVMOptions", "-jar", "target/runner.jar"]
    out, env = cf.apply(argv, {}, table("java"), ("sha", "avx512", "avx2", "crc32"))
    assert env == {}
    assert out[:2] == argv[:2] and out[-2:] == ["-jar", "target/runner.jar"]
    flags = out[2:-2]
    assert "-XX:-UseSHA256Intrinsics" in flags and "-XX:-UseCRC32CIntrinsics" in flags
    assert [f for f in flags if "UseAVX" in f] == ["-XX:UseAVX=1"]


def test_default_paths_change_nothing():
    argv, env = cf.apply(["bin/runner"], {"A": "1"}, table("c"), ())
    assert argv == ["bin/runner"] and env == {"A": "1"}


def test_support_and_cannot_per_library():
    c = table("c")
    assert cf.support(c, "openssl") == {
        "sha": "openssl_ia32cap",
        "aes": "openssl_ia32cap",
        "pclmul": "openssl_ia32cap",
        "avx512": "openssl_ia32cap",
        "avx2": "openssl_ia32cap",
        "crc32": "unused",
    }
    assert cf.cannot(c, "libsodium", ("sha",)) == ["sha"]
    assert cf.cannot(c, "openssl", cf.FEATURES) == []
    java = table("java")
    assert cf.support(java, "bc")["sha"] == "unused"
    assert cf.support(java, "bc")["avx2"] == "jvm_flags"


def test_a_bad_table_is_rejected():
    with pytest.raises(cf.TableError):
        cf.validate({"openssl_ia32cap": {"libraries": ["x"], "off": {"sha": "0x20"}}})
    with pytest.raises(cf.TableError):
        cf.validate({"magic": {"libraries": [], "off": {}}})
    with pytest.raises(cf.TableError):
        cf.validate({"godebug": {"libraries": ["x"], "off": {"sse9": ["x"]}}})


def test_speedup_rows_pair_a_switched_case_with_its_default():
    def row(off, ns):
        return {
            "implementation": "c/openssl",
            "primitive": "sha256",
            "family": "hash",
            "operation": "digest",
            "size": 16384,
            "params": {},
            "status": "ok",
            "cpu_features_off": off,
            "rounds": [
                {"median_ns": ns * k, "ci_low_ns": ns * k * 0.99, "ci_high_ns": ns * k * 1.01}
                for k in (0.98, 1.0, 1.02)
            ],
        }

    (s,) = hardware.speedups([row([], 1000.0), row(["sha", "aes"], 3000.0)])
    assert s.features == "SHA-NI"  # aes does not matter to sha256
    assert s.diff.ratio == pytest.approx(3.0)
    assert s.diff.low < 3.0 < s.diff.high
    assert hardware.speedup_text(s).startswith("SHA-NI ×3.00 (")


# -- a fake runtime that can switch sha off, and one that cannot ---------------------------
def _fake(root, name: str, switch: bool):
    folder = root / "runners" / name
    folder.mkdir(parents=True)
    text = (
        f'schema = 1\nruntime = "{name}"\nlanguage = "fake"\nstartup_timeout = 5\n'
        f'[run]\ncommand = ["{sys.executable}", "{FAKE}", "fixed"]\n'
    )
    if switch:
        text += (
            '[cpu_features.openssl_ia32cap]\nlibraries = ["fakelib"]\noff.sha = [0, 0x20000000]\n'
        )
    (folder / "runner.toml").write_text(text)


FAST = ["--primitive", "sha256", "--size", "64", "--time-per-case", "0.05", "--rounds", "1"]


def test_an_implementation_that_cannot_switch_is_not_offered(tmp_path, monkeypatch, run_cli):
    _fake(tmp_path, "fake-can", True)
    _fake(tmp_path, "fake-cannot", False)
    monkeypatch.setenv("CRYPTOBENCH_RUNNERS", str(tmp_path / "runners"))
    proc = run_cli("run", *FAST, "--cpu-features", "-sha", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["run"]["settings"]["cpu_features"] == ["-sha"]
    got = {r["implementation"]: r for r in doc["results"] if r["family"] != "noop"}
    can, cannot = got["fake-can/fakelib"], got["fake-cannot/fakelib"]
    assert can["status"] == "ok" and can["verified"] is True
    assert can["cpu_features_off"] == ["sha"]
    assert can["code_path"] == "OPENSSL_ia32cap=~0x0:~0x20000000"  # the runner saw the mask
    assert cannot["status"] == "skipped" and cannot["samples"] == []
    assert cannot["error"] == "not offered: cannot switch off SHA-NI"
    assert cannot["cpu_features_off"] == ["sha"]


def test_default_and_switched_in_one_run_show_in_every_format(tmp_path, monkeypatch, run_cli):
    _fake(tmp_path, "fake-can", True)
    monkeypatch.setenv("CRYPTOBENCH_RUNNERS", str(tmp_path / "runners"))
    args = [*FAST, "--cpu-features", "default", "--cpu-features", "-sha"]
    doc = json.loads(run_cli("run", *args, "--format", "json").stdout)
    offs = sorted(tuple(r["cpu_features_off"]) for r in doc["results"] if r["family"] != "noop")
    assert offs == [(), ("sha",)]
    paths = {r["code_path"] for r in doc["results"] if r["family"] != "noop"}
    assert paths == {"OPENSSL_ia32cap=", "OPENSSL_ia32cap=~0x0:~0x20000000"}
    run_id = doc["run"]["id"]
    table = run_cli("show", run_id).stdout
    assert "fake-can/fakelib [-sha]" in table and "SHA-NI ×1.00" in table  # fixed samples
    assert "fake-can/fakelib [-sha]" in run_cli("show", run_id, "--format", "markdown").stdout
    shown = run_cli("show", run_id, "--format", "csv").stdout
    assert "sha" in {r["cpu_features_off"] for r in csv.DictReader(io.StringIO(shown))}


def test_a_bad_feature_name_exits_2(tmp_path, monkeypatch, run_cli):
    _fake(tmp_path, "fake-can", True)
    monkeypatch.setenv("CRYPTOBENCH_RUNNERS", str(tmp_path / "runners"))
    proc = run_cli("run", *FAST, "--cpu-features", "-sse9")
    assert proc.returncode == 2 and "valid: -sha" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_library_that_never_uses_the_feature_is_not_measured_twice(
    tmp_path, monkeypatch, run_cli
):
    folder = tmp_path / "runners" / "fake-portable"
    folder.mkdir(parents=True)
    (folder / "runner.toml").write_text(
        f'schema = 1\nruntime = "fake-portable"\nlanguage = "fake"\nstartup_timeout = 5\n'
        f'[run]\ncommand = ["{sys.executable}", "{FAKE}", "fixed"]\n'
        '[cpu_features.unused]\nfakelib = ["sha"]\n'
    )
    monkeypatch.setenv("CRYPTOBENCH_RUNNERS", str(tmp_path / "runners"))
    proc = run_cli("run", *FAST, "--cpu-features", "-sha", "--format", "json")
    alone = [r for r in json.loads(proc.stdout)["results"] if r["family"] != "noop"]
    assert [r["status"] for r in alone] == ["ok"]  # -sha alone: measured, labelled -sha
    assert alone[0]["cpu_features_off"] == ["sha"]
    args = [*FAST, "--cpu-features", "default", "--cpu-features", "-sha", "--format", "json"]
    rows = [r for r in json.loads(run_cli("run", *args).stdout)["results"] if r["family"] != "noop"]
    by_off = {tuple(r["cpu_features_off"]): r for r in rows}
    assert by_off[()]["status"] == "ok"
    assert by_off[("sha",)]["status"] == "skipped"
    assert "never takes" in by_off[("sha",)]["error"]


# -- rust/rustcrypto: the soft build ([cpu_features.variant]) --------------------------------
def _rust(tmp_path, built: bool):
    """The real rust runner.toml, resolved for a folder where the soft build exists or not."""
    import shutil

    shutil.copy(ROOT / "runners" / "rust" / "runner.toml", tmp_path / "runner.toml")
    if built:
        binary = tmp_path / "target" / "soft" / "release" / "cryptobench-rust"
        binary.parent.mkdir(parents=True)
        binary.write_text("")
    return load_toml(tmp_path)


SOFT = ("sha", "aes", "pclmul")
DEFAULT_BINARY = "/r/target/release/cryptobench-rust"


def test_rustcrypto_switches_sha_aes_pclmul_off_by_running_the_soft_build(tmp_path):
    t = cf.resolve(_rust(tmp_path, built=True), tmp_path, None)
    assert cf.cannot(t, "rustcrypto", SOFT) == []
    assert cf.cannot(t, "rustcrypto", (*SOFT, "crc32")) == []  # no CRC in RustCrypto
    argv, env = cf.apply([DEFAULT_BINARY], {}, t, SOFT)
    assert argv == [str(tmp_path / "target" / "soft" / "release" / "cryptobench-rust")]
    assert "OPENSSL_ia32cap" in env  # aws-lc-rs in the same process still gets its mask
    assert cf.support(t, "rustcrypto") == {
        "sha": "variant",
        "aes": "variant",
        "pclmul": "variant",
        "crc32": "unused",
    }


def test_the_soft_build_never_runs_for_part_of_its_features(tmp_path):
    t = cf.resolve(_rust(tmp_path, built=True), tmp_path, None)
    # -sha alone would also lose AES-NI and CLMUL in the soft build: not offered, default binary
    assert cf.cannot(t, "rustcrypto", ("sha",)) == ["sha"]
    assert cf.cannot(t, "rustcrypto", ("sha", "aes")) == ["sha", "aes"]
    assert cf.apply([DEFAULT_BINARY], {}, t, ("sha",))[0] == [DEFAULT_BINARY]
    # argon2 picks AVX2 at run time with no switch: baseline stays not offered
    assert cf.cannot(t, "rustcrypto", cf.FEATURES) == ["avx512", "avx2"]
    assert cf.cannot(t, "ring", SOFT) == list(SOFT)


def test_without_the_soft_build_rustcrypto_cannot_switch(tmp_path):
    t = cf.resolve(_rust(tmp_path, built=False), tmp_path, None)
    assert cf.cannot(t, "rustcrypto", SOFT) == list(SOFT)
    assert cf.apply([DEFAULT_BINARY], {}, t, SOFT)[0] == [DEFAULT_BINARY]
    assert "make -C runners/rust soft" in t["variant"]["missing"]


def test_rust_native_never_runs_the_soft_build(tmp_path):
    t = cf.resolve(_rust(tmp_path, built=True), tmp_path, "native")
    assert "variant" not in t
    assert cf.cannot(t, "rustcrypto", SOFT) == list(SOFT)


def test_the_soft_build_is_no_runtime_of_its_own():
    from cryptobench.runtimes.discovery import discover

    assert not [s for s in discover() if s.runtime_id == "rust@soft"]


def test_the_makefile_builds_the_soft_binary_with_the_cfgs_runner_toml_declares():
    import re

    make = (ROOT / "runners" / "rust" / "Makefile").read_text()
    cfgs = set(re.search(r"^SOFT_CFG := (.*)$", make, re.M).group(1).split(" --cfg "))
    cfgs = {c.removeprefix("--cfg ").strip() for c in cfgs}
    declared = {c for frag in table("rust")["variant"]["off"].values() for c in frag}
    assert cfgs == declared
