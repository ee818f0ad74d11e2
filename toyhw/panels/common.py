"""What every panel shares: a redraw that never half-draws, and controls that fire on release."""

from __future__ import annotations

from typing import Callable, Optional

import ipywidgets as widgets

OUTPUT_HEIGHT = "460px"


def output_area(height: str = OUTPUT_HEIGHT) -> widgets.Output:
    """Return an Output of fixed height, so redraws do not make the page jump."""
    return widgets.Output(layout=widgets.Layout(min_height=height))


def redraw(out: widgets.Output, render: Callable[[], Optional[dict]]) -> None:
    """Replace `out`'s content with the output `render` returns (a display_data dict, e.g. a panel's PNG), in one
    step; on an error show the error there instead.

    Why: assigning the outputs at once never leaves the panel empty or half drawn between two states (no flicker),
    works without a kernel (tests fire callbacks directly), and a callback's exception, which ipywidgets would
    otherwise swallow into the browser console, is shown where the student is looking.
    """
    try:
        shown = render()
        out.outputs = (shown,) if shown is not None else ()
    except Exception as err:  # noqa: BLE001 - shown to the user, not hidden
        out.outputs = ({"output_type": "stream", "name": "stderr", "text": f"Error: {type(err).__name__}: {err}\n"},)


def connect(controls: list[widgets.Widget], callback: Callable[[], None]) -> None:
    """Call `callback` whenever any control's value changes."""
    for control in controls:
        control.observe(lambda _change: callback(), names="value")
