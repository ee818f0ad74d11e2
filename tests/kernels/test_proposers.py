"""The built-in proposers: explained failures get fixed from the machine-readable cause, not the message text."""

import dataclasses
import random

import pytest

from toyhw.kernels import knobs, proposers
from toyhw.kernels.knobs import KernelConfig, Task
from toyhw.kernels.proposers import PROPOSERS

TASK = Task(memory_bound=0.8, best_tile=32, n=1002, fusable=False)


def _changed(before: KernelConfig, after: KernelConfig) -> set[str]:
    return {k for k, v in after.as_dict().items() if v != before.as_dict()[k]}


@pytest.mark.parametrize("mode", ["explain", "suggest"])
@pytest.mark.parametrize(
    "n, broken, fixed",
    [
        (1002, KernelConfig(vec=4), KernelConfig(vec=2)),  # the widest width that divides n
        (1003, KernelConfig(vec=4), KernelConfig(vec=1)),
        (1003, KernelConfig(vec=2, unroll=4), KernelConfig(vec=1, unroll=4)),  # the other knobs stay as they were
        (1024, KernelConfig(fuse=1, tile=16), KernelConfig(tile=16)),
    ],
    ids=["vec4-n1002", "vec4-n1003", "vec2-n1003", "fusion"],
)
def test_each_repair_is_the_documented_one_and_the_next_run_succeeds(mode, n, broken, fixed):
    task = dataclasses.replace(TASK, n=n)
    feedback = knobs.run_kernel(task, broken)
    assert not feedback.ok
    repaired = PROPOSERS.get(mode)(feedback, broken, random.Random(1))
    assert repaired == fixed
    assert knobs.run_kernel(task, repaired).ok


@pytest.mark.parametrize("mode", ["explain", "suggest"])
def test_the_shared_memory_repair_drops_shared_memory_or_keeps_it_with_tile_32_and_both_run(mode):
    broken = KernelConfig(tile=64, shared=1, unroll=2)
    feedback = knobs.run_kernel(TASK, broken)
    assert feedback.cause == "shared_memory_overflow"
    repairs = {PROPOSERS.get(mode)(feedback, broken, random.Random(seed)) for seed in range(40)}
    assert repairs == {KernelConfig(tile=64, shared=0, unroll=2), KernelConfig(tile=32, shared=1, unroll=2)}
    assert all(knobs.run_kernel(TASK, config).ok for config in repairs)


@pytest.mark.parametrize("mode", ["explain", "suggest"])
def test_a_config_with_three_faults_is_repaired_one_cause_at_a_time_in_the_failure_order(mode):
    """Each round reports one cause (the build's first, then the tests'); the proposer fixes exactly that one."""
    config, rng, causes = KernelConfig(tile=64, shared=1, vec=4, fuse=1), random.Random(0), []
    feedback = knobs.run_kernel(TASK, config)
    for _ in range(3):  # bounded: a repair that fixes nothing must fail the test, not loop forever
        causes.append(feedback.cause)
        repaired = PROPOSERS.get(mode)(feedback, config, rng)
        assert (
            _changed(config, repaired)
            <= {
                "shared_memory_overflow": {"shared", "tile"},
                "vector_width_indivisible": {"vec"},
                "illegal_fusion": {"fuse"},
            }[feedback.cause]
        )
        config, feedback = repaired, knobs.run_kernel(TASK, repaired)
    assert causes == ["shared_memory_overflow", "vector_width_indivisible", "illegal_fusion"] and feedback.ok


def test_vector_fix_picks_the_widest_width_that_divides_n():
    feedback = knobs.run_kernel(TASK, KernelConfig(vec=4))
    assert proposers.explain(feedback, KernelConfig(vec=4), random.Random(0)).vec == 2  # 1002 = 2 * 501


def test_the_fix_reads_the_cause_not_the_message():
    feedback = knobs.run_kernel(TASK, KernelConfig(vec=4))
    garbled = dataclasses.replace(feedback, message="(log lost)")
    assert proposers.explain(garbled, KernelConfig(vec=4), random.Random(0)).vec == 2


def test_suggest_touches_only_the_bottlenecks_knobs():
    config = KernelConfig()
    feedback = knobs.run_kernel(TASK, config)
    assert feedback.bottleneck == "memory"
    for seed in range(30):
        new = proposers.suggest(feedback, config, random.Random(seed))
        changed = {k for k, v in new.as_dict().items() if v != config.as_dict()[k]}
        assert changed <= set(proposers.MEMORY_KNOBS) and len(changed) == 1


def test_registry_lists_the_four_modes_in_teaching_order_and_names_unknown_ones():
    assert PROPOSERS.available() == ["resample", "scalar", "explain", "suggest"]
    with pytest.raises(KeyError, match="unknown feedback mode 'magic'; known: resample, scalar, explain, suggest"):
        PROPOSERS.get("magic")


def test_suggest_touches_only_compute_knobs_when_compute_bound():
    task = Task(memory_bound=0.1, best_tile=16, n=1024, fusable=True)
    config = KernelConfig()
    feedback = knobs.run_kernel(task, config)
    assert feedback.bottleneck == "compute"
    changes = [_changed(config, proposers.suggest(feedback, config, random.Random(seed))) for seed in range(30)]
    assert all(len(c) == 1 for c in changes) and set().union(*changes) == set(proposers.COMPUTE_KNOBS)


def test_each_built_in_proposer_is_its_documented_rule():
    """Given the same random stream: resample writes a fresh one-shot config whatever the feedback; scalar changes
    one random knob even after a failure; explain repairs a failure and otherwise changes one random knob."""
    ok_config, failing = KernelConfig(tile=16), KernelConfig(fuse=1)
    ok_feedback, failed = knobs.run_kernel(TASK, ok_config), knobs.run_kernel(TASK, failing)
    assert ok_feedback.ok and failed.cause == "illegal_fusion"
    for seed in range(20):

        def rng():
            return random.Random(seed)

        assert proposers.resample(failed, failing, rng()) == knobs.random_config(rng())
        assert proposers.resample(ok_feedback, ok_config, rng()) == knobs.random_config(rng())
        assert proposers.scalar(failed, failing, rng()) == knobs.mutate(failing, rng())
        assert proposers.explain(ok_feedback, ok_config, rng()) == knobs.mutate(ok_config, rng())
        assert proposers.explain(failed, failing, rng()) == KernelConfig()
    assert [PROPOSERS.get(m) for m in PROPOSERS.available()] == [
        proposers.resample,
        proposers.scalar,
        proposers.explain,
        proposers.suggest,
    ]
