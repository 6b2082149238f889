"""`--cpu-features`: a run's feature sets — the live runtimes for the default paths and a
switched copy of each for every other set — and the cases each set runs (docs/methodology.md,
"Code paths")."""

from __future__ import annotations

import dataclasses

from . import cpu_features
from .session import Runtime


def switched_sets(live: list[Runtime], wanted) -> dict[tuple, list[Runtime]]:
    """{features off: runtimes}: the live runtimes for the default paths, a fresh copy of
    each (its own processes, its own hello) for every other feature set."""
    return {off: live if not off else [rt.switched(off) for rt in live] for off in wanted}


def for_sets(cases, not_offered, sets):
    """Every case once per feature set, with the implementation the switched runtime
    declared (its own code path); one that cannot switch a feature off is not offered."""
    out, refused = [], []
    for off, rts in sets.items():
        if not off:  # compared with other sets: only what can switch (its refusal says why)
            out += [c for c in cases if switches_somewhere(c, sets)]
            refused += not_offered
            continue
        by_id = {rt.id: rt for rt in rts}
        for case in cases:
            rt = by_id[case.impl.runtime_id]
            cannot = rt.cannot(case.impl.library)
            switched = dataclasses.replace(case, cpu_off=off)
            if cannot:
                names = ", ".join(cpu_features.NAMES[f] for f in cannot)
                refused.append((switched, f"not offered: cannot switch off {names}"))
            elif () in sets and rt.never_uses(case.impl.library):
                why = "skipped: its code never takes these paths (its default row is the figure)"
                refused.append((switched, why))
            else:
                out.append(switched)
        refused += [(dataclasses.replace(c, cpu_off=off), why) for c, why in not_offered]
    return out, refused


def switches_somewhere(case, sets) -> bool:
    """True without other feature sets, or when some other set can run the case."""
    others = [{rt.id: rt for rt in rts} for off, rts in sets.items() if off]
    return not others or any(
        not by_id[case.impl.runtime_id].cannot(case.impl.library) for by_id in others
    )


def switched_impls(sets, cases):
    """The cases with each switched runtime's own hello (code path), once it has started."""
    out = []
    for case in cases:
        if case.cpu_off:
            rt = next(r for r in sets[case.cpu_off] if r.id == case.impl.runtime_id)
            if not rt.implementations and not rt.failed:
                rt.start()
            impl = next((i for i in rt.implementations if i.id == case.impl.id), None)
            case = dataclasses.replace(case, impl=impl) if impl else case
        out.append(case)
    return out
