"""Browser latency of every widget control: from the input event to the panel's drawing having changed, in JupyterLab
or in Voila.

Run: .venv/bin/python benchmarks/bench_browser.py [--app lab|voila] [--notebooks 02,zh/04] [--repeats 5]
                                                   [--label before] [--out benchmarks/RESULTS.md] [--raw moves.json]
                                                   [--tcp-nodelay]

What it does: starts JupyterLab (`--app lab`, the default) or Voila (`--app voila`, as `make present` serves the
notebooks) on a free port of 127.0.0.1 with a random token over a throwaway copy of notebooks/ (plus a tiny notebook
it writes there: an IntSlider whose observer sets an HTML label, the Jupyter round-trip baseline), drives Debian's
Chromium through playwright, opens each notebook of both editions (notebooks/ and notebooks/zh/; JupyterLab runs all
cells, Voila runs them itself) and then moves every control of every widget panel `--repeats` times (sliders: five
steps one way, one step back, so the direction alternates and no value is visited twice where the range allows;
dropdowns: the next option; multi-selects: add one, remove one; number boxes: one step up; toggles: the other button).
The trivial slider is measured the same way, in the same server, before every notebook and after the last one, so
drift on a shared machine shows and the ratios (a panel's latency / the trivial slider's median) stay comparable
between runs. It writes the section "## Browser latency (JupyterLab, Chromium)[ — label]" (or "(Voila, Chromium)")
of the output file, leaving the file's other sections alone.

How a move is timed, in the page (not from Python, whose round trips to the browser would add their own latency):
a capture-phase listener on window stamps performance.now() at the first keydown / input / change / click after the
benchmark arms it (the move itself: PageUp on a slider handle, the select's change, Enter in a number box, a click);
a MutationObserver on the panel stamps the first mutation that adds or removes nodes inside the panel's chart (a
toyhw panel's figure: chart.js replaces the chart's <svg> with the one it drew from the description the kernel sent),
its HTML card or error line, or an Output (an `@interact`: fresh outputs, an <img> src), or changes text there ("first
change"). A MutationObserver rather than requestAnimationFrame polling because it fires in the very task that applied
the kernel's message: no 16 ms frame quantum on a figure, and no throttling of rAF in a page the browser deems idle.
The move is over when the kernel is idle again, no mutation came for QUIET_MS, every image in an Output has decoded
and a frame followed the last mutation ("complete": what the student sees, including a second change such as a card
drawn after the chart). Each move also records what it changed: the drawing (the chart's <svg> markup), the card.

Inside the kernel, a wrapper around its comm_msg handler sums the time the kernel spent handling the move's messages
("kernel": the callback, the chart's description, the widget messages), so the rest of a move's latency is the
Jupyter round trip and the browser's drawing. In JupyterLab the wrapper is installed at run time through the kernel's
execute channel (no file changes); Voila refuses execute requests from the page, so there the benchmark appends one
cell to each notebook of its throwaway copy that installs the wrapper, writing each message's span to a file the
benchmark reads after each move.

Reused from tests/browser (imported, not copied, so the benchmark serves and finds panels exactly as the browser tests
do): servers.py (the throwaway copy, the isolated Jupyter folders, the commands, serve), conftest.py's _why_no_browser,
CHROMIUM, CHROMIUM_ARGS and VIEWPORT, widget_driver.py's panel and control finders
(find_panels, _FIND_CONTROLS, ERROR_LINE, page_errors, has_widget_cells, notebooks, served_name,
wait_voila_rendered) and test_lab.py's notebook runner (_OPENED, _KERNEL_IDLE, _run_all, _rendered).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import dataclasses
import datetime
import importlib.util
import json
import os
import pathlib
import re
import shlex
import statistics
import sys
import tempfile
import time
from typing import Callable, Iterator, Optional

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
BROWSER_TESTS = ROOT / "tests" / "browser"
sys.path.insert(0, str(BROWSER_TESTS))

import latency_notes  # noqa: E402 - benchmarks/ is sys.path[0] when this script runs
import results_md  # noqa: E402
import servers  # noqa: E402
import test_lab  # noqa: E402
import widget_driver  # noqa: E402


def _load_conftest():
    """Import tests/browser/conftest.py under its own name (`import conftest` could pick up tests/conftest.py)."""
    spec = importlib.util.spec_from_file_location("toyhw_browser_conftest", BROWSER_TESTS / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


lab = _load_conftest()

APPS = {"lab": "JupyterLab", "voila": "Voila"}
SECTION = "Browser latency ({app}, Chromium)"
TRIVIAL_NOTEBOOK = "bench_trivial_slider.ipynb"
QUIET_MS = 300  # a move is complete when no panel mutation came for this long (and the kernel is idle)
MOVE_TIMEOUT_MS = 60_000
LOAD_TIMEOUT = 300.0  # seconds for Voila to run a notebook and the page to render its widgets
TARGET_MEDIAN, TARGET_WORST = 4.0, 8.0  # the acceptance, as multiples of the trivial slider's median

# Installed in every page before the app loads: the input stamp and the per-move observer described above.
_INSTRUMENT = """(() => {
  const WATCH = '.toyhw-chart, .widget-output, .widget-html, .widget-htmlmath';
  const s = {armed: false, t0: null, event: null, first: null, last: null, painted: null, batches: 0, obs: null,
             before: null};
  const stamp = e => {
    if (!s.armed || s.t0 !== null) return;
    s.t0 = performance.now();
    s.event = e.type + (e.key ? ':' + e.key : '');
  };
  for (const type of ['keydown', 'input', 'change', 'click']) window.addEventListener(type, stamp, {capture: true});
  const relevant = r => {
    const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
    if (!el || !el.closest(WATCH)) return false;
    if (r.type === 'childList') return r.addedNodes.length + r.removedNodes.length > 0;
    return r.type === 'characterData' || r.attributeName === 'src';
  };
  // The kernel: JupyterLab's notebook session, or the one Voila's widget manager talks to.
  const kernel = () => {
    const app = window.jupyterapp;
    const w = app && app.shell && app.shell.currentWidget;
    const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
    if (k) return k;
    const m = app && app._widgetManager;
    return m ? (m.kernel || m._kernel) : null;
  };
  const shown = panel => ({
    drawing: Array.from(panel.querySelectorAll('.toyhw-chart')).map(c => c.innerHTML).join('') +
      Array.from(panel.querySelectorAll('.widget-output img')).map(i => i.src).join(''),
    card: Array.from(panel.querySelectorAll('.widget-html, .widget-htmlmath')).map(e => e.innerHTML).join(''),
  });
  window.toyhwBench = {
    kernelStatus() { const k = kernel(); return k ? k.status : 'none'; },
    arm(panel) {
      if (s.obs) s.obs.disconnect();
      Object.assign(s, {armed: true, t0: null, event: null, first: null, last: null, painted: null, batches: 0,
                        panel, before: shown(panel)});
      s.obs = new MutationObserver(records => {
        const now = performance.now();
        if (s.t0 === null || !records.some(relevant)) return;  // before the move: not its effect
        if (s.first === null) s.first = now;
        s.last = now;
        s.batches += 1;
        const imgs = Array.from(panel.querySelectorAll('.widget-output img'));
        Promise.all(imgs.map(i => i.decode().catch(() => null))).then(() =>
          requestAnimationFrame(() => { s.painted = Math.max(s.painted || 0, performance.now()); }));
      });
      s.obs.observe(panel, {subtree: true, childList: true, characterData: true, attributes: true,
                            attributeFilter: ['src']});
    },
    complete(quietMs) {
      return s.t0 !== null && s.first !== null && window.toyhwBench.kernelStatus() === 'idle' && s.painted !== null &&
        s.painted >= s.last && performance.now() - s.last >= quietMs;
    },
    read() {
      if (s.obs) s.obs.disconnect();
      s.armed = false;
      const after = shown(s.panel);
      const changed = ['drawing', 'card'].filter(k => after[k] !== s.before[k]);
      return {event: s.event, first_ms: s.first - s.t0, complete_ms: s.painted - s.t0, batches: s.batches,
              t0_epoch: performance.timeOrigin + s.t0, changed: changed.join('+')};
    },
  };
})();"""

_SLIDER = """(el) => {
  const h = el.querySelector('.noUi-handle');
  const r = el.querySelector('.widget-readout');
  return {now: +h.getAttribute('aria-valuenow'), min: +h.getAttribute('aria-valuemin'),
          max: +h.getAttribute('aria-valuemax'), readout: r ? r.innerText : h.getAttribute('aria-valuenow')};
}"""


# Run in the notebook's kernel after its cells (JupyterLab): time every comm_msg the kernel handles (a control's new
# value arrives as one). `_toyhw_bench_take()` returns [milliseconds handling them, wall-clock ms (epoch) when the
# first began] since the last call, and starts afresh. The page's clock is the same machine's, so input -> kernel can
# be told apart.
_KERNEL_HOOK = """
def _toyhw_bench_install():
    import time
    kernel = get_ipython().kernel
    handle = kernel.shell_handlers["comm_msg"]
    spans = []

    def timed(*args, **kwargs):
        wall, start = time.time(), time.perf_counter()
        try:
            return handle(*args, **kwargs)
        finally:
            spans.append((wall, time.perf_counter() - start))

    kernel.shell_handlers["comm_msg"] = timed

    def take():
        taken = [round(sum(s for _, s in spans) * 1e3, 2), spans[0][0] * 1e3 if spans else None]
        spans.clear()
        return taken
    return take


