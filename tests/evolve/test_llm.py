"""The mock LLM: target choice by feedback, multi-field vs single-field edits, unlaunchable rate, descriptions."""

import random
import re

import numpy as np
import pytest

from toyhw.evolve.experiments.ablations import context
from toyhw.evolve.database import Entry
from toyhw.evolve.evaluator import Evaluator
from toyhw.gemm.config import FIELDS, GemmConfig
from toyhw.evolve import knowledge, llm as llm_module
from toyhw.evolve.llm import FIXED_MIX, OPERATORS, Feedback, MockLLM
from toyhw.evolve.programs import Program, Rule, choose, expert_program, firing_rule
from toyhw.gemm.shapes import Shape


def setup():
    c = context()
    ev = Evaluator(c.train, c.table)
    root = ev.evaluate(expert_program())
    parent = Entry(0, expert_program(), root.score, root.times, None, "initial program", 0)
    feedback = ev.feedback(parent.times)
    return c, ev, parent, feedback


def proposals(llm, n=300, seed=0):
    c, ev, parent, feedback = setup()
    rng = random.Random(seed)
    return c, parent, [llm(parent, (), feedback, rng) for _ in range(n)]


def test_each_proposal_describes_its_change_in_one_line_naming_its_target():
    c, parent, props = proposals(MockLLM(), 100)
    labels = {s.label() for s in c.train}
    for p in props:
        assert "\n" not in p.description and p.operator in OPERATORS
        assert re.fullmatch(r".+ \(for (.+ M=\d+)\)", p.description).group(1) in labels
        assert p.program != parent.program or p.operator == "retune"  # only a retune may write the same config
    assert {p.operator for p in props} == {"retune", "specialize", "generalize"}  # no inspirations: no borrowing


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
            assert any(
                sum(getattr(choose(parent.program, s), f) != getattr(choose(p.program, s), f) for f in FIELDS) == 1
                for s in changed
            )


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
    assert {MockLLM(focus="worst3").target(feedback, rng) for _ in range(200)} == worst


class FixedRandom:
    """A stand-in for random.Random: random() returns `u`, randrange(n) returns `index` (checked against n)."""

    def __init__(self, u: float = 0.0, index: int = 0) -> None:
        self.u, self.index = u, index

    def random(self) -> float:
        return self.u

    def randrange(self, n: int) -> int:
        assert 0 <= self.index < n
        return self.index


def _fake_feedback(vs_best, vs_roofline):
    _, _, _, feedback = setup()
    n = len(vs_best)
    return Feedback(
        feedback.shapes[:n],
        np.asarray(vs_roofline, dtype=float),
        np.asarray(vs_best, dtype=float),
        feedback.best_configs[:n],
    )


def test_worst3_breaks_ties_by_shape_order():
    """Many shapes share the lowest ratio: the worst three are the first three of them (a stable sort), on every
    platform and numpy version."""
    _, _, _, feedback = setup()
    ratio = np.ones(len(feedback.shapes))
    ratio[[5, 8, 9, 15, 18, 19, 23, 29, 31, 35, 37]] = 0.3
    ratio[[1, 2, 4, 10]] = 0.5
    fb = Feedback(feedback.shapes, ratio, ratio, feedback.best_configs)
    rng = random.Random(0)
    assert {MockLLM(focus="worst3").target(fb, rng) for _ in range(200)} == {5, 8, 9}


@pytest.mark.parametrize("key", ["best", "roofline"])
def test_weighted_targets_follow_one_over_ratio_minus_one_plus_005(key):
    """Shape i is drawn when u x total weight falls in its slice of the cumulative weights 1/ratio - 1 + 0.05: a
    uniform draw u just below a slice's upper edge picks it, just above picks the next shape."""
    ratio = np.array([1.0, 0.5, 0.25, 0.8, 1.0, 0.4])
    other = np.ones_like(ratio)  # the other key: uniform weights, so a target that follows it is told apart
    fb = _fake_feedback(ratio, other) if key == "best" else _fake_feedback(other, ratio)
    weights = [1 / r - 1 + 0.05 for r in ratio]  # 0.05, 1.05, 3.05, 0.3, 0.05, 1.55
    edges = np.cumsum(weights) / sum(weights)
    llm = MockLLM(feedback=key)
    assert llm.target(fb, FixedRandom(0.0)) == 0
    for i, edge in enumerate(edges[:-1]):
        assert llm.target(fb, FixedRandom(edge - 1e-9)) == i
        assert llm.target(fb, FixedRandom(edge + 1e-9)) == i + 1
    assert llm.target(fb, FixedRandom(1 - 1e-12)) == len(ratio) - 1


