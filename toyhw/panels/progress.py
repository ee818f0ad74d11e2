"""A progress bar for long sweeps in notebooks (the terminal one is `toyhw.evolve.experiments.sweep.terminal_progress`)."""

from __future__ import annotations

from IPython.display import Markdown, display

from toyhw.evolve.experiments.sweep import Progress
from toyhw.i18n import N_, t

LABELS = {"runs": N_("progress.runs"), "evolution runs": N_("progress.evolution_runs")}
"""Message id of each label the notebooks pass (their code is the same in every edition); another label is shown as
given."""


def notebook_progress(label: str = "runs") -> Progress:
    """Return a progress callback that shows tqdm's notebook bar under the running cell and, when done, a one-line
    summary in its place ("*55 of 55 evolution runs done.*").

    Why the summary replaces the bar: the stored notebook then shows a stable line that reads well without a kernel
    and that nbval can compare, instead of a widget that only renders live (and a text copy of the bar at 0%).
    """
    shown = t(LABELS[label]) if label in LABELS else label
    bar = None
    handle = None

    def show(done: int, total: int) -> None:
        nonlocal bar, handle
        if bar is None:
            from tqdm.notebook import tqdm  # tqdm.auto's choice in a notebook; its widget is displayed here, once

            bar = tqdm(total=total, desc=shown, unit="run", display=False)
            handle = display(bar.container, display_id=True)
        bar.update(done - bar.n)
        if done >= total:
            bar.close()
            summary = Markdown(t("progress.done", done=done, total=total, label=shown))
            handle.update(summary) if handle is not None else display(summary)  # None: no IPython kernel here

    return show
