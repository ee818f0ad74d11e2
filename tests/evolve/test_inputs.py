"""Lecture 14's library calls refuse bad input with one sentence: seeds, budgets, lists of seeds and variants, empty
shape lists; each check runs before any cache or run."""

import pytest

from toyhw.evolve.experiments import ablations, branch_check, sweep, targeting
from toyhw.evolve.experiments.ablations import context
from toyhw.evolve.config import EvolveConfig
from toyhw.evolve.evaluator import Evaluator, geomean_speedup, oracle_speedup
from toyhw.evolve.loop import evolve
from toyhw.evolve.programs import expert_program


def _evaluator():
    return Evaluator(context().train, context().table)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: evolve(_evaluator(), 10, seed=-3), "seed = -3 is not allowed; a seed must be an integer >= 0"),
        (lambda: evolve(_evaluator(), 10, seed=None), "seed = None is not allowed"),
        (lambda: ablations.run_one("full", -1, 10), "seed = -1 is not allowed"),
        (lambda: ablations.run_one("full", [1], 10), r"seed = \[1\] is not allowed"),
        (lambda: targeting.targeting(-2, 10), "seed = -2 is not allowed"),
        (lambda: branch_check.branch_row(None, 10, True), "seed = None is not allowed"),
        (lambda: branch_check.branch_row(0, 10, "yes"), "check = 'yes' is not allowed; it must be True or False"),
        (lambda: ablations.ablation_study(["full"], [0, -1], 10), r"seeds\[1\] = -1 is not allowed"),
        (lambda: sweep.grid(["full"], [None], [10]), r"seeds\[0\] = None is not allowed"),
        (lambda: sweep.check(sweep.Job("full", -5, 10)), "seed = -5 is not allowed"),
    ],
)
def test_a_negative_or_missing_seed_is_refused(call, message):
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.parametrize(
    "call, message",
    [
        (
            lambda: evolve(_evaluator(), 10**9),
            r"budget = 1000000000 is not allowed; .* <= 100,000 \(proposed programs; "
            "MAX_BUDGET",
        ),
        (lambda: ablations.run_one("full", 0, 10**9), "budget = 1000000000 is not allowed"),
        (lambda: ablations.ablation_study(["full"], [0, 0], 10), "seeds lists 0 twice"),
        (lambda: ablations.ablation_study(["full", "full"], [0], 10), "variants lists 'full' twice"),
        (lambda: ablations.ablation_study([], [0], 10), "variants is empty; give at least one variant"),
        (
            lambda: ablations.ablation_study("full", [0], 10),
            "variants = 'full' is not allowed; give a list of variants",
        ),
        (lambda: branch_check.branches([3, 3], 10), "seeds lists 3 twice"),
        (lambda: branch_check.branches(range(101), 10), "seeds has 101 seeds; at most 100 are allowed"),
        (lambda: sweep.ablation_study(["full"], [], 10), "seeds is empty; give at least one seed"),
        (lambda: sweep.grid(["full"], [0], [10, 10]), "budgets lists 10 twice"),
        (
            lambda: sweep.run_grid(sweep.grid(["full"], [0], [10]), workers=10**6),
            r"workers = 1000000 is not allowed; .* "
            r"<= 256 \(MAX_WORKERS\)",
        ),
        (lambda: sweep.run_grid([("full", 0, 10)]), "job = .* is not allowed; give sweep.Job"),
        (lambda: sweep.run_grid(None), "jobs = None is not allowed; give a list of sweep.Job"),
        (lambda: evolve(_evaluator(), 10, config=EvolveConfig(n_islands=0)), "n_islands = 0 is not allowed"),
        (
            lambda: EvolveConfig(cascade_ratio=1.5),
            r"cascade_ratio = 1.5 is not allowed; it must be a number in \(0, 1\]",
        ),
        (lambda: EvolveConfig(evolution="no"), "evolution = 'no' is not allowed; it must be True or False"),
        (lambda: evolve(_evaluator(), 10, config={"n_islands": 1}), "config = .* is not allowed; give an EvolveConfig"),
    ],
)
def test_sizes_and_lists_are_refused_before_anything_runs(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_an_unknown_variant_is_a_value_error_too():
    with pytest.raises(ValueError, match="unknown variant 'fulll'; known: full"):
        ablations.run_one("fulll", 0, 10)


def test_a_geometric_mean_over_no_shapes_is_refused_not_nan():
    table = context().table
    with pytest.raises(ValueError, match=r"shapes = \[\] is not allowed; give a non-empty list of Shape"):
        geomean_speedup(expert_program(), [], table)
    with pytest.raises(ValueError, match=r"shapes = \(\) is not allowed"):
        oracle_speedup((), table)
    with pytest.raises(ValueError, match=r"shapes\[0\] = 'x' is not allowed; each must be a Shape"):
        geomean_speedup(expert_program(), ["x"], table)


def test_the_demos_are_unchanged_by_the_checks():
    assert ablations.run_one("full", 2, 150) is ablations.run_one("full", 2, 150)  # cached, as before
    fresh = ablations.run_fresh("full", 2, 150)
    assert fresh is not ablations.run_one("full", 2, 150) and fresh.history == ablations.run_one("full", 2, 150).history
