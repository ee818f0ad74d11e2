"""The evaluator: scores relative to the expert, branch check, cascade, per-shape feedback, kernel-run counts."""

import math
import random

import numpy as np
import pytest

from toyhw.machine import libm
from toyhw.gemm import expert
from toyhw.evolve import evaluator as evaluator_module
from toyhw.evolve.experiments.ablations import context
from toyhw.evolve.config import EvolveConfig
from toyhw.evolve.evaluator import Evaluator, geomean_speedup, oracle_speedup
from toyhw.evolve.shape_times import ShapeTimes
from toyhw.evolve.loop import evolve
from toyhw.gemm.config import GemmConfig, config_space
from toyhw.evolve.programs import Program, Rule, choose, expert_program
from toyhw.gemm.shapes import Shape

BAD = GemmConfig(128, 256, 64, 8, 5, 1)  # cannot launch: shared memory


def ctx():
    return context()


def test_the_expert_scores_one_and_costs_one_run_per_training_shape():
    c = ctx()
    ev = Evaluator(c.train, c.table, cascade=False)
    result = ev.evaluate(expert_program())
    assert result.score == pytest.approx(1.0) and result.status == "ok"
    assert ev.kernel_runs == result.runs == len(c.train) == 44


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
    assert result.status == "bad branch" and result.score is None and result.runs == checked.kernel_runs == 0
    unchecked = Evaluator(c.train, c.table, check_all_branches=False)
    assert unchecked.evaluate(latent).score == pytest.approx(1.0)
    assert unchecked.has_bad_branch(latent)


def test_a_reached_bad_branch_crashes_and_the_cascade_stops_early():
    c = ctx()
    crashing = Program((Rule(BAD, m_max=8192),), expert_program().default)
    full = Evaluator(c.train, c.table, check_all_branches=False, cascade=False)
    cheap = Evaluator(c.train, c.table, check_all_branches=False, cascade=True)
    assert full.evaluate(crashing).status == "crash" and full.kernel_runs == 44
    assert cheap.evaluate(crashing).status == "crash" and cheap.kernel_runs == 11


def test_cascade_saves_kernel_runs_in_a_search():
    c = ctx()
    with_cascade = evolve(Evaluator(c.train, c.table, cascade=True), 300, seed=3)
    without = evolve(Evaluator(c.train, c.table, cascade=False), 300, seed=3)
    assert with_cascade.kernel_runs < 0.9 * without.kernel_runs
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
    with pytest.raises(ValueError, match="^train_shapes is empty; the evaluator needs at least one shape$"):
        Evaluator([], ctx().table)


def test_no_shapes_no_times():
    c = ctx()
    assert ShapeTimes((), c.table).times.shape == (0, len(c.table.configs))


def test_an_expert_that_cannot_launch_is_refused():
    c = ctx()
    with pytest.raises(ValueError, match="^the expert program cannot launch on every training shape$"):
        Evaluator(c.train, c.table, expert=Program((Rule(BAD, m_max=16),), expert_program().default))


def test_a_bad_default_is_a_bad_branch_even_when_every_rule_launches():
    c = ctx()
    ev = Evaluator(c.train, c.table)
    bad_default = Program(expert_program().rules, c.table.configs[c.table.config_index(BAD)])
    assert ev.has_bad_branch(bad_default) and ev.evaluate(bad_default).status == "bad branch"
    assert not ev.has_bad_branch(expert_program())


def test_the_vectorized_choice_is_the_rule_by_rule_choice_on_every_shape():
    """ShapeTimes evaluates each rule's condition over all shapes at once: it must pick what `choose` picks."""
    c = ctx()
    shapes = c.train + c.new
    data = ShapeTimes(shapes, c.table)
    rng = random.Random(0)
    launchable = [cfg for cfg, ok in zip(c.table.configs, c.table.launchable) if ok]
    values = sorted({v for s in shapes for v in (s.M, s.N, s.K)})
    for _ in range(300):
        rules = []
        for _ in range(rng.randrange(1, 6)):
            bounds = [rng.choice([None, None, rng.choice(values) + rng.choice((-1, 0, 1))]) for _ in range(6)]
            if all(b is None for b in bounds):
                bounds[rng.randrange(6)] = rng.choice(values)
            rules.append(Rule(rng.choice(launchable), *bounds))
        program = Program(tuple(rules), rng.choice(launchable))
        expected = [c.table.config_index(choose(program, s)) for s in shapes]
        assert data.config_indices(program).tolist() == expected
        assert data.program_times(program).tolist() == [c.table.time(choose(program, s), s) for s in shapes]


