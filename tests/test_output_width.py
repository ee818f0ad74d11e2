"""No stored text output wider than a projector's line: 110 columns (display width, a CJK character counts two).

Counted: printed streams, text results that have no rich sibling (an HTML table or a figure shows instead of its
plain-text fallback) and are no widget's repr (the live panel shows instead), and code listings (IPython's `Code`,
e.g. notebook 04's printed `evolve`: its HTML is the same lines, highlighted, so its plain text is what shows).
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


def is_code_listing(data: dict) -> bool:
    """IPython.display.Code's output: Pygments' highlighted HTML and LaTeX of the lines its plain text holds."""
    html = source({"source": data.get("text/html", "")})
    return "text/latex" in data and 'class="highlight"' in html and not set(data) & (RICH - {"text/html"})


def text_lines(output: dict) -> list[str]:
    from website.notebook_view import is_widget_output

    if is_widget_output(output):  # a live panel shows instead of its repr (and the site drops the stored repr)
        return []
    if output.get("output_type") == "stream":
        return source({"source": output.get("text", "")}).splitlines()
    data = output.get("data", {})
    if output.get("output_type") in ("execute_result", "display_data") and (
        not set(data) & RICH or is_code_listing(data)
    ):
        return source({"source": data.get("text/plain", "")}).splitlines()
    return []


def test_text_lines_counts_only_what_is_shown():
    wide = "x" * 200
    assert text_lines({"output_type": "stream", "text": wide}) == [wide]
    assert text_lines({"output_type": "execute_result", "data": {"text/plain": wide, "text/html": "<p/>"}}) == []
    assert text_lines({"output_type": "execute_result", "data": {"text/plain": f"VBox(children=({wide}"}}) == []


def test_a_code_listing_counts_its_lines():
    from IPython.core.formatters import DisplayFormatter
    from IPython.display import Code

    wide = "x = " + "1" * 200
    data, _ = DisplayFormatter().format(Code(wide, language="python"))
    assert is_code_listing(data) and text_lines({"output_type": "execute_result", "data": data}) == [wide]
    assert not is_code_listing({"text/plain": "<Figure>", "text/html": "<table/>", "image/png": "..."})


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
