"""The exercise checks of notebooks 05-08 speak the notebook's language: in the zh edition every verdict is Chinese
(identifiers, `code spans`, the student's own values and Python's exception texts aside), still one line of a
projector, and gives the English verdict's ✓ or ✗.

The inputs are the solution files' answers, the stubs (a function raising NotImplementedError, or the notebook's
None) and the wrong answers of tests/course/test_checks_nb05.py .. nb08.py, whose English assertions hold the
English wording. The tests run a sample of them that reaches every verdict id (tests/course/verdict_sample.py;
TOYHW_ALL_VERDICTS=1 runs them all).
"""

from __future__ import annotations

import contextlib
import functools
import math
import re
import sys
import types
import unittest.mock
from dataclasses import dataclass
from typing import Any, Callable, Optional

import numpy as np
import pandas as pd
import pytest

from exercise_cells import NOTEBOOKS, load_solution
import verdict_sample
from verdict_text import CJK, english_left
from toyhw import i18n
from toyhw.course import runner
from toyhw.course.check import WIDTH, Verdict
from toyhw.course.checks import nb05, nb06, nb07, nb08
from toyhw.evolve.experiments import ablations, targeting
from toyhw.gemm.time_table import shared_table
from toyhw.textwidth import display_width
from visible_answers import copied_answer


MODULES = {5: nb05, 6: nb06, 7: nb07, 8: nb08}
PATHS = {
    5: "05_inside_the_loop",
    6: "06_using_feedback",
    7: "07_checking_all_branches",
    8: "08_appendix_cost_and_scale",
}


def test_english_left_finds_a_sentence_and_spares_identifiers():
    assert english_left("第 3 步：the best is the parent of the time here")
    assert not english_left("best_share(3) 抛出了 TypeError：<lambda>() takes no arguments but it was given one")
    assert not english_left("stuck_target_share('full', 0, 300) = 0.450；而 `view.tokens` is the estimated count")


# ----- the inputs: solutions, stubs, wrong answers


def _stub(*args, **kwargs):
    raise NotImplementedError


def _raises_key(*args, **kwargs):
    raise KeyError("oops")


def _raises_zero(*args, **kwargs):
    raise ZeroDivisionError("division by zero")


def _loops(*args, **kwargs):
    while True:
        pass


@functools.cache
def solution(k: int) -> types.ModuleType:
    return load_solution(NOTEBOOKS / f"{PATHS[k]}.ipynb")


@dataclass(frozen=True)
class Case:
    notebook: int
    exercise: int
    name: str
    make: Callable[[], tuple]
    """Return the check's arguments (built when the test runs: the solutions compute)."""
    limit: Optional[float] = None
    """For an answer that never returns: the seconds after which the runner really stops it, the verdict still naming
    the check's own limit (its module's SECONDS). Its words are the same whenever it stops, and the test need not wait
    the check's 10 s in each language. (Only the runner's private clock is shortened: the check notices a changed
    public name of the pack, toyhw.course.pristine, and would say so instead.)"""

    @property
    def id(self) -> str:
        return f"nb0{self.notebook}-ex{self.exercise}-{self.name}"


