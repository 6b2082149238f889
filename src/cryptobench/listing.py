"""What `list`, `presets`, `verify` and `runs` print (tables or JSON)."""

from __future__ import annotations

import io
import json

from rich.console import Console
from rich.table import Table

from . import plan, sizes
from .catalog import Catalog
from .inputs import case_inputs
from .protocol import RunnerFailure
from .results import implementation_dict
from .rounds import estimate
from .session import Runtime

VERIFY_SIZES = (0, 1, 64, 1000, 16384)


def _text(render) -> str:
    buf = io.StringIO()
    render(Console(file=buf, width=160, no_color=True))
    return buf.getvalue()


def render_list(live: list[Runtime], skipped, fmt: str, catalog: Catalog | None = None) -> str:
    if fmt == "json":
        doc = {
            "runtimes": [rt.info for rt in live],
            "implementations": [implementation_dict(i) for rt in live for i in rt.implementations],
            "skipped": [{"runtime": r, "reason": why} for r, why in skipped],
        }
        if catalog is not None:
            doc["declared_sizes"] = sizes.declared_all(catalog, live)
        return json.dumps(doc, indent=2) + "\n"

    def draw(console):
        rts = Table(title="runtimes", title_justify="left")
        for col in ("runtime", "version", "details"):
            rts.add_column(col)
        for rt in live:
            details = ", ".join(f"{k}={v}" for k, v in (rt.info.get("details") or {}).items())
            rts.add_row(rt.id, f"{rt.info.get('name', '')} {rt.info.get('version', '')}", details)
        for rid, why in skipped:
            rts.add_row(rid, "skipped", why)
        console.print(rts)
        impls = Table(title="implementations", title_justify="left")
        for col in ("implementation", "version", "backend", "primitives (operations)"):
            impls.add_column(col, overflow="fold")
        for rt in live:
            for i in rt.implementations:
                prims = ", ".join(
                    f"{p} ({'/'.join(o.operations)}{sizes.list_suffix(catalog, p, o)})"
                    for p, o in sorted(i.primitives.items())
                )
                impls.add_row(i.id, i.version, i.backend_label, prims)
        console.print(impls)

    return _text(draw)


def render_presets(cat: Catalog, live: list[Runtime], rounds: int = 3) -> str:
    impls = [i for rt in live for i in rt.implementations]
    isolated = {rt.id for rt in live if rt.isolate}

    def draw(console):
        t = Table(
            title="presets (durations estimated for the runtimes found here)", title_justify="left"
        )
        for col in ("preset", "what it runs", "cases", "about"):
            t.add_column(col, overflow="fold")
        for name in plan.preset_names():
            p = plan.load_preset(name)
            cases, _ = plan.build(p.groups, plan.Filters(), cat, impls)
            prims = sorted({pr for g in p.groups for pr in g.primitives})
            mins = estimate(cases, p.time_per_case or 1.0, rounds, isolated) / 60
            t.add_row(
                name, f"{p.description}\n[{', '.join(prims)}]", str(len(cases)), f"{mins:.1f} min"
            )
        console.print(t)

    return _text(draw)


def verify_matrix(
    verifier, cat: Catalog, live: list[Runtime], runtimes, impl_ids, primitives, console
) -> list[dict]:
    """Known answers for every offered (implementation, primitive, operation), then agreement
    on random inputs at several sizes."""
    rows = []
    for rt in live:
        if runtimes and not any(plan.runtime_matches(rt.id, r) for r in runtimes):
            continue
        for impl in rt.implementations:
            if impl_ids and impl.id not in impl_ids:
                continue
            for pid, offer in sorted(impl.primitives.items()):
                if pid not in cat or (primitives and pid not in primitives):
                    if pid not in cat:
                        rows.append(
                            {
                                "implementation": impl.id,
                                "primitive": pid,
                                "operation": "*",
                                "ok": False,
                                "detail": "not a catalog id",
                            }
                        )
                    continue
                for op in offer.operations:
                    rows.append(_verify_one(verifier, cat, impl, pid, op))
                    console.print(
                        f"{'ok  ' if rows[-1]['ok'] else 'FAIL'} {impl.id} {pid} {op}", markup=False
                    )
    return rows


def _verify_one(verifier, cat, impl, pid, op) -> dict:
    prim = cat.get(pid)
    row = {"implementation": impl.id, "primitive": pid, "operation": op}
    try:
        check = verifier.known_answers(impl, pid, op)
        details = [check.detail]
        sizes = plan.PASSWORD_SIZES if prim.is_slow else VERIFY_SIZES
        params = cat.resolve_params(prim, {}, op)
        for size in sizes if check.ok else ():
            inputs = case_inputs(prim, op, size, params, seed=size)
            res, _, _ = verifier.check_case(impl, prim, op, inputs, params)
            if not res.ok:
                check = res
                details = [f"size {size}: {res.detail}"]
                break
            details = [res.detail]
        return {**row, "ok": check.ok, "detail": details[-1]}
    except RunnerFailure as exc:
        return {**row, "ok": False, "detail": f"runner {exc}"}


def render_matrix(rows: list[dict], fmt: str) -> str:
    if fmt == "json":
        return json.dumps({"verification": rows}, indent=2) + "\n"

    def draw(console):
        t = Table(title="verification", title_justify="left")
        for col in ("implementation", "primitive", "operation", "result", "detail"):
            t.add_column(col, overflow="fold")
        for r in rows:
            t.add_row(
                r["implementation"],
                r["primitive"],
                r["operation"],
                "ok" if r["ok"] else "FAILED",
                r["detail"],
            )
        console.print(t)
        failed = sum(not r["ok"] for r in rows)
        console.print(f"{len(rows) - failed} passed, {failed} failed")

    return _text(draw)


def render_runs(runs: list[dict], fmt: str) -> str:
    if fmt == "json":
        return json.dumps({"runs": runs}, indent=2) + "\n"

    def draw(console):
        t = Table(title="runs", title_justify="left")
        for col in ("id", "started", "status", "preset", "cases", "command"):
            t.add_column(col, overflow="fold")
        for r in runs:
            t.add_row(
                r["id"][:8],
                r["started"],
                r["status"],
                r.get("preset") or "",
                str(r.get("n_cases", "")),
                r.get("command", ""),
            )
        console.print(t)

    return _text(draw)
