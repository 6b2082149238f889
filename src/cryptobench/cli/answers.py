"""The commands that answer a question: calibrate (password-hash cost for a target time) and
advise (the fastest safe choice for a use)."""

from __future__ import annotations

import random
import re
import shlex
import sys
import time
from pathlib import Path

import click

from ..paths import default_db
from .common import Sources, db_option, err, guarded, output, write
from .types import SEED, TIMEOUT, Finite

_UNITS = {
    "time": {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0, "min": 60.0},
    "memory": {"kib": 1, "k": 1, "mib": 1024, "m": 1024, "gib": 1 << 20, "g": 1 << 20},
}


class Quantity(click.ParamType):
    """``250ms``, ``1.5s``, ``64MiB``: a number with a unit (time in s, memory in KiB)."""

    def __init__(self, kind: str, default_unit: str):
        self.kind, self.default_unit = kind, default_unit
        self.name = kind

    def convert(self, value, param, ctx):
        if isinstance(value, int | float):
            return value
        m = re.fullmatch(r"\s*([0-9]*\.?[0-9]+)\s*([a-zA-Zµ]*)\s*", str(value))
        units = _UNITS[self.kind]
        unit = (m.group(2) if m else "") or self.default_unit
        if not m or unit.lower() not in {u.lower() for u in units}:
            self.fail(
                f"{value!r} is not a {self.kind} (a number with one of: {', '.join(units)})",
                param,
                ctx,
            )
        factor = next(f for u, f in units.items() if u.lower() == unit.lower())
        amount = float(m.group(1)) * factor
        if amount <= 0:
            self.fail(f"{value!r} must be positive", param, ctx)
        return amount


def _command() -> str:
    return shlex.join(["cryptobench", *sys.argv[1:]])


@click.command()
@click.argument("algorithm")
@click.option("--target", type=Quantity("time", "ms"), default="250ms", show_default=True)
@click.option(
    "--memory",
    type=Quantity("memory", "MiB"),
    default=None,
    help="Argon2's m (default 64MiB, RFC 9106); for scrypt, a cap on 128·N·r",
)
@click.option("--runtime", "runtimes", multiple=True)
@click.option("--impl", "impls", multiple=True)
@click.option(
    "--time-budget",
    type=Quantity("time", "s"),
    default="60s",
    show_default=True,
    help="for the search and the rounds of every implementation together",
)
@click.option("--rounds", type=click.IntRange(1, 50), default=4, show_default=True)
@click.option("--format", "fmt", type=click.Choice(["table", "json", "markdown"]), default="table")
@click.option("--output", "output_path", default=None)
@click.option("--seed", type=SEED, default=None)
@click.option("--timeout", type=TIMEOUT, default=60.0, help="base seconds for one answer")
@click.option("--reverify", is_flag=True, help="verify again what the cache holds as verified")
@db_option
@guarded
def calibrate(algorithm, target, memory, runtimes, impls, time_budget, rounds, fmt, **opts):
    """Cost parameters that make one hash of ALGORITHM take --target here, per implementation,
    re-measured in rounds, with the attacker's view and OWASP's minimums."""
    started = time.monotonic()  # the budget counts from here: imports and handshakes in it
    from ..calibrate import command as calibrate_mod
    from ..results import document as results

    req = calibrate_mod.Request(
        algorithm=algorithm,
        target_s=target,
        command=_command(),
        db=Path(opts["db"]) if opts["db"] else default_db(),
        memory_kib=int(memory) if memory else None,
        runtimes=list(runtimes),
        impls=list(impls),
        time_budget_s=time_budget,
        rounds=rounds,
        seed=opts["seed"] if opts["seed"] is not None else random.SystemRandom().randrange(1 << 31),
        timeout=opts["timeout"],
        reverify=opts["reverify"],
        started=started,
    )
    run_doc, rows = calibrate_mod.Calibration(req, err.get()).run()
    output(results.document(run_doc, rows), fmt, opts["output_path"], False)
    if run_doc["status"] == "interrupted":
        sys.exit(130)
    sys.exit(1 if any(r["status"] == "failed" for r in rows) else 0)


