"""The built-in proposers: explained failures get fixed from the machine-readable cause, not the message text."""
import dataclasses
import random

import pytest

from toyhw.kernels import knobs, proposers
from toyhw.kernels.knobs import KernelConfig, Task
from toyhw.kernels.proposers import PROPOSERS

TASK = Task(memory_bound=0.8, best_tile=32, n=1002, fusable=False)


@pytest.mark.parametrize("mode", ["explain", "suggest"])
@pytest.mark.parametrize(
    "broken",
    [KernelConfig(vec=4), KernelConfig(fuse=1), KernelConfig(tile=64, shared=1)],
    ids=["vector_width", "fusion", "shared_memory"],
)
def test_informed_proposers_fix_every_failure_cause(mode, broken):
    feedback = knobs.run_kernel(TASK, broken)
    assert not feedback.ok
    fixed = PROPOSERS.get(mode)(feedback, broken, random.Random(1))
    assert knobs.run_kernel(TASK, fixed).cause != feedback.cause


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


@pytest.mark.parametrize("mode", PROPOSERS.available())
def test_every_registered_proposer_returns_a_valid_config(mode):
    rng = random.Random(3)
    config = knobs.random_config(rng)
    for _ in range(20):
        config = PROPOSERS.get(mode)(knobs.run_kernel(TASK, config), config, rng)
        assert isinstance(config, KernelConfig)
