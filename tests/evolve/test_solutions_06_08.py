"""The exercise solutions of notebook 06 run, and what each Solution block says about its result holds.

Also the demo-2 helpers of toyhw.evolve.tables that notebook 06 reads (the top-5 table with its stuck column, the
stuck shares for every seed and budget).
"""
from toyhw.evolve import ablations, feedback_tables, solutions_06_08 as S, targeting


# ----- notebook 06

def test_recording_the_targets_leaves_the_run_unchanged():
    for variant in ("full", "fb_worst3", "no_feedback"):
        result, targets = S.proposal_targets(variant, 1, 200)
        reference = ablations.run_one(variant, 1, 200)
        assert result.history == reference.history and result.kernel_runs == reference.kernel_runs
        assert [step for step, _, _ in targets] == list(range(1, 201))
        assert all(0 < vs_best <= 1 for _, _, vs_best in targets)


def test_worst3_aims_at_known_improvements_and_no_feedback_mostly_at_stuck_shapes():
    shares = S.stuck_target_shares(budget=300)
    assert list(shares.index) == ["full", "fb_roofline", "fb_worst3", "no_feedback"]
    for seed in shares.columns:
        column = shares[seed]
        assert column["fb_worst3"] < column["full"] < column["fb_roofline"] < column["no_feedback"]
    assert shares.loc["fb_worst3"].max() < 0.1


def test_stuck_share_by_budget_roofline_above_best_seen_at_every_budget():
    frame = S.stuck_share_by_budget()
    assert list(frame.index) == [100, 200, 300, 500, 700, 1000]
    assert (frame["roofline"] > frame["best seen"]).all()
    assert frame.loc[300, "stuck shapes"] == targeting.targeting(0, 300).n_stuck


def test_far_from_roofline_lists_the_shapes_and_reasons_from_the_breakdown():
    frame = S.far_from_roofline()
    assert len(frame) == 17 and (frame["oracle vs_roofline"] < 0.6).all()
    assert frame.iloc[0]["shape"] == "70B/8 qkv M=512" and frame.iloc[0]["bound"] == "compute"
    assert all(why for why in frame["why"])


def test_every_stuck_decode_shape_is_farther_from_its_roofline_on_a_b200():
    frame = S.decode_reach_by_gpu()
    assert len(frame) == 10
    assert (frame["B200 vs_roofline"] < frame["H100 vs_roofline"]).all()


def test_targeting_frame_shows_three_digits_and_a_stuck_column_that_agrees_with_them():
    frame = feedback_tables.targeting_frame(targeting.targeting(0, 300))
    for ratio, stuck in zip(frame["vs_best "], frame["stuck "]):
        assert len(ratio.split(".")[1]) == 3 and (stuck == "yes") == (float(ratio) > targeting.STUCK)


def test_stuck_share_frame_has_every_seed_and_budget_and_says_which_share_is_larger():
    frame = feedback_tables.stuck_share_frame()
    assert len(frame) == 10 and set(frame["larger"]) == {"roofline"}
    t = targeting.targeting(2, 1000)
    assert frame.loc[(1000, 2), "top-5 lists share"] == t.overlap_top5 == 0
