"""A leak case's classes (docs/protocol.md, "leak"): the inputs of each class, per block when a
class is drawn afresh for every request, and what each class's untimed call must answer."""

from __future__ import annotations

from dataclasses import dataclass


class Unverified(Exception):
    pass


class Unprepared(Exception):
    """No implementation at hand makes what the classes need (a key pair from a seed, an
    encapsulation with a chosen m): the case is skipped with this reason."""


@dataclass(frozen=True)
class Want:
    """What one class's untimed call must answer: ``exact`` that outcome; ``unlike`` a secret
    of that secret's length other than it (a KEM's implicit rejection); ``sizes`` any output
    of so many bytes (an agreed secret or a signature under a key drawn for the block)."""

    exact: str | None = None
    unlike: str | None = None
    sizes: tuple[int, int] | None = None

    def ok(self, got) -> bool:
        if self.exact is not None:
            return got == self.exact
        if not isinstance(got, str) or got in ("auth_failed", "ok"):
            return False
        try:
            n = len(bytes.fromhex(got))
        except ValueError:
            return False
        if self.unlike is not None:
            return n == len(self.unlike) // 2 and got != self.unlike
        lo, hi = self.sizes or (1, 1 << 30)
        return lo <= n <= hi

    def __str__(self) -> str:
        if self.exact is not None:
            return self.exact
        if self.unlike is not None:
            return f"a {len(self.unlike) // 2}-byte secret other than {self.unlike[:16]}…"
        lo, hi = self.sizes or (1, 0)
        return f"{lo} bytes" if lo == hi else f"{lo}–{hi} bytes"


@dataclass(frozen=True)
class Side:
    """One class: its inputs and what it must answer, one per block (a class drawn afresh in
    every request), or a single one for every block."""

    inputs: tuple[dict, ...]
    wants: tuple[Want, ...]

    @classmethod
    def one(cls, inputs: dict, want: Want) -> Side:
        return cls((inputs,), (want,))

    def at(self, block: int) -> tuple[dict, Want]:
        k = block % len(self.inputs)
        return self.inputs[k], self.wants[k % len(self.wants)]


@dataclass
class Classes:
    """One replicate's inputs: shared ones, the target's two classes (A, B) and the A/A pair
    (two classes built the same way), and ``verification``: what the classes were checked to
    answer, as the case says it (the common outcome when every class must give the same)."""

    shared: dict
    first: Side
    last: Side
    aa: tuple[Side, Side]
    verification: str = ""

    def __post_init__(self):
        if not self.verification:
            wants = {str(w) for s in (self.first, self.last, *self.aa) for w in s.wants}
            self.verification = wants.pop() if len(wants) == 1 else "; ".join(sorted(wants))
