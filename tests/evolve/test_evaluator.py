"""The evaluator: scores relative to the expert, branch check, cascade, per-shape feedback, kernel-run counts."""
import math

import numpy as np
import pytest

from toyhw.gemm import expert
from toyhw.evolve.ablations import context
from toyhw.evolve.evaluator import Evaluator, geomean_speedup, oracle_speedup
from toyhw.evolve.loop import evolve
from toyhw.gemm.config import GemmConfig
from toyhw.evolve.programs import Program, Rule, expert_program

BAD = GemmConfig(128, 256, 64, 8, 5, 1)  # cannot launch: shared memory


def ctx():
    return context()


def test_the_expert_scores_one_and_costs_one_run_per_training_shape():
    c = ctx()
    ev = Evaluator(c.train, c.table, cascade=False)
    result = ev.evaluate(expert_program())
    assert result.score == pytest.approx(1.0) and result.status == "ok"
    assert ev.bench_runs == result.runs == len(c.train) == 44


def test_score_is_the_geometric_mean_speedup_over_the_expert():
    c = ctx()
    program = Program((), GemmConfig(64, 128, 64, 4, 4, 1))
    ev = Evaluator(c.train, c.table, cascade=False)
    score = ev.evaluate(program).score
    ratios = [c.table.time(expert.expert_config(s), s) / c.table.time(program.default, s) for s in c.train]
    assert score == pytest.approx(math.exp(np.mean(np.log(ratios))))
    assert geomean_speedup(program, c.train, c.table) == pytest.approx(score)


def test_a_latent_bad_branch_is_rejected_by_the_check_before_any_run_and_passes_without_it():
    c = ctx()
    latent = Program((Rule(BAD, m_min=3000, m_max=4000),) + expert_program().rules, expert_program().default)
    checked = Evaluator(c.train, c.table, check_all_branches=True)
    result = checked.evaluate(latent)
    assert result.status == "bad branch" and result.score is None and checked.bench_runs == 0
    unchecked = Evaluator(c.train, c.table, check_all_branches=False)
    assert unchecked.evaluate(latent).score == pytest.approx(1.0)
    assert unchecked.has_bad_branch(latent)


def test_a_reached_bad_branch_crashes_and_the_cascade_stops_early():
    c = ctx()
    crashing = Program((Rule(BAD, m_max=8192),), expert_program().default)
    full = Evaluator(c.train, c.table, check_all_branches=False, cascade=False)
    cheap = Evaluator(c.train, c.table, check_all_branches=False, cascade=True)
    assert full.evaluate(crashing).status == "crash" and full.bench_runs == 44
    assert cheap.evaluate(crashing).status == "crash" and cheap.bench_runs == 11


def test_cascade_saves_kernel_runs_in_a_search():
    c = ctx()
    with_cascade = evolve(Evaluator(c.train, c.table, cascade=True), 300, seed=3)
    without = evolve(Evaluator(c.train, c.table, cascade=False), 300, seed=3)
    assert with_cascade.bench_runs < 0.9 * without.bench_runs
    assert with_cascade.statuses["cascade"] > 0 and without.statuses["cascade"] == 0


def test_per_shape_feedback_ratios_and_best_config():
    c = ctx()
    ev = Evaluator(c.train, c.table)
    out = evolve(ev, 200, seed=1)
    rows = ev.per_shape(expert_program())
    assert [r.shape for r in rows] == list(c.train)
    for r in rows:
        assert 0 < r.vs_roofline <= 1 and 0 < r.vs_best <= 1
        assert r.vs_roofline == pytest.approx(c.table.roofline(r.shape) / r.time)
        assert c.table.time(r.best_config, r.shape) == pytest.approx(r.vs_best * r.time)
        assert r["vs_best"] == r.vs_best  # the seed's driver reads rows like dicts
    assert any(r.vs_best < 0.95 for r in rows)  # the search found something faster than the expert somewhere
    best_rows = ev.per_shape(out.best[0])
    assert sum(r.time for r in best_rows) < sum(r.time for r in rows)


def test_oracle_is_above_the_expert_and_every_program():
    c = ctx()
    assert oracle_speedup(c.train, c.table) > 1.05 and oracle_speedup(c.test, c.table) > 1.05
    assert geomean_speedup(expert_program(), c.test, c.table) == pytest.approx(1.0)


def test_an_empty_training_set_is_refused():
    with pytest.raises(ValueError, match="train_shapes is empty"):
        Evaluator([], ctx().table)
