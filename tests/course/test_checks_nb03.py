"""Notebook 03's exercise checks say ✗ to the stubs and to wrong answers, ✓ to the solution file, and never raise."""

from __future__ import annotations

import dataclasses
import functools
from pathlib import Path

import numpy as np
import pytest

from exercise_cells import load_solution
from toyhw import i18n
from toyhw.course.check import Verdict
from toyhw.course.checks import nb03 as checks
from toyhw.gemm import expert, shapes, vllm
from toyhw.gemm.config import GemmConfig
from toyhw.gemm.time_table import shared_table
from visible_answers import copied_answer

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "03_gemm_cost_model.ipynb"


@functools.lru_cache(maxsize=None)
def solutions():
    return load_solution(NOTEBOOK)


def _one_line(verdict: Verdict) -> Verdict:
    text = str(verdict)
    assert isinstance(verdict, Verdict) and "\n" not in text and len(text) <= 110, text
    return verdict


def _fails(verdict: Verdict, *words: str) -> None:
    assert not _one_line(verdict).ok, verdict
    for word in words:
        assert word in verdict.reason, verdict


def _passes(verdict: Verdict) -> None:
    assert _one_line(verdict).ok, verdict


def _raises(*args, **kwargs):
    raise NotImplementedError


def _broken(*args, **kwargs):
    raise ZeroDivisionError("oops " * 40)


NOT_FUNCTIONS = (None, 3, "choose", [1, 2])


# ----- Exercise 1: a heuristic that beats the expert


def test_exercise_1_passes_the_solution_and_names_both_scores():
    verdict = checks.exercise_1(solutions().choose)
    _passes(verdict)
    assert "1.099x on TRAIN" in verdict.reason and "1.114x on TEST" in verdict.reason


def test_exercise_1_fails_the_stub_the_expert_and_bad_heuristics():
    def the_expert(M: int, N: int, K: int) -> GemmConfig:  # the notebook's stub
        return expert.expert_config(shapes.Shape("yours", M, N, K))

    _fails(checks.exercise_1(the_expert), "1.000x", "TRAIN")
    _fails(checks.exercise_1(_raises), "stub")
    _fails(checks.exercise_1(_broken), "ZeroDivisionError")
    _fails(checks.exercise_1(lambda M, N, K: None), "not a GemmConfig")
    unlaunchable = GemmConfig(128, 256, 64, num_warps=8, num_stages=5)  # 245,760 B of shared memory
    _fails(checks.exercise_1(lambda M, N, K: unlaunchable), "cannot launch")
    # the oracle itself beats the expert, but it is no small heuristic
    table = shared_table("H100")
    _fails(checks.exercise_1(lambda M, N, K: table.oracle(shapes.Shape("x", M, N, K))[0]), "different configs")
    # telling layers apart by anything but the narrow-layer test
    _fails(
        checks.exercise_1(
            lambda M, N, K: dataclasses.replace(solutions().choose(M, N, K), num_stages=3 if K > 8000 else 4)
        ),
        "narrow-layer",
    )

    # the narrow-layer test changing more than split-K
    def narrow_stages(M: int, N: int, K: int) -> GemmConfig:
        config = solutions().choose(M, N, K)
        return dataclasses.replace(config, num_stages=4) if N <= 2048 else config

    _fails(checks.exercise_1(narrow_stages), "split-K")
    for value in NOT_FUNCTIONS:
        _fails(checks.exercise_1(value), "function")


# ----- Exercise 2: Hopper against Ampere


def test_exercise_2_passes_the_solution_and_fails_wrong_tiles():
    _passes(checks.exercise_2(solutions().oracle_block_m))
    _fails(checks.exercise_2(_raises), "stub")
    _fails(checks.exercise_2(_broken), "ZeroDivisionError")
    _fails(checks.exercise_2(lambda gpu_name: {16: 16, 24: 64, 48: 64, 64: 64}), "A100", "[24]")  # H100's for both
    _fails(checks.exercise_2(lambda gpu_name: {16: 16}), "no entry for M = 24")
    _fails(checks.exercise_2(lambda gpu_name: [16, 64, 64, 64]), "not a dict")
    for value in NOT_FUNCTIONS:
        _fails(checks.exercise_2(value), "function")


# ----- Exercise 3: vLLM's ranks at another latency


def test_exercise_3_passes_the_solution_and_names_the_moving_entry():
    verdict = checks.exercise_3(solutions().vllm_ranks_at)
    _passes(verdict)
    assert "ranks 7 at 0.5 us and 173 at 1.2 us" in verdict.reason


