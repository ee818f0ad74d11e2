"""Every sentence of a notebook that compares computed results is checked, or says it is not such a claim.

A sentence that says "X ends above Y", "most seeds", "never catches up" makes a claim a changed model or seed can make
false while every number around it still matches. `notebook_text.comparative` flags each prose sentence with a
comparative or quantifying word (above, below, more, than, most, never, beats, behind, ...; "every"/"all"/"same"/
"only" when they quantify over seeds, runs, rows, variants or budgets). Code, math, headings, tables and directions on
the page ("the cell below") are not prose. The rule is read on the English edition (the zh cells translate it).

For a notebook (its registry tests/claims/nbNN.py), per markdown cell, without re-typing its sentences:

- a cell in `NOT_RESULTS_CELLS` compares no computed results (definitions, instructions, questions to the student,
  figures cited from papers); in a cell that mixes such sentences with checked ones, `NOT_RESULTS[cell]` holds a short
  fragment of each (a few words, no number, so a changed number never makes it stale);
- a cell in `QUOTED_CELLS` (or a sentence holding a fragment in `QUOTED[cell]`) states comparisons that are what a
  claimed number is computed as ("20 of the 84 correct kernels are not faster", "5% slower than the oracle"): each such
  sentence must state a number that is a claim of its cell;
- every other flagged sentence is checked: the cell has at least as many `holds` checks (claims of kind "check") as
  such sentences, so a comparison added to a cell without its check fails;
- a declared cell or fragment that matches no flagged sentence fails as stale, so the declarations cannot hide a deleted
  or reworded sentence.

The lecturer's guide keeps the rule by phrase (tests/prose/guide.py: its `holds` phrases, `QUOTED` and `NOT_RESULTS`).
The checks are functions of the text, so the last tests show each one failing.
"""

from __future__ import annotations

import dataclasses
import importlib
import pathlib
import re
from dataclasses import dataclass, field
from types import ModuleType
from typing import Mapping

import pytest

import claims as registry_lib
import notebook_text as nt
import number_tokens as tk
from claims import Claim
from prose import phrasing

ROOT = pathlib.Path(__file__).resolve().parents[1]
NOTEBOOKS = {p.name[:2]: p for p in nt.notebook_paths()}
CONVERTED = registry_lib.converted()
GUIDE = ROOT / "docs" / "lecturer_guide.md"
BY_PHRASE = [("lecturer_guide", GUIDE)]  # a document whose numbers are phrases of tests/prose/, not claims


# ----- notebooks: declarations by cell


@dataclass(frozen=True)
class Declarations:
    """What a notebook's registry module declares about its comparative sentences (see the module docstring)."""

    not_results_cells: frozenset[str] = frozenset()
    not_results: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    quoted_cells: frozenset[str] = frozenset()
    quoted: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    @classmethod
    def of(cls, module: ModuleType) -> "Declarations":
        return cls(
            frozenset(getattr(module, "NOT_RESULTS_CELLS", ())),
            dict(getattr(module, "NOT_RESULTS", {})),
            frozenset(getattr(module, "QUOTED_CELLS", ())),
            dict(getattr(module, "QUOTED", {})),
        )


def flagged(cells: Mapping[str, str]) -> dict[str, list[str]]:
    """Return cell id -> its comparative sentences (whitespace collapsed), for the cells that have any."""
    found = {cell: [s.text for s in nt.comparative(text)] for cell, text in cells.items()}
    return {cell: sentences for cell, sentences in found.items() if sentences}


def _holding(sentences: list[str], fragments: tuple[str, ...]) -> list[str]:
    return [s for s in sentences if any(" ".join(f.split()) in s for f in fragments)]


