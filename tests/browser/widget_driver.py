"""Find every widget panel on a page (JupyterLab or Voila), move its controls like a person would, see that it redrew.

A panel is a top-level widget view with controls in it. A toyhw panel is a VBox of controls, a chart (an element of
class `toyhw-chart` holding exactly one `<svg>`, drawn by toyhw/charts/chart.js from the description the kernel sent),
an HTML error line (empty unless a state failed) and sometimes an HTML card; an `@interact` or an older panel has an
Output instead of the chart. Its controls are the sliders, dropdowns, selections, checkboxes and number boxes in it,
outside any Output.

What counts is what the page shows, never what the kernel or the widget model holds: after each move the panel must
have changed what it draws (the markup of a chart's `<svg>`, or fresh nodes in its Output) or its HTML card, show no
error, and then hold still; each chart must hold exactly one `<svg>`. A panel with a chart (or an image in its Output)
must change its drawing on at least one move: a control that only changes a card is fine, a panel none of whose
controls changes the figure is not.

The pages run offline: `OfflineGuard` blocks and records every request to a host other than the loopback.
"""

from __future__ import annotations

import dataclasses
import json
import os
import pathlib
import re
import time
import urllib.parse
from typing import TYPE_CHECKING, Callable, Optional, Sequence

if TYPE_CHECKING:  # the tests skip, rather than fail to collect, where playwright is missing
    from playwright.sync_api import BrowserContext, Page

# TOYHW_NOTEBOOKS points the tests at another folder of notebooks (to try the tests themselves on a scratch notebook).
_REPO = pathlib.Path(__file__).resolve().parents[2]
NOTEBOOK_DIR = pathlib.Path(os.environ.get("TOYHW_NOTEBOOKS") or _REPO / "notebooks")

REDRAW_TIMEOUT = 60.0  # seconds for one redraw; toyhw panels take well under a second
SETTLE_MS = 300  # a panel has settled when its state is the same twice this far apart
ERROR_LINE = re.compile(r"^\s*Error: [A-Za-z_][\w.]*(:.*|$)", re.MULTILINE)
TRACEBACK = "Traceback (most recent call last)"
CHART = "toyhw-chart"
"""The class chart.js gives a chart's element (toyhw/charts/chart.js, render)."""

_CONTROL_KINDS = """[['widget-slider', 'slider'], ['widget-select-multiple', 'select-multiple'],
  ['widget-dropdown', 'dropdown'], ['widget-select', 'select'], ['widget-toggle-buttons', 'toggle'],
  ['widget-radio', 'radio'], ['widget-checkbox', 'checkbox'], ['widget-text', 'number']]"""

_FIND_PANELS = """() => {
  const selector = KINDS.map(k => '.' + k[0]).join(', ');
  const tops = Array.from(document.querySelectorAll('.jupyter-widgets')).filter(el =>
    !(el.parentElement && el.parentElement.closest('.jupyter-widgets')) && el.querySelector(selector));
  document.querySelectorAll('[data-toyhw-panel]').forEach(el => el.removeAttribute('data-toyhw-panel'));
  tops.forEach((el, i) => el.setAttribute('data-toyhw-panel', String(i)));
  return tops.length;
}""".replace("KINDS", _CONTROL_KINDS)

_FIND_CONTROLS = """(panel) => {
  const kinds = KINDS;
  const selector = kinds.map(k => '.' + k[0]).join(', ');
  const found = [];
  panel.querySelectorAll(selector).forEach(el => {
    if (el.closest('.widget-output, .toyhw-chart')) return;  // widgets drawn inside the plot area are not controls
    if (el.parentElement.closest(selector)) return;
    if (el.matches('[disabled], .mod-disabled') || el.querySelector('[disabled]')) return;
    const kind = kinds.find(k => el.classList.contains(k[0]))[1];
    if (kind === 'number' && !el.querySelector('input[type=number]')) return;  // free text is not a setting to move
    const label = el.querySelector('.widget-label');
    el.setAttribute('data-toyhw-control', String(found.length));
    found.push({index: found.length, kind, label: label ? label.innerText.trim() : ''});
  });
  return found;
}""".replace("KINDS", _CONTROL_KINDS)