def test_weighted_target_frequencies_over_a_run_of_draws():
    _, _, _, feedback = setup()
    ratio = np.linspace(0.3, 1.0, len(feedback.shapes))
    fb = Feedback(feedback.shapes, ratio, ratio, feedback.best_configs)
    rng = random.Random(1)
    counts = np.bincount([MockLLM().target(fb, rng) for _ in range(20_000)], minlength=len(ratio))
    weights = 1 / ratio - 1 + 0.05
    assert np.allclose(counts / counts.sum(), weights / weights.sum(), atol=0.01)


def test_without_feedback_the_target_is_uniform_whatever_the_ratios():
    fb = _fake_feedback([1.0, 0.1, 0.2], [0.1, 1.0, 0.5])
    assert [MockLLM(feedback=None).target(fb, FixedRandom(u=0.999, index=i)) for i in range(3)] == [0, 1, 2]


@pytest.mark.parametrize(
    "M, firing, expected",
    [
        # M = 100 lies between the round thresholds 96 and 128: a split at 96 or at 128, or the target's M with the gap
        # up to 128 or down to 96, a quarter of the time each
        (
            100,
            None,
            {
                ((97, None), (None, 96)): 0.25,
                ((None, 128), (129, None)): 0.25,
                ((None, 100), (101, 128)): 0.25,
                ((100, None), (96, 99)): 0.25,
            },
        ),
        (
            2,
            None,
            {
                ((2, None), (None, 1)): 0.25,
                ((None, 4), (5, None)): 0.25,
                ((None, 2), (3, 4)): 0.25,
                ((2, None), (1, 1)): 0.25,
            },
        ),
        # M = 1: nothing below to split at or to reach, so the split is at 2 and the gap is 2 to 2 on either side
        (1, None, {((None, 2), (3, None)): 0.5, ((None, 1), (2, 2)): 0.25, ((1, None), (2, 2)): 0.25}),
        # inside the M range of the rule that decides the target now, 64..200: both rules are clipped to it
        (
            100,
            (64, 200),
            {
                ((97, 200), (64, 96)): 0.25,
                ((64, 128), (129, 200)): 0.25,
                ((64, 100), (101, 128)): 0.25,
                ((100, 200), (96, 99)): 0.25,
            },
        ),
        # a rule from 97 up: the split at 96 leaves nothing on the other side, so only the target's rule is added
        (
            100,
            (97, None),
            {
                ((97, None), None): 0.25,
                ((97, 128), (129, None)): 0.25,
                ((97, 100), (101, 128)): 0.25,
                ((100, None), (97, 99)): 0.25,
            },
        ),
    ],
)
def test_generalizing_splits_at_a_round_threshold_or_adds_the_next_gap(monkeypatch, M, firing, expected):
    """The target's side gets the config written for it; the other side a guess written for an M of its range (its
    upper end, or twice its lower end when it is open above), never tested on a shape."""
    guessed_for, written = [], knowledge.suggest

    def suggest(m, n, k, rng):
        guessed_for.append(m)
        return written(m, n, k, rng)

    monkeypatch.setattr(knowledge, "suggest", suggest)
    shape, config, llm = Shape("x", M, 4096, 4096), GemmConfig(64, 128, 64, 4, 4, 1), MockLLM()
    parent = Program((Rule(SEEN, m_min=firing[0], m_max=firing[1]),) if firing else (), SEEN)
    seen, rng = [], random.Random(0)
    for _ in range(2000):
        guessed_for.clear()
        proposal = llm._generalize(parent, 0, shape, config, "why", rng)
        new = proposal.program.rules[: len(proposal.program.rules) - len(parent.rules)]
        assert proposal.operator == "generalize" and proposal.program.rules[len(new) :] == parent.rules
        assert new[0].config == config and new[0].matches(M, 4096, 4096)
        if len(new) == 2:
            lo, hi = new[1].m_min, new[1].m_max
            assert not new[1].matches(M, 4096, 4096) and guessed_for == [hi if hi is not None else 2 * lo]
        else:
            assert guessed_for == []
        seen.append(tuple((r.m_min, r.m_max) for r in new) + ((None,) if len(new) == 1 else ()))
    shares = {kind: seen.count(kind) / len(seen) for kind in set(seen)}
    assert shares == pytest.approx(expected, abs=0.04)