_toyhw_bench_take = _toyhw_bench_install()
"""

# The cell appended to each notebook Voila serves (Voila refuses execute requests from the page): the same wrapper,
# each span written to SPANS as a JSON line [epoch ms when it began, ms spent], after a first line naming where the
# kernel imported toyhw from. The benchmark reads the lines a move added.
_VOILA_HOOK_CELL = """def _toyhw_bench_install(path):
    import json, time
    kernel = get_ipython().kernel
    handle = kernel.shell_handlers["comm_msg"]
    try:
        import toyhw
        where = toyhw.__file__
    except ImportError:
        where = None
    with open(path, "a") as out:
        out.write(json.dumps({"toyhw": where}) + "\\n")

    def timed(*args, **kwargs):
        wall, start = time.time(), time.perf_counter()
        try:
            return handle(*args, **kwargs)
        finally:
            spent = time.perf_counter() - start
            with open(path, "a") as out:
                out.write(json.dumps([wall * 1e3, spent * 1e3]) + "\\n")

    kernel.shell_handlers["comm_msg"] = timed


_toyhw_bench_install(SPANS)
del _toyhw_bench_install"""

# Execute code in the current notebook's kernel without touching a cell; return a user expression's value (text).
_KERNEL_EXEC = test_lab._KERNEL_EXEC


class LabKernelClock:
    """The kernel's time on comm messages, read through the execute channel (JupyterLab)."""

    def __init__(self, page) -> None:
        self.page = page

    def install(self) -> list[str]:
        """Install the wrapper in the open notebook's kernel; return any problem, and note where toyhw came from."""
        hooked = self.page.evaluate(_KERNEL_EXEC, [_KERNEL_HOOK, ""])
        if hooked:
            return [f"could not time the kernel: {hooked}"]
        where = self.page.evaluate(_KERNEL_EXEC, ["import toyhw", "toyhw.__file__"]).strip("'\"")
        self.where = where
        return []

    def take(self) -> tuple[float, Optional[float]]:
        """Return (ms the kernel spent on comm messages, epoch ms the first began) since the last call."""
        shown = self.page.evaluate(_KERNEL_EXEC, ["", "_toyhw_bench_take()"])
        if shown.startswith("error"):
            raise RuntimeError(f"reading the kernel's timings failed: {shown}")
        spent, began = ast.literal_eval(shown)  # the repr of [float, float or None]
        return spent, began


