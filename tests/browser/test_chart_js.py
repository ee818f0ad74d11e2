"""chart.js, alone in Chromium, draws what toyhw.charts.svg writes for the same description, element by element.

The notebook tests (test_lab.py) compare the panels' real states; this one gives chart.js every kind of mark and
every option scene.py knows (log and reversed axes, a right axis, dashes, dots, multi-line and rotated text, every
text baseline, legend lines and boxes, a figure title, Chinese and markup characters in text), plus coordinates that
land exactly on a tie of the 0.1 px rounding, without starting JupyterLab. The comparator itself is checked first,
on descriptions that must not agree.
"""

from __future__ import annotations

import random

import pytest

import svg_compare
from toyhw.charts import figure as cf
from toyhw.charts.svg import to_svg
from toyhw.charts.widget import CHART_JS

# chart.js as the module it is, with its draw() reachable from the tests.
_MODULE = CHART_JS.read_text(encoding="utf-8") + "\nwindow.toyhwDraw = draw;\n"

_DRAW = """(spec) => {
  const svg = window.toyhwDraw(spec);
  return [svg, ...svg.querySelectorAll('*')].map(el => [
    el.localName,
    Object.fromEntries(Array.from(el.attributes).map(a => [a.name, a.value])),
    el === svg || el.children.length ? '' : el.textContent,
  ]);
}"""


def _every_mark() -> dict:
    """A figure of two plots that uses every mark type and option of toyhw.charts.scene."""
    rng = random.Random(14)
    xs = [1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144]
    left = cf.Plot(
        "log x, right axis,\ndashes and dots",
        cf.axis((0.8, 200), [(r, str(r)) for r in (1, 10, 100)], "rounds (log)", scale="log"),
        cf.axis((0, 1.05), cf.nice_ticks(0, 1, 6), "share"),
        [
            cf.area(xs, [0.1 + 0.3 * rng.random() for _ in xs], [0.6 + 0.3 * rng.random() for _ in xs], "#0072b2"),
            cf.line(xs, [rng.random() for _ in xs], "#d55e00", dash="6 4", dots=3),
            cf.line(xs, [rng.random() for _ in xs], "#009e73", width=1.25),
            cf.rule(0.5, "#999999", dash="2 3"),
            cf.rule(10, "#cc79a7", across="x", width=2),
            cf.dot(21, 0.42, "#000000", r=5),
            cf.text(3, 0.9, "top\nline two", baseline="top", bold=True, color="#e69f00"),
            cf.text(30, 0.2, "bottom", anchor="end", baseline="bottom", dx=-3, dy=2, size=9),
            cf.text(5, 0.05, "alphabetic <&> 'quoted' \"double\"", baseline="alphabetic"),
            cf.text(100, 0.6, "middle\nof\nthree", anchor="middle"),
        ],
        [cf.LegendItem("solid", "#009e73"), cf.LegendItem("dashed", "#d55e00", dash="6 4")],
        y2=cf.axis((0, 1.05), [(0, "0%"), (0.5, "50%"), (1, "100%")], "right\naxis"),
        legend_columns=1,
    )
    right = cf.Plot(
        "类别与方框：中文标题",
        cf.axis((0, 12), cf.nice_ticks(0, 12, 5), "时间（us）"),
        cf.categories(["第一行", "second\nrow", "", "最后"], "配置"),
        [
            cf.rect(0, 7.5, -0.3, 0.3, fill="#56b4e9"),
            cf.rect(9, 2, 0.7, 1.3, fill="#f0e442", stroke="#d55e00", width=3),
            cf.rect(0, 12, 1.5, 2.5, fill="#eeeeee"),
            cf.rect(4, 5, 2.6, 3.4, stroke="#000000"),
            cf.text(7.5, 0, "7.5 us", dx=4),
        ],
        [cf.LegendItem("方框", "#56b4e9", box=True), cf.LegendItem("线", "#000000", dash="5 4")],
    )
    return cf.figure([left, right], width=1000, height=460, ratios=(1.2, 1), title="图的标题\nsecond line")


