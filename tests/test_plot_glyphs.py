"""Plots never show boxes: every matplotlib plot, drawn with the package's language set to Chinese, renders without one
missing glyph.

The decision (as d2l's Chinese edition does): matplotlib's plot text stays English in both editions, so no CJK font is
needed on any install path (the panels' charts are drawn by the browser, which has the fonts: their text is the
edition's, tests/test_panel_charts.py); a Chinese label that slipped into a plot (from a catalogue, a mode label, a table head) would draw as
boxes with matplotlib's default font, and matplotlib warns "Glyph ... missing from font(s)", which fails here.
"""

from __future__ import annotations

import warnings

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from plot_builders import BUILDERS, MORE, figure_of  # noqa: E402
from toyhw import i18n  # noqa: E402

ALL = {**BUILDERS, **MORE}


def missing_glyphs(draw) -> list[str]:
    """Return matplotlib's missing-glyph warnings while `draw()` builds and renders a figure."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fig = figure_of(draw())
        fig.canvas.draw()
        plt.close(fig)
    return [str(w.message) for w in caught if "missing from" in str(w.message) and "Glyph" in str(w.message)]


@pytest.mark.parametrize("name", list(ALL))
def test_no_missing_glyph_in_chinese(name):
    with i18n.using("zh"):
        assert missing_glyphs(ALL[name]) == []


def test_the_check_sees_a_chinese_label():
    """The check bites: a figure titled in Chinese (with the default fonts) is reported."""

    def chinese_title():
        fig = plt.figure()
        fig.add_subplot().set_title("只有标量反馈")
        return fig

    assert missing_glyphs(chinese_title)
