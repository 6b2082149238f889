"""A preset's `exclude` (globs, as --exclude) leaves implementations to another preset."""

from __future__ import annotations

from cryptobench.catalog import primitives as catalog
from cryptobench.plan import cases as plan
from cryptobench.runtimes.protocol import Implementation, Offer


def test_default_leaves_out_what_full_runs():
    default, full = plan.load_preset("default"), plan.load_preset("full")
    assert default.exclude and not full.exclude
    assert [g.primitives for g in default.groups] == [g.primitives for g in full.groups]
    assert [g.sizes for g in default.groups] == [g.sizes for g in full.groups]


def test_preset_exclusions_join_the_filters():
    preset = plan.Preset("p", "", [], exclude=["java@25/*"])
    f = plan.with_preset_exclusions(preset, plan.Filters(exclude=["c/zlib"]))
    assert f.exclude == ["c/zlib", "java@25/*"]


def test_naming_an_implementation_overrides_the_preset():
    preset = plan.Preset("p", "", [], exclude=["python/pynacl"])
    f = plan.Filters(impls=["python/pynacl"])
    assert plan.with_preset_exclusions(preset, f) is f
    assert plan.with_preset_exclusions(None, plan.Filters()).exclude == []


def _impl(impl_id: str) -> Implementation:
    runtime = impl_id.split("/")[0]
    return Implementation(impl_id, runtime, impl_id.split("/")[1], "1", {}, SHA256)


SHA256 = {"sha256": Offer(("digest",))}
IMPLS = [_impl(i) for i in ("java/jdk", "java/accp", "java@25/jdk", "python/hashlib")]


def _asked(f: plan.Filters, preset: plan.Preset | None = None) -> set[str]:
    cat = catalog.load()
    narrowed = plan.with_preset_exclusions(plan.selection_for(preset, f, cat), f)
    cases, _ = plan.build(plan.groups_for(preset, f, cat), narrowed, cat, IMPLS)
    return {c.impl.id for c in cases}


def test_a_question_asks_what_a_bare_run_asks():
    """`run --primitive sha256` takes `default`'s exclusions: the second JDK and the wrapped
    providers are left to `--preset full`, as a bare `run` leaves them."""
    f = plan.Filters(primitives=["sha256"], sizes=[1024])
    assert _asked(f) == {"java/jdk", "python/hashlib"}
    default = plan.load_preset("default")
    assert {"java@25/*", "java/accp"} <= set(default.exclude)


def test_naming_a_runtime_or_an_implementation_asks_all_of_it():
    """`--runtime java` compares the JDKs and providers; `--impl` names one back."""
    every = {"java/jdk", "java/accp", "java@25/jdk"}
    assert _asked(plan.Filters(runtimes=["java"], primitives=["sha256"])) >= every
    got = _asked(plan.Filters(impls=["java/accp"], primitives=["sha256"]))
    assert got == {"java/accp"}


def test_a_named_preset_keeps_its_own_selection():
    full = plan.load_preset("full")
    f = plan.Filters(primitives=["sha256"], sizes=[1024])
    assert plan.selection_for(full, f, catalog.load()) is full
    assert _asked(f, full) == {i.id for i in IMPLS}


def test_left_out_names_the_implementations_with_no_case_left():
    cat = catalog.load()
    f = plan.Filters(primitives=["sha256"], sizes=[1024])
    everything, _ = plan.build(plan.groups_for(None, f, cat), f, cat, IMPLS)
    kept = [c for c in everything if not c.impl.id.startswith("java@25")]
    assert plan.left_out(everything, kept) == ["java@25/jdk"]
    assert plan.left_out(everything, everything) == []
