"""toyhw.checks: one sentence for every refusal (the input, its value, what is allowed), and the limits' values."""

import pytest

from toyhw import checks


@pytest.mark.parametrize(
    "seed, why",
    [
        (-3, "random.Random(-3) is Random(3)"),
        (None, "None would draw a different stream on every run"),
        ("3", "MAX_SEED"),
        (True, "MAX_SEED"),
        (3.0, "MAX_SEED"),
        (2**32, "MAX_SEED"),
    ],
)
def test_a_seed_is_an_integer_from_0(seed, why):
    with pytest.raises(
        ValueError,
        match=r"seed = .* is not allowed; a seed must be an integer >= 0 and <= "
        r"4,294,967,295",
    ) as err:
        checks.check_seed("seed", seed)
    assert why in str(err.value)


def test_the_count_checks_name_their_limit():
    with pytest.raises(ValueError, match=r"n_tasks = 1000000000 is not allowed; .* <= 100,000 \(MAX_TASKS"):
        checks.check_tasks("n_tasks", 10**9)
    with pytest.raises(ValueError, match=r"rounds = 10001 is not allowed; .* <= 10,000 \(MAX_ROUNDS"):
        checks.check_rounds("rounds", 10_001)
    with pytest.raises(
        ValueError,
        match=r"budget = 1000000000 is not allowed; .* <= 100,000 \(proposed programs; "
        r"MAX_BUDGET",
    ):
        checks.check_budget("budget", 10**9)
    assert checks.check_budget("budget", checks.MAX_BUDGET) == 100_000


@pytest.mark.parametrize(
    "seeds, message",
    [
        ([], "seeds is empty; give at least one seed"),
        ([0, 0], r"seeds lists 0 twice \(items 0 and 1\); give each seed once"),
        ("0,1", r"seeds = '0,1' is not allowed; give a list of seeds, e.g. \[0, 1, 2\]"),
        (3, "seeds = 3 is not allowed; give a list of seeds"),
        (range(101), "seeds has 101 seeds; at most 100 are allowed"),
        ([0, -1], r"seeds\[1\] = -1 is not allowed"),
    ],
)
def test_a_list_is_non_empty_without_repeats_and_within_its_limit(seeds, message):
    with pytest.raises(ValueError, match=message):
        checks.check_seeds("seeds", seeds)


def test_an_unknown_name_is_a_key_error_and_a_value_error_that_reads_as_written():
    err = checks.UnknownNameError("unknown variant 'x'; known: full")
    assert isinstance(err, KeyError) and isinstance(err, ValueError)
    assert str(err) == "unknown variant 'x'; known: full"
