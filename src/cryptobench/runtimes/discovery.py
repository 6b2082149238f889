"""Discovery: find runners by their runner.toml, validate it, and say why one is skipped.

Discovery never builds anything (docs/protocol.md, "runner.toml").
"""

from __future__ import annotations

import os
import re
import shutil
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from ..paths import runners_dir
from . import cpu_features

RUNTIME_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")
VARIANT_RE = re.compile(r"^[a-z0-9][a-z0-9._-]*$")


@dataclass
class RuntimeSpec:
    runtime_id: str  # "java" or "java@25"
    base: str
    variant: str | None
    language: str
    folder: Path
    command: list[str] = field(default_factory=list)
    env: dict = field(default_factory=dict)
    startup_timeout: float = 30.0
    isolate: bool = False  # a JIT runtime: its leak targets one process each
    compiles: bool = False  # samples say how many JIT compilations overlapped them: 5 rounds
    warm_up_s: float = 0.0  # a group's warm-up in each fresh process, sizes in turn (warmup.py)
    # runner.toml [run.one_cpu]: library -> why its group's process runs on one CPU (session)
    one_cpu: dict = field(default_factory=dict)
    cpu_features: dict = field(default_factory=dict)  # runner.toml [cpu_features]
    leak_control_bytes: int | None = None  # runner.toml [leak] control_bytes (leak/command.py)
    leak_taint: bool = False  # runner.toml [leak] taint: marks secrets for memcheck (leak/taint.py)
    # runner.toml [instructions] (--metric instructions): why not offered (None: offered), and
    # the environment its instrumented processes get (a fixed hash seed, …)
    instructions_refused: str | None = "runner.toml has no [instructions] section"
    instructions_env: dict = field(default_factory=dict)
    skipped: str | None = None  # the one-line reason, when it cannot run


def runtime_matches(runtime_id: str, wanted: str) -> bool:
    """``java`` selects every Java variant; ``java@25`` exactly one."""
    return runtime_id == wanted or ("@" not in wanted and runtime_id.split("@")[0] == wanted)


class RunnerTomlError(ValueError):
    pass


