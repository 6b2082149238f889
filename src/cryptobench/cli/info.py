"""The commands that look before measuring: list, presets, verify, compute."""

from __future__ import annotations

import sys

import click

from ..catalog import primitives as catalog_mod
from ..errors import UsageError
from ..plan import cases as plan
from ..runtimes.protocol import RemoteError, RunnerFailure
from ..runtimes.session import open_runtimes
from .common import err, guarded, print_skips
from .types import TIMEOUT


@click.command("list")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table")
@guarded
def list_cmd(fmt):
    """Runtimes, implementations, what each offers, and what was skipped with why."""
    from . import listing

    live, skipped = open_runtimes()
    try:
        cat = catalog_mod.load()
        click.echo(listing.render_list(live, skipped, fmt, cat), nl=False)
    finally:
        for rt in live:
            rt.stop()


@click.command()
@guarded
def presets():
    """The presets, what each runs and its expected duration here."""
    from . import listing

    cat = catalog_mod.load()
    live, skipped = open_runtimes()
    for rt in live:
        rt.stop()
    click.echo(listing.render_presets(cat, live), nl=False)


@click.command()
@click.option("--runtime", "runtimes", multiple=True, help="runtime id (java selects java@25 too)")
@click.option("--impl", "impls", multiple=True, help="implementation id, e.g. go/stdlib")
@click.option("--primitive", "primitives", multiple=True)
@click.option("--family", "families", multiple=True, help="every primitive of a family, e.g. kem")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table")
@click.option("--all-vectors", is_flag=True, help="also run vectors marked slow")
@click.option("--strict", is_flag=True, help="exit 1 when anything is unverifiable, too")
@click.option(
    "--suite",
    type=click.Choice(["default", "wycheproof"]),
    default="default",
    show_default=True,
    help="wycheproof: every Project Wycheproof vector, per implementation",
)
@click.option(
    "--timeout",
    type=TIMEOUT,
    default=60.0,
    show_default=True,
    help="seconds to wait for one answer",
)
@click.option("--reverify", is_flag=True, help="verify again what the cache holds as verified")
@click.option("--wait", is_flag=True, help="wait for a run that is measuring instead of failing")
@guarded
def verify(
    runtimes, impls, primitives, families, fmt, all_vectors, suite, strict, timeout, reverify, wait
):
    """The verification matrix: known answers, forgeries, agreement between implementations,
    and a seeded sample of Project Wycheproof (all of it with --suite wycheproof).

    Exit 1 if anything failed; "unverifiable" (no published vector and no second
    implementation: never timed) is not a failure unless --strict."""
    from ..run.lock import RunLock
    from ..verify import vectors as vectors_mod
    from ..verify.cache import Cache, Fingerprints
    from ..verify.verifier import Verifier
    from . import listing

    cat = catalog_mod.load()
    vecs = vectors_mod.load_all(cat)
    for p in primitives:
        cat.get(p)
    primitives = tuple(primitives) + _family_members(cat, families)
    live, skipped = open_runtimes(runtimes, impls)
    print_skips(skipped)
    verifier = Verifier(cat, vecs, live, timeout=timeout, all_vectors=all_vectors)
    cache = Cache(enabled=not (reverify or all_vectors))
    with RunLock(wait=wait):  # every core is busy: nothing may be timed meanwhile
        if suite == "wycheproof":
            wycheproof_suite(verifier, cat, live, runtimes, impls, primitives, fmt)
        try:
            fps = Fingerprints.of(live)  # once: the matrix and the sample both key the cache by it
            rows = listing.verify_matrix(
                verifier, cat, live, runtimes, impls, primitives, err, cache, fps
            )
            filters = (runtimes, impls, primitives)
            rows += wycheproof_sample(verifier, cat, live, filters, cache, fps)
        finally:
            for rt in live:
                rt.stop()
    click.echo(listing.render_matrix(rows, fmt), nl=False)
    err.print(cache.summary(), markup=False)
    unverifiable = [r for r in rows if r["status"] == "unverifiable"]
    if strict and unverifiable:
        err.print(
            f"--strict: {len(unverifiable)} unverifiable (no published vector and no second "
            f"implementation): {', '.join(_name(r) for r in unverifiable[:5])}"
            + (" …" if len(unverifiable) > 5 else ""),
            markup=False,
        )
    failed = any(r["status"] == "failed" for r in rows)
    sys.exit(1 if failed or (strict and unverifiable) else 0)


