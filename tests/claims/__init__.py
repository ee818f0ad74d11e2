"""The numbers the notebooks' prose states, kept once: a registry of claim id -> value -> cells per notebook.

Why a registry: the prose of a notebook exists in two editions (notebooks/ and notebooks/zh/, the same cell ids).
Re-typing each English sentence around its number in a test (the old tests/prose/nbNN.py) made every rewording of
the English a test failure and left the zh prose checked only against the English. Here each number is a `Claim`:
an id saying what the number is, the cells whose prose states it, and its value as the prose writes it ("1.148",
"19.0%", "245,760"), computed by the same toyhw calls the notebook makes. tests/test_claims.py reads both editions
and fails when a cell states a number that is not the value of one of its claims, or a claim's value is missing from
its cell, so translating a sentence never breaks a test and a changed number fails in every edition at once.

Each notebook's module `tests/claims/nbNN.py` has `claims() -> list[Claim]` (its numbers, and its `holds` checks of
the claims that are no number: "above", "never", "most") and the declarations of tests/test_comparison_claims.py.
"""

from __future__ import annotations

import functools
import importlib
import pathlib
import re
from dataclasses import dataclass
from typing import Iterable

HERE = pathlib.Path(__file__).resolve().parent
KINDS = ("result", "input", "check")
_ID = re.compile(r"[a-z][a-z0-9_]*")
_CELL = re.compile(r"nb\d\d-[a-z0-9-]+")


@dataclass(frozen=True)
class Claim:
    """One number the prose states, or one check of a claim that is no number.

    Attributes:
        id: short snake_case, unique in its notebook, saying what the number is ("oracle_over_expert").
        cells: the ids of the markdown cells whose prose states it ("nb03-12"); the same in both editions.
        value: the number as the prose writes it ("1.148", "19.0%", "16, 32, 64" for a list the prose writes as
            one); None for a check.
        kind: "result" (computed here by toyhw), "input" (typed here: a choice the notebook makes in its code,
            restated, such as a seed, a budget or a shape, or a bound that a `holds` check of the cell asserts, such
            as "below 80%") or "check" (a claim without a number, asserted by `holds`;
            tests/test_comparison_claims.py counts them per cell).
    """

    id: str
    cells: tuple[str, ...]
    value: str | None
    kind: str = "result"

    def __post_init__(self) -> None:
        if not _ID.fullmatch(self.id):
            raise ValueError(f"claim id = {self.id!r} is not snake_case (a-z, 0-9, _; a letter first)")
        if not self.cells or not all(isinstance(c, str) and _CELL.fullmatch(c) for c in self.cells):
            raise ValueError(f"claim {self.id!r}: cells = {self.cells!r}; give cell ids like 'nb03-12'")
        if self.kind not in KINDS:
            raise ValueError(f"claim {self.id!r}: kind = {self.kind!r}; give one of {', '.join(KINDS)}")
        if (self.value is None) != (self.kind == "check"):
            raise ValueError(
                f"claim {self.id!r}: value = {self.value!r} with kind {self.kind!r} (only a check has none)"
            )


def _cells(cells: str | tuple[str, ...]) -> tuple[str, ...]:
    return (cells,) if isinstance(cells, str) else tuple(cells)


def said(cells: str | tuple[str, ...], kind: str = "result", **values: str) -> list[Claim]:
    """Return one claim per keyword: `said("nb03-12", oracle_over_expert=f"{x:.3f}")` (the id, then the value)."""
    return [Claim(name, _cells(cells), value, kind) for name, value in values.items()]


def holds(condition: bool, id: str, *cells: str) -> Claim:
    """Return the check `id` of `cells` if `condition` (the claim the prose makes, computed) holds; fail otherwise.

    Why an assertion and not a value: "ends above", "never catches up" have no number a test could compare, so the
    claim is computed here and the prose keeps no trace of it but its cell.
    """
    if not condition:
        raise AssertionError(
            f"the notebook claims something the pack no longer computes: {id} (cells {', '.join(cells)})"
        )
    return Claim(id, cells, None, "check")


def registry(items: Iterable[Claim]) -> dict[str, Claim]:
    """Return the claims by id, one claim per id: the same id given twice with one value joins its cells; with two
    values (or two kinds) it is an error naming both, so an id always means one number."""
    found: dict[str, Claim] = {}
    for claim in items:
        if not isinstance(claim, Claim):
            raise TypeError(f"claims() returned {claim!r}; give Claim objects (said(...), holds(...))")
        seen = found.get(claim.id)
        if seen is None:
            found[claim.id] = claim
        elif (seen.value, seen.kind) != (claim.value, claim.kind):
            raise ValueError(
                f"claim id {claim.id!r} is given twice: {seen.value!r} ({seen.kind}, cells {seen.cells}) and "
                f"{claim.value!r} ({claim.kind}, cells {claim.cells}); give each number its own id"
            )
        else:
            found[claim.id] = Claim(claim.id, tuple(dict.fromkeys(seen.cells + claim.cells)), claim.value, claim.kind)
    return found


def converted() -> list[str]:
    """Return the notebook numbers ("01") that have a registry module here."""
    return sorted(p.stem[2:] for p in HERE.glob("nb[0-9][0-9].py"))


def module(number: str):
    """Return the registry module of notebook `number` ("03")."""
    if number not in converted():
        raise ValueError(f"notebook = {number!r} has no registry; give one of {', '.join(converted())}")
    return importlib.import_module(f"claims.nb{number}")


@functools.cache
def listed(number: str) -> tuple[Claim, ...]:
    """Return notebook `number`'s claims as its module lists them (an id may repeat), computed once per test session
    (some need the ablation study)."""
    return tuple(module(number).claims())


@functools.cache
def load(number: str) -> dict[str, Claim]:
    """Return notebook `number`'s claims by id."""
    return registry(listed(number))
