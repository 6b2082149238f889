"""Key agreement and signatures, verified by use (docs/methodology.md, "Verification comes
first"; docs/protocol.md, "Public-key operations").

A randomised output (a key pair, an ECDSA or PSS signature) is never compared byte for byte:
a signature must verify with every other implementation and be refused with one bit flipped;
a key pair must derive from its own private key, sign or agree with another implementation.
Mixed into verify.Verifier, whose ``compute``/``output_for``/``offering`` it uses.
"""

from __future__ import annotations

from ..catalog import keys
from ..catalog.primitives import Primitive
from ..runtimes.protocol import Implementation, RemoteError, RunnerFailure
from .checks import Check, VerifyError, flip, same_code, same_output

REFUSALS = ("auth_failed", "invalid_params")
PROBE_MSG = b"cryptobench: signed by one implementation, verified by another".hex()


def flipped(sig: str) -> str:
    """The signature with one bit flipped in its middle byte: in r for ECDSA (flipping the
    last bit of s can give n - s, the other valid signature: Wycheproof's malleability
    edge cases), in R for Ed25519, anywhere for RSA."""
    return flip(sig, max(0, len(sig) // 4 - 1))


def der_length(hex_str: str) -> int:
    """Bytes of the DER element at the start of ``hex_str`` (an RSA SubjectPublicKeyInfo)."""
    b = bytes.fromhex(hex_str[:16])
    if len(b) < 2 or b[0] != 0x30:
        raise VerifyError("keygen output does not start with a DER SEQUENCE (public key)")
    if b[1] < 0x80:
        return 2 + b[1]
    n = b[1] & 0x7F
    if not 0 < n <= 4 or len(b) < 2 + n:
        raise VerifyError("keygen output: bad DER length in the public key")
    return 2 + n + int.from_bytes(b[2 : 2 + n], "big")


def split_pair(prim: Primitive, out: str) -> tuple[str, str]:
    """keygen's output → (public key, private key), hex; VerifyError if it cannot be."""
    n = prim.public_key_len or der_length(out)
    public, private = out[: 2 * n], out[2 * n :]
    if len(public) != 2 * n or not private:
        raise VerifyError(f"keygen output ({len(out) // 2} B) is not public key ‖ private key")
    if prim.private_key_len and len(private) != 2 * prim.private_key_len:
        raise VerifyError(
            f"keygen private key is {len(private) // 2} B, expected {prim.private_key_len}"
        )
    return public, private


class PubkeyChecks:
    """Known answers and agreement-by-use of the public-key families."""

    def _run(self, impl, prim_id: str, op: str, inputs: dict) -> str:
        """One call with the catalog's parameters (every parameter is always sent)."""
        prim = self.catalog.get(prim_id)
        return self.compute(impl, prim_id, op, inputs, self.catalog.resolve_params(prim, {}, op))

    # -- known answers ------------------------------------------------------------------------
    def pubkey_vector(self, impl, prim: Primitive, op: str, vec, params: dict) -> None:
        inputs = dict(vec.inputs)
        got = self.compute(impl, prim.id, op, inputs, params)
        same_output(got, vec.output, op)
        if op == "verify":
            bad = dict(inputs, signature=flipped(inputs["signature"]))
            self.expect_refused(impl, prim.id, bad, params, "a flipped signature bit")

    def expect_refused(self, impl, prim_id: str, inputs: dict, params, what: str) -> None:
        try:
            if params is None:
                got = self._run(impl, prim_id, "verify", inputs)
            else:
                got = self.compute(impl, prim_id, "verify", inputs, params)
        except RemoteError as exc:
            if exc.kind in REFUSALS:
                return
            raise VerifyError(f"verify with {what}: {exc.kind} instead of auth_failed") from None
        raise VerifyError(f"verify by {impl.id} accepted {what} (answered {got[:16]})")

    # -- one case -----------------------------------------------------------------------------
    def pubkey_case(self, impl, prim: Primitive, op: str, inputs: dict, params: dict, kat: Check):
        """(check, bench inputs, expected bench output or None: checked by use)."""
        if prim.family == "kem":
            return self.kem_case(impl, prim, op, inputs, params, kat)
        if op == "keygen":
            pair = self.output_for(impl, prim.id, "keygen", inputs, params)
            how = self.pair_works(impl, prim, pair)
            return Check(True, f"{kat.detail}; key pair {how}", kat.vectors), inputs, None
        if op == "sign":
            return self._sign(impl, prim, inputs, params, kat)
        if op == "verify":
            return self._verify_signature(impl, prim, inputs, params, kat)
        return None  # agree: deterministic, compared byte for byte like any output

    def _sign(self, impl, prim, inputs: dict, params: dict, kat: Check):
        sig = self.output_for(impl, prim.id, "sign", inputs, params)
        if prim.signature_len and len(sig) != 2 * prim.signature_len:
            raise VerifyError(f"signature is {len(sig) // 2} B, expected {prim.signature_len}")
        pair = keys.for_primitive(prim.id)
        who = self.signature_works(impl, prim, pair.public_key, inputs["msg"], sig, every=True)
        again = self.compute(impl, prim.id, "sign", inputs, params)
        expected = sig if again == sig else None  # randomised (ECDSA, PSS): checked by use
        detail = f"{kat.detail}; verified by {', '.join(who)}, a flipped bit refused"
        return Check(True, detail, kat.vectors), inputs, expected

    def _verify_signature(self, impl, prim, inputs: dict, params: dict, kat: Check):
        signers = self.pubkey_peers(prim.id, "sign", impl)
        if not signers:
            raise VerifyError("no implementation can sign the message to verify")
        signer = signers[0]
        pair = keys.for_primitive(prim.id)
        sign_params = self.catalog.resolve_params(prim, {}, "sign")
        sig = self.output_for(
            signer,
            prim.id,
            "sign",
            {"private_key": pair.private_key, "msg": inputs["msg"]},
            sign_params,
        )
        inputs = dict(inputs, signature=sig)
        same_output(self.compute(impl, prim.id, "verify", inputs, params), "ok", "verify")
        bad = dict(inputs, signature=flipped(sig))
        self.expect_refused(impl, prim.id, bad, params, "a flipped signature bit")
        detail = f"{kat.detail}; verifies {signer.id}'s signature, refuses a flipped bit"
        return Check(True, detail, kat.vectors), inputs, "ok"

    # -- by use -------------------------------------------------------------------------------
    def pubkey_peers(self, prim_id: str, op: str, impl: Implementation) -> list:
        """Verified implementations of prim/op: other code first, ``impl`` itself last."""
        cands = self.offering(prim_id, op)
        return sorted(cands, key=lambda o: (o.id == impl.id, same_code(o, impl), o.id))

    def signature_works(self, impl, prim, public: str, msg: str, sig: str, every=False):
        """The signature verifies with other implementations (every one, or the first) and
        is refused by them with one bit flipped; returns who checked it."""
        verifiers = self.pubkey_peers(prim.id, "verify", impl)
        if not every:
            verifiers = verifiers[:1]
        if not verifiers:
            raise VerifyError("no implementation offers verify to check the signature")
        inputs = {"public_key": public, "msg": msg, "signature": sig}
        bad = dict(inputs, signature=flipped(sig))
        who = []
        for other in verifiers:
            try:
                got = self._run(other, prim.id, "verify", inputs)
            except RemoteError as exc:
                raise VerifyError(f"{other.id} does not accept the signature: {exc}") from None
            except RunnerFailure:
                continue  # a peer that crashed is no opinion
            same_output(got, "ok", f"verify by {other.id}")
            self.expect_refused(other, prim.id, bad, None, "a flipped signature bit")
            who.append(other.id)
        if not who:
            raise VerifyError("no implementation could check the signature")
        return who

    def pair_works(self, impl, prim: Primitive, pair: str) -> str:
        """A keygen output is a working key pair; returns how that was shown."""
        public, private = split_pair(prim, pair)
        how = []
        if prim.public_key_len and self._derives(impl, prim, public, private):
            how.append("derives from its private key")
        if prim.family == "signature":
            signer = self.pubkey_peers(prim.id, "sign", impl)
            if not signer:
                raise VerifyError("no implementation offers sign to use the key pair")
            probe = {"private_key": private, "msg": PROBE_MSG}
            sig = self._run(signer[0], prim.id, "sign", probe)
            who = self.signature_works(impl, prim, public, PROBE_MSG, sig)
            how.append(f"signs with {signer[0].id} (verified by {who[0]})")
        elif prim.family == "kem":
            how.append(self.kem_pair_works(impl, prim, public, private))
        else:
            how.append(self._agrees(impl, prim, public, private))
        return ", ".join(how)

    def _derives(self, impl, prim, public: str, private: str) -> bool:
        """keygen from the private key (as key_seed) elsewhere gives the same pair; False when
        no implementation takes a seed."""
        for other in self.pubkey_peers(prim.id, "keygen", impl):
            try:
                again = self._run(other, prim.id, "keygen", {"key_seed": private})
            except RemoteError as exc:
                if exc.kind == "unsupported":
                    continue
                raise VerifyError(f"keygen from its private key by {other.id}: {exc}") from None
            same_output(again, public + private, f"keygen from the private key by {other.id}")
            return True
        return False

    def _agrees(self, impl, prim, public: str, private: str) -> str:
        """The new key agrees with a fixed peer both ways: ours with the peer's public key, and
        the peer's private key with ours, computed by two implementations."""
        peers = self.pubkey_peers(prim.id, "agree", impl)
        if not peers:
            raise VerifyError("no implementation offers agree to use the key pair")
        fixed = keys.for_primitive(prim.id)
        one, two = peers[0], peers[1] if len(peers) > 1 else peers[0]
        ours = {"private_key": private, "peer_public_key": fixed.public_key}
        theirs = {"private_key": fixed.private_key, "peer_public_key": public}
        a = self._run(one, prim.id, "agree", ours)
        b = self._run(two, prim.id, "agree", theirs)
        same_output(a, b, f"shared secret ({one.id} vs {two.id})")
        return f"agrees both ways ({one.id}, {two.id})"

    # -- the timed path -------------------------------------------------------------------------
    def check_bench_output(self, impl, prim: Primitive, op: str, inputs: dict, out) -> None:
        """The bench's untimed output of a randomised operation, verified by use."""
        if not isinstance(out, str):
            raise VerifyError("bench returned no output string")
        if op == "keygen":
            params = self.catalog.resolve_params(prim, {}, "keygen")
            made = self.output_for(impl, prim.id, "keygen", inputs, params)
            if out == made:
                raise VerifyError("bench keygen returned the key pair made during verification")
            self.pair_works(impl, prim, out)
        elif op == "sign":
            public = keys.for_primitive(prim.id).public_key
            self.signature_works(impl, prim, public, inputs["msg"], out)
        elif prim.family == "kem":
            self.check_kem_bench_output(impl, prim, op, inputs, out)
