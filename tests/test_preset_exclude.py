"""A preset's `exclude` (globs, as --exclude) leaves implementations to another preset."""

from __future__ import annotations

from cryptobench.plan import cases as plan


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