ADVISE_CHAIN = 6  # advise's own runs (a first pass, full rounds) read back with the run before
ADVISE_LOOK = 20  # runs looked back through for one that holds the use's primitives
# runs whose rows rank nothing at the catalog's parameters: calibrate's (its own costs), leak's
PASSED_OVER = ("cryptobench calibrate", "cryptobench leak")


def _stored(sources, runs: list[dict], primitives: set[str]) -> dict | None:
    """Of ``runs`` (newest first, ADVISE_LOOK of them), the newest that holds a case of
    ``primitives``, past `calibrate` and `leak` runs and past runs that hold none (a `quick`
    run after `make bench`'s `default`: measured 2026-12-02, `advise --use password` then
    measured 15 cases for 19.5 s that the `default` run before held); where it was measured by
    `advise`, the runs before it back to the first that was not and holds one (at most
    ADVISE_CHAIN): one document, later cases replacing earlier; only the cases of
    ``primitives`` are read. Where no run holds any, the newest run, as before (what it lacks
    is measured)."""
    from ..advise.rank import merge

    ranked = primitives - {"noop"}
    docs, newest = [], None
    for run in runs:
        command = str(run.get("command", ""))
        if command.startswith(PASSED_OVER):
            continue
        doc = sources.load(run["id"], primitives=primitives)
        newest = newest or doc
        advised = command.startswith("cryptobench advise")
        if not advised and not any(r.get("primitive") in ranked for r in doc["results"]):
            continue  # holds nothing this use ranks: neither the base nor a part of it
        docs.append(doc)
        if not advised or len(docs) >= ADVISE_CHAIN:
            break
    docs = list(reversed(docs)) or ([newest] if newest else [])
    if not docs:
        return None
    impls = {i["id"]: i for d in docs for i in d["run"].get("implementations", [])}
    run = {**docs[-1]["run"], "implementations": list(impls.values())}
    return {**docs[-1], "run": run, "results": merge(docs)}


def _listed(keys: list[tuple]) -> str:
    shown = ", ".join(f"{k[0]} {k[1]} {k[2]}" for k in keys[:6])
    return f"{len(keys)} cases ({shown}{f' and {len(keys) - 6} more' if len(keys) > 6 else ''})"


def _lacking(base, miss, could, opts) -> bool:
    """Says what the run lacks; False with --no-measure (ranked without them) and where none
    of it ``could`` change the answer (advise/passes.could_win: not measured)."""
    which = f"run {base['run']['id'][:8]}" if base else "the store"
    if not could:
        err.print(
            f"{which} lacks {_listed(miss)} that cannot change this answer (the use's "
            "algorithm order ranks what is stored first): not measured",
            markup=False,
        )
        return False
    if not opts["measure"]:
        err.print(f"{which} lacks {_listed(miss)}; --no-measure: ranked without them", markup=False)
        return False
    rest = len(miss) - len(could)
    rest = f"; {rest} more cannot change it, not measured" if rest else ""
    err.print(f"{which} lacks {_listed(could)} this answer needs{rest}", markup=False)
    return True


def _lacking_here(base, found, miss, ctx, stored) -> tuple[dict, list[tuple]]:
    """(the base widened to what runs here, the keys to measure): ``miss`` (what the base's
    own implementations lack that could win) and what could win of the implementations found
    here that the base's run did not start (advise/missing.widened), said so; ``stored``: the
    rows the base ranks (passes.could_win)."""
    from ..advise import missing as advise_missing
    from ..advise import passes

    cat, pol, use, size, runtimes, bits = ctx
    doc = advise_missing.widened(base, found.implementations)
    keys = advise_missing.needed(doc, cat, pol, use.name, size, runtimes, bits)
    wider = passes.could_win(use, advise_missing.missing([doc], keys, use.operations), stored)
    more = [k for k in wider if k not in miss]
    if base is not None and more:
        which = f"run {base['run']['id'][:8]}"
        err.print(
            f"and {_listed(more)} of implementations found here that {which} did not start",
            markup=False,
        )
    return doc, wider


