"""Every number the notebooks' prose states is a claim the package computes, in both editions (tests/claims/).

For each notebook with a registry (tests/claims/nbNN.py) and each edition (notebooks/, notebooks/zh/):

- each claim's value is one of the numbers of each cell it names (the tokens of number_tokens: "1.148" is not found
  inside "11.148"), so a changed model or seed fails in every edition at once;
- every number of every markdown cell (outside number_tokens.EXEMPT: code, math, headings, timing lines, references)
  is the value of a claim of that cell, so a number nobody computes, or one mistyped in a translation, fails;
- claim ids are unique and every claim's cells exist in both editions.

A reworded or translated sentence with the same numbers passes: the registry holds numbers, not sentences. The last
tests show each check failing on a changed copy of the text.
"""

from __future__ import annotations

import pathlib
from typing import Mapping

import pytest

import claims as registry_lib
import notebook_text as nt
import number_tokens as tk
from claims import Claim

CONVERTED = registry_lib.converted()
PATHS = {p.name[:2]: p for p in nt.notebook_paths()}
CASES = [(n, e) for n in CONVERTED for e in tk.EDITIONS]
CASE_IDS = [f"{n}-{e}" for n, e in CASES]


def edition_path(number: str, edition: str) -> pathlib.Path:
    """Return notebook `number`'s file in `edition` (the zh edition keeps the English file names and cell ids)."""
    path = PATHS[number]
    return path if edition == "en" else path.parent / "zh" / path.name


def markdown_cells(path: pathlib.Path) -> dict[str, str]:
    """Return cell id -> source of the notebook's markdown cells."""
    return {c.id: c.source for c in nt.cells(path) if c.kind == "markdown"}


def value_numbers(claim: Claim) -> list[str]:
    """Return the numbers of a claim's value, as the tokenizer cuts them (a list value has several)."""
    return tk.value_numbers(claim.value or "")


def misstated(cells: Mapping[str, str], claims: Mapping[str, Claim], edition: str) -> list[str]:
    """Return a line for each claim whose value is not among the numbers of one of its cells (empty when all are)."""
    found = []
    for claim in claims.values():
        if claim.value is None:
            continue
        wanted = value_numbers(claim)
        if not wanted:
            found.append(f"claim {claim.id}: value {claim.value!r} holds no number")
            continue
        for cell in claim.cells:
            if cell not in cells:
                found.append(f"claim {claim.id}: no markdown cell {cell}")
                continue
            stated = set(tk.tokens(cells[cell], edition))
            missing = [n for n in wanted if n not in stated]
            if missing:
                found.append(
                    f"{cell}: claim {claim.id} = {claim.value!r} is not stated (missing {missing}; the cell states "
                    f"{sorted(stated)})"
                )
    return found


def unclaimed(cells: Mapping[str, str], claims: Mapping[str, Claim], edition: str) -> list[str]:
    """Return a line for each number of the prose that is the value of no claim of its cell (empty when none is)."""
    values: dict[str, set[str]] = {}
    for claim in claims.values():
        for cell in claim.cells:
            values.setdefault(cell, set()).update(value_numbers(claim) if claim.value else ())
    found = []
    for cell, text in cells.items():
        for start, end, number in tk.spans(text, edition):
            if number not in values.get(cell, ()):
                context = text[max(0, start - 40) : end + 30].replace("\n", " ")
                found.append(f"{cell}: {number!r} in '...{context}...'")
    return found


@pytest.fixture(scope="module", params=CASES, ids=CASE_IDS)
def case(request) -> tuple[str, str, dict[str, str], dict[str, Claim]]:
    number, edition = request.param
    return number, edition, markdown_cells(edition_path(number, edition)), registry_lib.load(number)


def test_every_claim_is_stated_in_its_cells(case):
    number, edition, cells, claims = case
    wrong = misstated(cells, claims, edition)
    assert not wrong, (
        f"notebook {number} ({edition}): {len(wrong)} claim(s) whose value its cell does not state (the prose was "
        f"edited, or the package computes another number now):\n" + "\n".join(f"  {w}" for w in wrong)
    )


def test_every_number_of_the_prose_is_a_claim(case):
    number, edition, cells, claims = case
    loose = unclaimed(cells, claims, edition)
    assert not loose, (
        f"notebook {number} ({edition}): {len(loose)} number(s) that no claim of their cell computes (add a claim to "
        f"tests/claims/nb{number}.py, or correct the number):\n" + "\n".join(f"  {x}" for x in loose)
    )


