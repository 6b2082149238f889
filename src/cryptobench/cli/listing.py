"""What `list`, `presets`, `verify` and `runs` print (tables or JSON)."""

from __future__ import annotations

import io
import json
from concurrent.futures import ThreadPoolExecutor

from rich.console import Console
from rich.table import Table

from ..catalog.primitives import Catalog
from ..measure.rounds import JIT_ROUNDS, LEAST_ROUNDS, ROUNDS, estimate
from ..measure.sampling import TIME_PER_CASE_S
from ..plan import cases as plan
from ..report.tty import terminal_width
from ..results.document import implementation_dict
from ..runtimes import cpu_features
from ..runtimes import declared_sizes as sizes
from ..runtimes.discovery import runtime_matches
from ..runtimes.inputs import case_inputs
from ..runtimes.protocol import RunnerFailure
from ..runtimes.session import Runtime, group_starts
from ..verify.cache import Cache, Fingerprints

VERIFY_SIZES = (0, 1, 64, 1000, 16384)


def _text(render) -> str:
    buf = io.StringIO()
    render(Console(file=buf, width=terminal_width(), no_color=True))
    return buf.getvalue()


def switchable(rt: Runtime, library: str) -> str:
    """What `--cpu-features` can switch off in this library, and how (``-sha`` (unused): its
    code never takes that path)."""
    how = cpu_features.support(rt.spec.cpu_features, library)
    if not how:
        return "nothing"
    return " ".join(f"-{f}" + (" (unused)" if h == "unused" else "") for f, h in how.items())


