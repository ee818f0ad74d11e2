"""The lecture-10 kernel model: every failure cause, its message and cause code, and config validation."""

import random

import pytest

from toyhw.kernels import knobs
from toyhw.kernels.knobs import KernelConfig, Task

TASK = Task(memory_bound=0.5, best_tile=16, n=1003, fusable=False)


def test_shared_memory_overflow_is_a_compile_error_with_its_cause():
    fb = knobs.run_kernel(TASK, KernelConfig(tile=64, shared=1))
    assert (fb.status, fb.cause, fb.time) == ("compile_error", "shared_memory_overflow", None)
    assert fb.message == "shared memory exceeded: a tile of 64 needs more shared memory per block than the SM has"


def test_vector_width_that_does_not_divide_n_gives_wrong_results_and_names_n():
    fb = knobs.run_kernel(TASK, KernelConfig(vec=2))
    assert (fb.status, fb.cause, fb.failing_n) == ("wrong", "vector_width_indivisible", 1003)
    assert fb.message == "wrong result on the input of size n = 1003 (1003 is not divisible by the vector width 2)"


def test_fusing_an_unfusable_task_gives_wrong_results():
    fb = knobs.run_kernel(TASK, KernelConfig(fuse=1))
    assert (fb.status, fb.cause) == ("wrong", "illegal_fusion")
    assert fb.message == "wrong result after fusion (an intermediate result must be stored separately)"


def test_a_legal_config_reports_time_and_bottleneck():
    fb = knobs.run_kernel(TASK, KernelConfig())
    assert fb.ok and fb.cause is None and fb.message is None
    # compute = 1 + 0.15 * |log2(32/16)| = 1.15; memory = 1; t = 0.5 * 1.15 + 0.5 * 1
    assert fb.time == pytest.approx(1.075)
    assert fb.bottleneck == "compute"


FAILURE_ORDER = ("shared_memory_overflow", "vector_width_indivisible", "illegal_fusion")
"""run_kernel's documented order: the build (shared memory) first, then the tests (vector width, then fusion)."""


@pytest.mark.parametrize(
    "config",
    [
        KernelConfig(tile=64, shared=1, vec=2),
        KernelConfig(tile=64, shared=1, fuse=1),
        KernelConfig(vec=4, fuse=1),
        KernelConfig(tile=64, shared=1, vec=4, fuse=1),
    ],
    ids=["smem+vec", "smem+fusion", "vec+fusion", "all three"],
)
def test_a_config_breaking_several_rules_reports_the_first_in_the_documented_order(config):
    broken = {
        "shared_memory_overflow": config.tile == 64 and config.shared == 1,
        "vector_width_indivisible": TASK.n % config.vec != 0,
        "illegal_fusion": config.fuse == 1,
    }
    assert sum(broken.values()) >= 2  # the premise: TASK (n = 1003, not fusable) breaks two rules or more
    first = next(cause for cause in FAILURE_ORDER if broken[cause])
    fb = knobs.run_kernel(TASK, config)
    assert fb.cause == first
    assert fb.status == ("compile_error" if first == "shared_memory_overflow" else "wrong")
    assert fb.time is None and fb.bottleneck is None


def test_the_bottleneck_is_the_larger_weighted_term_and_a_tie_is_compute():
    """At the best tile with no other knob, compute and memory both cost 1.0, weighted 1 - m and m."""
    default = KernelConfig()
    assert knobs.run_kernel(Task(0.9, 32, 1024, True), default).bottleneck == "memory"
    assert knobs.run_kernel(Task(0.1, 32, 1024, True), default).bottleneck == "compute"
    assert knobs.run_kernel(Task(0.5, 32, 1024, True), default).bottleneck == "compute"  # 0.5 vs 0.5: not memory


def test_baseline_is_ninety_percent_of_the_default_config():
    assert knobs.baseline_time(TASK) == pytest.approx(0.9 * 1.075)


@pytest.mark.parametrize("knob,value", [("tile", 128), ("vec", 3), ("fuse", 2), ("unroll", 0), ("shared", True)])
def test_knob_value_outside_its_set_is_refused_with_the_allowed_values(knob, value):
    with pytest.raises(ValueError, match=rf"knob '{knob}' = {value!r} is not allowed; allowed values"):
        KernelConfig(**{knob: value})


def test_mutate_changes_exactly_one_knob_and_refuses_unknown_knobs():
    rng = random.Random(0)
    for _ in range(50):
        new = knobs.mutate(KernelConfig(), rng)
        assert sum(a != b for a, b in zip(new.as_dict().values(), KernelConfig().as_dict().values())) == 1
    with pytest.raises(ValueError, match="^knob = 'tiles' is not a knob; knobs: tile, fuse, vec, shared, unroll$"):
        knobs.mutate(KernelConfig(), rng, "tiles")


def test_replace_changes_the_knobs_named_and_refuses_unknown_ones():
    assert KernelConfig().replace(tile=16, vec=2) == KernelConfig(tile=16, vec=2)
    with pytest.raises(ValueError, match="^knob = 'tiles' is not a knob; knobs: tile, fuse, vec, shared, unroll$"):
        KernelConfig().replace(tiles=8)


def test_of_returns_the_shared_instance_of_a_valid_config():
    for values in ((32, 0, 1, 0, 1), (64, 1, 4, 1, 4), (8, 0, 2, 1, 2)):
        assert KernelConfig.of(*values) is KernelConfig.of(*values) == KernelConfig(*values)
    assert KernelConfig().replace(tile=16) is KernelConfig.of(16, 0, 1, 0, 1)


@pytest.mark.parametrize("position", range(5))
@pytest.mark.parametrize("bad", [True, 3, 1.0])
def test_of_refuses_what_the_constructor_refuses_naming_the_knob(position, bad):
    """True == 1 and 1.0 == 1 as dict keys: the fast path must not turn them into a valid config."""
    values = [32, 0, 1, 0, 1]
    values[position] = bad
    knob = list(knobs.KNOBS)[position]
    with pytest.raises(ValueError, match=f"^knob '{knob}' = {values[position]!r} is not allowed"):
        KernelConfig.of(*values)


@pytest.mark.parametrize("n_tasks", [0, -2, 2.5, True, "3"])
def test_make_tasks_refuses_anything_but_a_positive_integer(n_tasks):
    with pytest.raises(ValueError, match=f"n_tasks = {n_tasks!r} is not allowed; it must be an integer >= 1"):
        knobs.make_tasks(230, n_tasks)


def test_make_tasks_draws_the_tasks_in_turn_from_one_stream():
    assert len(knobs.make_tasks(230, 1)) == 1
    assert knobs.make_tasks(230, 3) == knobs.make_tasks(230, 5)[:3]