def _family_members(cat, families) -> tuple:
    """The primitive ids of ``families`` (verify --family); an unknown family: usage error."""
    for f in families:
        if f not in catalog_mod.FAMILIES:
            raise UsageError(f"unknown family {f!r}; valid: {', '.join(catalog_mod.FAMILIES)}")
    return tuple(p.id for p in cat if p.family in families)


def _name(row: dict) -> str:
    return f"{row['implementation']} {row['primitive']} {row['operation']}"


def wycheproof_suite(verifier, cat, live, runtimes, impls, primitives, fmt):
    """Every Wycheproof vector through every selected implementation; exits."""
    from ..report import wycheproof as wycheproof_report
    from ..verify import wycheproof

    chosen, cases = wycheproof.selected(live, runtimes, impls, primitives)
    try:
        tallies = wycheproof.run_all(verifier, cat, chosen, cases, err)
    finally:
        for rt in live:
            rt.stop()
    click.echo(wycheproof_report.render(tallies, fmt), nl=False)
    sys.exit(1 if any(not t.ok for t in tallies) else 0)


def wycheproof_sample(verifier, cat, live, filters, cache, fps) -> list[dict]:
    """A fixed, seeded sample of Wycheproof's vectors: rows of the verify matrix, one worker
    per runtime, an implementation that passed with nothing changed (``fps``: the live
    implementations' fingerprints) taken from ``cache``."""
    from concurrent.futures import ThreadPoolExecutor

    from ..report import wycheproof as wycheproof_report
    from ..verify import wycheproof

    chosen, cases = wycheproof.selected(live, *filters)
    sampled = wycheproof.sample(cases)
    by_runtime: dict[str, list] = {}
    for impl in chosen:
        by_runtime.setdefault(impl.runtime_id, []).append(impl)

    def one_runtime(impls: list) -> list:
        out = []
        for impl in impls:
            key = fps.key(impl.id, "wycheproof sample", sorted(sampled))
            kept = cache.get(key)
            if kept is not None:
                out.append(wycheproof.tally_from(kept))
                continue
            got = wycheproof.run_all(verifier, cat, [impl], sampled)
            out += got
            if got and got[0].ok:
                cache.put(key, got[0].as_dict())
        return out

    with ThreadPoolExecutor(max_workers=max(1, len(by_runtime))) as pool:
        tallies = [t for ts in pool.map(one_runtime, by_runtime.values()) for t in ts]
    return wycheproof_report.matrix_rows(tallies)


