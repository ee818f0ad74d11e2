"""Every notebook in a real JupyterLab and Chromium: opened, it shows its stored outputs without an error and is not
marked modified (Lab rewrites no metadata when its kernel starts); its panels, run in Lab (tests/browser/
panel_notebook.py: the Setup cell, the panel cells and what they need; nbval runs every cell already), render, every
control of every panel redraws, and nothing is asked of any host but the loopback.

Each panel's chart, as the page drew it (toyhw/charts/chart.js), is compared element by element with the static SVG
of the same description (toyhw.charts.svg, from toyhw.charts.scene), after the run and after every move; a Chinese
edition's charts must show Chinese, an English edition's none. A scratch notebook shows that the driver fails a panel
whose drawing does not change on a move (its chart's description not updated, or updated but not drawn), and one
that shows an error.

Run just these with `.venv/bin/python -m pytest -m browser`; screenshots land in test-artifacts/lab-*.png.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import pathlib
import time
import urllib.error
import urllib.request

import pytest

import svg_compare
from panel_notebook import panel_cell_indices
from widget_driver import (
    CJK,
    drawn_charts,
    exercise_panel,
    exercise_panels,
    find_panels,
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

# Run the cells at the given positions one after another (each command resolves once its cell has run).
_RUN_CELLS = """(indices) => {
  window.toyhwRun = {done: false, result: null};
  const app = window.jupyterapp;
  const w = app.shell.currentWidget;
  (async () => {
    for (const i of indices) {
      w.content.activeCellIndex = i;
      await app.commands.execute('notebook:run-cell');
    }
  })().then(
    () => { window.toyhwRun = {done: true, result: 'ran ' + indices.length}; },
    e => { window.toyhwRun = {done: true, result: 'rejected: ' + e}; });
}"""

_PROGRESS = """() => {
  const w = window.jupyterapp.shell.currentWidget;
  const prompts = Array.from(w.node.querySelectorAll('.jp-InputArea-prompt')).map(p => p.innerText);
  const k = w.sessionContext.session && w.sessionContext.session.kernel;
  return {done: window.toyhwRun.done, busy: prompts.filter(t => t.includes('*')).length,
          kernel: k ? k.status : 'none'};
}"""

_CELL_PROBLEMS = """([widgetMime, ran]) => {
  const w = window.jupyterapp.shell.currentWidget;
  const problems = [];
  let widgetViews = 0;
  w.content.widgets.forEach((cell, i) => {
    if (cell.model.type !== 'code') return;
    const tags = cell.model.getMetadata('tags') || [];
    if (tags.includes('raises-exception')) cell.node.setAttribute('data-toyhw-expected-error', '1');
    if (ran !== null && !ran.includes(i)) return;  // a cell left as stored
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


# Execute code in the current notebook's kernel without touching a cell; return a user expression's value (its
# text/plain, the repr of a Python value).
_KERNEL_EXEC = """async ([code, expression]) => {
  const k = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  const reply = await k.requestExecute({code, silent: false, store_history: false,
                                        user_expressions: expression ? {value: expression} : {}}).done;
  if (reply.content.status !== 'ok') return 'error: ' + reply.content.ename + ': ' + reply.content.evalue;
  const value = expression && reply.content.user_expressions.value;
  return value ? (value.status === 'ok' ? value.data['text/plain'] : 'error: ' + value.evalue) : '';
}"""

# The model id of a panel's widget view (the cell's output that the panel's element renders) and the static figure
# the notebook shows for it: the image/svg+xml output of the nearest code cell above tagged static-view, if any.
_PANEL_CELL = """([panel, widgetMime]) => {
  const w = window.jupyterapp.shell.currentWidget;
  const el = document.querySelector(`[data-toyhw-panel="${panel}"]`);
  const node = el.closest('.jp-Cell');
  const cells = w.content.widgets;
  const at = cells.findIndex(c => c.node === node);
  if (at < 0) return null;
  const ids = cells[at].model.outputs.toJSON().flatMap(o =>
    o.data && o.data[widgetMime] ? [o.data[widgetMime].model_id] : []);
  const tops = Array.from(node.querySelectorAll('.jupyter-widgets')).filter(v =>
    !(v.parentElement && v.parentElement.closest('.jupyter-widgets')));
  let staticSvg = null;
  for (let i = at - 1; i >= 0 && staticSvg === null; i--) {
    const cell = cells[i];
    if (cell.model.type !== 'code') continue;
    if ((cell.model.getMetadata('tags') || []).includes('static-view')) {
      const svgs = cell.model.outputs.toJSON().flatMap(o => o.data && o.data['image/svg+xml'] ?
        [[].concat(o.data['image/svg+xml']).join('')] : []);
      staticSvg = svgs.length ? svgs[0] : '';
    } else if (cell.model.outputs.toJSON().some(o => o.data && o.data[widgetMime])) {
      break;  // the panel above: a static view further up is its own
    }
  }
  return {modelId: ids[tops.indexOf(el)] || null, cell: at + 1, staticSvg};
}"""

# Defined in the kernel: the static SVG (toyhw.charts.widget.Chart(spec).svg()) of every ChartWidget in the widget
# `model_id`, in the order the page shows them (None for a chart with nothing to draw), as JSON.
_STATIC_SVGS = """
def _toyhw_static_svgs(model_id):
    import json
    from ipywidgets.widgets.widget import _instances
    from toyhw.charts.widget import Chart, ChartWidget

    found = []

    def walk(widget):
        if isinstance(widget, ChartWidget):
            found.append(Chart(widget.spec).svg() if widget.spec.get("plots") else None)
        for child in getattr(widget, "children", ()):
            walk(child)

    walk(_instances[model_id])
    return json.dumps(found)
"""


def kernel_value(page, code: str, expression: str = "") -> str:
    """Run `code` in the open notebook's kernel (no cell changes), then return `expression`'s repr."""
    shown = page.evaluate(_KERNEL_EXEC, [code, expression])
    if shown.startswith("error"):
        raise AssertionError(f"the kernel could not run {expression or code[:80]!r}: {shown}")
    return shown


def static_svgs(page, model_id: str) -> list:
    """Return the static SVG of each chart of the panel whose widget is `model_id`, from the kernel."""
    return json.loads(ast.literal_eval(kernel_value(page, "", f"_toyhw_static_svgs({model_id!r})")))


@dataclasses.dataclass
class ChartCheck:
    """Compares every chart the page draws with its static SVG (see the module's docstring).

    Attributes:
        path: the notebook.
        compared: how many drawings were compared, and agreed.
        exact: how many of them agreed to the last character (the rest had numbers 0.1 apart: see svg_compare).
        static_views: how many first drawings were compared with the static-view cell above their panel, and agreed.
        texts: the text of every chart drawn after the run, by panel.
    """

    path: pathlib.Path
    compared: int = 0
    exact: int = 0
    static_views: int = 0
    texts: dict = dataclasses.field(default_factory=dict)

    def __call__(self, page, panel: int, when: str) -> None:
        """Compare the charts of `panel` now; `when` names the moment (after the run, after a move) in messages."""
        found = page.evaluate(_PANEL_CELL, [panel, WIDGET_MIME])
        if not found or not found["modelId"]:
            raise AssertionError(f"panel {panel} ({when}): its widget's model id is not in its cell's outputs")
        drawn = drawn_charts(page, panel)
        if not drawn:
            return
        static = static_svgs(page, found["modelId"])
        assert len(static) == len(drawn), f"panel {panel}: {len(drawn)} charts on the page, {len(static)} in the kernel"
        for k, (on_page, svg) in enumerate(zip(drawn, static)):
            where = f"{served_name(self.path)} cell {found['cell']}, panel {panel} chart {k} {when}"
            assert on_page is not None and svg is not None, (
                f"{where}: the page drew {on_page!r}, the kernel has {svg!r}"
            )
            page_elements = svg_compare.from_page(on_page)
            static_elements = svg_compare.parse_svg(svg)
            problems = svg_compare.differences(page_elements, static_elements)
            assert not problems, f"{where}: chart.js and the static SVG differ:\n" + "\n".join(problems)
            if when == "after the run":
                self.texts[(panel, k)] = svg_compare.texts(page_elements)
                stored = found["staticSvg"]
                if stored:  # the static view above the panel shows the panel's starting state
                    problems = svg_compare.differences(page_elements, svg_compare.parse_svg(stored))
                    assert not problems, (
                        f"{where}: the panel's first drawing is not the static view above it "
                        f"(the static-view cell's SVG):\n" + "\n".join(problems)
                    )
                    self.static_views += 1
            self.compared += 1
            self.exact += svg_compare.same(page_elements, static_elements)

    def check_language(self) -> None:
        """A zh notebook's charts show Chinese (axis and plot titles from toyhw/locale/zh.json), an en one's none."""
        for (panel, k), text in self.texts.items():
            where = f"{served_name(self.path)} panel {panel} chart {k}"
            if is_chinese_edition(self.path):
                assert CJK.search(text), f"{where}: no Chinese in the chart's text: {text[:300]!r}"
            else:
                assert not CJK.search(text), f"{where}: Chinese in an English chart: {CJK.findall(text)[:20]}"


def _open_and_run(page, server, served: str) -> dict:
    """Open notebooks/`served` in JupyterLab, run all cells, wait for the widget views; return _CELL_PROBLEMS'."""
    page.goto(server.address(f"/lab/tree/{served}?reset"))
    page.wait_for_function(_OPENED, arg=pathlib.PurePosixPath(served).name, timeout=90_000)
    assert page.evaluate(_KERNEL_IDLE) == "idle"
    page.evaluate("() => window.jupyterapp.commands.execute('application:toggle-left-area')")  # room for plots
    _run_all(page)
    return _rendered(page)


def _run_all(page, indices: list[int] | None = None) -> None:
    """Run every cell, or the cells at `indices`, and wait until they have run."""
    page.evaluate(_RUN_ALL) if indices is None else page.evaluate(_RUN_CELLS, indices)
    deadline = time.monotonic() + RUN_ALL_TIMEOUT
    quiet = 0
    while quiet < 3:  # finished: the command resolved, no [*] prompt and an idle kernel, three polls in a row
        if time.monotonic() > deadline:
            raise AssertionError(f"cells still running after {RUN_ALL_TIMEOUT:.0f} s: {page.evaluate(_PROGRESS)}")
        page.wait_for_timeout(250)
        progress = page.evaluate(_PROGRESS)
        quiet = quiet + 1 if progress["done"] and not progress["busy"] and progress["kernel"] == "idle" else 0


def _rendered(page, timeout: float = 30.0, ran: list[int] | None = None) -> dict:
    """Wait until every widget view in the notebook has rendered; return _CELL_PROBLEMS' findings (over the cells at
    `ran` if given, else over every cell)."""
    deadline = time.monotonic() + timeout
    cells = page.evaluate(_CELL_PROBLEMS, [WIDGET_MIME, ran])
    while cells["renderedViews"] < cells["widgetViews"] and time.monotonic() < deadline:
        page.wait_for_timeout(200)
        cells = page.evaluate(_CELL_PROBLEMS, [WIDGET_MIME, ran])
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


# After the kernel is idle: whether Lab marked the notebook modified (it writes the kernel's language_info and
# kernelspec into the notebook once the kernel's info and spec have arrived, so await those, then a moment for its
# handlers), and the kernelspec it holds.
_MODIFIED = """async () => {
  const w = window.jupyterapp.shell.currentWidget;
  const kernel = w.sessionContext.session && w.sessionContext.session.kernel;
  if (kernel) { await kernel.info; await kernel.spec; }
  await new Promise((r) => setTimeout(r, 500));
  return {
    dirty: w.context.model.dirty || w.title.className.includes('jp-mod-dirty'),
    kernelspec: w.context.model.getMetadata('kernelspec'),
  };
}"""


def _open_stored(page, server, served: str) -> dict:
    """Open notebooks/`served` as stored, its kernel started and idle; return _MODIFIED's findings."""
    page.goto(server.address(f"/lab/tree/{served}?reset"))
    page.wait_for_function(_OPENED, arg=pathlib.PurePosixPath(served).name, timeout=90_000)
    assert page.evaluate(_KERNEL_IDLE) == "idle"
    return page.evaluate(_MODIFIED)


@pytest.mark.browser
def test_a_notebook_whose_kernel_metadata_differs_is_marked_modified(lab_server, page) -> None:
    """The "unmodified" check below can fail: a copy of a notebook whose stored language_info is not the kernel's
    (the last thing Lab writes, once the kernel's info has arrived) opens marked modified."""
    nb = json.loads(NOTEBOOKS[0].read_text(encoding="utf-8"))
    nb["metadata"]["language_info"]["version"] = "3.0.0"
    (lab_server.root / "notebooks" / "scratch_metadata.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    try:
        assert _open_stored(page, lab_server, "notebooks/scratch_metadata.ipynb")["dirty"]
    finally:
        page.evaluate("() => window.jupyterapp.serviceManager.sessions.shutdownAll()")


@pytest.mark.browser
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[notebook_id(p) for p in NOTEBOOKS])
def test_notebook_in_jupyterlab(path: pathlib.Path, lab_server, page, offline, artifacts: pathlib.Path) -> None:
    """Open the notebook: its stored outputs show no error and opening it does not mark it modified. Run its panels:
    no error, each chart drawn as its static SVG; move every control of every panel and see each redraw (again as its
    static SVG), with no request off the loopback."""
    start = time.monotonic()
    shot = f"lab-{notebook_id(path).replace('/', '-')}"
    served = served_name(path)
    try:
        opened = _open_stored(page, lab_server, f"notebooks/{served}")
        assert not opened["dirty"], (
            f"{served}: Lab marks it modified on opening (kernelspec after: {opened['kernelspec']})"
        )
        stored_problems = page_errors(page)
        assert not stored_problems, f"{served}: its stored outputs show errors:\n" + "\n".join(stored_problems)
        if not has_widget_cells(path):
            offline.assert_none(f"JupyterLab with {served}")
            print(f"\n{path.name}: opened in {time.monotonic() - start:.1f} s, unmodified; no panel to run")
            return
        page.evaluate("() => window.jupyterapp.commands.execute('application:toggle-left-area')")  # room for plots
        indices = panel_cell_indices(path)
        _run_all(page, indices)
        cells = _rendered(page, ran=indices)
        ran = time.monotonic() - start
        problems = cells["problems"] + page_errors(page)
        page.screenshot(path=str(artifacts / f"{shot}.png"))
        assert not problems, f"{path.name}'s panels show errors after running:\n" + "\n".join(problems)
        assert cells["renderedViews"] == cells["widgetViews"], f"widget views rendered / expected: {cells}"
        charts = ChartCheck(path)
        kernel_value(page, _STATIC_SVGS)
        for panel in range(find_panels(page)):
            charts(page, panel, "after the run")
        charts.check_language()
        moves = exercise_panels(
            page, artifacts, shot, after_move=lambda panel, what: charts(page, panel, f"after moving {what}")
        )
        assert moves, f"{path.name} has widget cells but no panel (controls plus a chart or Output) was found"
        assert charts.texts, f"{path.name} has widget cells but no panel drew a chart"
        assert not page_errors(page)
        if is_chinese_edition(path):
            labels = page.evaluate(
                "() => Array.from(document.querySelectorAll('.widget-label, .widget-dropdown "
                "option, .widget-button, .widget-toggle-button')).map(e => e.innerText).join(' ')"
            )
            assert CJK.search(labels), f"{served_name(path)}: no Chinese widget label on screen: {labels[:200]!r}"
        offline.assert_none(f"JupyterLab with {served_name(path)}")
        print(
            f"\n{path.name}: opened, then its panels ({len(indices)} code cells) ran, in {ran:.1f} s; {len(moves)} moves in "
            f"{time.monotonic() - start - ran:.1f} s; {charts.compared} drawings as their static SVG "
            f"({charts.exact} to the character), {charts.static_views} as the static view above their panel: "
            + "; ".join(f"[{m.panel}] {m.control} ({m.seconds} s, {'+'.join(m.changed)})" for m in moves)
        )
    except Exception:
        page.screenshot(path=str(artifacts / f"{shot}-FAILED.png"))
        raise
    finally:
        try:
            page.evaluate("() => window.jupyterapp.serviceManager.sessions.shutdownAll()")
        except Exception:  # noqa: BLE001 - the server's finalizer stops any kernel left over
            pass


# The scratch notebook of test_the_driver_fails_a_panel_that_does_not_redraw: four panels of one slider and one chart
# each. The first redraws; the second's callback leaves the chart's description as it is; the third's sets a new
# description, but its page view (chart.js without its change:spec listener) never draws it; the fourth's
# description fails above 5, so the move shows the panel's error line.
SCRATCH_SOURCE = """import pathlib
import ipywidgets as widgets
from toyhw.charts import figure as cf
from toyhw.charts.widget import CHART_JS, ChartWidget
from toyhw.panels.common import ChartPanel, connect

LISTENER = 'model.on("change:spec", show);'
assert LISTENER in CHART_JS.read_text(encoding="utf-8"), "chart.js no longer redraws on change:spec this way"


class DrawsOnce(ChartWidget):
    _esm = CHART_JS.read_text(encoding="utf-8").replace(LISTENER, "")


def spec(n):
    plot = cf.Plot(f"n = {n}", cf.axis((0, 10), cf.nice_ticks(0, 10)), cf.axis((0, 10), cf.nice_ticks(0, 10)),
                   [cf.line([0, 10], [0, n], "#0072b2")])
    return cf.figure([plot], width=360, height=200)


def scratch_panel(kind):
    slider = widgets.IntSlider(value=2, min=0, max=10, description=kind, continuous_update=False)
    if kind == "fails":
        def describe(n):
            if n > 5:
                raise ValueError(f"n = {n} is not allowed; the scratch panel draws n <= 5")
            return spec(n)
        panel = ChartPanel(describe)
        connect([slider], lambda: panel.show((slider.value,)))
        panel.show((slider.value,))
        return widgets.VBox([slider, *panel.widgets()])
    chart = (DrawsOnce if kind == "draws once" else ChartWidget)(spec=spec(slider.value))
    def moved(change):
        if kind != "stale":
            chart.spec = spec(change["new"])
    slider.observe(moved, names="value")
    return widgets.VBox([slider, chart, widgets.HTML()])
"""
SCRATCH_PANELS = ("redraws", "stale", "draws once", "fails")


def scratch_notebook() -> dict:
    import nbformat

    cells = [nbformat.v4.new_code_cell(SCRATCH_SOURCE)]
    cells += [nbformat.v4.new_code_cell(f"scratch_panel({kind!r})") for kind in SCRATCH_PANELS]
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return nb


@pytest.mark.browser
def test_the_driver_fails_a_panel_that_does_not_redraw(lab_server, page, artifacts: pathlib.Path) -> None:
    """The driver judges what the page draws: it passes a panel that redraws, and fails one whose chart keeps its
    description on a move, one whose description changes in the kernel but is never drawn, and one that shows an
    error; the kernel's side is not what it looks at. A scratch notebook in the server's throwaway folder."""
    import nbformat

    folder = lab_server.root / "scratch"
    folder.mkdir(exist_ok=True)
    nbformat.write(nbformat.from_dict(scratch_notebook()), folder / "driver_check.ipynb")
    try:
        cells = _open_and_run(page, lab_server, "scratch/driver_check.ipynb")
        assert not cells["problems"], cells["problems"]
        assert find_panels(page) == len(SCRATCH_PANELS)
        assert exercise_panel(page, 0, timeout=5.0)[0].changed == ("drawing",)
        for panel, why in ((1, "no redraw"), (2, "no redraw"), (3, "showed an error")):
            with pytest.raises(AssertionError, match=why) as caught:
                exercise_panel(page, panel, timeout=3.0)
            print(f"\nscratch panel {SCRATCH_PANELS[panel]!r}: {caught.value}")
        # The page drew nothing new for "draws once", although the kernel holds the new description.
        model = page.evaluate(_PANEL_CELL, [2, WIDGET_MIME])["modelId"]
        kernel_value(page, _STATIC_SVGS)
        drawn = svg_compare.from_page(drawn_charts(page, 2)[0])
        held = svg_compare.parse_svg(static_svgs(page, model)[0])
        assert svg_compare.differences(drawn, held), "the kernel's description of 'draws once' was drawn after all"
    except Exception:
        page.screenshot(path=str(artifacts / "lab-scratch-driver-check-FAILED.png"))
        raise
    finally:
        try:
            page.evaluate("() => window.jupyterapp.serviceManager.sessions.shutdownAll()")
        except Exception:  # noqa: BLE001 - the server's finalizer stops any kernel left over
            pass
