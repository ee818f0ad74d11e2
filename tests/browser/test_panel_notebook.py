"""The cells the JupyterLab test runs for a notebook's panels (panel_notebook.py): the Setup cell, the panels and
every earlier cell a panel's names come from, transitively; nothing else. No browser needed."""

from __future__ import annotations

import nbformat

from panel_notebook import panel_cells

SETUP = "from toyhw.panels import fastp as fastp_panels\nextra = {}"


def _notebook(*sources: str) -> nbformat.NotebookNode:
    cells = [nbformat.v4.new_code_cell(s) for s in sources]
    for k, cell in enumerate(cells):
        cell.id = f"c{k}"
    return nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Title"), *cells])


def test_a_panel_keeps_setup_and_the_cells_its_names_come_from_and_nothing_else():
    nb = _notebook(
        SETUP,
        "SEED = 3",  # read by the panel
        "table = fastp_panels.big_table()",  # read by nothing the panel needs
        "def mine(x):\n    return x + OFFSET",  # the panel's proposer ...
        "OFFSET = 1",  # ... reads this, inside its body
        "extra['mine'] = mine",  # changes a name the panel reads
        "%time print(table)",  # a magic: parsed without it, needed by nothing
        "# NBVAL_IGNORE_OUTPUT\nfastp_panels.feedback_panel(SEED, extra=extra)",
    )
    assert [c.id for c in panel_cells(nb)] == ["c0", "c1", "c3", "c4", "c5", "c7"]


def test_a_notebook_without_panels_runs_only_its_setup():
    nb = _notebook(SETUP, "x = 1", "print(x)")
    assert [c.id for c in panel_cells(nb)] == ["c0"]
