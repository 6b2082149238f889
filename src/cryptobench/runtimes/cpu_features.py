"""`--cpu-features`: switching a CPU feature's code paths off, through each runtime's own
documented mechanism (docs/methodology.md, "Code paths"). Pure translation: which features a
list names, what each runner.toml's `[cpu_features]` table turns them into (environment
variables, command-line options), and which implementations can honour them.

A runner.toml declares, per mechanism, the fragment each feature contributes and the libraries
that honour it; a library may also declare a feature `unused` (its code never takes that
feature's path, so switching it off changes nothing). The `variant` mechanism is a second
build of the runner (a `[[variants]]` entry marked `switch_only`) whose libraries were
compiled without those features' code: it switches its features off *together*, so it runs
only when every one of them is asked for (see :func:`resolve`). Any other library cannot
switch the feature off, and its cases are "not offered" — never measured on the default path
under a label that says otherwise.
"""

from __future__ import annotations

import platform
import re

from ..errors import UsageError

FEATURES = ("sha", "aes", "pclmul", "avx512", "avx2", "crc32")
BASELINE = "baseline"  # every feature above
NAMES = {
    "sha": "SHA-NI",
    "aes": "AES-NI",
    "pclmul": "PCLMULQDQ",
    "avx512": "AVX-512",
    "avx2": "AVX2",
    "crc32": "SSE4.2 CRC32",
}
KINDS = ("openssl_ia32cap", "godebug", "jvm_flags", "variant")
_JVM_VALUE = re.compile(r"^(-XX:\w+)=(\d+)$")
X86 = ("x86_64", "amd64", "i386", "i686")  # the machines whose features FEATURES names


def parse(text: str | None, machine: str | None = None) -> tuple[str, ...]:
    """``-sha,-aes`` (the minus is optional) or ``baseline`` → features off, in FEATURES order.
    An empty or missing text: none (the default paths). The features are x86-64's: on another
    ``machine`` (default: this one's) they are refused rather than mislabel its rows."""
    if not text or text.strip() in ("", "default"):
        return ()
    arch = (machine or platform.machine()).lower()
    if arch not in X86:
        raise UsageError(
            f"--cpu-features names x86-64 features ({', '.join(NAMES.values())}); "
            f"this machine is {arch}"
        )
    off = set()
    for item in (s.strip() for s in text.split(",")):
        name = item.lstrip("-")
        if name == BASELINE:
            off.update(FEATURES)
        elif name in FEATURES:
            off.add(name)
        else:
            raise UsageError(
                f"unknown CPU feature {item!r}; valid: "
                + ", ".join(f"-{f}" for f in FEATURES)
                + f", {BASELINE} (all of them)"
            )
    return tuple(f for f in FEATURES if f in off)


def label(off) -> str:
    """How results show a feature set: ``-sha,-aes``; empty for the default paths."""
    return ",".join(f"-{f}" for f in off)


def runtime_key(runtime_id: str, off) -> str:
    """A runtime with features off is another runtime: ``c`` and ``c[-sha]``."""
    return f"{runtime_id}[{label(off)}]" if off else runtime_id


# which feature a primitive's fast path rests on, for the speed-up table's labels
RELEVANT = {
    "sha1": ("sha",),
    "sha224": ("sha",),
    "sha256": ("sha",),
    "hmac-sha256": ("sha",),
    "sha384": ("avx2", "avx512"),
    "sha512": ("avx2", "avx512"),
    "crc32": ("pclmul", "avx512"),
    "crc32c": ("crc32", "pclmul"),
    "chacha20-poly1305": ("avx2", "avx512"),
    "xchacha20-poly1305": ("avx2", "avx512"),
}


def relevant_names(primitive: str, off) -> str:
    """The features of ``off`` that ``primitive``'s fast paths use, by name (all of ``off``
    when none is known to matter): what a speed-up is credited to."""
    wanted = RELEVANT.get(primitive)
    if wanted is None and primitive.startswith("aes-"):
        wanted = ("aes", "pclmul", "avx512") if primitive.endswith(("gcm", "gcm-siv")) else ("aes",)
    picked = [f for f in off if wanted is None or f in wanted] or list(off)
    return "+".join(NAMES[f] for f in picked)


