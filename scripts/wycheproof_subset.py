"""Write the deterministic subset of a large Wycheproof file that vectors/wycheproof/ stores.

    python scripts/wycheproof_subset.py UPSTREAM.json OUT.json [PER_KIND [file]]

Every test group is kept, with the first PER_KIND tests (tcId order, default 4) of each kind
of test in it: a kind is the test's comment without its trailing number ("Test vector based
on official round 3 seeds 17" → "… seeds"), or its flags when it has no comment, and its
result. With ``file`` (for files of many small groups, as ML-DSA's, whose every group has
its own key and every test its own comment), kinds are counted across the whole file, a kind
is the test's flags, whether it has a context, and its result, and a group left with no test
is dropped. Every other field is copied unchanged;
``numberOfTests`` counts what is kept and ``subset`` says how it was made
(vectors/wycheproof/README.md).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path


def kind(test: dict, per_file: bool = False) -> tuple:
    flags = ",".join(test.get("flags", []))
    if per_file:  # ML-DSA: every comment is distinct; a flag set names the case
        return flags, bool(test.get("ctx")), test["result"]
    comment = re.sub(r"\s*\d+$", "", test.get("comment", ""))
    return comment or flags, test["result"]


def subset(doc: dict, per_kind: int, per_file: bool = False) -> dict:
    out = dict(doc)
    groups, kept = [], 0
    seen: dict[tuple, int] = {}
    for group in doc["testGroups"]:
        if not per_file:
            seen = {}
        tests = []
        for test in sorted(group["tests"], key=lambda t: t["tcId"]):
            k = kind(test, per_file)
            if seen.get(k, 0) < per_kind:
                seen[k] = seen.get(k, 0) + 1
                tests.append(test)
        if tests or not per_file:
            groups.append(dict(group, tests=tests))
        kept += len(tests)
    out["numberOfTests"] = kept
    how = (
        "in the file (flags, a context or not"
        if per_file
        else "per group (comment without its number"
    )
    out["subset"] = (
        f"cryptobench: the first {per_kind} tests of each kind {how}, and result), of "
        f"{doc['numberOfTests']} (scripts/wycheproof_subset.py)"
    )
    out["testGroups"] = groups
    return out


def main(argv: list[str]) -> int:
    if len(argv) not in (3, 4, 5) or len(argv) == 5 and argv[4] != "file":
        print(__doc__.strip(), file=sys.stderr)
        return 2
    per_kind = int(argv[3]) if len(argv) >= 4 else 4
    doc = json.loads(Path(argv[1]).read_text())
    out = subset(doc, per_kind, per_file=len(argv) == 5)
    Path(argv[2]).write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
