"""Where the time of a widget move goes, in process (no browser, no kernel): compute, figure, layout, draw, PNG.

Run: .venv/bin/python benchmarks/profile_panels.py [--panels 01,03] [--repeats 5] [--label before]
                                                    [--out benchmarks/RESULTS.md] [--cprofile DIR]

Builds every panel of notebooks 01-07 (05 and 08 have none) with the notebook's own arguments (after the computations
the notebook runs before it, its static figure of the panel's first state included, so its first draw is the one a
student sees), then moves each control `--repeats` times the way
bench_browser.py does (sliders five steps one way and one step back, the next dropdown option, one more / one fewer
selected, the number one up, the other toggle) by setting the control's `.value`: the very path a browser move takes
once the kernel has the new value. Around each move it times, with perf_counter wrappers installed on the panels' own
functions (nothing in toyhw changes):

- compute: the toyhw calls that produce the numbers (outermost call only; cached calls count as called);
- figure build: the panel's *_figure function minus the compute inside it (plt.subplots, plotting);
- layout: savefig's first pass over a figure with a layout engine (constrained layout, every text measured, drawing
  disabled);
- draw: FigureCanvasAgg.draw inside savefig, the pass that rasterizes at the panel's DPI;
- PNG: PIL's PNG encoder (zlib), and the PNG's bytes and pixel size;
- card: an HTML card's formatting minus the compute inside it; other: the rest (widget state, plt.close).

It also counts the calls per move, so work done twice shows (two figures, two draws, a compute asked for again), and
draws each panel's last figure again in other ways (without constrained layout, updated in place instead of rebuilt,
another DPI or zlib level), which is what such a change would save. `--cprofile DIR` also writes one cProfile file
per panel (first draw and moves) to dig further.
Writes the section "## Where a move's time goes (in process)[ — label]" of the output file, leaving the rest alone.
"""

from __future__ import annotations

import argparse
import base64
import cProfile
import dataclasses
import functools
import io
import math
import os
import pathlib
import shlex
import statistics
import sys
import time
from collections import Counter
from typing import Any, Callable, Optional

import matplotlib

matplotlib.use("Agg")

import ipywidgets as widgets  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import PIL.Image  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.axes._base import _AxesBase  # noqa: E402
from matplotlib.layout_engine import ConstrainedLayoutEngine  # noqa: E402

import results_md  # noqa: E402 - benchmarks/ is sys.path[0] when this script runs
from toyhw import metrics  # noqa: E402
from toyhw.evolve.experiments import ablations, branch_check, targeting  # noqa: E402
from toyhw.gemm import config as gemm_config, cost as gemm_cost, expert, shapes  # noqa: E402
from toyhw.gemm.time_table import TimeTable  # noqa: E402
from toyhw.kernels import knobs, study  # noqa: E402
from toyhw.panels import common, evolution, fastp, gemm  # noqa: E402

try:
    from toyhw.panels import live  # noqa: E402 - the kept figures of issue 16 (absent before)
except ImportError:
    live = None

HERE = pathlib.Path(__file__).resolve().parent
SECTION = "Where a move's time goes (in process)"
PHASES = ("figure", "card", "encode")  # compute inside one of these is booked to it
TIMED = PHASES + ("render", "layout", "png")  # kinds whose time is summed (a call inside one of its kind: counted only)


