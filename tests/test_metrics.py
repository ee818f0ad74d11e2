"""fast_p follows KernelBench: strict >, and every task counts in the denominator."""

import pytest

from toyhw.metrics import SortedSpeedups, fast_p, fast_p_curve


def test_strict_greater_than():
    assert fast_p([1.0, 1.5, 2.0], 1.0) == pytest.approx(2 / 3)
    assert fast_p([1.0, 1.5, 2.0], 1.5) == pytest.approx(1 / 3)


def test_failed_tasks_count_in_the_denominator():
    assert fast_p([0.0, 0.0, 3.0, 0.0], 1.0) == 0.25


def test_fast_0_is_the_correctness_rate():
    assert fast_p([0.0, 0.2, 0.9, 2.0], 0.0) == 0.75


def test_an_incorrect_kernel_never_counts_however_fast():
    assert fast_p([5.0, 5.0], 1.0, correct=[False, True]) == 0.5


@pytest.mark.parametrize("bad", [[], [[1.0]]])
def test_empty_or_nested_input_is_refused(bad):
    with pytest.raises(ValueError, match="one entry per task"):
        fast_p(bad, 1.0)


def test_negative_p_is_refused():
    with pytest.raises(ValueError, match="p = -1 is not allowed"):
        fast_p([1.0], -1)


def test_correct_must_give_one_entry_per_task():
    with pytest.raises(ValueError, match="correct has 1 entries but speedups has 2; give one per task"):
        fast_p([1.0, 2.0], 1.0, correct=[True])


def test_fast_p_curve_is_fast_p_at_every_threshold():
    speedups = [0.0, 0.7, 1.0, 1.2, 2.5]
    assert list(fast_p_curve(speedups, [0.0, 1.0, 2.0, 3.0])) == [0.8, 0.4, 0.2, 0.0]


@pytest.mark.parametrize(
    "bad, index",
    [
        ([1.0, float("nan"), 2.0], 1),
        ([1.0, -0.5], 1),
        ([None, 1.0], 0),
        ([1.0, 2.0, float("inf")], 2),
        ([1.0, "2.0"], 1),
        ([True, 1.0], 0),
    ],
)
def test_a_value_that_is_no_speedup_is_refused_not_counted_as_a_failure(bad, index):
    with pytest.raises(
        ValueError, match=rf"speedups\[{index}\] = .* is not allowed; .* a finite number >= 0 \(0.0 for a"
    ):
        fast_p(bad, 1.0)


@pytest.mark.parametrize("p", [float("nan"), None, "1", True, float("inf")])
def test_a_threshold_that_is_no_number_is_refused(p):
    with pytest.raises(ValueError, match="p = .* is not allowed; p must be a finite number >= 0"):
        fast_p([1.0], p)


def test_correctness_flags_must_be_true_or_false():
    with pytest.raises(ValueError, match=r"correct\[1\] = 'yes' is not allowed"):
        fast_p([2.0, 2.0], 1.0, correct=[True, "yes"])


def test_numpy_values_are_numbers_too():
    import numpy as np

    assert fast_p(np.array([0.0, 1.5, 2.5]), np.float32(1.0)) == 2 / 3
    assert fast_p([np.int64(2), 0.0], 1) == 0.5


def test_a_curve_needs_a_sequence_of_thresholds():
    from toyhw.metrics import fast_p_curve

    assert fast_p_curve([0.0, 2.0], [0.0, 1.0, 3.0]) == [0.5, 0.5, 0.0]
    with pytest.raises(ValueError, match="ps = None is not allowed; give a sequence of thresholds"):
        fast_p_curve([1.0], None)


@pytest.mark.parametrize("p", [0.0, 0.5, 1.0, 1.2, 2.999])
def test_sorted_speedups_give_fast_p_exactly(p):
    speedups = [0.0, 0.5, 1.0, 1.0, 1.2, 1.5, 3.0, 0.0, 2.999]
    assert SortedSpeedups(speedups).fast_p(p) == fast_p(speedups, p)


def test_sorted_speedups_check_like_fast_p():
    with pytest.raises(ValueError, match="speedups\\[1\\] = -1.0 is not allowed"):
        SortedSpeedups([1.0, -1.0])
    with pytest.raises(ValueError, match="p = -0.5 is not allowed"):
        SortedSpeedups([1.0]).fast_p(-0.5)
