"""A notebook's panels and what they need: the cells the JupyterLab test runs instead of the whole notebook.

Why: nbval already runs every cell of every notebook in a kernel and compares its outputs; what only a browser can
check is the panels (their widgets render, every control redraws its chart as chart.js, the static view above each is
its first drawing). Running the other cells in Lab again (notebook 03's 36 code cells, of which its panel needs 2)
bought minutes of CI for nothing the kernel run does not see. A cell the pack marks as a widget cell runs even when
no panel needs it (notebook 04's study cell, whose output is a progress bar).

The cells run are, in their order: the Setup cell (the first code cell: imports, and the zh edition's language line),
each panel cell (the pack's convention: `# NBVAL_IGNORE_OUTPUT` and a panel, see widget_driver), and every earlier code
cell that defines or changes (`d[k] = v`, `d.update(...)`) a name those cells use, transitively. They run in the opened notebook itself (one page, one kernel),
so the static view stored right above each panel stays where the test compares the panel's first drawing with it.
"""

from __future__ import annotations

import ast
import builtins
import pathlib
import re

import nbformat

from exercise_cells import hidden_tags
from widget_driver import is_panel_source

_MAGIC = re.compile(r"^\s*[%!].*$", re.M)
_MUTATORS = {"append", "extend", "insert", "update", "setdefault", "add", "pop", "remove", "clear"}


def _parsed(source: str) -> ast.Module:
    return ast.parse(_MAGIC.sub("", source))


def _defined(tree: ast.Module) -> set[str]:
    """Names a cell binds or changes (assignments, also into an item or attribute of a name, imports, functions,
    classes, loop and with targets, and a method called on a name as a statement: `extra.append(...)`)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.ctx, ast.Store):
            base = node.value
            while isinstance(base, (ast.Subscript, ast.Attribute)):
                base = base.value
            if isinstance(base, ast.Name):
                names.add(base.id)
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            func = node.value.func
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.attr in _MUTATORS:
                names.add(func.value.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    return names


def _used(tree: ast.Module) -> set[str]:
    """Names a cell reads that are not Python's own."""
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)} - set(
        dir(builtins)
    )


def panel_cells(nb: nbformat.NotebookNode) -> list:
    """The code cells of `nb` the test runs (see the module's docstring), in the notebook's order.

    Until nothing changes: keep every cell that defines or changes a name a kept cell reads. Not a single walk up: a
    function reads its globals when it is called, so `OFFSET = 1` below `def mine(): ... OFFSET` is needed too."""
    code = [c for c in nb.cells if c.cell_type == "code"]
    trees = {id(c): _parsed(c.source) for c in code}
    keep = {id(code[0])} | {id(c) for c in code if is_panel_source(c.source)}
    while True:
        needed = set().union(*(_used(trees[i]) for i in keep))
        more = {id(c) for c in code if id(c) not in keep and _defined(trees[id(c)]) & needed}
        if not more:
            return [c for c in code if id(c) in keep]
        keep |= more


def panel_cell_indices(path: pathlib.Path) -> list[int]:
    """The positions (among all the notebook's cells, as JupyterLab counts them) of the cells the test runs."""
    nb = nbformat.read(path, as_version=4)
    kept = {c.id for c in panel_cells(nb)}
    return [i for i, c in enumerate(nb.cells) if c.get("id") in kept]


def app_test_notebook(path: pathlib.Path) -> nbformat.NotebookNode:
    """The notebook the Voila test renders as an app: every markdown cell, every cell the app hides (voila.json's
    tags: Voila still drops them, so the test still sees that no static view or exercise reaches the room), and of the
    code cells the app runs, only the panels and the cells they need (panel_cells).

    Why: Voila runs the notebook before it sends the page, and most of its code cells are demos whose outputs nbval
    compares; the app's other promises about them are read from the stored outputs (tests/test_app_view.py: no
    instruction to run code, no environment line). What only a browser shows is the panels."""
    nb = nbformat.read(path, as_version=4)
    kept = {c.id for c in panel_cells(nb)}
    hidden = hidden_tags()
    nb.cells = [
        c
        for c in nb.cells
        if c.cell_type != "code" or c.id in kept or hidden & set(c.get("metadata", {}).get("tags", []))
    ]
    return nb
