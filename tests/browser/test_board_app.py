"""The class leaderboard in the classroom app (issue 36): notebook 07's table cell, served by Voila as `make present
NB=07` serves it, shows the board's fixed rows and then, without a reload, a student's submission, in both editions
(the zh one in Chinese).

The app runs a throwaway notebook made of the edition's own leaderboard cells (the section's text and the table cell,
byte for byte as notebook 07 stores them, after the zh edition's language line), so the test takes seconds instead
of running notebook 07's demo; the board runs in this process on a free loopback port, and Voila's kernels find it
through TOYHW_BOARD_URL, as a hub's would.
"""

from __future__ import annotations

import pathlib
import secrets
import shutil
import time

import nbformat
import pytest

from servers import REPO, free_port, serve, voila_command
from widget_driver import CJK, NOTEBOOK_DIR, page_errors, wait_voila_rendered
from toyhw.course.board import client
from toyhw.course.board.board import Board
from toyhw.course.board.server import Listening
from toyhw.course.board.store import Store
from toyhw.evolve.programs import expert_program, render

NOTEBOOK = "07_checking_all_branches.ipynb"
EDITIONS = {"en": NOTEBOOK_DIR / NOTEBOOK, "zh": NOTEBOOK_DIR / "zh" / NOTEBOOK}
CELLS = ("nb07-board", "nb07-board-table")
UPDATE_TIMEOUT_S = 30.0


def _app_notebook(source: pathlib.Path, target: pathlib.Path) -> None:
    """Write the edition's leaderboard cells (after the zh language line) as a notebook of their own."""
    nb = nbformat.read(source, as_version=4)
    by_id = {c.get("id"): c for c in nb.cells}
    cells = [by_id[i] for i in CELLS]
    table = by_id["nb07-board-table"]
    assert "board.table()" in table.source, "notebook 07's table cell changed"
    setup = next(c for c in nb.cells if c.cell_type == "code")
    first = setup.source.splitlines()[0]
    if "TOYHW_LANG" in first:  # the zh edition's language line (tools/zh_edition.py)
        cells = [nbformat.v4.new_code_cell(first)] + cells
    out = nbformat.v4.new_notebook(metadata=nb.metadata)
    out.cells = [nbformat.from_dict(dict(c, outputs=[]) if c.cell_type == "code" else dict(c)) for c in cells]
    nbformat.write(out, target)


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    store = Store(tmp_path_factory.mktemp("board") / "board.sqlite3")
    with Listening(Board(store, wait=0), "127.0.0.1", 0) as served:
        yield served
    store.close()


@pytest.fixture(scope="module")
def app(browser, board, tmp_path_factory, artifacts):
    """Voila over the two throwaway notebooks, its kernels pointed at the board; stopped for good at the end."""
    base = tmp_path_factory.mktemp("board-voila")
    root = base / "root"
    (root / "notebooks").mkdir(parents=True)
    shutil.copy(REPO / "voila.json", root / "voila.json")
    for edition, path in EDITIONS.items():
        _app_notebook(path, root / "notebooks" / f"board_{edition}.ipynb")
    port = free_port()
    cmd = voila_command(root, port)
    yield from serve(cmd, base, root, port, "/", artifacts / "voila-board.log", env={"TOYHW_BOARD_URL": board.url})


def _table_text(page) -> str:
    return page.evaluate(
        "() => Array.from(document.querySelectorAll('table.toyhw-board')).map(t => t.innerText).join('\\n')"
    )


@pytest.mark.browser
@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_the_app_shows_the_table_and_a_new_submission_without_a_reload(edition, app, board, page, artifacts):
    page.goto(app.address(f"/voila/render/board_{edition}.ipynb"), timeout=120_000)
    wait_voila_rendered(page, 120)
    fixed = "专家" if edition == "zh" else "expert"
    page.wait_for_function(
        "word => Array.from(document.querySelectorAll('table.toyhw-board')).some(t => t.innerText.includes(word))",
        arg=fixed,
        timeout=30_000,
    )
    before = _table_text(page)
    heads = page.evaluate("() => Array.from(document.querySelectorAll('table.toyhw-board th')).map(e => e.innerText)")
    assert len(heads) == 4 and all(CJK.search(h) for h in heads) == (edition == "zh"), heads
    name = f"Browser {edition} {secrets.token_hex(3)}"
    verdict = client.submit(render(expert_program()), name=name, url=board.url, code=board.board.code)
    assert verdict.ok, verdict
    deadline = time.monotonic() + UPDATE_TIMEOUT_S
    while name not in _table_text(page):
        assert time.monotonic() < deadline, f"the table did not show {name!r} within {UPDATE_TIMEOUT_S:.0f} s"
        page.wait_for_timeout(250)
    page.screenshot(path=str(artifacts / f"voila-board-{edition}.png"))
    after = _table_text(page)
    assert name not in before and after.count("1.000") > before.count("1.000")
    shown = page.evaluate("() => document.body.innerText")  # the section's text, the table and its status line
    assert (CJK.search(shown) is not None) == (edition == "zh"), shown[:300]
    assert not page_errors(page)
    assert page.locator(".jp-InputArea-editor, .cm-editor").count() == 0, "the app shows code"
