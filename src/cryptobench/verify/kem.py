"""Key encapsulation (family ``kem``: ML-KEM), verified by use (docs/protocol.md, "Key
encapsulation"; docs/methodology.md, "Verification comes first").

An encapsulation is randomised: it is never compared byte for byte. Its shared secret must be
what every other implementation's ``decaps`` gives for its ciphertext (and, for one of them,
a ciphertext with one bit flipped must give another secret: implicit rejection, never an
error); a second call must give another encapsulation, so a runner answering a constant one
fails. A key pair must derive from its own private key (the seed) and decapsulate another
implementation's encapsulation to it. ``decaps`` is deterministic: compared byte for byte
with the others, and with known answers (vectors/ml_kem.toml, Wycheproof).
Mixed into verify.Verifier, whose ``compute``/``output_for``/``pubkey_peers`` it uses.
"""

from __future__ import annotations

from ..catalog import keys
from ..catalog.primitives import Primitive
from ..runtimes.protocol import RemoteError, RunnerFailure
from .checks import Check, VerifyError, flip, same_output


def split_encapsulation(prim: Primitive, out: str) -> tuple[str, str]:
    """encaps' output → (ciphertext, shared secret), hex; VerifyError if it cannot be."""
    n, k = prim.ciphertext_len or 0, prim.output_len or 0
    if len(out) != 2 * (n + k):
        raise VerifyError(f"encaps output is {len(out) // 2} B, expected {n} + {k}")
    return out[: 2 * n], out[2 * n :]


class KemChecks:
    """Agreement-by-use of the kem family."""

    def kem_case(self, impl, prim: Primitive, op: str, inputs: dict, params: dict, kat: Check):
        """(check, bench inputs, expected bench output or None: checked by use), or None for
        decaps (deterministic: compared byte for byte like any output)."""
        if op == "keygen":
            pair = self.output_for(impl, prim.id, "keygen", inputs, params)
            how = self.pair_works(impl, prim, pair)
            return Check(True, f"{kat.detail}; key pair {how}", kat.vectors), inputs, None
        if op == "encaps":
            out = self.output_for(impl, prim.id, "encaps", inputs, params)
            who = self.encapsulation_works(impl, prim, out, every=True)
            self.differs(impl, prim, inputs, params, out)
            detail = f"{kat.detail}; decapsulated by {', '.join(who)}, a flipped bit rejected"
            return Check(True, detail, kat.vectors), inputs, None
        return None

    def differs(self, impl, prim, inputs: dict, params: dict, out: str) -> None:
        """A second encapsulation is another one (fresh randomness each call)."""
        if "randomness" in inputs:
            return
        if self.compute(impl, prim.id, "encaps", inputs, params) == out:
            raise VerifyError("encaps gave the same ciphertext twice (no fresh randomness)")

    def encapsulation_works(self, impl, prim, out: str, private=None, every=False) -> list:
        """Every other implementation (or the first) decapsulates the encapsulation to its
        secret with ``private`` (default: the benchmark key) and rejects a flipped bit
        implicitly (another secret, no error); returns who did."""
        ct, secret = split_encapsulation(prim, out)
        private = private or keys.for_primitive(prim.id).private_key
        peers = self.pubkey_peers(prim.id, "decaps", impl)
        if not peers:
            raise VerifyError("no implementation offers decaps to check the encapsulation")
        who = []
        for other in peers if every else peers[:1]:
            try:
                got = self._run(
                    other, prim.id, "decaps", {"private_key": private, "ciphertext": ct}
                )
            except RemoteError as exc:
                raise VerifyError(f"{other.id} cannot decapsulate it: {exc}") from None
            except RunnerFailure:
                continue  # a peer that crashed is no opinion
            same_output(got, secret, f"shared secret decapsulated by {other.id}")
            if not who:
                self.rejects_implicitly(other, prim, private, ct, secret)
            who.append(other.id)
        if not who:
            raise VerifyError("no implementation could decapsulate the encapsulation")
        return who

    def rejects_implicitly(self, impl, prim, private: str, ct: str, secret: str) -> None:
        bad = {"private_key": private, "ciphertext": flip(ct, len(ct) // 4)}
        try:
            got = self._run(impl, prim.id, "decaps", bad)
        except RemoteError as exc:
            raise VerifyError(f"decaps of a flipped ciphertext by {impl.id}: {exc.kind}") from None
        if got == secret or len(got) != len(secret):
            raise VerifyError(f"decaps by {impl.id} of a flipped ciphertext gave {got[:16]}")

    def kem_pair_works(self, impl, prim: Primitive, public: str, private: str) -> str:
        """Another implementation encapsulates to the new public key; its secret comes back
        from decaps with the new private key (here and elsewhere)."""
        peers = self.pubkey_peers(prim.id, "encaps", impl)
        if not peers:
            raise VerifyError("no implementation offers encaps to use the key pair")
        enc = self._run(peers[0], prim.id, "encaps", {"public_key": public})
        who = self.encapsulation_works(impl, prim, enc, private=private)
        return f"decapsulates {peers[0].id}'s encapsulation (with {who[0]})"

    def check_kem_bench_output(self, impl, prim: Primitive, op: str, inputs: dict, out) -> None:
        """The bench's untimed encapsulation: another one than verification's, and it works."""
        if op != "encaps":
            return
        params = self.catalog.resolve_params(prim, {}, "encaps")
        made = self.output_for(impl, prim.id, "encaps", inputs, params)
        if out == made:
            raise VerifyError("bench encaps returned the encapsulation made during verification")
        self.encapsulation_works(impl, prim, out)