class Probe:
    """perf_counter wrappers on named functions, summing seconds per kind and counting calls, reset per move.

    Why wrappers and not cProfile alone: cProfile's per-call overhead inflates Python-heavy compute (the evolution
    runs) several-fold and says nothing about which phase a call belonged to; a wrapper costs one perf_counter pair.
    """

    def __init__(self) -> None:
        self.seconds: Counter[str] = Counter()
        self.calls: Counter[str] = Counter()
        self.call_seconds: Counter[str] = Counter()
        self.last_figure: Optional[Figure] = None
        self.last_build: Optional[Callable[[], Figure]] = None  # the last figure's *_figure call, to rebuild it
        self.last_show: Optional[tuple[Any, tuple, dict]] = None  # the last (view, args, kwargs) of a kept view's show
        self.png: list[tuple[int, tuple[int, int]]] = []  # (bytes, (width, height)) of each PNG this move
        self._phases: list[str] = []
        self._in_compute = False
        self._undo: list[tuple[Any, str, Any]] = []

    def reset(self) -> None:
        self.seconds.clear()
        self.calls.clear()
        self.call_seconds.clear()
        self.png = []

    def wrap(self, owner: Any, name: str, kind: str, label: str = "") -> None:
        """Replace `owner.name` by a timing wrapper of `kind` (compute, figure, card, encode, render, png, count)."""
        original = owner.__dict__[name] if isinstance(owner, type) else getattr(owner, name)
        label = label or f"{getattr(owner, '__name__', owner)}.{name}".replace("toyhw.", "")
        probe = self

        @functools.wraps(original)
        def wrapper(*args, **kwargs):
            probe.calls[label] += 1
            if kind == "compute" and probe._in_compute:
                return original(*args, **kwargs)  # inside another compute call: counted, its time is the caller's
            if kind in TIMED and kind in probe._phases:
                return original(*args, **kwargs)  # e.g. a static figure's view drawing: counted, timed by the caller
            if kind == "compute":
                probe._in_compute = True
            inside_render = "render" in probe._phases
            if kind in TIMED:
                probe._phases.append(kind)
            start = time.perf_counter()
            try:
                result = original(*args, **kwargs)
            finally:
                seconds = time.perf_counter() - start
                if kind in TIMED:
                    probe._phases.pop()
                if kind == "compute":
                    probe._in_compute = False
                    phase = next((k for k in reversed(probe._phases) if k in PHASES), "move")
                    probe.seconds[f"compute:{phase}"] += seconds
                elif kind == "layout" and inside_render:
                    probe.seconds["layout:render"] += seconds
                elif kind != "count":
                    probe.seconds[kind] += seconds
                probe.call_seconds[label] += seconds
            if kind == "figure" and isinstance(result, Figure):
                probe.last_figure = result
                probe.last_build = functools.partial(original, *args, **kwargs)
            if kind == "figure" and name == "show":
                probe.last_show = (args[0], args[1:], kwargs)
            if kind == "encode":
                raw = base64.b64decode(result["data"]["image/png"])
                probe.png.append((len(raw), PIL.Image.open(io.BytesIO(raw)).size))
            return result

        setattr(owner, name, wrapper)
        self._undo.append((owner, name, original))

    def undo(self) -> None:
        for owner, name, original in reversed(self._undo):
            setattr(owner, name, original)
        self._undo.clear()


def _views() -> list[type]:
    """Return the panels' view classes (toyhw.panels.live: a kept figure whose `show` draws a state), if any."""
    return [
        v
        for module in (fastp, gemm, evolution)
        for v in vars(module).values()
        if isinstance(v, type) and v.__module__ == module.__name__ and hasattr(v, "FIGSIZE") and hasattr(v, "show")
    ]


def instrument(probe: Probe) -> None:
    """Wrap the functions a move goes through, where the panels look them up (module attributes, at call time).

    Written for the panels before and after issue 16: a function only one of them has is wrapped where it exists
    (the *_figure functions that every move called, or the views a panel keeps and the PanelRace of notebook 02).
    """
    for owner, names in (
        (study, ["one_shot", "fastp_curves", "best_possible_speedups", "task_kernel", "iterative_speedups"]),
        (metrics, ["fast_p", "fast_p_curve"]),
        (targeting, ["targeting"]),
        (branch_check, ["branch_row", "crashes"]),
        (ablations, ["context"]),
        (evolution, ["full_study", "simplify", "static_check", "render"]),
        (gemm, ["shared_table"]),
        (shapes, ["layer_shape"]),
        (expert, ["expert_config"]),
        (gemm_cost, ["gemm_time"]),
        (gemm_config, ["launch_problem"]),
        (TimeTable, ["time", "oracle", "roofline"]),
        (getattr(fastp, "PanelRace", None), ["curves", "ceiling"]),
    ):
        for name in names:
            if owner is not None and hasattr(owner, name):
                probe.wrap(owner, name, "compute")
    for owner, name in (
        (fastp, "one_shot_figure"),
        (fastp, "feedback_figure"),
        (gemm, "explorer_figure"),
        (evolution, "ablation_figure"),
        (evolution, "feedback_figure"),
        (evolution, "branches_figure"),
    ):
        probe.wrap(owner, name, "figure")
    for view in _views():
        probe.wrap(view, "__init__", "figure", f"{view.__name__}()")
        probe.wrap(view, "show", "figure", f"{view.__name__}.show")
    probe.wrap(fastp, "describe_kernel", "card")
    probe.wrap(evolution, "describe_latent", "card")
    if hasattr(common, "figure_output"):
        probe.wrap(common, "figure_output", "encode")
    if live is not None:
        probe.wrap(live, "png_output", "encode")
    probe.wrap(FigureCanvasAgg, "draw", "render", "Agg draw")
    probe.wrap(ConstrainedLayoutEngine, "execute", "layout", "constrained layout")
    probe.wrap(PIL.Image.Image, "save", "png", "PNG save")
    probe.wrap(plt, "subplots", "count", "plt.subplots")
    probe.wrap(Figure, "savefig", "count", "Figure.savefig")
    probe.wrap(Figure, "draw", "count", "Figure.draw")
    probe.wrap(_AxesBase, "cla", "count", "Axes.cla")


