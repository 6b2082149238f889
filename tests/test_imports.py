"""The orchestrator's modules import each other without a cycle (data flows one way)."""

from __future__ import annotations

import ast
from pathlib import Path

import cryptobench
from tests.conftest import load_script

SRC = Path(cryptobench.__file__).parent


def _module(path: Path) -> str:
    rel = path.relative_to(SRC.parent).with_suffix("")
    parts = list(rel.parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """module -> the cryptobench modules it imports (anywhere in it, lazy imports included)."""
    modules = {_module(p): p for p in SRC.rglob("*.py")}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for mod, path in modules.items():
        package = mod if path.name == "__init__.py" else mod.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                base = package.split(".")
                if node.level:
                    base = base[: len(base) - node.level + 1]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                subs = {f"{target}.{a.name}" for a in node.names} & modules.keys()
                if not subs and not mod.startswith(target + "."):  # a package's own
                    subs = {target} & modules.keys()  # submodules import it as they load
                graph[mod] |= subs - {mod}
            elif isinstance(node, ast.Import):
                graph[mod] |= {a.name for a in node.names if a.name in modules}
    return graph


# the cycle finder kept beside the runners' graph code (scripts/runner_graph.py): one copy
SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "runner_graph.py"
find_cycle = load_script(SCRIPT, "runner_graph").find_cycle


def test_no_import_cycle_in_src():
    graph = import_graph()
    assert "cryptobench.run.pipeline" in graph and graph["cryptobench.cli.run"]
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph))


def test_the_cycle_finder_finds_one():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


# The layer order (docs/architecture.md), lowest first: a package imports only packages
# before it (and the entry-point modules errors and paths, which import nothing of ours).
LAYERS = [
    "stats",
    "catalog",
    "runtimes",
    "plan",
    "results",
    "store",
    "verify",
    "measure",
    "run",
    "calibrate",
    "leak",
    "advise",
    "report",
    "cli",
]
TOP = {"__init__", "__main__", "errors", "paths"}


def _layer(module: str) -> str:
    return module.split(".")[1] if "." in module else ""


def layer_violations(graph: dict[str, set[str]]) -> list[str]:
    rank = {name: i for i, name in enumerate(LAYERS)}
    rank["calibrate"] = rank["leak"]  # calibrate and leak share a floor: neither imports the other
    bad = []
    for mod, deps in sorted(graph.items()):
        here = _layer(mod)
        if here in TOP or here not in rank:
            continue
        for dep in sorted(deps):
            there = _layer(dep)
            if there in TOP or there == here:
                continue
            if there not in rank or rank[there] >= rank[here]:
                bad.append(f"{mod} imports {dep}")
    return bad


def test_every_module_lives_in_a_step_package_or_is_an_entry_point():
    loose = {p.stem for p in SRC.glob("*.py")} - TOP
    assert not loose, f"modules directly under src/cryptobench: {sorted(loose)}"
    packages = {p.name for p in SRC.iterdir() if (p / "__init__.py").is_file()}
    assert packages == set(LAYERS), packages ^ set(LAYERS)


def test_a_package_imports_only_the_packages_below_it():
    assert layer_violations(import_graph()) == []


def test_the_layer_check_finds_an_upward_import():
    graph = {"cryptobench.stats.core": {"cryptobench.report.layout"}, "cryptobench.report.x": set()}
    assert layer_violations(graph) == ["cryptobench.stats.core imports cryptobench.report.layout"]


def test_the_architecture_doc_lists_every_package():
    doc = (SRC.parents[1] / "docs" / "architecture.md").read_text()
    rows = [line.split("|")[1].strip() for line in doc.splitlines() if line.startswith("| `")]
    named = {n.strip(" `") for row in rows for n in row.split(",")}
    assert named == set(LAYERS)
