#!/usr/bin/env python3
"""Check every runner — `make test`.

1. The skeleton (docs/adding-a-runner.md): each runner folder has a file for each role, its
   library code only in its lib_ files (and its leak file: the runtime's own equality
   controls and base64), and the clock read only in its timing file.
2. No import cycle among a runner's files (runner_graph.py: includes, imports and, where the
   files share one namespace, top-level symbols).
3. Each runner's [setup] check command (formatter/linter in check mode). A runner whose
   toolchain is missing is skipped with a one-line reason.

`--skeleton` runs only the first two (no toolchain needed).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import runner_graph  # noqa: E402  (scripts/ is no package)

ROLES = ("main", "protocol", "dispatch", "registry", "timing", "hello")

# Comments, then string literals, per comment style: what the greps must not see.
_C_COMMENTS = r"//[^\n]*|/\*.*?\*/"
_DQ = r'"(?:\\.|[^"\\\n])*"'
_SQ = r"'(?:\\.|[^'\\\n])*'"
# [\s\S], not (?:.|\n): under DOTALL the two alternatives overlap, and an unclosed triple
# quote (a "#" inside a string blanked as a comment) backtracks exponentially
_PY_STRINGS = r'"""[\s\S]*?"""|' + r"'''[\s\S]*?'''|" + _DQ + "|" + _SQ


@dataclass(frozen=True)
class Skeleton:
    """Where one language keeps its roles, and what its clock and library code look like."""

    roles: dict[str, str]  # role → path in the runner folder
    lib: str  # regex: the path of a library file (lib_<library>[_<part>])
    sources: tuple[str, ...]  # globs: the runner's own source files
    comments: str  # regex: comments
    strings: str  # regex: string literals
    clock: str  # regex: a clock read (allowed in the timing file only)
    library: str  # regex: a library import or call (allowed in lib files only)
    skip: str = r"$^"  # regex: source paths not checked (tests)
    leak: str = ""  # the leak request's file: library calls allowed (the controls), no clock
    flags: int = re.MULTILINE


def _roles(fmt: str, **overrides: str) -> dict[str, str]:
    return {role: overrides.get(role, fmt.format(role)) for role in ROLES}


_JAVA = "src/main/java/dev/cryptobench/runner/"

SKELETONS: dict[str, Skeleton] = {
    "c": Skeleton(
        leak="src/leak.c",
        roles=_roles("src/{}.c"),
        lib=r"src/lib_\w+\.[ch]",
        sources=("src/*.c", "src/*.h"),
        comments=_C_COMMENTS,
        strings=_DQ,
        clock=r"\b(?:clock_gettime|gettimeofday|timespec_get|__rdtscp?)\s*\(",
        library=r"^\s*#\s*include\s*<(?:openssl/|sodium|gcrypt|nettle/|zlib|isa-l/|xxhash|"
        r"xxh_x86dispatch|mhash|rhash|mbedtls/|wolfssl/)",
    ),
    "cpp": Skeleton(
        leak="src/leak.cpp",
        roles=_roles("src/{}.cpp"),
        lib=r"src/lib_\w+\.[ch]pp",
        sources=("src/*.cpp", "src/*.hpp"),
        comments=_C_COMMENTS,
        strings=_DQ,
        clock=r"\b\w*clock::now\s*\(|\b(?:clock_gettime|gettimeofday|__rdtscp?)\s*\(",
        library=r"^\s*#\s*include\s*<(?:botan/|cryptopp/|openssl/|sodium)",
    ),
    "go": Skeleton(
        leak="leak.go",
        roles=_roles("{}.go"),
        lib=r"lib_\w+\.go",
        sources=("*.go",),
        comments=_C_COMMENTS,
        strings=_DQ + r"|`[^`]*`",
        clock=r"\btime\.(?:Now|Since|Until)\b",
        # hash, crypto/cipher and crypto/hmac are the interfaces and generic constructions the
        # shared family_*.go builders are written against; every other crypto package is a library.
        library=r'^\s*(?:import\s+)?(?:\w+\s+)?"(?:crypto/(?!cipher"|hmac")[\w/]+|hash/[\w/]+|'
        r"golang\.org/x/crypto/[\w/]+|github\.com/cespare/xxhash[\w/]*|github\.com/zeebo/xxh3|"
        r'lukechampine\.com/blake3|github\.com/zeebo/blake3|github\.com/cloudflare/circl[\w/]*)"',
        skip=r".*_test\.go",
    ),
    "java": Skeleton(
        leak=_JAVA + "Leak.java",
        roles=_roles(
            _JAVA + "{}.java",
            main=_JAVA + "Main.java",
            protocol=_JAVA + "Request.java",
            dispatch=_JAVA + "Main.java",
            registry=_JAVA + "Library.java",
            timing=_JAVA + "Bench.java",
            hello=_JAVA + "Hello.java",
        ),
        lib=re.escape(_JAVA) + r"(?:Jdk|Bc|Accp|Conscrypt)\w+\.java",
        sources=(_JAVA + "*.java",),
        comments=_C_COMMENTS,
        strings=_DQ,
        clock=r"\bSystem\.(?:nanoTime|currentTimeMillis)\b|\bInstant\.now\b",
        # Exception types may be imported anywhere: Errors.java maps them to error kinds.
        library=r"^\s*import\s+(?:static\s+)?(?:org\.bouncycastle|javax\.crypto|java\.security|"
        r"java\.util\.zip|com\.amazon\.corretto|org\.conscrypt)\.[\w.]*(?<!Exception);",
    ),
    "node": Skeleton(
        leak="leak.js",
        roles=_roles("{}.js", main="runner.mjs", registry="libraries.js"),
        lib=r"lib_\w+\.js",
        sources=("*.js", "*.mjs"),
        comments=_C_COMMENTS,
        strings=_DQ + "|" + _SQ + r"|`[^`]*`",
        clock=r"\bprocess\.hrtime\b|\bperformance\.now\b|\bDate\.now\b",
        library=r"(?:\bfrom|\bimport|\brequire\()\s*\(?\s*[\"'](?:node:crypto|crypto|hash-wasm|"
        r"@noble/[^\"']*|bcryptjs|bcrypt|argon2|libsodium-wrappers)[\"']",
    ),
    "pascal": Skeleton(
        leak="leak.pas",
        # dispatch and hello are still part of runner.pas (not split yet).
        roles=_roles("{}.pas", main="runner.pas", dispatch="runner.pas", hello="runner.pas"),
        lib=r"lib_\w+\.pas",
        sources=("*.pas",),
        comments=r"\{[^}]*\}|\(\*.*?\*\)|//[^\n]*",
        strings=r"'(?:[^'\n]|'')*'",
        clock=r"\b(?:clock_gettime|fpgettimeofday|GetTickCount(?:64)?|Now)\b",
        library=r"\buses\b[^;]*\b(?:adler|crc|md5|sha1|hmac|openssl|paszlib|zbase|fpsha256|"
        r"fpsha512)\b[^;]*;",
        flags=re.MULTILINE | re.IGNORECASE,
    ),
    "php": Skeleton(
        leak="leak.php",
        roles=_roles("{}.php", main="runner.php"),
        lib=r"lib_\w+\.php",
        sources=("*.php",),
        comments=_C_COMMENTS + r"|#(?!\[)[^\n]*",
        strings=_DQ + "|" + _SQ,
        clock=r"\b(?:hrtime|microtime)\s*\(",
        library=r"\b(?:hash(?:_\w+)?|openssl_\w+|sodium_\w+|password_\w+|crc32|md5|sha1)\s*\(",
    ),
    "python": Skeleton(
        leak="cbrunner/leak.py",
        roles=_roles("cbrunner/{}.py", main="runner.py"),
        lib=r"lib_\w+\.py",
        sources=("*.py", "cbrunner/*.py"),
        comments=r"#[^\n]*",
        strings=_PY_STRINGS,
        clock=r"\b(?:perf_counter|monotonic|process_time|thread_time|time)_ns\b|"
        r"\b(?:perf_counter|monotonic|process_time|thread_time)\b|\btime\.time\b",
        library=r"^\s*(?:import|from)\s+(?:hashlib|hmac|zlib|binascii|ssl|Crypto|Cryptodome|"
        r"cryptography|argon2|bcrypt|blake3|google_crc32c|xxhash|nacl|mmh3)\b",
    ),
    "rust": Skeleton(
        leak="src/leak.rs",
        roles=_roles("src/{}.rs"),
        lib=r"src/lib_\w+\.rs",
        sources=("src/*.rs",),
        comments=_C_COMMENTS,
        strings=_DQ,
        clock=r"\b(?:Instant|SystemTime)::now\b",
        library="{cargo}",  # the crates of Cargo.toml [dependencies], see _rust_crates
    ),
}

# Cargo dependencies that are plumbing, not libraries under test.
_RUST_PLUMBING = {"serde_json", "hex"}


def _rust_crates(folder: Path) -> str:
    """A path into any crate of [dependencies] but the plumbing ones (md-5 is `md5` in code)."""
    manifest = folder / "Cargo.toml"
    if not manifest.exists():
        return r"$^"
    with open(manifest, "rb") as fh:
        deps = tomllib.load(fh).get("dependencies", {})
    names = {n.replace("-", "_") for n in deps} | {n.replace("-", "") for n in deps}
    names -= _RUST_PLUMBING
    return r"\b(?:" + "|".join(sorted(map(re.escape, names))) + r")::" if names else r"$^"


def _blank(pattern: str, text: str, flags: int) -> str:
    """Replaces every match by its newlines only, so line numbers still hold."""
    return re.sub(pattern, lambda m: "\n" * m.group(0).count("\n"), text, flags=flags | re.DOTALL)


def _hits(pattern: str, text: str, flags: int) -> list[tuple[int, str]]:
    found = re.finditer(pattern, text, flags)
    return [(text.count("\n", 0, m.start()) + 1, " ".join(m.group(0).split())) for m in found]


def check_folder(folder: Path, sk: Skeleton) -> list[str]:
    """The skeleton problems of one runner folder, each a line naming the file."""
    name = f"runners/{folder.name}"
    problems = [
        f"{name}: no {role} file (expected {path})"
        for role, path in sk.roles.items()
        if not (folder / path).is_file()
    ]
    files = sorted({p for glob in sk.sources for p in folder.glob(glob) if p.is_file()})
    rel = {p: p.relative_to(folder).as_posix() for p in files}
    libs = [p for p in files if re.fullmatch(sk.lib, rel[p])]
    if not libs:
        problems.append(f"{name}: no library file (expected names matching {sk.lib})")
    library = _rust_crates(folder) if sk.library == "{cargo}" else sk.library
    timing_reads = 0
    for path in files:
        if re.fullmatch(sk.skip, rel[path]):
            continue
        code = _blank(sk.comments, path.read_text(encoding="utf-8", errors="replace"), sk.flags)
        if path not in libs and rel[path] != sk.leak:
            for line, what in _hits(library, code, sk.flags):
                problems.append(
                    f"{name}/{rel[path]}:{line}: library code outside lib_ files: {what}"
                )
        clock_hits = _hits(sk.clock, _blank(sk.strings, code, sk.flags), sk.flags)
        if rel[path] == sk.roles["timing"]:
            timing_reads += len(clock_hits)
            continue
        for line, what in clock_hits:
            problems.append(
                f"{name}/{rel[path]}:{line}: clock read outside the timing file: {what}"
            )
    if (folder / sk.roles["timing"]).is_file() and not timing_reads:
        problems.append(f"{name}/{sk.roles['timing']}: the timing file reads no clock")
    return problems


def source_files(folder: Path, sk: Skeleton) -> dict[str, str]:
    """The runner's own source files (tests left out): path in the folder → text."""
    paths = sorted({p for glob in sk.sources for p in folder.glob(glob) if p.is_file()})
    rel = {p.relative_to(folder).as_posix(): p for p in paths}
    return {
        r: p.read_text(encoding="utf-8", errors="replace")
        for r, p in rel.items()
        if not re.fullmatch(sk.skip, r)
    }


