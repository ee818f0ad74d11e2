"""A progress bar for long sweeps in notebooks (the terminal one is `toyhw.evolve.sweep.terminal_progress`)."""
from __future__ import annotations

import ipywidgets as widgets
from IPython.display import Markdown, display

from toyhw.evolve.sweep import Progress


def notebook_progress(label: str = "runs") -> Progress:
    """Return a progress callback that shows a bar under the running cell and, when done, a one-line summary.

    Why the summary replaces the bar: the stored notebook then shows a stable line ("55 of 55 runs done") that
    reads well without a kernel and that nbval can compare, instead of a widget that only renders live.
    """
    bar = widgets.IntProgress(value=0, min=0, max=1, description=label)
    handle = None

    def show(done: int, total: int) -> None:
        nonlocal handle
        if handle is None:
            handle = display(bar, display_id=True)
        bar.max, bar.value = total, done
        if done == total:
            bar.close()
            handle.update(Markdown(f"*{done} of {total} {label} done.*"))

    return show
