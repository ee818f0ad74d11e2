"""What every panel shares: a redraw that never half-draws, and controls that fire on release."""
from __future__ import annotations

import base64
import io
from typing import Callable, Optional

import ipywidgets as widgets
import matplotlib.pyplot as plt
from matplotlib.figure import Figure

OUTPUT_HEIGHT = "460px"
DPI = 80


def output_area(height: str = OUTPUT_HEIGHT) -> widgets.Output:
    """Return an Output of fixed height, so redraws do not make the page jump."""
    return widgets.Output(layout=widgets.Layout(min_height=height))


def figure_output(fig: Figure) -> dict:
    """Return `fig` as a Jupyter display_data output (PNG), the way the inline backend would show it."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=DPI)
    width, height = fig.get_size_inches() * fig.dpi
    return {
        "output_type": "display_data",
        "data": {"image/png": base64.b64encode(buffer.getvalue()).decode("ascii"),
                 "text/plain": f"<Figure size {width:.0f}x{height:.0f} with {len(fig.axes)} Axes>"},
        "metadata": {},
    }


def redraw(out: widgets.Output, draw: Callable[[], Optional[Figure]]) -> None:
    """Replace `out`'s content with the figure `draw` returns, in one step; on an error show the error there instead.

    Why: assigning the outputs at once never leaves the panel empty or half drawn between two states (no flicker),
    works without a kernel (tests fire callbacks directly), and a callback's exception, which ipywidgets would
    otherwise swallow into the browser console, is shown where the student is looking.
    """
    try:
        fig = draw()
        out.outputs = (figure_output(fig),) if fig is not None else ()
    except Exception as err:  # noqa: BLE001 - shown to the user, not hidden
        out.outputs = ({"output_type": "stream", "name": "stderr", "text": f"Error: {type(err).__name__}: {err}\n"},)
    finally:
        plt.close("all")


def connect(controls: list[widgets.Widget], callback: Callable[[], None]) -> None:
    """Call `callback` whenever any control's value changes."""
    for control in controls:
        control.observe(lambda _change: callback(), names="value")