def runner_cycles(folder: Path, lang: str) -> list[list[str]]:
    """The import cycles among one runner's files: each the modules of one, sorted."""
    sk = SKELETONS[lang]
    graph = runner_graph.module_graph(lang, source_files(folder, sk), sk.comments, sk.strings)
    return runner_graph.cycles(graph)


def check_cycles(root: Path = ROOT) -> list[str]:
    """Every runner folder with a skeleton: a line per import cycle among its files."""
    problems = []
    for toml in sorted((root / "runners").glob("*/runner.toml")):
        folder = toml.parent
        if folder.name in SKELETONS:
            for part in runner_cycles(folder, folder.name):
                problems.append(f"runners/{folder.name}: import cycle among {', '.join(part)}")
    return problems


def check_skeleton(root: Path = ROOT) -> list[str]:
    """Every runner folder (one with a runner.toml) against its language's skeleton."""
    problems = []
    for toml in sorted((root / "runners").glob("*/runner.toml")):
        folder = toml.parent
        sk = SKELETONS.get(folder.name)
        if sk is None:
            problems.append(
                f"runners/{folder.name}: no skeleton for this language "
                "(add it to SKELETONS in scripts/check_runners.py and docs/adding-a-runner.md)"
            )
            continue
        problems += check_folder(folder, sk)
    return problems