def _nb05() -> list[Case]:
    s = functools.partial(solution, 5)
    cases = [
        Case(5, 1, "solution", lambda: (s().best_share,)),
        Case(5, 1, "stub", lambda: (_stub,)),
        Case(5, 1, "within-a-point", lambda: (lambda k, island=25, **_: nb05.best_share_formula(k, island) + 0.009,)),
        Case(5, 1, "numpy", lambda: (lambda k, island=25, **_: np.float64(nb05.best_share_formula(k, island)),)),
        Case(5, 1, "copy", lambda: (copied_answer(s().best_share, *[((k,), {}) for k in nb05.TOURNAMENTS]),)),
        Case(5, 1, "loops", lambda: (_loops,), limit=0.5),
        Case(5, 1, "exits", lambda: (lambda *a, **k: sys.exit(3),)),
    ]
    wrong_1 = {
        "constant": lambda k: 0.5,
        "union-bound": lambda k: k / 25,
        "two-points-off": lambda k: 1 - (1 - 1 / 25) ** k + 0.02,
        "string": lambda k: "11.5%",
        "none": lambda k: None,
        "frame": lambda k: pd.DataFrame({"measured": [0.1] * 4}),
        "nan": lambda k: float("nan"),
        "percent": lambda k: 11.5,
        "bool": lambda k: True,
        "raises": lambda k: 1 / 0,
        "no-argument": lambda: 0.04,
    }
    cases += [Case(5, 1, name, lambda f=f: (f,)) for name, f in wrong_1.items()]
    not_functions = {"none-value": None, "number": 0.115, "name": "best_share", "list": [0.04, 0.078]}
    cases += [Case(5, 1, name, lambda v=v: (v,)) for name, v in not_functions.items()]
    cases += [
        Case(5, 2, "solution", lambda: (s().beat_parent, s().beat_best)),
        Case(5, 2, "solution-numpy", lambda: (float(s().beat_parent), np.int64(s().beat_best))),
        Case(5, 2, "stub", lambda: (None, None)),
        Case(5, 2, "half-stub", lambda: (s().beat_parent, None)),
        Case(5, 2, "parent-off", lambda: (s().beat_parent + 1, s().beat_best)),
        Case(5, 2, "best-off", lambda: (s().beat_parent, s().beat_best + 1)),
        Case(5, 2, "best-is-cut", lambda: (s().beat_parent, len(s().cut_programs))),
        Case(5, 2, "negative", lambda: (-1, 0)),
        Case(5, 2, "fraction", lambda: (2.5, 0)),
        Case(5, 2, "strings", lambda: ("5", "0")),
        Case(5, 2, "nan", lambda: (math.nan, 0)),
        Case(5, 2, "inf", lambda: (math.inf, 0)),
        Case(5, 2, "bools", lambda: (True, False)),
        Case(5, 2, "lists", lambda: ([5], [0])),
    ]

    def tokens(kind: str) -> Any:
        right = dict(s().tokens)
        return {
            "right": right,
            "off-by-one": {k: v + 1 for k, v in right.items()},
            "missing": {k: v for k, v in right.items() if k != 1000},
            "strings": {k: str(v) for k, v in right.items()},
        }[kind]

    cases += [
        Case(5, 3, "solution", lambda: (s().tokens, s().grows_most)),
        Case(5, 3, "padded-name", lambda: (s().tokens, " Inspirations ")),
        Case(5, 3, "stub", lambda: ({1: None, 10: None, 100: None, 1000: None}, None)),
        Case(5, 3, "no-part", lambda: (s().tokens, None)),
        Case(5, 3, "off-by-one", lambda: (tokens("off-by-one"), "inspirations")),
        Case(5, 3, "missing-step", lambda: (tokens("missing"), "inspirations")),
        Case(5, 3, "list", lambda: ([2849, 2945, 3768, 6655], "inspirations")),
        Case(5, 3, "none", lambda: (None, "inspirations")),
        Case(5, 3, "strings", lambda: (tokens("strings"), "inspirations")),
        Case(5, 3, "wrong-part", lambda: (tokens("right"), "feedback")),
        Case(5, 3, "unknown-part", lambda: (tokens("right"), "the code")),
        Case(5, 3, "number", lambda: (tokens("right"), 7014)),
        Case(5, 3, "list-part", lambda: (tokens("right"), ["inspirations"])),
    ]
    return cases


