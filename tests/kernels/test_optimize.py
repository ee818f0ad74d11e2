"""The optimization loop: the seed's table exactly, student proposers, and clear errors for bad input."""

import json
import pathlib
import random
import subprocess
import sys

import pytest

from toyhw.kernels import knobs, optimize, study
from toyhw.course import kernel_tables as tables
from toyhw.kernels.knobs import KernelConfig
from toyhw.kernels.optimize import ProposerError

DATA = pathlib.Path(__file__).parents[1] / "data"

# lecture 10's table (the seed script's output): fast_1 / fast_1.5 per feedback mode after 5, 10, 20, 50 rounds (seed 230, 200 tasks).
LECTURE_TABLE = {
    "resample": ["0.72 / 0.27", "0.81 / 0.34", "0.92 / 0.35", "0.97 / 0.46"],
    "scalar": ["0.58 / 0.18", "0.77 / 0.30", "0.87 / 0.39", "0.97 / 0.46"],
    "explain": ["0.83 / 0.24", "0.94 / 0.39", "0.98 / 0.45", "0.99 / 0.49"],
    "suggest": ["0.86 / 0.26", "0.96 / 0.37", "0.98 / 0.38", "0.99 / 0.40"],
}


def test_the_seed_table_digit_for_digit():
    table = study.feedback_table()
    printed = {m: [f"{row[r][1.0]:.2f} / {row[r][1.5]:.2f}" for r in (5, 10, 20, 50)] for m, row in table.items()}
    assert printed == LECTURE_TABLE


def test_the_seed_one_shot_numbers():
    report = study.one_shot()
    assert report.status_shares() == {"compile_error": 0.27, "wrong": 0.31, "ok": 0.42}
    assert report.fast() == {0.0: 0.42, 1.0: 0.32, 1.5: 0.105}


def test_results_are_identical_in_a_fresh_process():
    code = "from toyhw.kernels import study as f; print(repr(f.feedback_table(11, 40, rounds=(3, 7))))"
    runs = {
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, env={"PYTHONHASHSEED": str(h)}
        ).stdout
        for h in (1, 2)
    }
    assert len(runs) == 1
    assert runs.pop().strip() == repr(study.feedback_table(11, 40, rounds=(3, 7)))


def test_a_student_proposer_races_the_built_ins():
    def fix_then_tile(feedback, config, rng):
        if not feedback.ok:
            return KernelConfig()
        return knobs.mutate(config, rng, "tile")

    speedups = study.iterative_speedups(230, 50, fix_then_tile, 10)
    assert len(speedups) == 50 and (speedups > 0).all()  # it never stays broken: a failure resets to the default
    table = study.feedback_table(230, 50, ["scalar", fix_then_tile], rounds=(10,))
    assert list(table) == ["scalar", "fix_then_tile"]


@pytest.mark.parametrize("seed", [0, 1, 2, 5])
def test_a_proposer_may_return_a_dict_of_knobs(seed):
    """A dict of knobs is the config it names: the run equals one whose proposer returns the config itself."""
    task = study.tasks()[0]
    as_dict = optimize.optimize(task, 3, lambda fb, c, rng: c.as_dict(), random.Random(seed))
    assert as_dict == optimize.optimize(task, 3, lambda fb, c, rng: c, random.Random(seed))
    first = knobs.random_config(random.Random(seed))
    if knobs.run_kernel(task, first).ok:
        assert (as_dict.best_config, as_dict.n_failed) == (first, 0)
    else:
        assert (as_dict.best_config, as_dict.n_failed, as_dict.speedup) == (None, 3, 0.0)