# ----- the cascade, on a hand-written time table (independent of the GEMM model's numbers)


class FakeTable:
    """What the evaluator reads from a TimeTable (configs, launchable, row, log_row, roofline), over hand-written
    times."""

    def __init__(self, shapes, times: dict) -> None:
        self.configs = tuple(times)
        self.launchable = np.array([np.all(np.isfinite(times[c])) for c in self.configs])
        self._rows = {s: np.array([times[c][i] for c in self.configs]) for i, s in enumerate(shapes)}

    def row(self, shape):
        return self._rows[shape]

    def log_row(self, shape):
        return libm.log(self._rows[shape])

    def roofline(self, shape):
        return 0.25


SHAPES8 = tuple(Shape("fake", m, 64, 64) for m in range(1, 9))  # stage 1 of the cascade: rows 0 and 4
EXPERT = GemmConfig(64, 64, 64, 4, 3, 1)
R = evaluator_module.CASCADE_RATIO


def cascade_case(stage1_scores: dict, **kwargs) -> tuple[Evaluator, dict]:
    """Return an evaluator over SHAPES8 (the expert takes 1.0 everywhere, BAD cannot launch) and one program per
    wanted stage-1 score: time 1/score on the stage-1 rows, 0.5 on the others."""
    configs = [c for c in config_space() if c not in (EXPERT, BAD)][: len(stage1_scores)]
    times = {EXPERT: [1.0] * 8, BAD: [math.inf] * 8}
    programs = {}
    for config, (name, score) in zip(configs, stage1_scores.items()):
        times[config] = [1.0 / score if i % 4 == 0 else 0.5 for i in range(8)]
        programs[name] = Program((), config)
    ev = Evaluator(SHAPES8, FakeTable(SHAPES8, times), expert=Program((), EXPERT), **kwargs)
    return ev, programs


def test_the_cascade_constants_are_the_documented_ones():
    """evaluator.py: stage 1 runs every 4th training shape and passes at >= 0.95 x the best stage-1 score so far."""
    assert (evaluator_module.CASCADE_EVERY, evaluator_module.CASCADE_RATIO) == (4, 0.95)


def test_a_program_just_below_the_cascade_threshold_is_cut_and_one_just_above_runs_in_full():
    ev, p = cascade_case({"below": R * (1 - 1e-9), "above": R * (1 + 1e-9)})
    below = ev.evaluate(p["below"])
    assert (below.status, below.score, below.runs, ev.kernel_runs) == ("cascade", None, 2, 2)
    above = ev.evaluate(p["above"])
    assert (above.status, above.runs, ev.kernel_runs) == ("ok", 8, 10)
    assert above.score == pytest.approx((R * (1 + 1e-9)) ** 0.25 * 2**0.75)  # geomean of 2 x R and 6 x 2.0


def test_the_cascade_threshold_follows_the_best_stage1_score_seen():
    ev, p = cascade_case(
        {
            "good": 1.25,
            "below": 1.25 * R * (1 - 1e-9),
            "above": 1.25 * R * (1 + 1e-9),
            "was_fine": R * (1 + 1e-9),
            "cut": 0.5,
        }
    )
    assert ev.evaluate(p["was_fine"]).status == "ok"  # above 0.95 x the initial bar of 1.0
    assert ev.evaluate(p["good"]).status == "ok"  # raises the bar to 0.95 x 1.25
    cut = ev.evaluate(p["cut"])
    assert (cut.status, cut.runs, ev.kernel_runs) == ("cascade", 2, 18)  # the runs of this evaluation only
    assert ev.evaluate(p["below"]).status == "cascade"
    assert ev.evaluate(p["above"]).status == "ok"  # passing below the best does not lower the bar ...
    assert ev.evaluate(p["below"]).status == "cascade"
    assert ev.evaluate(p["was_fine"]).status == "cascade"  # ... and what passed before is now cut


