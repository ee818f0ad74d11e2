"""Every sentence of a notebook that compares computed results is checked, or says it is not such a claim.

A sentence that says "X ends above Y", "most seeds", "never catches up" makes a claim a changed model or seed can make
false while every number around it still matches. The rule:

- `notebook_text.comparative` flags each prose sentence with a comparative or quantifying word (above, below, more,
  than, most, never, beats, behind, ...; "every"/"all"/"same"/"only" when they quantify over seeds, runs, rows,
  variants or budgets). Code, math, headings, tables and directions on the page ("the cell below") are not prose.
- Each flagged sentence must contain (overlap) a phrase its prose module (`tests/prose/nbNN.py`, `tests/prose/guide.py`)
  asserted with `phrasing.holds(condition, phrase)` — the condition computes the comparison from toyhw for the seeds
  and budgets the sentence names —
- or contain one entry of the module's `QUOTED`: sentences whose comparison is what a quoted number is computed as
  ("20 of the 84 correct kernels are not faster", the 20 counting exactly those; "5% slower than the oracle", the 5%
  being the ratio minus one). Such a sentence must overlap one of the module's `quotes()`, so the number is recomputed
  and the comparison with it;
- or contain one entry of the module's `NOT_RESULTS`: sentences (or unique fragments of them) that are flagged but
  compare no computed results: definitions, instructions, questions to the student, figures cited from papers.
- A `QUOTED` or `NOT_RESULTS` entry that matches no flagged sentence fails as stale, so the lists cannot hide a deleted
  or reworded sentence.

The checks are functions of the text (`unchecked`, `stale`), so the last tests show each one failing.
"""

from __future__ import annotations

import importlib
import pathlib
import re
from types import ModuleType

import pytest

import notebook_text as nt
from prose import phrasing

ROOT = pathlib.Path(__file__).resolve().parents[1]
DOCUMENTS = [(p.stem, p) for p in nt.notebook_paths()] + [("lecturer_guide", ROOT / "docs" / "lecturer_guide.md")]


def _module(name: str) -> ModuleType:
    return importlib.import_module("prose.guide" if name == "lecturer_guide" else f"prose.nb{name[:2]}")


def _text(path: pathlib.Path) -> str:
    return path.read_text(encoding="utf-8") if path.suffix == ".md" else nt.markdown(path)


def _squash(s: str) -> str:
    return " ".join(s.split())


def _checked_spans(text: str, checked: list[str]) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for phrase in checked for m in re.finditer(re.escape(phrase), text)]


def unchecked(text: str, checked: list[str], declared: list[str]) -> list[str]:
    """Return the flagged sentences of `text` that overlap no checked phrase and contain no declared fragment."""
    spans = _checked_spans(text, checked)
    fragments = [_squash(d) for d in declared]
    return [
        s.text
        for s in nt.comparative(text)
        if not any(a < s.end and s.start < b for a, b in spans) and not any(f in s.text for f in fragments)
    ]


def stale(text: str, declared: list[str]) -> list[str]:
    """Return the declared fragments that are in no flagged sentence of `text` (deleted, reworded or no longer flagged)."""
    flagged = [s.text for s in nt.comparative(text)]
    return [d for d in declared if not any(_squash(d) in s for s in flagged)]


def unquoted(text: str, quoted: list[str], quotes: list[str]) -> list[str]:
    """Return the `quoted` fragments whose sentence overlaps none of `quotes` (its number is not recomputed)."""
    spans = _checked_spans(text, quotes)
    return [
        q
        for q in quoted
        for s in nt.comparative(text)
        if _squash(q) in s.text and not any(a < s.end and s.start < b for a, b in spans)
    ]


@pytest.mark.parametrize("name,path", DOCUMENTS, ids=[n for n, _ in DOCUMENTS])
def test_every_comparative_sentence_is_checked_or_declared(name, path):
    module = _module(name)
    loose = unchecked(_text(path), phrasing.checked_by(module), module.NOT_RESULTS + module.QUOTED)
    assert not loose, (
        f"{len(loose)} comparative sentence(s) with no `holds` check in {module.__name__} and not in its "
        "NOT_RESULTS (check the claim, rephrase it, or declare it if it compares no computed results):\n"
        + "\n".join(f"  {s!r}" for s in loose)
    )


@pytest.mark.parametrize("name,path", DOCUMENTS, ids=[n for n, _ in DOCUMENTS])
def test_every_declared_sentence_is_still_there(name, path):
    module = _module(name)
    gone = stale(_text(path), module.NOT_RESULTS + module.QUOTED)
    assert not gone, (
        f"NOT_RESULTS or QUOTED entries of {module.__name__} that match no comparative sentence (stale): {gone}"
    )


@pytest.mark.parametrize("name,path", DOCUMENTS, ids=[n for n, _ in DOCUMENTS])
def test_every_quoted_comparison_has_its_number_recomputed(name, path):
    module = _module(name)
    bare = unquoted(_text(path), module.QUOTED, list(module.quotes()))
    assert not bare, f"QUOTED entries of {module.__name__} whose sentence holds no quote: {bare}"


# ----- the checks bite: each failure the rule exists for, shown on notebook 06's real text

NB06 = next(p for p in nt.notebook_paths() if p.name.startswith("06"))


def test_an_unchecked_comparative_sentence_fails():
    module = _module(NB06.stem)
    text = _text(NB06) + "\n\n`fb_worst3` always ends below `full`.\n"
    assert unchecked(text, phrasing.checked_by(module), module.NOT_RESULTS + module.QUOTED) == [
        "`fb_worst3` always ends below `full`."
    ]


def test_a_flipped_checked_claim_fails():
    module = _module(NB06.stem)
    phrase = "A faster GPU moves the bound further than the kernel"
    assert phrase in phrasing.checked_by(module)
    text = _text(NB06).replace(phrase, phrase.replace("further", "less far"))
    assert any(
        "less far than the kernel" in s
        for s in unchecked(text, phrasing.checked_by(module), module.NOT_RESULTS + module.QUOTED)
    )
    with pytest.raises(AssertionError, match="no longer computes"):
        phrasing.holds(False, phrase)


def test_a_deleted_declared_sentence_is_stale():
    module = _module(NB06.stem)
    entry = "Does that hold for every seed you try?"
    assert entry in module.NOT_RESULTS and not stale(_text(NB06), module.NOT_RESULTS)
    assert stale(_text(NB06).replace(entry, ""), module.NOT_RESULTS) == [entry]


def test_a_quoted_comparison_without_its_quote_fails():
    module = _module(NB06.stem)
    assert unquoted(_text(NB06), module.QUOTED, []) != []
    assert unquoted(_text(NB06), module.QUOTED, list(module.quotes())) == []