def unchecked(cells: Mapping[str, str], claims: Mapping[str, Claim], declared: Declarations) -> list[str]:
    """Return a line for each cell with more undeclared comparative sentences than checks, and for each quoted
    sentence that states no claimed number of its cell (empty when every comparison is accounted for)."""
    checks: dict[str, int] = {}
    numbers: dict[str, set[str]] = {}
    for claim in claims.values():
        for cell in claim.cells:
            if claim.kind == "check":
                checks[cell] = checks.get(cell, 0) + 1
            else:
                numbers.setdefault(cell, set()).update(tk.value_numbers(claim.value or ""))
    found = []
    for cell, sentences in flagged(cells).items():
        if cell in declared.not_results_cells:
            continue
        rest = [s for s in sentences if s not in _holding(sentences, declared.not_results.get(cell, ()))]
        quoted = rest if cell in declared.quoted_cells else _holding(rest, declared.quoted.get(cell, ()))
        for s in quoted:
            if not set(tk.tokens(s, "en")) & numbers.get(cell, set()):
                found.append(f"{cell}: quoted, but states no claimed number: {s!r}")
        rest = [s for s in rest if s not in quoted]
        if len(rest) > checks.get(cell, 0):
            found.append(
                f"{cell}: {len(rest)} comparative sentence(s) to check, {checks.get(cell, 0)} holds check(s): "
                + " | ".join(repr(s) for s in rest)
            )
    return found


def stale(cells: Mapping[str, str], declared: Declarations) -> list[str]:
    """Return each declared cell or fragment that matches no comparative sentence (deleted, reworded, not flagged)."""
    sentences = flagged(cells)
    found = [
        f"{c}: declared, but has no comparative sentence" for c in declared.not_results_cells if c not in sentences
    ]
    found += [f"{c}: declared, but has no comparative sentence" for c in declared.quoted_cells if c not in sentences]
    for prefixes in (declared.not_results, declared.quoted):
        for cell, entries in prefixes.items():
            found += [
                f"{cell}: {p!r} is in no comparative sentence"
                for p in entries
                if not _holding(sentences.get(cell, []), (p,))
            ]
    return sorted(found)


def _cells(number: str) -> dict[str, str]:
    return {c.id: c.source for c in nt.cells(NOTEBOOKS[number]) if c.kind == "markdown"}


@pytest.mark.parametrize("number", CONVERTED)
def test_every_comparative_sentence_of_a_notebook_is_checked_or_declared(number):
    module = registry_lib.module(number)
    loose = unchecked(_cells(number), registry_lib.load(number), Declarations.of(module))
    assert not loose, (
        f"notebook {number}: comparative sentences without a `holds` check in tests/claims/nb{number}.py and not "
        "declared there (check the claim, rephrase it, or declare the cell if it compares no computed results):\n"
        + "\n".join(f"  {x}" for x in loose)
    )


@pytest.mark.parametrize("number", CONVERTED)
def test_every_declared_cell_still_compares(number):
    gone = stale(_cells(number), Declarations.of(registry_lib.module(number)))
    assert not gone, f"notebook {number}: stale declarations in tests/claims/nb{number}.py: {gone}"


# ----- the lecturer's guide: declarations by phrase


def _module(name: str) -> ModuleType:
    return importlib.import_module("prose.guide")


def _text(path: pathlib.Path) -> str:
    return path.read_text(encoding="utf-8")


def _squash(s: str) -> str:
    return " ".join(s.split())


def _checked_spans(text: str, checked: list[str]) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for phrase in checked for m in re.finditer(re.escape(phrase), text)]


def unchecked_phrases(text: str, checked: list[str], declared: list[str]) -> list[str]:
    """Return the flagged sentences of `text` that overlap no checked phrase and contain no declared fragment."""
    spans = _checked_spans(text, checked)
    fragments = [_squash(d) for d in declared]
    return [
        s.text
        for s in nt.comparative(text)
        if not any(a < s.end and s.start < b for a, b in spans) and not any(f in s.text for f in fragments)
    ]


def stale_phrases(text: str, declared: list[str]) -> list[str]:
    """Return the declared fragments that are in no flagged sentence of `text` (deleted, reworded or no longer flagged)."""
    flagged_ = [s.text for s in nt.comparative(text)]
    return [d for d in declared if not any(_squash(d) in s for s in flagged_)]


def unquoted(text: str, quoted: list[str], quotes: list[str]) -> list[str]:
    """Return the `quoted` fragments whose sentence overlaps none of `quotes` (its number is not recomputed)."""
    spans = _checked_spans(text, quotes)
    return [
        q
        for q in quoted
        for s in nt.comparative(text)
        if _squash(q) in s.text and not any(a < s.end and s.start < b for a, b in spans)
    ]