class FileKernelClock:
    """The kernel's time on comm messages, read from the file the notebook's appended cell writes (Voila)."""

    def __init__(self, path: pathlib.Path) -> None:
        self.path, self.offset, self.where = path, 0, None

    def install(self) -> list[str]:
        """Check that the kernel wrote its first line (the appended cell ran); note where toyhw came from."""
        for _ in range(50):
            lines = self._new_lines()
            if lines:
                first = json.loads(lines[0])
                self.where = first.get("toyhw") if isinstance(first, dict) else None
                return []
            time.sleep(0.1)
        return [f"could not time the kernel: {self.path.name} was not written (the appended cell did not run)"]

    def _new_lines(self) -> list[str]:
        if not self.path.exists():
            return []
        with open(self.path, "rb") as f:
            f.seek(self.offset)
            data = f.read()
        complete = data[: data.rfind(b"\n") + 1]
        self.offset += len(complete)
        return [line for line in complete.decode().splitlines() if line.strip()]

    def take(self) -> tuple[float, Optional[float]]:
        spans = [json.loads(line) for line in self._new_lines()]
        spans = [s for s in spans if isinstance(s, list)]
        return round(sum(spent for _, spent in spans), 2), (spans[0][0] if spans else None)


@dataclasses.dataclass(frozen=True)
class Timing:
    """One move of one control, timed in the page.

    Attributes:
        notebook: the notebook's path under notebooks/ ("02_x.ipynb", "zh/02_x.ipynb").
        panel: "K name": the panel's index on the page and the function that built it.
        control: the control's kind and label, e.g. "slider 'budget'".
        move: what the move did, e.g. "300 -> 550".
        event: the input event the clock started at, e.g. "keydown:PageUp".
        first_ms: input event -> first mutation of the panel's chart, card or output.
        complete_ms: input event -> last mutation drawn (kernel idle, panel quiet).
        kernel_ms: time the kernel spent handling the move's comm messages (callback, description, widget messages).
        to_kernel_ms: input event -> the kernel starts handling the move (wall clocks of page and kernel, one machine).
        error: an error the panel showed after the move ("" when none).
        changed: what the move changed on screen: "drawing" (the chart's svg), "card", both ("drawing+card"), "".
    """

    notebook: str
    panel: str
    control: str
    move: str
    event: str
    first_ms: float
    complete_ms: float
    kernel_ms: float
    to_kernel_ms: float
    error: str = ""
    changed: str = ""


def trivial_notebook() -> dict:
    """Return the baseline notebook: an IntSlider (released like the panels' sliders) whose observer sets a label."""
    import nbformat

    source = '''import ipywidgets as widgets

slider = widgets.IntSlider(value=50, min=0, max=100, description="trivial", continuous_update=False)
label = widgets.HTML(f"value = {slider.value}")
slider.observe(lambda change: setattr(label, "value", f"value = {change['new']}"), names="value")
widgets.VBox([slider, label])'''
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return nb


