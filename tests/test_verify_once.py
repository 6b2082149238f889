"""Known answers and agreement outputs worked out once, however many verification workers ask
for them together (verify/once.py): two workers that needed the same implementation's known
answers at once used to compute them both (docs/methodology.md, "Verification off the
critical path")."""

from __future__ import annotations

import threading
import time

import pytest

from cryptobench.catalog import primitives as catalog
from cryptobench.runtimes.protocol import Implementation, Offer
from cryptobench.verify.checks import Check
from cryptobench.verify.once import Once
from cryptobench.verify.verifier import Verifier


def _together(n: int, ask) -> list:
    """``ask()`` from ``n`` threads released at once; their answers."""
    gate, out = threading.Barrier(n), [None] * n

    def one(i: int) -> None:
        gate.wait()
        out[i] = ask()

    threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    return out


def test_threads_asking_at_once_get_one_answer_made_once():
    once, made = Once(), []

    def make():
        made.append(1)
        time.sleep(0.05)  # long enough that every other thread asks while this one works
        return len(made)

    assert _together(4, lambda: once.get("k", make)) == [1, 1, 1, 1]
    assert made == [1]
    assert once.get("k", make) == 1 and made == [1]


def test_a_make_that_raises_keeps_nothing_and_the_next_asker_makes_it_again():
    once, calls = Once(), []

    def make():
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("runner crashed")
        return "ok"

    with pytest.raises(RuntimeError):
        once.get("k", make)
    assert "k" not in once
    assert once.get("k", make) == "ok" and len(calls) == 2


def test_an_answer_put_first_is_kept_and_never_made():
    once = Once()
    once.put("k", "cached")
    once.put("k", "later")  # the first answer stands
    assert once.get("k", lambda: pytest.fail("made although an answer was put")) == "cached"


def test_the_verifier_checks_an_implementations_known_answers_once_for_many_workers():
    verifier = Verifier(catalog.load(), {}, [])
    offer = {"argon2id": Offer(("hash", "verify"))}
    impl = Implementation("a/lib", "a", "lib", "1", {}, offer)
    verifier.impls = {impl.id: impl}
    asked = []

    def known_answers(impl, prim, op):
        asked.append((impl.id, prim.id, op))
        time.sleep(0.05)
        return Check(True, "5 known answers", 5)

    verifier._known_answers = known_answers
    got = _together(3, lambda: verifier.known_answers(impl, "argon2id", "verify"))
    assert [c.detail for c in got] == ["5 known answers"] * 3
    assert asked == [("a/lib", "argon2id", "verify")]
    assert verifier.answers_checked() == {("a/lib", "argon2id", "verify"): got[0]}
