"""No stored text output wider than a projector's line: 110 columns (display width, a CJK character counts two).

Counted: printed streams, and text results that have no rich sibling (an HTML table or a figure shows instead of its
plain-text fallback) and are no widget's repr (the live panel shows instead).
"""

from __future__ import annotations

import pathlib

import pytest

from exercise_cells import NOTEBOOKS as NOTEBOOK_DIR, notebook_paths, read, source
from toyhw.textwidth import display_width

NOTEBOOKS = notebook_paths() + sorted((NOTEBOOK_DIR / "zh").glob("[0-9][0-9]_*.ipynb"))
"""Both editions: a Chinese line is as wide as its display columns, so the zh notebooks are held to the same 110."""
MAX_COLUMNS = 110
RICH = {"text/html", "image/png", "image/svg+xml", "application/vnd.jupyter.widget-view+json"}


def text_lines(output: dict) -> list[str]:
    from website.notebook_view import is_widget_output

    if is_widget_output(output):  # a live panel shows instead of its repr (and the site drops the stored repr)
        return []
    if output.get("output_type") == "stream":
        return source({"source": output.get("text", "")}).splitlines()
    data = output.get("data", {})
    if output.get("output_type") in ("execute_result", "display_data") and not set(data) & RICH:
        return source({"source": data.get("text/plain", "")}).splitlines()
    return []


def test_text_lines_counts_only_what_is_shown():
    wide = "x" * 200
    assert text_lines({"output_type": "stream", "text": wide}) == [wide]
    assert text_lines({"output_type": "execute_result", "data": {"text/plain": wide, "text/html": "<p/>"}}) == []
    assert text_lines({"output_type": "execute_result", "data": {"text/plain": f"VBox(children=({wide}"}}) == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.relative_to(NOTEBOOK_DIR).as_posix() for p in NOTEBOOKS])
def test_no_output_line_is_wider_than_the_projector(path: pathlib.Path):
    wide = [
        (cell.get("id"), display_width(line))
        for cell in read(path).cells
        if cell.cell_type == "code"
        for output in cell.get("outputs", [])
        for line in text_lines(output)
        if display_width(line) > MAX_COLUMNS
    ]
    assert not wide, f"{path.name}: {len(wide)} output lines wider than {MAX_COLUMNS} columns, e.g. {wide[:5]}"
