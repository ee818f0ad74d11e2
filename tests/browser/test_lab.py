"""Every notebook in a real JupyterLab and Chromium: run all cells, no errors, every widget panel redraws.

Run just these with `.venv/bin/python -m pytest -m browser`; screenshots land in test-artifacts/lab-*.png.
"""

from __future__ import annotations

import json
import pathlib
import time
import urllib.error
import urllib.request

import pytest

from widget_driver import (
    CJK,
    exercise_panels,
    has_widget_cells,
    is_chinese_edition,
    notebook_id,
    notebooks,
    page_errors,
    served_name,
)

NOTEBOOKS = notebooks()
RUN_ALL_TIMEOUT = 300.0  # seconds; each notebook runs in well under a minute
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"

_OPENED = """(name) => {
  const app = window.jupyterapp;
  const w = app && app.shell.currentWidget;
  return !!(w && w.sessionContext && w.content && w.context && w.context.path.endsWith(name));
}"""

_KERNEL_IDLE = """async () => {
  const w = window.jupyterapp.shell.currentWidget;
  await w.context.ready;
  await w.sessionContext.ready;
  const deadline = Date.now() + 90000;
  let k = null;
  while (Date.now() < deadline) {
    k = w.sessionContext.session && w.sessionContext.session.kernel;
    if (k && k.connectionStatus === 'connected' && k.status === 'idle') return 'idle';
    await new Promise(r => setTimeout(r, 200));
  }
  return k ? k.status + ' / ' + k.connectionStatus : 'no kernel';
}"""

_RUN_ALL = """() => {
  window.toyhwRun = {done: false, result: null};
  window.jupyterapp.commands.execute('notebook:run-all-cells').then(
    r => { window.toyhwRun = {done: true, result: String(r)}; },
    e => { window.toyhwRun = {done: true, result: 'rejected: ' + e}; });
}"""

_PROGRESS = """() => {
  const w = window.jupyterapp.shell.currentWidget;
  const prompts = Array.from(w.node.querySelectorAll('.jp-InputArea-prompt')).map(p => p.innerText);
  const k = w.sessionContext.session && w.sessionContext.session.kernel;
  return {done: window.toyhwRun.done, busy: prompts.filter(t => t.includes('*')).length,
          kernel: k ? k.status : 'none'};
}"""

_CELL_PROBLEMS = """(widgetMime) => {
  const w = window.jupyterapp.shell.currentWidget;
  const problems = [];
  let widgetViews = 0;
  w.content.widgets.forEach((cell, i) => {
    if (cell.model.type !== 'code') return;
    const tags = cell.model.getMetadata('tags') || [];
    if (tags.includes('raises-exception')) cell.node.setAttribute('data-toyhw-expected-error', '1');
    if (cell.model.sharedModel.getSource().trim() && cell.model.executionCount === null)
      problems.push(`cell ${i + 1}: not executed`);
    for (const o of cell.model.outputs.toJSON()) {
      if (o.output_type === 'error' && !tags.includes('raises-exception'))
        problems.push(`cell ${i + 1}: ${o.ename}: ${o.evalue}`);
      if (o.data && o.data[widgetMime]) widgetViews += 1;
    }
  });
  const rendered = Array.from(w.node.querySelectorAll('.jupyter-widgets')).filter(el =>
    !(el.parentElement && el.parentElement.closest('.jupyter-widgets')));
  return {problems, widgetViews, renderedViews: rendered.length};
}"""


def _run_all(page) -> None:
    page.evaluate(_RUN_ALL)
    deadline = time.monotonic() + RUN_ALL_TIMEOUT
    quiet = 0
    while quiet < 3:  # finished: the command resolved, no [*] prompt and an idle kernel, three polls in a row
        if time.monotonic() > deadline:
            raise AssertionError(f"cells still running after {RUN_ALL_TIMEOUT:.0f} s: {page.evaluate(_PROGRESS)}")
        page.wait_for_timeout(250)
        progress = page.evaluate(_PROGRESS)
        quiet = quiet + 1 if progress["done"] and not progress["busy"] and progress["kernel"] == "idle" else 0


