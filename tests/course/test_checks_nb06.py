"""Notebook 06's exercise checks: they fail on stubs and wrong answers, pass on the solution file, and never raise.

Also what the solutions compute, as the notebook's Answer blocks state it (tests/prose/nb06.py checks their numbers).
"""

from __future__ import annotations

import pandas as pd
import pytest

from exercise_cells import NOTEBOOKS, load_solution
from toyhw import i18n
from toyhw.course.check import WIDTH, Verdict
from toyhw.course.checks import nb06 as checks
from toyhw.evolve import variants
from toyhw.evolve.evaluator import Evaluator
from toyhw.evolve.experiments import ablations, targeting
from toyhw.evolve.loop import evolve
from toyhw.gemm.time_table import shared_table
from toyhw.textwidth import display_width
from visible_answers import copied_answer

S = load_solution(NOTEBOOKS / "06_using_feedback.ipynb")
SOLVED = {1: S.stuck_target_share, 2: S.stuck_share_by_budget, 3: S.far_from_roofline, 4: S.decode_reach_by_gpu}


def _stub(*args, **kwargs):
    raise NotImplementedError


def _raises(*args, **kwargs):
    raise KeyError("oops")


def _check(k: int, answer) -> Verdict:
    verdict = getattr(checks, f"exercise_{k}")(answer)
    assert isinstance(verdict, Verdict)
    assert "\n" not in str(verdict) and display_width(str(verdict)) <= WIDTH, str(verdict)
    return verdict


@pytest.mark.parametrize("k", sorted(SOLVED))
def test_the_solution_passes(k):
    verdict = _check(k, SOLVED[k])
    assert verdict.ok, str(verdict)
    assert str(verdict).startswith("✓ ")


@pytest.mark.parametrize("k", sorted(SOLVED))
@pytest.mark.parametrize(
    "answer",
    [_stub, _raises, None, 0.45, lambda *a, **k: "a string", lambda *a, **k: pd.DataFrame()],
    ids=["stub", "raises", "none", "number", "str", "empty frame"],
)
def test_stubs_and_wrong_types_fail_without_raising(k, answer):
    verdict = _check(k, answer)
    assert not verdict.ok and str(verdict).startswith("✗ ")


def test_the_stub_says_it_is_the_stub():
    assert "still the stub" in str(checks.exercise_1(_stub))


def test_wrong_values_fail():
    assert not _check(1, lambda name, seed, budget: S.stuck_target_share(name, seed, budget) + 0.01)
    # the shares of the run's best program, not of its proposals
    assert not _check(1, lambda name, seed, budget: targeting.targeting(seed, budget).share_on_stuck["best"])
    assert not _check(2, lambda seed, budgets: S.stuck_share_by_budget(seed, budgets[:-1]))
    assert not _check(2, lambda seed, budgets: S.stuck_share_by_budget(seed, budgets) * 100)  # percent, not share
    assert not _check(3, lambda threshold: S.far_from_roofline(0.5))
    assert not _check(3, lambda threshold: S.far_from_roofline(threshold).assign(bound="dram"))
    assert not _check(4, lambda gpus, seed, budget: S.decode_reach_by_gpu(gpus, seed, 1000))
    assert not _check(4, lambda gpus, seed, budget: S.decode_reach_by_gpu(gpus, seed, budget).iloc[:-1])


def test_unrounded_answers_pass():
    def exact(gpus, seed, budget):  # the solution's frame without its rounding to two decimals
        frame = S.decode_reach_by_gpu(gpus, seed, budget)
        for gpu in gpus:
            table = shared_table(gpu)
            shapes = {s.label(): s for s in ablations.context().train + ablations.context().test}
            reach = [table.roofline(shapes[label]) / table.oracle(shapes[label])[1] for label in frame["shape"]]
            frame[f"{gpu} vs_roofline"] = reach
        return frame

    assert _check(4, exact)


CALLS = {
    1: [((name, 0, 300), {}) for name in checks.VARIANTS],
    2: [((0, checks.BUDGETS), {})],
    3: [((0.6,), {})],
    4: [((checks.GPUS, 0, 300), {})],
}
"""The calls each check makes that the notebook shows (the exercise's own)."""


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("k", sorted(SOLVED))
def test_a_copy_of_the_notebooks_answers_fails(k, language):
    copied = copied_answer(SOLVED[k], *CALLS[k])
    with i18n.using(language):
        verdict = _check(k, copied)
    assert not verdict.ok
    if k == 1:
        assert "stuck_target_share('full', 1, 150)" in str(verdict), verdict
    else:
        assert str(verdict).startswith("✗ on another case (") or "换一组输入" in str(verdict), verdict


def test_the_observer_leaves_the_run_unchanged():
    """Exercise 1 counts the proposals behind notebook 04's curves: an observer only watches."""
    spec = variants.get("fb_worst3")
    ctx = ablations.context()
    steps = []
    result = evolve(
        Evaluator(ctx.train, ctx.table),
        200,
        seed=1,
        llm=spec.llm,
        config=spec.config,
        observer=lambda step: steps.append(step.step),
    )
    reference = ablations.run_one("fb_worst3", 1, 200)
    assert result.history == reference.history and result.kernel_runs == reference.kernel_runs
    assert steps == list(range(1, 201))


# ----- what the solutions compute (the notebook's Answer blocks)


def test_worst3_aims_at_known_improvements_and_no_feedback_mostly_at_stuck_shapes():
    shares = S.stuck_target_shares(budget=300)
    assert list(shares.index) == ["full", "fb_roofline", "fb_worst3", "no_feedback"]
    for seed in shares.columns:
        column = shares[seed]
        assert column["fb_worst3"] < column["full"] < column["fb_roofline"] < column["no_feedback"]
    assert shares.loc["fb_worst3"].max() < 0.1


def test_stuck_share_by_budget_roofline_above_best_seen_at_every_budget():
    frame = S.stuck_share_by_budget()
    assert list(frame.index) == [100, 200, 300, 500, 700, 1000]
    assert (frame["roofline"] > frame["best seen"]).all()
    assert frame.loc[300, "stuck shapes"] == targeting.targeting(0, 300).n_stuck


def test_far_from_roofline_lists_the_shapes_and_reasons_from_the_breakdown():
    frame = S.far_from_roofline()
    assert len(frame) == 17 and (frame["oracle vs_roofline"] < 0.6).all()
    assert frame.iloc[0]["shape"] == "70B/8 qkv M=512" and frame.iloc[0]["bound"] == "compute"
    assert all(why for why in frame["why"])


def test_every_stuck_decode_shape_is_farther_from_its_roofline_on_a_b200():
    frame = S.decode_reach_by_gpu()
    assert len(frame) == 10
    assert (frame["B200 vs_roofline"] < frame["H100 vs_roofline"]).all()