@pytest.mark.parametrize("name,path", BY_PHRASE, ids=[n for n, _ in BY_PHRASE])
def test_every_comparative_sentence_is_checked_or_declared(name, path):
    module = _module(name)
    loose = unchecked_phrases(_text(path), phrasing.checked_by(module), module.NOT_RESULTS + module.QUOTED)
    assert not loose, (
        f"{len(loose)} comparative sentence(s) with no `holds` check in {module.__name__} and not in its "
        "NOT_RESULTS (check the claim, rephrase it, or declare it if it compares no computed results):\n"
        + "\n".join(f"  {s!r}" for s in loose)
    )


@pytest.mark.parametrize("name,path", BY_PHRASE, ids=[n for n, _ in BY_PHRASE])
def test_every_declared_sentence_is_still_there(name, path):
    module = _module(name)
    gone = stale_phrases(_text(path), module.NOT_RESULTS + module.QUOTED)
    assert not gone, (
        f"NOT_RESULTS or QUOTED entries of {module.__name__} that match no comparative sentence (stale): {gone}"
    )


@pytest.mark.parametrize("name,path", BY_PHRASE, ids=[n for n, _ in BY_PHRASE])
def test_every_quoted_comparison_has_its_number_recomputed(name, path):
    module = _module(name)
    bare = unquoted(_text(path), module.QUOTED, list(module.quotes()))
    assert not bare, f"QUOTED entries of {module.__name__} whose sentence holds no quote: {bare}"


# ----- the checks bite: each failure the rule exists for, on a converted notebook's real text


@pytest.fixture(scope="module")
def notebook() -> tuple[dict[str, str], dict[str, Claim], Declarations]:
    number = CONVERTED[-1]
    return _cells(number), registry_lib.load(number), Declarations.of(registry_lib.module(number))


def _checked_cell(claims: Mapping[str, Claim], cells: Mapping[str, str], declared: Declarations) -> str:
    """A cell with holds checks that is not declared as a whole."""
    return next(
        c.cells[0]
        for c in claims.values()
        if c.kind == "check"
        and c.cells[0] in flagged(cells)
        and c.cells[0] not in declared.not_results_cells | declared.quoted_cells
    )


def test_an_added_unchecked_comparative_sentence_fails(notebook):
    cells, claims, declared = notebook
    assert not unchecked(cells, claims, declared)
    cell = _checked_cell(claims, cells, declared)
    added = [f"`fb_worst{k}` always ends below `full`." for k in range(1, 12)]
    changed = dict(cells, **{cell: cells[cell] + "\n\n" + " ".join(added)})
    [line] = unchecked(changed, claims, declared)
    assert line.startswith(f"{cell}: ") and added[-1] in line


def test_a_comparison_the_package_no_longer_computes_fails():
    with pytest.raises(AssertionError, match="no longer computes: full_ends_above"):
        registry_lib.holds(False, "full_ends_above", "nb06-12")


def test_a_declared_cell_whose_comparisons_are_gone_is_stale(notebook):
    cells, claims, declared = notebook
    assert not stale(cells, declared)
    cell = sorted(declared.not_results_cells)[0]
    assert stale(dict(cells, **{cell: "A definition."}), declared) == [
        f"{cell}: declared, but has no comparative sentence"
    ]
    prefixed = Declarations(declared.not_results_cells, {cell: ("A sentence no longer there",)})
    assert stale(cells, prefixed) == [f"{cell}: 'A sentence no longer there' is in no comparative sentence"]


def test_a_quoted_comparison_without_its_claimed_number_fails(notebook):
    cells, claims, declared = notebook
    cell = next(c for c in sorted(cells) if c not in flagged(cells))  # a cell that compares nothing yet
    quoted = dataclasses.replace(declared, quoted_cells=declared.quoted_cells | {cell})
    text = "Only 987 of the 1234 shapes are faster than the expert."
    lines = unchecked(dict(cells, **{cell: text}), claims, quoted)
    assert lines == [f"{cell}: quoted, but states no claimed number: {text!r}"]