def my_proposer(feedback: knobs.RunFeedback, config: knobs.KernelConfig, rng) -> knobs.KernelConfig:
    """Notebook 02's exercise proposer, as the notebook defines it (cell 17), so its panel gets the same extra mode."""
    if not feedback.ok:
        return knobs.KernelConfig()
    return knobs.mutate(config, rng)


MODES = ["resample", "scalar", "explain", "suggest"]


@dataclasses.dataclass(frozen=True)
class PanelCase:
    """A panel as a notebook builds it.

    Attributes:
        notebook: the notebook's number; name: the panel function's name.
        before: what the notebook computes before the panel cell (untimed: its caches are warm in the notebook too).
        build: builds the panel exactly as the notebook's cell does.
    """

    notebook: str
    name: str
    before: Callable[[], object]
    build: Callable[[], widgets.Widget]


CASES = [
    PanelCase(
        "01", "task_explorer_panel", lambda: study.one_shot(230, 200), lambda: fastp.task_explorer_panel(230, 200)
    ),
    PanelCase(
        "01",
        "one_shot_panel",
        lambda: fastp.one_shot_figure(230, 200, 1.0),
        lambda: fastp.one_shot_panel(230, 200, p=1.0),
    ),
    PanelCase(
        "02",
        "feedback_panel",
        lambda: (
            study.fastp_curves(MODES, p=1.5, max_rounds=100),
            study.feedback_table(230, 200, MODES + [my_proposer], rounds=(5, 10, 20, 50)),
            fastp.feedback_figure(MODES + [my_proposer], 50, 1.0, 230, 200),
        ),
        lambda: fastp.feedback_panel(MODES, max_rounds=50, p=1.0, extra={"my_proposer": my_proposer}),
    ),
    PanelCase(
        "03",
        "gemm_panel",
        lambda: gemm.explorer_figure("H100", "70B/8 qkv", 16, gemm_config.GemmConfig(16, 64, 128, 4, 3, 1)),
        lambda: gemm.gemm_panel(gpu="H100", layer="70B/8 qkv", M=16),
    ),
    PanelCase(
        "04",
        "ablation_panel",
        lambda: evolution.ablation_figure(
            ["full", "fb_roofline", "no_feedback", "small_llm", "no_evolution"], ablations.BUDGET, len(ablations.SEEDS)
        ),
        lambda: evolution.ablation_panel(["full", "fb_roofline", "no_feedback", "small_llm", "no_evolution"]),
    ),
    PanelCase(
        "06",
        "feedback_panel",
        lambda: evolution.feedback_figure(0, 300),
        lambda: evolution.feedback_panel(seed=0, budget=300),
    ),
    PanelCase(
        "07",
        "branches_panel",
        lambda: (
            branch_check.branches(seeds=(0, 1, 2, 3, 4), budget=1000),
            evolution.branches_figure(0, 1000),
            evolution.describe_latent(branch_check.branch_row(0, 1000, False)),
        ),
        lambda: evolution.branches_panel(seed=0, budget=1000),
    ),
]

CONTROL_TYPES = (
    widgets.IntSlider,
    widgets.FloatSlider,
    widgets.FloatLogSlider,
    widgets.Dropdown,
    widgets.SelectMultiple,
    widgets.Select,
    widgets.ToggleButtons,
    widgets.RadioButtons,
    widgets.Checkbox,
    widgets.BoundedIntText,
    widgets.IntText,
    widgets.BoundedFloatText,
    widgets.FloatText,
)