def check_setup(root: Path = ROOT, names: list[str] | None = None) -> list[str]:
    """Runs each runner's (or each named runner's) [setup] check command; those that failed."""
    failed = []
    for path in sorted((root / "runners").glob("*/runner.toml")):
        if names and path.parent.name not in names:
            continue
        with open(path, "rb") as fh:
            toml = tomllib.load(fh)
        cmd = toml.get("setup", {}).get("check")
        name = path.parent.name
        if not cmd:
            continue
        missing = [t for t in toml.get("requires", []) if "/" not in t and not shutil.which(t)]
        if missing:
            print(f"[check] runners/{name}: skipped ({', '.join(missing)} not found)")
            continue
        res = subprocess.run(cmd, cwd=path.parent, capture_output=True, text=True)
        if res.returncode == 0:
            print(f"[check] runners/{name}: ok")
        else:
            failed.append(name)
            print(f"[check] runners/{name}: FAILED ({' '.join(cmd)})\n{res.stdout}{res.stderr}")
    return failed


def main(argv: list[str]) -> int:
    problems = check_skeleton()
    for problem in problems:
        print(f"[skeleton] {problem}")
    if not problems:
        print(f"[skeleton] every runner folder follows docs/adding-a-runner.md ({len(SKELETONS)})")
    cycles = check_cycles()
    for problem in cycles:
        print(f"[cycles] {problem}")
    if not cycles:
        print("[cycles] no import cycle in any runner")
    problems += cycles
    names = [a for a in argv if not a.startswith("-")]
    failed = [] if "--skeleton" in argv else check_setup(names=names)
    return 1 if problems or failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
