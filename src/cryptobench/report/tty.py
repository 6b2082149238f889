"""The terminal a command writes to: its width and whether to colour (no imports beyond the
standard library, so `list` and the read commands can ask without loading the report stack)."""

from __future__ import annotations

import os
import shutil

DEFAULT_WIDTH = 160  # for a file or pipe when COLUMNS is not set


def terminal_width() -> int:
    """COLUMNS, else the terminal's width, else DEFAULT_WIDTH (a pipe or a file)."""
    return shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns


def color_wanted(isatty: bool) -> bool:
    """Colour only on a terminal, never when NO_COLOR is set (https://no-color.org)."""
    return isatty and not os.environ.get("NO_COLOR")
