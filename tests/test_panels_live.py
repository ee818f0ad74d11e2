"""A panel's kept figure (toyhw.panels.live) shows what a new figure would: drawn through a sequence of states, it
equals, pixel for pixel, one built afresh for the last state, and the notebook's static figure shows the same.

Why pixels: a kept figure re-plots only the Axes whose inputs changed, updates some artists in place and starts each
layout from the positions a new figure would have; any of these going wrong (a stale Axes, a colorbar left behind, an
Axes drifting from move to move, a limit not recomputed) shows as a pixel difference.
"""

from __future__ import annotations

import base64
import io
from typing import Any, Callable

import matplotlib.pyplot as plt
import numpy as np
import PIL.Image
import pytest

from toyhw.evolve.experiments import ablations, sweep
from toyhw.gemm import expert, shapes
from toyhw.gemm.config import GemmConfig
from toyhw.kernels import study
from toyhw.panels import evolution, fastp, gemm, live

Show = Callable[[Any], None]


def _pixels(output: dict) -> np.ndarray:
    return np.asarray(PIL.Image.open(io.BytesIO(base64.b64decode(output["data"]["image/png"]))))


def _assert_kept_equals_new(make: Callable[[bool], Any], states: list[Show]) -> None:
    kept = live.LiveFigure(make)
    for show in states:
        shown = kept.output(show)
    fresh = live.LiveFigure(make).output(states[-1])
    assert shown["data"]["text/plain"] == fresh["data"]["text/plain"]
    np.testing.assert_array_equal(_pixels(shown), _pixels(fresh))
    static = make(False)
    try:
        states[-1](static)
        np.testing.assert_array_equal(_pixels(live.png_output(static.figure)), _pixels(fresh))
    finally:
        plt.close(static.figure)


def _config(layer: str, M: int, **changes: int) -> GemmConfig:
    chosen = expert.expert_config(shapes.layer_shape(layer, M))
    return GemmConfig(**{**chosen.as_dict(), **changes}) if changes else chosen


CASES: dict[str, tuple[Callable[[bool], Any], list[Show]]] = {
    "one-shot": (
        fastp.OneShotView,
        [
            lambda v: v.show(230, 200, 1.0),
            lambda v: v.show(230, 200, 1.5),
            lambda v: v.show(231, 100, 1.5),
            lambda v: v.show(230, 200, 2.0),
        ],
    ),
    "explorer": (
        gemm.ExplorerView,
        [
            lambda v: v.show("H100", "70B/8 qkv", 16, _config("70B/8 qkv", 16)),
            lambda v: v.show("H100", "70B/8 qkv", 16, _config("70B/8 qkv", 16, block_m=128)),
            lambda v: v.show("A100", "70B/8 o", 512, _config("70B/8 o", 512)),
            lambda v: v.show("H100", "70B/8 qkv", 16, _config("70B/8 qkv", 16, block_n=32)),
        ],
    ),
    # a dozen moves that keep the tile map and its colorbar: an Axes left alone must not drift with each layout
    "explorer, box moved 12 times": (
        gemm.ExplorerView,
        [
            (lambda m: lambda v: v.show("H100", "70B/8 qkv", 16, _config("70B/8 qkv", 16, block_m=m)))(m)
            for m in [16, 32, 64, 128, 256] * 2 + [16, 64]
        ],
    ),
    "targeting": (
        evolution.TargetingView,
        [lambda v: v.show(0, 100), lambda v: v.show(1, 150), lambda v: v.show(0, 100), lambda v: v.show(2, 100)],
    ),
    "branches": (evolution.BranchesView, [lambda v: v.show(0, 200), lambda v: v.show(1, 200)]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_kept_figure_drawn_through_states_equals_a_new_one(name: str) -> None:
    make, states = CASES[name]
    _assert_kept_equals_new(make, states)


def test_the_race_figure_kept_equals_new() -> None:
    def show(modes: tuple[str, ...], rounds: int, p: float) -> Show:
        curves = study.fastp_curves(modes, p, rounds, study.LECTURE_TASK_SEED, 50)
        ceiling = fastp.PanelRace(study.LECTURE_TASK_SEED, 50).ceiling(p)
        return lambda v: v.show(curves, p, ceiling, key=(modes, rounds, p))

    _assert_kept_equals_new(
        fastp.FeedbackView,
        [show(("resample", "scalar"), 10, 1.0), show(("scalar",), 12, 1.5), show(("resample", "scalar"), 10, 1.0)],
    )


def test_the_ablation_figure_kept_equals_new(monkeypatch: pytest.MonkeyPatch) -> None:
    small = sweep.ablation_study(
        ["full", "no_feedback"], ablations.SEEDS[:2], 60, workers=1
    )  # the full study takes minutes
    monkeypatch.setattr(evolution, "full_study", lambda *a, **k: small)
    monkeypatch.setattr(ablations, "BUDGET", 60)
    _assert_kept_equals_new(
        evolution.AblationView,
        [
            lambda v: v.show(["full", "no_feedback"], 60, 2),
            lambda v: v.show(["full"], 40, 1),
            lambda v: v.show(["no_feedback", "full"], 50, 2),
            lambda v: v.show(["no_feedback", "full"], 30, 1),
            lambda v: v.show(["no_feedback", "full"], 60, 2),
        ],
    )  # the last two update the curves in place


def test_a_failed_state_leaves_no_half_drawn_figure() -> None:
    kept = live.LiveFigure(fastp.OneShotView)
    kept.output(lambda v: v.show(230, 200, 1.0))
    with pytest.raises(ValueError):
        kept.output(lambda v: v.show(230, 200, -1.0))
    assert kept.view is None
    np.testing.assert_array_equal(
        _pixels(kept.output(lambda v: v.show(230, 200, 2.0))),
        _pixels(live.LiveFigure(fastp.OneShotView).output(lambda v: v.show(230, 200, 2.0))),
    )
