"""No import cycle among any runner's files (scripts/check_runners.py, scripts/runner_graph.py).

The Python orchestrator's own graph is tests/test_imports.py.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("check_runners", ROOT / "scripts/check_runners.py")
check_runners = importlib.util.module_from_spec(_spec)
sys.modules["check_runners"] = check_runners  # dataclasses look their module up there
_spec.loader.exec_module(check_runners)
runner_graph = check_runners.runner_graph


@pytest.mark.parametrize("lang", sorted(check_runners.SKELETONS))
def test_no_import_cycle_in_the_runner(lang):
    folder = ROOT / "runners" / lang
    if not (folder / "runner.toml").is_file():
        pytest.skip(f"no runners/{lang} folder")
    assert check_runners.runner_cycles(folder, lang) == []


def _cycles(lang: str, files: dict[str, str]) -> list[list[str]]:
    sk = check_runners.SKELETONS[lang]
    return runner_graph.cycles(runner_graph.module_graph(lang, files, sk.comments, sk.strings))


def test_a_c_cycle_through_a_header_declared_symbol_is_found():
    files = {
        "src/registry.h": "const lib_t *find(const char *id);\n",
        "src/registry.c": '#include "registry.h"\nconst lib_t *all[] = {&lib_x};\n'
        "const lib_t *find(const char *id) { return all[0]; }\n",
        "src/runner.h": "extern const lib_t lib_x;\nvoid describe(json_t *o);\n",
        "src/lib_x.c": '#include "runner.h"\nstatic void local(void) { describe(0); }\n'
        "const lib_t lib_x = {0};\n",
        "src/hello.c": '#include "registry.h"\nvoid describe(json_t *o) { find("x"); }\n',
    }
    assert _cycles("c", files) == [["src/hello.c", "src/lib_x.c", "src/registry.c"]]
    # a declaration alone is no use, and a static function is nobody else's
    files["src/lib_x.c"] = '#include "runner.h"\nstatic void describe(void) {}\n'
    assert _cycles("c", files) == []


def test_a_go_cycle_between_files_of_one_package_is_found():
    files = {
        "protocol.go": "package main\n\nfunc decode() { expand() }\n\nconst (\n\tkindBad = 1\n)\n",
        "msggen.go": "package main\n\n// decode() in a comment is no use\nfunc expand() int "
        "{ return kindBad }\n",
    }
    assert _cycles("go", files) == [["msggen", "protocol"]]
    files["msggen.go"] = 'package main\n\nfunc expand() string { return "kindBad" }\n'
    assert _cycles("go", files) == []


@pytest.mark.parametrize(
    ("lang", "files"),
    [
        ("node", {"a.js": 'import { x } from "./b.js";\n', "b.js": 'const a = require("./a");\n'}),
        (
            "php",
            {
                "a.php": "<?php\nfunction fa() { fb(); }\n",
                "b.php": "<?php\nfunction fb() { fa(); }\n",
            },
        ),
        (
            "java",
            {
                "src/main/java/dev/cryptobench/runner/A.java": "class A { B b; }\n",
                "src/main/java/dev/cryptobench/runner/B.java": "class B { A a; }\n",
            },
        ),
        (
            "pascal",
            {"a.pas": "unit a;\ninterface\nuses\n  SysUtils, b;\n", "b.pas": "unit b;\nuses a;\n"},
        ),
        (
            "python",
            {"cbrunner/a.py": "from cbrunner import b\n", "cbrunner/b.py": "from . import a\n"},
        ),
        (
            "rust",
            {
                "src/a.rs": "use crate::{b::{f, g}, c};\n",
                "src/b.rs": "fn f() { super::a::h() }\n",
                "src/c.rs": "use crate::protocol::a;\n",
            },
        ),
    ],
)
def test_a_two_file_cycle_is_found(lang, files):
    assert len(_cycles(lang, files)) == 1
    assert len(_cycles(lang, dict(list(files.items())[:1]))) == 0


def test_the_check_names_each_cycle(tmp_path):
    folder = tmp_path / "runners" / "node"
    folder.mkdir(parents=True)
    (folder / "runner.toml").write_text("schema = 1\n")
    (folder / "a.js").write_text('import "./b.js";\n')
    (folder / "b.js").write_text('import "./a.js";\n')
    assert check_runners.check_cycles(tmp_path) == ["runners/node: import cycle among a, b"]
