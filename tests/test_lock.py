"""requirements.lock, the constraints scripts/setup.py installs .venv with: it agrees with
every pin of pyproject.toml and runners/python/requirements.txt, and it holds every package
that those need, transitively (read from the installed packages' metadata)."""

from __future__ import annotations

import importlib.metadata
import tomllib

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from .conftest import ROOT


def _pins(lines) -> dict[str, str]:
    out = {}
    for line in lines:
        line = line.split("#", 1)[0].strip()
        if line:
            req = Requirement(line)
            (spec,) = req.specifier  # one exact pin each
            assert spec.operator == "==", line
            out[canonicalize_name(req.name)] = spec.version
    return out


def _lock() -> dict[str, str]:
    return _pins((ROOT / "requirements.lock").read_text().splitlines())


def _named() -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    runner = (ROOT / "runners" / "python" / "requirements.txt").read_text().splitlines()
    return [*project["dependencies"], *project["optional-dependencies"]["dev"], *runner]


def test_lock_agrees_with_every_pin():
    lock = _lock()
    for name, version in _pins(_named()).items():
        assert lock.get(name) == version, f"{name}: pinned {version}, locked {lock.get(name)}"


def _needs(name: str, extras: set[str]) -> list[Requirement]:
    env = default_environment()
    out = []
    for text in importlib.metadata.requires(name) or []:
        req = Requirement(text)
        if req.marker is None or any(
            req.marker.evaluate({**env, "extra": e}) for e in (extras or {""})
        ):
            out.append(req)
    return out


def test_lock_holds_every_dependency_transitively():
    lock = _lock()
    named = (line.split("#", 1)[0].strip() for line in _named())
    todo = [Requirement(text) for text in named if text]
    seen: set[str] = set()
    while todo:
        req = todo.pop()
        name = canonicalize_name(req.name)
        assert name in lock, f"{req} is needed but not in requirements.lock"
        if name in seen:
            continue
        seen.add(name)
        todo += _needs(name, set(req.extras))
    unused = set(lock) - seen
    assert not unused, f"locked but needed by nothing: {sorted(unused)}"
