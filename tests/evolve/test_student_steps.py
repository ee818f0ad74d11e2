"""A student's own proposal step (`evolve(..., llm=step)`): what it returns is checked with an error naming the step
and what is allowed, and what it is given cannot change the run."""

import pytest

from toyhw.evolve.experiments.ablations import context
from toyhw.evolve.evaluator import Evaluator
from toyhw.evolve.llm import MockLLM, Proposal
from toyhw.evolve.loop import evolve
from toyhw.evolve.programs import expert_program, render
from exercise_cells import NOTEBOOKS, load_solution
from toyhw.gemm import expert, shapes
from toyhw.gemm.time_table import shared_table

MOCK = MockLLM()


def run(step, budget=12):
    ctx = context()
    return evolve(Evaluator(ctx.train, ctx.table), budget, seed=1, llm=step)


def my_step(parent, inspirations, feedback, rng):
    return MOCK(parent, inspirations, feedback, rng)


@pytest.mark.parametrize(
    "returned, kind",
    [
        (None, "NoneType"),
        (expert_program(), "Program"),
        ((expert_program(), "x", "retune"), "tuple"),
        ({"program": expert_program()}, "dict"),
        (render(expert_program()), "str"),
    ],
)
def test_a_step_that_returns_anything_but_a_proposal_gets_a_type_error_naming_it(returned, kind):
    def returns_it(parent, inspirations, feedback, rng):
        return returned

    with pytest.raises(TypeError) as err:
        run(returns_it)
    message = str(err.value)
    assert f"returns_it (given to evolve as llm), at step 1, returned {kind}" in message
    assert "it must return a Proposal(program, description, operator)" in message and len(message) < 600


def test_a_proposal_of_something_else_or_an_unknown_edit_kind_is_refused():
    with pytest.raises(TypeError, match="whose program is str"):
        run(lambda *a: Proposal("def choose(M, N, K): ...", "x", "retune"))
    with pytest.raises(TypeError, match="whose description is 3"):
        run(lambda *a: Proposal(expert_program(), 3, "retune"))
    with pytest.raises(ValueError, match="returned the edit kind 'mutate'; it must be one of retune, specialize"):
        run(lambda *a: Proposal(expert_program(), "x", "mutate"))
    assert run(lambda *a: Proposal(None, "gave up", None)).statuses["invalid"] == 12  # a failed proposal is allowed


def test_a_step_cannot_change_the_run_through_what_it_is_given():
    tried = []

    def meddles(parent, inspirations, feedback, rng):
        for attempt in (
            lambda: parent.times.__setitem__(0, 1e-9),
            lambda: feedback.mix.__setitem__("borrow", 99.0),
            lambda: setattr(parent, "score", 99.0),
        ):
            try:
                attempt()
                tried.append("changed")
            except (ValueError, TypeError, AttributeError):
                tried.append("refused")
        return MOCK(parent, inspirations, feedback, rng)

    assert run(meddles).history == run(my_step).history == run(None).history
    assert set(tried) == {"refused"}


def test_speedup_over_expert_names_a_bad_choose():
    solutions = load_solution(NOTEBOOKS / "03_gemm_cost_model.ipynb")  # notebook 03's score, from its solution file
    table = shared_table("H100")
    train = [shapes.Shape("a", 64, 4096, 4096)]
    with pytest.raises(TypeError, match="config = None for shape .* is not a config of the space"):
        solutions.speedup_over_expert(lambda M, N, K: None, train, table)
    unlaunchable = next(c for c in table.configs if table.time(c, train[0]) == float("inf"))
    with pytest.raises(ValueError, match=r"values\[0\] = 0.0 is not allowed; .* cannot launch"):
        solutions.speedup_over_expert(lambda M, N, K: unlaunchable, train, table)
    assert (
        solutions.speedup_over_expert(lambda M, N, K: expert.expert_config(shapes.Shape("x", M, N, K)), train, table)
        == 1.0
    )
