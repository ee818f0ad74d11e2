"""A run's checkpoints are the runs of those budgets: the panels of notebooks 06 and 07 read many budgets of one seed
from one run (toyhw.evolve.loop.Checkpoint), and must show what a run of each budget shows."""

import pytest

from toyhw.evolve.experiments import ablations, branch_check, targeting
from toyhw.evolve.evaluator import Evaluator
from toyhw.evolve.loop import evolve


def test_a_checkpoint_is_the_run_of_its_budget():
    ctx = ablations.context()
    long = evolve(Evaluator(ctx.train, ctx.table), 400, seed=3, checkpoints=[1, 150, 400])
    for budget in (1, 150, 400):
        short = evolve(Evaluator(ctx.train, ctx.table), budget, seed=3)
        point = long.checkpoints[budget]
        assert point.best == short.best and point.programs == tuple(short.db.programs())
        assert (point.n_added, point.n_added_bad_branch) == (short.n_added, short.n_added_bad_branch)
    assert long.history == evolve(Evaluator(ctx.train, ctx.table), 400, seed=3).history  # watching changes nothing


def test_targeting_and_branch_rows_of_many_budgets_equal_their_own_runs():
    many = targeting.targeting_budgets(2, [100, 350])
    assert many == {budget: targeting.targeting(2, budget) for budget in (100, 350)}
    rows = branch_check.branch_rows(2, [200, 500])
    assert rows == {(b, c): branch_check.branch_row(2, b, c) for b in (200, 500) for c in (False, True)}


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: targeting.targeting_budgets(0, []), "budgets is empty"),
        (lambda: branch_check.branch_rows(0, [0]), "budget = 0 is not allowed"),
        (
            lambda: evolve(Evaluator(ablations.context().train, ablations.context().table), 10, checkpoints=[11]),
            "checkpoints = 11 is not allowed",
        ),
    ],
)
def test_bad_checkpoints_are_refused_naming_them(call, message):
    with pytest.raises(ValueError, match=message):
        call()