@dataclasses.dataclass(frozen=True)
class AppServer:
    """A running JupyterLab or Voila: which (`app`), its base URL (no trailing slash), the file holding its output,
    the token it asks for, and (Voila) the folder the kernels write their timings to."""

    app: str
    url: str
    log: pathlib.Path
    token: str
    spans: Optional[pathlib.Path] = None

    def spans_file(self, name: str) -> pathlib.Path:
        """The timings file of notebook `name` (Voila)."""
        return self.spans / (name.replace("/", "-") + ".jsonl")


def _hook_for_voila(root: pathlib.Path, spans: pathlib.Path, names: list[str]) -> None:
    """Append the timing cell to each of `names` in the throwaway copy Voila serves."""
    import nbformat

    for name in names:
        path = root / "notebooks" / name
        nb = nbformat.read(path, as_version=4)
        target = spans / (name.replace("/", "-") + ".jsonl")
        nb.cells.append(nbformat.v4.new_code_cell(_VOILA_HOOK_CELL.replace("SPANS", repr(str(target)))))
        nbformat.write(nb, path)


@contextlib.contextmanager
def serve(app: str, base: pathlib.Path, names: list[str], tcp_nodelay: bool = False) -> Iterator[AppServer]:
    """Run JupyterLab or Voila as the browser tests do (throwaway copy, isolated Jupyter folders, stopped with its
    kernels) with a random token, given in its environment: on a command line any user of the machine could read it.

    `tcp_nodelay` is a diagnosis, not how `make lab` runs: see NODELAY_CONFIG.
    """
    import nbformat

    root = servers.throwaway_root(base)
    nbformat.write(nbformat.from_dict(trivial_notebook()), root / "notebooks" / TRIVIAL_NOTEBOOK)
    if tcp_nodelay:
        (base / "config").mkdir(parents=True, exist_ok=True)  # the isolated server's JUPYTER_CONFIG_DIR
        (base / "config" / "jupyter_server_config.py").write_text(NODELAY_CONFIG)
    port = servers.free_port()
    spans = None
    if app == "voila":
        spans = base / "kernel-spans"
        spans.mkdir()
        _hook_for_voila(root, spans, [TRIVIAL_NOTEBOOK, *names])
        cmd, ready = servers.voila_command(root, port), "/"
    else:
        cmd, ready = servers.lab_command(base, root, port), "/api/status"
    with contextlib.contextmanager(servers.serve)(cmd, base, root, port, ready, base / f"{app}.log") as running:
        yield AppServer(app, running.url, running.log, running.token, spans)


# Tornado leaves Nagle's algorithm on for websockets unless told (WebSocketHandler.set_nodelay) and jupyter_server does
# not tell it: a small message written while an earlier one is unacknowledged waits for the browser's delayed ACK
# (40 ms on Linux). Measured here: about half of the trivial slider's round trips take ~50 ms instead of ~15 ms.
# `--tcp-nodelay` loads this server config, which sets TCP_NODELAY on every websocket before its first write.
NODELAY_CONFIG = """import tornado.websocket

_write_message = tornado.websocket.WebSocketProtocol13.write_message


def _write_message_nodelay(self, message, binary=False):
    if not getattr(self, "_toyhw_nodelay", False) and self.stream is not None:
        self.stream.set_nodelay(True)
        self._toyhw_nodelay = True
    return _write_message(self, message, binary)


tornado.websocket.WebSocketProtocol13.write_message = _write_message_nodelay
"""


def open_and_run(page, server: AppServer, name: str) -> list[str]:
    """Open notebooks/`name` (JupyterLab: run all cells; Voila: the app page) and wait for every widget view; return
    any errors shown."""
    if server.app == "voila":
        page.goto(f"{server.url}/voila/render/{name}", timeout=LOAD_TIMEOUT * 1000)
        widget_driver.wait_voila_rendered(page, LOAD_TIMEOUT)
        return widget_driver.page_errors(page)
    page.goto(f"{server.url}/lab/tree/notebooks/{name}?reset")
    page.wait_for_function(test_lab._OPENED, arg=name, timeout=90_000)
    status = page.evaluate(test_lab._KERNEL_IDLE)
    if status != "idle":
        return [f"kernel not idle: {status}"]
    page.evaluate("() => window.jupyterapp.commands.execute('application:toggle-left-area')")  # room for plots
    test_lab._run_all(page)
    cells = test_lab._rendered(page)
    return cells["problems"] + widget_driver.page_errors(page)


def _slider_move(page, loc, k: int) -> tuple[str, Callable[[], str]]:
    """Ready a slider's handle for move `k`; return the key and a dispatch that presses it and says where it went.

    Even moves jump five steps (PageUp / PageDown), odd moves come back one step (an arrow), so the direction alternates
    and, where the range allows, no value repeats (a cache keyed on the value cannot make later moves look faster).
    The first direction is the one with more room; at an end the move goes the other way.
    """
    now = loc.evaluate(_SLIDER)
    up_first = now["max"] - now["now"] >= now["now"] - now["min"]
    up = up_first if k % 2 == 0 else not up_first
    if (up and now["now"] >= now["max"]) or (not up and now["now"] <= now["min"]):
        up = not up
    key = ("PageUp" if up else "PageDown") if k % 2 == 0 else ("ArrowUp" if up else "ArrowDown")
    handle = loc.locator(".noUi-handle").first
    handle.scroll_into_view_if_needed()
    handle.focus()

    def dispatch() -> str:
        handle.press(key)
        return f"{now['readout']} -> {loc.evaluate(_SLIDER)['readout']} ({key})"

    return key, dispatch


