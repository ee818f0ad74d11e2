"""What every panel shares: a chart the page draws, looked up by the controls' values, and controls that fire on
release.

Why a lookup: a panel's controls take few values (rounds, budgets, modes, variants, seeds), and what a state shows is
a pure function of them. Each panel computes its numbers once (when it is made, or on a state's first visit) and keeps
the description of every state it has drawn, so a move that returns to a state costs a dictionary lookup and the
widget message; the page draws the description (toyhw.charts.widget).
"""

from __future__ import annotations

import collections
import gc
import html
from typing import Any, Callable, Hashable

import ipywidgets as widgets

from toyhw.charts.widget import ChartWidget

KEPT_STATES = 512
"""Descriptions a panel keeps (the least recently shown go first): at some 5-40 kB each, at most a few MB a panel."""


class ChartPanel:
    """A panel's figure: `chart` (drawn by the page) and `error` (empty unless a state could not be drawn).

    `describe(*key)` returns the chart description of the state `key` (a tuple of the controls' values); `show(key)`
    sends it to the page, from the kept descriptions when the state was drawn before.
    """

    def __init__(self, describe: Callable[..., dict[str, Any]]) -> None:
        self.describe = describe
        self.chart = ChartWidget()
        self.error = widgets.HTML()
        self.kept: collections.OrderedDict[Hashable, dict[str, Any]] = collections.OrderedDict()

    def spec(self, key: tuple) -> dict[str, Any]:
        """Return the description of state `key`, made on its first visit and kept."""
        if key in self.kept:
            self.kept.move_to_end(key)
            return self.kept[key]
        spec = self.describe(*key)
        self.kept[key] = spec
        if len(self.kept) > KEPT_STATES:
            self.kept.popitem(last=False)
        return spec

    def show(self, key: tuple) -> None:
        """Draw state `key`; on an error show it under the chart, the chart left at the last state drawn.

        Why the error is shown here: a callback's exception, which ipywidgets would otherwise send to the browser
        console, is shown where the student is looking, and the chart never half draws.
        """
        try:
            self.chart.spec = self.spec(key)
            self.error.value = ""
        except Exception as err:  # noqa: BLE001 - shown to the user, not hidden
            self.error.value = f"<pre>Error: {html.escape(type(err).__name__)}: {html.escape(str(err))}</pre>"

    def widgets(self) -> list[widgets.Widget]:
        """Return the chart and the error line, to go under the panel's controls."""
        return [self.chart, self.error]


def connect(controls: list[widgets.Widget], callback: Callable[[], None]) -> None:
    """Call `callback` whenever any control's value changes, and take what the panel has kept so far out of the
    cyclic garbage collector's sweeps (`gc.freeze`).

    Why the freeze: a move makes a few thousand small objects (the chart's description), and every so often that
    sets off a full collection, which walks every object the kernel holds: the study and the panels' kept runs, a
    35-55 ms pause inside one move (bench_panels.py, notebook 01's panel) where a lookup takes 1-3 ms. Frozen
    objects are still freed when nothing refers to them; only cycles among them wait for `gc.unfreeze()`.
    """
    for control in controls:
        control.observe(lambda _change: callback(), names="value")
    gc.freeze()
