"""A password hash verified elsewhere (verify/agreement.py, `verify_elsewhere`): by its maker's
own verify and by two others, another backend first, never the same code in another runtime
variant, never every implementation offering verify (n² calls of a deliberately slow function).
Fake runtimes verify with the real `bcrypt` package; no runner, no timing."""

from __future__ import annotations

import bcrypt
import pytest

from cryptobench.catalog import primitives as catalog_mod
from cryptobench.runtimes.protocol import Implementation, Offer, RemoteError
from cryptobench.verify import agreement, vectors
from cryptobench.verify.checks import VerifyError
from cryptobench.verify.verifier import Verifier

CAT = catalog_mod.load()
VECS = vectors.load_all(CAT)
BCRYPT = CAT.get("bcrypt")
PASSWORD = b"correct horse"
ENCODED = bcrypt.hashpw(PASSWORD, bcrypt.gensalt(4)).decode()


class BcryptRuntime:
    """A runtime whose libraries verify bcrypt hashes with the real `bcrypt`; ``backends`` maps
    each library to its backend's name; a library in ``refuses`` refuses every hash."""

    def __init__(self, rid: str, backends: dict, refuses=()):
        self.id, self.sent, self.refuses = rid, [], set(refuses)
        offer = Offer(("hash", "verify"))
        self.implementations = [
            Implementation(f"{rid}/{lib}", rid, lib, "1", {"name": b}, {BCRYPT.id: offer})
            for lib, b in backends.items()
        ]

    def request(self, op, timeout, impl, primitive, operation, inputs, params):
        impl = f"{self.id}/{impl}"
        self.sent.append((impl, operation, inputs.get("encoded")))
        pw, enc = bytes.fromhex(inputs["password"]), inputs["encoded"].encode()
        if impl not in self.refuses and bcrypt.checkpw(pw, enc):
            return {"output": "ok"}
        raise RemoteError("auth_failed", "password mismatch")


def _world(refuses=()):
    a = BcryptRuntime("a", {"one": "X", "two": "Y"}, refuses)
    a2 = BcryptRuntime("a@2", {"one": "X"})  # the same code as a/one under another variant
    b = BcryptRuntime("b", {"one": "X"})  # another binding of a/one's backend
    c = BcryptRuntime("c", {"three": "Z"})
    return Verifier(CAT, VECS, [a, a2, b, c]), (a, a2, b, c)


def _verified_ours(rts) -> list[str]:
    return [impl for rt in rts for impl, op, enc in rt.sent if op == "verify" and enc == ENCODED]


def test_a_hash_is_verified_by_its_maker_and_two_others_of_other_backends_first():
    v, rts = _world()
    who = v.verify_elsewhere(BCRYPT, PASSWORD.hex(), ENCODED, {}, prefer=v.impls["a/one"])
    # its own verify, then other backends by id (a/two: Y, c/three: Z); b/one binds the same
    # backend (X) and comes after them; a@2/one is a/one's own code: never a second opinion
    assert who == ["a/one", "a/two", "c/three"] == sorted(_verified_ours(rts), key=who.index)
    assert agreement.ELSEWHERE == 2


def test_without_a_maker_two_verify_it_and_nobody_else_is_asked():
    v, rts = _world()
    who = v.verify_elsewhere(BCRYPT, PASSWORD.hex(), ENCODED, {})
    assert len(who) == 2 and len(_verified_ours(rts)) == 2


def test_a_verifier_whose_known_answers_fail_is_passed_over():
    v, rts = _world(refuses={"a/two"})  # a/two refuses every hash, its known answers too
    assert not v.known_answers(v.impls["a/two"], BCRYPT.id, "verify").ok
    who = v.verify_elsewhere(BCRYPT, PASSWORD.hex(), ENCODED, {}, prefer=v.impls["a/one"])
    assert who == ["a/one", "c/three", "b/one"]


def test_a_chosen_verifier_that_refuses_the_hash_fails_the_check():
    v, _ = _world()
    other = bcrypt.hashpw(b"another password", bcrypt.gensalt(4)).decode()
    with pytest.raises((RemoteError, VerifyError), match="mismatch"):
        v.verify_elsewhere(BCRYPT, PASSWORD.hex(), other, {}, prefer=v.impls["a/one"])