def prepare_move(page, loc, kind: str, k: int) -> Callable[[], str]:
    """Bring the control into view and ready to move (untimed); return the dispatch, which returns what it did."""
    if kind == "slider":
        return _slider_move(page, loc, k)[1]
    if kind in ("dropdown", "select", "select-multiple"):
        select = loc.locator("select")
        select.scroll_into_view_if_needed()
        labels = select.locator("option").all_inner_texts()
        chosen = select.evaluate("s => Array.from(s.options).flatMap((o, i) => o.selected ? [i] : [])")
        if kind == "select-multiple":  # add one (even moves), remove one (odd moves, or when all are chosen)
            rest = [i for i in range(len(labels)) if i not in chosen]
            add = rest and (k % 2 == 0 or len(chosen) < 2)
            target = sorted(chosen + rest[:1]) if add else chosen[1:]
        else:
            target = [((chosen[0] if chosen else -1) + 1) % len(labels)]
        what = f"{[labels[i] for i in chosen]} -> {[labels[i] for i in target]}"
        return lambda: (select.select_option(index=target), what)[1]
    if kind == "toggle":
        button = loc.locator("button:not(.mod-active)").first
        button.scroll_into_view_if_needed()
        text = button.inner_text()
        return lambda: (button.click(), f"-> {text!r}")[1]
    if kind in ("radio", "checkbox"):
        box = loc.locator("input[type=radio]:not(:checked)" if kind == "radio" else "input[type=checkbox]").first
        box.scroll_into_view_if_needed()
        return lambda: (box.click(), "-> the other state")[1]
    box = loc.locator("input[type=number]")  # a number box: type the next value (untimed), then Enter (timed)
    box.scroll_into_view_if_needed()
    before = box.input_value()
    step = box.get_attribute("step")
    after = str(float(before) + (float(step) if step and step != "any" else 1)).removesuffix(".0")
    box.fill(after)
    return lambda: (box.press("Enter"), f"{before} -> {after}")[1]


def panel_names(notebook: pathlib.Path) -> list[str]:
    """Return the function that built each panel of the notebook, in page order: the `*_panel` call on the last line
    of each code cell that has one (for a notebook without, as the trivial one, the last call of its last cell)."""
    cells = [
        "".join(c["source"]).strip() for c in json.loads(notebook.read_text())["cells"] if c["cell_type"] == "code"
    ]
    names, last = [], "panel"
    for source in cells:
        calls = re.findall(r"(\w+)\(", source.splitlines()[-1] if source else "")
        named = [c for c in calls if c.endswith("_panel")]
        names += named[:1]
        last = calls[-1] if calls else last
    return names or [last]


def measure_page(page, notebook: str, names: list[str], repeats: int, clock) -> list[Timing]:
    """Move every control of every panel on the page `repeats` times; return each move's timing."""
    timings = []
    for index in range(widget_driver.find_panels(page)):
        panel_loc = page.locator(f'[data-toyhw-panel="{index}"]')
        name = f"{index} {names[index] if index < len(names) else 'panel'}"
        for control in panel_loc.evaluate(widget_driver._FIND_CONTROLS):
            loc = panel_loc.locator(f'[data-toyhw-control="{control["index"]}"]')
            what = f'{control["kind"]} {control["label"]!r}'
            for k in range(repeats):
                dispatch = prepare_move(page, loc, control["kind"], k)
                clock.take()  # starts the kernel's count afresh
                panel_loc.evaluate("el => window.toyhwBench.arm(el)")
                move = dispatch()
                page.wait_for_function(
                    f"() => window.toyhwBench.complete({QUIET_MS})", polling=50, timeout=MOVE_TIMEOUT_MS
                )
                got = page.evaluate("() => window.toyhwBench.read()")
                in_kernel, began = clock.take()
                to_kernel = round(began - got["t0_epoch"], 1) if began is not None else float("nan")
                text = panel_loc.evaluate(
                    "el => Array.from(el.querySelectorAll("
                    "'.widget-output, .widget-html, .widget-htmlmath')).map(e => e.innerText)"
                    ".join('\\n')"
                )
                errors = [m.group(0).strip() for m in widget_driver.ERROR_LINE.finditer(text)]
                timings.append(
                    Timing(
                        notebook,
                        name,
                        what,
                        move,
                        got["event"],
                        round(got["first_ms"], 1),
                        round(got["complete_ms"], 1),
                        in_kernel,
                        to_kernel,
                        "; ".join(errors),
                        got["changed"],
                    )
                )
                shown = f"  ERROR {errors[0]}" if errors else ""
                print(
                    f"  [{name}] {what} {move}: first change {got['first_ms']:.0f} ms, complete "
                    f"{got['complete_ms']:.0f} ms, kernel {in_kernel:.0f} ms (from {to_kernel:.0f} ms), "
                    f"changed {got['changed'] or 'nothing'}{shown}",
                    flush=True,
                )
    return timings


