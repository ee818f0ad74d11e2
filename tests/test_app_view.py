"""One notebook, three readers: the app (Voila) shows no instruction to run code and no figure twice; Lab and the
stored notebook keep the Setup instructions and the static views.

What the app hides comes from voila.json through nbconvert's own TagRemovePreprocessor (tests/exercise_cells.py), the
mechanism Voila runs before it executes a notebook; the browser test (tests/browser/test_voila.py) sees the result.
"""

from __future__ import annotations

import ast
import copy
import pathlib
import re

import nbformat
import pytest

from exercise_cells import (
    INSTRUCTION,
    ZH_INSTRUCTION,
    app_cells,
    exercises,
    hidden_tags,
    notebook_paths,
    read,
    source,
    tags,
)

NOTEBOOKS = notebook_paths()
IDS = [p.stem for p in NOTEBOOKS]

_FENCE = re.compile(r"```.*?```", re.S)
_DETAILS = re.compile(r"<details>.*?</details>", re.S)


def _visible_text(cell: dict) -> str:
    """The text a room reads in a shown markdown cell: fenced listings are code shown, not sentences to follow."""
    return _FENCE.sub("", source(cell))


def test_voila_json_drops_lab_only_and_static_view_cells():
    assert hidden_tags() == {"lab-only", "static-view"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_the_app_tells_no_one_to_run_code(path: pathlib.Path):
    found = [
        (cell.get("id"), m.group(0))
        for cell in app_cells(read(path))
        if cell.cell_type == "markdown"
        for m in INSTRUCTION.finditer(_visible_text(cell))
    ]
    assert not found, f"{path.name}: shown in the app, these tell the room to act on code: {found}"


def _is_widget_cell(cell: dict) -> bool:
    from website.notebook_view import is_widget_output

    return cell.cell_type == "code" and any(is_widget_output(o) for o in cell.get("outputs", []))


def _has_figure(cell: dict) -> bool:
    return any(set(o.get("data", {})) & {"image/png", "image/svg+xml", "text/html"} for o in cell.get("outputs", []))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_every_panel_has_its_static_view_just_above_it(path: pathlib.Path):
    """The stored notebook (and the site) shows the static view where the panel needs a kernel; the app drops the
    static view and shows the panel: so each panel's nearest code cell above is a tagged static view with a figure."""
    cells = read(path).cells
    missing = []
    for i, cell in enumerate(cells):
        if not _is_widget_cell(cell) or "static-view" in tags(cell) or "lab-only" in tags(cell):
            continue
        above = next((c for c in reversed(cells[:i]) if c.cell_type == "code"), None)
        if above is None or "static-view" not in tags(above) or not _has_figure(above):
            missing.append(cell.get("id"))
    assert not missing, f"{path.name}: panels without a static view tagged just above them: {missing}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_static_views_are_followed_by_their_panel(path: pathlib.Path):
    cells = read(path).cells
    lonely = []
    for i, cell in enumerate(cells):
        if "static-view" in tags(cell):
            after = next((c for c in cells[i + 1 :] if c.cell_type == "code"), None)
            if after is None or not _is_widget_cell(after):
                lonely.append(cell.get("id"))
    assert not lonely, f"{path.name}: static views with no panel after them (the app would lose the result): {lonely}"


def _names(code: str) -> tuple[set[str], set[str]]:
    """(names bound, names read) by a code cell, from its syntax tree (IPython magics and shell lines skipped)."""
    code = "\n".join(line for line in code.splitlines() if not line.lstrip().startswith(("%", "!")))
    tree = ast.parse(code)
    bound, read_ = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (bound if isinstance(node.ctx, ast.Store) else read_).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
    return bound, read_


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_the_app_runs_without_the_cells_it_hides(path: pathlib.Path):
    """Voila never runs a hidden cell: no shown code cell may read a name that only a hidden cell binds."""
    hidden = hidden_tags()
    only_hidden: set[str] = set()
    bound_shown: set[str] = set()
    broken = []
    for cell in read(path).cells:
        if cell.cell_type != "code":
            continue
        bound, reads = _names(source(cell))
        if set(tags(cell)) & hidden:
            only_hidden |= bound - bound_shown
            continue
        broken += [(cell.get("id"), name) for name in sorted(reads & only_hidden - bound)]
        bound_shown |= bound
        only_hidden -= bound
    assert not broken, f"{path.name}: shown cells read names bound only in hidden cells: {broken}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_lab_keeps_the_setup_instructions(path: pathlib.Path):
    setup = [
        c
        for c in read(path).cells
        if c.cell_type == "markdown" and "lab-only" in tags(c) and re.search(r"\bRun the cells?\b", source(c))
    ]
    assert setup, f"{path.name}: no lab-only cell tells a student in Lab to run the Setup cell"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_exercises_are_lab_only(path: pathlib.Path):
    shown = [
        cell.get("id")
        for e in exercises(path)
        for cell in (e.text, e.stub, e.check)
        if cell is not None and "lab-only" not in tags(cell)
    ]
    assert not shown, f"{path.name}: exercise cells the app would show: {shown}"


ZH_NOTEBOOKS = [p.parent / "zh" / p.name for p in NOTEBOOKS]
TECHNICAL = re.compile(r"^env: \w+=", re.M)
"""What IPython's `%env NAME=value` prints: a line the room would read above the Setup cell's results."""


def _shown_outputs(nb) -> list[tuple[str, str]]:
    """(cell id, text) of every stored stream or text output of a code cell the app shows."""
    found = []
    for cell in app_cells(nb):
        if cell.cell_type != "code":
            continue
        for output in cell.get("outputs", []):
            text = output.get("text") or output.get("data", {}).get("text/plain", "")
            found.append((cell.get("id"), text if isinstance(text, str) else "".join(text)))
    return found


@pytest.mark.parametrize(
    "path", NOTEBOOKS + ZH_NOTEBOOKS, ids=[f"{p.parent.name}/{p.stem[:2]}" for p in NOTEBOOKS + ZH_NOTEBOOKS]
)
def test_the_app_shows_no_environment_line(path: pathlib.Path):
    found = [cell for cell, text in _shown_outputs(read(path)) if TECHNICAL.search(text)]
    assert not found, f"{path.parent.name}/{path.name}: the app shows an 'env:' line under cells {found}"


@pytest.mark.parametrize(
    "path", NOTEBOOKS + ZH_NOTEBOOKS, ids=[f"{p.parent.name}/{p.stem[:2]}" for p in NOTEBOOKS + ZH_NOTEBOOKS]
)
def test_the_apps_printed_outputs_tell_no_one_to_run_code(path: pathlib.Path):
    """What the app's code cells print, read from the stored outputs nbval keeps equal to a fresh run (the Voila test
    renders only the panels' cells, so this is where the demos' printed lines are read)."""
    found = _printed_instructions(read(path))
    assert not found, f"{path.name}: printed in the app, these tell the room to act on code: {found}"


def _printed_instructions(nb) -> list[tuple[str, str]]:
    return [
        (cell, m.group(0))
        for cell, text in _shown_outputs(nb)
        for pattern in (INSTRUCTION, ZH_INSTRUCTION)
        for m in pattern.finditer(text)
    ]


def test_a_printed_instruction_in_either_language_is_found():
    nb = read(NOTEBOOKS[0])
    code = next(c for c in app_cells(nb) if c.cell_type == "code")
    for line in ("Now re-run the cell above.", "请重新运行上面的单元格。"):
        planted = copy.deepcopy(nb)
        cell = next(c for c in planted.cells if c.get("id") == code.get("id"))
        cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=line + "\n")]
        assert _printed_instructions(planted), line


def test_the_zh_language_line_sets_the_language_and_prints_nothing(monkeypatch: pytest.MonkeyPatch, capsys):
    """The one line the zh edition adds to Setup (tools/zh_edition.py), run as IPython runs a cell's line."""
    import sys

    from IPython.core.inputtransformer2 import TransformerManager

    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tools"))
    import zh_edition

    monkeypatch.setenv("TOYHW_LANG", "en")  # recorded, so the line's setting is undone after the test
    monkeypatch.delenv("TOYHW_LANG")
    code = TransformerManager().transform_cell(zh_edition.LANGUAGE_LINE)
    exec(compile(code, "<setup>", "exec"), {})  # a magic would need get_ipython(): the line must be plain Python
    assert __import__("os").environ["TOYHW_LANG"] == "zh"
    assert capsys.readouterr().out == ""
