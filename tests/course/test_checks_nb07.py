"""Notebook 07's exercise checks fail on the stubs and on wrong answers, pass on the solution file, never raise; and
the solutions do what the exercises' answers say.
"""

from __future__ import annotations

import pytest

from exercise_cells import NOTEBOOKS, load_solution
from toyhw import i18n
from toyhw.course.check import WIDTH
from toyhw.course.checks import nb07 as checks
from toyhw.evolve.evaluator import geomean_speedup
from toyhw.evolve.experiments import ablations, branch_check
from toyhw.evolve.programs import expert_program
from toyhw.evolve.simplify import simplify
from toyhw.evolve.source import parse, static_check
from toyhw.textwidth import display_width
from visible_answers import copied_answer

S = load_solution(NOTEBOOKS / "07_checking_all_branches.ipynb")

STARTING_SOURCE = """
def choose(M, N, K):
    if M <= 16 and N <= 2048:
        return Config(block_m=16, block_n=32, block_k=256, num_warps=2, num_stages=5, split_k=4)
    if M <= 16:
        return Config(block_m=16, block_n=64, block_k=256, num_warps=4, num_stages=5, split_k=1)
    if M <= 128:
        return Config(block_m=64, block_n=64, block_k=128, num_warps=4, num_stages=4, split_k=1)
    if 4096 <= M <= 6144:
        return Config(block_m=256, block_n=256, block_k=64, num_warps=8, num_stages=3, split_k=1)
    return Config(block_m=128, block_n=256, block_k=64, num_warps=8, num_stages=3, split_k=1)
"""
EXPERT_SOURCE = """
def choose(M, N, K):
    if M <= 16:
        return Config(block_m=16, block_n=64, block_k=256, num_warps=4, num_stages=5, split_k=1)
    if M <= 128:
        return Config(block_m=64, block_n=64, block_k=128, num_warps=4, num_stages=4, split_k=1)
    return Config(block_m=128, block_n=256, block_k=64, num_warps=8, num_stages=3, split_k=1)
"""


def _stub(*args, **kwargs):
    raise NotImplementedError


def _raises(*args, **kwargs):
    raise ZeroDivisionError("division by zero")


def _verdict(verdict, ok: bool) -> None:
    assert bool(verdict) is ok, verdict
    assert display_width(str(verdict)) <= WIDTH and "\n" not in str(verdict), verdict
    assert str(verdict).startswith("✓ " if ok else "✗ ")


# ----- the checks


def test_exercise_1_fails_on_the_starting_point_and_on_the_expert_and_passes_on_the_solution():
    _verdict(checks.exercise_1(STARTING_SOURCE), False)
    assert "line 10 cannot launch: registers" in str(checks.exercise_1(STARTING_SOURCE))
    _verdict(checks.exercise_1(EXPERT_SOURCE), False)  # launches, but only equals the expert
    _verdict(checks.exercise_1(S.my_source), True)


@pytest.mark.parametrize("answer", [None, 3, "", "def choose(M, N, K):\n    return 1\n", "import os", "x" * 10_000])
def test_exercise_1_never_raises_on_a_wrong_answer(answer):
    _verdict(checks.exercise_1(answer), False)


def test_exercise_2_fails_on_the_stub_and_on_wrong_answers_and_passes_on_the_solution():
    _verdict(checks.exercise_2(_stub), False)
    assert "still the stub" in str(checks.exercise_2(_stub))
    _verdict(checks.exercise_2(_raises), False)
    _verdict(checks.exercise_2(None), False)
    _verdict(checks.exercise_2(lambda m_min, m_max: [1]), False)
    _verdict(checks.exercise_2(lambda m_min, m_max: {}), False)
    right = S.bad_branch_on_a_training_shape(2000, 4000)
    _verdict(checks.exercise_2(lambda m_min, m_max: right), False)  # the same answer for 3000-4000 is wrong
    _verdict(
        checks.exercise_2(
            lambda m_min, m_max: {k: list(v) for k, v in S.bad_branch_on_a_training_shape(m_min, m_max).items()}
        ),
        True,
    )
    _verdict(checks.exercise_2(S.bad_branch_on_a_training_shape), True)


def test_exercise_3_fails_on_the_stub_and_on_wrong_counts_and_passes_on_the_solution():
    _verdict(checks.exercise_3(_stub), False)
    _verdict(checks.exercise_3(_raises), False)
    _verdict(checks.exercise_3("new_shape_crashes"), False)
    _verdict(checks.exercise_3(lambda **kwargs: None), False)
    right = S.new_shape_crashes()
    _verdict(checks.exercise_3(lambda **kwargs: right), False)  # the eight-KV-head layers differ per layer
    off_by_one = dict(right, crashing=right["crashing"] + 1)
    _verdict(checks.exercise_3(lambda **kwargs: off_by_one), False)
    _verdict(checks.exercise_3(lambda **kwargs: dict(right, **{"per layer": [1, 2]})), False)
    _verdict(checks.exercise_3(S.new_shape_crashes), True)