# Before a move: remember the nodes that show the panel's figure now (a chart's <svg>, an Output's outputs), to tell
# a node drawn after the move from one kept; a WeakSet, so nothing is written into the page's DOM.
_MARK = """(panel) => {
  window.toyhwOld = new WeakSet(panel.querySelectorAll(
    '.toyhw-chart > svg, .widget-output .jp-OutputArea-output'));
}"""

# What the panel shows now. A chart's drawing is its <svg>'s markup, as a length and a hash (a figure is some tens of
# kB and this runs every 100 ms while a move is awaited).
_STATE = """(panel) => {
  const old = window.toyhwOld || new WeakSet();
  const hash = (text) => {
    let h = 2166136261;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
    return text.length + ':' + h.toString(16);
  };
  const charts = Array.from(panel.querySelectorAll('.toyhw-chart'));
  const outs = Array.from(panel.querySelectorAll('.widget-output .jp-OutputArea-output'));
  return {
    charts: charts.map(c => {
      const svgs = c.querySelectorAll(':scope > svg');
      return {svgs: svgs.length, others: c.children.length - svgs.length,
              markup: svgs.length ? hash(svgs[0].outerHTML) : '',
              replaced: svgs.length ? !old.has(svgs[0]) : false};
    }),
    fresh: outs.filter(el => !old.has(el)).length,
    srcs: Array.from(panel.querySelectorAll('.widget-output img')).map(img => img.src),
    text: Array.from(panel.querySelectorAll('.widget-output, .widget-html, .widget-htmlmath'))
      .map(el => el.innerText).join('\\n'),
    outputs: panel.querySelectorAll('.widget-output').length,
    cards: Array.from(panel.querySelectorAll('.widget-html, .widget-htmlmath')).map(el => el.innerHTML).join(''),
  };
}"""

# Every chart of the panel as [tag, {attribute: value}, text] per element, the <svg> first, in document order.
_DRAWN = """(panel) => Array.from(panel.querySelectorAll('.toyhw-chart')).map(chart => {
  const svg = chart.querySelector(':scope > svg');
  if (!svg) return null;
  return [svg, ...svg.querySelectorAll('*')].map(el => [
    el.localName,
    Object.fromEntries(Array.from(el.attributes).map(a => [a.name, a.value])),
    el === svg || el.children.length ? '' : el.textContent,
  ]);
})"""

_PAGE_ERRORS = """() => {
  const found = [];
  document.querySelectorAll('.widget-output, .widget-html, .widget-htmlmath').forEach(el =>
    found.push(['widget output', el.innerText]));
  document.querySelectorAll('[data-mime-type="application/vnd.jupyter.stderr"]').forEach(el => {
    if (!el.closest('[data-toyhw-expected-error]')) found.push(['stderr output', el.innerText]);
  });
  // The whole page too (Voila's own error message), unless a cell is tagged to raise on purpose.
  if (!document.querySelector('[data-toyhw-expected-error]')) found.push(['page', document.body.innerText]);
  return found;
}"""


def notebooks() -> list[pathlib.Path]:
    """Return the committed notebooks of both editions (notebooks/, then notebooks/zh/), found when the tests are
    collected (the set grows as the pack does)."""
    return sorted(NOTEBOOK_DIR.glob("[0-9]*.ipynb")) + sorted((NOTEBOOK_DIR / "zh").glob("[0-9]*.ipynb"))


def served_name(path: pathlib.Path) -> str:
    """The notebook's path under the servers' notebooks/ folder ("02_x.ipynb", "zh/02_x.ipynb")."""
    return path.relative_to(NOTEBOOK_DIR).as_posix()


def notebook_id(path: pathlib.Path) -> str:
    """The notebook's name in test ids: its stem, with "zh/" in front for the Chinese edition."""
    return served_name(path).removesuffix(".ipynb")


CJK = re.compile(r"[\u3400-\u9fff]")


def is_chinese_edition(path: pathlib.Path) -> bool:
    return path.parent.name == "zh"


def is_panel_source(source: str) -> bool:
    """Whether a code cell makes a widget (by the pack's convention it starts with # NBVAL_IGNORE_OUTPUT)."""
    source = source.lstrip()
    return source.startswith("# NBVAL_IGNORE_OUTPUT") and bool(re.search(r"panel|widgets|interact", source))


