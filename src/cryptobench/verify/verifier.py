"""Verification before timing: known answers, AEAD forgeries and MAC tags a verify must
refuse, contract checks and agreement between implementations. Nothing is timed unless its
check here passed."""

from __future__ import annotations

from ..catalog.primitives import Catalog, Primitive
from ..runtimes.protocol import Implementation, RemoteError, RunnerFailure
from ..runtimes.session import Runtime
from .agreement import Agreement
from .checks import (
    Check,
    Unverifiable,
    VerifyError,
    check_encoded_cost,
    expected_len,
    flip,
    freeze,
    same_backend,
    same_code,
    same_output,
)
from .kem import KemChecks
from .once import Once
from .pubkey import PubkeyChecks
from .vectors import Vector

SKIPPABLE = ("unsupported", "invalid_params")


class Verifier(Agreement, PubkeyChecks, KemChecks):
    """Known answers and contract checks per implementation (here), agreement between
    implementations (agreement.Agreement); results cached for the run."""

    def __init__(
        self,
        catalog: Catalog,
        vectors: dict,
        runtimes: list[Runtime],
        timeout: float = 60.0,
        all_vectors: bool = False,
    ):
        self.catalog, self.vectors, self.timeout = catalog, vectors, timeout
        self.all_vectors = all_vectors
        self.runtimes = {rt.id: rt for rt in runtimes}
        self.impls = {i.id: i for rt in runtimes for i in rt.implementations}
        self._kat = Once()  # Check by (implementation, primitive, operation)
        self._outputs = Once()  # an agreement's output by implementation and inputs

    # -- one call ----------------------------------------------------------------------------
    def compute(self, impl: Implementation, prim: str, op: str, inputs: dict, params: dict) -> str:
        family = self.catalog.get(prim).family
        fast = family not in ("password-hash", "kdf") and op != "keygen"  # RSA: seconds
        if family == "aead" and "aad" in inputs:  # aad_len always says the AAD sent
            params = dict(params, aad_len=len(inputs["aad"]) // 2)
        timeout = self.timeout if fast else self.timeout * 10
        result = self.runtimes[impl.runtime_id].request(
            "compute",
            timeout,
            impl=impl.library,
            primitive=prim,
            operation=op,
            inputs=inputs,
            params=params,
        )
        out = result.get("output")
        if not isinstance(out, str):
            raise VerifyError(f"{op} returned no output string")
        return out

    def output_for(
        self, impl: Implementation, prim: str, op: str, inputs: dict, params: dict
    ) -> str:
        key = (impl.id, prim, op, freeze(inputs), freeze(params))
        return self._outputs.get(key, lambda: self.compute(impl, prim, op, inputs, params))

    # -- known answers -------------------------------------------------------------------------
    def known_answers(self, impl: Implementation, prim_id: str, op: str) -> Check:
        def check() -> Check:
            try:
                return self._known_answers(impl, self.catalog.get(prim_id), op)
            except (RemoteError, VerifyError) as exc:
                return Check(False, f"known answer: {exc}")

        return self._kat.get((impl.id, prim_id, op), check)

    def answers_checked(self) -> dict[tuple, Check]:
        """The known-answer checks made so far, by (implementation, primitive, operation)."""
        return dict(self._kat.answers)

    def take_answers(self, key: tuple, check: Check) -> None:
        """A known-answer check already decided, not asked again in this run: an earlier run's
        pass with nothing changed since (verify/cache.py), or a runner failure recorded."""
        self._kat.put(key, check)

    def _vectors_for(self, prim: Primitive, op: str) -> list[Vector]:
        vecs = [v for v in self.vectors.get(prim.id, []) if self.all_vectors or not v.slow]
        wanted = {"roundtrip": ("seal", "encrypt"), "open": ("seal",)}.get(op, (op,))
        if prim.family == "mac":  # a MAC's verify checks the MAC vectors' tags
            wanted = ("mac",)
        return [v for v in vecs if (v.operation or prim.operations[0]) in wanted]

    def _known_answers(self, impl: Implementation, prim: Primitive, op: str) -> Check:
        vecs = self._vectors_for(prim, op)
        if op == "hash":
            return self._check_hash(impl, prim)
        passed, skipped = 0, 0
        for vec in vecs:
            if vec.agreement_only:
                continue
            params = self.catalog.resolve_params(prim, vec.params, op)
            params.update({k: v for k, v in vec.params.items() if k not in params})
            try:
                self._check_vector(impl, prim, op, vec, params)
                passed += 1
            except RemoteError as exc:
                # a vector that needs a capability (secret/ad, 8-bit bcrypt passwords, ...) is
                # not applicable where the library refuses it, or for verify, answers otherwise
                if vec.needs and (exc.kind in SKIPPABLE or op == "verify"):
                    skipped += 1
                    continue
                raise VerifyError(f"{vec.file} ({vec.source}): {exc}") from None
            except VerifyError as exc:
                raise VerifyError(f"{vec.file} ({vec.source}): {exc}") from None
        if passed == 0:
            why = f" ({skipped} known answers not applicable)" if skipped else ""
            return Check(
                True, f"no known answer here{why}: agreement with another implementation required"
            )
        note = f", {skipped} not applicable" if skipped else ""
        return Check(True, f"{passed} known answers{note}", passed)

    def _check_vector(self, impl, prim, op, vec: Vector, params: dict) -> None:
        if prim.is_pubkey:
            return self.pubkey_vector(impl, prim, op, vec, params)
        if prim.family == "mac" and op == "verify":  # not a password's verify
            return self._mac_tags(impl, prim, vec.inputs, vec.output or "", params)
        inputs = dict(vec.inputs)
        if op == "open":
            sealed = vec.output
            inputs["msg"] = sealed
            got = self.compute(impl, prim.id, "open", inputs, params)
            same_output(got, vec.inputs.get("msg", ""), "open")
            self._forgeries(impl, prim, inputs, params)
            return
        got = self.compute(impl, prim.id, op, inputs, params)
        if op == "verify":
            same_output(got, "ok", "verify")
            wrong = dict(inputs, password=inputs.get("password", "") + "21")
            self._expect_auth_failed(impl, prim.id, "verify", wrong, params, "a wrong password")
            return
        same_output(got, vec.output, op)
        n = expected_len(prim, op, inputs, params)
        if n is not None and len(got) != 2 * n:
            raise VerifyError(f"{op} output is {len(got) // 2} bytes, expected {n}")
        if not prim.is_slow and self.compute(impl, prim.id, op, inputs, params) != got:
            raise VerifyError(f"{op} is not deterministic")

    def _forgeries(self, impl, prim, inputs: dict, params: dict) -> None:
        sealed = inputs["msg"]
        tampered = [("tag", dict(inputs, msg=flip(sealed, -1)))]
        if len(sealed) > 2 * (prim.tag_len or 16):
            tampered.append(("ciphertext", dict(inputs, msg=flip(sealed, 0))))
        aad = inputs.get("aad", "")
        tampered.append(("AAD", dict(inputs, aad=flip(aad, 0) if aad else "01")))
        for what, bad in tampered:
            self._expect_auth_failed(impl, prim.id, "open", bad, params, f"a flipped {what} bit")

    def _mac_tags(self, impl, prim, inputs: dict, tag: str, params: dict) -> None:
        """A MAC's verify: the full-length tag answers "ok"; the tag with its first or its last
        byte flipped, cut to 16 bytes, or empty answers auth_failed (a known answer whose tag
        is not full-length: auth_failed for it alone)."""
        base = {"key": inputs["key"], "msg": inputs.get("msg", "")}
        if len(tag) != 2 * (prim.output_len or 32):
            what = f"a {len(tag) // 2}-byte tag"
            self._expect_auth_failed(impl, prim.id, "verify", dict(base, tag=tag), params, what)
            return
        got = self.compute(impl, prim.id, "verify", dict(base, tag=tag), params)
        same_output(got, "ok", "verify")
        wrong = {"first": flip(tag, 0), "last": flip(tag, -1)}
        tampered = [(f"its {at} byte flipped", bad) for at, bad in wrong.items()]
        tampered += [("16 bytes of it", tag[:32]), ("none of it", "")]
        for what, bad in tampered:
            bad_inputs = dict(base, tag=bad)
            self._expect_auth_failed(impl, prim.id, "verify", bad_inputs, params, f"a tag: {what}")

    def _expect_auth_failed(self, impl, prim_id, op, inputs, params, what: str) -> None:
        try:
            self.compute(impl, prim_id, op, inputs, params)
        except RemoteError as exc:
            if exc.kind == "auth_failed":
                return
            raise VerifyError(f"{op} with {what}: {exc.kind} instead of auth_failed") from None
        raise VerifyError(f"{op} accepted {what}")

    def _check_hash(self, impl, prim: Primitive) -> Check:
        """Password hashes: salted known answers where the library takes a salt, and the
        encoded output must verify (here and in every other implementation checked later)."""
        offer = impl.primitives[prim.id]
        passed = 0
        for vec in self._vectors_for(prim, "hash"):
            if offer.takes_salt and not vec.agreement_only and "salt" in vec.inputs:
                params = self.catalog.resolve_params(prim, vec.params, "hash")
                try:
                    got = self.compute(impl, prim.id, "hash", vec.inputs, params)
                except RemoteError as exc:
                    if vec.needs and exc.kind in SKIPPABLE:
                        continue
                    raise
                same_output(got, vec.output, "hash")
                passed += 1
        inputs = {"password": b"cryptobench".hex(), "salt": "00" * (prim.salt_len or 16)}
        params = self.catalog.resolve_params(prim, {}, "hash")
        encoded = self.compute(impl, prim.id, "hash", inputs, params)
        check_encoded_cost(prim, encoded, params)
        self.verify_elsewhere(prim, inputs["password"], encoded, params, prefer=impl)
        return Check(True, f"{passed} known answers; encoded output verifies", passed)


__all__ = [
    "Check",
    "Unverifiable",
    "Verifier",
    "VerifyError",
    "RunnerFailure",
    "check_encoded_cost",
    "expected_len",
    "flip",
    "same_backend",
    "same_code",
]