def _shares(draws: list) -> dict:
    return {kind: draws.count(kind) / len(draws) for kind in set(draws)}


def test_a_new_rules_m_range_is_the_targets_m_or_reaches_a_round_threshold():
    """Exactly M; M and below (up to M or to the next threshold); M and above (from M or from just past the last
    threshold); or the span between the two thresholds around M."""
    rng = random.Random(0)
    draws = [MockLLM()._m_range(100, rng) for _ in range(8000)]
    assert _shares(draws) == pytest.approx(
        {
            (100, 100): 0.25,
            (None, 100): 0.125,
            (None, 128): 0.125,
            (100, None): 0.125,
            (97, None): 0.125,
            (97, 128): 0.25,
        },
        abs=0.02,
    )


@pytest.mark.parametrize(
    "llm, extra_share",
    [
        (MockLLM(), 0.5),
        (MockLLM(p_condition=0.2), 0.2),
        (MockLLM(p_condition=1.0), 1.0),
        (MockLLM(knowledge=False), 0.0),
        (MockLLM(knowledge=False, p_condition=1.0), 0.0),
    ],
)
def test_a_new_rule_also_tests_n_or_k_at_the_rate_p_condition_and_only_with_knowledge(llm, extra_share):
    shape, rng = Shape("x", 100, 1280, 8192), random.Random(0)
    draws = [tuple(sorted(llm._conditions(shape, rng, 97, 128).items(), key=str)) for _ in range(8000)]
    plain = (("m_max", 128), ("m_min", 97))
    expected = {plain: 1 - extra_share} if extra_share < 1 else {}
    for key, value in (("n_max", 1280), ("n_min", 1280), ("k_min", 8192), ("k_max", 8192)):
        if extra_share:
            expected[tuple(sorted(dict(plain, **{key: value}).items(), key=str))] = extra_share / 4
    assert _shares(draws) == pytest.approx(expected, abs=0.02)


@pytest.mark.parametrize(
    "llm, can_borrow, mix, expected",
    [
        (MockLLM(), True, None, dict(FIXED_MIX)),
        (MockLLM(), False, None, {"retune": 0.3 / 0.85, "specialize": 0.35 / 0.85, "generalize": 0.2 / 0.85}),
        (
            MockLLM(),
            True,
            {"retune": 0.1, "specialize": 0.1, "generalize": 0.1, "borrow": 0.7},
            {"retune": 0.1, "specialize": 0.1, "generalize": 0.1, "borrow": 0.7},
        ),  # the meta prompt's mix
        (MockLLM(knowledge=False), True, None, {"retune": 0.3 / 0.65, "specialize": 0.35 / 0.65}),
        (MockLLM(new_rules=False), True, None, {"retune": 1.0}),
    ],
)
def test_edit_kinds_are_drawn_from_the_prompts_mix_among_those_the_llm_can_make(llm, can_borrow, mix, expected):
    _, _, _, feedback = setup()
    fb = Feedback(feedback.shapes, feedback.vs_roofline, feedback.vs_best, feedback.best_configs, mix)
    rng = random.Random(0)
    draws = [llm._operator(fb, rng, can_borrow) for _ in range(8000)]
    assert _shares(draws) == pytest.approx(expected, abs=0.02)


