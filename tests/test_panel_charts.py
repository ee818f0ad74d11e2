"""Every panel's chart reads at a glance and is the same picture on the page and in the static view.

The panels' *_figure functions are found by introspection; each returns a toyhw.charts.widget.Chart, whose description
the page draws (chart.js) and whose SVG the notebooks store. Checked here: a title and axis labels on every plot,
colours only from the pack's palette (toyhw.plots.style, the one palette of the matplotlib plots too), the text of the
edition's language (Chinese in the zh edition, where the English edition's text has no CJK), a description that is
plain JSON of a few tens of kB at most, and an SVG that is the description's elements one for one. That chart.js draws
the same elements is checked in a real browser (tests/browser).
"""

from __future__ import annotations

import inspect
import json
import re
import xml.etree.ElementTree as ET

import pytest

from toyhw import i18n
from toyhw.charts import scene
from toyhw.charts.widget import Chart
from toyhw.gemm.config import GemmConfig
from toyhw.kernels import study
from toyhw.panels import evolution as evolution_panels, fastp as fastp_panels, gemm as gemm_panels
from toyhw.panels.gemm import SPEED_COLORS
from toyhw.plots import style

from panel_widgets import texts


def my_proposer(feedback, config, rng):
    return config


PANEL_CHARTS = {
    "fastp.one_shot_figure": lambda: fastp_panels.one_shot_figure(study.LECTURE_TASK_SEED, study.LECTURE_N_TASKS, 1.0),
    "fastp.feedback_figure": lambda: fastp_panels.feedback_figure(["explain", "suggest", my_proposer], 20, 1.0),
    "gemm.explorer_figure": lambda: gemm_panels.explorer_figure(
        "H100", "70B/8 qkv", 16, GemmConfig(16, 64, 128, num_warps=4, num_stages=3)
    ),
    "evolution.ablation_figure": lambda: evolution_panels.ablation_figure(["full", "small_llm", "no_cascade"], 300, 3),
    "evolution.feedback_figure": lambda: evolution_panels.feedback_figure(0, 300),
    "evolution.branches_figure": lambda: evolution_panels.branches_figure(0, 1000),
}
CJK = re.compile(r"[\u2e80-\u9fff\uff00-\uffef]")
COLOUR_KEYS = ("color", "fill", "stroke")
ALLOWED = style.palette() | set(style.NEUTRALS.values()) | set(SPEED_COLORS) | {"none"}
_BUILT: dict[tuple[str, str], Chart] = {}


def built(name: str, language: str = "en") -> Chart:
    """Return the chart of `name` drawn in `language` (once per session)."""
    if (name, language) not in _BUILT:
        with i18n.using(language):
            _BUILT[name, language] = PANEL_CHARTS[name]()
    return _BUILT[name, language]


def test_every_panel_figure_function_is_checked():
    found = {
        f"{m.__name__.rsplit('.', 1)[1]}.{name}"
        for m in (evolution_panels, fastp_panels, gemm_panels)
        for name, fn in inspect.getmembers(m, inspect.isfunction)
        if name.endswith("_figure") and fn.__module__ == m.__name__
    }
    assert len(found) == 6 and found == set(PANEL_CHARTS)


@pytest.mark.parametrize("name", PANEL_CHARTS)
def test_titles_and_axis_labels(name):
    spec = built(name).spec
    for plot in spec["plots"]:
        if not plot["x"]["ticks"] and not plot["y"]["ticks"]:  # a colour scale: its right axis says what it shows
            assert plot["y2"]["label"] and plot["y2"]["ticks"]
            continue
        shares_rows = all(label == "" for _, label in plot["y"]["ticks"])  # the rows of the plot on its left
        assert plot.get("title") and plot["x"]["label"] and (plot["y"]["label"] or shares_rows), plot.get("title")


@pytest.mark.parametrize("name", PANEL_CHARTS)
def test_colours_only_from_the_palette(name):
    used = {
        mark[key].lower()
        for plot in built(name).spec["plots"]
        for mark in [*plot["marks"], *plot["legend"]]
        for key in COLOUR_KEYS
        if mark.get(key)
    }
    assert used and used <= ALLOWED, sorted(used - ALLOWED)


def test_a_students_proposer_has_its_colour_of_the_matplotlib_plots_and_a_dashed_line():
    (race,) = built("fastp.feedback_figure").spec["plots"]
    mine = next(item for item in race["legend"] if item["label"] == "my_proposer")
    assert mine["color"] == style.mode_color("my_proposer") and mine["dash"]
    assert next(item for item in race["legend"] if item["label"] == "explain")["dash"] == ""


@pytest.mark.parametrize("name", PANEL_CHARTS)
def test_the_edition_speaks_its_language(name):
    english, chinese = texts(built(name).spec), texts(built(name, "zh").spec)
    assert not [text for text in english if CJK.search(text)]
    assert CJK.search(built(name, "zh").spec["plots"][0]["title"]) or CJK.search(
        built(name, "zh").spec.get("title", "")
    )
    assert len(chinese) == len(english)  # the same marks and labels, only the words change


@pytest.mark.parametrize("name", PANEL_CHARTS)
def test_a_description_is_small_plain_json(name):
    spec = built(name).spec
    wire = json.dumps(spec)
    assert json.loads(wire) == spec
    assert len(wire) < 60_000, len(wire)


@pytest.mark.parametrize("name", PANEL_CHARTS)
def test_the_svg_is_the_descriptions_elements(name):
    chart = built(name, "zh")
    root = ET.fromstring(chart.svg())
    drawn = [(el.tag.split("}")[1], dict(el.attrib), el.text or "") for el in root]
    assert drawn == list(scene.elements(chart.spec))
    assert root.get("width") == scene.num(chart.spec["width"])


def test_a_mark_of_unknown_type_is_refused_naming_it():
    spec = built("evolution.branches_figure").spec
    broken = json.loads(json.dumps(spec))
    broken["plots"][0]["marks"].append({"type": "pie"})
    with pytest.raises(ValueError, match="mark type = 'pie' is not allowed; marks: line, area, rule, rect, text, dot"):
        Chart(broken).svg()