def _nb06() -> list[Case]:
    s = functools.partial(solution, 6)
    solved = {
        1: lambda: s().stuck_target_share,
        2: lambda: s().stuck_share_by_budget,
        3: lambda: s().far_from_roofline,
        4: lambda: s().decode_reach_by_gpu,
    }
    common = {
        "stub": _stub,
        "raises": _raises_key,
        "none": None,
        "number": 0.45,
        "str": lambda *a, **k: "a string",
        "empty-frame": lambda *a, **k: pd.DataFrame(),
    }
    cases = []
    for k, make in solved.items():
        cases.append(Case(6, k, "solution", lambda make=make: (make(),)))
        cases += [Case(6, k, name, lambda v=v: (v,)) for name, v in common.items()]

    def exact(gpus, seed, budget):  # the solution's frame without its rounding to two decimals
        frame = s().decode_reach_by_gpu(gpus, seed, budget)
        shapes = {x.label(): x for x in ablations.context().train + ablations.context().test}
        for gpu in gpus:
            table = shared_table(gpu)
            frame[f"{gpu} vs_roofline"] = [
                table.roofline(shapes[x]) / table.oracle(shapes[x])[1] for x in frame["shape"]
            ]
        return frame

    calls = {
        1: [((name, 0, 300), {}) for name in nb06.VARIANTS],
        2: [((0, nb06.BUDGETS), {})],
        3: [((0.6,), {})],
        4: [((nb06.GPUS, 0, 300), {})],
    }
    cases += [
        Case(6, k, "copy", lambda k=k, make=make: (copied_answer(make(), *calls[k]),)) for k, make in solved.items()
    ]

    wrong = [
        (1, "plus-a-point", lambda name, seed, budget: s().stuck_target_share(name, seed, budget) + 0.01),
        (1, "best-program", lambda name, seed, budget: targeting.targeting(seed, budget).share_on_stuck["best"]),
        (2, "budget-missing", lambda seed, budgets: s().stuck_share_by_budget(seed, budgets[:-1])),
        (2, "percent", lambda seed, budgets: s().stuck_share_by_budget(seed, budgets) * 100),
        (3, "threshold-0.5", lambda threshold: s().far_from_roofline(0.5)),
        (3, "bound-dram", lambda threshold: s().far_from_roofline(threshold).assign(bound="dram")),
        (4, "budget-1000", lambda gpus, seed, budget: s().decode_reach_by_gpu(gpus, seed, 1000)),
        (4, "row-missing", lambda gpus, seed, budget: s().decode_reach_by_gpu(gpus, seed, budget).iloc[:-1]),
        (4, "unrounded", exact),
    ]
    cases += [Case(6, k, name, lambda f=f: (f,)) for k, name, f in wrong]
    return cases