def test_a_stage1_score_exactly_at_the_threshold_passes():
    """ "at least this share": with the ratio set to 1, a program as good as the best in stage 1 is not cut."""
    ev, p = cascade_case({"first": 1.25})
    assert ev.evaluate(p["first"]).status == "ok"
    twin = Program((Rule(EXPERT, m_min=2, m_max=2),), p["first"].default)  # same stage-1 times, another program
    ev.configure_cascade(EvolveConfig(cascade_ratio=1.0))
    assert ev.evaluate(twin).status == "ok"


def test_only_shapes_that_ran_count_as_seen_and_a_crash_costs_what_ran():
    ev, p = cascade_case({"below": R * (1 - 1e-9), "above": R * (1 + 1e-9)}, check_all_branches=False)
    ev.evaluate(p["below"])  # its stage-2 times (0.5) never ran
    assert [r.vs_best for r in ev.per_shape(Program((), EXPERT))] == [1.0] * 8
    ev.evaluate(p["above"])
    assert [r.vs_best for r in ev.per_shape(Program((), EXPERT))] == [1.0 if i % 4 == 0 else 0.5 for i in range(8)]
    crash_late = ev.evaluate(Program((Rule(BAD, m_min=2, m_max=2),), p["above"].default))  # row 1: stage 2
    crash_early = ev.evaluate(Program((Rule(BAD, m_min=5, m_max=5),), p["above"].default))  # row 4: stage 1
    assert (crash_late.status, crash_late.runs, crash_early.status, crash_early.runs) == ("crash", 8, "crash", 2)


def test_geomean_and_oracle_speedups_are_relative_to_the_expert_given():
    ev, p = cascade_case({"a": 2.0})
    table, program = ev.table, p["a"]  # "a": time 0.5 on every shape
    assert geomean_speedup(program, SHAPES8, table, expert=Program((), EXPERT)) == pytest.approx(2.0)
    assert geomean_speedup(program, SHAPES8, table, expert=program) == pytest.approx(1.0)
    assert oracle_speedup(SHAPES8, table, expert=Program((), EXPERT)) == pytest.approx(2.0)
    assert oracle_speedup(SHAPES8, table, expert=program) == pytest.approx(1.0)
    crashing = Program((Rule(BAD, m_min=3, m_max=3),), program.default)
    assert geomean_speedup(crashing, SHAPES8, table, expert=program) == 0.0


def test_per_shape_rows_name_the_programs_config_and_the_fastest_config_seen():
    """The program's own config when it is at least as fast as anything measured (also before it is evaluated),
    else the config that ran fastest."""
    ev, p = cascade_case({"a": 2.0, "b": 4.0})  # both 0.5 on the stage-2 shapes; a: 0.5, b: 0.25 in stage 1
    a, b = p["a"].default, p["b"].default
    ev.evaluate(p["a"])
    rows = ev.per_shape(p["b"])  # b never ran: still its own config where it is as fast or faster
    assert [r.config for r in rows] == [b] * 8 and [r.best_config for r in rows] == [b] * 8
    assert [r.vs_best for r in rows] == [1.0] * 8
    rows = ev.per_shape(Program((), EXPERT))
    assert [r.config for r in rows] == [EXPERT] * 8 and [r.best_config for r in rows] == [a] * 8
    assert [r.vs_best for r in rows] == [0.5] * 8
    ev.evaluate(p["b"])  # as fast as a on the stage-2 shapes: the config seen first stays the best seen there
    rows = ev.per_shape(Program((), EXPERT))
    assert [r.best_config for r in rows] == [b if i % 4 == 0 else a for i in range(8)]
