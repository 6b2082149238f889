"""The section model every human-readable format renders (docs/reports.md, "One section
model"): :func:`build` turns a results document into a list of :class:`Section` — title,
columns, rows, notes — once, by pure functions; the terminal (rich), Markdown and HTML
renderers only lay them out. A cell is text, a :class:`Num` (text with the exact value the
HTML tables sort by) or a :class:`Curve` (leak's |t| against measurements: a sparkline in
text, a line in HTML)."""

from __future__ import annotations

from dataclasses import dataclass, field

from . import calibration, handshake, hardware, keysizes, layout, migration
from . import instructions as instructions_report
from . import leak as leak_report


@dataclass(frozen=True)
class Options:
    """What every format's ``render(doc, options)`` may be told; each reads what it needs."""

    show_precision: bool = False
    color: bool = False
    width: int | None = None
    group_by: str = "family"
    title: str | None = None  # HTML: the page title
    normalise_to: str | None = None  # HTML: the machine the fleet section is relative to


def options(opts: Options | None = None, **kw) -> Options:
    """``opts`` as given, or an Options from keyword arguments (unknown ones ignored)."""
    if opts is not None:
        return opts
    known = set(Options.__dataclass_fields__)
    return Options(**{k: v for k, v in kw.items() if k in known})


@dataclass(frozen=True)
class Num:
    """A numeric cell: ``text`` as shown, ``value`` for sorting (HTML's data-order)."""

    text: str
    value: float | None

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Curve:
    """max |t| at growing measurement counts: ``(n, t)`` points."""

    points: tuple

    def __str__(self) -> str:
        return leak_report.curve_text(self.points)


@dataclass
class Section:
    id: str  # "sizes", "fits", "speedups", "scaling", "noop", "leak", "tls-handshake", …
    title: str
    columns: tuple[str, ...]
    rows: list[tuple] = field(default_factory=list)
    numeric: tuple[bool, ...] = ()  # per column: right-aligned, sorted by value
    notes: list[str] = field(default_factory=list)
    style: str = "table"  # "table", or "line": one line "title: a x, b y" in text formats
    unit: str | None = None  # size tables: the unit of their cells (MB/s, ms/op, µs/op)
    best: set = field(default_factory=set)  # size tables: (row, column) of each fastest

    def is_numeric(self, i: int) -> bool:
        return i < len(self.numeric) and self.numeric[i]


def size_table(t: layout.Table, show_precision: bool) -> Section:
    """One table of layout.tables: a row per label, a column per size."""
    rows, best = [], set()
    for i, (label, cells) in enumerate(t.rows):
        row = [label]
        for j, size in enumerate(t.sizes, 1):
            row.append(layout.cell(cells.get(size), t.unit, show_precision))
            if t.best.get(size) == label:
                best.add((i, j))
        rows.append(tuple(row))
    columns = (t.head, *(f"{s} B" for s in t.sizes))
    numeric = (False, *(True for _ in t.sizes))
    return Section("sizes", t.title, columns, rows, numeric, list(t.notes), unit=t.unit, best=best)


def fits(results: list[dict]) -> list[Section]:
    rows = [(label, *f.cells()) for label, f in layout.fits(results)]
    if not rows:
        return []
    title = "per-call overhead and per-byte cost: t(n) = a + b·n (Theil–Sen)"
    columns = ("case  implementation", "a: ns/call", "b: ns/byte", "1/b: MB/s")
    return [Section("fits", title, columns, rows, (False, True, True, True))]


def speedups(results: list[dict]) -> list[Section]:
    rows = [
        (s.case, f"{s.size} B", s.implementation, hardware.speedup_text(s))
        for s in hardware.speedups(results)
    ]
    if not rows:
        return []
    title = (
        "what the hardware buys: default path's speed-up over the features switched off "
        "(95% interval)"
    )
    columns = ("case", "size", "implementation", "speed-up")
    return [Section("speedups", title, columns, rows, (False, True, False, False))]


def scaling(results: list[dict]) -> list[Section]:
    rows = hardware.scaling_rows(results)
    if not rows:
        return []
    title = (
        "all cores: N workers at once (per worker: median; efficiency = aggregate / "
        "(N × one worker alone))"
    )
    columns = ("case", "implementation", "workers", "per worker", "aggregate", "efficiency")
    return [Section("scaling", title, columns, rows, (False, False, True, True, True, True))]


def noop(results: list[dict]) -> list[Section]:
    rows = [(rt, Num(f"{ns:.0f}", ns)) for rt, ns in layout.noop_rows(results)]
    if not rows:
        return []
    title = "runner overhead (noop, ns per call)"
    return [Section("noop", title, ("runtime", "ns per call"), rows, (False, True), style="line")]


def leak(results: list[dict]) -> list[Section]:
    found = [r for r in results if leak_report.is_leak(r)]
    rows = [
        (*row.cells(), Curve(tuple((r.get("leak") or {}).get("curve") or ())))
        for r, row in zip(found, leak_report.rows(found), strict=True)
    ]
    if not rows:
        return []
    columns = (*leak_report.columns(found), "|t| vs measurements")
    title = "timing leakage (dudect)"
    notes = leak_report.notes(found)
    return [Section("leak", title, columns, rows, leak_report.numeric(found), notes)]


