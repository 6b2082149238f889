"""Small functions (docs/architecture.md): none in src/cryptobench over 50 lines."""

from __future__ import annotations

import ast
from pathlib import Path

import cryptobench

SRC = Path(cryptobench.__file__).parent
MOST = 50  # lines, from `def` to the function's last line (docstring included)


def long_functions(root: Path, most: int = MOST) -> list[str]:
    """`path:line name (N lines)` for every function or method longer than ``most`` lines."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = node.end_lineno - node.lineno + 1
                if lines > most:
                    rel = path.relative_to(root.parent)
                    found.append(f"{rel}:{node.lineno} {node.name} ({lines} lines)")
    return found


def test_no_function_over_50_lines():
    assert long_functions(SRC) == []


def test_a_long_function_is_found(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    body = "".join(f"    x{i} = {i}\n" for i in range(MOST))
    (pkg / "m.py").write_text(f"def short():\n    return 1\n\n\nasync def long():\n{body}")
    assert long_functions(pkg) == [f"pkg/m.py:5 long ({MOST + 1} lines)"]