def render_list(live: list[Runtime], skipped, fmt: str, catalog: Catalog | None = None) -> str:
    if fmt == "json":
        doc = {
            "runtimes": [rt.info for rt in live],
            "implementations": [
                {
                    **implementation_dict(i, rt.one_cpu_why(i.library)),
                    "cpu_features": cpu_features.support(rt.spec.cpu_features, i.library),
                }
                for rt in live
                for i in rt.implementations
            ],
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
        impls.add_column("--cpu-features can switch off", overflow="fold")
        for rt in live:
            for i in rt.implementations:
                prims = ", ".join(
                    f"{p} ({'/'.join(o.operations)}{sizes.list_suffix(catalog, p, o)})"
                    for p, o in sorted(i.primitives.items())
                )
                impls.add_row(i.id, i.version, i.backend_label, prims, switchable(rt, i.library))
        console.print(impls)

    return _text(draw)


def render_presets(cat: Catalog, live: list[Runtime], rounds: int = ROUNDS) -> str:
    impls = [i for rt in live for i in rt.implementations]
    compiling = {rt.id for rt in live if rt.spec.compiles}  # JIT_ROUNDS
    starts = group_starts(live)
    warmups = {rt.id: rt.spec.warm_up_s for rt in live}

    def draw(console):
        t = Table(
            title="presets (durations estimated for the runtimes found here)", title_justify="left"
        )
        for col in ("preset", "what it runs", "cases", "about"):
            t.add_column(col, overflow="fold")
        for name in plan.preset_names():
            p = plan.load_preset(name, cat)
            f = plan.with_preset_exclusions(p, plan.Filters())
            cases, _ = plan.build(p.groups, f, cat, impls)
            prims = sorted({pr for g in p.groups for pr in g.primitives})
            sets = max(1, len(p.cpu_features))  # each feature set: every case again, at most
            secs = estimate(
                cases,
                p.time_per_case or TIME_PER_CASE_S,
                rounds,
                compiling,
                starts,
                JIT_ROUNDS,
                warmups,
                least=LEAST_ROUNDS,  # as `run --preset` measures it
            )
            mins = sets * secs / 60
            count = f"≤ {sets * len(cases)}" if sets > 1 else str(len(cases))
            t.add_row(name, f"{p.description}\n[{', '.join(prims)}]", count, f"{mins:.1f} min")
        console.print(t)

    return _text(draw)


def verify_matrix(
    verifier, cat: Catalog, live: list[Runtime], runtimes, impl_ids, primitives, console, cache, fps
) -> list[dict]:
    """Known answers for every offered (implementation, primitive, operation), then agreement
    on random inputs at several sizes: every runtime at once (one worker each), rows an
    earlier call verified with nothing changed taken from ``cache`` (verify/cache.py), keyed
    by ``fps``, the fingerprints of ``live`` (Fingerprints.of)."""
    chosen = [rt for rt in live if not runtimes or any(runtime_matches(rt.id, r) for r in runtimes)]

    def one_runtime(rt: Runtime) -> list[dict]:
        rows = []
        for impl in rt.implementations:
            if impl_ids and impl.id not in impl_ids:
                continue
            for pid, offer in sorted(impl.primitives.items()):
                if pid not in cat:
                    rows.append({**_row(impl.id, pid, "*"), "ok": False, "status": "failed"})
                    rows[-1]["detail"] = "not a catalog id"
                    continue
                if primitives and pid not in primitives:
                    continue
                for op in offer.operations:
                    rows.append(_verify_cached(verifier, cat, impl, pid, op, cache, fps))
                    mark = {"ok": "ok  ", "unverifiable": "n/v "}.get(rows[-1]["status"], "FAIL")
                    console.print(f"{mark} {impl.id} {pid} {op}", markup=False)
        return rows

    with ThreadPoolExecutor(max_workers=max(1, len(chosen))) as pool:
        return [row for rows in pool.map(one_runtime, chosen) for row in rows]


def _row(impl_id: str, pid: str, op: str) -> dict:
    return {"implementation": impl_id, "primitive": pid, "operation": op}


def _verify_cached(verifier, cat, impl, pid, op, cache: Cache, fps: Fingerprints) -> dict:
    key = fps.key(impl.id, pid, ["verify matrix", op])
    kept = cache.get(key)
    if kept is not None:
        return {**kept, "cached": True}
    row = _verify_one(verifier, cat, impl, pid, op)
    if row["status"] in ("ok", "unverifiable"):
        cache.put(key, row)
    return row


def _verify_one(verifier, cat, impl, pid, op) -> dict:
    prim = cat.get(pid)
    row = _row(impl.id, pid, op)
    try:
        check = verifier.known_answers(impl, pid, op)
        details = [check.detail]
        sizes = plan.PASSWORD_SIZES if prim.is_slow else VERIFY_SIZES
        if prim.is_pubkey:  # keygen/agree: no size; sign/verify: a 32-byte message
            sizes = plan.sizes_for(prim, op, None)
        params = cat.resolve_params(prim, {}, op)
        for size in sizes if check.ok else ():
            inputs = case_inputs(prim, op, size, params, seed=size)
            res, _, _ = verifier.check_case(impl, prim, op, inputs, params)
            if not res.ok:
                check = res
                details = [f"size {size}: {res.detail}"]
                break
            details = [res.detail]
        status = "ok" if check.ok else "unverifiable" if check.unverifiable else "failed"
        return {**row, "ok": check.ok, "status": status, "detail": details[-1]}
    except RunnerFailure as exc:
        return {**row, "ok": False, "status": "failed", "detail": f"runner {exc}"}


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
                {"ok": "ok", "unverifiable": "unverifiable"}.get(r["status"], "FAILED"),
                r["detail"],
            )
        console.print(t)
        counts = {s: sum(r["status"] == s for r in rows) for s in ("ok", "unverifiable", "failed")}
        console.print(
            f"{counts['ok']} passed, {counts['unverifiable']} unverifiable "
            f"(never timed), {counts['failed']} failed"
        )

    return _text(draw)


def render_runs(runs: list[dict], fmt: str) -> str:
    if fmt == "json":
        return json.dumps({"runs": runs}, indent=2) + "\n"

    def draw(console):
        t = Table(title="runs", title_justify="left")
        for col in ("id", "name", "machine", "started", "status", "preset", "cases", "command"):
            t.add_column(col, overflow="fold")
        for r in runs:
            m = r.get("machine") or {}
            t.add_row(
                r["id"][:8],
                r.get("name") or "",
                m.get("label") or m.get("hostname") or "",
                r["started"],
                r["status"] + (f" ({r['status_detail']})" if r.get("status_detail") else ""),
                r.get("preset") or "",
                str(r.get("n_cases", "")),
                r.get("command", ""),
            )
        console.print(t)

    return _text(draw)
