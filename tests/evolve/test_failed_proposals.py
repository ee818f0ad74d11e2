"""Failed proposals (a real model's reply that gives no program): rejected as "invalid", counted like a crash."""

from toyhw.evolve.experiments.ablations import context
from toyhw.evolve.config import EvolveConfig
from toyhw.evolve.evaluator import Evaluator
from toyhw.evolve.llm import MockLLM, failed_proposal
from toyhw.evolve.loop import evolve


def run(llm, budget=40, seed=0, **settings):
    c = context()
    evaluator = Evaluator(c.train, c.table)
    return evolve(evaluator, budget, seed=seed, llm=llm, config=EvolveConfig(**settings)), evaluator


def test_the_evaluator_rejects_a_missing_program_as_invalid_without_runs():
    c = context()
    evaluator = Evaluator(c.train, c.table)
    result = evaluator.evaluate(None)
    assert (result.score, result.times, result.status, result.runs) == (None, None, "invalid", 0)
    assert evaluator.kernel_runs == 0


def test_a_step_that_always_fails_spends_the_budget_and_adds_nothing():
    out, evaluator = run(lambda parent, inspirations, feedback, rng: failed_proposal("diff does not apply: ..."))
    assert out.statuses["invalid"] == 40 and sum(out.statuses.values()) == 40
    assert out.history == (1.0,) * 40 and out.n_added == 0
    assert out.kernel_runs == len(evaluator.shapes)  # only the initial program ran
    assert [s.description for s in out.lineage] == ["initial program"]


def test_failures_between_mock_proposals_are_counted_and_the_run_goes_on():
    mock = MockLLM()
    calls = []

    def flaky(parent, inspirations, feedback, rng):
        calls.append(1)
        if len(calls) % 3 == 0:
            return failed_proposal("the reply is empty")
        return mock(parent, inspirations, feedback, rng)

    out, _ = run(flaky, budget=90, adaptive_mix=True)
    assert out.statuses["invalid"] == 30 and sum(out.statuses.values()) == 90
    assert out.best[1] > 1.0 and len(out.history) == 90
    assert abs(sum(out.mix.values()) - 1.0) < 1e-12  # the meta prompt ignores failed proposals (no edit kind)


def test_a_mock_run_never_has_an_invalid_proposal():
    out, _ = run(MockLLM(), budget=200)
    assert out.statuses["invalid"] == 0
