"""Notebook 05's views inside one run: the trace is the run itself, step by step, and the helpers read it honestly."""

import random

import numpy as np
import pytest

from toyhw.evolve.experiments import ablations
from toyhw.evolve import evaluator as evaluator_lib
from toyhw.course import loop_tables, prompt_view, proposal_trace
from toyhw.evolve.evaluator import Evaluator
from toyhw.evolve.llm import MockLLM
from toyhw.evolve.loop import evolve
from toyhw.plots import evolution as evolution_plots


@pytest.mark.parametrize("variant", ["full", "fb_worst3", "no_cascade", "no_evolution", "small_llm"])
def test_the_trace_is_the_run_of_run_one(variant):
    run, summary = proposal_trace.trace(variant, 1, 300), ablations.run_one(variant, 1, 300)
    assert run.result.history == summary.history and run.result.kernel_runs == summary.kernel_runs
    assert len(run.steps) == 300 and [s.step for s in run.steps] == list(range(1, 301))
    counts = {k: sum(s.status == k for s in run.steps) for k in run.result.statuses}
    assert counts == dict(run.result.statuses)


def test_each_step_records_its_target_parent_and_cascade_verdict():
    ctx = ablations.context()
    run = proposal_trace.trace("full", 0, 300)
    for s in run.steps:
        assert f"(for {ctx.train[s.target].label()})" in s.description  # the mock names the shape it worked on
        assert s.island == (s.step - 1) % 4
        if s.status == "bad branch":
            assert s.stage1 is None and s.runs == 0
        elif s.status == "cascade":
            assert s.stage1 < s.bar and s.runs == len(ctx.train[:: evaluator_lib.CASCADE_EVERY])
        elif s.status == "ok":
            assert s.stage1 >= s.bar and s.runs == len(ctx.train) and s.score is not None
    bars = [s.bar for s in run.steps if s.bar is not None]
    assert bars[0] == pytest.approx(evaluator_lib.CASCADE_RATIO) and bars == sorted(bars)  # the bar only rises
    assert all(s.stage1 is None for s in proposal_trace.trace("no_cascade", 0, 100).steps)


def _parent_and_feedback():
    ctx = ablations.context()
    ev = Evaluator(ctx.train, ctx.table)
    run = evolve(ev, 100, seed=0)
    parent = run.db.best()
    feedback = ev.feedback(parent.times)
    return ev, run, parent, feedback


def test_target_frame_gives_each_rule_a_distribution_and_the_mock_draws_from_it():
    ev, _, _, feedback = _parent_and_feedback()
    frame = loop_tables.target_frame(feedback, top=len(feedback.shapes))
    for column in ("weighted vs_best", "weighted vs_roofline", "uniform", "worst 3"):
        assert frame[column].sum() == pytest.approx(1.0, abs=0.025)  # 44 shares, each rounded to 3 decimals
    rng = random.Random(3)
    draws = [MockLLM().target(feedback, rng) for _ in range(20000)]
    top = feedback.shapes[int(np.argmin(feedback.vs_best))].label()
    share = sum(feedback.shapes[d].label() == top for d in draws) / len(draws)
    assert share == pytest.approx(frame.loc[top, "weighted vs_best"], abs=0.01)


def test_proposal_frame_shows_multi_field_edits_with_knowledge_and_single_field_edits_without():
    ev, run, parent, feedback = _parent_and_feedback()
    _, inspirations = run.db.sample(0, random.Random(0))
    full = loop_tables.proposal_frame(MockLLM(), parent, inspirations, feedback, ev, n=400)
    small = loop_tables.proposal_frame(MockLLM(knowledge=False), parent, inspirations, feedback, ev, n=400)
    assert set(small["fields changed"]) == {1} and not small["adopted"].any()
    assert full["fields changed"].mean() > 2 and full["adopted"].any()
    assert set(full["operator"]) <= {"retune", "specialize", "generalize", "borrow"}


def test_prompt_frame_and_the_new_plots():
    views = [prompt_view.prompt_at(v, 0, 20) for v in ("full", "no_feedback", "small_llm")]
    frame = loop_tables.prompt_frame(views)
    assert frame.loc["no_feedback", "feedback"] == 0 and frame.loc["small_llm", "knowledge"] == 0
    assert frame.loc["full", "characters"] == views[0].chars
    assert evolution_plots.prompt_parts(frame).get_title()
    assert evolution_plots.cascade_stage1(proposal_trace.trace("full", 0, 100).steps).get_title()
    with pytest.raises(ValueError, match="no proposal has a stage-1 score"):
        evolution_plots.cascade_stage1(proposal_trace.trace("no_cascade", 0, 50).steps)


def test_trace_frame_has_one_row_per_proposal_with_what_the_loop_did():
    run = proposal_trace.trace("full", 0, 300)
    frame = loop_tables.trace_frame(run)
    assert list(frame.index) == list(range(1, 301))
    assert frame["status"].value_counts().to_dict() == {k: v for k, v in run.result.statuses.items() if v}
    assert int(frame["kernel runs"].sum()) + 44 == run.result.kernel_runs  # plus the initial program's runs
    assert not frame.loc[frame["operator"] == "borrow", "could adopt"].any()
    assert (frame.loc[frame["adopted"], "could adopt"]).all()  # only a known faster config can be adopted