def _nb07() -> list[Case]:
    from test_checks_nb07 import EXPERT_SOURCE, STARTING_SOURCE

    s = functools.partial(solution, 7)
    cases = [
        Case(7, 1, "solution", lambda: (s().my_source,)),
        Case(7, 1, "stub", lambda: (STARTING_SOURCE,)),
        Case(7, 1, "expert", lambda: (EXPERT_SOURCE,)),
    ]
    wrong_1 = [None, 3, "", "def choose(M, N, K):\n    return 1\n", "import os", "x" * 10_000]
    cases += [Case(7, 1, f"wrong-{i}", lambda v=v: (v,)) for i, v in enumerate(wrong_1)]

    def right_2(m_min, m_max):
        return s().bad_branch_on_a_training_shape(2000, 4000)

    cases += [
        Case(7, 2, "solution", lambda: (s().bad_branch_on_a_training_shape,)),
        Case(
            7,
            2,
            "lists",
            lambda: (
                lambda m_min, m_max: {k: list(v) for k, v in s().bad_branch_on_a_training_shape(m_min, m_max).items()},
            ),
        ),
        Case(7, 2, "stub", lambda: (_stub,)),
        Case(7, 2, "raises", lambda: (_raises_zero,)),
        Case(7, 2, "none", lambda: (None,)),
        Case(7, 2, "list", lambda: (lambda m_min, m_max: [1],)),
        Case(7, 2, "empty", lambda: (lambda m_min, m_max: {},)),
        Case(7, 2, "same-for-both", lambda: (right_2,)),
        Case(
            7,
            2,
            "copy",
            lambda: (copied_answer(s().bad_branch_on_a_training_shape, ((2000, 4000), {}), ((3000, 4000), {})),),
        ),
    ]

    def right_3(**kwargs):
        return s().new_shape_crashes()

    cases += [
        Case(7, 3, "solution", lambda: (s().new_shape_crashes,)),
        Case(7, 3, "stub", lambda: (_stub,)),
        Case(7, 3, "raises", lambda: (_raises_zero,)),
        Case(7, 3, "name", lambda: ("new_shape_crashes",)),
        Case(7, 3, "none", lambda: (lambda **kwargs: None,)),
        Case(7, 3, "same-for-both", lambda: (right_3,)),
        Case(7, 3, "off-by-one", lambda: (lambda **kwargs: dict(right_3(), crashing=right_3()["crashing"] + 1),)),
        Case(7, 3, "per-layer-list", lambda: (lambda **kwargs: dict(right_3(), **{"per layer": [1, 2]}),)),
        Case(
            7,
            3,
            "copy",
            lambda: (
                copied_answer(s().new_shape_crashes, ((), {}), ((), {"new_layers": ("405B/8 qkv 8kv", "405B/8 down")})),
            ),
        ),
    ]
    cases += [
        Case(7, 4, "solution", lambda: (s().untested_branches,)),
        Case(7, 4, "stub", lambda: (_stub,)),
        Case(7, 4, "raises", lambda: (_raises_zero,)),
        Case(7, 4, "number", lambda: (42,)),
        Case(7, 4, "none", lambda: (lambda program, shapes: None,)),
        Case(7, 4, "letters", lambda: (lambda program, shapes: ["a"],)),
        Case(7, 4, "empty", lambda: (lambda program, shapes: [],)),
        Case(7, 4, "one-missed", lambda: (lambda program, shapes: s().untested_branches(program, shapes)[:-1],)),
        Case(7, 4, "one-too-many", lambda: (lambda program, shapes: s().untested_branches(program, shapes) + [3],)),
        Case(
            7,
            4,
            "training-shapes-only",
            lambda: (lambda p, shapes: s().untested_branches(p, ablations.context().train),),
        ),
        Case(7, 4, "a-string", lambda: (lambda p, shapes: [str(x) for x in s().untested_branches(p, shapes)],)),
    ]
    return cases


@functools.cache
def _right_08(k: int) -> Any:
    return solution(8).cascade_savings() if k == 1 else solution(8).serial_and_parallel_agree()


def _nb08() -> list[Case]:
    def right(k: int) -> Any:
        return _right_08(k)

    cases = [
        Case(8, 1, "solution", lambda: (solution(8).cascade_savings,)),
        Case(8, 1, "rounded", lambda: (lambda **kw: solution(8).cascade_savings(**kw).round({"saved": 2}),)),
        Case(8, 1, "copy", lambda: (lambda **kw: right(1),)),
        Case(8, 1, "stub", lambda: (_stub,)),
        Case(8, 1, "raises", lambda: (lambda: {}["full"],)),
        Case(8, 1, "none", lambda: (None,)),
        Case(8, 1, "dict", lambda: (lambda: {"full": 1},)),
        Case(8, 1, "empty-frame", lambda: (lambda: pd.DataFrame(),)),
        Case(8, 1, "no-saved", lambda: (lambda: right(1).drop(columns="saved"),)),
        Case(8, 1, "saved-off", lambda: (lambda: right(1).assign(saved=right(1)["saved"] + 0.01),)),
        Case(8, 1, "saved-words", lambda: (lambda: right(1).assign(saved="a lot"),)),
        Case(8, 1, "full-off", lambda: (lambda: right(1).assign(full=right(1)["full"] + 1),)),
        Case(8, 2, "solution", lambda: (solution(8).serial_and_parallel_agree,)),
        Case(8, 2, "copy", lambda: (lambda **kw: right(2),)),
        Case(8, 2, "stub", lambda: (_stub,)),
        Case(8, 2, "raises", lambda: (lambda: {}["full"],)),
        Case(8, 2, "list", lambda: ([],)),
        Case(8, 2, "number", lambda: (lambda: 8800,)),
        Case(8, 2, "not-identical", lambda: (lambda: dict(right(2), identical=False),)),
        Case(8, 2, "no-runs", lambda: (lambda: {k: v for k, v in right(2).items() if k != "runs"},)),
        Case(8, 2, "parallel-off", lambda: (lambda: dict(right(2), **{"kernel runs, parallel": 8801}),)),
    ]
    return cases