def test_exercise_3_fails_the_shared_table_and_bad_values():
    _fails(checks.exercise_3(lambda s: vllm.vllm_ranks(shared_table("H100"))), "ranks", "shared_table")
    _fails(checks.exercise_3(_raises), "stub")
    _fails(checks.exercise_3(_broken), "ZeroDivisionError")
    _fails(checks.exercise_3(lambda s: [1, 2, 3]), "VllmRank")
    _fails(checks.exercise_3(lambda s: None), "list of VllmRank, not None")
    _fails(checks.exercise_3(lambda s: vllm.vllm_ranks(shared_table("H100"))[:3]), "entries")
    for value in NOT_FUNCTIONS:
        _fails(checks.exercise_3(value), "function")


# ----- Exercise 4: the error without the timing methods


def test_exercise_4_passes_the_solution():
    verdict = checks.exercise_4(solutions().error_without_timing)
    _passes(verdict)
    assert "8.5% to 13.6%" in verdict.reason


def test_exercise_4_fails_the_stub_and_wrong_errors():
    right = solutions().error_without_timing
    _fails(checks.exercise_4(_raises), "stub")
    _fails(checks.exercise_4(_broken), "ZeroDivisionError")
    _fails(checks.exercise_4(lambda found: {k: (b, a) for k, (a, b) in right(found).items()}), "error")  # swapped
    _fails(checks.exercise_4(lambda found: {k: v for k, v in right(found).items() if k != "all"}), "'all'")
    _fails(checks.exercise_4(lambda found: {k: "8.5%" for k in right(found)}), "not two numbers")
    _fails(checks.exercise_4(lambda found: 0.085), "not a dict")
    for value in NOT_FUNCTIONS:
        _fails(checks.exercise_4(value), "function")


@pytest.mark.parametrize("check", [checks.exercise_1, checks.exercise_2, checks.exercise_3, checks.exercise_4])
def test_a_check_never_raises_for_odd_values(check):
    for value in (object(), lambda *a: float("nan"), lambda *a: {1: object()}, lambda *a: iter(())):
        _fails(check(value))


# ----- answers copied from the notebook, and answers of the wrong type


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_copy_of_the_notebooks_answers_fails_every_check(language):
    s = solutions()
    table = {(x.M, x.N, x.K): s.choose(x.M, x.N, x.K) for x in shapes.all_shapes()}
    copies = {
        1: lambda M, N, K: table[(M, N, K)],  # every lecture shape's config, written down
        2: copied_answer(s.oracle_block_m, (("H100",), {}), (("A100",), {})),
        3: copied_answer(s.vllm_ranks_at, ((0.5e-6,), {}), ((1.2e-6,), {})),
        4: copied_answer(s.error_without_timing, ((list(checks._found()),), {})),
    }
    with i18n.using(language):
        for k, copied in copies.items():
            _fails(getattr(checks, f"exercise_{k}")(copied))
    assert "choose raised KeyError: (2, " in str(checks.exercise_1(copies[1]))
    assert "oracle_block_m('L40S')" in str(checks.exercise_2(copies[2]))
    assert str(checks.exercise_3(copies[3])).startswith("✗ vllm_ranks_at(0.8e-6): ")
    assert str(checks.exercise_4(copies[4])).startswith("✗ error_without_timing(found[::2])['all']: the model's error")


def test_a_config_of_another_type_or_a_rank_in_a_string_is_refused():
    class Looks(GemmConfig):
        def __eq__(self, other):
            return True

        __hash__ = GemmConfig.__hash__

    s = solutions()
    _fails(checks.exercise_1(lambda M, N, K: Looks(**dataclasses.asdict(s.choose(M, N, K)))), "Looks", "GemmConfig")
    _fails(
        checks.exercise_2(
            lambda g, layer="8B gate_up", ms=(16, 24, 48, 64): {
                m: str(v) for m, v in s.oracle_block_m(g, layer, ms).items()
            }
        ),
        "'16'",
    )
    _passes(
        checks.exercise_2(
            lambda g, layer="8B gate_up", ms=(16, 24, 48, 64): {
                np.int64(m): np.int64(v) for m, v in s.oracle_block_m(g, layer, ms).items()
            }
        )
    )


def test_an_answer_that_changes_the_checks_it_is_given_changes_nothing_the_pack_holds():
    before = list(checks._found())

    def vandal(found):
        found.clear()
        return {}

    _fails(checks.exercise_4(vandal), "no entry 'all'")
    assert list(checks._found()) == before and len(before) == 53
