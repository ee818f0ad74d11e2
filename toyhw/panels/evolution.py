"""Widget panels of lecture 14: the ablation curves, where feedback points, latent bad branches.

Each figure is a chart description (toyhw.charts): the notebook's static figure is the SVG of the panel's starting
state and the page draws every state a move picks. The ablation panel never recomputes: every variant x seed runs once
at the full budget (cached) and a state only slices the stored histories. The other two panels run the search once per
(seed, budget) on its first visit (cached), and keep each state's description.
"""

from __future__ import annotations

import contextlib
import html
import queue
import sys
import threading
import time
from typing import Callable, Iterator, Optional, Sequence

import ipywidgets as widgets
import numpy as np

from toyhw.charts import figure as cf
from toyhw.charts.widget import Chart
from toyhw.i18n import N_, t
from toyhw.panels.common import ChartPanel, connect
from toyhw.plots import style
from toyhw.checks import check_int
from toyhw.evolve.experiments import ablations, branch_check, sweep, targeting
from toyhw.evolve import variants
from toyhw.evolve.programs import render
from toyhw.evolve.simplify import simplify
from toyhw.evolve.source import static_check
from toyhw.evolve.llm import target_shares
from toyhw.evolve.experiments.targeting import STUCK


_FULL_STUDY: list[ablations.AblationStudy] = []


def full_study(progress: Optional[sweep.Progress] = None, workers: Optional[int] = None) -> ablations.AblationStudy:
    """Return every variant x the five seeds at the full budget, computed once per process and kept.

    The runs are spread over `workers` local processes (default: one per CPU; the results are identical to a serial
    run), with `progress` called after each; later calls, and every redraw of the panels, only read the kept study.
    """
    if not _FULL_STUDY:
        _FULL_STUDY.append(
            sweep.ablation_study(
                variants.available(), ablations.SEEDS, ablations.BUDGET, workers=workers, progress=progress
            )
        )
    return _FULL_STUDY[0]


