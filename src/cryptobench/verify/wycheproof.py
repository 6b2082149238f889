"""Project Wycheproof (vectors/wycheproof/, C2SP/wycheproof testvectors_v1, Apache-2.0) run
through every implementation: valid vectors must seal/open/mac/derive exactly (and a MAC's
verify accept a full-length valid tag), invalid ones must be refused, and a vector whose sizes
an implementation did not declare is skipped as unsupported (after checking the implementation
refuses it: accepting it is a contract failure).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ..catalog.primitives import Catalog
from ..errors import DataError
from ..paths import project_root
from ..runtimes import declared_sizes as sizes_mod
from ..runtimes.protocol import Implementation, RemoteError, RunnerFailure
from . import acvp_slhdsa as acvp
from . import wycheproof_kem as wp_kem
from . import wycheproof_mldsa as wp_mldsa
from . import wycheproof_pubkey as wp_pubkey
from .checks import flip

# file stem → primitive id per key size in bits (None: any); what the catalog has
FILES = {
    "aes_gcm": {128: "aes-128-gcm", 256: "aes-256-gcm"},
    "aes_gcm_siv": {128: "aes-128-gcm-siv", 256: "aes-256-gcm-siv"},
    "chacha20_poly1305": {256: "chacha20-poly1305"},
    "xchacha20_poly1305": {256: "xchacha20-poly1305"},
    "hmac_sha256": {None: "hmac-sha256"},
    "pbkdf2_hmacsha1": {None: "pbkdf2-sha1"},
    "pbkdf2_hmacsha256": {None: "pbkdf2-sha256"},
    "pbkdf2_hmacsha512": {None: "pbkdf2-sha512"},
    "x25519": {None: "x25519"},
    "ecdh_secp256r1_ecpoint": {None: "ecdh-p256"},
    "ed25519": {None: "ed25519"},
    "ecdsa_secp256r1_sha256": {None: "ecdsa-p256-sha256"},
    "ecdsa_secp256r1_sha256_p1363": {None: "ecdsa-p256-sha256-p1363"},
    "rsa_pss_2048_sha256_mgf1_32": {None: "rsa-2048-pss-sha256"},
    "rsa_pss_3072_sha256_mgf1_32": {None: "rsa-3072-pss-sha256"},
    "rsa_signature_2048_sha256": {None: "rsa-2048-pkcs1-sha256"},
    # ML-KEM and ML-DSA (stored as deterministic subsets: vectors/wycheproof/README.md)
    **{
        f"mlkem_{n}{kind}": {None: f"ml-kem-{n}"}
        for n in (512, 768, 1024)
        for kind in ("", "_encaps", "_keygen_seed")
    },
    **{
        f"mldsa_{n}_{kind}": {None: f"ml-dsa-{n}"}
        for n in (44, 65, 87)
        for kind in ("verify", "sign_seed")
    },
}
SAMPLE_SEED, SAMPLE_PER_PRIMITIVE = 22, 8
REFUSALS = ("auth_failed", "invalid_params", "unsupported")
# the operation a public-key test runs: an implementation that does not offer it is unsupported
NEEDS = {
    "kex": "agree",
    "sig": "verify",
    "mldsa-sign": "sign",
    **wp_kem.OPERATION,
    **acvp.OPERATION,
}


@dataclass(frozen=True)
class Case:
    primitive: str
    kind: str  # aead | mac | kdf | kex | sig | kem-keygen | kem-encaps | kem-decaps | mldsa-sign
    where: str  # aes_gcm_test.json #42
    inputs: dict
    expected: str  # sealed (ct‖tag), tag, or derived key
    result: str  # valid | invalid | acceptable
    sizes: dict  # bytes: key, nonce, tag
    params: dict = field(default_factory=dict)


def _cases_of(stem: str, doc: dict) -> list[Case]:
    out = []
    for group in doc["testGroups"]:
        by_size = FILES[stem]
        pid = by_size.get(group.get("keySize")) or by_size.get(None)
        if pid is None:
            continue  # a key size the catalog has no primitive for (AES-192)
        for t in group["tests"]:
            where = f"{stem}_test.json #{t['tcId']}"
            if group["type"] == "AeadTest":
                inputs = {"key": t["key"], "nonce": t["iv"], "aad": t["aad"], "msg": t["msg"]}
                sizes = {"key": len(t["key"]) // 2, "nonce": len(t["iv"]) // 2}
                sizes["tag"] = group["tagSize"] // 8
                out.append(Case(pid, "aead", where, inputs, t["ct"] + t["tag"], t["result"], sizes))
            elif group["type"] == "MacTest":
                sizes = {"key": len(t["key"]) // 2, "tag": group["tagSize"] // 8}
                inputs = {"key": t["key"], "msg": t["msg"]}
                out.append(Case(pid, "mac", where, inputs, t["tag"], t["result"], sizes))
            elif group["type"] in wp_pubkey.TYPES:
                parsed = wp_pubkey.parse(group, t)
                if parsed:
                    kind, inputs, expected = parsed
                    out.append(Case(pid, kind, where, inputs, expected, t["result"], {}))
            elif group["type"] in wp_kem.TYPES + wp_mldsa.TYPES:
                parsed = (wp_kem if group["type"] in wp_kem.TYPES else wp_mldsa).parse(group, t)
                if parsed:
                    kind, inputs, expected = parsed
                    out.append(Case(pid, kind, where, inputs, expected, t["result"], {}))
            elif group["type"] == "PbkdfTest":
                inputs = {"password": t["password"], "salt": t["salt"]}
                params = {"iterations": t["iterationCount"], "out_len": t["dkLen"]}
                out.append(Case(pid, "kdf", where, inputs, t["dk"], t["result"], {}, params))
    return out


def load(folder: Path | None = None, acvp_folder: Path | None = None) -> dict[str, list[Case]]:
    """Every stored Wycheproof case the catalog can run, and the stored ACVP SLH-DSA ones
    (verify/acvp_slhdsa.py), grouped by primitive id."""
    folder = folder or project_root() / "vectors" / "wycheproof"
    grouped: dict[str, list[Case]] = {}
    path = (acvp_folder or project_root() / "vectors" / "acvp") / acvp.FILE
    try:
        for pid, *rest in acvp.parse(path):
            grouped.setdefault(pid, []).append(Case(pid, *rest, {}))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise DataError(f"{path.name}: not a readable ACVP subset: {exc}") from None
    for stem in FILES:
        path = folder / f"{stem}_test.json"
        try:
            doc = json.loads(path.read_text())
            cases = _cases_of(stem, doc)
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise DataError(f"{path.name}: not a readable Wycheproof file: {exc}") from None
        for case in cases:
            grouped.setdefault(case.primitive, []).append(case)
    return grouped


def sample(cases: dict[str, list[Case]], per_primitive: int = SAMPLE_PER_PRIMITIVE) -> dict:
    """A fixed, seeded sample per primitive (the same every run), as many invalid vectors as
    valid ones where there are: plain `verify` runs it."""
    out = {}
    for pid, group in cases.items():
        rng = random.Random(f"{SAMPLE_SEED}:{pid}")
        invalid = [c for c in group if c.result == "invalid"]
        valid = [c for c in group if c.result != "invalid"]
        k_bad = min(len(invalid), per_primitive // 2)
        k_good = min(len(valid), per_primitive - k_bad)
        out[pid] = rng.sample(valid, k_good) + rng.sample(invalid, k_bad)
    return out


@dataclass
class Tally:
    """What one implementation did with the suite."""

    implementation: str
    passed: int = 0
    unsupported: Counter = field(default_factory=Counter)  # reason → count
    failed: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failed

    def as_dict(self) -> dict:
        return {
            "implementation": self.implementation,
            "passed": self.passed,
            "unsupported": sum(self.unsupported.values()),
            "unsupported_reasons": dict(self.unsupported),
            "failed": len(self.failed),
            "failures": self.failed,
        }


def tally_from(d: dict) -> Tally:
    """A Tally again from its ``as_dict`` (the cache of verified answers keeps passed ones)."""
    return Tally(d["implementation"], d["passed"], Counter(d["unsupported_reasons"]), d["failures"])


class Fail(Exception):
    pass


class Suite:
    """Runs cases through implementations, with the verifier's compute (aad_len = the AAD's
    length, timeouts per family)."""

    def __init__(self, verifier, catalog: Catalog):
        self.verifier, self.catalog = verifier, catalog

    def run(self, impl: Implementation, cases: dict[str, list[Case]]) -> Tally:
        tally = Tally(impl.id)
        for pid in sorted(cases):
            if pid not in impl.primitives or pid not in self.catalog:
                continue
            for case in cases[pid]:
                try:
                    why = self._one(impl, case)
                except Fail as exc:
                    tally.failed.append(f"{case.where} ({pid}): {exc}")
                except RunnerFailure as exc:
                    tally.failed.append(f"{case.where} ({pid}): runner {exc}")
                else:
                    if why:
                        tally.unsupported[why] += 1
                    else:
                        tally.passed += 1
        return tally

    def _one(self, impl: Implementation, case: Case) -> str | None:
        """None when the case passed; the reason when it is unsupported; Fail otherwise."""
        prim = self.catalog.get(case.primitive)
        needed = NEEDS.get(case.kind)
        if needed and needed not in impl.primitives[case.primitive].operations:
            return f"unsupported: no {needed} offered"  # e.g. sign only, or encaps only
        if case.kind.startswith("slhdsa-"):
            try:
                return acvp.check(lambda op, inputs: self._call(impl, prim, op, inputs), case)
            except acvp.Fail as exc:
                raise Fail(str(exc)) from None
        if case.kind.startswith("kem-") or case.kind == "mldsa-sign":
            module = wp_mldsa if case.kind == "mldsa-sign" else wp_kem
            try:
                return module.check(lambda op, inputs: self._call(impl, prim, op, inputs), case)
            except (wp_kem.Fail, wp_mldsa.Fail) as exc:
                raise Fail(str(exc)) from None
        if case.kind in ("kex", "sig"):
            try:
                wp_pubkey.check(lambda op, inputs: self._call(impl, prim, op, inputs), case)
            except wp_pubkey.Fail as exc:
                raise Fail(str(exc)) from None
            return None
        offer = impl.primitives[case.primitive]
        why = sizes_mod.unsupported(prim, offer, case.sizes)
        if case.kind == "aead":
            return self._aead(impl, prim, offer, case, why)
        if case.kind == "mac":
            return self._mac(impl, prim, case, why)
        return self._kdf(impl, prim, case)

    def _call(self, impl, prim, op, inputs, params=None):
        """(output, None) or (None, error kind)."""
        base = self.catalog.resolve_params(prim, {}, op)
        base.update(params or {})
        try:
            return self.verifier.compute(impl, prim.id, op, inputs, base), None
        except RemoteError as exc:
            return None, exc.kind

    def _aead(self, impl, prim, offer, case: Case, why: str | None) -> str | None:
        ops = offer.operations
        sealed = case.expected
        tag = 2 * (prim.tag_len or 16)
        if why:  # undeclared size: it must be refused (seal shows acceptance plainly)
            op = "seal" if "seal" in ops else "open"
            inputs = case.inputs if op == "seal" else dict(case.inputs, msg=sealed)
            out, kind = self._call(impl, prim, op, inputs)
            if kind in ("invalid_params", "unsupported") or (op == "open" and kind):
                return f"unsupported: {why}"
            if kind is None:
                raise Fail(f"{op} accepted an undeclared {why} (contract: declare it in hello)")
            raise Fail(f"{op} with an undeclared {why}: {kind}, not invalid_params")
        if case.result == "invalid":
            if "open" not in ops:
                return "unsupported: no open to refuse with"
            out, kind = self._call(impl, prim, "open", dict(case.inputs, msg=sealed))
            if kind is None:
                raise Fail(f"accepted an invalid vector (open gave {out[:32]})")
            if kind not in REFUSALS:
                raise Fail(f"open of an invalid vector: {kind}, not a refusal")
            return None
        if "seal" in ops:
            out, kind = self._call(impl, prim, "seal", case.inputs)
            if case.result == "acceptable" and kind in REFUSALS:
                return None
            if kind is not None:
                raise Fail(f"seal of a valid vector: {kind}")
            if out != sealed:
                raise Fail(f"seal gave {out[-tag:]}… expected {sealed[-tag:]}…")
        if "open" in ops:
            out, kind = self._call(impl, prim, "open", dict(case.inputs, msg=sealed))
            if case.result == "acceptable" and kind in REFUSALS:
                return None
            if kind is not None:
                raise Fail(f"open of a valid vector: {kind}")
            if out != case.inputs["msg"]:
                raise Fail(f"open gave {out[:32]}, expected {case.inputs['msg'][:32]}")
        return None

    def _mac(self, impl, prim, case: Case, why: str | None) -> str | None:
        out, kind = self._call(impl, prim, "mac", case.inputs)
        if why and case.sizes.get("tag", 0) < (prim.output_len or 0) and "tag" in why:
            why = None  # a truncated tag is compared as a prefix of the full MAC
        if why:
            if kind in ("invalid_params", "unsupported"):
                return f"unsupported: {why}"
            raise Fail(f"accepted an undeclared {why} (contract: declare it in hello)")
        if kind is not None:
            raise Fail(f"mac: {kind}")
        got = out[: 2 * case.sizes["tag"]]
        if case.result == "valid" and got != case.expected:
            raise Fail(f"mac gave {got}, expected {case.expected}")
        if case.result == "invalid" and got == case.expected:
            raise Fail("the MAC matches a tag Wycheproof marks invalid")
        if "verify" in impl.primitives[prim.id].operations and case.result != "acceptable":
            self._mac_verify(impl, prim, case)
        return None

    def _mac_verify(self, impl, prim, case: Case) -> None:
        """verify: a valid full-length tag answers "ok" and the same with its first or last
        byte flipped auth_failed; an invalid or truncated tag auth_failed."""
        tag, full = case.expected, case.sizes["tag"] == prim.output_len
        tags = [(tag, "ok" if case.result == "valid" and full else "auth_failed")]
        if tags[0][1] == "ok":
            tags += [(flip(tag, 0), "auth_failed"), (flip(tag, -1), "auth_failed")]
        for sent, want in tags:
            out, kind = self._call(impl, prim, "verify", dict(case.inputs, tag=sent))
            if (out if kind is None else kind) != want:
                got = f"gave {out!r}" if kind is None else f"failed with {kind}"
                raise Fail(f"verify of tag {sent[:16]}… {got}, expected {want}")

    def _kdf(self, impl, prim, case: Case) -> str | None:
        out, kind = self._call(impl, prim, "derive", case.inputs, case.params)
        if kind is not None and not _is_text(case.inputs["password"]):
            offer = impl.primitives[prim.id]
            if (offer.sizes or {}).get("password") == "text" and kind == "invalid_params":
                return "unsupported: password not UTF-8 text"
        if kind == "unsupported":  # a library's policy (BouncyCastle's provider: no empty password)
            return "unsupported: refused by the library's policy"
        if kind is not None:
            raise Fail(f"derive: {kind}")
        if (out == case.expected) != (case.result != "invalid"):
            raise Fail(f"derive gave {out[:32]}, expected {case.expected[:32]}")
        return None


def _is_text(hex_str: str) -> bool:
    try:
        bytes.fromhex(hex_str).decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def run_all(verifier, catalog, impls: list[Implementation], cases, console=None) -> list[Tally]:
    suite = Suite(verifier, catalog)
    tallies = []
    for impl in impls:
        if not any(pid in impl.primitives for pid in cases):
            continue
        tallies.append(suite.run(impl, cases))
        if console is not None:
            t = tallies[-1]
            console.print(
                f"{'ok  ' if t.ok else 'FAIL'} {t.implementation} wycheproof: {t.passed} passed, "
                f"{sum(t.unsupported.values())} unsupported, {len(t.failed)} failed",
                markup=False,
            )
    return tallies


def selected(live, runtimes=(), impl_ids=(), primitives=(), cases=None):
    """(implementations, cases) after verify's --runtime/--impl/--primitive filters."""
    from ..runtimes.discovery import runtime_matches

    impls = [
        i
        for rt in live
        if not runtimes or any(runtime_matches(rt.id, r) for r in runtimes)
        for i in rt.implementations
        if not impl_ids or i.id in impl_ids
    ]
    cases = cases if cases is not None else load()
    if primitives:
        cases = {p: c for p, c in cases.items() if p in primitives}
    return impls, cases