def test_the_loop_keeps_the_fastest_correct_config_and_builds_on_it_or_on_the_failure():
    """A scripted proposer: after a success it is handed the best config so far (with that config's feedback), after
    a failure the config that failed; an equally fast config does not replace the best (strict <)."""
    task = knobs.Task(memory_bound=0.5, best_tile=16, n=1003, fusable=False)
    first = knobs.random_config(random.Random(0))  # the loop's first config: tile 64 with shared memory, fails
    tile8, same_time, fast = KernelConfig(tile=8), KernelConfig(tile=8, shared=1), KernelConfig(tile=16)
    assert knobs.run_kernel(task, same_time).time == knobs.run_kernel(task, tile8).time  # shared needs tile >= 16
    vec2, slow, fused = KernelConfig(vec=2), KernelConfig(tile=64), KernelConfig(tile=16, fuse=1)
    ran = [first, tile8, vec2, same_time, slow, fast, fused]
    handed = []

    def scripted(feedback, config, rng):
        handed.append((config, feedback))
        return ran[len(handed)] if len(handed) < len(ran) else config

    result = optimize.optimize(task, len(ran), scripted, random.Random(0))
    assert [base for base, _ in handed] == [first, tile8, vec2, tile8, tile8, fast, fused]
    assert all(fb == knobs.run_kernel(task, base) for base, fb in handed)
    assert (result.best_config, result.n_failed) == (fast, 3)
    assert result.speedup == knobs.baseline_time(task) / knobs.run_kernel(task, fast).time


def test_a_proposer_that_raises_is_named_with_the_round():
    def broken(feedback, config, rng):
        raise ZeroDivisionError("oops")

    with pytest.raises(ProposerError, match=r"proposer 'broken' raised ZeroDivisionError: oops \(round 1"):
        optimize.optimize(study.tasks()[0], 5, broken, random.Random(0))


def test_a_proposer_that_is_neither_a_name_nor_a_function_is_refused():
    with pytest.raises(
        ValueError,
        match=r"^proposer = 42 is neither a mode name \(resample, scalar, explain, suggest\) "
        "nor a function$",
    ):
        optimize.optimize(study.tasks()[0], 3, 42, random.Random(0))


@pytest.mark.parametrize(
    "returned,match",
    [
        (None, "^proposer '<lambda>' returned None in round 1; it must return a KernelConfig"),
        ({"tile": 7}, "returned an invalid config in round 1: knob 'tile' = 7 is not allowed"),
        ({"tiles": 8}, "returned an invalid config in round 1"),
    ],
)
def test_a_proposer_returning_an_invalid_config_is_refused(returned, match):
    with pytest.raises(ProposerError, match=match):
        optimize.optimize(study.tasks()[0], 5, lambda fb, c, rng: returned, random.Random(0))


def test_one_round_runs_the_first_config_only():
    task = study.tasks()[0]
    first = knobs.random_config(random.Random(3))
    result = optimize.optimize(task, 1, "explain", random.Random(3))
    assert result.best_config == (first if knobs.run_kernel(task, first).ok else None)
    assert optimize.check_rounds(1) == 1


def test_a_proposer_is_named_by_its_function_name_or_else_its_repr():
    import functools

    partial = functools.partial(lambda feedback, config, rng, knob: knobs.mutate(config, rng, knob), knob="tile")
    assert optimize.resolve_proposer(partial) == (repr(partial), partial)
    assert optimize.resolve_proposer("scalar")[0] == "scalar"
    assert optimize.resolve_proposer(knobs.mutate) == ("mutate", knobs.mutate)


@pytest.mark.parametrize("rounds", [0, -3, 2.5, True])
def test_rounds_below_one_are_refused(rounds):
    with pytest.raises(ValueError, match=f"rounds = {rounds!r} is not allowed; it must be an integer >= 1"):
        study.iterative_speedups(230, 10, "scalar", rounds)


def test_unknown_mode_is_refused_with_the_known_ones():
    with pytest.raises(KeyError, match="unknown feedback mode 'oracle'; known: resample, scalar, explain, suggest"):
        study.feedback_table(modes=["oracle"])


def test_observations_claim_only_what_the_table_shows():
    table = study.feedback_table()
    notes = " ".join(tables.observations(table))
    assert "At 5, 10, 20 rounds scalar feedback is even worse" in notes  # 0.58 < 0.72, 0.77 < 0.81, 0.87 < 0.92
    assert "suggest beats explain at fast_1 after 5, 10 rounds" in notes
    # flip the data: the claim must disappear
    flipped = {m: {r: dict(c) for r, c in rows.items()} for m, rows in table.items()}
    for r in flipped["scalar"]:
        flipped["scalar"][r][1.0] = 1.0
    assert "even worse" not in " ".join(tables.observations(flipped))


