"""Pure parts of the verifier."""

import pytest

from cryptobench.catalog import primitives as catalog
from cryptobench.verify.verifier import VerifyError, check_encoded_cost, flip

CAT = catalog.load()


def test_flip_changes_one_bit():
    assert flip("0000", -1) == "0001" and flip("ff00", 0) == "fe00"


def test_encoded_argon2_must_carry_the_requested_cost():
    prim = CAT.get("argon2id")
    params = {"m": 19456, "t": 2, "p": 1}
    check_encoded_cost(prim, "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA", params)
    with pytest.raises(VerifyError, match="m,t,p"):
        check_encoded_cost(prim, "$argon2id$v=19$m=4096,t=2,p=1$c2FsdA$aGFzaA", params)


def test_encoded_bcrypt_must_carry_the_requested_cost():
    prim = CAT.get("bcrypt")
    check_encoded_cost(prim, "$2b$10$" + "a" * 53, {"cost": 10})
    with pytest.raises(VerifyError, match="cost 10"):
        check_encoded_cost(prim, "$2b$04$" + "a" * 53, {"cost": 10})