def has_widget_cells(path: pathlib.Path) -> bool:
    """Whether the notebook has a widget cell (is_panel_source)."""
    cells = json.loads(path.read_text())["cells"]
    return any(is_panel_source("".join(c["source"])) for c in cells if c["cell_type"] == "code")


def page_errors(page: Page) -> list[str]:
    """Return every error shown on the page: error lines in widget outputs, tracebacks anywhere, Voila's cell errors."""
    problems: dict[str, str] = {}  # what was shown -> where it was first seen
    for where, text in page.evaluate(_PAGE_ERRORS):
        if where == "widget output":
            for match in ERROR_LINE.finditer(text):
                problems.setdefault(match.group(0).strip(), where)
        lines = text.splitlines()
        for i, line in enumerate(lines):
            if TRACEBACK in line or "There was an error when executing cell" in line:
                problems.setdefault("\n".join(lines[max(0, i - 1) : i + 12]), where)
    return [f"{where}: {shown}" for shown, where in problems.items()]


def wait_voila_rendered(page: Page, timeout: float = 300.0) -> None:
    """Wait until Voila has run every cell and every widget view on the page has rendered.

    Voila streams each cell's outputs as it runs them (the document is complete when the last cell has run) and sends
    a widget view as JSON in a script tag, which the page replaces with the rendered view.
    """
    deadline = time.monotonic() + timeout
    last, steady = None, 0
    while steady < 4:  # the same, finished state in four polls in a row
        if time.monotonic() > deadline:
            raise AssertionError(f"Voila page not rendered after {timeout:.0f} s: {last}")
        page.wait_for_timeout(250)
        state = page.evaluate("""() => ({
          pending: Array.from(document.querySelectorAll('script[type="application/vnd.voila.cell-output+json"]'))
            .filter(s => s.textContent.includes('application/vnd.jupyter.widget-view+json')).length,
          rendered: Array.from(document.querySelectorAll('.jupyter-widgets')).filter(el =>
            !(el.parentElement && el.parentElement.closest('.jupyter-widgets'))).length,
          ready: document.readyState,
        })""")
        # Rendered widget views replace their script tags, so none pending means all rendered (or none sent).
        finished = state["ready"] == "complete" and state["pending"] == 0
        steady = steady + 1 if finished and state == last else 0
        last = state
    page.wait_for_timeout(500)  # let the panels' first figures arrive


# ----- offline


LOOPBACK_NAMES = {"localhost", "127.0.0.1", "::1", "[::1]"}
LOCAL_SCHEMES = {"data", "blob", "about", "javascript", "chrome", "chrome-extension", "devtools", "file"}