@pytest.mark.parametrize(
    "current, moves",
    [
        (
            GemmConfig(64, 64, 64, 4, 3, 1),
            {
                ("block_m", 32): 1,
                ("block_m", 128): 1,
                ("block_n", 32): 1,
                ("block_n", 128): 1,
                ("block_k", 32): 1,
                ("block_k", 128): 1,
                ("num_warps", 2): 1,
                ("num_warps", 8): 1,
                ("num_stages", 2): 1,
                ("num_stages", 4): 1,
                ("split_k", 2): 2,
            },
        ),
        (
            GemmConfig(256, 64, 256, 8, 5, 8),
            {
                ("block_m", 128): 2,
                ("block_n", 32): 1,
                ("block_n", 128): 1,
                ("block_k", 128): 2,
                ("num_warps", 4): 2,
                ("num_stages", 4): 2,
                ("split_k", 4): 2,
            },
        ),
    ],
)
def test_a_small_llm_moves_one_field_one_step_and_back_from_an_end_of_its_range(current, moves):
    """Each field a sixth of the time, up or down by one allowed value; at either end of a field's values, inwards."""
    llm, shape, rng, seen = MockLLM(knowledge=False), Shape("x", 64, 4096, 4096), random.Random(0), []
    for _ in range(6000):
        config, why = llm._directed(shape, current, SEEN, rng)
        (field,) = [f for f in FIELDS if getattr(config, f) != getattr(current, f)]
        assert why == f"{field} {getattr(current, field)} -> {getattr(config, field)}"
        seen.append((field, getattr(config, field)))
    assert _shares(seen) == pytest.approx({move: weight / 12 for move, weight in moves.items()}, abs=0.02)


BORROW_FIRST = {"retune": 1.0, "specialize": 0.0, "generalize": 0.0, "borrow": 1e9}  # borrow whenever it can


def _borrowing(llm, inspirations, n=200):
    """Return (parent, feedback, proposals) with a mix that borrows whenever a donor exists."""
    _, _, parent, feedback = setup()
    fb = Feedback(feedback.shapes, feedback.vs_roofline, feedback.vs_best, feedback.best_configs, BORROW_FIRST)
    rng = random.Random(0)
    return parent, fb, [llm(parent, inspirations, fb, rng) for _ in range(n)]


def test_borrowing_copies_the_rule_a_faster_inspiration_uses_for_the_target():
    _, _, parent, _ = setup()
    donor_program = Program((Rule(SEEN, m_max=16),), GemmConfig(128, 128, 64, 8, 3, 1))
    donor = Entry(7, donor_program, 2.0, parent.times * 0.5, 0, "donor", 7)  # faster on every shape
    parent, fb, proposals = _borrowing(MockLLM(), (donor,))
    for proposal in proposals:
        assert proposal.operator == "borrow"
        target = next(s for s in fb.shapes if proposal.description.endswith(f"(for {s.label()})"))
        f = firing_rule(parent.program, target.M, target.N, target.K)
        rule = donor_program.rules[0] if target.M <= 16 else Rule(donor_program.default, m_min=target.M, m_max=target.M)
        assert proposal.program.rules == parent.program.rules[:f] + (rule,) + parent.program.rules[f:]
        assert proposal.description.startswith(f"borrow `if {rule.condition()}` from an inspiration")


@pytest.mark.parametrize(
    "llm, donor_speed",
    [(MockLLM(), 1.0), (MockLLM(), None), (MockLLM(use_inspirations=False), 0.5), (MockLLM(new_rules=False), 0.5)],
)
def test_no_borrowing_from_an_inspiration_no_faster_or_when_borrowing_is_off(llm, donor_speed):
    _, _, parent, _ = setup()
    times = None if donor_speed is None else parent.times * donor_speed
    donor = Entry(7, Program((), GemmConfig(128, 128, 64, 8, 3, 1)), 2.0, times, 0, "donor", 7)
    _, _, proposals = _borrowing(llm, (donor,), n=100)
    assert {p.operator for p in proposals} == {"retune"}


@pytest.mark.parametrize("op", ["specialize", "generalize"])
def test_a_new_rule_that_would_repeat_the_current_config_is_a_retune_unless_it_generalizes(monkeypatch, op):
    _, _, parent, feedback = setup()
    monkeypatch.setattr(MockLLM, "_directed", lambda self, shape, current, best, rng: (current, "the same config"))
    fb = Feedback(feedback.shapes, feedback.vs_roofline, feedback.vs_best, feedback.best_configs, {op: 1.0})
    rng = random.Random(0)
    for _ in range(50):
        proposal = MockLLM()(parent, (), fb, rng)
        if op == "specialize":
            assert proposal.operator == "retune" and proposal.program == parent.program
        else:
            assert proposal.operator == "generalize" and len(proposal.program.rules) > len(parent.program.rules)


