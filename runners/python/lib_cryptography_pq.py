"""python/cryptography's post-quantum rows (added to lib_cryptography's table): ML-KEM-768 and
ML-KEM-1024 (FIPS 203) through hazmat.primitives.asymmetric.mlkem, and ML-DSA-44/65/87
(FIPS 204, pure, empty context) through hazmat.primitives.asymmetric.mldsa, where the wheel's
OpenSSL offers them (``backend.mlkem_supported()``, ``mldsa_supported()``; the pinned wheel
links OpenSSL 4.0, which does). ML-DSA signing is hedged (OpenSSL's default): ``sign`` with a
``randomness`` answers unsupported.

cryptography has no ML-KEM-512 class and no encapsulation with a given randomness: ``encaps``
with ``randomness`` answers unsupported (its known answers are not applicable; the
encapsulations it makes are verified by use). Private keys are the 64-byte seed, the form
``from_seed_bytes``/``private_bytes_raw`` use.
"""

from __future__ import annotations

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.backends.openssl.backend import backend

from cbrunner.protocol import Fail
from cbrunner.pubkey import Kem, Signature


def _row(private_cls, public_cls, ciphertext_len: int) -> Kem:
    def keygen(seed):
        key = private_cls.generate() if seed is None else private_cls.from_seed_bytes(seed)
        return key.public_key().public_bytes_raw(), key.private_bytes_raw()

    def encaps(key, m):
        if m is not None:
            raise Fail("unsupported", "cryptography has no encapsulation with a given randomness")
        secret, ct = key.encapsulate()
        return ct, secret

    return Kem(
        keygen=keygen,
        load_public=public_cls.from_public_bytes,
        encaps=encaps,
        load_private=private_cls.from_seed_bytes,
        decaps=lambda key, ct: key.decapsulate(ct),
        ciphertext_len=ciphertext_len,
    )


def _mldsa(private_cls, public_cls) -> Signature:
    def keygen(seed):
        key = private_cls.generate() if seed is None else private_cls.from_seed_bytes(seed)
        return key.public_key().public_bytes_raw(), key.private_bytes_raw()

    def verify(key, msg: bytes, sig: bytes) -> bool:
        try:
            key.verify(sig, msg)
        except InvalidSignature:
            return False
        return True

    return Signature(
        keygen=keygen,
        load_private=private_cls.from_seed_bytes,
        load_public=public_cls.from_public_bytes,
        sign=lambda key, msg: key.sign(msg),
        verify=verify,
    )


def _supported(name: str) -> bool:
    return bool(getattr(backend, f"{name}_supported", lambda: False)())


def rows() -> dict:
    """The ML-KEM and ML-DSA rows the wheel's backend offers."""
    out = {}
    if _supported("mlkem"):
        from cryptography.hazmat.primitives.asymmetric import mlkem

        out["ml-kem-768"] = _row(mlkem.MLKEM768PrivateKey, mlkem.MLKEM768PublicKey, 1088)
        out["ml-kem-1024"] = _row(mlkem.MLKEM1024PrivateKey, mlkem.MLKEM1024PublicKey, 1568)
    if _supported("mldsa"):
        from cryptography.hazmat.primitives.asymmetric import mldsa

        out["ml-dsa-44"] = _mldsa(mldsa.MLDSA44PrivateKey, mldsa.MLDSA44PublicKey)
        out["ml-dsa-65"] = _mldsa(mldsa.MLDSA65PrivateKey, mldsa.MLDSA65PublicKey)
        out["ml-dsa-87"] = _mldsa(mldsa.MLDSA87PrivateKey, mldsa.MLDSA87PublicKey)
    return out


ROWS = rows()