@functools.cache
def arguments(case: Case) -> tuple:
    return case.make()


def _check(case: Case) -> Verdict:
    module = MODULES[case.notebook]
    with contextlib.ExitStack() as limits:
        if case.limit is not None:
            clock = runner._Limit
            shorter = functools.partial(lambda seconds, alarm, cap: clock(min(seconds, cap), alarm), cap=case.limit)
            limits.enter_context(unittest.mock.patch.object(runner, "_Limit", shorter))
        return getattr(module, f"exercise_{case.exercise}")(*arguments(case))


NOTEBOOK_NUMBERS = (5, 6, 7, 8)
ALL_CASES = _nb05() + _nb06() + _nb07() + _nb08()


def all_cases() -> dict[str, Callable[[], Verdict]]:
    """Every case by id, as verdict_sample runs them to choose the sample."""
    return {c.id: functools.partial(_check, c) for c in ALL_CASES}


def check_of(name: str) -> str:
    """The check a case runs ("nb05-ex1")."""
    return "-".join(name.split("-")[:2])


_SAMPLED = set(verdict_sample.chosen("nb05_08", all_cases()))
CASES = [c for c in ALL_CASES if c.id in _SAMPLED]
"""The cases the tests run: verdict_sample's sample, which reaches every verdict id of these checks."""


_REACHED: dict[str, set[str]] = {"en": set(), "zh": set()}
"""The verdict ids the cases run so far reached, per language."""


@functools.cache
def verdict(case: Case, language: str) -> Verdict:
    with i18n.using(language), verdict_sample.message_ids() as ids:
        found = _check(case)
    _REACHED[language] |= ids
    return found


# ----- Chinese


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # fork() in a process with threads, on some Pythons
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_the_zh_verdict_is_chinese_and_one_line(case: Case):
    zh = verdict(case, "zh")
    en = verdict(case, "en")
    assert isinstance(zh, Verdict) and zh.ok == en.ok, (str(zh), str(en))
    assert CJK.search(zh.reason), str(zh)
    assert not english_left(zh.reason), (english_left(zh.reason), str(zh))
    assert "\n" not in str(zh) and display_width(str(zh)) <= WIDTH, str(zh)


def test_the_cases_cover_every_check_with_a_solution_and_a_stub():
    for k, module in MODULES.items():
        checks = sorted(int(name.split("_")[1]) for name in dir(module) if re.fullmatch(r"exercise_\d+", name))
        for exercise in checks:
            names = {c.name for c in ALL_CASES if (c.notebook, c.exercise) == (k, exercise)}
            assert {"solution", "stub"} <= names, (k, exercise, names)


def test_the_sample_reaches_every_verdict_id_and_both_outcomes_of_every_check():
    """In both languages (the id is the sentence: its template is what the test above reads)."""
    outcomes: dict[str, set[bool]] = {}
    for case in CASES:
        for language in ("en", "zh"):
            outcomes.setdefault(check_of(case.id), set()).add(verdict(case, language).ok)
    wanted = verdict_sample.must_reach("nb05_08", NOTEBOOK_NUMBERS)
    for language in ("en", "zh"):
        missed = wanted - _REACHED[language]
        assert not missed, f"no sampled case reaches {sorted(missed)} ({language}): run verdict_sample.py --choose"
    one_sided = sorted(check for check, seen in outcomes.items() if seen != {True, False})
    assert not one_sided, f"the sample has only a ✓ or only a ✗ of {one_sided}"
    assert {check_of(c.id) for c in ALL_CASES} == set(outcomes), "a check has no sampled case"