def _measure(base, ctx, opts, sources) -> list[dict]:
    """The cases the answer needs and no run has, only those that could still win
    (advise/passes.py), in two passes within --budget (cli/advising.py), planned at the pace
    of the last run here in the store (advising.pace_here; opened only to measure)."""
    from ..advise import missing as advise_missing
    from ..advise import passes
    from ..advise import rank as advise_mod

    cat, pol, use, size, runtimes, bits = ctx
    before = [base] if base else []

    def rank(docs):
        return advise_mod.rank(before + docs, cat, pol, use.name, size, runtimes, bits)

    miss: list[tuple] = []
    stored: list[dict] = []
    if base is not None:
        keys = advise_missing.needed(base, cat, pol, use.name, size, runtimes, bits)
        miss = advise_missing.missing([base], keys, use.operations)
        if not miss:
            return []  # answered from the store: no runner, no measuring stack imported
        stored = [e.row for e in rank([]).ranking]
        could = passes.could_win(use, miss, stored)
        if not _lacking(base, miss, could, opts):
            return []  # … nor where what it lacks cannot change the answer
        miss = could
    from . import advising

    found = advising.here(runtimes)
    try:
        doc, miss = _lacking_here(base, found, miss, ctx, stored)
        known = passes.call_seconds(doc.get("results", []), cat)
        plan = advising.Plan(miss, opts["rounds"], opts["budget"], found, known)
        plan.pace = advising.pace_here(sources.store)
        return advising.two_passes(plan, cat, rank, {**opts, "command": _command()})
    finally:
        found.stop()


@click.command()
@click.option(
    "--use",
    "use_name",
    required=True,
    help="password, kdf, checksum, integrity, mac, encryption, small-digest, key-exchange or "
    "signature",
)
@click.option(
    "--size",
    type=click.IntRange(0),
    default=None,
    help="message bytes (password length for password/kdf); default 1024 (8)",
)
@click.option("--runtime", "runtimes", multiple=True)
@click.option(
    "--security-bits",
    type=click.IntRange(1),
    default=None,
    help="key-exchange, signature: the security level compared (default 128)",
)
@click.option(
    "--pq",
    is_flag=True,
    help="key-exchange, signature: only post-quantum choices (ML-KEM and the hybrid "
    "X25519MLKEM768; ML-DSA), security category 3 (192) unless --security-bits",
)
@click.option("--from", "from_ref", default=None, help="a run (id prefix, `last`) or FILE.json")
@click.option(
    "--measure/--no-measure",
    default=True,
    show_default=True,
    help="measure the cases the run lacks",
)
@click.option("--time-per-case", type=Finite(0.01), default=None)
@click.option("--rounds", type=click.IntRange(1, 50), default=3, show_default=True)
@click.option(
    "--budget",
    type=Quantity("time", "s"),
    default="60s",
    show_default=True,
    help="for measuring what the store lacks (a first pass, then the top few in rounds)",
)
@click.option("--format", "fmt", type=click.Choice(["table", "json", "markdown"]), default="table")
@click.option("--output", "output_path", default=None)
@db_option
@guarded
def advise(use_name, size, runtimes, pq, from_ref, fmt, output_path, **opts):
    """The fastest choice the catalog's security status allows for a use: recommendation,
    runner-up, the margin with its interval, and why."""
    from ..advise import rank as advise_mod
    from ..catalog import policy
    from ..catalog import primitives as catalog
    from ..report import advice as advice_report

    cat = catalog.load()
    pol = policy.load(cat)
    if pq:
        if f"{use_name}-pq" not in pol.uses:
            raise click.UsageError("--pq applies to --use key-exchange and --use signature")
        use_name = f"{use_name}-pq"
    use = pol.use(use_name)
    size = advise_mod.default_size(use) if size is None else size
    sources = Sources(opts["db"], create=opts["measure"])  # what it measures is stored there
    # the rows the use can rank, and the runners' noop (reasons): not the whole run
    wanted = {p.id for p in cat if p.family in use.families} | {"noop"}
    base = None
    if from_ref is not None:
        base = sources.load(from_ref, primitives=wanted)
    elif runs := sources.store.newest_runs(ADVISE_LOOK):
        base = _stored(sources, runs, wanted)
    if base is None:
        err.print("no stored run: every case this answer needs is measured", markup=False)
        opts["measure"] = True
    bits = opts["security_bits"]
    docs = [base] if base else []
    docs += _measure(base, (cat, pol, use, size, runtimes, bits), opts, sources)
    advice = advise_mod.rank(docs, cat, pol, use_name, size, runtimes, bits)
    write(advice_report.render(fmt, advice), output_path)


COMMANDS = (calibrate, advise)
