"""Lecture 10's tables and computed sentences, and the exercise's reference solution."""

from exercise_cells import NOTEBOOKS, load_solution
from toyhw.course import kernel_tables as fastp_tables
from toyhw.kernels import study


def test_kernelbench_table_sits_next_to_the_toys_matching_modes():
    frame = fastp_tables.kernelbench_frame(rounds=10)
    assert list(frame["DeepSeek-R1"].astype(object).fillna(-1)) == [36, -1, 44, 62, 72]  # "-": R1 was not resampled
    assert list(frame["toy fast_1 (%)"]) == [32.0, 81.5, 77.0, 93.5, 96.0]


def test_outcome_frame_splits_failures_by_cause():
    frame = fastp_tables.outcome_frame(study.one_shot())
    assert list(frame["tasks"]) == [54, 37, 25, 84] and list(frame["share"]) == ["27.0%", "18.5%", "12.5%", "42.0%"]


def test_the_reference_solution_beats_every_built_in_at_10_rounds():
    table = study.feedback_table(
        modes=study.PROPOSERS.available() + [load_solution(NOTEBOOKS / "02_feedback_loops.ipynb").directed_proposer],
        rounds=(10,),
    )
    for p in (1.0, 1.5):
        assert fastp_tables.race_verdict(table, "directed_proposer", 10, p).endswith(
            f"beats every built-in mode (best: {'suggest' if p == 1.0 else 'explain'}, "
            f"{0.96 if p == 1.0 else 0.39:.3f})."
        )


def test_race_verdict_reports_a_tie_and_a_loss_as_such():
    table = {"scalar": {10: {1.0: 0.5}}, "mine": {10: {1.0: 0.5}}, "worse": {10: {1.0: 0.25}}}
    assert "ties the best built-in mode" in fastp_tables.race_verdict(table, "mine", 10, 1.0)
    assert "is behind the best built-in mode (scalar, 0.500) by 0.250" in fastp_tables.race_verdict(
        table, "worse", 10, 1.0
    )