KERNEL_TOYHW: set[str] = set()
"""Where the notebooks' kernels imported toyhw from (the header says it: a stale install would measure other code)."""


def _where(package: pathlib.Path) -> str:
    """Return `package` as the header says it: "toyhw/ of this checkout" when it is this repository's (no file of the
    pack names a place outside the repository), else its absolute path (a stale install, measuring other code)."""
    return "toyhw/ of this checkout" if package.resolve() == ROOT / "toyhw" else str(package)


def measure_notebook(page, server: AppServer, name: str, repeats: int) -> tuple[list[Timing], list[str]]:
    """Open, run and measure one notebook, then shut its kernel down; return its timings and any errors shown."""
    try:
        problems = open_and_run(page, server, name)
        if problems:
            return [], problems
        clock = LabKernelClock(page) if server.app == "lab" else FileKernelClock(server.spans_file(name))
        problems = clock.install()
        if problems:
            return [], problems
        if name != TRIVIAL_NOTEBOOK and clock.where:
            KERNEL_TOYHW.add(_where(pathlib.Path(clock.where).parent))
        source = (widget_driver.NOTEBOOK_DIR / name) if name != TRIVIAL_NOTEBOOK else None
        names = panel_names(source) if source else ["VBox"]
        return measure_page(page, name, names, repeats, clock), []
    finally:
        with contextlib.suppress(Exception):
            if server.app == "lab":
                page.evaluate("() => window.jupyterapp.serviceManager.sessions.shutdownAll()")
            else:
                page.goto("about:blank")  # Voila shuts the app's kernel down when its page goes


# ----- the report


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def _group(timings: list[Timing], key: Callable[[Timing], object]) -> dict[object, list[Timing]]:
    groups: dict[object, list[Timing]] = {}
    for t in timings:
        groups.setdefault(key(t), []).append(t)
    return groups


def short(notebook: str) -> str:
    """The notebook's number, with its edition: "02", "zh/02"."""
    path = pathlib.PurePosixPath(notebook)
    return "/".join([*path.parent.parts, path.name[:2]])


def _row(moves: list[Timing], base: float) -> tuple[float, float, str]:
    """Return (median, worst, the columns from median ms to kernel median ms) of a group of moves."""
    first = [t.first_ms for t in moves]
    med, worst = _median(first), max(first)
    return (
        med,
        worst,
        " | ".join(
            [
                f"{med:.0f}",
                f"{worst:.0f}",
                f"{med / base:.1f}",
                f"{worst / base:.1f}",
                *(
                    f"{_median([getattr(t, k) for t in moves]):.0f}"
                    for k in ("complete_ms", "to_kernel_ms", "kernel_ms")
                ),
            ]
        ),
    )