def controls(widget: widgets.Widget) -> list[widgets.Widget]:
    """Return the panel's controls in page order (outside its Outputs), as the browser benchmark finds them."""
    if isinstance(widget, CONTROL_TYPES):
        return [widget]
    if isinstance(widget, widgets.Output):
        return []
    return [c for child in getattr(widget, "children", ()) for c in controls(child)]


def next_value(control: widgets.Widget, k: int) -> tuple[str, Callable[[], None]]:
    """Return (what move `k` does, the assignment that does it): the same pattern as bench_browser.py's moves."""
    if isinstance(control, (widgets.IntSlider, widgets.FloatSlider, widgets.FloatLogSlider)):
        log = isinstance(control, widgets.FloatLogSlider)
        now = math.log(control.value, control.base) if log else control.value
        up_first = control.max - now >= now - control.min
        up = up_first if k % 2 == 0 else not up_first
        if (up and now >= control.max) or (not up and now <= control.min):
            up = not up
        steps = 5 if k % 2 == 0 else 1
        new = min(control.max, max(control.min, now + (steps if up else -steps) * control.step))
        value = control.base**new if log else (round(new, 10) if isinstance(new, float) else new)
        return f"{control.value:g} -> {value:g}", lambda: setattr(control, "value", value)
    if isinstance(control, widgets.SelectMultiple):
        chosen = list(control.index)
        rest = [i for i in range(len(control.options)) if i not in chosen]
        add = rest and (k % 2 == 0 or len(chosen) < 2)
        target = tuple(sorted(chosen + rest[:1])) if add else tuple(chosen[1:])
        return (
            f"{'+' if add else '-'}{control.options[(rest[:1] if add else chosen[:1])[0]]}",
            lambda: setattr(control, "index", target),
        )
    if isinstance(control, (widgets.Dropdown, widgets.Select, widgets.ToggleButtons, widgets.RadioButtons)):
        index = ((control.index if control.index is not None else -1) + 1) % len(control.options)
        return f"-> {control.options[index]}", lambda: setattr(control, "index", index)
    if isinstance(control, widgets.Checkbox):
        return f"-> {not control.value}", lambda: setattr(control, "value", not control.value)
    step = 1
    return f"{control.value} -> {control.value + step}", lambda: setattr(control, "value", control.value + step)


@dataclasses.dataclass
class Measured:
    """One timed event: a panel's first draw or one move of one control."""

    notebook: str
    panel: str
    control: str  # "first draw" for the panel's construction
    move: str
    total: float
    seconds: dict[str, float]
    calls: dict[str, int]
    call_seconds: dict[str, float]
    png: list[tuple[int, tuple[int, int]]]


def timed(probe: Probe, case: PanelCase, control: str, move: str, action: Callable[[], Any]) -> tuple[Measured, Any]:
    """Run `action` with the probe reset; return what it measured and the action's result."""
    probe.reset()
    start = time.perf_counter()
    result = action()
    total = time.perf_counter() - start
    return Measured(
        case.notebook,
        case.name,
        control,
        move,
        total,
        dict(probe.seconds),
        dict(probe.calls),
        dict(probe.call_seconds),
        list(probe.png),
    ), result


def _savefig_seconds(fig: Figure, **kwargs) -> tuple[float, int]:
    buffer = io.BytesIO()
    start = time.perf_counter()
    fig.savefig(buffer, format="png", **kwargs)
    return time.perf_counter() - start, len(buffer.getvalue())


WAYS = (
    "rebuild = what a move does today (the *_figure call with its compute cached, savefig at the panel's DPI); "
    "fixed layout = the same without a layout engine (savefig's layout pass goes; margins would have to be set by "
    "hand); re-save = savefig of a figure already drawn once, the floor of a figure updated in place (its text "
    "measurements stay cached with its renderer, which a rebuilt figure loses); layout frozen = that with the "
    "layout computed once and kept; then the pixel (dpi) and zlib knobs on a rebuild."
)


