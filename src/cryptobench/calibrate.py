"""`cryptobench calibrate`: the cost parameters that make one password hash take a target time
on this machine, per implementation, as `cryptsetup benchmark` does for LUKS
(docs/methodology.md, "calibrate").

Per implementation: probes of the cost parameter, each verified like any case (measure.prepare)
and timed with the calibration step of sampling; the next probe is predicted from the last by
the primitive's scaling law (policy.toml); then the chosen parameters of every implementation
are measured in rounds (rounds.py) and stored as a run with operation ``calibrate``.
"""

from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console

from . import catalog, machine, results, sampling, vectors
from . import policy as policy_mod
from .errors import UsageError
from .lock import RunLock
from .measure import Prepared, _bench, prepare
from .plan import PASSWORD_SIZES, Case, runtime_matches
from .progress import Progress
from .protocol import Implementation, RemoteError, RunnerFailure
from .rounds import Rounds
from .session import Runtime, open_runtimes
from .store import RunStore, open_store
from .verify import Verifier, VerifyError, check_encoded_cost

OPERATIONS = {"password-hash": ("verify", "derive", "hash"), "kdf": ("derive",)}
PASSWORD_LEN = PASSWORD_SIZES[0]
KEYSPACE = 36**8  # 8 characters from a-z and 0-9
KEYSPACE_TEXT = "8 random characters from a-z0-9: 36^8 passwords"
YEAR_S = 365.25 * 86400
TOLERANCE = 0.15  # a re-measured time this close to the target is on target
MAX_PROBES = 7
SEARCH_SHARE = 0.5  # of the time budget, for the searches; the rest for the rounds
REFUSED = ("invalid_params", "unsupported")


@dataclass
class Request:
    algorithm: str
    target_s: float
    command: str
    db: Path
    memory_kib: int | None = None
    runtimes: list[str] = field(default_factory=list)
    impls: list[str] = field(default_factory=list)
    time_budget_s: float = 60.0
    rounds: int = 3
    seed: int = 0
    timeout: float = 60.0


@dataclass
class Search:
    impl: Implementation
    operation: str
    probes: list[dict] = field(default_factory=list)  # {value, ns, verification}
    prepared: Prepared | None = None  # of the chosen value
    refused: str | None = None  # the implementation cannot take the parameter
    failed: str | None = None
    stopped: str = ""  # why the search ended


class Refused(Exception):
    pass


def operation_for(impl: Implementation, prim: catalog.Primitive) -> str | None:
    return next((op for op in OPERATIONS[prim.family] if impl.offers(prim.id, op)), None)


def predict(spec: policy_mod.Search, prim, value: int, ns: float, target_ns: float, cap) -> int:
    """The value the scaling law says takes ``target_ns``, from one probe, within bounds."""
    ratio = target_ns / max(ns, 1.0)
    if spec.scale == "log2":
        nxt = value + round(math.log2(ratio))
    elif spec.scale == "pow2":
        nxt = value * 2 ** round(math.log2(ratio))
    else:
        nxt = round(value * ratio)
        if nxt >= 10_000:
            nxt = round(nxt, -3)
    p = prim.params[spec.param]
    lo = max(int(p.min or 1), spec.least or 1)
    hi = int(p.max) if p.max is not None else nxt
    if cap is not None:
        hi = min(hi, cap)
    return int(min(max(nxt, lo), hi))


def attacker(median_ns: float, low_ns: float, high_ns: float) -> dict:
    """Guesses per second one core sustains, and core-years for the keyspace (docs)."""

    def years(ns: float, share: float) -> float:
        return KEYSPACE * share * ns / 1e9 / YEAR_S

    return {
        "guesses_per_s": 1e9 / median_ns,
        "guesses_per_s_low": 1e9 / high_ns,
        "guesses_per_s_high": 1e9 / low_ns,
        "keyspace": KEYSPACE,
        "keyspace_text": KEYSPACE_TEXT,
        "core_years_average": years(median_ns, 0.5),
        "core_years_average_low": years(low_ns, 0.5),
        "core_years_average_high": years(high_ns, 0.5),
        "core_years_all": years(median_ns, 1.0),
    }


