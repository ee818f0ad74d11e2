"""Lecture 10's computed helpers behind the notebooks' answers: every rule a kernel breaks, the risky-choice table,
the chance that one random knob repairs a kernel, failed rounds, and the tasks a search misses."""

import random

import pytest

from toyhw.kernels import failures, knobs, optimize, proposers, study
from toyhw.course import kernel_tables as tables
from toyhw.kernels.knobs import KernelConfig, Task

TASK = Task(memory_bound=0.6, best_tile=16, n=1003, fusable=False)


def test_broken_rules_lists_every_rule_and_starts_with_the_reported_cause():
    assert failures.broken_rules(TASK, KernelConfig(tile=64, shared=1, vec=4, fuse=1)) == (
        "shared_memory_overflow",
        "vector_width_indivisible",
        "illegal_fusion",
    )
    assert failures.broken_rules(TASK, KernelConfig(tile=32, vec=2)) == ("vector_width_indivisible",)
    assert failures.broken_rules(TASK, KernelConfig()) == ()
    for k in study.one_shot().kernels:
        rules = failures.broken_rules(k.task, k.config)
        assert (rules[0] if rules else None) == k.feedback.cause  # run_kernel reports the first one


def test_without_choice_removes_only_that_choice():
    config = KernelConfig(tile=64, fuse=1, vec=4, shared=1, unroll=2)
    assert failures.without_choice(config, "shared_memory_overflow") == config.replace(shared=0)
    assert failures.without_choice(config.replace(tile=32), "shared_memory_overflow") == config.replace(tile=32)
    assert failures.without_choice(config, "vector_width_indivisible") == config.replace(vec=1)
    assert failures.without_choice(config, "illegal_fusion") == config.replace(fuse=0)
    with pytest.raises(ValueError, match="not a failure cause"):
        failures.without_choice(config, "slow")


def test_risky_choice_table_counts_every_rule_not_only_the_first():
    frame = tables.risky_choice_frame(study.one_shot())
    assert list(frame["reported first"]) == [54, 37, 25]  # the outcome table's first causes
    assert list(frame["break its rule"]) == [54, 47, 48]  # fusion hides behind the other two
    assert list(frame["correct without it"]) == [32, 29, 25]  # never staging tile 64 in shared memory: 32, not 54
    assert frame["correct without it"].idxmax() == "tile 64 staged through shared memory"


def test_one_knob_repair_chance_is_exact():
    # vec 4 on n = 1003 breaks one rule; of the 5 knobs only vec repairs it, and only with vec = 1 (1 of 2 values).
    assert failures.one_knob_repair_chance(TASK, KernelConfig(vec=4)) == pytest.approx(1 / 5 * 1 / 2)
    # two broken rules: no single knob repairs both
    assert failures.one_knob_repair_chance(TASK, KernelConfig(vec=4, fuse=1)) == 0.0
    # a Monte-Carlo check of the same quantity through knobs.mutate itself
    rng = random.Random(0)
    config = KernelConfig(tile=64, shared=1, vec=2)
    task = Task(0.5, 32, 1002, True)
    hits = sum(knobs.run_kernel(task, knobs.mutate(config, rng)).ok for _ in range(20000)) / 20000
    assert hits == pytest.approx(failures.one_knob_repair_chance(task, config), abs=0.01)


def test_failed_round_share_counts_the_loops_failed_rounds():
    share = failures.failed_round_share("explain", 10)
    tasks = study.tasks()
    failed = sum(
        optimize.optimize(t, 10, "explain", optimize.optimization_rng(i, 10)).n_failed for i, t in enumerate(tasks)
    )
    assert share == failed / (10 * len(tasks))
    assert failures.failed_round_share("scalar", 10) > 2 * share  # an explained error is fixed, a random knob rarely
    with pytest.raises(KeyError):
        failures.failed_round_share("oracle", 10)


def test_misses_are_the_gap_between_a_mode_and_the_ceiling():
    table = study.feedback_table(rounds=(50,), ps=(1.5,))
    ceiling = sum(study.best_possible_speedups() > 1.5)
    for mode in ("explain", "suggest"):
        missed = failures.misses(mode, 50, 1.5)
        assert ceiling - len(missed) == round(table[mode][50][1.5] * 200)
        assert all(m.best_possible > 1.5 >= m.speedup for m in missed)
    assert failures.misses("explain", 50, 1.5) == ()


def test_the_drop_is_computed_from_the_cells_as_printed():
    table = study.feedback_table()
    frame = tables.feedback_frame(table)
    drop_note = tables.observations(table)[-1]
    for mode in table:
        hi, lo = (float(x) for x in frame.loc[mode, "50 rounds"].split(" / "))
        assert f"{hi - lo:.2f} ({mode})" in drop_note


def test_fix_failure_repairs_every_single_rule_failure_in_one_step():
    for k in study.one_shot().kernels:
        if len(failures.broken_rules(k.task, k.config)) == 1:
            fixed = proposers.fix_failure(k.feedback, k.config, random.Random(k.index))
            assert knobs.run_kernel(k.task, fixed).ok


def test_a_benchmark_is_the_first_tasks_of_a_larger_one():
    """The one-shot panel slices each seed's largest benchmark (toyhw.panels.fastp): task i and its kernel depend on
    the seed and i alone."""
    from toyhw.kernels import study

    larger = study.one_shot(7, 300)
    for n in (10, 120, 300):
        assert study.one_shot(7, n) == study.OneShotReport(7, larger.kernels[:n])
