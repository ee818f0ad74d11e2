"""What every panel shares: a redraw that never half-draws, and controls that only fire on release."""
from __future__ import annotations

from typing import Callable

import ipywidgets as widgets
import matplotlib.pyplot as plt
from IPython.display import display
from matplotlib.figure import Figure

OUTPUT_HEIGHT = "460px"


def output_area(height: str = OUTPUT_HEIGHT) -> widgets.Output:
    """Return an Output of fixed height, so redraws do not make the page jump."""
    return widgets.Output(layout=widgets.Layout(min_height=height))


def redraw(out: widgets.Output, draw: Callable[[], Figure | None]) -> None:
    """Replace `out`'s content with what `draw` shows; on an error show the error there, in full, and re-raise nothing.

    A widget callback's exception is otherwise swallowed into the browser console and the panel stays half drawn; a
    student should see what went wrong, where they are looking.
    """
    with out:
        out.clear_output(wait=True)
        try:
            fig = draw()
            if fig is not None:
                display(fig)
                plt.close(fig)
        except Exception as err:  # noqa: BLE001 - shown to the user, not hidden
            plt.close("all")
            print(f"Error: {type(err).__name__}: {err}")


def connect(controls: list[widgets.Widget], callback: Callable[[], None]) -> None:
    """Call `callback` whenever any control's value changes."""
    for control in controls:
        control.observe(lambda _change: callback(), names="value")
