"""Verification before timing: known answers, AEAD forgeries, contract checks and agreement
between implementations. Nothing is timed unless its check here passed."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .catalog import Catalog, Primitive
from .protocol import Implementation, RemoteError, RunnerFailure
from .session import Runtime
from .vectors import Vector

SKIPPABLE = ("unsupported", "invalid_params")


@dataclass(frozen=True)
class Check:
    ok: bool
    detail: str
    vectors: int = 0  # known answers that passed
    unverifiable: bool = False  # nothing to check it against: never timed, not a failure


class VerifyError(Exception):
    pass


class Unverifiable(VerifyError):
    """No published vector and no second implementation to agree with."""


def flip(hex_str: str, index: int) -> str:
    """Flip the lowest bit of byte ``index`` (negative: from the end)."""
    b = bytearray(bytes.fromhex(hex_str))
    b[index] ^= 1
    return b.hex()


def expected_len(prim: Primitive, op: str, inputs: dict, params: dict) -> int | None:
    """Output length in bytes the contract requires, where it is fixed."""
    if op in ("digest", "mac"):
        return int(params.get("out_len", prim.output_len or 0)) or None
    if op == "derive":
        return int(params["out_len"]) if "out_len" in params else None
    msg_len = len(inputs.get("msg", "")) // 2
    if op in ("seal", "roundtrip") and prim.family == "aead":
        return msg_len + (prim.tag_len or 16)
    if op in ("encrypt", "roundtrip"):
        return msg_len
    if op == "open":
        return msg_len - (prim.tag_len or 16)
    return None


class Verifier:
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
        self._kat: dict[tuple, Check] = {}
        self._outputs: dict[tuple, str] = {}

    # -- one call ----------------------------------------------------------------------------
    def compute(self, impl: Implementation, prim: str, op: str, inputs: dict, params: dict) -> str:
        family = self.catalog.get(prim).family
        fast = family not in ("password-hash", "kdf")
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
        key = (impl.id, prim, op, _freeze(inputs), _freeze(params))
        if key not in self._outputs:
            self._outputs[key] = self.compute(impl, prim, op, inputs, params)
        return self._outputs[key]

    # -- known answers -------------------------------------------------------------------------
    def known_answers(self, impl: Implementation, prim_id: str, op: str) -> Check:
        key = (impl.id, prim_id, op)
        if key not in self._kat:
            try:
                self._kat[key] = self._known_answers(impl, self.catalog.get(prim_id), op)
            except (RemoteError, VerifyError) as exc:
                self._kat[key] = Check(False, f"known answer: {exc}")
        return self._kat[key]

    def _vectors_for(self, prim: Primitive, op: str) -> list[Vector]:
        vecs = [v for v in self.vectors.get(prim.id, []) if self.all_vectors or not v.slow]
        wanted = {"roundtrip": ("seal", "encrypt"), "open": ("seal",)}.get(op, (op,))
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
        inputs = dict(vec.inputs)
        if op == "open":
            sealed = vec.output
            inputs["msg"] = sealed
            got = self.compute(impl, prim.id, "open", inputs, params)
            _same(got, vec.inputs.get("msg", ""), "open")
            self._forgeries(impl, prim, inputs, params)
            return
        got = self.compute(impl, prim.id, op, inputs, params)
        if op == "verify":
            _same(got, "ok", "verify")
            wrong = dict(inputs, password=inputs.get("password", "") + "21")
            self._expect_auth_failed(impl, prim.id, "verify", wrong, params, "a wrong password")
            return
        _same(got, vec.output, op)
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
                _same(got, vec.output, "hash")
                passed += 1
        inputs = {"password": b"cryptobench".hex(), "salt": "00" * (prim.salt_len or 16)}
        params = self.catalog.resolve_params(prim, {}, "hash")
        encoded = self.compute(impl, prim.id, "hash", inputs, params)
        check_encoded_cost(prim, encoded, params)
        self.verify_elsewhere(prim, inputs["password"], encoded, params, prefer=impl)
        return Check(True, f"{passed} known answers; encoded output verifies", passed)

    def verify_elsewhere(
        self, prim, password: str, encoded: str, params: dict, prefer: Implementation | None = None
    ) -> list[str]:
        """Verify an encoded hash with every implementation offering verify; return who did."""
        who = []
        for other in self.offering(prim.id, "verify", first=prefer):
            got = self.compute(
                other, prim.id, "verify", {"password": password, "encoded": encoded}, params
            )
            _same(got, "ok", f"verify by {other.id}")
            who.append(other.id)
        return who

    # -- agreement ----------------------------------------------------------------------------
    def offering(self, prim: str, op: str, first: Implementation | None = None):
        """Implementations offering prim/op whose known answers pass (``first`` first)."""
        cands = [i for i in self.impls.values() if i.offers(prim, op)]
        cands.sort(key=lambda i: (first is None or i.id != first.id, i.id))
        return [i for i in cands if self.known_answers(i, prim, op).ok]

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
        # the same library under another runtime variant is the same code: not a second opinion
        others = [o for o in self.offering(prim.id, op) if not same_code(o, impl)]
        others.sort(key=lambda o: same_backend(o, impl))
        if op == "open":
            sealer = (self.offering(prim.id, "seal", first=impl) or [None])[0]
            if sealer is None:
                raise VerifyError("no implementation can seal the message to open")
            sealed = self.output_for(sealer, prim.id, "seal", inputs, params)
            plain, inputs = inputs["msg"], dict(inputs, msg=sealed)
            got = self.output_for(impl, prim.id, op, inputs, params)
            _same(got, plain, "open of another implementation's seal")
            return Check(True, f"{kat.detail}; opens {sealer.id}'s seal", kat.vectors), inputs, got
        if op == "hash":
            encoded = self.output_for(impl, prim.id, "hash", inputs, params)
            check_encoded_cost(prim, encoded, params)
            who = self.verify_elsewhere(prim, inputs["password"], encoded, params, prefer=impl)
            expected = encoded if impl.primitives[prim.id].takes_salt else None
            return (
                Check(True, f"{kat.detail}; verified by {', '.join(who)}", kat.vectors),
                inputs,
                expected,
            )
        if op == "verify":
            maker = (self.offering(prim.id, "hash") or [None])[0]
            if maker is None:
                raise VerifyError("no implementation can hash the password to verify")
            encoded = self.output_for(maker, prim.id, "hash", inputs, params)
            inputs = {"password": inputs["password"], "encoded": encoded}
            _same(self.output_for(impl, prim.id, op, inputs, params), "ok", "verify")
            return (
                Check(True, f"{kat.detail}; verifies {maker.id}'s hash", kat.vectors),
                inputs,
                "ok",
            )
        got = self.output_for(impl, prim.id, op, inputs, params)
        n = expected_len(prim, op, inputs, params)
        if n is not None and len(got) != 2 * n:
            raise VerifyError(f"output is {len(got) // 2} bytes, expected {n}")
        agreed, disagreed = [], []
        for other in others[:3]:
            try:
                theirs = self.output_for(other, prim.id, op, inputs, params)
            except (RunnerFailure, RemoteError):
                continue  # a peer that crashed or refused is no second opinion, not a failure
            (agreed if theirs == got else disagreed).append(other.id)
            if agreed or len(disagreed) == 2:
                break
        if agreed:
            if kat.vectors == 0 and same_backend(self.impls[agreed[0]], impl):
                raise VerifyError(f"no published vector, and {agreed[0]} binds the same backend")
            return Check(True, f"{kat.detail}; agrees with {agreed[0]}", kat.vectors), inputs, got
        if disagreed:
            raise VerifyError(f"disagrees with {', '.join(disagreed)}")
        if kat.vectors == 0:
            raise Unverifiable("no published vector and no second implementation to agree with")
        return Check(True, f"{kat.detail}; only implementation", kat.vectors), inputs, got


def check_encoded_cost(prim: Primitive, encoded: str, params: dict) -> None:
    """An encoded hash verifies with whatever cost it names: check it names the one asked for,
    so a runner cannot pass by hashing cheaper."""
    if prim.id.startswith("argon2"):
        found = re.search(r"\$m=(\d+),t=(\d+),p=(\d+)\$", encoded)
        want = (params.get("m"), params.get("t"), params.get("p"))
        if not found or tuple(int(x) for x in found.groups()) != want:
            raise VerifyError(f"encoded hash {encoded[:40]} does not carry m,t,p = {want}")
    elif prim.id == "bcrypt":
        found = re.match(r"\$2[aby]\$(\d\d)\$", encoded)
        if not found or int(found.group(1)) != params.get("cost"):
            raise VerifyError(
                f"encoded hash {encoded[:10]} does not carry cost {params.get('cost')}"
            )


def same_code(a: Implementation, b: Implementation) -> bool:
    """One library in two variants of a runtime (java/bc and java@25/bc) runs the same code."""
    return a.library == b.library and a.runtime_id.split("@")[0] == b.runtime_id.split("@")[0]


def same_backend(a: Implementation, b: Implementation) -> bool:
    """Two bindings of one backend (python/hashlib and node/crypto: both OpenSSL)."""
    name = (a.backend or {}).get("name")
    return bool(name) and name == (b.backend or {}).get("name")


def _same(got: str, want: str | None, what: str) -> None:
    if want is not None and got != want.lower() and got != want:
        raise VerifyError(f"{what}: got {got[:80]}, expected {want[:80]}")


def _freeze(d: dict) -> tuple:
    return tuple(sorted((k, str(v)) for k, v in d.items()))


__all__ = ["Check", "Unverifiable", "Verifier", "VerifyError", "RunnerFailure"]
