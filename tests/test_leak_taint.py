"""The secret-taint check (`cryptobench leak --taint`): memcheck's XML read on a fixed sample,
the two processes' sites merged with their counts, and the C, C++ and Rust runners under
memcheck on their two controls — the early-exit one must show a branch on the secret that runs
more often when the inputs differ later, the constant-time one none — and on an AEAD open
(deterministic: no timing)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from cryptobench.catalog import primitives as catalog_mod
from cryptobench.leak import taint
from cryptobench.leak.targets import Target, plan_targets
from cryptobench.runtimes import discovery, memcheck, valgrind
from cryptobench.runtimes.session import Runtime


def _error(kind: str, frames: list[tuple[str, str]], unique: str = "0x0") -> str:
    stack = "".join(
        f"<frame><ip>0x1</ip><obj>/usr/lib/{obj}</obj><fn>{fn}</fn></frame>" for fn, obj in frames
    )
    head = f"<error><unique>{unique}</unique><tid>1</tid><kind>{kind}</kind>"
    return f"{head}<stack>{stack}</stack></error>"


def _counts(**by_unique: int) -> str:
    pairs = "".join(
        f"<pair><count>{n}</count><unique>{u}</unique></pair>" for u, n in by_unique.items()
    )
    return f"<errorcounts>{pairs}</errorcounts>"


def _xml(*parts: str) -> str:
    body = "".join(parts)
    head = '<?xml version="1.0"?><valgrindoutput><protocolversion>4</protocolversion>'
    return f"{head}{body}</valgrindoutput>"


MARK = f"<clientmsg><tid>1</tid><text>{memcheck.MARK}\n</text></clientmsg>"


def test_only_errors_after_the_mark_count_once_per_site():
    xml = _xml(
        _error("UninitCondition", [("start_up", "runner")]),  # before the mark: not the secret's
        MARK,
        _error("UninitCondition", [("bcmp", "vgpreload_memcheck.so"), ("handle_leak", "runner")]),
        _error("UninitCondition", [("bcmp", "vgpreload_memcheck.so"), ("time_compare", "runner")]),
        _error(
            "UninitValue", [("??", "libcrypto.so.3"), ("EVP_DecryptFinal_ex", "libcrypto.so.3")]
        ),
        _error("InvalidRead", [("other", "runner")]),  # not a taint finding
    )
    found = memcheck.sites(xml)
    assert [(s.kind, s.symbol) for s in found] == [("branch", "bcmp"), ("memory index", "??")]
    assert found[0].obj == "vgpreload_memcheck.so" and found[0].stack == ("bcmp", "handle_leak")
    assert memcheck.describe(found) == (
        "secret-dependent branch at bcmp; secret-dependent memory index at ?? in "
        "libcrypto.so.3 (called from EVP_DecryptFinal_ex)"
    )


def test_nothing_after_the_mark_is_none_found_and_no_mark_is_an_error():
    assert memcheck.describe(memcheck.sites(_xml(MARK))) == "none found"
    with pytest.raises(ValueError, match="mark"):
        memcheck.sites(_xml(_error("UninitCondition", [("f", "runner")])))
    with pytest.raises(ValueError, match="memcheck XML"):
        memcheck.sites("<valgrindoutput><error>")


def test_site_counts_add_up_the_repeats_of_each_site_after_the_mark():
    xml = _xml(
        _error("UninitCondition", [("start_up", "runner")], "0x0"),  # before the mark
        MARK,
        _error("UninitCondition", [("bcmp", "vgpreload_memcheck.so")], "0x1"),
        _error("UninitCondition", [("bcmp", "vgpreload_memcheck.so")], "0x2"),  # another ip
        _error("UninitValue", [("set_key", "libx.so")], "0x3"),
        _counts(**{"0x0": 5, "0x1": 16, "0x2": 32, "0x3": 80}),
    )
    assert memcheck.site_counts(xml) == {("branch", "bcmp"): 48, ("memory index", "set_key"): 80}


def _site(kind: str, symbol: str) -> memcheck.Site:
    return memcheck.Site(kind, symbol, "runner", "", (symbol, "main"))


def test_merged_sites_carry_both_counts_and_the_text_names_an_early_exit():
    bcmp, decide, key = (
        _site("branch", "bcmp"),
        _site("branch", "open"),
        _site("memory index", "set_key"),
    )
    first = ([bcmp, key], {("branch", "bcmp"): 6, ("memory index", "set_key"): 80})
    last = (
        [key, bcmp, decide],
        {("branch", "bcmp"): 48, ("memory index", "set_key"): 80, ("branch", "open"): 3},
    )
    found = taint.merged([first, last])
    assert [(f["symbol"], f["counts"]) for f in found] == [
        ("bcmp", [6, 48]),
        ("set_key", [80, 80]),
        ("open", [0, 3]),
    ]
    assert found[0]["stack"] == ["bcmp", "main"]
    assert taint.describe(found) == (
        "secret-dependent branch at bcmp (6× vs 48×: depends on where it differs); "
        "secret-dependent memory index at set_key (80× in both classes); "
        "secret-dependent branch at open (0× vs 3×: depends on where it differs)"
    )
    assert taint.describe([]) == "none found"


def _runtime(rid: str) -> Runtime:
    spec = next((s for s in discovery.discover() if s.runtime_id == rid), None)
    if spec is None or spec.skipped:
        pytest.skip(f"{rid} runner: {spec.skipped if spec else 'not found'}")
    if valgrind.missing():
        pytest.skip(valgrind.missing())
    return Runtime(spec)


@pytest.mark.parametrize("rid", ["c", "cpp", "rust"])
@pytest.mark.parametrize(("control", "says"), [("equal", "branch at"), ("equal-ct", "none found")])
def test_the_runner_flags_the_early_exit_control_and_passes_the_constant_time_one(
    rid, control, says
):
    rt = _runtime(rid)
    assert rt.spec.leak_taint  # runner.toml [leak] taint = true
    try:
        t = Target(rt, None, control, "control", "compare", 1, size=64)
        got = taint.check(t, None, seed=1, timeout=60)
    finally:
        rt.stop()
    assert got["status"] == "ok", got
    assert got["tainted"] == ["a"]
    assert says in got["text"]
    if control == "equal":
        first, last = got["found"][0]["counts"]
        assert got["found"][0]["kind"] == "branch"
        assert first < last  # the early exit: the later the difference, the more it runs


AEADS = {"c": ("libsodium", "chacha20-poly1305"), "cpp": ("botan", "chacha20-poly1305")}
AEADS["rust"] = ("rustcrypto", "aes-256-gcm")


@pytest.mark.parametrize("rid", sorted(AEADS))
def test_an_aead_open_is_checked_with_its_key_marked_and_no_early_exit(rid):
    """Each site of a constant-time tag check runs as often whichever tag byte is wrong (the
    accept/reject decision); a comparison that stops early would not."""
    rt = _runtime(rid)
    rt.ensure()  # its hello lists the implementations
    cat = catalog_mod.load()
    lib, prim = AEADS[rid]
    plan = SimpleNamespace(
        measurements=1000, impls=[f"{rid}/{lib}"], primitives=[prim], control_bytes=None
    )
    targets = [t for t in plan_targets([rt], cat, plan) if t.impl]
    if not targets:
        rt.stop()
        pytest.skip(f"{rid}/{lib} does not offer {prim} here")
    try:
        got = taint.check(targets[0], cat, seed=1, timeout=60)
    finally:
        rt.stop()
    assert got["status"] == "ok", got
    assert got["tainted"] == ["key"]
    for site in got["found"]:
        assert site["kind"] in ("branch", "memory index", "system call argument")
        assert site["counts"][0] == site["counts"][1], site


def test_a_variant_can_refuse_the_taint_its_base_offers():
    """rust@native: runner.toml's variant sets leak = {taint = false} (AVX-512 under Valgrind)."""
    specs = {s.runtime_id: s for s in discovery.discover()}
    assert specs["rust"].leak_taint
    assert not specs["rust@native"].leak_taint


def test_runners_without_taint_are_not_offered():
    spec = next(s for s in discovery.discover() if s.runtime_id == "python")
    t = Target(Runtime(spec), None, "equal", "control", "compare", 1, size=64)
    assert taint.check(t, None, seed=1, timeout=60)["status"] == "not offered"


def test_a_variants_leak_taint_must_be_a_boolean(tmp_path):
    (tmp_path / "runner.toml").write_text(
        'schema = 1\nruntime = "x"\n[run]\ncommand = ["bin/x"]\n'
        '[[variants]]\nname = "v"\nleak = { taint = "no" }\n'
    )
    with pytest.raises(discovery.RunnerTomlError, match="variants.leak.taint"):
        discovery.load_toml(tmp_path)
