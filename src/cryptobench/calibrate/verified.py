"""`calibrate`'s verification through the cache of verified answers (verify/cache.py), as
`run` uses it (measure/verified.py): a probe's case verified by an earlier `calibrate` or `run`
with nothing changed is taken from the cache, keyed alike (the case with its parameters, every
fingerprint); and so are the known answers of every implementation the probes consult
(Verifier.offering), which `calibrate` checks before its first probe. Only passed checks are
kept; `--reverify` reads nothing from the cache and rewrites it (docs/methodology.md,
"calibrate")."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from ..measure.case import Prepared
from ..measure.verified import prepare_cached
from ..plan.cases import Case
from ..runtimes.protocol import RunnerFailure
from ..runtimes.session import Runtime
from ..verify.cache import Cache, Fingerprints
from ..verify.checks import Check
from ..verify.verifier import Verifier

KNOWN = "known answers"  # the cache key's tag of a known-answer check
WORKERS = 2  # known answers checked at once: the two cores (nothing is timed meanwhile)


@dataclass
class Verified:
    verifier: Verifier
    fps: Fingerprints
    cases: Cache  # one entry per probe's case (measure/verified.case_key)
    answers: Cache  # one per implementation, primitive and operation's known answers
    taken: set[tuple] = field(default_factory=set)  # known answers read from the cache
    kept: set[tuple] = field(default_factory=set)  # known answers this run checked and kept

    @classmethod
    def of(cls, verifier: Verifier, live: list[Runtime], reverify: bool) -> Verified:
        fps = Fingerprints.of(live)
        return cls(verifier, fps, Cache(enabled=not reverify), Cache(enabled=not reverify))

    def prepare(self, case: Case, seq: int, seed: int) -> Prepared | dict:
        """measure.case.prepare, or the answer an earlier run verified for the same key."""
        return prepare_cached(self.verifier, case, seq, seed, self.cases, self.fps)

    def _key(self, impl_id: str, prim_id: str, op: str) -> str:
        return self.fps.key(impl_id, prim_id, [KNOWN, op])

    def recall(self, prim_id: str, operations) -> None:
        """The known answers of every implementation offering ``prim_id`` (``operations``)
        that an earlier `calibrate` passed with nothing changed: not asked again."""
        for impl in self.verifier.impls.values():
            for op in operations:
                if not impl.offers(prim_id, op):
                    continue
                kept = self.answers.get(self._key(impl.id, prim_id, op))
                if kept is not None:
                    check = Check(True, f"{kept['detail']} (cached)", kept["vectors"])
                    self.verifier.take_answers((impl.id, prim_id, op), check)
                    self.taken.add((impl.id, prim_id, op))

    def consult(self, prim_id: str, op: str) -> None:
        """The one maker's known answers a verify probe consults (it verifies one hash),
        checked before the plan counts: the first implementation offering ``op`` whose known
        answers pass. A peer whose runner fails is no peer, as a second opinion that crashed
        is none (Agreement._second_opinions): recorded as failed for this run, so that no
        probe asks it again."""
        for impl in self.offering(prim_id, op):
            if self._check(impl, prim_id, op):
                return

    def offering(self, prim_id: str, op: str) -> list:
        """The implementations offering ``op`` of ``prim_id``, by id."""
        mine = (i for i in self.verifier.impls.values() if i.offers(prim_id, op))
        return sorted(mine, key=lambda i: i.id)

    def own(self, prim_id: str, pairs) -> None:
        """Every (implementation, operation)'s known answers, checked before anything is
        timed, in parallel (WORKERS threads, one runtime's at a time on each): a probe's
        verification then finds them checked. A runner that fails is recorded as failed, so
        the implementation's probes fail verification and nothing of it is timed."""
        by_runtime: dict[str, list] = {}
        for impl, op in dict.fromkeys((i.id, op) for i, op in pairs):
            by_runtime.setdefault(self.verifier.impls[impl].runtime_id, []).append((impl, op))

        def work(items) -> None:
            for impl, op in items:
                self._check(self.verifier.impls[impl], prim_id, op)

        # the runtimes with most to check first, so that the two workers end near together
        groups = sorted(by_runtime.values(), key=len, reverse=True)
        with ThreadPoolExecutor(max_workers=WORKERS) as pool:
            for f in [pool.submit(work, items) for items in groups]:
                f.result()

    def _check(self, impl, prim_id: str, op: str) -> bool:
        try:
            return self.verifier.known_answers(impl, prim_id, op).ok
        except RunnerFailure as exc:
            why = f"known answer: runner {exc.kind}: {exc}"
            self.verifier.take_answers((impl.id, prim_id, op), Check(False, why))
            return False

    def keep(self) -> None:
        """The known answers this run checked and passed, for the next."""
        for key, check in self.verifier.answers_checked().items():
            if key in self.taken or key in self.kept or not check.ok or check.unverifiable:
                continue
            self.answers.put(self._key(*key), {"detail": check.detail, "vectors": check.vectors})
            self.kept.add(key)

    def checked(self) -> int:
        """Known-answer checks this run made (not taken from the cache)."""
        return sum(1 for k in self.verifier.answers_checked() if k not in self.taken)

    def summary(self) -> str:
        return (
            f"{self.cases.summary()}; known answers: {len(self.taken)} taken from the cache, "
            f"{self.checked()} checked"
        )
