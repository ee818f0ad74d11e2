"""Committed notebooks are stored as one clean top-to-bottom run, widget state stripped, no error outputs."""

import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import notebooks as notebook_tools  # noqa: E402

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted(
    (ROOT / "notebooks" / "zh").glob("*.ipynb")
)  # both editions


def test_there_are_notebooks():
    assert NOTEBOOKS, "notebooks/ holds no notebook"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.relative_to(ROOT / "notebooks").as_posix() for p in NOTEBOOKS])
def test_stored_as_one_clean_run(path):
    assert notebook_tools.problems(path) == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.relative_to(ROOT / "notebooks").as_posix() for p in NOTEBOOKS])
def test_widget_cells_are_marked_for_nbval(path):
    import nbformat

    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code" and "_panel(" in cell.source:
            assert cell.source.startswith("# NBVAL_IGNORE_OUTPUT"), cell.source[:80]
