"""Why a notebook's panel may miss the latency targets, and what it would take: printed by bench_browser.py under its
table for each notebook that misses one in that run (a note for a notebook that meets them is not printed).

Why a table of notes here rather than prose in RESULTS.md: the verdict is computed per run, so the explanation has
to come with the run that shows the miss; the notes rest on benchmarks/profile_panels.py's breakdown of a move.
"""

from __future__ import annotations

NOTES: dict[str, str] = {
    "02": (
        "feedback_panel's 'max rounds': a round count the panel has not shown yet is new work, not a slice. Each "
        "task's search draws from Random(1000 x rounds + task) (the seed script's streams, which the lecture's "
        "tables reproduce), so the run of 55 rounds is not the first 55 rounds of a longer run; every mode (four "
        "built-in and the student's proposer) optimizes all 200 tasks for that many rounds, about 100 ms in the "
        "kernel at 50 rounds and growing with the count. A value seen once is cached (the built-in modes per process, "
        "the student's per panel) and moves back to it cost only the figure. What it would take: a stream per task "
        "that does not depend on the round count (one run, sliced; it changes every published fast_p number and the "
        "golden digests), or every round count 1-200 precomputed per mode when the panel opens (tens of seconds of "
        "CPU in a background thread that would slow every other move while it runs)."
    ),
    "03": (
        "gemm_panel: every move re-plots the three-config breakdown (bars, labels, legend) and lays out and draws the "
        "whole 1056x480 figure again: the tile map's 25 cell texts, its colorbar and legend, some 70 texts in all "
        "(issue 10 made them readable, and the figure wider); the tile map itself is updated in place "
        "(toyhw/panels/tile_map_in_place.py). What is left is matplotlib's per-text cost: constrained layout "
        "measuring every label (about a quarter of a move in process) and the Agg draw rendering it (about half). "
        "What it would take: the breakdown updated in place too, a layout kept between moves (the margins follow the "
        "bar labels, so it would have to be checked per move), fewer texts, or the map drawn in the browser."
    ),
    "04": (
        "ablation_panel: a new selection of variants re-plots its one Axes (a band of up to 1000 points and a median "
        "line per variant, a secondary axis, a legend); budget and seeds update the curves in place "
        "(toyhw/panels/curves_in_place.py). What is left is matplotlib laying out and drawing it, about 120 ms in "
        "the kernel. What it would take: fewer texts or a plot drawn in the browser."
    ),
    "06": (
        "feedback_panel (per-shape feedback): every move changes every bar, tick label and grey span of both Axes "
        "(the 44 shapes are sorted by the new run's scores). After the first draw they are updated in place "
        "(toyhw/panels/bars_in_place.py), so what is left is drawing a figure of 44 shape rows twice over (issue 10 "
        "made the labels horizontal and readable, 10 pt, and the PNG 1008x1056): constrained layout measuring some "
        "100 texts (about a third of a move in process), the Agg draw rendering them and some 300 bars and spans, "
        "and the PNG. What it would take: the layout frozen after the first draw (the 44 labels are the same names "
        "in a new order, so the margins do not change; the kept figure must then never re-plot an Axes from "
        "scratch, or must lay out again when it does), fewer shapes on screen (the five of each top five), or a "
        "plot drawn in the browser instead of a PNG from matplotlib."
    ),
    "07": (
        "branches_panel's 'budget': a new (seed, budget) runs the search twice, without and with the branch check "
        "(about 90 ms in the kernel at 1000 programs), before the figure. What it would take: snapshots of one "
        "full-budget run per seed at every budget step, so that a budget is a slice of it."
    ),
}


def why(notebook: str) -> str:
    """Return the note for `notebook` (a file name starting with its number), or say that there is none."""
    return NOTES.get(notebook[:2], "no note: this notebook was not expected to miss; see profile_panels.py's section.")