def _strings(value, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RunnerTomlError(f"{what} must be a list of strings")
    return value


def _validate(raw: dict) -> None:
    if raw.get("schema") != 1:
        raise RunnerTomlError("schema must be 1")
    if not isinstance(raw.get("runtime"), str) or not RUNTIME_RE.match(raw["runtime"]):
        raise RunnerTomlError("runtime must match [a-z0-9-]+")
    run = raw.get("run")
    if not isinstance(run, dict) or not _strings(run.get("command"), "run.command"):
        raise RunnerTomlError("[run] command is required")
    _strings(run.get("artifacts", []), "run.artifacts")
    for flag in ("isolate", "compiles"):
        if not isinstance(run.get(flag, False), bool):
            raise RunnerTomlError(f"run.{flag} must be true or false")
    warm = run.get("warm_up_s", 0)
    if isinstance(warm, bool) or not isinstance(warm, int | float) or not 0 <= warm <= 10:
        raise RunnerTomlError("run.warm_up_s must be a number of seconds from 0 to 10")
    one = run.get("one_cpu", {})
    if not isinstance(one, dict) or not all(isinstance(v, str) and v for v in one.values()):
        raise RunnerTomlError("[run.one_cpu] must map each library to why (a string)")
    _strings(raw.get("requires", []), "requires")
    setup = raw.get("setup", {})
    for key in ("apt", "build", "check"):
        _strings(setup.get(key, []), f"setup.{key}")
    try:
        cpu_features.validate(raw.get("cpu_features", {}))
    except cpu_features.TableError as exc:
        raise RunnerTomlError(str(exc)) from None
    ctl = raw.get("leak", {}).get("control_bytes", 64)
    if not isinstance(ctl, int) or not 2 <= ctl <= 1 << 20:
        raise RunnerTomlError("leak.control_bytes must be an integer from 2 to 1048576")
    if not isinstance(raw.get("leak", {}).get("taint", False), bool):
        raise RunnerTomlError("leak.taint must be true or false")
    _validate_instructions(raw.get("instructions", {}))
    for var in raw.get("variants", []):
        if not isinstance(var.get("name"), str):
            raise RunnerTomlError("every [[variants]] needs a name")
        _strings(var.get("command", run["command"]), "variants.command")
        _validate_instructions(var.get("instructions", {}))
        if not isinstance(var.get("leak", {}).get("taint", False), bool):
            raise RunnerTomlError("variants.leak.taint must be true or false")


def _validate_instructions(table) -> None:
    """[instructions]: ``env`` (strings) for the instrumented processes, or ``not_offered``
    (the reason); docs/protocol.md, "runner.toml"."""
    if not isinstance(table, dict) or set(table) - {"env", "not_offered"}:
        raise RunnerTomlError("[instructions] takes only env and not_offered")
    env = table.get("env", {})
    if not isinstance(env, dict) or not all(isinstance(v, str) for v in env.values()):
        raise RunnerTomlError("instructions.env must be a table of strings")
    if not isinstance(table.get("not_offered", ""), str):
        raise RunnerTomlError("instructions.not_offered must be a string (the reason)")


def load_toml(folder: Path) -> dict:
    """The validated runner.toml of a runner folder (RunnerTomlError when invalid)."""
    try:
        with open(folder / "runner.toml", "rb") as fh:
            raw = tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise RunnerTomlError(f"not valid TOML: {exc}") from None
    _validate(raw)
    return raw


def _missing_tool(name: str, folder: Path) -> bool:
    if "/" in name:
        path = Path(name) if name.startswith("/") else folder / name
        return not os.access(path, os.X_OK)
    return shutil.which(name) is None


def _resolve(argv: list[str], folder: Path) -> list[str]:
    first = argv[0]
    if "/" in first and not first.startswith("/"):
        first = str(folder / first)
    return [first, *argv[1:]]


def _spec(raw: dict, folder: Path, variant: dict | None, name: str | None) -> RuntimeSpec:
    def subst(items):
        return [s.replace("{variant}", name or "") for s in items]

    source = variant or {}
    base = raw["runtime"]
    spec = RuntimeSpec(
        runtime_id=f"{base}@{name}" if name else base,
        base=base,
        variant=name,
        language=raw.get("language", base),
        folder=folder,
        command=_resolve(subst(source.get("command", raw["run"]["command"])), folder),
        env={**raw["run"].get("env", {}), **source.get("env", {})},
        startup_timeout=float(raw.get("startup_timeout", 30)),
        isolate=bool(raw["run"].get("isolate", False)),
        compiles=bool(raw["run"].get("compiles", False)),
        warm_up_s=float(raw["run"].get("warm_up_s", 0)),
        one_cpu=dict(raw["run"].get("one_cpu", {})),
        cpu_features=cpu_features.resolve(raw, folder, name),
        leak_control_bytes=raw.get("leak", {}).get("control_bytes"),
        leak_taint=source.get("leak", raw.get("leak", {})).get("taint") is True,  # a variant's own
    )
    table = source.get("instructions", raw.get("instructions"))  # a variant's own, else the base's
    if table is not None:
        spec.instructions_refused = table.get("not_offered") or None
        spec.instructions_env = dict(table.get("env", {}))
    requires = subst(source.get("requires", raw.get("requires", [])))
    artifacts = subst(source.get("artifacts", raw["run"].get("artifacts", [])))
    missing = [t for t in requires if _missing_tool(t, folder)]
    if missing:
        spec.skipped = f"toolchain missing: {', '.join(missing)} not found (run `make setup`)"
    elif [a for a in artifacts if not (folder / a).exists()]:
        hint = source.get("build_hint", "run `make setup`")
        spec.skipped = f"not built: {hint}"
    return spec


def discover(wanted_variants: dict[str, set[str]] | None = None) -> list[RuntimeSpec]:
    """Every runtime found under runners/, each either runnable or skipped with a reason.

    ``wanted_variants`` maps a base runtime to variant names the user asked for; template
    variants (``name = "*"``) are only instantiated for those.
    """
    wanted_variants = wanted_variants or {}
    specs: list[RuntimeSpec] = []
    root = runners_dir()
    for toml_path in sorted(root.glob("*/runner.toml")):
        folder = toml_path.parent
        try:
            raw = load_toml(folder)
        except (RunnerTomlError, OSError) as exc:
            specs.append(
                RuntimeSpec(
                    folder.name,
                    folder.name,
                    None,
                    folder.name,
                    folder,
                    skipped=f"invalid runner.toml: {exc}",
                )
            )
            continue
        specs.append(_spec(raw, folder, None, None))
        for var in raw.get("variants", []):
            if var["name"] == "*":
                for name in sorted(wanted_variants.get(raw["runtime"], ())):
                    if VARIANT_RE.match(name):
                        specs.append(_spec(raw, folder, var, name))
            elif VARIANT_RE.match(var["name"]) and not var.get("switch_only"):
                specs.append(_spec(raw, folder, var, var["name"]))
    return specs