def test_a_generalizing_edit_says_why_in_its_description(monkeypatch):
    _, _, parent, feedback = setup()
    monkeypatch.setattr(MockLLM, "_directed", lambda self, shape, current, best, rng: (SEEN, "a reason"))
    fb = Feedback(feedback.shapes, feedback.vs_roofline, feedback.vs_best, feedback.best_configs, {"generalize": 1.0})
    rng = random.Random(0)
    for _ in range(20):
        proposal = MockLLM()(parent, (), fb, rng)
        assert proposal.operator == "generalize" and "a reason" in proposal.description


def test_round_thresholds_below_and_above():
    assert [llm_module._round_below(m) for m in (1, 2, 3, 96, 100, 16384, 20000)] == [0, 1, 2, 64, 96, 12288, 16384]
    assert [llm_module._round_above(m) for m in (1, 2, 95, 96, 100, 12288, 16384, 20000)] == [
        2,
        4,
        96,
        128,
        128,
        16384,
        32768,
        40000,
    ]


ADOPT = "use the fastest config seen there"
SEEN = GemmConfig(32, 64, 64, 4, 3, 2)  # a "best config seen" on every shape that the expert never uses


def adoptions(llm, n=4000, best_configs=None, seed=0):
    """Return the share of `n` retunes that adopt the best config seen (checked to write exactly that config)."""
    _, _, parent, feedback = setup()
    configs = best_configs or [SEEN] * len(feedback.shapes)
    fb = Feedback(feedback.shapes, feedback.vs_roofline, feedback.vs_best, configs)
    rng, adopted = random.Random(seed), 0
    for _ in range(n):
        proposal = llm(parent, (), fb, rng)
        if ADOPT in proposal.description:
            target = next(s for s in fb.shapes if f"(for {s.label()})" in proposal.description)
            assert choose(proposal.program, target) == configs[fb.shapes.index(target)]
            adopted += 1
    return adopted / n


@pytest.mark.parametrize("p_adopt", [0.0, 0.3, 1.0])
def test_the_best_seen_config_is_adopted_at_the_rate_p_adopt(p_adopt):
    assert adoptions(MockLLM(new_rules=False, p_adopt=p_adopt)) == pytest.approx(p_adopt, abs=0.03)


def test_by_default_the_best_seen_config_is_adopted_half_the_time():
    """The documented default (llm.py and notebook 04: "half the time the best config seen for that shape")."""
    assert MockLLM().p_adopt == 0.5
    assert adoptions(MockLLM(new_rules=False), n=8000) == pytest.approx(0.5, abs=0.02)


@pytest.mark.parametrize(
    "llm",
    [
        MockLLM(feedback="roofline", p_adopt=1.0),
        MockLLM(feedback=None, p_adopt=1.0),
        MockLLM(knowledge=False, p_adopt=1.0),
    ],
    ids=["roofline", "no feedback", "small"],
)
def test_no_adoption_without_best_seen_feedback_or_without_knowledge(llm):
    assert adoptions(llm, n=500) == 0.0


def test_no_adoption_when_the_best_seen_config_is_the_one_already_there():
    c, _, parent, _ = setup()
    own = [choose(parent.program, s) for s in c.train]
    assert adoptions(MockLLM(new_rules=False, p_adopt=1.0), n=300, best_configs=own) == 0.0


@pytest.mark.parametrize(
    "kwargs,message", [({"feedback": "fastest"}, "feedback = 'fastest'"), ({"focus": "worst5"}, "focus = 'worst5'")]
)
def test_bad_settings_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        MockLLM(**kwargs)


def test_the_targets_draw_is_the_draw_rng_choices_makes():
    from toyhw.evolve.llm import weighted_index

    for seed in range(200):
        weights = np.random.default_rng(seed).random(44) + 0.05
        assert weighted_index(weights, random.Random(seed)) == random.Random(seed).choices(range(44), weights)[0]