def report(
    timings: list[Timing],
    baseline_blocks: list[list[Timing]],
    failures: dict[str, list[str]],
    header: list[str],
    repeats: int,
    tcp_nodelay: bool = False,
) -> str:
    """Return the section's Markdown: the trivial slider, one row per notebook, one per panel, one per control.

    With `tcp_nodelay` (a diagnosis run) the baseline is not the targets' one, so no note says why a notebook misses.
    """
    trivial = [t for block in baseline_blocks for t in block]
    base = _median([t.first_ms for t in trivial])
    columns = "median ms | worst ms | median x | worst x | complete median ms | input -> kernel ms | kernel ms"
    blocks = [_median([t.first_ms for t in b]) for b in baseline_blocks]
    to_kernel, in_kernel = _median([t.to_kernel_ms for t in trivial]), _median([t.kernel_ms for t in trivial])
    lines = header + [
        "",
        f"**Trivial slider** (IntSlider -> HTML label, the Jupyter round trip): median **{base:.0f} ms**, worst "
        f"{max(t.first_ms for t in trivial):.0f} ms over {len(trivial)} moves; complete (decoded and drawn) median "
        f"{_median([t.complete_ms for t in trivial]):.0f} ms; of the median, input -> kernel {to_kernel:.0f} ms, "
        f"in the kernel {in_kernel:.1f} ms, kernel -> page about {base - to_kernel - in_kernel:.0f} ms. Median of each "
        f"block of {repeats} moves, in run order: "
        + ", ".join(f"{b:.0f}" for b in blocks)
        + " ms."
        + (
            f" **The baseline differs between blocks ({min(blocks):.0f} to {max(blocks):.0f} ms).** Each block is a "
            "fresh notebook session. Without `--tcp-nodelay` about half of the small-message round trips stall ~40 ms "
            "(Nagle's algorithm on the server's websocket), by session more than by move; a busy machine adds to "
            "that. The ratios move with the baseline: compare the absolute and kernel ms too."
            if max(blocks) > 1.5 * min(blocks)
            else ""
        ),
        "",
        f"Latency = input event -> first change of the panel on screen (its chart's <svg> replaced by the one chart.js "
        "drew from the new description, its card, or its error line); x = that / the trivial slider's median; "
        "complete = until the last change is drawn (kernel idle, panel quiet); input -> kernel = until the kernel "
        "starts on the move (the page's and the kernel's wall clocks); kernel = time the kernel spent handling the "
        "move (callback, the chart's description, widget messages). Targets of the issue: a notebook's median move "
        f"<= {TARGET_MEDIAN:g}x, its worst move <= {TARGET_WORST:g}x.",
        "",
        f"| notebook | moves | {columns} | targets |",
        "|---" * 10 + "|",
    ]
    missed: list[str] = []
    for notebook, moves in _group(timings, lambda t: t.notebook).items():
        med, worst, cells = _row(moves, base)
        misses = [f"median {med / base:.1f}x > {TARGET_MEDIAN:g}x"] if med / base > TARGET_MEDIAN else []
        misses += [f"worst {worst / base:.1f}x > {TARGET_WORST:g}x"] if worst / base > TARGET_WORST else []
        errors = sum(1 for t in moves if t.error)
        verdict = ("**MISSES**: " + ", ".join(misses)) if misses else "met"
        missed += [notebook] if misses else []
        lines.append(
            f"| {notebook} | {len(moves)} | {cells} | {verdict}"
            f"{f'; {errors} moves showed an error' if errors else ''} |"
        )
    for notebook, problems in failures.items():
        lines.append(f"| {notebook} | 0 | | | | | | | | NOT MEASURED: {problems[0][:200]} |")
    if missed and tcp_nodelay:
        lines += [
            "",
            "With `--tcp-nodelay` the trivial slider loses its Nagle stall (about 40 ms of its round trip), "
            "so these ratios are against a smaller baseline than the targets' (stock `make lab`, the run "
            "without the flag) and the verdicts are not the targets' verdicts: compare the absolute ms.",
        ]
    elif missed:
        lines += ["", "Why a notebook misses a target, and what it would take (benchmarks/latency_notes.py):", ""]
        lines += [f"- **{notebook}**: {latency_notes.why(notebook)}" for notebook in missed]
    lines += [
        "",
        "### Per panel",
        "",
        f"Every move of every control of the panel ({repeats} a control); changed = what the moves changed on screen.",
        "",
        f"| notebook | panel | moves | {columns} | changed |",
        "|---" * 11 + "|",
    ]
    for (notebook, panel), moves in _group(timings, lambda t: (t.notebook, t.panel)).items():
        _, _, cells = _row(moves, base)
        changed = sorted({t.changed or "nothing" for t in moves})
        lines.append(f"| {short(notebook)} | {panel} | {len(moves)} | {cells} | {', '.join(changed)} |")
    controls = _group(timings, lambda t: (t.notebook, t.panel, t.control))
    lines += [
        "",
        "### Per panel and control",
        "",
        f"Each control moved {repeats} times, slowest median first; **>{TARGET_MEDIAN:g}x** marks a median over "
        f"the median target, **>{TARGET_WORST:g}x** a move over the worst-move target.",
        "",
        f"| notebook | panel | control | {columns} | moves: ms |",
        "|---" * 11 + "|",
    ]
    for (notebook, panel, control), moves in sorted(
        controls.items(), key=lambda kv: -_median([t.first_ms for t in kv[1]])
    ):
        med, worst, cells = _row(moves, base)
        flag = (f" **>{TARGET_MEDIAN:g}x**" if med / base > TARGET_MEDIAN else "") + (
            f" **>{TARGET_WORST:g}x**" if worst / base > TARGET_WORST else ""
        )
        lines.append(
            f"| {short(notebook)} | {panel} | {control}{flag} | {cells} | "
            + "; ".join(f"{t.move}: {t.first_ms:.0f}" for t in moves)
            + " |"
        )
    return "\n".join(lines) + "\n"