def alternatives(build: Callable[[], Figure], repeats: int = 5) -> list[tuple[str, float, int]]:
    """Return (what, median seconds, PNG bytes) of drawing the panel's last figure again in the ways WAYS names."""

    def rebuild(**kwargs) -> tuple[float, int]:
        start = time.perf_counter()
        fig = build()
        if kwargs.pop("fixed_layout", False):
            fig.set_layout_engine("none")
        seconds, size = _savefig_seconds(fig, **kwargs)
        plt.close(fig)
        return time.perf_counter() - start, size

    def resave(frozen: bool) -> tuple[float, int]:
        fig = build()
        fig.savefig(io.BytesIO(), format="png", dpi=dpi)
        if frozen:
            fig.set_layout_engine("none")
        result = _savefig_seconds(fig, dpi=dpi)
        plt.close(fig)
        return result

    dpi = getattr(common, "DPI", 80)
    ways: list[tuple[str, Callable[[], tuple[float, int]]]] = [
        ("rebuild (today)", lambda: rebuild(dpi=dpi)),
        ("rebuild, fixed layout", lambda: rebuild(dpi=dpi, fixed_layout=True)),
        ("re-save (update in place)", lambda: resave(False)),
        ("re-save, layout frozen", lambda: resave(True)),
        ("rebuild, dpi 64", lambda: rebuild(dpi=64)),
        ("rebuild, PNG compress_level 1", lambda: rebuild(dpi=dpi, pil_kwargs={"compress_level": 1})),
    ]
    return _median_runs(ways, repeats)


def _median_runs(ways: list[tuple[str, Callable[[], tuple[float, int]]]], repeats: int) -> list[tuple[str, float, int]]:
    rows = []
    for what, way in ways:
        runs = [way() for _ in range(repeats)]
        rows.append((what, statistics.median(s for s, _ in runs), runs[-1][1]))
    return rows


WAYS_KEPT = (
    "kept, nothing re-plotted = the panel's kept figure drawn again for the same state (one-pass draw with "
    "its layout, and the PNG: the floor of a move); kept, every Axes re-plotted = the same figure with every "
    "Axes cleared and drawn again (what a move that changes everything costs); new figure = a fresh view "
    "built and drawn the same way (what keeping the figure saves); new figure, savefig = that saved with "
    "savefig at the same DPI (a layout pass and a draw: what one-pass drawing saves)."
)


def kept_alternatives(view: Any, args: tuple, kwargs: dict, repeats: int = 5) -> list[tuple[str, float, int]]:
    """Return (what, median seconds, PNG bytes) of a kept view's last state drawn again in the ways WAYS_KEPT names."""

    def timed_png(make_output: Callable[[], dict]) -> tuple[float, int]:
        start = time.perf_counter()
        shown = make_output()
        return time.perf_counter() - start, len(base64.b64decode(shown["data"]["image/png"]))

    def kept(replot: bool) -> tuple[float, int]:
        figure = live.LiveFigure(type(view))
        figure.view = view
        if replot:
            for slot in vars(view).values():
                if isinstance(slot, live.Slot):
                    slot.key = live._UNSET
        return timed_png(lambda: figure.output(lambda v: v.show(*args, **kwargs)))

    def new(savefig: bool) -> tuple[float, int]:
        start = time.perf_counter()
        fresh = type(view)(True)
        fresh.show(*args, **kwargs)
        if savefig:
            size = _savefig_seconds(fresh.figure, dpi=fresh.figure.dpi)[1]
        else:
            size = len(base64.b64decode(live.png_output(fresh.figure)["data"]["image/png"]))
        return time.perf_counter() - start, size

    return _median_runs(
        [
            ("kept, nothing re-plotted", lambda: kept(False)),
            ("kept, every Axes re-plotted", lambda: kept(True)),
            ("new figure", lambda: new(False)),
            ("new figure, savefig", lambda: new(True)),
        ],
        repeats,
    )


