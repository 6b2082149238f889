"""The file-level dependency graph of one runner, and the cycles in it (check_runners.py).

A module is a source file (a C or C++ header is one, its .c/.cpp file another). Module A
depends on module B when A includes, imports, requires or uses B (`#include`, `use crate::`,
`import`/`require`, `require_once`, `uses`), or when A names a symbol B defines at top level:
in C, C++, Go, Java and PHP the files of one program share one namespace, so a single package
is no excuse for a cycle (in C and C++: a function or datum a header declares, defined in a
.c/.cpp file; a declaration is no use of it).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

Graph = dict[str, set[str]]

_IDENT = re.compile(r"(?<![\w.$>:])(?<!::)[A-Za-z_]\w*")

# Top-level definitions other files can name, per language (comments already blanked).
_C_DEF = (
    r"^(?!static\b|typedef\b|extern\b|return\b|namespace\b|struct\b|enum\b|inline\b|#)"
    r"(?:[\w*&<>:,]+[ \t*&]+)+(\w+)\s*(?:\([^;{]*\)\s*(?:const\s*)?\{|\[[^\]]*\]\s*=|=)"
)
_DEFS: dict[str, str] = {
    "c": _C_DEF,
    "cpp": _C_DEF,
    "go": r"^(?:func|type|var|const)\s+(\w+)",
    "php": r"^(?:final\s+|abstract\s+)?(?:function|class|interface|const)\s+&?(\w+)",
}


# C and C++ declarations (prototypes, extern data): naming a symbol there is not using it.
_C_DECLS = r"^extern\b[^;{]*;|^(?:[\w*&<>:,]+[ \t*&]+)+\w+\s*\([^;{}]*\)\s*(?:const\s*)?;"


def _header_names(code: dict[str, str]) -> set[str]:
    """The names the C or C++ headers declare: what one file may define for the others."""
    heads = "\n".join(t for rel, t in code.items() if rel.endswith((".h", ".hpp")))
    names = set()
    for decl in re.finditer(_C_DECLS, heads, re.M):
        text = decl.group(0)
        if text.startswith("extern"):
            names |= set(re.findall(r"(\w+)\s*(?:\[[^\]]*\]\s*)?[,;]", text))
        else:
            names |= set(re.findall(r"^[^(]*?(\w+)\s*\(", text))
    return names


def _strip(pattern: str, text: str) -> str:
    return re.sub(pattern, lambda m: "\n" * m.group(0).count("\n"), text, flags=re.DOTALL | re.M)


def _module_of(lang: str, rel: str) -> str:
    return rel if lang in ("c", "cpp") else Path(rel).with_suffix("").as_posix()


def _source_of(header: str) -> str:
    """x.h → x.c, x.hpp → x.cpp: what a header's inline code may call back (one module)."""
    return re.sub(r"\.h(pp)?$", r".c\1", header) if header.endswith((".h", ".hpp")) else ""


def _go_block_defs(code: str) -> set[str]:
    """Names declared in a top-level `var (`, `const (` or `type (` block."""
    names = set()
    for block in re.finditer(r"^(?:var|const|type)\s*\((.*?)^\)", code, re.M | re.DOTALL):
        names |= set(re.findall(r"^\t(\w+)\b", block.group(1), re.M))
    return names


def definitions(lang: str, code: str, module: str) -> set[str]:
    """The top-level names a module defines that others may name (empty: imports only)."""
    if lang == "java":
        return {Path(module).name}
    pattern = _DEFS.get(lang)
    if pattern is None:
        return set()
    names = set(re.findall(pattern, code, re.M))
    if lang == "go":
        names |= _go_block_defs(code)
    return names - {"main", "init", "_"}


def _rust_imports(code: str) -> set[str]:
    found = set(re.findall(r"\b(?:crate|super)::(\w+)", code))
    for tree in re.findall(r"\buse\s+(?:crate|super)::\{(.*?)\};", code, re.DOTALL):
        found |= set(re.findall(r"(?:^|,)\s*(\w+)", _drop_braces(tree)))
    return found | set(re.findall(r"^\s*(?:pub\s+)?mod\s+(\w+)\s*;", code, re.M))


def _drop_braces(text: str) -> str:
    """`a, b::{c, d}, e` → `a, b::, e`: the first segment of each top-level use tree."""
    while "{" in text:
        text = re.sub(r"\{[^{}]*\}", "", text)
    return text