def test_every_notebook_has_a_registry():
    assert sorted(PATHS) == CONVERTED, f"notebooks without tests/claims/nbNN.py: {sorted(set(PATHS) - set(CONVERTED))}"


@pytest.mark.parametrize("number", CONVERTED)
def test_claim_ids_are_unique_and_their_cells_exist_in_both_editions(number):
    items = registry_lib.listed(number)
    merged = registry_lib.registry(items)  # raises on an id given twice with two values
    assert len({c.id for c in items}) == len(merged)
    for edition in tk.EDITIONS:
        cells = markdown_cells(edition_path(number, edition))
        absent = sorted({cell for c in merged.values() for cell in c.cells if cell not in cells})
        assert not absent, f"notebook {number} ({edition}): claims name cells it has no markdown cell for: {absent}"


# ----- the checks bite: on a changed copy of a real notebook's text, never the stored notebooks


@pytest.fixture(scope="module")
def first() -> tuple[str, dict[str, Claim]]:
    number = CONVERTED[0]
    return number, registry_lib.load(number)


def _a_result(claims: dict[str, Claim], cells: dict[str, str]) -> tuple[Claim, str]:
    """A computed claim with one number, and a cell that states it once."""
    for claim in claims.values():
        if claim.kind == "result" and len(value_numbers(claim)) == 1:
            for cell in claim.cells:
                if tk.tokens(cells[cell], "en").count(value_numbers(claim)[0]) == 1:
                    return claim, cell
    raise AssertionError("no single-number result claim stated once in its cell")


def _changed_digit(text: str, number: str, edition: str) -> str:
    """Return `text` with the last digit of its one prose `number` changed (a result mistyped, or recomputed)."""
    start, end, _ = next(s for s in tk.spans(text, edition) if s[2] == number)
    token = text[start:end]
    at = max(i for i, ch in enumerate(token) if ch.isdigit())
    digit = "3" if token[at] != "3" else "4"
    return text[:start] + token[:at] + digit + token[at + 1 :] + text[end:]


@pytest.mark.parametrize("edition", tk.EDITIONS)
def test_a_changed_digit_of_a_result_fails_in_either_edition(first, edition):
    number, claims = first
    cells = markdown_cells(edition_path(number, edition))
    claim, cell = _a_result(claims, markdown_cells(edition_path(number, "en")))
    assert not misstated(cells, claims, edition) and not unclaimed(cells, claims, edition)
    changed = dict(cells, **{cell: _changed_digit(cells[cell], value_numbers(claim)[0], edition)})
    assert any(claim.id in line for line in misstated(changed, claims, edition))
    assert any(line.startswith(f"{cell}: ") for line in unclaimed(changed, claims, edition))


def test_a_changed_package_value_fails(first):
    number, claims = first
    cells = markdown_cells(edition_path(number, "zh"))
    claim, cell = _a_result(claims, markdown_cells(edition_path(number, "en")))
    wrong = claim.value[:-1] + ("3" if claim.value[-1] != "3" else "4") if claim.value[-1].isdigit() else "12345.6"
    recomputed = dict(claims, **{claim.id: Claim(claim.id, claim.cells, wrong, claim.kind)})
    assert any(claim.id in line for line in misstated(cells, recomputed, "zh"))


def test_an_unclaimed_number_fails_and_a_reworded_sentence_passes(first):
    number, claims = first
    cells = markdown_cells(edition_path(number, "zh"))
    claim, cell = _a_result(claims, markdown_cells(edition_path(number, "en")))
    added = dict(cells, **{cell: cells[cell] + "\n\n另外还有 987.65 个。"})
    [line] = unclaimed(added, claims, "zh")
    assert line.startswith(f"{cell}: '987.65' in '...") and "另外还有 987.65 个" in line
    reworded = dict(cells, **{cell: f"换一种说法：{claim.value}。\n\n" + cells[cell]})
    assert not misstated(reworded, claims, "zh") and not unclaimed(reworded, claims, "zh")


def test_numbers_are_tokens_as_written():
    assert tk.tokens("11.148 and 1,000 and 19.0% and 2.5× and 85%-89%") == [
        "11.148",
        "1,000",
        "19.0%",
        "2.5×",
        "85%",
        "89%",
    ]
    assert "1.148" not in tk.tokens("11.148")
    assert tk.tokens("第 3 节说：共3个，rank 6th，2025 年 6 月", "zh") == ["3", "6"]
    assert tk.tokens("Section 3 of notebook 02 (Think! 1), `x = 5`, $2^{10}$, H100, 2025") == []
