"""Find every widget panel on a page (JupyterLab or Voila), move its controls like a person would, check it redrew.

A panel is a top-level widget view with controls in it: a toyhw panel (a VBox of controls plus an Output) or an
`@interact`. Its controls are the sliders, dropdowns, selections, checkboxes and number boxes in it, outside its
Output. After each move the panel must redraw and show no error: fresh output nodes in its Output, or a changed HTML
card (a control may change only the card). In a panel with a plot at least one move must change an image's
`src`.
"""

from __future__ import annotations

import dataclasses
import json
import os
import pathlib
import re
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the tests skip, rather than fail to collect, where playwright is missing
    from playwright.sync_api import Page

# TOYHW_NOTEBOOKS points the tests at another folder of notebooks (to try the tests themselves on a scratch notebook).
_REPO = pathlib.Path(__file__).resolve().parents[2]
NOTEBOOK_DIR = pathlib.Path(os.environ.get("TOYHW_NOTEBOOKS") or _REPO / "notebooks")

REDRAW_TIMEOUT = 60.0  # seconds for one redraw; toyhw panels take well under a second
ERROR_LINE = re.compile(r"^\s*Error: [A-Za-z_][\w.]*(:.*|$)", re.MULTILINE)
TRACEBACK = "Traceback (most recent call last)"

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
    if (el.closest('.widget-output')) return;  // widgets drawn inside the plot area are not this panel's controls
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

_MARK = """(panel) => {
  panel.querySelectorAll('.widget-output .jp-OutputArea-output').forEach(el => el.setAttribute('data-toyhw-old', '1'));
}"""

_STATE = """(panel) => {
  const outs = Array.from(panel.querySelectorAll('.widget-output .jp-OutputArea-output'));
  return {
    fresh: outs.filter(el => !el.hasAttribute('data-toyhw-old')).length,
    srcs: Array.from(panel.querySelectorAll('.widget-output img')).map(img => img.src),
    text: Array.from(panel.querySelectorAll('.widget-output, .widget-html, .widget-htmlmath'))
      .map(el => el.innerText).join('\\n'),
    outputs: panel.querySelectorAll('.widget-output').length,
    cards: Array.from(panel.querySelectorAll('.widget-html, .widget-htmlmath')).map(el => el.innerHTML).join(''),
  };
}"""

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


def has_widget_cells(path: pathlib.Path) -> bool:
    """Whether the notebook has a widget cell (by the pack's convention they start with # NBVAL_IGNORE_OUTPUT)."""
    sources = ["".join(c["source"]).lstrip() for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"]
    return any(s.startswith("# NBVAL_IGNORE_OUTPUT") and re.search(r"panel|widgets|interact", s) for s in sources)


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


@dataclasses.dataclass(frozen=True)
class Move:
    """One control moved.

    Attributes:
        panel: the panel's index on the page.
        control: what was moved and how, e.g. "slider 'rounds' 10 -> 15".
        seconds: from the move until the panel had redrawn.
        src_changed: whether an image's src differs from before the move.
    """

    panel: int
    control: str
    seconds: float
    src_changed: bool


def find_panels(page: Page) -> int:
    """Tag every widget panel on the page with data-toyhw-panel and return how many there are."""
    return page.evaluate(_FIND_PANELS)


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


def _wait_redraw(page: Page, panel_loc, old: dict, what: str) -> bool:
    """Wait until the panel has redrawn after a move and its output has settled; return whether an image changed."""
    deadline = time.monotonic() + REDRAW_TIMEOUT
    state = panel_loc.evaluate(_STATE)
    old_cards = old["cards"]

    def redrawn(now: dict) -> bool:
        if not now["outputs"] and not old_cards:
            return True  # nothing to watch in a panel without Output or card
        return now["fresh"] > 0 or now["cards"] != old_cards or bool(ERROR_LINE.search(now["text"]))

    while not redrawn(state):
        if time.monotonic() > deadline:
            raise AssertionError(f"no redraw {REDRAW_TIMEOUT:.0f} s after moving {what}")
        page.wait_for_timeout(100)
        state = panel_loc.evaluate(_STATE)
    while True:  # settled: the same output twice, 300 ms apart
        page.wait_for_timeout(300)
        later = panel_loc.evaluate(_STATE)
        if later == state or time.monotonic() > deadline:
            break
        state = later
    errors = [m.group(0).strip() for m in ERROR_LINE.finditer(state["text"])]
    if errors or TRACEBACK in state["text"]:
        raise AssertionError(f"moving {what} showed an error in the panel: {errors or state['text'][-1500:]}")
    return bool(state["srcs"]) and state["srcs"] != old["srcs"]


def exercise_panels(page: Page, artifacts: pathlib.Path, prefix: str) -> list[Move]:
    """Move every control of every panel on the page, checking each redraw; save one screenshot per panel.

    Screenshots go to `artifacts`/`prefix`-panelN.png, taken after the panel's last move with the panel in view.
    """
    moves = []
    for panel in range(find_panels(page)):
        panel_loc = page.locator(f'[data-toyhw-panel="{panel}"]')
        controls = panel_loc.evaluate(_FIND_CONTROLS)
        assert controls, f"panel {panel} has an Output but no slider or selection to move"
        changed = False
        for control in controls:
            panel_loc.evaluate(_MARK)
            old = panel_loc.evaluate(_STATE)
            start = time.monotonic()
            what = _move(page, panel, control)
            src_changed = _wait_redraw(page, panel_loc, old, f"panel {panel}'s {what}")
            moves.append(Move(panel, what, round(time.monotonic() - start, 2), src_changed))
            changed = changed or src_changed
        has_plot = bool(panel_loc.evaluate(_STATE)["srcs"])
        assert changed or not has_plot, (
            f"panel {panel}: no move changed its plot ({[m.control for m in moves if m.panel == panel]})"
        )
        panel_loc.evaluate("el => el.scrollIntoView({block: 'start'})")
        page.wait_for_timeout(300)
        page.screenshot(path=str(artifacts / f"{prefix}-panel{panel}.png"))
    return moves
