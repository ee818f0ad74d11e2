"""How the panel tests read a panel: its controls, its chart, its error line (toyhw.panels.common.ChartPanel)."""

from __future__ import annotations

import html
from typing import Iterator

import ipywidgets as widgets

from toyhw.charts.widget import ChartWidget


def walk(widget: widgets.Widget) -> Iterator[widgets.Widget]:
    """Yield `widget` and every widget inside it, depth first."""
    yield widget
    for child in getattr(widget, "children", ()):
        yield from walk(child)


def controls(panel: widgets.Widget) -> list[widgets.ValueWidget]:
    """Return the panel's controls: its value widgets that are not output (charts, HTML)."""
    return [w for w in walk(panel) if isinstance(w, widgets.ValueWidget) and not isinstance(w, widgets.HTML)]


def control(panel: widgets.Widget, description: str) -> widgets.ValueWidget:
    """Return the panel's control labelled `description`."""
    (found,) = [w for w in controls(panel) if w.description == description]
    return found


def chart(panel: widgets.Widget) -> ChartWidget:
    """Return the panel's one chart."""
    (found,) = [w for w in walk(panel) if isinstance(w, ChartWidget)]
    return found


def error(panel: widgets.Widget) -> str:
    """Return the text of the panel's error line (the HTML right after its chart): empty unless a state failed."""
    children = list(walk(panel))
    return html.unescape(children[children.index(chart(panel)) + 1].value)


def texts(spec: dict) -> list[str]:
    """Return every text a chart description draws: titles, axis labels, ticks, legend entries, text marks."""
    found = [spec.get("title", "")]
    for plot in spec["plots"]:
        found += [plot.get("title", ""), plot["x"].get("label", ""), plot["y"].get("label", "")]
        found += [plot.get("y2", {}).get("label", "")]
        for axis in (plot["x"], plot["y"], plot.get("y2", {})):
            found += [label for _, label in axis.get("ticks", [])]
        found += [item["label"] for item in plot["legend"]]
        found += [mark["text"] for mark in plot["marks"] if mark["type"] == "text"]
    return [text for text in found if text]


def redrawn(panel: widgets.Widget, before: dict) -> bool:
    """Return True when the panel's chart shows a new description and no error."""
    return bool(chart(panel).spec) and chart(panel).spec != before and not error(panel)
