"""A click group that imports a command's module only when that command runs, so `--version`,
`--help` and light commands start without the statistics and report stack. `--help` reads
each command's one-line help from its module's source (ast), without importing it."""

from __future__ import annotations

import ast
import functools
import importlib
from pathlib import Path

import click


@functools.cache
def _docstrings(module: str) -> dict[str, str]:
    """function name → docstring, for the functions of a module of this package."""
    tree = ast.parse((Path(__file__).parent / f"{module}.py").read_text(encoding="utf-8"))
    return {
        node.name: ast.get_docstring(node) or ""
        for node in tree.body
        if isinstance(node, ast.FunctionDef)
    }


class LazyGroup(click.Group):
    """``lazy`` maps a command name to "module:function" in this package."""

    def __init__(self, *args, lazy: dict[str, str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx) -> list[str]:
        return sorted({*self.commands, *self.lazy})

    def get_command(self, ctx, name: str):
        if name not in self.commands and name in self.lazy:
            module, attr = self.lazy[name].split(":")
            mod = importlib.import_module(f"{__package__}.{module}")
            self.add_command(getattr(mod, attr), name)
        return super().get_command(ctx, name)

    def _lazy_short_help(self, name: str, limit: int) -> str:
        module, attr = self.lazy[name].split(":")
        # a bare Command shortens the docstring exactly as the real one would
        return click.Command(name, help=_docstrings(module).get(attr, "")).get_short_help_str(limit)

    def format_commands(self, ctx, formatter) -> None:
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(n) for n in names)
        rows = []
        for name in names:
            cmd = self.commands.get(name)
            if cmd is None:
                rows.append((name, self._lazy_short_help(name, limit)))
            elif not cmd.hidden:
                rows.append((name, cmd.get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)