def machine_header(
    label: Optional[str],
    argv: list[str],
    chromium: str,
    load: tuple[float, float, float],
    started: datetime.datetime,
    app: str = "lab",
) -> list[str]:
    """Return the lines that say how, where and when (`started`, with the `load` then) the figures were taken."""
    import anywidget
    import ipywidgets
    import jupyterlab
    import voila

    cpu = "unknown CPU"
    with contextlib.suppress(OSError):
        cpu = next(
            (
                line.split(":", 1)[1].strip()
                for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")
            ),
            cpu,
        )
    cores = len(os.sched_getaffinity(0))
    now = started.strftime("%Y-%m-%d %H:%M UTC")
    command = shlex.join([".venv/bin/python", "benchmarks/bench_browser.py", *argv])
    return [
        f"Command: `{command}`" + (f" (label: {label})" if label else ""),
        "",
        f"Machine: {cpu}, {cores} cores usable, load average {load[0]:.2f} / {load[1]:.2f} / {load[2]:.2f} "
        f"(1 / 5 / 15 min) at the start, {now}; Chromium {chromium} (headless), "
        + (f"Voila {voila.__version__}" if app == "voila" else f"JupyterLab {jupyterlab.__version__}")
        + f", ipywidgets {ipywidgets.__version__}, anywidget {anywidget.__version__}, Python {sys.version.split()[0]}.",
    ]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--app",
        choices=sorted(APPS),
        default="lab",
        help="lab: JupyterLab, the notebooks run cell by cell (default); voila: the code-free apps of `make present`",
    )
    parser.add_argument(
        "--notebooks",
        default="",
        help="comma-separated prefixes: 02 (both editions), zh/02 (the Chinese one) (default: every notebook of both "
        "editions with a widget cell)",
    )
    parser.add_argument("--repeats", type=int, default=5, help="moves per control (default 5)")
    parser.add_argument("--label", default="", help='names the section, e.g. "before" or "after"')
    parser.add_argument("--out", type=pathlib.Path, default=HERE / "RESULTS.md", help="Markdown file to write into")
    parser.add_argument("--raw", type=pathlib.Path, help="also write every move's timing to this JSON file")
    parser.add_argument(
        "--tcp-nodelay",
        action="store_true",
        help="diagnosis: JupyterLab with TCP_NODELAY on its websockets (not how `make lab` runs it)",
    )
    args = parser.parse_args(argv)
    if args.tcp_nodelay and args.app != "lab":
        parser.error("--tcp-nodelay is a diagnosis of JupyterLab's websockets: use it with --app lab")
    load, started = os.getloadavg(), datetime.datetime.now(datetime.timezone.utc)
    why = lab._why_no_browser()
    if why:
        print(f"cannot run: {why}", file=sys.stderr)
        return 2
    every = [widget_driver.served_name(p) for p in widget_driver.notebooks()]
    chosen = [widget_driver.served_name(p) for p in widget_driver.notebooks() if widget_driver.has_widget_cells(p)]
    if args.notebooks:
        prefixes = [p.strip() for p in args.notebooks.split(",") if p.strip()]
        chosen = [
            n
            for n in every
            if any(n.startswith(p) or ("/" not in p and pathlib.PurePosixPath(n).name.startswith(p)) for p in prefixes)
        ]
        if not chosen:
            parser.error(f"no notebook matches {args.notebooks!r}")
    from playwright.sync_api import sync_playwright

    timings: list[Timing] = []
    blocks: list[list[Timing]] = []
    failures: dict[str, list[str]] = {}
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="toyhw-bench-") as tmp, sync_playwright() as pw:
        base = pathlib.Path(tmp)
        browser = pw.chromium.launch(executable_path=str(lab.CHROMIUM), args=lab.CHROMIUM_ARGS, headless=True)
        try:
            with serve(args.app, base, chosen, args.tcp_nodelay) as server:
                context = browser.new_context(viewport=lab.VIEWPORT)
                context.set_default_timeout(30_000)
                context.add_init_script(_INSTRUMENT)
                page = context.new_page()
                first = "/lab" if args.app == "lab" else "/"
                page.goto(f"{server.url}{first}?token={server.token}")  # logs in: the cookie serves later pages
                try:
                    for name in [*chosen, None]:
                        print(f"{TRIVIAL_NOTEBOOK} (baseline)", flush=True)
                        block, problems = measure_notebook(page, server, TRIVIAL_NOTEBOOK, args.repeats)
                        if problems:
                            raise RuntimeError(f"the trivial slider notebook failed: {problems}")
                        blocks.append(block)
                        if name is None:
                            break
                        print(name, flush=True)
                        found, problems = measure_notebook(page, server, name, args.repeats)
                        timings += found
                        if problems:
                            failures[name] = problems
                            print(f"  NOT MEASURED: {problems}", flush=True)
                except Exception:
                    print(f"server log ({server.log}):\n{server.log.read_text()[-3000:]}", file=sys.stderr)
                    raise
        finally:
            chromium = browser.version
            browser.close()
    header = machine_header(args.label or None, argv, chromium, load, started, args.app)
    header.append(
        f"The run took {time.monotonic() - start:.0f} s; load average {os.getloadavg()[0]:.2f} (1 min) at "
        "its end."
        + (f" The kernels imported toyhw from {', '.join(sorted(KERNEL_TOYHW))}." if KERNEL_TOYHW else "")
        + (
            " JupyterLab ran with TCP_NODELAY on its websockets (`--tcp-nodelay`, a diagnosis: `make lab` does not)."
            if args.tcp_nodelay
            else ""
        )
    )
    text = report(timings, blocks, failures, header, args.repeats, args.tcp_nodelay)
    print(text)
    section = SECTION.format(app=APPS[args.app])
    results_md.replace_section(args.out, section + (f" — {args.label}" if args.label else ""), text)
    print(f"wrote its section into {args.out}")
    if args.raw:
        args.raw.write_text(
            json.dumps(
                {
                    "baseline": [[dataclasses.asdict(t) for t in b] for b in blocks],
                    "moves": [dataclasses.asdict(t) for t in timings],
                },
                indent=1,
            )
            + "\n"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