QUARTERS = [k / 4 for k in range(-41, 42, 2)] + [306.25, 1000.75, -512.25]
"""Values on a tie of the 0.1 px rounding (x.25 and x.75: the only ties a double holds at one decimal)."""


def _ties() -> dict:
    """A description written by hand whose numbers land on x.25 and x.75 exactly, where JavaScript's toFixed rounds
    away from zero and Python's format to even: chart.js's num must round them as scene.py's does."""
    plot = {
        "box": [10, 10, 100, 100],
        "x": {"scale": "linear", "domain": [0, 100], "ticks": [[v, "t"] for v in QUARTERS], "label": "", "label_at": 0},
        "y": {"scale": "linear", "domain": [0, 100], "ticks": [], "label": "", "reverse": False, "label_at": 0},
        "marks": [{"type": "dot", "x": v, "y": -v, "color": "#000000", "r": abs(v)} for v in QUARTERS]
        + [{"type": "rule", "axis": "x", "at": v - 10, "color": "#000000", "width": v, "dash": ""} for v in QUARTERS],
        "legend": [],
    }
    return {"width": 120.25, "height": 120.75, "plots": [plot]}


def _drawn(page, spec: dict) -> list:
    return svg_compare.from_page(page.evaluate(_DRAW, spec))


@pytest.fixture
def chart_page(page):
    page.set_content("<!doctype html><html><body></body></html>")
    page.add_script_tag(content=_MODULE, type="module")
    page.wait_for_function("() => typeof window.toyhwDraw === 'function'")
    return page


def test_the_comparator_finds_what_differs() -> None:
    """A changed attribute, a number more than 0.11 off, a changed text and an element too many are each found and
    named; numbers 0.1 apart and attributes in another order are not differences."""
    static = svg_compare.parse_svg(to_svg(_every_mark()))
    assert svg_compare.differences(static, static) == []
    k = next(i for i, e in enumerate(static) if e[0] == "text" and e[2] and "font-weight" not in e[1])
    tag, attrs, text = static[k]
    moved = {**attrs, "x": str(float(attrs["x"]) + 0.1)}
    assert (
        svg_compare.differences(static[:k] + [(tag, dict(reversed(moved.items())), text)] + static[k + 1 :], static)
        == []
    )
    for changed, finding in (
        ((tag, {**attrs, "x": str(float(attrs["x"]) + 0.2)}, text), f"element {k} <text>: x:"),
        ((tag, {**attrs, "fill": "#000000"}, text), f"element {k} <text>: fill:"),
        ((tag, {**attrs, "font-weight": "bold"}, text), "attributes only on the page ['font-weight']"),
        ((tag, attrs, text + "!"), f"element {k} <text>: text:"),
        (("tspan", attrs, text), f"the tags differ from element {k} on"),
    ):
        found = svg_compare.differences(static[:k] + [changed] + static[k + 1 :], static)
        assert found and finding in found[0], (changed, found)
    assert "the page drew" in svg_compare.differences(static + [static[-1]], static)[0]
    assert svg_compare.values_agree("M10.2 5 L3 4", "M10.3 5 L3 4")
    assert not svg_compare.values_agree("#d55e00", "#d55e01")
    assert not svg_compare.values_agree("rotate(-90 12 30)", "rotate(90 12 30)")


@pytest.mark.browser
@pytest.mark.parametrize("make", [_every_mark, _ties], ids=["every-mark", "rounding-ties"])
def test_chart_js_draws_the_static_svg(chart_page, offline, make) -> None:
    spec = make()
    drawn = _drawn(chart_page, spec)
    static = svg_compare.parse_svg(to_svg(spec))
    problems = svg_compare.differences(drawn, static)
    assert not problems, "chart.js and toyhw.charts.svg differ:\n" + "\n".join(problems)
    assert len(drawn) > 40
    # To the character, even where a number is a tie (toyhw/charts/chart.js's num rounds them as Python does).
    assert svg_compare.same(drawn, static), "chart.js and toyhw.charts.svg write a number differently"
    offline.assert_none("a page drawing with chart.js")
