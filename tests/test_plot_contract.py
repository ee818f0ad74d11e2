"""Every plot reads at a glance: a title and axis labels on every Axes, whole-number ticks on axes that
count, colours only from the shared palette (toyhw.plots.style), the same colour for a variant or a feedback mode in
every plot, no overlapping or cut-off text, no legend over the data, no description cut short.

The plot functions are found by introspection: every public function of a toyhw.plots module that returns an Axes.
A new one fails test_every_plot_function_is_marked_and_has_inputs until it is marked with `style.plot` (declaring
which of its axes count) and tests/plot_builders.py can draw it. The panels' *_figure functions are checked too: they
produce the panels' redraws and the notebooks' stored first views.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

import plot_checks as checks  # noqa: E402
import toyhw.plots  # noqa: E402
from plot_builders import BUILDERS, MORE, figure_of  # noqa: E402
from toyhw.evolve.experiments import ablations  # noqa: E402
from toyhw.evolve import variants
from toyhw.evolve.bridge.prompt import PART_NAMES  # noqa: E402
from toyhw.gemm.gpu import gpu_names  # noqa: E402
from toyhw.gemm.shapes import LAYERS, NEW_LAYERS  # noqa: E402
from toyhw.kernels.proposers import PROPOSERS  # noqa: E402
from toyhw.plots import style  # noqa: E402


def plot_functions() -> dict[str, object]:
    """Return {name: function} for every public function of toyhw.plots.* (but style) that returns an Axes."""
    found = {}
    for info in pkgutil.iter_modules(toyhw.plots.__path__):
        if info.name == "style":
            continue
        module = importlib.import_module(f"toyhw.plots.{info.name}")
        for name, fn in inspect.getmembers(module, inspect.isfunction):
            if (
                not name.startswith("_")
                and fn.__module__ == module.__name__
                and inspect.signature(fn).return_annotation in ("Axes", "Optional[Axes]")
            ):
                found[name] = fn
    return found


_FIGURES: dict[str, Figure] = {}
plt.rcParams["figure.max_open_warning"] = 0  # the figures stay open for the session: several tests read each


def figure(name: str) -> Figure:
    """Return the figure drawn by builder `name` (drawn once per test session: several tests read it)."""
    if name not in _FIGURES:
        build = {**BUILDERS, **MORE}[name]
        _FIGURES[name] = figure_of(build())
    return _FIGURES[name]


ALL = [*BUILDERS, *MORE]


def test_every_plot_function_is_marked_and_has_inputs():
    found = plot_functions()
    assert len(found) >= 20, sorted(found)  # introspection finds them (a broken search would pass vacuously)
    assert [n for n, fn in found.items() if not hasattr(fn, "count_axes")] == [], "mark them with @style.plot(...)"
    assert sorted(set(found) - set(BUILDERS)) == [], "add them to tests/plot_builders.py BUILDERS"


@pytest.mark.parametrize("name", ALL)
def test_titles_and_axis_labels(name):
    assert checks.unlabelled(figure(name)) == []
    assert checks.untracked(figure(name)) == []


@pytest.mark.parametrize("name", ALL)
def test_axes_that_count_have_whole_number_ticks(name):
    assert checks.fractional_ticks(figure(name)) == []


@pytest.mark.parametrize("name", ALL)
def test_colours_come_from_the_shared_palette(name):
    assert checks.foreign_colours(figure(name)) == []


@pytest.mark.parametrize("name", ALL)
def test_nothing_overlaps_is_cut_off_or_too_small(name):
    assert checks.layout_problems(figure(name)) == []
    assert checks.cut_texts(figure(name)) == []


def test_a_name_has_one_colour_in_every_plot_variants_and_modes_theirs():
    figures = {name: figure(name) for name in ALL}
    assert checks.colour_disagreements(figures) == []
    shown = checks.legend_labels(figures)
    assert len(shown & set(style.VARIANT_COLORS)) >= 6 and shown >= set(PROPOSERS.available())  # not vacuous
    assert sum("my_proposer" in checks.legend_colours(f) for f in figures.values()) >= 1  # a student's proposer: the
    # same colour here as in the race panel's chart (tests/test_panel_charts.py)


def test_the_palette_names_every_variant_mode_gpu_layer_and_prompt_part_once():
    assert set(style.VARIANT_COLORS) == set(variants.available())
    assert set(style.MODE_COLORS) == set(PROPOSERS.available())
    assert set(style.GPU_COLORS) == set(gpu_names())
    assert set(style.LAYER_COLORS) == set(LAYERS) | set(NEW_LAYERS)
    assert set(style.PART_COLORS) == set(PART_NAMES)
    for table in (style.VARIANT_COLORS, style.MODE_COLORS, style.GPU_COLORS, style.LAYER_COLORS, style.PART_COLORS):
        assert len(set(table.values())) == len(table)  # no two names of one table share a colour
    assert style.palette() >= {c for table in style.TABLES.values() for c in table.values()}
    assert style.variant_color("my_variant") == style.variant_color("my_variant") in style.palette()


def test_the_lineage_numbers_every_step_and_lists_every_description_whole():
    steps = ablations.run_one("full", 0, 1000).lineage
    fig = figure("lineage")
    (ax,) = [a for a in fig.axes if a.get_title().startswith("Lineage")]
    numbers = {t.get_text() for t in ax.texts}
    assert numbers == {str(i) for i in range(len(steps))}
    listed = " ".join(t.get_text().replace("\n", " ") for t in ax.get_legend().get_texts())
    listed = " ".join(listed.split())
    for step in steps:
        assert " ".join(step.description.split()) in listed


def test_the_variant_axis_of_the_cost_plot_names_the_variants():
    fig = figure("cost_plot, variants")
    labels = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert labels == ["full", "+ fb_roofline", "+ fb_worst3", "+ no_feedback"]


def test_the_target_weights_plot_is_labelled_for_the_weights_it_draws():
    """The bars are one program's target-draw weights, normalized per key; the labels must say so, not "proposals"
    (where a run's proposals went is another count: notebook 06's Exercise 1)."""
    import numpy as np

    from toyhw.evolve.experiments import targeting

    fig = figure("target_weights")
    ax = fig.axes[0]
    labels = " ".join([ax.get_title(), ax.get_xlabel()]).lower()
    assert "target draw" in labels and "proposal" not in labels, labels
    rows = targeting.targeting(0, 300).rows
    for container, key in zip(ax.containers, ("vs_roofline", "vs_best")):
        w = np.array(sorted(1.0 / getattr(r, key) - 1.0 + 0.05 for r in rows))
        drawn = np.array(sorted(bar.get_width() for bar in container))
        assert np.allclose(drawn, w / w.sum())


def teardown_module():
    for fig in _FIGURES.values():
        plt.close(fig)
