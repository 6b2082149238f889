"""`compute --batch FILE.jsonl`: one compute request per line, one JSON answer per line, one
runner process per runtime for the whole file (docs/compute-batch.md).

A line: {"impl", "primitive", "operation", "inputs", "params", and optionally "id" (echoed),
"expect" (the output hex or string), "expect_not" (an output it must not give: a forged tag)
or "expect_error" (an error kind, e.g. auth_failed)}.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from ..catalog.primitives import Catalog
from ..errors import CryptobenchError, UsageError
from .protocol import RemoteError, RunnerFailure
from .session import Runtime, open_runtimes

FIELDS = (
    *("id", "impl", "primitive", "operation", "inputs", "params"),
    *("expect", "expect_not", "expect_error"),
)


class LineError(Exception):
    """A line that cannot become a request: answered with bad_request."""


@dataclass
class Tally:
    lines: int = 0
    passed: int = 0  # an expectation met
    failed: int = 0  # an expectation not met, or an error nobody expected

    @property
    def ok(self) -> bool:
        return self.failed == 0


def read_lines(path: str) -> list[tuple[int, str]]:
    try:
        with open(path, encoding="utf-8") as fh:
            rows = [(n, line) for n, line in enumerate(fh, 1) if line.strip()]
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not UTF-8 JSON Lines") from None
    if not rows:
        raise UsageError(f"{path}: no requests (one JSON object per line)")
    return rows


def _parse(text: str) -> dict:
    try:
        req = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LineError(f"not JSON: {exc.msg} at column {exc.colno}") from None
    if not isinstance(req, dict):
        raise LineError("a request is a JSON object")
    unknown = sorted(set(req) - set(FIELDS))
    if unknown:
        raise LineError(f"unknown field {unknown[0]!r}; valid: {', '.join(FIELDS)}")
    for name in ("impl", "primitive", "operation"):
        if not isinstance(req.get(name), str):
            raise LineError(f"{name} is required (a string)")
    for name in ("inputs", "params"):
        if not isinstance(req.setdefault(name, {}), dict):
            raise LineError(f"{name} must be an object")
    return req


class Batch:
    """Answers the lines of one file with the runtimes they name, started once each."""

    def __init__(self, cat: Catalog, timeout: float):
        self.cat, self.timeout = cat, timeout
        self.live: list[Runtime] = []
        self.skipped: list[tuple[str, str]] = []
        self.impls: dict = {}

    def start(self, impl_ids: list[str]) -> None:
        runtimes = sorted({i.split("/")[0] for i in impl_ids if "/" in i})
        if runtimes:  # only these; a runtime nobody has answers its lines with the error
            self.live, self.skipped = open_runtimes((), [f"{r}/" for r in runtimes], True)
        self.impls = {i.id: (rt, i) for rt in self.live for i in rt.implementations}

    def stop(self) -> None:
        for rt in self.live:
            rt.stop()

    def answer(self, n: int, text: str) -> dict:
        out: dict = {"line": n}
        try:
            req = _parse(text)
            out.update({k: req[k] for k in ("id", "impl", "primitive", "operation") if k in req})
            out["output"] = self._compute(req)
            out["ok"] = True
        except LineError as exc:
            out.update(ok=False, error={"kind": "bad_request", "message": str(exc)})
            return out
        except RemoteError as exc:
            out.update(ok=False, error={"kind": exc.kind, "message": exc.message})
        except RunnerFailure as exc:
            out.update(ok=False, error={"kind": "runner_failure", "message": str(exc)})
        if "expect" in req:
            out["pass"] = out["ok"] and str(out["output"]).lower() == str(req["expect"]).lower()
        elif "expect_not" in req:
            out["pass"] = out["ok"] and str(out["output"]).lower() != str(req["expect_not"]).lower()
        elif "expect_error" in req:
            out["pass"] = not out["ok"] and out["error"]["kind"] == req["expect_error"]
        return out

    def _compute(self, req: dict) -> str:
        if req["impl"] not in self.impls:
            why = dict(self.skipped).get(req["impl"].split("/")[0])
            valid = ", ".join(sorted(self.impls)) or "none started"
            raise LineError(
                f"unknown implementation {req['impl']!r}" + (f" ({why})" if why else "")
                + f"; valid: {valid}"
            )  # fmt: skip
        try:
            prim = self.cat.get(req["primitive"])
            if req["operation"] not in prim.operations:
                raise LineError(
                    f"{prim.id} has operations {', '.join(prim.operations)}, "
                    f"not {req['operation']!r}"
                )
            params = self.cat.resolve_params(prim, req["params"], req["operation"])
        except CryptobenchError as exc:
            raise LineError(str(exc)) from None
        inputs = req["inputs"]
        if prim.family == "aead" and isinstance(inputs.get("aad"), str):
            params = dict(params, aad_len=len(inputs["aad"]) // 2)  # aad_len says the AAD sent
        rt, impl = self.impls[req["impl"]]
        res = rt.request(
            "compute",
            self.timeout,
            impl=impl.library,
            primitive=prim.id,
            operation=req["operation"],
            inputs=inputs,
            params=params,
        )
        return res.get("output", "")


def run(path: str, cat: Catalog, timeout: float, emit: Callable[[str], None]) -> Tally:
    """Answer every line of ``path`` through ``emit``; the tally decides the exit code."""
    rows = read_lines(path)
    impl_ids = []
    for _, text in rows:
        try:
            impl_ids.append(str(json.loads(text).get("impl", "")))
        except (json.JSONDecodeError, AttributeError):
            continue
    batch = Batch(cat, timeout)
    tally = Tally()
    try:
        batch.start(impl_ids)
        for n, text in rows:
            ans = batch.answer(n, text)
            tally.lines += 1
            if ans.get("pass") is True:
                tally.passed += 1
            elif ans.get("pass") is False or not ans["ok"]:
                tally.failed += 1
            emit(json.dumps(ans, separators=(",", ":")))
    finally:
        batch.stop()
    return tally
