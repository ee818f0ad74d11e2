"""Notebook 04's solution file runs, and what each exercise's Answer says about its result holds."""

import functools

import numpy as np
import pytest

from exercise_cells import NOTEBOOKS, load_solution
from toyhw.course import evolve_tables as tables
from toyhw.evolve import variants
from toyhw.evolve.evaluator import geomean_speedup
from toyhw.evolve.experiments import ablations
from toyhw.evolve.programs import firing_rule
from toyhw.evolve.simplify import simplify


@functools.cache
def _solutions():
    """notebooks/solutions/04_alphaevolve_ablations.py, run as a module (one section per exercise)."""
    return load_solution(NOTEBOOKS / "04_alphaevolve_ablations.ipynb")


@pytest.fixture(scope="module")
def solutions():
    return _solutions()


@pytest.fixture(scope="module")
def study():
    return ablations.ablation_study(variants.available(), ablations.SEEDS, ablations.BUDGET)


def test_the_gap_between_full_and_small_llm_grows_with_the_budget_on_new_seeds(solutions):
    frame = solutions.ablation_gap()
    assert list(frame.index) == [100, 300, 1000, 2000]
    assert list(frame["gap"]) == sorted(frame["gap"]) and frame["gap"].min() > 0
    assert frame["full"].iloc[-1] > frame["full"].iloc[-2] + 0.01  # still climbing between 1000 and 2000
    assert frame["small_llm"].iloc[-1] - frame["small_llm"].iloc[-2] < 0.01  # flat


def test_adopting_the_best_config_seen_more_often_helps_at_every_seed(solutions, study):
    frame = solutions.adoption_sweep()
    seeds = list(ablations.SEEDS)
    assert (
        frame.loc[0.9, seeds].min()
        > frame.loc[0.5, seeds].max()
        > frame.loc[0.5, seeds].min()
        > frame.loc[0.1, seeds].max()
    )
    assert list(frame.loc[0.5, seeds]) == [round(r.final, 4) for r in study.runs["full"]]  # p_adopt=0.5 is `full`


def test_worst3_focuses_on_fewer_shapes_where_a_faster_config_is_known_and_wins_more_often(solutions):
    frame = solutions.focus_report()
    full, worst = frame.loc["full"], frame.loc["fb_worst3"]
    assert set(full["shapes targeted"]) == {44} and worst["shapes targeted"].max() < 44
    assert worst["in the last quarter"].max() < worst["shapes targeted"].min()
    for column in ("faster config known", "adopted it", "child beat its parent"):
        assert worst[column].min() > full[column].max(), column
    assert worst["faster config known"].min() > 0.99
    assert worst["known improvement"].min() > full["known improvement"].max()


def test_known_improvement_has_one_meaning_in_notebooks_04_and_06():
    """Notebook 04's Exercise 3 (the trace's `known_improvement`) and notebook 06's stuck targets (Exercise 1) count
    with the same definition and threshold, so the two shares add up to one on the same run."""
    import math

    from exercise_cells import NOTEBOOKS, load_solution
    from toyhw.course import proposal_trace
    from toyhw.evolve.experiments import targeting

    assert targeting.known_improvement(targeting.STUCK) and not targeting.known_improvement(targeting.STUCK + 1e-9)
    steps = proposal_trace.trace("fb_worst3", 0, 300).steps
    known = sum(s.known_improvement for s in steps) / len(steps)
    stuck = (
        load_solution(NOTEBOOKS / "06_using_feedback.ipynb").stuck_target_shares(("fb_worst3",), (0,), 300).iloc[0, 0]
    )
    assert math.isclose(known + stuck, 1.0)
    assert all(s.known_improvement == (s.target_vs_best <= targeting.STUCK) for s in steps)


def test_new_shape_scores_rank_the_variants_a_third_way(solutions, study):
    frame = solutions.new_shape_scores(study)
    assert len(frame) == len(study.runs) and list(frame.iloc[:, 0]) == sorted(frame.iloc[:, 0], reverse=True)
    ranks = tables.rank_frame(study)
    assert list(frame.index) != list(ranks.index) != list(ranks.sort_values("test rank").index) != list(frame.index)
    assert frame.index[-1] == "no_cascade" and ranks.loc["no_cascade", "training rank"] == 2
    assert (frame["min"] > 0).all()  # with the branch check on, every best program launches on every new shape


def test_the_best_m_only_program_tests_m_only_and_is_optimal_per_token_count(solutions):
    ctx = ablations.context()
    program = solutions.best_m_only_program()
    assert all(
        r.n_min is None and r.n_max is None and r.k_min is None and r.k_max is None and r.m_min is None
        for r in program.rules
    )
    score = geomean_speedup(program, ctx.train, ctx.table)
    assert (
        ablations.headroom_share(score, ctx.oracle_train)
        < 0.5
        < ablations.headroom_share(
            float(np.median([r.final for r in ablations.ablation_study(["full"]).runs["full"]])), ctx.oracle_train
        )
    )
    # no single-config change for one token count improves it (it is the best M-only rule list)
    for i, rule in enumerate(program.rules[:3]):
        for other in set(program.branches()):
            rules = program.rules[:i] + (rule.with_config(other),) + program.rules[i + 1 :]
            assert geomean_speedup(type(program)(rules, program.default), ctx.train, ctx.table) <= score + 1e-12
    assert simplify(program).n_rules() <= program.n_rules()
    assert firing_rule(program, 1, 1, 1) == 0
