"""Results from several machines in one store: machines, runs per machine, N-way compare, and
moving whole stores (docs/results.md, "Machines" and "Moving a store")."""

from __future__ import annotations

import json

from ..errors import UsageError
from . import document as results
from .identity import display_label

STORE_SCHEMA = "cryptobench/store/v1"  # `export --all`: {"schema", "runs": [results documents]}


def machine_of(run: dict) -> dict:
    return run.get("machine") or {}


def matches_machine(run: dict, wanted: str) -> bool:
    m = machine_of(run)
    return wanted in (m.get("label"), m.get("hostname"), display_label(m)) or bool(
        m.get("machine_id") and m["machine_id"].startswith(wanted)
    )


def runs_of_machine(runs: list[dict], wanted: str | None) -> list[dict]:
    """The runs of one machine (label, hostname or machine id prefix); all when None."""
    return runs if not wanted else [r for r in runs if matches_machine(r, wanted)]


def machines(runs: list[dict]) -> list[dict]:
    """One row per machine (machine id and label): CPU, flags, instance type, run count."""
    rows: dict[tuple, dict] = {}
    for run in runs:
        m = machine_of(run)
        key = (m.get("machine_id"), display_label(m))
        row = rows.setdefault(
            key,
            {
                "label": display_label(m),
                "machine_id": m.get("machine_id"),
                "hostname": m.get("hostname"),
                "cpu_model": m.get("cpu_model"),
                "cores": m.get("cores"),
                "flags": sorted(f for f, on in (m.get("cpu_flags") or {}).items() if on),
                "virtualisation": m.get("virtualisation"),
                "instance_type": m.get("instance_type"),
                "runs": 0,
                "last_run": None,
            },
        )
        row["runs"] += 1
        row["last_run"] = max(row["last_run"] or "", run.get("started") or "")
    return sorted(rows.values(), key=lambda r: r["label"])


def last_runs_of(store, wanted: list[str]) -> list[str]:
    """The id of each machine's last run (complete, else any)."""
    runs = store.runs()
    out = []
    for name in (w.strip() for w in wanted if w.strip()):
        mine = [r for r in runs if matches_machine(r, name)]
        if not mine:
            known = sorted({display_label(machine_of(r)) for r in runs})
            raise UsageError(f"no run of machine {name!r}; machines: {', '.join(known) or 'none'}")
        done = [r for r in mine if r["status"] == "complete"] or mine
        out.append(max(done, key=lambda r: r["started"])["id"])
    return out


def check_machine(docs: list[dict], name: str | None) -> None:
    """``--normalise-to``: must be one of the report's machines."""
    names = [display_label(d.get("machine") or {}) for d in docs]
    if name is not None and name not in names:
        raise UsageError(f"--normalise-to {name!r}: valid: {', '.join(dict.fromkeys(names))}")


def labels(docs: list[dict]) -> list[str]:
    """Run labels: its name (else id prefix), and its machine where the runs come from more
    than one machine."""
    names = [d.get("run", {}).get("name") or str(d.get("run", {}).get("id", "?"))[:8] for d in docs]
    machs = [display_label(d.get("machine") or {}) for d in docs]
    out: list[str] = []
    for name, mach in zip(names, machs, strict=True):
        label = f"{name} on {mach}" if len(set(machs)) > 1 else name
        while label in out:
            label += " (again)"
        out.append(label)
    return out


def export_all(store) -> tuple[str, str]:
    """The whole store as one document, and a summary line."""
    docs, n_cases = [], 0
    for run_id in store.run_ids():
        run, cases = store.load(run_id)
        run.pop("status_detail", None)
        docs.append(results.document(run, cases))
        n_cases += len(cases)
    text = json.dumps({"schema": STORE_SCHEMA, "runs": docs}, indent=1) + "\n"
    return text, f"exported {len(docs)} runs ({n_cases} cases) from {store.path}"


def import_documents(store, docs: list[dict], cat) -> tuple[list[str], str, list[str]]:
    """Add every run not already in ``store``, with only the rows the tool could have
    written (admit.py): (ids added, a summary line, one line per run or row refused)."""
    from .admit import admit

    added, n_cases, refused, there = [], 0, [], 0
    for doc in docs:
        doc, why = admit(doc, cat)
        refused += why
        if doc is None:
            continue
        run = {**doc["run"], "machine": doc["machine"], "results_schema": doc["schema"]}
        if store.import_run(run, doc["results"]):
            added.append(run["id"])
            n_cases += len(doc["results"])
        else:
            there += 1
    return (
        added,
        f"imported {len(added)} runs ({n_cases} cases) into {store.path}; {there} already there"
        + (f"; refused {len(refused)} runs or rows (above)" if refused else ""),
        refused,
    )