@click.command()
@click.option("--impl", default=None, help="implementation id, e.g. python/hashlib")
@click.option("--primitive", default=None)
@click.option("--operation", default=None)
@click.option(
    "--batch",
    "batch_path",
    default=None,
    metavar="FILE.jsonl",
    help="one request per line, one JSON answer per line (docs/compute-batch.md)",
)
@click.option("--msg", default=None)
@click.option("--key", default=None)
@click.option("--nonce", default=None)
@click.option("--aad", default=None)
@click.option("--password", default=None)
@click.option("--salt", default=None)
@click.option("--encoded", default=None)
@click.option("--private-key", "private_key", default=None, help="kex/signature: DER or raw, hex")
@click.option("--public-key", "public_key", default=None)
@click.option("--peer-public-key", "peer_public_key", default=None, help="agree: the peer's key")
@click.option("--signature", default=None)
@click.option("--tag", default=None, help="mac verify: the tag to check")
@click.option("--key-seed", "key_seed", default=None, help="keygen from a seed (ML-KEM: 64 bytes)")
@click.option("--ciphertext", default=None, help="kem decaps: the encapsulation's ciphertext")
@click.option("--randomness", default=None, help="kem encaps: FIPS 203's 32-byte m")
@click.option("--param", "params", multiple=True, help="K=V")
@click.option("--timeout", type=TIMEOUT, default=600.0)
@guarded
def compute(impl, primitive, operation, batch_path, params, timeout, **raw):
    """One operation on explicit inputs (hex); the output on stdout. With --batch, every
    request of a JSON Lines file; exit 1 if any failed or missed its expectation."""
    cat = catalog_mod.load()
    if batch_path is not None:
        _batch(batch_path, cat, timeout, impl, primitive, operation, params, raw)
    names = ("impl", "primitive", "operation")
    missing = [n for n, v in zip(names, (impl, primitive, operation), strict=True) if v is None]
    if missing:
        raise UsageError(f"compute needs --{', --'.join(missing)} (or --batch FILE.jsonl)")
    prim = cat.get(primitive)
    if operation not in prim.operations:
        raise UsageError(
            f"{primitive} has operations {', '.join(prim.operations)}, not {operation!r}"
        )
    inputs = _hex_inputs(raw)
    resolved = cat.resolve_params(prim, _user_params(prim, params, inputs), operation)
    live, skipped = open_runtimes((), (impl,), only_needed=True)
    try:
        click.echo(_ask(live, skipped, impl, primitive, operation, inputs, resolved, timeout))
    finally:
        for rt in live:
            rt.stop()


def _hex_inputs(raw: dict) -> dict:
    """The inputs given on the command line: hex, lower-cased (``encoded`` as written)."""
    inputs = {}
    for name, value in raw.items():
        if value is None:
            continue
        if name != "encoded":
            try:
                bytes.fromhex(value)
            except ValueError:
                raise UsageError(f"--{name.replace('_', '-')} must be hex") from None
        inputs[name] = value.lower() if name != "encoded" else value
    return inputs


def _user_params(prim, params, inputs: dict) -> dict:
    user = dict(plan.parse_param(p) for p in params)
    if prim.family == "aead":  # the AAD sent is the AAD: its length is derived, everywhere
        n = len(inputs.get("aad", "")) // 2
        if "aad_len" in user and user["aad_len"] != n:
            raise UsageError(f"--param aad_len={user['aad_len']} but --aad is {n} bytes")
        user["aad_len"] = n
    return user


def _ask(live, skipped, impl, primitive, operation, inputs, params, timeout) -> str:
    """The implementation's answer (exit 2 on an unknown one or a bad request, 1 on a
    failure)."""
    found = [i for rt in live for i in rt.implementations if i.id == impl]
    if not found:
        known = sorted(i.id for rt in live for i in rt.implementations)
        reason = "; ".join(f"{r}: {why}" for r, why in skipped)
        raise UsageError(
            f"unknown implementation {impl!r}; valid: {', '.join(known)}"
            + (f" ({reason})" if reason else "")
        )
    rt = next(rt for rt in live if rt.id == found[0].runtime_id)
    try:
        out = rt.request(
            "compute",
            timeout,
            impl=found[0].library,
            primitive=primitive,
            operation=operation,
            inputs=inputs,
            params=params,
        )
    except RemoteError as exc:
        err.print(f"{exc.kind}: {exc.message}", markup=False)
        sys.exit(2 if exc.kind == "bad_request" else 1)
    except RunnerFailure as exc:
        err.print(f"runner failure: {exc}", markup=False)
        sys.exit(1)
    return out.get("output", "")


def _batch(path, cat, timeout, *single) -> None:
    from ..runtimes import batch

    params, raw = single[-2], single[-1]
    if any(single[:3]) or params or any(v is not None for v in raw.values()):
        raise UsageError("--batch takes every request from the file: no other input options")
    tally = batch.run(path, cat, timeout, click.echo)
    err.print(
        f"{tally.lines} requests: {tally.passed} met their expectation, {tally.failed} failed",
        markup=False,
    )
    sys.exit(0 if tally.ok else 1)


COMMANDS = (list_cmd, presets, verify, compute)