class Calibration:
    """One `calibrate` invocation: searches, then rounds, stored as one run."""

    def __init__(self, req: Request, console: Console):
        self.req, self.console = req, console
        self.cat = catalog.load()
        self.policy = policy_mod.load(self.cat)
        self.prim = self.cat.get(req.algorithm)
        self.spec = self.policy.search(req.algorithm)
        self.target_ns = req.target_s * 1e9
        self.base = self._base_params()
        self.cap = self._cap()
        self.seq = 0

    def _base_params(self) -> dict:
        user = {}
        if self.spec.memory_param:
            mem = self.req.memory_kib or self.spec.default_memory
            user[self.spec.memory_param] = mem
        return self.cat.resolve_params(self.prim, user, OPERATIONS[self.prim.family][0])

    def _cap(self) -> int | None:
        """scrypt: --memory caps N (memory = 128·N·r bytes)."""
        if self.spec.memory_param or not self.spec.memory or not self.req.memory_kib:
            return None
        per_unit = self.spec.memory_bytes({**self.base, self.spec.param: 1})
        return 2 ** int(math.log2(self.req.memory_kib * 1024 / per_unit))

    def params(self, value: int) -> dict:
        return {**self.base, self.spec.param: value}

    # -- one implementation ---------------------------------------------------------------
    def probe(self, rt: Runtime, verifier: Verifier, s: Search, value: int) -> dict:
        case = Case(s.impl, self.prim, s.operation, PASSWORD_LEN, self.params(value))
        got = prepare(verifier, case, self.seq, self.req.seed)
        if isinstance(got, dict):
            why = str(got.get("error"))
            if any(f"{k}:" in why for k in REFUSED):
                raise Refused(f"refuses {self.spec.param}={value}: {why}")
            raise VerifyError(why)
        if s.operation == "verify":  # the encoded hash must carry the parameters asked for
            check_encoded_cost(self.prim, got.inputs["encoded"], case.params)
        policy = sampling.Policy(base_timeout_s=self.req.timeout)
        timeout = max(self.req.timeout, 10 * self._guess(s, value) / 1e9 + 5)
        per_op, _ = sampling.calibrate(_bench(rt, got, []), policy, timeout)
        s.prepared = got
        return {"value": value, "ns": per_op, "verification": got.verification}

    def _guess(self, s: Search, value: int) -> float:
        """The expected ns of a probe (for its timeout), from the last one."""
        if not s.probes:
            return self.target_ns
        last = s.probes[-1]
        if self.spec.scale == "log2":
            ratio = 2.0 ** (value - last["value"])
        else:
            ratio = value / last["value"]
        return last["ns"] * max(ratio, 1.0)

    def search(self, rt: Runtime, verifier: Verifier, s: Search, share_s: float) -> None:
        start, value, tried = time.monotonic(), self.spec.start, {}
        while len(s.probes) < MAX_PROBES:
            try:
                p = self.probe(rt, verifier, s, value)
            except (Refused, RemoteError) as exc:
                if not s.probes or isinstance(exc, RemoteError) and exc.kind not in REFUSED:
                    raise
                s.stopped = f"{exc} (kept the closest value it took)"
                break
            s.probes.append(p)
            tried[value] = s.prepared
            nxt = predict(self.spec, self.prim, value, p["ns"], self.target_ns, self.cap)
            if abs(math.log(p["ns"] / self.target_ns)) < math.log(1.03):
                s.stopped = "within 3% of the target"
                break
            if nxt in tried:
                s.stopped = "the next step was already probed"
                break
            if len(s.probes) >= 2 and time.monotonic() - start > share_s:
                s.stopped = "its share of the time budget was spent"
                break
            value = nxt
        else:
            s.stopped = f"{MAX_PROBES} probes"
        best = min(s.probes, key=lambda p: abs(math.log(p["ns"] / self.target_ns)))
        s.prepared = tried[best["value"]]

    def run_one(self, rt: Runtime, verifier: Verifier, s: Search, share_s: float) -> None:
        try:
            self.search(rt, verifier, s, share_s)
        except Refused as exc:
            s.refused = str(exc)
        except RemoteError as exc:
            if exc.kind in REFUSED:
                s.refused = f"{exc.kind}: {exc.message}"
            else:
                s.failed = f"{exc.kind}: {exc.message}"
        except (RunnerFailure, VerifyError) as exc:
            s.failed = str(exc)
        if s.prepared is None and not s.refused and not s.failed:
            s.failed = "no probe succeeded"

    # -- the whole command ----------------------------------------------------------------
    def selected(self, live: list[Runtime]) -> list[tuple[Runtime, Search]]:
        out = []
        for rt in live:
            for impl in rt.implementations:
                if self.req.runtimes and not any(
                    runtime_matches(impl.runtime_id, r) for r in self.req.runtimes
                ):
                    continue
                if self.req.impls and impl.id not in self.req.impls:
                    continue
                op = operation_for(impl, self.prim)
                if op is not None:
                    out.append((rt, Search(impl, op)))
        return out

    def run(self) -> tuple[dict, list[dict]]:
        live, skipped = open_runtimes(self.req.runtimes, self.req.impls)
        for rid, why in skipped:
            self.console.print(f"skipped {rid}: {why}", markup=False)
        try:
            chosen = self.selected(live)
            self._check_selection(live, chosen)
            with RunLock():
                return self._measure(live, skipped, chosen)
        finally:
            for rt in live:
                rt.stop()

    def _check_selection(self, live, chosen) -> None:
        known = sorted(i.id for rt in live for i in rt.implementations)
        for i in self.req.impls:
            if i not in known:
                raise UsageError(f"unknown implementation {i!r}; valid: {', '.join(known)}")
        if not chosen:
            offering = [
                i.id for rt in live for i in rt.implementations if self.prim.id in i.primitives
            ]
            raise UsageError(
                f"no selected implementation offers {self.prim.id}; these do: "
                f"{', '.join(offering) or 'none'}"
            )

    def _measure(self, live, skipped, chosen) -> tuple[dict, list[dict]]:
        req = self.req
        store = open_store(req.db)
        clock0, cpu0, load0 = time.monotonic(), machine.cpu_times(), os.getloadavg()[0]
        run_doc = self._start(live, skipped, store)
        verifier = Verifier(self.cat, vectors.load_all(self.cat), live, timeout=req.timeout)
        by_rt = {rt.id: rt for rt in live}
        interrupted = True
        try:
            self._searches(verifier, chosen, clock0)
            finals = self._store_unmeasured(store, run_doc, chosen)
            spent = time.monotonic() - clock0
            per_case = max(0.1, (req.time_budget_s - spent) / max(1, len(finals)))
            policy = sampling.Policy(budget_s=per_case, base_timeout_s=req.timeout)
            rounds = Rounds(by_rt, verifier, store, run_doc, policy)
            rounds.rounds = req.rounds
            self.console.print(
                f"measuring the chosen parameters: {len(finals)} cases × {req.rounds} rounds",
                markup=False,
            )
            with Progress(self.console, len(finals) * req.rounds) as progress:
                rounds.on_step = progress.update
                rounds.measure([p for _, p in finals])
            self._annotate(store, run_doc, finals)
            interrupted = False
        except KeyboardInterrupt:
            pass
        finally:
            run_doc["calibration"]["wall_s"] = round(time.monotonic() - clock0, 1)
            results.finish(
                run_doc, interrupted, machine.steal_fraction(cpu0, machine.cpu_times()), load0
            )
            store.update_run(run_doc)
        return store.load(run_doc["id"])

    def _start(self, live, skipped, store: RunStore) -> dict:
        settings = {"time_budget_s": self.req.time_budget_s, "rounds": self.req.rounds, "pin": None}
        run_doc = results.start(
            self.req.command,
            None,
            self.req.seed,
            settings,
            machine.fingerprint(),
            machine.git_commit(),
            live,
            skipped,
        )
        run_doc["operation"] = "calibrate"
        run_doc["calibration"] = {
            "algorithm": self.prim.id,
            "target_ms": self.target_ns / 1e6,
            "tolerance": TOLERANCE,
            "param": self.spec.param,
            "scale": self.spec.scale,
            "fixed_params": {k: v for k, v in self.base.items() if k != self.spec.param},
            "memory_kib": self.req.memory_kib,
            "time_budget_s": self.req.time_budget_s,
            "keyspace": KEYSPACE,
            "keyspace_text": KEYSPACE_TEXT,
            "owasp_source": self.policy.owasp_source,
            "owasp_reviewed": self.policy.owasp_reviewed,
        }
        store.begin_run(run_doc)
        return run_doc

    def _searches(self, verifier, chosen, clock0) -> None:
        budget = self.req.time_budget_s * SEARCH_SHARE
        for i, (rt, s) in enumerate(chosen):
            left = budget - (time.monotonic() - clock0)
            share = max(0.0, left / (len(chosen) - i))
            self.console.print(
                f"calibrating {s.impl.id} {self.prim.id} {s.operation} …", markup=False
            )
            self.run_one(rt, verifier, s, share)
            self.seq += 1
            for p in s.probes:
                self.console.print(
                    f"  {self.spec.param}={p['value']}: {p['ns'] / 1e6:.1f} ms", markup=False
                )
            if s.refused or s.failed:
                self.console.print(f"  {s.refused or s.failed}", markup=False)

    def _store_unmeasured(self, store, run_doc, chosen) -> list[tuple[Search, Prepared]]:
        """Refusals and failures are stored at once; the rest get fresh row numbers."""
        finals = []
        for seq, (_, s) in enumerate(chosen):
            case = Case(s.impl, self.prim, s.operation, PASSWORD_LEN, self.base)
            if s.refused:
                row = results.skipped(case, f"cannot take the parameter: {s.refused}")
            elif s.failed:
                row = results.failed(case, s.failed)
            else:
                p = s.prepared
                finals.append((s, Prepared(seq, p.case, p.inputs, p.expected, p.verification)))
                continue
            row["calibration"] = self._search_info(s)
            store.put_case(run_doc["id"], seq, row)
        return finals

    def _search_info(self, s: Search) -> dict:
        return {
            "operation": s.operation,
            "probes": [{"value": p["value"], "ms": p["ns"] / 1e6} for p in s.probes],
            "search_stopped": s.stopped,
        }

    def _annotate(self, store, run_doc, finals) -> None:
        """Each measured row gets its search, parameters, OWASP check and attacker's view."""
        stored = {r["implementation"]: r for r in store.load(run_doc["id"])[1]}
        for s, p in finals:
            row = stored.get(s.impl.id)
            if row is not None:
                row["calibration"] = self.describe(s, p, row)
                store.put_case(run_doc["id"], p.seq, row)

    def describe(self, s: Search, p: Prepared, row: dict) -> dict:
        info = self._search_info(s)
        value = p.case.params[self.spec.param]
        ok, why = self.policy.owasp(self.prim.id, p.case.params)
        info.update(
            value=value,
            memory_bytes=self.spec.memory_bytes(p.case.params),
            owasp_ok=ok,
            owasp=why,
        )
        if row.get("status") == "ok" and row.get("median_ns"):
            off = row["median_ns"] / self.target_ns - 1
            info.update(
                off_target=off,
                on_target=abs(off) <= TOLERANCE,
                attacker=attacker(row["median_ns"], row["ci_low_ns"], row["ci_high_ns"]),
                neighbours=self.neighbours(value, row["median_ns"]),
            )
        return info

    def neighbours(self, value: int, ns: float) -> list[dict]:
        """The adjacent steps' times by the scaling law (log2/pow2 steps double the time)."""
        if self.spec.scale == "linear" and value >= 10:
            return []
        out = []
        for step in (-1, 1):
            if self.spec.scale == "log2":
                v, f = value + step, 2.0**step
            elif self.spec.scale == "pow2":
                v, f = int(value * 2.0**step), 2.0**step
            else:
                v, f = value + step, (value + step) / value
            if v >= 1:
                out.append({"value": v, "ms_estimated": ns * f / 1e6})
        return out
