"""A chart in the page (ChartWidget, an anywidget drawing with chart.js) and as a static picture (Chart, an SVG).

Why anywidget with a renderer of our own: the page draws the description a move sends (a few kB of numbers), so the
kernel never rasterizes; chart.js ships inside the package and reaches the page through the widget's own messages,
so JupyterLab, Voila and a class hub behind a firewall load nothing from any other host. The README's design notes
say why not bqplot or plotly.
"""

from __future__ import annotations

import pathlib
from typing import Any, Mapping

import anywidget
import traitlets

from toyhw.charts.svg import to_svg

CHART_JS = pathlib.Path(__file__).with_name("chart.js")


class ChartWidget(anywidget.AnyWidget):
    """The page draws `spec` (toyhw.charts.figure) with chart.js and redraws it whenever `spec` is set anew."""

    _esm = CHART_JS.read_text(encoding="utf-8")
    spec = traitlets.Dict().tag(sync=True)


class Chart:
    """A chart description shown as its SVG: the static view of a panel's figure in a notebook or on the website."""

    def __init__(self, spec: Mapping[str, Any]) -> None:
        self.spec = dict(spec)

    def svg(self) -> str:
        """Return the SVG document of the figure (toyhw.charts.svg)."""
        return to_svg(self.spec)

    def _repr_svg_(self) -> str:
        return self.svg()

    def __repr__(self) -> str:
        titles = [plot.get("title", "").replace("\n", " ") for plot in self.spec["plots"]]
        head = self.spec.get("title", "").replace("\n", " ")
        return f"<Chart {self.spec['width']}x{self.spec['height']}: {' | '.join(t for t in [head, *titles] if t)}>"