def is_local(url: str) -> bool:
    """Whether `url` stays on this machine: a loopback host (127.0.0.0/8, ::1, localhost) or no host at all (data:,
    blob:, about:)."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme in LOCAL_SCHEMES:
        return True
    host = (parts.hostname or "").lower()
    return host in LOOPBACK_NAMES or re.fullmatch(r"127(\.\d{1,3}){3}", host) is not None


class OfflineGuard:
    """Block and record every request of a browser context to a host off the loopback: pages, scripts, styles,
    fonts, images, XHR, fetch, workers (playwright's routes) and websockets (its websocket routes: one to another
    host is closed before it connects).

    Attributes:
        outside: the URLs asked for, in order ("websocket " in front of a websocket's).
    """

    def __init__(self, context: BrowserContext) -> None:
        self.outside: list[str] = []
        self.checked = False
        context.route("**/*", self._route)
        context.route_web_socket(lambda url: not is_local(url), self._websocket)

    def assert_none(self, where: str, known: Sequence[str] = ()) -> None:
        """Fail when any request off the loopback was asked for, but those in `known` (still blocked: a known
        problem, named where it is passed); `where` names the pages in the message."""
        self.checked = True
        found = [url for url in self.outside if url not in known]
        assert not found, f"{where} asked for {len(found)} URL(s) off the loopback: {found[:20]}"

    def _route(self, route) -> None:
        if is_local(route.request.url):
            route.continue_()
        else:
            self.outside.append(route.request.url)
            route.abort("blockedbyclient")

    def _websocket(self, ws) -> None:
        self.outside.append(f"websocket {ws.url}")
        ws.close(code=1008, reason="off the loopback")


# ----- moves


@dataclasses.dataclass(frozen=True)
class Move:
    """One control moved.

    Attributes:
        panel: the panel's index on the page.
        control: what was moved and how, e.g. "slider 'rounds' 10 -> 15".
        seconds: from the move until the panel had redrawn and settled.
        changed: what the move changed on screen: "drawing" (a chart's svg, or an image in an Output), "output"
            (fresh nodes in an Output), "card" (an HTML card).
    """

    panel: int
    control: str
    seconds: float
    changed: tuple[str, ...]


def find_panels(page: Page) -> int:
    """Tag every widget panel on the page with data-toyhw-panel and return how many there are."""
    return page.evaluate(_FIND_PANELS)


def panel_locator(page: Page, panel: int):
    return page.locator(f'[data-toyhw-panel="{panel}"]')


def drawn_charts(page: Page, panel: int) -> list[Optional[list]]:
    """Return each chart of `panel` as the page draws it now: [tag, {attribute: value}, text] per element of its
    `<svg>`, the `<svg>` itself first (None for a chart that holds no `<svg>`)."""
    return panel_locator(page, panel).evaluate(_DRAWN)


def _move(page: Page, panel: int, control: dict) -> str:
    """Move `control` of `panel` to another value, as a person would; return a description of the move."""
    loc = page.locator(f'[data-toyhw-panel="{panel}"] [data-toyhw-control="{control["index"]}"]')
    kind, name = control["kind"], f'{control["kind"]} {control["label"]!r}'
    if kind == "slider":
        # The handle takes the keyboard (noUiSlider): PageUp/PageDown move five steps and fire the slider's
        # `change` event, which is what a slider with continuous_update=False waits for.
        handle = loc.locator(".noUi-handle").first
        now, top = (float(handle.get_attribute(a) or 0) for a in ("aria-valuenow", "aria-valuemax"))
        readout = loc.locator(".widget-readout")
        before = readout.inner_text() if readout.count() else str(now)
        handle.scroll_into_view_if_needed()
        handle.focus()
        for key in ("PageUp", "PageDown") if now < top else ("PageDown", "PageUp"):
            handle.press(key)
            page.wait_for_timeout(100)
            after = readout.inner_text() if readout.count() else handle.get_attribute("aria-valuenow")
            if after != before:
                break
        return f"{name} {before} -> {after}"
    if kind in ("dropdown", "select", "select-multiple"):
        select = loc.locator("select")
        select.scroll_into_view_if_needed()
        labels = select.locator("option").all_inner_texts()
        chosen = select.evaluate("s => Array.from(s.options).flatMap((o, i) => o.selected ? [i] : [])")
        if kind == "select-multiple":
            rest = [i for i in range(len(labels)) if i not in chosen]
            target = chosen + rest[:1] if rest else chosen[:-1]
        else:
            target = [((chosen[0] if chosen else -1) + 1) % len(labels)]
        select.select_option(index=target)
        return f"{name} {[labels[i] for i in chosen]} -> {[labels[i] for i in target]}"
    if kind == "toggle":
        button = loc.locator("button:not(.mod-active)").first
        text = button.inner_text()
        button.click()
        return f"{name} -> {text!r}"
    if kind == "radio":
        radio = loc.locator("input[type=radio]:not(:checked)").first
        radio.click()
        return f"{name} -> another option"
    if kind == "checkbox":
        checkbox = loc.locator("input[type=checkbox]")
        checkbox.click()
        return f"{name} -> {checkbox.is_checked()}"
    box = loc.locator("input[type=number]")  # an IntText / FloatText: type a new number, then Enter
    before = box.input_value()
    step = box.get_attribute("step")
    after = str(float(before) + (float(step) if step and step != "any" else 1)).removesuffix(".0")
    box.fill(after)
    box.press("Enter")
    return f"{name} {before} -> {after}"


def _changes(old: dict, now: dict) -> tuple[str, ...]:
    """Return what differs on screen between two states of a panel (see Move.changed)."""
    changed = []
    drawn_old, drawn_now = [c["markup"] for c in old["charts"]], [c["markup"] for c in now["charts"]]
    if drawn_now != drawn_old or (now["srcs"] and now["srcs"] != old["srcs"]):
        changed.append("drawing")
    if now["fresh"]:
        changed.append("output")
    if now["cards"] != old["cards"]:
        changed.append("card")
    return tuple(changed)


def _wait_redraw(panel_loc, old: dict, what: str, timeout: float) -> tuple[str, ...]:
    """Wait until the panel shows something new after a move and has settled; return what changed (Move.changed).

    Raises AssertionError when nothing changed within `timeout` seconds, when the panel shows an error, or when a
    chart does not hold exactly one <svg>.
    """
    deadline = time.monotonic() + timeout
    state = panel_loc.evaluate(_STATE)
    watched = old["charts"] or old["outputs"] or old["cards"]
    while watched and not _changes(old, state) and not ERROR_LINE.search(state["text"]):
        if time.monotonic() > deadline:
            raise AssertionError(
                f"no redraw {timeout:g} s after moving {what}: the panel's drawing, output and card are as before"
            )
        panel_loc.page.wait_for_timeout(100)
        state = panel_loc.evaluate(_STATE)
    settle_by = time.monotonic() + max(timeout, 10.0)
    while True:  # settled: the same state twice, SETTLE_MS apart
        panel_loc.page.wait_for_timeout(SETTLE_MS)
        later = panel_loc.evaluate(_STATE)
        if later == state or time.monotonic() > settle_by:
            break
        state = later
    errors = [m.group(0).strip() for m in ERROR_LINE.finditer(state["text"])]
    if errors or TRACEBACK in state["text"]:
        raise AssertionError(f"moving {what} showed an error in the panel: {errors or state['text'][-1500:]}")
    odd = [(k, c["svgs"], c["others"]) for k, c in enumerate(state["charts"]) if c["svgs"] != 1 or c["others"]]
    if odd:
        raise AssertionError(
            f"after moving {what}: a chart must hold exactly one <svg>; (chart, <svg>s, other children): {odd}"
        )
    return _changes(old, state)


def exercise_panel(
    page: Page,
    panel: int,
    timeout: float = REDRAW_TIMEOUT,
    after_move: Optional[Callable[[int, str], None]] = None,
) -> list[Move]:
    """Move every control of `panel` once, checking that each move redraws it (see the module's docstring).

    `after_move(panel, what)`, when given, is called after each move has settled (the JupyterLab test compares the
    drawing with the static SVG there). Raises AssertionError on the first move that does not redraw or shows an
    error, and when the panel has a figure but no move changed it.
    """
    panel_loc = panel_locator(page, panel)
    controls = panel_loc.evaluate(_FIND_CONTROLS)
    assert controls, f"panel {panel} has no slider or selection to move"
    moves = []
    for control in controls:
        panel_loc.evaluate(_MARK)
        old = panel_loc.evaluate(_STATE)
        start = time.monotonic()
        what = _move(page, panel, control)
        changed = _wait_redraw(panel_loc, old, f"panel {panel}'s {what}", timeout)
        moves.append(Move(panel, what, round(time.monotonic() - start, 2), changed))
        if after_move is not None:
            after_move(panel, what)
    now = panel_loc.evaluate(_STATE)
    has_figure = bool(now["charts"] or now["srcs"])
    assert not has_figure or any("drawing" in m.changed for m in moves), (
        f"panel {panel}: no move changed its drawing ({[(m.control, m.changed) for m in moves]})"
    )
    return moves


def exercise_panels(
    page: Page,
    artifacts: pathlib.Path,
    prefix: str,
    timeout: float = REDRAW_TIMEOUT,
    after_move: Optional[Callable[[int, str], None]] = None,
) -> list[Move]:
    """Move every control of every panel on the page, checking each redraw; save one screenshot per panel.

    Screenshots go to `artifacts`/`prefix`-panelN.png, taken after the panel's last move with the panel in view.
    """
    moves = []
    for panel in range(find_panels(page)):
        moves += exercise_panel(page, panel, timeout, after_move)
        panel_locator(page, panel).evaluate("el => el.scrollIntoView({block: 'start'})")
        page.wait_for_timeout(300)
        page.screenshot(path=str(artifacts / f"{prefix}-panel{panel}.png"))
    return moves
