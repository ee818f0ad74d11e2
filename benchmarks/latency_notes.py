"""Why a notebook's panel may miss the latency targets, and what it would take: printed by bench_browser.py under its
table for each notebook that misses one in that run (a note for a notebook that meets them is not printed).

Why a table of notes here rather than prose in RESULTS.md: the verdict is computed per run, so the explanation has
to come with the run that shows the miss. The notes describe the panels as they are built now (toyhw/panels: a chart
description per state, drawn by the page; no image is rendered in the kernel): what is left of a move is the work a
state's first visit does in the kernel, the Jupyter round trip and chart.js drawing the description. A move back to
a state the panel has shown is a dictionary lookup and the widget message (toyhw.panels.common.ChartPanel).
"""

from __future__ import annotations

import pathlib

NOTES: dict[str, str] = {
    "01": (
        "one_shot_panel: the first move of 'tasks' above the count shown runs the one-shot benchmark at the "
        "slider's largest count (1000 tasks) once, and a new 'task seed' runs it at the count shown (study.one_shot), "
        "before the description is made; every later count of a seed seen only slices the kept run. What it would "
        "take: the largest count run when the panel is made (a longer cell run), or in a background thread."
    ),
    "02": (
        "feedback_panel: every mode at every round count of the slider is computed when the panel is made "
        "(PanelRace), so a move takes fast_p of kept arrays and makes the description. A miss here is the round trip "
        "or a busy machine: compare the trivial slider's blocks and the kernel ms."
    ),
    "03": (
        "gemm_panel: a state's first visit makes its description (the tile map's cells from the GPU's time table, "
        "the oracle's and the expert's configs, the time breakdown), and a GPU's first visit builds its time table "
        "(toyhw.gemm.time_table.shared_table); the description has some 170 elements for chart.js to draw. What it "
        "would take: every GPU's table built when the panel is made."
    ),
    "04": (
        "ablation_panel: a state's first visit takes the median and min-max band of the kept histories of each "
        "chosen variant (every variant x seed ran once, at the full budget) and thins each curve to its steps. What "
        "it would take: the bands of every variant at every budget kept when the panel is made."
    ),
    "06": (
        "feedback_panel (per-shape feedback): seeds 0-4 are run when the panel is made, every budget of the slider "
        "from one run each, and the three seeds above the one shown run in a background thread (SeedRuns.ahead, "
        "0.2-0.5 s each); a move to a seed whose run has not ended waits for it, and any other seed runs the search "
        "once on its first visit: new work, not a lookup. What it would take: more seeds ahead (CPU the room shares)."
    ),
    "07": (
        "branches_panel: seeds 0-4 are run when the panel is made (without and with the branch check), and the three "
        "seeds above the one shown run in a background thread (SeedRuns.ahead, about 0.5 s each); a move to a seed "
        "whose runs have not ended waits for them, and any other seed runs twice on its first visit. The card of a "
        "(seed, budget, check) is made on its first visit (a few ms: the program simplified, statically checked and "
        "replayed on the new shapes)."
    ),
}


def why(notebook: str) -> str:
    """Return the note for `notebook` (its path under notebooks/, "02_x.ipynb" or "zh/02_x.ipynb": both editions
    share a note), or say that there is none."""
    return NOTES.get(
        pathlib.PurePosixPath(notebook).name[:2],
        "no note: this notebook was not expected to miss; compare its kernel ms with the trivial slider's.",
    )
