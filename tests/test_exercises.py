"""Every exercise has a place to work: its own cell, a stub, a check, and a solution file that CI runs.

The structure is read from the stored notebooks here. What needs a kernel runs in nbval's own run of each notebook
(tests/notebook_solutions.py): the check cells' fresh outputs equal the stored ✗ lines this file requires, and after
the last cell the same kernel runs each solution section and its check, which must say ✓, and resolves the names the
prose tells a student to use.
"""

from __future__ import annotations

import ast
import pathlib

import pytest

from exercise_cells import (
    EXERCISE_TITLE,
    check_number,
    exercises,
    notebook_paths,
    number,
    output_text,
    read,
    solution_path,
    solution_sections,
    source,
    tags,
)
from toyhw.course.check import FAIL

NOTEBOOKS = notebook_paths()
IDS = [p.stem for p in NOTEBOOKS]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_exercises_are_numbered_titled_and_linked(path: pathlib.Path):
    found = exercises(path)
    assert found, f"{path.name} has no exercise cell (id nb{number(path)}-exK)"
    assert [e.number for e in found] == list(range(1, len(found) + 1)), f"{path.name}: exercises out of order"
    link = f"(solutions/{path.stem}.py)"
    for e in found:
        text = source(e.text)
        assert EXERCISE_TITLE.match(text.lstrip()), f"{path.name} exercise {e.number} does not open with its title"
        assert link in text, f"{path.name} exercise {e.number} does not link its solution file {link}"
        assert (e.stub is None) == (e.check is None), f"{path.name} exercise {e.number}: a stub needs a check"
        if not e.computable:
            assert "(think)" in e.title and "<summary>Answer</summary>" in text, (
                f"{path.name} exercise {e.number} has no check: it must be a (think) exercise with an answer to unfold"
            )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_stub_and_check_cells_follow_their_exercise(path: pathlib.Path):
    ids = [c.get("id") for c in read(path).cells]
    for e in exercises(path):
        if not e.computable:
            continue
        at = ids.index(e.text.id)
        assert ids[at + 1 : at + 3] == [e.stub.id, e.check.id], f"{path.name}: exercise {e.number}'s cells out of order"
        assert check_number(e.check) == e.number, (
            f"{path.name}: check cell {e.check.id} must be one call checks.exercise_{e.number}(...)"
        )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_stored_checks_say_the_stub_is_not_done(path: pathlib.Path):
    for e in exercises(path):
        if e.computable:
            shown = output_text(e.check).strip()
            assert shown.startswith(FAIL) and len(shown.splitlines()) == 1, (
                f"{path.name} exercise {e.number}: stored check output should be one ✗ line, is {shown!r}"
            )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_the_solution_file_has_a_section_per_computable_exercise(path: pathlib.Path):
    file = solution_path(path)
    assert file.exists(), f"{path.name}: no solution file {file.relative_to(file.parents[2])}"
    sections = solution_sections(path)
    computable = {e.number for e in exercises(path) if e.computable}
    assert set(sections) >= computable, f"{file.name}: no section for exercises {sorted(computable - set(sections))}"
    assert set(sections) <= {e.number for e in exercises(path)}, f"{file.name}: sections for missing exercises"
    for k, code in sections.items():
        ast.parse(code, filename=f"{file.name} exercise {k}")
    assert ast.get_docstring(ast.parse(file.read_text())), f"{file.name} opens with no docstring"


def test_no_solution_code_in_the_library():
    root = pathlib.Path(__file__).resolve().parents[1] / "toyhw"
    left = sorted(str(p.relative_to(root)) for p in root.rglob("solutions*.py"))
    assert not left, f"solution modules still in the package (they belong in notebooks/solutions/): {left}"


def test_check_lines_fit_the_projector():
    for path in NOTEBOOKS:
        for e in exercises(path):
            if e.computable:
                assert all(len(line) <= 110 for line in output_text(e.check).splitlines()), (path.name, e.number)


def test_exercise_cells_are_tagged_for_lab_only():
    for path in NOTEBOOKS:
        for e in exercises(path):
            for cell in (e.text, e.stub, e.check):
                if cell is not None:
                    assert "lab-only" in tags(cell), (path.name, cell.get("id"))
