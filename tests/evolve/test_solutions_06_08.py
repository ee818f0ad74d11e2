"""The exercise solutions of notebooks 07 and 08 run, and what each Solution block says about its result holds.

Also the demo-2 helpers of toyhw.evolve.tables that notebook 06 reads (the top-5 table with its stuck column, the
stuck shares for every seed and budget). Notebook 06's solutions are tested in tests/course/test_checks_nb06.py.
"""
import pytest

from toyhw.evolve import ablations, branch_check, feedback_tables, solutions_06_08 as S, targeting
from toyhw.evolve.evaluator import geomean_speedup
from toyhw.evolve.programs import expert_program
from toyhw.evolve.simplify import simplify
from toyhw.evolve.source import parse, static_check


# ----- notebook 06

def test_targeting_frame_shows_three_digits_and_a_stuck_column_that_agrees_with_them():
    frame = feedback_tables.targeting_frame(targeting.targeting(0, 300))
    for ratio, stuck in zip(frame["vs_best "], frame["stuck "]):
        assert len(ratio.split(".")[1]) == 3 and (stuck == "yes") == (float(ratio) > targeting.STUCK)


def test_stuck_share_frame_has_every_seed_and_budget_and_says_which_share_is_larger():
    frame = feedback_tables.stuck_share_frame()
    assert len(frame) == 10 and set(frame["larger"]) == {"roofline"}
    t = targeting.targeting(2, 1000)
    assert frame.loc[(1000, 2), "top-5 lists share"] == t.overlap_top5 == 0


# ----- notebook 07

def test_the_fixed_heuristic_launches_everywhere_and_beats_the_expert_on_every_set():
    assert static_check(S.fixed_heuristic())[0]
    program = parse(S.fixed_heuristic())
    ctx = ablations.context()
    train, test, new = (geomean_speedup(program, s, ctx.table) for s in (ctx.train, ctx.test, ctx.new))
    assert train > 1.05 and test > 1.05 and new > 1.05
    assert test > ablations.run_one("full", 0, 1000).test


def test_a_bad_branch_on_a_training_shape_crashes_in_the_cascade_first_stage():
    assert S.bad_branch_on_a_training_shape() == {"no check, cascade": ("crash", 11),
                                                  "no check, no cascade": ("crash", 44), "check": ("bad branch", 0)}


def test_no_program_crashes_only_on_the_405b_layers_and_the_kv_heads_do_not_change_the_count():
    sixteen = S.new_shape_crashes()
    eight = S.new_shape_crashes(new_layers=("405B/8 qkv 8kv", "405B/8 down"))
    assert sixteen["crashing"] == sum(r.crash_new_shapes for r in branch_check.branches()["unchecked"]) == 27
    assert sixteen["only on the new layers"] == eight["only on the new layers"] == 0
    assert sixteen["per layer"]["405B/8 qkv"] == eight["per layer"]["405B/8 qkv 8kv"] == 7


def test_untested_branches_finds_the_latent_bad_branch_and_none_in_the_expert():
    ctx = ablations.context()
    example = simplify(branch_check.branch_row(0, 1000, False).example)
    lines = S.untested_branches(example, ctx.train)
    assert branch_check.crashes(example, ctx.new)[0].line in lines
    assert S.untested_branches(expert_program(), ctx.train) == []


# ----- notebook 08

def test_the_cascade_saves_kernel_runs_on_every_seed():
    frame = S.cascade_savings()
    assert (frame["full"] < frame["no_cascade"]).all() and (frame["saved"] > 0.2).all()


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # fork() in a process with threads, on some Pythons
def test_a_grid_gives_the_same_results_serially_and_on_two_processes():
    out = S.serial_and_parallel_agree()
    assert out["identical"] and out["kernel runs, serial"] == out["kernel runs, parallel"] and out["runs"] == 4