def test_exercise_4_fails_on_the_stub_and_on_wrong_lines_and_passes_on_the_solution():
    _verdict(checks.exercise_4(_stub), False)
    _verdict(checks.exercise_4(_raises), False)
    _verdict(checks.exercise_4(42), False)
    _verdict(checks.exercise_4(lambda program, shapes: None), False)
    _verdict(checks.exercise_4(lambda program, shapes: ["a"]), False)
    _verdict(checks.exercise_4(lambda program, shapes: []), False)
    _verdict(checks.exercise_4(lambda program, shapes: S.untested_branches(program, shapes)[:-1]), False)
    _verdict(checks.exercise_4(lambda program, shapes: S.untested_branches(program, shapes) + [3]), False)
    _verdict(checks.exercise_4(S.untested_branches), True)
    _verdict(checks.exercise_4(lambda program, shapes: [float(x) for x in S.untested_branches(program, shapes)]), True)


@pytest.mark.parametrize("bad", ["17", 13.9, True])
def test_exercise_4_coerces_no_line_number_and_shows_the_answer_as_returned(bad):
    verdict = checks.exercise_4(lambda program, shapes: S.untested_branches(program, shapes)[:-1] + [bad])
    _verdict(verdict, False)
    assert "must return a list of line numbers, got" in str(verdict) and repr(bad) in str(verdict), verdict


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_copy_of_the_notebooks_answers_fails(language):
    ctx = ablations.context()
    copies = {
        2: copied_answer(S.bad_branch_on_a_training_shape, ((2000, 4000), {}), ((3000, 4000), {})),
        3: copied_answer(S.new_shape_crashes, ((), {}), ((), {"new_layers": ("405B/8 qkv 8kv", "405B/8 down")})),
        4: lambda program, shapes: S.untested_branches(program, ctx.train),  # the notebook's shapes, whatever given
    }
    with i18n.using(language):
        for k, copied in copies.items():
            _verdict(getattr(checks, f"exercise_{k}")(copied), False)
    assert "bad_branch_on_a_training_shape(5000, 7000)" in str(checks.exercise_2(copies[2]))
    by_range = {True: S.bad_branch_on_a_training_shape(2000, 4000), False: S.bad_branch_on_a_training_shape(3000, 4000)}
    guessed = lambda m_min, m_max: by_range[m_min <= 2048 <= m_max]  # noqa: E731 (the visible answers, by a guess)
    assert "bad_branch_on_a_training_shape(100, 300)" in str(checks.exercise_2(guessed))
    assert "new_shape_crashes(seeds=(5, 6), budget=300)" in str(checks.exercise_3(copies[3]))
    assert "of ctx.test" in str(checks.exercise_4(copies[4]))


def test_a_function_that_changes_the_program_it_is_given_changes_nothing_the_check_holds():
    def vandal(program, shapes):
        object.__setattr__(program, "rules", ())
        shapes.clear()
        return []

    _verdict(checks.exercise_4(vandal), False)
    assert len(ablations.context().train) == 44
    assert simplify(branch_check.branch_row(0, 1000, False).example).rules


def test_a_verdict_too_wide_for_a_projector_is_cut_to_fit():
    def long_error(*args, **kwargs):
        raise ValueError("x" * 150 + "\n" + "x" * 150)

    wide = checks.exercise_2(long_error)
    assert display_width(str(wide)) == WIDTH and str(wide).endswith("…") and "\n" not in str(wide)


# ----- the solutions do what the exercises' answers say


def test_the_fixed_heuristic_launches_everywhere_and_beats_the_expert_on_every_set():
    assert static_check(S.my_source)[0]
    program = parse(S.my_source)
    ctx = ablations.context()
    train, test, new = (geomean_speedup(program, s, ctx.table) for s in (ctx.train, ctx.test, ctx.new))
    assert train > 1.05 and test > 1.05 and new > 1.05
    assert test > ablations.run_one("full", 0, 1000).test


def test_a_bad_branch_on_a_training_shape_crashes_in_the_cascade_first_stage():
    assert S.bad_branch_on_a_training_shape() == {
        "no check, cascade": ("crash", 11),
        "no check, no cascade": ("crash", 44),
        "check": ("bad branch", 0),
    }


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