def profile_case(
    case: PanelCase, probe: Probe, repeats: int, cprofile_dir: Optional[pathlib.Path]
) -> tuple[list[Measured], list[tuple[str, float, int]], float]:
    """Return the first draw and every move of one panel, its last figure drawn other ways, and the warm-up time."""
    start = time.perf_counter()
    case.before()
    plt.close("all")  # the static figures the notebook showed before the panel (the inline backend closes them)
    before = time.perf_counter() - start
    probe.last_figure, probe.last_build, probe.last_show = None, None, None
    profiler = cProfile.Profile() if cprofile_dir else None
    if profiler:
        profiler.enable()
    first, panel = timed(probe, case, "first draw", "", case.build)
    found = [first]
    for control in controls(panel):
        label = f"{type(control).__name__} '{control.description}'"
        for k in range(repeats):
            what, assign = next_value(control, k)
            found.append(timed(probe, case, label, what, assign)[0])
    if profiler:
        profiler.disable()
        cprofile_dir.mkdir(parents=True, exist_ok=True)
        profiler.dump_stats(str(cprofile_dir / f"{case.notebook}_{case.name}.pstats"))
    build, show = probe.last_build, probe.last_show
    probe.last_figure, probe.last_build, probe.last_show = None, None, None
    if show is not None:
        return found, kept_alternatives(*show), before
    return found, (alternatives(build) if build is not None else []), before


# ----- the report


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.0f}" if seconds >= 0.0095 else f"{seconds * 1e3:.1f}"


COLUMNS = ("compute", "build", "layout", "hidden pass", "draw", "png", "card", "other")


def _parts(m: Measured) -> dict[str, float]:
    """Split a measurement into the report's columns (they add up to its total).

    savefig of a figure with a layout engine draws twice: a hidden pass with drawing disabled that runs constrained
    layout and measures every text, then the real Agg draw, which runs the layout again. layout = every constrained
    layout run; hidden pass = the rest of encoding outside the Agg draw and the PNG encoder (savefig's hidden draw;
    with one-pass drawing only the RGB conversion and base64 are left there); draw = the Agg draw minus its layout.
    """
    s = m.seconds
    compute = sum(v for k, v in s.items() if k.startswith("compute:"))
    build = s.get("figure", 0.0) - s.get("compute:figure", 0.0)
    card = s.get("card", 0.0) - s.get("compute:card", 0.0)
    render, png, encode = s.get("render", 0.0), s.get("png", 0.0), s.get("encode", 0.0)
    layout_in, layout_out = s.get("layout:render", 0.0), s.get("layout", 0.0)
    other = m.total - compute - build - card - encode
    return {
        "total": m.total,
        "compute": compute,
        "build": build,
        "layout": layout_in + layout_out,
        "hidden pass": encode - render - png - layout_out,
        "draw": render - layout_in,
        "png": png,
        "card": card,
        "other": other,
    }


def _twice(moves: list[Measured]) -> str:
    """Return what a move calls more than once (median over the moves), with its time when >= 1 ms.

    Work done twice shows here (two figures, two savefigs, a computation asked for again); many calls of a cheap
    function (a curve's points, a tile map's cells) are shown too, by their count.
    """
    notes = []
    for name in sorted({n for m in moves for n in m.calls}):
        calls = statistics.median([m.calls.get(name, 0) for m in moves])
        if calls >= 2 and name != "Agg draw":  # savefig's renderer probe calls it once more and returns at once
            ms = statistics.median([m.call_seconds.get(name, 0.0) for m in moves]) * 1e3
            notes.append(f"{name} x{calls:g}" + (f" ({ms:.0f} ms)" if ms >= 1 else ""))
    return ", ".join(notes)