def _rendered(page, timeout: float = 30.0) -> dict:
    """Wait until every widget view in the notebook has rendered; return _CELL_PROBLEMS' findings."""
    deadline = time.monotonic() + timeout
    cells = page.evaluate(_CELL_PROBLEMS, WIDGET_MIME)
    while cells["renderedViews"] < cells["widgetViews"] and time.monotonic() < deadline:
        page.wait_for_timeout(200)
        cells = page.evaluate(_CELL_PROBLEMS, WIDGET_MIME)
    page.wait_for_timeout(500)  # let the panels' first figures arrive
    return cells


@pytest.mark.browser
def test_lab_refuses_requests_without_its_token(lab_server):
    """Another user of the machine, who does not know the random token, cannot reach the kernels."""
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{lab_server.url}/api/kernels", timeout=30)
    assert refused.value.code == 403
    with urllib.request.urlopen(lab_server.address("/api/kernels"), timeout=30) as resp:
        assert resp.status == 200


@pytest.mark.browser
def test_lab_starts_without_news_or_update_popups(lab_server, page):
    """The pack's settings override answers JupyterLab's news question (never) and turns off its update check."""
    url = lab_server.address("/lab/api/settings/@jupyterlab/apputils-extension:notification")
    with urllib.request.urlopen(url, timeout=30) as resp:
        defaults = {name: prop.get("default") for name, prop in json.load(resp)["schema"]["properties"].items()}
    assert (defaults["fetchNews"], defaults["checkForUpdates"]) == ("false", False)
    page.goto(lab_server.address("/lab?reset"))
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell.currentWidget", timeout=90_000)
    page.wait_for_timeout(3000)  # the news question shows a few seconds after start-up
    toasts = page.locator(".Toastify__toast").all_inner_texts()
    assert not toasts, f"pop-ups at start-up: {toasts}"


@pytest.mark.browser
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[notebook_id(p) for p in NOTEBOOKS])
def test_notebook_in_jupyterlab(path: pathlib.Path, lab_server, page, artifacts: pathlib.Path) -> None:
    """Open the notebook, run all cells, see no error, move every control of every panel and see each redraw."""
    start = time.monotonic()
    page.goto(lab_server.address(f"/lab/tree/notebooks/{served_name(path)}?reset"))
    try:
        page.wait_for_function(_OPENED, arg=path.name, timeout=90_000)
        assert page.evaluate(_KERNEL_IDLE) == "idle"
        page.evaluate("() => window.jupyterapp.commands.execute('application:toggle-left-area')")  # room for plots
        _run_all(page)
        cells = _rendered(page)
        ran = time.monotonic() - start
        problems = cells["problems"] + page_errors(page)
        page.screenshot(path=str(artifacts / f"lab-{notebook_id(path).replace('/', '-')}.png"))
        assert not problems, f"{path.name} shows errors after running all cells:\n" + "\n".join(problems)
        assert cells["renderedViews"] == cells["widgetViews"], f"widget views rendered / expected: {cells}"
        moves = exercise_panels(page, artifacts, f"lab-{notebook_id(path).replace('/', '-')}")
        if has_widget_cells(path):
            assert moves, f"{path.name} has widget cells but no panel (controls plus an Output) was found"
        assert not page_errors(page)
        if is_chinese_edition(path) and has_widget_cells(path):
            labels = page.evaluate(
                "() => Array.from(document.querySelectorAll('.widget-label, .widget-dropdown "
                "option, .widget-button, .widget-toggle-button')).map(e => e.innerText).join(' ')"
            )
            assert CJK.search(labels), f"{served_name(path)}: no Chinese widget label on screen: {labels[:200]!r}"
        print(
            f"\n{path.name}: opened and ran in {ran:.1f} s; {len(moves)} moves in "
            f"{time.monotonic() - start - ran:.1f} s: "
            + "; ".join(f"[{m.panel}] {m.control} ({m.seconds} s)" for m in moves)
        )
    except Exception:
        page.screenshot(path=str(artifacts / f"lab-{notebook_id(path).replace('/', '-')}-FAILED.png"))
        raise
    finally:
        try:
            page.evaluate("() => window.jupyterapp.serviceManager.sessions.shutdownAll()")
        except Exception:  # noqa: BLE001 - the server's finalizer stops any kernel left over
            pass