def instructions(results: list[dict]) -> list[Section]:
    """--metric instructions: the count per case beside its code path under valgrind."""
    found = instructions_report.counted(results)
    rows = []
    for r in found:
        case, impl, per_op, per_byte, path = instructions_report.row(r)
        rows.append((case, impl, Num(*per_op), Num(*per_byte), path))
    if not rows:
        return []
    notes = instructions_report.notes(found)
    cols, numeric = instructions_report.COLUMNS, instructions_report.NUMERIC
    return [Section("instructions", instructions_report.TITLE, cols, rows, numeric, notes)]


def tls_handshake(results: list[dict]) -> list[Section]:
    """The server side of one TLS handshake per implementation and choice (report.handshake)."""
    rows = []
    for h in handshake.handshakes(results):
        e, (keygen, agree, sign) = h.estimate, h.parts
        rows.append(
            (
                h.implementation,
                h.kex,
                h.signature,
                Num(handshake.interval_text(e), e.median),
                Num(f"{1e9 / e.median:,.0f}", 1e9 / e.median),
                *(Num(handshake.us(r["median_ns"]), r["median_ns"]) for r in (keygen, agree, sign)),
                h.wire,
            )
        )
    if not rows:
        return []
    cols, numeric = handshake.COLUMNS, handshake.NUMERIC
    return [Section("tls-handshake", handshake.TITLE, cols, rows, numeric, [handshake.NOTE])]


PUBKEY_COLUMNS = (
    "implementation",
    "primitive",
    "operation",
    "message (B)",
    "µs/op (95% CI)",
    "ops/s",
)


def _pubkey_row(r: dict) -> tuple:
    us = r["median_ns"] / 1e3
    return (
        layout.impl_label(r),
        r["primitive"],
        r["operation"],
        Num(str(r["size"]) if r.get("size") else "—", r.get("size") or 0),
        Num(f"{us:.1f} ({r['ci_low_ns'] / 1e3:.1f}–{r['ci_high_ns'] / 1e3:.1f})", us),
        Num(f"{1e9 / r['median_ns']:,.0f}", 1e9 / r["median_ns"]),
    )


def public_key(results: list[dict]) -> list[Section]:
    """Key agreement, signatures and key encapsulation, every measured case: time and rate
    (the HTML report's public-key section; their sizes: :func:`public_key_sizes`)."""
    rows = [
        _pubkey_row(r)
        for r in results
        if r.get("family") in layout.PUBKEY_FAMILIES
        and r.get("status") == "ok"
        and r.get("median_ns")
    ]
    if not rows:
        return []
    title = "public-key operations: µs/op and operations per second"
    numeric = tuple(i >= 3 for i in range(len(PUBKEY_COLUMNS)))
    return [Section("public-key", title, PUBKEY_COLUMNS, sorted(rows, key=str), numeric)]


def _size_cell(size: keysizes.Size) -> Num:
    return Num(size.text(), size.value)


def public_key_sizes(results: list[dict]) -> list[Section]:
    """One row per kex, signature and kem primitive: its sizes in bytes (report.keysizes),
    every value shown where implementations disagree."""
    found = keysizes.rows(results)
    rows = [
        (
            r.primitive,
            r.family,
            _size_cell(r.cells["public key (B)"]),
            Num("" if r.private_key is None else str(r.private_key), r.private_key),
            _size_cell(r.cells["signature or ciphertext (B)"]),
            _size_cell(r.cells["shared secret (B)"]),
            Num(str(r.implementations), r.implementations),
        )
        for r in found
    ]
    if not rows:
        return []
    notes = [keysizes.NOTE, *keysizes.disagreements(found)]
    cols, numeric = keysizes.COLUMNS, keysizes.NUMERIC
    return [Section("public-key-sizes", keysizes.TITLE, cols, rows, numeric, notes)]


def calibration_section(doc: dict) -> Section:
    v = calibration.view(doc)
    notes = [f"not calibrated: {line}" for line in v.others] + list(v.notes)
    numeric = tuple(i >= 4 for i in range(len(calibration.COLUMNS)))
    rows = [tuple(row) for row in v.rows]
    return Section("calibration", v.title, calibration.COLUMNS, rows, numeric, notes)


def is_calibration(doc: dict) -> bool:
    return calibration.applies(doc)


def pq_migration(results: list[dict]) -> list[Section]:
    """Classical vs post-quantum vs hybrid per runtime, one use each (report.migration)."""
    found = migration.choices(results)
    alloc = migration.shows_alloc(found)  # an allocation column where any row has a figure
    rows = [
        (
            c.runtime,
            c.use,
            c.kind,
            c.primitive,
            c.implementation,
            Num(migration.estimate_text(c.estimate), c.estimate.median),
            Num("" if c.wire is None else str(c.wire), c.wire),
            Num(migration.versus_text(c.versus), c.versus.ratio if c.versus else None),
        )
        + ((Num(migration.alloc_text(c.alloc), c.alloc),) if alloc else ())
        for c in found
    ]
    if not rows:
        return []
    cols, numeric = migration.columns(alloc)
    notes = [migration.NOTE, *([migration.ALLOC_NOTE] if alloc else [])]
    return [Section("pq-migration", migration.TITLE, cols, rows, numeric, notes)]


AFTER_TABLES = (
    fits,
    speedups,
    scaling,
    public_key_sizes,
    tls_handshake,
    pq_migration,
    noop,
    instructions,
    leak,
)


def build(doc: dict, opts: Options | None = None) -> list[Section]:
    """Every section of a document, in the order every format shows them."""
    opts = opts or Options()
    if calibration.applies(doc):
        return [calibration_section(doc)]
    results = doc["results"]
    out = [size_table(t, opts.show_precision) for t in layout.tables(results, opts.group_by)]
    for make in AFTER_TABLES:
        out += make(results)
    return out
