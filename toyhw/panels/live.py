"""A panel's figure kept between moves: built once, only the Axes whose inputs changed re-plotted, drawn in one pass.

Why each piece (the measurements are in benchmarks/RESULTS.md):

- A panel's figure is a plain `Figure` on its own Agg canvas, never registered with pyplot. In a kernel, a pyplot
  figure made in a widget callback is queued by the inline backend until the next cell runs (closed or not), so every
  move would leave a whole figure behind for the garbage collector to walk on every later collection.
- The canvas stays from move to move, and with it its renderer, which is what matplotlib's cache of text
  measurements is keyed on: tick labels, titles and legends that repeat are measured once, not on every move.
- `canvas.draw()` runs the layout engine once, inside the one draw that rasterizes. `savefig` of a figure with a
  layout engine draws it twice (a hidden pass for the layout, then the real one).
- An Axes is re-plotted (cleared, then drawn by the same `toyhw.plots` function as the static figure) only when what
  it shows changed (`Slot`): moving p in notebook 01 leaves the outcome bars alone.
- The PNG is RGB, at zlib's fastest level: the figure is opaque, so the alpha channel only costs zlib time and bytes
  on the wire; a higher level compresses these plots little better and takes longer.

A view's `show(...)` draws one state into the figure's Axes; the static figure of a notebook (made with pyplot so that
the inline backend displays it) and the live panel call the same `show`, so both show the same content. A live figure
drawn through a sequence of states equals one built afresh for the last state (tests/test_panels_live.py).
"""

from __future__ import annotations

import base64
import io
from typing import Any, Callable, Generic, Optional, Protocol, TypeVar

import matplotlib.pyplot as plt
import PIL.Image
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

DPI = 120
"""Pixels per inch of a panel's PNG unless its view says otherwise. Each view picks its inches and DPI so that the PNG
is 900 to 1100 pixels wide (the notebook column: the browser does not scale it) with text as large as the view's
longest title allows (fewer inches at a higher DPI make every text larger on a projector)."""

PNG_COMPRESS_LEVEL = 1
"""zlib's fastest level: on these flat-coloured plots it takes about a third less time than PIL's default (6) for a
PNG as small or smaller (zlib's longer searches find little more to match); the PNG only crosses a local websocket."""

_UNSET = object()


class View(Protocol):
    """What a panel draws: `figure`, made with its Axes by the constructor, and `show(...)`, which draws one state."""

    figure: Figure


V = TypeVar("V", bound=View)


def new_figure(figsize: tuple[float, float], live: bool, dpi: float = DPI) -> Figure:
    """Return an empty figure with constrained layout: a plain Figure on its own Agg canvas when `live`, else a pyplot
    figure (which the notebook's inline backend displays, at the same DPI, when the cell ends)."""
    if live:
        fig = Figure(figsize=figsize, dpi=dpi, layout="constrained")
        FigureCanvasAgg(fig)
        return fig
    return plt.figure(figsize=figsize, dpi=dpi, layout="constrained")


def clear(ax: Axes) -> None:
    """Empty `ax` for a re-plot, back to the state of a new subplot: its colorbars go too (a plot function adds its
    own, taking its room from the Axes' position, which therefore goes back to the subplot's own), then everything
    `cla` resets (artists, ticks, labels, limits, the colour cycle, secondary axes)."""
    for mappable in [*ax.images, *ax.collections]:
        if getattr(mappable, "colorbar", None) is not None:
            mappable.colorbar.remove()
    ax.cla()
    spec = ax.get_subplotspec()
    if spec is not None:
        ax._set_position(spec.get_position(ax.get_figure(root=True)))  # both positions; keeps it in the layout


def _positions(fig: Figure) -> list[tuple[Axes, Any, Any]]:
    """Return every Axes' position (original and active) before a draw's layout moves them."""
    return [(ax, ax._originalPosition.frozen(), ax._position.frozen()) for ax in fig.axes]


def _restore(positions: list[tuple[Axes, Any, Any]]) -> None:
    """Put the Axes back where they were before the layout.

    Why: constrained layout starts from the current positions and is not idempotent with colorbars or secondary axes
    (each draw nudges them a little further, converging over some ten draws). Starting every draw from the positions
    a new figure would have keeps a kept figure pixel for pixel equal to a new one, and its Axes from drifting while
    the student moves a slider. (`Axes.set_position` would take the Axes out of the layout, hence `_set_position`.)
    """
    for ax, original, active in positions:
        ax._set_position(original, which="original")
        ax._set_position(active, which="active")


class Slot:
    """One Axes of a live figure that is re-plotted only when the key of what it shows changes.

    The key must name everything the plot depends on (the panel's values that feed it); equal keys mean the Axes
    already shows that content, so a move that does not touch it costs nothing there.
    """

    def __init__(self, ax: Axes) -> None:
        self.ax = ax
        self.key: Any = _UNSET

    def plot(self, key: Any, draw: Callable[[Axes], Any], update: Optional[Callable[[Axes], bool]] = None) -> bool:
        """Draw with `draw(ax)` into the emptied Axes unless it already shows `key`; return whether it changed.

        `update(ax)`, if given, is tried first when the Axes already shows something: it changes the artists in place
        to what `draw` would draw and returns True, or returns False having changed nothing (then `draw` runs).
        """
        if self.key is not _UNSET and self.key == key:
            return False
        shown, self.key = self.key, _UNSET  # if `draw` or `update` raises, the next call re-plots whatever the key
        if update is None or shown is _UNSET or not update(self.ax):
            clear(self.ax)
            draw(self.ax)
        self.key = key
        return True


def static_figure(view: V, show: Callable[[V], Any]) -> Figure:
    """Return the figure of `view` (made with live=False) after `show(view)`; on an error close it and re-raise, so
    that a failed call leaves no empty figure for the inline backend to display."""
    try:
        show(view)
    except BaseException:
        plt.close(view.figure)
        raise
    return view.figure


def png_output(fig: Figure) -> dict:
    """Return `fig` drawn once (layout included) as a Jupyter display_data output: an RGB PNG at the figure's DPI."""
    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    canvas.draw()
    width, height = canvas.get_width_height(physical=True)
    image = PIL.Image.frombuffer("RGBA", (width, height), canvas.buffer_rgba(), "raw", "RGBA", 0, 1).convert("RGB")
    buffer = io.BytesIO()
    image.save(buffer, format="png", compress_level=PNG_COMPRESS_LEVEL)
    return {
        "output_type": "display_data",
        "data": {
            "image/png": base64.b64encode(buffer.getvalue()).decode("ascii"),
            "text/plain": f"<Figure size {width}x{height} with {len(fig.axes)} Axes>",
        },
        "metadata": {},
    }


class LiveFigure(Generic[V]):
    """A panel's view, made on first use and kept: `output(show)` draws a state into it and returns its PNG output.

    If drawing a state raises, the view is dropped and the next call makes a fresh one: an error never leaves a half
    updated figure behind for the next move.
    """

    def __init__(self, make: Callable[[bool], V]) -> None:
        self._make = make
        self.view: Optional[V] = None

    def output(self, show: Callable[[V], Any]) -> dict:
        """Return the display_data output of the kept view after `show(view)` drew the panel's state into it."""
        view = self.view if self.view is not None else self._make(True)
        self.view = None
        show(view)
        before_layout = _positions(view.figure)
        try:
            shown = png_output(view.figure)
        finally:
            _restore(before_layout)
        self.view = view
        return shown
