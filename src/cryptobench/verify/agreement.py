"""Agreement between implementations: a case's output must match another implementation's
(not the same code in another runtime variant; another backend preferred), an AEAD must open
another's seal, a password hash must verify elsewhere, a MAC's verify must accept another's
tag. Mixed into verify.Verifier, whose ``compute``/``output_for``/``known_answers`` it uses."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from ..catalog.primitives import Primitive
from ..runtimes.protocol import Implementation, RemoteError, RunnerFailure
from .checks import (
    Check,
    Unverifiable,
    VerifyError,
    check_encoded_cost,
    expected_len,
    same_backend,
    same_code,
    same_output,
)

# other implementations a password hash is verified by, besides its maker's own verify
ELSEWHERE = 2


class Agreement:
    def verify_elsewhere(
        self, prim, password: str, encoded: str, params: dict, prefer: Implementation | None = None
    ) -> list[str]:
        """Verify an encoded hash with its maker's own verify (``prefer``, where it offers one)
        and ELSEWHERE others (another backend first, never the same code in another runtime
        variant); return who did. Not every implementation offering verify: that made n² calls
        of a deliberately slow function, most of a cold verification's time (docs/methodology.md,
        "Verification is off the critical path"); each verify is itself checked on another
        implementation's hash (``_verify``)."""
        who = []
        for other in self._verifiers(prim.id, prefer):
            got = self.compute(
                other, prim.id, "verify", {"password": password, "encoded": encoded}, params
            )
            same_output(got, "ok", f"verify by {other.id}")
            who.append(other.id)
        return who

    def _verifiers(self, prim: str, maker: Implementation | None) -> list[Implementation]:
        """``maker`` (where it offers verify and passes its known answers) and up to
        ELSEWHERE others (``_peers``)."""
        own = [maker] if maker is not None and maker.offers(prim, "verify") else []
        mine = [i for i in own if self.known_answers(i, prim, "verify").ok]
        return mine + list(itertools.islice(self._peers(prim, "verify", maker), ELSEWHERE))

    def _peers(self, prim: str, op: str, impl: Implementation | None) -> Iterator[Implementation]:
        """The others offering prim/op whose known answers pass, another backend than
        ``impl``'s first, then by id; never ``impl``'s own code in another runtime variant
        (not a second opinion). Lazy: known answers are checked only for the ones taken."""
        others = [i for i in self._offers(prim, op, None) if impl is None or not same_code(i, impl)]
        others.sort(key=lambda i: impl is not None and same_backend(i, impl))  # stable: by id
        return (i for i in others if self.known_answers(i, prim, op).ok)

    def offering(self, prim: str, op: str, first: Implementation | None = None):
        """Implementations offering prim/op whose known answers pass (``first`` first)."""
        return [i for i in self._offers(prim, op, first) if self.known_answers(i, prim, op).ok]

    def first_offering(self, prim: str, op: str, first: Implementation | None = None):
        """The first of ``offering``, checking the known answers of no more implementations
        than it takes (a verify needs one hash to verify, not every maker's)."""
        return next(
            (i for i in self._offers(prim, op, first) if self.known_answers(i, prim, op).ok), None
        )

    def _offers(self, prim: str, op: str, first: Implementation | None) -> list:
        cands = [i for i in self.impls.values() if i.offers(prim, op)]
        cands.sort(key=lambda i: (first is None or i.id != first.id, i.id))
        return cands

    def check_case(
        self, impl: Implementation, prim: Primitive, op: str, inputs: dict, params: dict
    ) -> tuple[Check, dict, str | None]:
        """(check, bench inputs, expected bench output) for one case.

        The expected output is None for salt-generating ``hash`` (verified by verify calls).
        """
        kat = self.known_answers(impl, prim.id, op)
        if not kat.ok:
            return kat, inputs, None
        try:
            return self._agreement(impl, prim, op, inputs, params, kat)
        except Unverifiable as exc:
            return Check(False, f"unverifiable: {exc}", unverifiable=True), inputs, None
        except (RemoteError, VerifyError) as exc:
            return Check(False, f"cross-check: {exc}"), inputs, None

    def _agreement(self, impl, prim, op, inputs, params, kat: Check):
        if prim.is_pubkey:  # keygen, sign, verify: by use (verify/pubkey.py)
            done = self.pubkey_case(impl, prim, op, inputs, params, kat)
            if done is not None:
                return done
        step = {"open": self._open, "hash": self._hash, "verify": self._verify}.get(op)
        if prim.family == "mac" and op == "verify":
            step = self._mac_verify
        if step:
            return step(impl, prim, inputs, params, kat)
        got = self.output_for(impl, prim.id, op, inputs, params)
        n = expected_len(prim, op, inputs, params)
        if n is not None and len(got) != 2 * n:
            raise VerifyError(f"output is {len(got) // 2} bytes, expected {n}")
        agreed, disagreed = self._second_opinions(impl, prim, op, inputs, params, got)
        if agreed:
            if kat.vectors == 0 and same_backend(self.impls[agreed[0]], impl):
                raise VerifyError(f"no published vector, and {agreed[0]} binds the same backend")
            return Check(True, f"{kat.detail}; agrees with {agreed[0]}", kat.vectors), inputs, got
        if disagreed:
            raise VerifyError(f"disagrees with {', '.join(disagreed)}")
        if kat.vectors == 0:
            raise Unverifiable("no published vector and no second implementation to agree with")
        return Check(True, f"{kat.detail}; only implementation", kat.vectors), inputs, got

    def _second_opinions(self, impl, prim, op, inputs, params, got: str):
        """Up to three others (``_peers``), until one agrees or two disagree."""
        agreed, disagreed = [], []
        for other in itertools.islice(self._peers(prim.id, op, impl), 3):
            try:
                theirs = self.output_for(other, prim.id, op, inputs, params)
            except (RunnerFailure, RemoteError):
                continue  # a peer that crashed or refused is no second opinion, not a failure
            (agreed if theirs == got else disagreed).append(other.id)
            if agreed or len(disagreed) == 2:
                break
        return agreed, disagreed

    def _open(self, impl, prim, inputs, params, kat: Check):
        """An AEAD opens another implementation's seal of the message."""
        sealer = self.first_offering(prim.id, "seal", first=impl)
        if sealer is None:
            raise VerifyError("no implementation can seal the message to open")
        sealed = self.output_for(sealer, prim.id, "seal", inputs, params)
        plain, inputs = inputs["msg"], dict(inputs, msg=sealed)
        got = self.output_for(impl, prim.id, "open", inputs, params)
        same_output(got, plain, "open of another implementation's seal")
        return Check(True, f"{kat.detail}; opens {sealer.id}'s seal", kat.vectors), inputs, got

    def _hash(self, impl, prim, inputs, params, kat: Check):
        """A password hash carries the cost asked for and verifies elsewhere."""
        encoded = self.output_for(impl, prim.id, "hash", inputs, params)
        check_encoded_cost(prim, encoded, params)
        who = self.verify_elsewhere(prim, inputs["password"], encoded, params, prefer=impl)
        expected = encoded if impl.primitives[prim.id].takes_salt else None
        return (
            Check(True, f"{kat.detail}; verified by {', '.join(who)}", kat.vectors),
            inputs,
            expected,
        )

    def _mac_verify(self, impl, prim, inputs, params, kat: Check):
        """A MAC's verify accepts the tag another implementation's `mac` made (its own where no
        other can): the inputs timed then carry that tag."""
        maker, tag = self._tag_for(impl, prim, inputs, params)
        inputs = dict(inputs, tag=tag)
        same_output(self.output_for(impl, prim.id, "verify", inputs, params), "ok", "verify")
        return Check(True, f"{kat.detail}; verifies {maker.id}'s tag", kat.vectors), inputs, "ok"

    def _tag_for(self, impl, prim, inputs, params) -> tuple[Implementation, str]:
        """(maker, tag): another backend's `mac` first, then the same backend's, then its own."""
        others = [o for o in self._offers(prim.id, "mac", None) if not same_code(o, impl)]
        others.sort(key=lambda o: same_backend(o, impl))
        makers = others + ([impl] if impl.offers(prim.id, "mac") else [])
        mac_inputs = {"key": inputs["key"], "msg": inputs["msg"]}
        fresh = dict(params, fresh_context=True)  # the tag is the same; every API can
        for maker in makers:
            if not self.known_answers(maker, prim.id, "mac").ok:
                continue
            try:
                return maker, self.output_for(maker, prim.id, "mac", mac_inputs, fresh)
            except (RunnerFailure, RemoteError):
                continue  # a peer that crashed or refused makes no tag: the next one
        raise VerifyError("no implementation can make the tag to verify")

    def _verify(self, impl, prim, inputs, params, kat: Check):
        """A password verify accepts another implementation's hash."""
        maker = self.first_offering(prim.id, "hash")
        if maker is None:
            raise VerifyError("no implementation can hash the password to verify")
        encoded = self.output_for(maker, prim.id, "hash", inputs, params)
        inputs = {"password": inputs["password"], "encoded": encoded}
        same_output(self.output_for(impl, prim.id, "verify", inputs, params), "ok", "verify")
        return Check(True, f"{kat.detail}; verifies {maker.id}'s hash", kat.vectors), inputs, "ok"
