"""The demo-2 helpers of toyhw.course.feedback_tables that notebook 06 reads: the top-5 table with its stuck column,
the stuck shares for every seed and budget. (Notebook 06's solutions are tested in tests/course/test_checks_nb06.py.)
"""

from toyhw.course import feedback_tables
from toyhw.evolve.experiments import targeting


def test_targeting_frame_shows_three_digits_and_a_stuck_column_that_agrees_with_them():
    frame = feedback_tables.targeting_frame(targeting.targeting(0, 300))
    for ratio, stuck in zip(frame["vs_best "], frame["stuck "]):
        assert len(ratio.split(".")[1]) == 3 and (stuck == "yes") == (float(ratio) > targeting.STUCK)


def test_stuck_share_frame_has_every_seed_and_budget_and_says_which_share_is_larger():
    frame = feedback_tables.stuck_share_frame()
    assert len(frame) == 10 and set(frame["larger"]) == {"roofline"}
    t = targeting.targeting(2, 1000)
    assert frame.loc[(1000, 2), "top-5 lists share"] == t.overlap_top5 == 0