def steps(x: np.ndarray, *series: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """Return the points of best-so-far curves that a drawing needs: where any of `series` changes, the point before
    it, and both ends. Why: a curve of 1000 programs changes some tens of times; drawn through these points it is the
    same picture, and a move sends a few kB instead of a thousand points per curve."""
    changed = np.zeros(len(x), dtype=bool)
    changed[[0, -1]] = True
    for y in series:
        moves = np.flatnonzero(np.diff(y) != 0)
        changed[moves] = changed[moves + 1] = True
    return x[changed], [y[changed] for y in series]


_MARKS: dict[tuple[int, str, int, int], tuple[cf.Mark, cf.Mark]] = {}


def _variant_marks(study: ablations.AblationStudy, name: str, budget: int, n_seeds: int) -> tuple[cf.Mark, cf.Mark]:
    """Return the min-max band and the median line of variant `name` (kept: a panel's moves ask for the same variant
    at the same budget and seeds again and again, whatever else is selected)."""
    key = (id(study), name, budget, n_seeds)
    if key not in _MARKS:
        hist = study.histories(name, budget, n_seeds)
        x = np.arange(1, budget + 1)
        kept, (lo, hi, median) = steps(x, hist.min(axis=0), hist.max(axis=0), np.median(hist, axis=0))
        _MARKS[key] = (
            cf.area(kept, lo, hi, style.variant_color(name)),
            cf.line(kept, median, style.variant_color(name)),
        )
    return _MARKS[key]


def score_plot(study: ablations.AblationStudy, chosen: Sequence[str], budget: int, n_seeds: int) -> cf.Plot:
    """Return best-so-far score against proposed programs: a median line and a min-max band per chosen variant, the
    oracle line, and on the right the same scores as shares of the oracle's headroom."""
    if not chosen:
        raise ValueError("variants is empty; select at least one variant")
    check_int("budget", budget, 1, ablations.BUDGET, "the panel's runs have that many programs")
    check_int("n_seeds", n_seeds, 1, len(ablations.SEEDS), "the panel's runs have that many seeds")
    oracle = study.oracle_train
    bands, lines, legend = [], [], []
    for name in chosen:
        band, line = _variant_marks(study, name, budget, n_seeds)
        bands.append(band)
        lines.append(line)
        legend.append(cf.LegendItem(name, style.variant_color(name)))
    marks = [cf.rule(1.0, style.BASELINE), *bands, *lines, cf.rule(oracle, style.ORACLE, width=1.2, dash="6 4")]
    legend.append(cf.LegendItem(t("chart.oracle_line", oracle=oracle), style.ORACLE, dash="6 4"))
    shown = study.seeds[:n_seeds]
    title = (
        t("chart.best_so_far_one", seed=shown[0])
        if len(shown) == 1
        else t("chart.best_so_far_many", seeds=", ".join(map(str, shown)))
    )
    lo, hi = 0.99, oracle + 0.01
    shares = [(1 + p / 100 * (oracle - 1), f"{p:g}") for p in range(0, 101, 20)]
    return cf.Plot(
        title,
        cf.axis(
            (1, budget),
            cf.nice_ticks(0, budget, 6, "{:.0f}")[1:] if budget > 5 else [(1, "1")],
            t("chart.programs_axis"),
        ),
        cf.axis((lo, hi), cf.nice_ticks(lo, hi, 7, "{:.2f}"), t("chart.score_axis")),
        marks,
        legend,
        y2=cf.axis((lo, hi), [(v, label) for v, label in shares if lo <= v <= hi], t("chart.headroom_axis")),
        legend_columns=4,
    )


def ablation_spec(chosen: tuple[str, ...], budget: int, n_seeds: int) -> dict:
    """Return the ablation figure's description for `chosen` variants at `budget` programs and `n_seeds` seeds."""
    return cf.figure([score_plot(full_study(), chosen, budget, n_seeds)], width=900, height=560)


def ablation_figure(chosen: Sequence[str], budget: int, n_seeds: int) -> Chart:
    """Return score against proposed programs for `chosen` variants, cut to `budget` programs and `n_seeds` seeds."""
    return Chart(ablation_spec(tuple(chosen), budget, n_seeds))


def ablation_panel(
    chosen: Sequence[str] = variants.LECTURE_VARIANTS,
    budget: int = ablations.BUDGET,
    n_seeds: int = len(ablations.SEEDS),
) -> widgets.Widget:
    """Return a variant multi-select, a budget slider and a seeds slider above the score-vs-programs plot."""
    names = variants.available()
    select = widgets.SelectMultiple(
        options=names, value=tuple(chosen), description=t("panel.variants"), rows=len(names)
    )
    budget_slider = widgets.IntSlider(
        value=budget, min=50, max=ablations.BUDGET, step=50, description=t("panel.budget"), continuous_update=False
    )
    seeds_slider = widgets.IntSlider(
        value=n_seeds, min=1, max=len(ablations.SEEDS), description=t("panel.seeds"), continuous_update=False
    )
    panel = ChartPanel(ablation_spec)

    def update() -> None:
        panel.show((tuple(select.value), budget_slider.value, seeds_slider.value))

    connect([select, budget_slider, seeds_slider], update)
    update()
    return widgets.VBox([widgets.HBox([select, widgets.VBox([budget_slider, seeds_slider])]), *panel.widgets()])


def _shape_rows(rows: Sequence, x_hi: float) -> tuple[list, list[cf.Mark]]:
    """Return the shapes in plotting order (lowest vs_roofline on top) and the grey spans behind the stuck ones."""
    order = sorted(rows, key=lambda r: r.vs_roofline)
    spans = [
        cf.rect(0, x_hi, i - 0.5, i + 0.5, fill=style.STUCK_SHADE) for i, r in enumerate(order) if r.vs_best > STUCK
    ]
    return order, spans


def _bars(values: Sequence[float], offset: float, color: str) -> list[cf.Mark]:
    return [cf.rect(0, v, i + offset - 0.18, i + offset + 0.18, fill=color) for i, v in enumerate(values)]


_SWITCH_LOCK = threading.Lock()
_switch_users = 0
_switch_saved = 0.0


@contextlib.contextmanager
def _short_switch_interval(interval: float) -> Iterator[None]:
    """Run the block with the GIL switch interval at most `interval`; the interpreter's own comes back when the last of
    the blocks running at once (two panels' threads in one kernel) ends, not when the first does."""
    global _switch_users, _switch_saved
    with _SWITCH_LOCK:
        if _switch_users == 0:
            _switch_saved = sys.getswitchinterval()
            sys.setswitchinterval(min(_switch_saved, interval))
        _switch_users += 1
    try:
        yield
    finally:
        with _SWITCH_LOCK:
            _switch_users -= 1
            if _switch_users == 0:
                sys.setswitchinterval(_switch_saved)


class SeedRuns:
    """A panel's runs of the full method: for each seed, every budget of its slider, computed on the seed's first
    visit by `compute(seed, budgets)` (one run to the largest budget, kept at each: toyhw.evolve.loop.Checkpoint).

    Why per seed: moving the budget (or the branch check) is then a lookup, and only a seed the panel has not shown
    before runs the search, once. Why ahead: that search takes 0.2-0.5 s, so `ahead(seed)` starts the next seeds
    above the one shown in a background thread while the student looks (`AHEAD` of them, one at a time); a move to
    one of them is then a lookup too, or waits only for what is left of its run. Each seed's run is its own
    (seeded, no global random state), so a run made in the thread is the one the kernel would have made.
    """

    AHEAD = 3
    """Seeds run ahead of the one shown: a student steps the seed box one up at a time, and reads each for seconds."""

    SWITCH_INTERVAL_S = 0.0005
    """The interpreter's GIL switch interval while a seed runs ahead (Python's default is 5 ms). A move waits for the
    GIL each time the kernel's own thread gives it up (every socket call of a widget message does), up to a whole
    interval each time while the thread computes: measured in Voila, a lookup that answers in 14 ms took 129 ms with a
    run ahead at 5 ms, so the thread runs at 0.5 ms, and the interval is put back when it has nothing left to run."""

    def __init__(self, compute: Callable[[int, Sequence[int]], dict], budgets: Sequence[int]) -> None:
        self.compute, self.budgets = compute, list(budgets)
        self.kept: dict[int, dict] = {}
        self._lock = threading.Lock()
        self._running: dict[int, threading.Event] = {}
        self._queue: queue.SimpleQueue[int] = queue.SimpleQueue()
        self._worker: Optional[threading.Thread] = None
        self._asked = 0  # seeds queued ahead and not yet run

    def of(self, seed: int) -> dict:
        """Return {budget (or (budget, check)): result} for `seed`, computed on its first visit (or waited for, when
        the thread is running it)."""
        while True:
            with self._lock:
                if seed in self.kept:
                    return self.kept[seed]
                running = self._running.get(seed)
                if running is None:
                    running = self._running[seed] = threading.Event()
                    break
            running.wait()  # the other thread's run: kept when it ends (or, if it raised, run here next time round)
        try:
            found = self.compute(seed, self.budgets)
            with self._lock:
                self.kept[seed] = found
            return found
        finally:
            with self._lock:
                del self._running[seed]
            running.set()

    def ahead(self, seed: int) -> None:
        """Start running, in the background, the first `AHEAD` seeds above `seed` that are neither kept nor running."""
        with self._lock:
            known = set(self.kept) | set(self._running)
        for later in [s for s in range(seed + 1, seed + 1 + self.AHEAD + len(known)) if s not in known][: self.AHEAD]:
            with self._lock:
                self._asked += 1
            self._queue.put(later)
        if self._worker is None:
            self._worker = threading.Thread(target=self._run_ahead, name="toyhw-seeds-ahead", daemon=True)
            self._worker.start()

    def _run_ahead(self) -> None:
        while True:
            seed = self._queue.get()
            try:
                with _short_switch_interval(self.SWITCH_INTERVAL_S):
                    self.of(seed)
            except Exception:  # noqa: BLE001 - the kernel's own visit of that seed runs it again and shows the error
                pass
            finally:
                with self._lock:
                    self._asked -= 1

    def settled(self, timeout: float = 60.0) -> bool:
        """Wait until the seeds asked for ahead are run (for a benchmark that times moves alone); True if they are."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self._lock:
                if not self._asked and not self._running:
                    return True
            time.sleep(0.01)
        return False


def targeting_spec(found: targeting.Targeting) -> dict:
    """Return demo 2's description for one run of the full method: per-shape vs_roofline / vs_best (left) and where
    each weighting sends the target draw (right), one row per training shape, stuck shapes grey."""
    seed, budget, rows = found.seed, found.budget, found.rows
    order, spans = _shape_rows(rows, 1.05)
    colors = style.FEEDBACK_COLORS
    stuck_box = style.STUCK_SHADE
    left = cf.Plot(
        t("chart.feedback_bars_title"),
        cf.axis((0, 1.05), cf.nice_ticks(0, 1, 6), t("chart.ratio_axis")),
        cf.categories([r.shape.label() for r in order], t("chart.training_shape")),
        spans
        + _bars([r.vs_roofline for r in order], -0.18, colors["vs_roofline"])
        + _bars([r.vs_best for r in order], 0.18, colors["vs_best"]),
        [
            cf.LegendItem(t("chart.vs_roofline"), colors["vs_roofline"], box=True),
            cf.LegendItem(t("chart.vs_best"), colors["vs_best"], box=True),
            cf.LegendItem(t("chart.stuck_long", stuck=STUCK), stuck_box, box=True),
        ],
        legend_columns=2,
    )
    shares = {key: target_shares([getattr(r, key) for r in order]) for key in ("vs_roofline", "vs_best")}
    top = 1.15 * max(max(v) for v in shares.values())
    _, right_spans = _shape_rows(rows, top)
    right = cf.Plot(
        t("chart.weights_title"),
        cf.axis((0, top), cf.nice_ticks(0, top, 5), t("chart.draw_share_axis")),
        cf.categories([""] * len(order)),
        right_spans
        + _bars(shares["vs_roofline"], -0.18, colors["vs_roofline"])
        + _bars(shares["vs_best"], 0.18, colors["vs_best"]),
        [
            cf.LegendItem(t("chart.weighted_by", key="vs_roofline"), colors["vs_roofline"], box=True),
            cf.LegendItem(t("chart.weighted_by", key="vs_best"), colors["vs_best"], box=True),
            cf.LegendItem(t("chart.stuck", stuck=STUCK), stuck_box, box=True),
        ],
        legend_columns=2,
    )
    title = t("chart.targeting_title", seed=seed, budget=budget)
    return cf.figure([left, right], width=1000, height=230 + 19 * len(order), title=title)


def feedback_figure(seed: int, budget: int) -> Chart:
    """Return per-shape vs_roofline / vs_best (left) and where each weighting sends proposals (right)."""
    return Chart(targeting_spec(targeting.targeting(seed, budget)))


def feedback_panel(seed: int = 0, budget: int = 300) -> widgets.Widget:
    """Return seed and budget controls above the per-shape feedback figure.

    Seeds 0-4 (the notebook's) are run when the panel is made, every budget of the slider from one run each; the next
    seeds above the one shown run in the background (SeedRuns.ahead); any other seed runs once, on its first visit.
    """
    seed_box = widgets.BoundedIntText(value=seed, min=0, max=10**6, description=t("panel.seed"))
    budget_slider = widgets.IntSlider(
        value=budget, min=50, max=ablations.BUDGET, step=50, description=t("panel.budget"), continuous_update=False
    )
    runs = SeedRuns(targeting.targeting_budgets, range(50, ablations.BUDGET + 1, 50))
    for known in dict.fromkeys([seed, *ablations.SEEDS]):
        runs.of(known)
    panel = ChartPanel(lambda s, b: targeting_spec(runs.of(s)[b]))

    def update() -> None:
        panel.show((seed_box.value, budget_slider.value))
        runs.ahead(seed_box.value)

    connect([seed_box, budget_slider], update)
    update()
    return widgets.VBox([widgets.HBox([seed_box, budget_slider]), *panel.widgets()])


BRANCH_FIELDS = {
    "added_bad_branch": N_("chart.added_bad"),
    "db_bad_branch": N_("chart.db_bad"),
    "crash_new_shapes": N_("chart.crash_new"),
}
"""Demo 3's counted fields of a BranchRow -> their label's id, in the order the chart shows them."""

CHECK_SETTING_LABELS = {"off": N_("chart.off"), "on": N_("chart.on")}


def branches_spec(unchecked: branch_check.BranchRow, checked: branch_check.BranchRow) -> dict:
    """Return demo 3's counts for one seed: the run without the branch check next to the run with it."""
    seed = unchecked.seed
    marks, legend = [], []
    top = max(max(getattr(row, f) for f in BRANCH_FIELDS) for row in (unchecked, checked))
    top = max(top, 1) * 1.15
    for offset, row, setting in ((-0.2, unchecked, "off"), (0.2, checked, "on")):
        color = style.BRANCH_CHECK_COLORS[setting]
        for k, field in enumerate(BRANCH_FIELDS):
            value = getattr(row, field)
            marks.append(cf.rect(k + offset - 0.19, k + offset + 0.19, 0, value, fill=color))
            marks.append(cf.text(k + offset, value, str(value), "middle", baseline="bottom", dy=-3))
        legend.append(
            cf.LegendItem(
                t("chart.check_setting", setting=t(CHECK_SETTING_LABELS[setting]), added=row.added), color, box=True
            )
        )
    ticks = [(v, label) for v, label in cf.nice_ticks(0, top, 6, "{:.0f}") if float(v).is_integer()]
    plot = cf.Plot(
        t("chart.branches_title", seed=seed),
        cf.categories([t(BRANCH_FIELDS[field]) for field in BRANCH_FIELDS], t("chart.counted_axis"), reverse=False),
        cf.axis((0, top), ticks, t("chart.programs")),
        marks,
        legend,
        legend_columns=2,
    )
    return cf.figure([plot], width=860, height=420)


def branches_figure(seed: int, budget: int) -> Chart:
    """Return demo 3's counts for one seed, the run without the branch check next to the run with it."""
    return Chart(
        branches_spec(branch_check.branch_row(seed, budget, False), branch_check.branch_row(seed, budget, True))
    )


def describe_latent(row: branch_check.BranchRow) -> str:
    """Return an HTML card: a final-database program with a latent bad branch, the check's message, a crash."""
    setting = t("latent.on") if row.check else t("latent.off")
    best = (
        "<br>" + (t("latent.best_bad") if row.best_has_bad_branch else t("latent.best_clean"))
        if row.example is not None
        else ""
    )
    if row.example is None:
        return t("latent.none", setting=setting, seed=row.seed) + (
            t("latent.none_refused") if row.check else t("latent.none_end")
        )
    program = simplify(row.example)
    problems = "<br>".join(html.escape(p.message()) for p in static_check(render(program))[1])
    crash = branch_check.crashes(program, ablations.context().new)
    first = (
        t("latent.crash", crashes=len(crash), shape=html.escape(crash[0].shape.label()), line=crash[0].line)
        if crash
        else t("latent.no_crash")
    )
    return (
        t("latent.head", setting=setting, seed=row.seed)
        + f"<pre>{html.escape(render(program))}</pre>"
        + t("latent.static")
        + f"<br>{problems}<br>{first}{best}"
    )


def branches_panel(seed: int = 0, budget: int = ablations.BUDGET) -> widgets.Widget:
    """Return seed, budget and branch-check controls above one seed's counts and a latent bad branch as code.

    Seeds 0-4 (the notebook's) are run when the panel is made: two runs each (without and with the check), kept at
    every budget of the slider. The next seeds above the one shown run in the background (SeedRuns.ahead); any other
    seed runs twice on its first visit; moving the budget or the check is a lookup.
    """
    seed_box = widgets.BoundedIntText(value=seed, min=0, max=10**6, description=t("panel.seed"))
    budget_slider = widgets.IntSlider(
        value=budget, min=100, max=ablations.BUDGET, step=100, description=t("panel.budget"), continuous_update=False
    )
    check = widgets.ToggleButtons(
        options=[(t("panel.check_off"), False), (t("panel.check_on"), True)],
        value=False,
        description=t("panel.branch_check"),
    )
    runs = SeedRuns(branch_check.branch_rows, range(100, ablations.BUDGET + 1, 100))
    for known in dict.fromkeys([seed, *ablations.SEEDS]):
        runs.of(known)
    panel = ChartPanel(lambda s, b: branches_spec(runs.of(s)[b, False], runs.of(s)[b, True]))
    card = widgets.HTML()
    cards: dict[tuple[int, int, bool], str] = {}

    def show_card() -> None:
        key = (seed_box.value, budget_slider.value, check.value)
        try:
            if key not in cards:
                cards[key] = describe_latent(runs.of(key[0])[key[1], key[2]])
            card.value = cards[key]
        except Exception as err:  # noqa: BLE001 - shown in the panel, like ChartPanel.show does
            card.value = f"<pre>Error: {html.escape(type(err).__name__)}: {html.escape(str(err))}</pre>"

    def update() -> None:
        panel.show((seed_box.value, budget_slider.value))
        show_card()
        runs.ahead(seed_box.value)

    connect([seed_box, budget_slider], update)
    connect([check], show_card)
    update()
    return widgets.VBox([widgets.HBox([seed_box, budget_slider]), check, *panel.widgets(), card])