def report(results: list[tuple[PanelCase, list[Measured], list, float]], header: list[str]) -> str:
    """Return the section's Markdown: one row per first draw and per control, then the encoding alternatives."""
    lines = header + [
        "",
        "Milliseconds in the kernel's process, per move (median over the control's moves; the first draw is one "
        "measurement). compute = toyhw's numbers (cached calls are cheap); build = making the figure and plotting "
        "(plt.subplots, or clearing a kept figure's Axes and plotting into them, or updating their artists in place); "
        "layout = every run of constrained layout; hidden pass = savefig's draw with rendering off that precedes the "
        "real one (with one-pass drawing only the RGB conversion and base64 are left); draw = the Agg draw that "
        "rasterizes, minus its layout; PNG = the zlib encoder; card = HTML card formatting; other = widget state, "
        "plt.close. They add up to total. The browser adds the Jupyter round trip and the transfer of the PNG (base64, "
        "4/3 of its bytes) to this.",
        "",
        "| nb | panel | control | total | compute | build | layout | hidden pass | draw | PNG | card | other | PNG "
        "| pixels | called more than once per move |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for case, measured, _, before in results:
        groups: dict[str, list[Measured]] = {}
        for m in measured:
            groups.setdefault(m.control, []).append(m)
        for control, moves in groups.items():
            parts = {k: statistics.median([_parts(m)[k] for m in moves]) for k in _parts(moves[0])}
            pngs = [p for m in moves for p in m.png]
            size = f"{statistics.median([b for b, _ in pngs]) / 1024:.0f} KiB" if pngs else ""
            pixels = "{}x{}".format(*pngs[-1][1]) if pngs else ""
            name = case.name + (f" (warm-up before it {before * 1e3:.0f} ms)" if control == "first draw" else "")
            lines.append(
                f"| {case.notebook} | {name} | {control} | **{_ms(parts['total'])}** | "
                + " | ".join(_ms(parts[k]) for k in COLUMNS)
                + f" | {size} | {pixels} | {_twice(moves)} |"
            )
    settings = next((r[2] for r in results if r[2]), [])
    if settings:
        ways = WAYS_KEPT if settings[0][0].startswith("kept") else WAYS
        lines += [
            "",
            "### Each panel's last figure drawn again in other ways",
            "",
            "ms (median of 5) and PNG KiB for the figure of the panel's last move. " + ways,
            "",
            "| nb | panel | " + " | ".join(what for what, *_ in settings) + " |",
            "|---|---|" + "---|" * len(settings),
        ]
    for case, _, alts, _ in results:
        if alts:
            lines.append(
                f"| {case.notebook} | {case.name} | "
                + " | ".join(f"{_ms(s)} ms, {b / 1024:.0f} KiB" for _, s, b in alts)
                + " |"
            )
    return "\n".join(lines) + "\n"


def _dpis() -> str:
    """Return the panels' DPI as the header says it: one for all (before issue 16), or each view's."""
    if hasattr(common, "DPI"):
        return f"the panels' DPI {common.DPI}"
    return "each view's DPI (" + ", ".join(f"{v.__name__} {v.DPI}" for v in _views()) + ")"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--panels", default="", help="comma-separated notebook numbers, e.g. 01,03 (default: all)")
    parser.add_argument("--repeats", type=int, default=5, help="moves per control (default 5)")
    parser.add_argument("--label", default="", help='names the section, e.g. "before" or "after"')
    parser.add_argument("--out", type=pathlib.Path, default=HERE / "RESULTS.md", help="Markdown file to write into")
    parser.add_argument("--cprofile", type=pathlib.Path, help="also write a cProfile file per panel into this folder")
    args = parser.parse_args(argv)
    load, started = os.getloadavg(), time.gmtime()
    wanted = [p.strip() for p in args.panels.split(",") if p.strip()]
    cases = [c for c in CASES if not wanted or c.notebook in wanted]
    probe = Probe()
    instrument(probe)
    warm = plt.figure()  # matplotlib's first figure pays font and backend set-up; a notebook has paid it long before
    warm.savefig(io.BytesIO(), format="png")
    plt.close("all")
    results = []
    start = time.perf_counter()
    for case in cases:
        measured, alts, before = profile_case(case, probe, args.repeats, args.cprofile)
        results.append((case, measured, alts, before))
        for m in measured:
            p = _parts(m)
            print(
                f"{case.notebook} {case.name} {m.control} {m.move}: "
                + ", ".join(f"{k} {v * 1e3:.0f}" for k, v in p.items())
                + " ms",
                flush=True,
            )
    probe.undo()
    cores = len(os.sched_getaffinity(0))
    header = [
        f"Command: `{shlex.join(['.venv/bin/python', 'benchmarks/profile_panels.py', *argv])}`",
        "",
        f"Machine: {cores} cores usable, load average {load[0]:.2f} / {load[1]:.2f} / {load[2]:.2f} (1 / 5 / 15 "
        f"min) at the start, {os.getloadavg()[0]:.2f} (1 min) at the end; "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', started)} (start); matplotlib {matplotlib.__version__} (Agg), "
        f"PNG at {_dpis()}; the run took {time.perf_counter() - start:.0f} s.",
    ]
    text = report(results, header)
    print(text)
    results_md.replace_section(args.out, SECTION + (f" — {args.label}" if args.label else ""), text)
    print(f"wrote its section into {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
