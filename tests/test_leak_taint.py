"""The secret-taint check (`cryptobench leak --taint`): memcheck's XML read on a fixed sample,
and the C and C++ runners under memcheck on their two controls — the early-exit one must show
a branch on the secret, the constant-time one none (deterministic: no timing)."""

from __future__ import annotations

import pytest

from cryptobench.leak import taint
from cryptobench.leak.targets import Target
from cryptobench.runtimes import discovery, memcheck, valgrind
from cryptobench.runtimes.session import Runtime


def _error(kind: str, frames: list[tuple[str, str]]) -> str:
    stack = "".join(
        f"<frame><ip>0x1</ip><obj>/usr/lib/{obj}</obj><fn>{fn}</fn></frame>" for fn, obj in frames
    )
    return (
        f"<error><unique>0x0</unique><tid>1</tid><kind>{kind}</kind><stack>{stack}</stack></error>"
    )


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


def _runtime(rid: str) -> Runtime:
    spec = next((s for s in discovery.discover() if s.runtime_id == rid), None)
    if spec is None or spec.skipped:
        pytest.skip(f"{rid} runner: {spec.skipped if spec else 'not found'}")
    if valgrind.missing():
        pytest.skip(valgrind.missing())
    return Runtime(spec)


@pytest.mark.parametrize("rid", ["c", "cpp"])
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
        assert got["found"][0]["kind"] == "branch"


def test_runners_without_taint_are_not_offered():
    spec = next(s for s in discovery.discover() if s.runtime_id == "python")
    t = Target(Runtime(spec), None, "equal", "control", "compare", 1, size=64)
    assert taint.check(t, None, seed=1, timeout=60)["status"] == "not offered"