def test_reference_file_for_seed_230_matches_the_design_table():
    ref = json.loads((DATA / "seed000_seed230_tasks200.json").read_text())
    assert ref["one_shot"]["fast"] == {"0.0": 0.42, "1.0": 0.32, "1.5": 0.105}


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: knobs.make_tasks(-3, 10), "seed = -3 is not allowed; a seed must be an integer >= 0"),
        (lambda: knobs.make_tasks(None, 10), "seed = None is not allowed"),
        (lambda: study.tasks(-230, 10), "task_seed = -230 is not allowed"),
        (lambda: study.one_shot(None, 10), "task_seed = None is not allowed"),
        (lambda: study.feedback_table(task_seed=-3), "task_seed = -3 is not allowed"),
        (lambda: study.fastp_curves(["scalar"], task_seed=True), "task_seed = True is not allowed"),
        (lambda: study.iterative_speedups("230", 10, "scalar", 5), "task_seed = '230' is not allowed"),
        (lambda: study.best_possible_speedups(-1, 10), "task_seed = -1 is not allowed"),
        (lambda: study.task_kernel(None), "task = None is not allowed; tasks are numbered 0 to 199"),
    ],
)
def test_a_seed_below_0_or_none_is_refused_everywhere(call, message):
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: study.one_shot(230, 1_000_000_000), r"n_tasks = 1000000000 is not allowed; .* <= 100,000 \(MAX_TASKS"),
        (
            lambda: study.feedback_table(rounds=(10**9,)),
            r"rounds\[0\] = 1000000000 is not allowed; .* <= 10,000 "
            r"\(MAX_ROUNDS",
        ),
        (lambda: study.fastp_curves(["scalar"], max_rounds=10**9), r"max_rounds = 1000000000 is not allowed"),
        (lambda: study.feedback_table(rounds=(5, 5)), "rounds lists 5 twice"),
        (lambda: study.feedback_table(rounds=()), "rounds is empty"),
        (lambda: study.feedback_table(ps=(1.0, float("nan"))), r"ps\[1\] = nan is not allowed"),
    ],
)
def test_sizes_beyond_what_a_class_needs_are_refused_naming_the_limit(call, message):
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.parametrize(
    "table, message",
    [
        ({}, "table = {} is not allowed; give a non-empty feedback table"),
        ({"scalar": {}}, r"table\['scalar'\] = {} is not allowed"),
        ({"scalar": {5: {1.0: 0.5}}}, r"table\['scalar'\]\[5\] has no fast_p for p = 1.5"),
    ],
)
def test_observations_and_frames_of_a_malformed_table_say_what_is_wrong(table, message):
    from toyhw.course import kernel_tables as tables

    with pytest.raises(ValueError, match=message):
        tables.observations(table)
    with pytest.raises(ValueError, match=message):
        tables.feedback_frame(table)


def test_race_verdict_names_an_unknown_row_or_round_count():
    from toyhw.course import kernel_tables as tables

    table = {"scalar": {10: {1.0: 0.5}}, "mine": {10: {1.0: 0.5}}}
    with pytest.raises(ValueError, match="challenger = 'yours' is not a row of the table; rows: scalar, mine"):
        tables.race_verdict(table, "yours", 10, 1.0)
    with pytest.raises(ValueError, match=r"rounds = 20 is not a column of the table; round counts: \[10\]"):
        tables.race_verdict(table, "mine", 20, 1.0)
    with pytest.raises(ValueError, match="race it against at least one other mode"):
        tables.race_verdict({"mine": table["mine"]}, "mine", 10, 1.0)


def test_optimize_names_a_task_or_stream_that_is_not_one():
    with pytest.raises(ValueError, match=r"rng = None is not allowed; give a random.Random"):
        optimize.optimize(study.tasks()[0], 5, "scalar", None)
    with pytest.raises(ValueError, match=r"task = 3 is not allowed; give a Task"):
        optimize.optimize(3, 5, "scalar", random.Random(0))


def test_mutate_names_a_config_that_is_not_one():
    with pytest.raises(ValueError, match=r"config = {'tile': 32} is not allowed; give a KernelConfig"):
        knobs.mutate({"tile": 32}, random.Random(0))


def test_a_config_hashes_by_its_number_and_equal_configs_are_interchangeable():
    made = KernelConfig(tile=16, vec=4)
    assert made == KernelConfig.of(16, 0, 4, 0, 1) and hash(made) == hash(KernelConfig.of(16, 0, 4, 0, 1))
    assert sorted(hash(c) for c in knobs._INTERNED.values()) == list(range(144))