# -- runner.toml [cpu_features] ----------------------------------------------------------
class TableError(ValueError):
    pass


def validate(table: dict) -> None:
    """A runner.toml ``[cpu_features]`` table: ``[cpu_features.<kind>]`` sections, each with
    ``libraries`` (list) and ``off`` (feature → fragment), plus optional ``unused``
    (library → features its code never uses)."""
    if not isinstance(table, dict):
        raise TableError("[cpu_features] must be a table")
    for kind, section in table.items():
        if kind == "unused":
            if not isinstance(section, dict) or not all(
                isinstance(v, list) and set(v) <= set(FEATURES) for v in section.values()
            ):
                raise TableError(f"cpu_features.unused maps a library to features of {FEATURES}")
            continue
        if kind not in KINDS:
            raise TableError(f"cpu_features.{kind}: unknown mechanism; valid: {', '.join(KINDS)}")
        if kind == "variant" and not isinstance(section.get("variant"), str):
            raise TableError("cpu_features.variant.variant names a [[variants]] entry")
        libs, off = section.get("libraries"), section.get("off")
        if not isinstance(libs, list) or not all(isinstance(x, str) for x in libs):
            raise TableError(f"cpu_features.{kind}.libraries must be a list of strings")
        if not isinstance(off, dict) or not set(off) <= set(FEATURES):
            raise TableError(f"cpu_features.{kind}.off maps features of {FEATURES}")
        for feature, frag in off.items():
            _check_fragment(kind, feature, frag)


def _check_fragment(kind: str, feature: str, frag) -> None:
    where = f"cpu_features.{kind}.off.{feature}"
    if kind == "openssl_ia32cap":
        ok = isinstance(frag, list) and all(isinstance(w, int) and w >= 0 for w in frag)
        if not ok:
            raise TableError(f"{where}: a list of capability-word masks (integers)")
    elif not isinstance(frag, list) or not all(isinstance(x, str) for x in frag):
        raise TableError(f"{where}: a list of strings")


def _usable(kind: str, section: dict) -> bool:
    """A `variant` section serves only once :func:`resolve` found its build."""
    return kind != "variant" or "argv" in section


def support(table: dict, library: str) -> dict[str, str]:
    """{feature: how} for one library: the mechanism that switches it off, or ``unused``."""
    out = {}
    for kind, section in table.items():
        if kind != "unused" and library in section.get("libraries", []) and _usable(kind, section):
            out.update({f: kind for f in section.get("off", {})})
    out.update({f: "unused" for f in (table.get("unused") or {}).get(library, [])})
    return {f: out[f] for f in FEATURES if f in out}


def cannot(table: dict, library: str, off) -> list[str]:
    """The features of ``off`` this library cannot switch off: those it has no mechanism for,
    and those a `variant` build switches off only together with others not asked for."""
    can = support(table, library)
    out = {f for f in off if f not in can}
    section = table.get("variant")
    if section and library in section.get("libraries", []) and not _runs_variant(section, off):
        out |= set(off) & set(section.get("off", {}))
    return [f for f in FEATURES if f in out]


def _runs_variant(section: dict, off) -> bool:
    """The variant build runs when it is built and every feature it lacks is asked off."""
    return "argv" in section and set(section.get("off", {})) <= set(off)