def _node_imports(code: str) -> set[str]:
    paths = re.findall(r"""(?:\bfrom|\bimport|\brequire\()\s*\(?\s*["']\./([\w./-]+)["']""", code)
    return {re.sub(r"\.(?:m?js)$", "", p) for p in paths}


def _python_imports(code: str) -> set[str]:
    found = set()
    for frm, names in re.findall(r"^\s*from\s+([\w.]+)\s+import\s+\(?([\w\s,]+)", code, re.M):
        base = frm.lstrip(".").replace(".", "/")
        found |= {base} | {f"{base}/{n}".lstrip("/") for n in re.findall(r"\w+", names)}
        if frm.startswith("."):
            found |= {f"cbrunner/{n}" for n in re.findall(r"\w+", names)}
            found |= {f"cbrunner/{base}"} if base else set()
    for names in re.findall(r"^\s*import\s+([\w., ]+)", code, re.M):
        found |= {n.strip().replace(".", "/") for n in names.split(",")}
    return found


def _pascal_imports(code: str) -> set[str]:
    return {
        n.lower()
        for u in re.findall(r"\buses\b([^;]*);", code, re.I)
        for n in re.findall(r"\w+", u)
    }


def _include_imports(code: str) -> set[str]:
    return set(re.findall(r'^\s*#\s*include\s*"([^"]+)"', code, re.M))


def _php_imports(code: str) -> set[str]:
    return set(
        re.findall(r"""\b(?:require|include)(?:_once)?\b[^;]*?['"]/?([\w/]+)\.php['"]""", code)
    )


IMPORTS: dict[str, Callable[[str], set[str]]] = {
    "c": _include_imports,
    "cpp": _include_imports,
    "rust": _rust_imports,
    "node": _node_imports,
    "python": _python_imports,
    "pascal": _pascal_imports,
    "php": _php_imports,
}


def _resolve(lang: str, names: set[str], modules: set[str], rel_module: str) -> set[str]:
    """Import names → the runner's modules they denote (library imports fall away)."""
    if lang in ("rust", "c", "cpp"):  # relative to the file's folder
        folder = Path(rel_module).parent
        names = {(folder / n).as_posix() for n in names}
    if lang == "pascal":
        return {m for m in modules if m.lower() in names}
    return names & modules


def module_graph(
    lang: str, files: dict[str, str], comments: str, strings: str, flags: int = re.M
) -> Graph:
    """files: path in the runner folder → source text. Returns module → modules it depends on."""
    code = {rel: _strip(comments, text) for rel, text in files.items()}
    modules = {_module_of(lang, rel) for rel in files}
    graph: Graph = {m: set() for m in modules}
    defined: dict[str, set[str]] = {}
    for rel, text in code.items():
        mod = _module_of(lang, rel)
        if not rel.endswith((".h", ".hpp")):  # a header's inline code: used by including it
            for name in definitions(lang, _strip(strings, text), mod):
                defined.setdefault(name, set()).add(mod)
    if lang in ("c", "cpp"):  # only what a header declares is shared (static, anonymous: not)
        declared = _header_names(code)
        defined = {n: mods for n, mods in defined.items() if n in declared}
    for rel, text in code.items():
        mod = _module_of(lang, rel)
        imports = IMPORTS.get(lang, lambda _: set())(text)
        graph[mod] |= _resolve(lang, imports, modules, rel)
        bare = _strip(strings, text)
        if lang in ("c", "cpp"):
            bare = _strip(_C_DECLS + r"|^\s*#[^\n]*", bare)
        own = definitions(lang, bare, mod)
        for name in set(_IDENT.findall(bare)) - own:
            graph[mod] |= defined.get(name, set())
        graph[mod] -= {mod, _source_of(mod)}
    return graph


def find_cycle(graph: Graph) -> list[str] | None:
    """One cycle of the graph as a path that ends where it starts, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        stack.append(m)
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                return stack[stack.index(n) :] + [n]
            if n not in state and (found := visit(n)):
                return found
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state and (found := visit(m)):
            return found
    return None


def cycles(graph: Graph) -> list[list[str]]:
    """The graph's strongly connected parts of two or more modules, each sorted (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)
