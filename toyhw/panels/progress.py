"""A progress bar for long sweeps in notebooks (the terminal one is `toyhw.evolve.sweep.terminal_progress`)."""
from __future__ import annotations

from IPython.display import Markdown, display

from toyhw.evolve.sweep import Progress


def notebook_progress(label: str = "runs") -> Progress:
    """Return a progress callback that shows tqdm's notebook bar under the running cell and, when done, a one-line
    summary in its place ("*55 of 55 evolution runs done.*").

    Why the summary replaces the bar: the stored notebook then shows a stable line that reads well without a kernel
    and that nbval can compare, instead of a widget that only renders live (and a text copy of the bar at 0%).
    """
    bar = None
    handle = None

    def show(done: int, total: int) -> None:
        nonlocal bar, handle
        if bar is None:
            from tqdm.notebook import tqdm  # tqdm.auto's choice in a notebook; its widget is displayed here, once

            bar = tqdm(total=total, desc=label, unit="run", display=False)
            handle = display(bar.container, display_id=True)
        bar.update(done - bar.n)
        if done >= total:
            bar.close()
            summary = Markdown(f"*{done} of {total} {label} done.*")
            handle.update(summary) if handle is not None else display(summary)  # None: no IPython kernel here

    return show