def resolve(raw: dict, folder, variant: str | None) -> dict:
    """The ``[cpu_features]`` table of one runtime spec, with its `variant` section pointed at
    the build's absolute command (``argv``), or left without one when that build is absent
    (its features then cannot be switched off; ``missing`` says how to build it). A spec that
    is itself a variant (rust@native) keeps no `variant` section: the switch-only build is a
    build of the base runtime, not of it."""
    table = dict(raw.get("cpu_features", {}))
    section = table.get("variant")
    if section is None:
        return table
    if variant is not None:
        del table["variant"]
        return table
    section = dict(section)
    table["variant"] = section
    entry = next((v for v in raw.get("variants", []) if v.get("name") == section["variant"]), None)
    if entry is None or "command" not in entry:
        section["missing"] = f"no [[variants]] entry {section['variant']!r} with a command"
        return table
    argv = [str(folder / a) if "/" in a and not a.startswith("/") else a for a in entry["command"]]
    built = all((folder / a).exists() for a in entry.get("artifacts", entry["command"][:1]))
    if built:
        section["argv"] = argv
    else:
        section["missing"] = entry.get("build_hint", "run `make setup`")
    return table


def ia32cap(masks_per_feature: list[list[int]]) -> str:
    """OPENSSL_ia32cap clearing the OR of the masks, word by word: ``~0xW0:~0xW1``.

    Word 0 is CPUID(EAX=1) EDX | ECX << 32, word 1 is CPUID(EAX=7) EBX | ECX << 32
    (OpenSSL's OPENSSL_ia32cap(3), "~" clears the bits named; ":" starts the second word).
    """
    words = [0, 0]
    for masks in masks_per_feature:
        for i, m in enumerate(masks[:2]):
            words[i] |= m
    text = f"~{words[0]:#x}"
    return text + (f":~{words[1]:#x}" if words[1] else "")


def godebug(names: list[str], existing: str = "") -> str:
    """GODEBUG with ``cpu.NAME=off`` for every name, after any setting already there."""
    parts = [p for p in existing.split(",") if p] + [f"cpu.{n}=off" for n in names]
    return ",".join(dict.fromkeys(parts))


def jvm_flags(flags: list[str]) -> list[str]:
    """HotSpot options, duplicates dropped; numeric ``-XX:Name=N`` kept at the lowest N (two
    features capping UseAVX keep the stricter cap)."""
    out: dict[str, str] = {}
    for flag in flags:
        m = _JVM_VALUE.match(flag)
        if m:
            prev = out.get(m.group(1))
            if prev is None or int(prev.split("=")[1]) > int(m.group(2)):
                out[m.group(1)] = flag
        else:
            out[flag] = flag
    return list(out.values())


def translate(table: dict, off) -> tuple[dict[str, str], list[str]]:
    """(environment variables, JVM options) that switch ``off`` for a runtime's process.
    Each mechanism applies to the whole process; libraries that do not honour it are not
    offered (see :func:`cannot`)."""
    env: dict[str, str] = {}
    args: list[str] = []
    for kind, section in table.items():
        if kind in ("unused", "variant"):
            continue
        frags = [section["off"][f] for f in off if f in section.get("off", {})]
        if not frags:
            continue
        if kind == "openssl_ia32cap":
            env["OPENSSL_ia32cap"] = ia32cap(frags)
        elif kind == "godebug":
            env["GODEBUG"] = godebug([n for frag in frags for n in frag])
        elif kind == "jvm_flags":
            args += [a for frag in frags for a in frag]
    return env, jvm_flags(args)


def apply(argv: list[str], env: dict, table: dict, off) -> tuple[list[str], dict]:
    """A runner's command and environment with ``off`` switched off. JVM options go before
    ``-jar`` (or right after the executable); a `variant` build that serves ``off`` replaces
    the executable."""
    if not off:
        return argv, env
    extra_env, args = translate(table, off)
    if "GODEBUG" in extra_env and env.get("GODEBUG"):
        extra_env["GODEBUG"] = godebug([], env["GODEBUG"] + "," + extra_env["GODEBUG"])
    argv = list(argv)
    section = table.get("variant")
    if section and _runs_variant(section, off):
        argv = [*section["argv"], *argv[1:]]
    if args:
        at = argv.index("-jar") if "-jar" in argv else 1
        argv[at:at] = args
    return argv, {**env, **extra_env}
