"""The mock LLM: target choice by feedback, multi-field vs single-field edits, unlaunchable rate, descriptions."""
import random

import numpy as np
import pytest

from toyhw.evolve.ablations import context
from toyhw.evolve.database import Entry
from toyhw.evolve.evaluator import Evaluator
from toyhw.gemm.config import FIELDS
from toyhw.evolve.llm import Feedback, MockLLM
from toyhw.evolve.programs import choose, expert_program


def setup():
    c = context()
    ev = Evaluator(c.train, c.table)
    root = ev.evaluate(expert_program())
    parent = Entry(0, expert_program(), root.score, root.times, None, "initial program", 0)
    feedback = Feedback(ev.shapes, ev.roofline / parent.times, ev.best_time / parent.times,
                        [c.table.configs[i] for i in ev.best_index])
    return c, ev, parent, feedback


def proposals(llm, n=300, seed=0):
    c, ev, parent, feedback = setup()
    rng = random.Random(seed)
    return c, parent, [llm(parent, (), feedback, rng) for _ in range(n)]


def test_each_proposal_describes_its_change_in_one_line():
    _, parent, props = proposals(MockLLM(), 100)
    for p in props:
        assert p.description and "\n" not in p.description and p.program != parent.program or p.operator == "retune"


def test_same_rng_seed_same_proposals():
    _, _, a = proposals(MockLLM(), 50, seed=7)
    _, _, b = proposals(MockLLM(), 50, seed=7)
    assert [p.program for p in a] == [p.program for p in b]


def test_small_llm_changes_one_field_of_one_config():
    c, parent, props = proposals(MockLLM(knowledge=False), 200)
    for p in props:
        changed = [s for s in c.train if choose(p.program, s) != choose(parent.program, s)]
        configs = {choose(p.program, s) for s in changed}
        assert len(configs) <= 1  # one new config (a new rule may cover shapes that had other configs)
        if changed:
            assert any(sum(getattr(choose(parent.program, s), f) != getattr(choose(p.program, s), f) for f in FIELDS)
                       == 1 for s in changed)


def test_knowledge_edits_change_several_fields_and_sometimes_cannot_launch():
    c, parent, props = proposals(MockLLM(), 400)
    multi = unlaunchable = 0
    for p in props:
        for s in c.train:
            before, after = choose(parent.program, s), choose(p.program, s)
            if before != after:
                multi += sum(getattr(before, f) != getattr(after, f) for f in FIELDS) >= 2
        unlaunchable += any(not c.table.launchable[c.table.config_index(x)] for x in p.program.branches())
    assert multi > 100
    assert 0.05 < unlaunchable / len(props) < 0.5


def test_no_new_rules_only_retunes_existing_configs():
    _, parent, props = proposals(MockLLM(new_rules=False), 100)
    assert all(len(p.program.rules) == len(parent.program.rules) for p in props)
    assert all(p.operator == "retune" for p in props)


def test_worst3_targets_only_the_three_lowest_ratios():
    _, _, _, feedback = setup()
    rng = random.Random(0)
    worst = set(np.argsort(feedback.vs_best, kind="stable")[:3].tolist())
    assert {MockLLM(focus="worst3").target(feedback, rng) for _ in range(200)} <= worst


def test_weighted_targets_follow_one_over_ratio_minus_one_plus_005():
    _, _, _, feedback = setup()
    ratio = np.linspace(0.3, 1.0, len(feedback.shapes))
    fb = Feedback(feedback.shapes, ratio, ratio, feedback.best_configs)
    rng = random.Random(1)
    counts = np.bincount([MockLLM().target(fb, rng) for _ in range(20_000)], minlength=len(ratio))
    weights = 1 / ratio - 1 + 0.05
    assert np.allclose(counts / counts.sum(), weights / weights.sum(), atol=0.01)


@pytest.mark.parametrize("kwargs,message", [({"feedback": "fastest"}, "feedback = 'fastest'"),
                                            ({"focus": "worst5"}, "focus = 'worst5'")])
def test_bad_settings_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        MockLLM(**kwargs)
