"""The versioned JSON interchange format (docs/results.md)."""

from __future__ import annotations

import json as _json


def render(doc: dict, opts=None, **_) -> str:
    return _json.dumps(doc, indent=2, sort_keys=False) + "\n"
