"""Notebooks 01-04's exercise checks speak the notebook's language: in the zh edition every verdict is a Chinese
sentence on one line, for the solution, the stub and the wrong answers alike; in English they say what they said.

Why: a zh notebook's check cell prints its verdict under a Chinese exercise, and a sentence left in English (or a
Chinese one that wraps on the projector, a CJK character taking two columns) is what the room sees. Python's own
exception texts stay as raised, so the test reads only the check's own words. The tests run a sample of the answers
below that reaches every verdict id (tests/course/verdict_sample.py; TOYHW_ALL_VERDICTS=1 runs them all).

The English verdicts of these inputs were recorded before the sentences moved to the catalogue and compared after; to
compare them again around a change, record them with the code before it (e.g. PYTHONPATH=<a checkout of main>
python tests/course/test_check_language_nb01_04.py --record FILE) and run this file with TOYHW_VERDICTS_BEFORE=FILE
(memory addresses in a student's repr aside, the lines must be equal).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import pathlib
import re
import sys
from collections.abc import Callable

import numpy as np
import pandas as pd
import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))  # exercise_cells, when run as a script
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))  # verdict_sample

from exercise_cells import NOTEBOOKS, load_solution  # noqa: E402
import verdict_sample  # noqa: E402
from verdict_text import CJK, english_left  # noqa: E402
from toyhw import i18n, metrics  # noqa: E402
from toyhw.course import check  # noqa: E402
from toyhw.course.check import Verdict  # noqa: E402
from toyhw.course.checks import nb01, nb02, nb03, nb04  # noqa: E402
from toyhw.evolve import variants  # noqa: E402
from toyhw.evolve.experiments import ablations  # noqa: E402
from toyhw.evolve.programs import Program, Rule, expert_program  # noqa: E402
from toyhw.gemm import expert, shapes, vllm  # noqa: E402
from toyhw.gemm.config import GemmConfig  # noqa: E402
from toyhw.gemm.time_table import shared_table  # noqa: E402
from toyhw.kernels import knobs, proposers  # noqa: E402
from toyhw.textwidth import display_width  # noqa: E402

CHECKS = {1: nb01, 2: nb02, 3: nb03, 4: nb04}
BEFORE = os.environ.get("TOYHW_VERDICTS_BEFORE")
"""A JSON file of the English verdicts recorded before a change ({case: verdict line}), or None."""


def test_english_left_finds_a_sentence_and_spares_identifiers_values_and_raised_texts():
    assert english_left("任务 1：the eager writer's draws, with the tile made smaller")
    assert not english_left("calm_config 抛出了 TypeError：<lambda>() takes 0 positional arguments but 1 was given")
    assert not english_left("这个 dict 没有键 'correct after one fix'（需要 'failing', 'still failing'）")


# ----- the answers: the solution files', the stub, and the wrong answers tests/course/test_checks_nb0K.py use


def _stub(*args, **kwargs):
    raise NotImplementedError


def _raises_long(*args, **kwargs):
    raise KeyError("a student's bug,\nlong and on several lines " * 8)


def _raises_short(*args, **kwargs):
    raise KeyError("full")


def _broken(*args, **kwargs):
    raise ZeroDivisionError("oops " * 40)


class _Unprintable:
    """An answer whose repr raises: the verdict still names it."""

    def __init__(self, *args, **kwargs):
        pass

    def __repr__(self):
        raise ValueError("no repr")


class _AlwaysEqual(knobs.KernelConfig):
    """A config that says it equals anything."""

    def __eq__(self, other):
        return True

    __hash__ = knobs.KernelConfig.__hash__


@functools.cache
def _solution(number: str):
    return load_solution(next(NOTEBOOKS.glob(f"{number}_*.ipynb")))


def _nb01() -> dict[str, Callable[[], Verdict]]:
    s = _solution("01")

    def redrawn(rng):
        config = knobs.random_config(rng)
        return knobs.random_config(rng) if config.tile == 64 else config

    def fixes_everything(report, seed=0):
        failing = sum(not k.feedback.ok for k in report.kernels)
        return {"failing": failing, "correct after one fix": failing, "still failing": 0}

    answers = {
        1: [
            s.correct_and_faster_share,
            _stub,
            _raises_long,
            lambda s, p=1.0: "0.76",
            lambda s, p=1.0: None,
            lambda s, p=1.0: metrics.fast_p(s, p),
            lambda s, p=1.0: metrics.fast_p(s, p) / metrics.fast_p(s, 0.0),
            lambda s, p=1.0: metrics.fast_p(s, 1.0) / max(metrics.fast_p(s, 0.0), 1e-9),
            lambda s: 0.5,
            lambda s, p=1.0: 1.0 if max(s) <= 0 else metrics.fast_p(s, p) / metrics.fast_p(s, 0.0),  # 1.0 for none
            lambda s, p=1.0: 0.762,  # the notebook's answer, copied
            lambda s, p=1.0: np.float32(0.7619048),
            lambda s, p=1.0: print("x" * 100_000) or 0.762,
            lambda s, p=1.0: 10**5000,
            lambda s, p=1.0: sys.exit(3),
            _Unprintable,
        ],
        2: [
            s.calm_config,
            _stub,
            _raises_long,
            knobs.random_config,
            lambda rng: knobs.random_config(rng).replace(tile=32),
            redrawn,
            lambda rng: knobs.random_config(rng).as_dict(),
            lambda: knobs.DEFAULT,
            lambda rng: _AlwaysEqual(),
        ],
        3: [
            s.one_explained_fix,
            _stub,
            _raises_long,
            lambda report, seed=0: [116, 86, 30],
            lambda report, seed=0: {"failing": 116, "fixed": 86, "still failing": 30},
            lambda report, seed=0: {"failing": 116, "correct after one fix": 86.5, "still failing": 29.5},
            lambda report, seed=0: {"failing": 200, "correct after one fix": 170, "still failing": 30},
            lambda report, seed=0: {"failing": 116, "correct after one fix": 86, "still failing": 31},
            fixes_everything,
            lambda report, seed=0: {"failing": 116, "correct after one fix": 86, "still failing": 30},  # copied
        ],
    }
    return {
        f"nb01.exercise_{k}.{i}": functools.partial(getattr(nb01, f"exercise_{k}"), answer)
        for k, given in answers.items()
        for i, answer in enumerate(given)
    }


def _nb02() -> dict[str, Callable[[], Verdict]]:
    s = _solution("02")

    def starting_point(feedback, config, rng):
        return knobs.KernelConfig() if not feedback.ok else knobs.mutate(config, rng)

    def noisy(q):
        def propose(feedback, config, rng):
            if not feedback.ok:
                return proposers.fix_failure(feedback, config, rng)
            return proposers.suggest(feedback, config, rng) if rng.random() < q else knobs.mutate(config, rng)

        return propose

    def scalar_in_the_middle(q):  # the ends exact, the middle far from explain
        return proposers.explain if q == 0 else proposers.suggest if q == 1 else (lambda f, c, r: knobs.mutate(c, r))

    def half_reading(feedback, config, rng):  # misreads some errors, reads others, never tunes a working kernel
        if feedback.ok:
            return config
        return proposers.explain(feedback, config, rng) if rng.random() < 0.5 else knobs.KernelConfig()

    proposer_bad = [
        object(),
        None,
        3,
        "explain",
        _stub,
        lambda feedback, config, rng: 1 / 0,
        lambda feedback, config, rng: None,
        lambda feedback, config, rng: config,
        lambda *args: (_ for _ in ()).throw(TypeError("boom")),
    ]

    def follows_always(q):
        def propose(feedback, config, rng):
            return proposers.suggest(feedback, config, rng)

        return propose

    def misreads_shared_memory(feedback, config, rng):
        if feedback.cause == "shared_memory_overflow":
            return knobs.mutate(config, rng)
        return proposers.explain(feedback, config, rng)

    answers = {
        1: [s.my_proposer, *proposer_bad, starting_point, proposers.suggest, lambda f, c, r: c.as_dict()],
        2: [
            s.adviser,
            None,
            3,
            _stub,
            lambda q: None,
            lambda q: proposers.explain,
            lambda q: proposers.suggest,
            lambda q: 1 / 0,
            lambda q: _stub,
            noisy,
            scalar_in_the_middle,
            follows_always,
            lambda q: proposers.explain if q < 1 else proposers.suggest,  # the notebook's answer, copied
        ],
        3: [s.vec_one_proposer, *proposer_bad, proposers.explain],
        4: [
            s.hopeless,
            [(False, 2), (np.False_, np.int64(1))],
            [(False, 2), (0, 1)],
            {("False", 1), (False, 2)},
            {("yes", "2")},
            None,
            3,
            "ab",
            {(True, 4)},
            {(False, 1)},
            {(False, 1), (False, 2), (True, 4)},
            {(False, 8)},
            [(1, 2, 3)],
            {("x", "y")},
            set(),
        ],
        5: [
            s.misreading_explain,
            *proposer_bad,
            proposers.explain,
            lambda f, c, rng: knobs.mutate(c, rng),
            half_reading,
            misreads_shared_memory,
        ],
    }
    return {
        f"nb02.exercise_{k}.{i}": functools.partial(getattr(nb02, f"exercise_{k}"), answer)
        for k, given in answers.items()
        for i, answer in enumerate(given)
    }


def _nb03() -> dict[str, Callable[[], Verdict]]:
    s = _solution("03")
    table = shared_table("H100")

    def the_expert(M, N, K):
        return expert.expert_config(shapes.Shape("yours", M, N, K))

    def narrow_stages(M, N, K):
        config = s.choose(M, N, K)
        return dataclasses.replace(config, num_stages=4) if N <= 2048 else config

    unlaunchable = GemmConfig(128, 256, 64, num_warps=8, num_stages=5)
    odd = [object(), lambda *a: float("nan"), lambda *a: {1: object()}, lambda *a: iter(())]
    not_functions = [None, 3, "choose", [1, 2]]

    def right4(found):
        return s.error_without_timing(found)

    answers = {
        1: [
            s.choose,
            the_expert,
            _stub,
            _broken,
            lambda M, N, K: None,
            lambda M, N, K: unlaunchable,
            lambda M, N, K: table.oracle(shapes.Shape("x", M, N, K))[0],
            lambda M, N, K: dataclasses.replace(s.choose(M, N, K), num_stages=3 if K > 8000 else 4),
            narrow_stages,
            lambda M, N, K: dataclasses.replace(s.choose(16, 4096, 4096), num_stages=3 if K > 8000 else 4),
            *not_functions,
            *odd,
        ],
        2: [
            s.oracle_block_m,
            _stub,
            _broken,
            lambda gpu_name: {16: 16, 24: 64, 48: 64, 64: 64},
            lambda gpu_name: {16: 16},
            lambda gpu_name: [16, 64, 64, 64],
            lambda gpu_name, layer="8B gate_up", ms=(16, 24, 48, 64): s.oracle_block_m("H100"),  # copied
            *not_functions,
            *odd,
        ],
        3: [
            s.vllm_ranks_at,
            lambda s: vllm.vllm_ranks(shared_table("H100")),
            _stub,
            _broken,
            lambda s: [1, 2, 3],
            lambda s: None,
            lambda s: vllm.vllm_ranks(shared_table("H100"))[:3],
            lambda latency: _solution("03").vllm_ranks_at(0.5e-6),  # the notebook's first answer, copied
            *not_functions,
            *odd,
        ],
        4: [
            s.error_without_timing,
            _stub,
            _broken,
            lambda found: {k: (b, a) for k, (a, b) in right4(found).items()},
            lambda found: {k: (a, b + 0.01) for k, (a, b) in right4(found).items()},  # the kernel-only error off
            lambda found: {k: v for k, v in right4(found).items() if k != "all"},
            lambda found: {k: "8.5%" for k in right4(found)},
            lambda found: 0.085,
            lambda found: right4(list(nb03._found())),  # the notebook's answer, copied
            *not_functions,
            *odd,
        ],
    }
    return {
        f"nb03.exercise_{k}.{i}": functools.partial(getattr(nb03, f"exercise_{k}"), answer)
        for k, given in answers.items()
        for i, answer in enumerate(given)
    }


@functools.cache
def _study() -> ablations.AblationStudy:
    return ablations.ablation_study(variants.available(), ablations.SEEDS, ablations.BUDGET)


class _Unreadable(pd.DataFrame):
    """A frame whose rows cannot be read by label (as an index the student built in some other shape)."""

    @property
    def loc(self):
        raise IndexError("a student's index")


def _shifted(frame: pd.DataFrame, column: str, by: float = 0.01) -> pd.DataFrame:
    frame = frame.copy()
    frame[column] = frame[column] + by
    return frame


def _nb04() -> dict[str, Callable[[], Verdict]]:
    s = _solution("04")

    @functools.cache
    def right(k: int):
        return {
            1: s.ablation_gap,
            2: s.adoption_sweep,
            3: s.focus_report,
            4: lambda: s.new_shape_scores(_study()),
            5: s.best_m_only_program,
        }[k]()

    def tests_n():
        r = right(5)
        return Program((Rule(r.default, m_max=16, n_max=1280),) + r.rules, r.default)

    cases: dict[str, tuple] = {
        "1.solution": (s.ablation_gap, s.gap_grows),
        "1.stub": (_stub, None),
        "1.shifted": (lambda: _shifted(right(1), "gap"), True),
        "1.not_grows": (lambda: right(1), False),
        "1.none": (lambda: right(1), None),
        "1.yes": (lambda: right(1), "yes"),
        "1.no_column": (lambda: right(1).drop(columns="gap"), True),
        "1.no_row": (lambda: right(1).drop(index=2000), True),
        "1.series": (lambda: right(1)["gap"], True),
        "1.nothing": (lambda: None, True),
        "1.text": (lambda: right(1).assign(gap="big"), True),
        "1.raises": (_raises_short, True),
        "1.raises_long": (_raises_long, True),
        "1.doubled": (lambda: pd.concat([right(1), right(1)]), True),  # a cell's repr spans lines
        "1.unreadable": (lambda: _Unreadable(right(1)), True),
        "2.solution": (s.adoption_sweep, s.adopting_helps),
        "2.stub": (_stub, None),
        "2.shifted": (lambda: _shifted(right(2), "median", 0.002), True),
        "2.not_helps": (lambda: right(2), False),
        "2.reset": (lambda: right(2).reset_index(), True),
        "2.nan": (lambda: right(2).assign(median=float("nan")), True),
        "2.number": (lambda: 1.123, True),
        "2.raises": (_raises_short, True),
        "1.copy": (lambda **kwargs: right(1), True),
        "2.copy": (lambda **kwargs: right(2), True),
        "3.copy": (lambda **kwargs: right(3),),
        "3.solution": (s.focus_report,),
        "3.stub": (_stub,),
        "3.shifted": (lambda: _shifted(right(3), "child beat its parent"),),
        "3.shifted_shapes": (lambda: _shifted(right(3), "shapes targeted", 1),),
        "3.no_column": (lambda: right(3).drop(columns="faster config known"),),
        "3.reset": (lambda: right(3).reset_index(),),
        "3.full_only": (lambda: right(3).loc[["full"]],),
        "3.list": (lambda: [right(3)],),
        "3.raises": (_raises_short,),
        "5.solution": (s.best_m_only_program,),
        "5.stub": (_stub,),
        "5.expert": (expert_program,),
        "5.tests_n": (tests_n,),
        "5.worse": (lambda: Program(right(5).rules[1:], right(5).default),),
        "5.text": (lambda: "def choose(M, N, K): ...",),
        "5.raises": (_raises_short,),
    }
    study_cases = {
        "4.solution": (s.new_shape_scores, s.best_on_new_shapes),
        "4.shifted": (lambda st: _shifted(right(4), "new shapes (median)"), "no_meta_prompt"),
        "4.full": (lambda st: right(4), "full"),
        "4.none": (lambda st: right(4), None),
        "4.list": (lambda st: right(4), ["no_meta_prompt"]),
        "4.renamed": (lambda st: right(4).rename(columns={"new shapes (median)": "median"}), "no_meta_prompt"),
        "4.no_row": (lambda st: right(4).drop(index="full"), "no_meta_prompt"),
        "4.copy": (lambda st: right(4), "no_meta_prompt"),
    }

    def call(name: str, args: tuple) -> Callable[[], Verdict]:
        k = name.split(".")[0]
        return functools.partial(getattr(nb04, f"exercise_{k}"), *args)

    found = {f"nb04.exercise_{name}": call(name, args) for name, args in cases.items()}
    for name, (answer, best) in study_cases.items():
        found[f"nb04.exercise_{name}"] = lambda answer=answer, best=best: nb04.exercise_4(answer, _study(), best)
    found["nb04.exercise_4.stub"] = lambda: nb04.exercise_4(_stub, _study(), None)
    found["nb04.exercise_4.raises"] = lambda: nb04.exercise_4(_raises_short, _study(), "no_meta_prompt")
    return found


NOTEBOOK_NUMBERS = (1, 2, 3, 4)


@functools.cache
def all_cases() -> dict[str, Callable[[], Verdict]]:
    """Every check of notebooks 01-04 on every answer above, by name ("nb02.exercise_4.3")."""
    return {**_nb01(), **_nb02(), **_nb03(), **_nb04()}


def check_of(name: str) -> str:
    """The check a case runs ("nb02.exercise_4")."""
    return name.rsplit(".", 1)[0]


@functools.cache
def cases() -> dict[str, Callable[[], Verdict]]:
    """The cases the tests run: verdict_sample's sample, which reaches every verdict id of these checks."""
    every = all_cases()
    return {name: every[name] for name in verdict_sample.chosen("nb01_04", every)}


@functools.cache
def _run(language: str) -> tuple[dict[str, Verdict], frozenset[str]]:
    with i18n.using(language), verdict_sample.message_ids() as ids:
        found = {name: work() for name, work in cases().items()}
    return found, frozenset(ids)


def verdicts(language: str) -> dict[str, Verdict]:
    """Every sampled case's verdict in `language` (computed once, the verdict ids it reached recorded)."""
    return _run(language)[0]


# ----- the tests


def test_every_case_gives_a_verdict_and_covers_both_outcomes():
    found = verdicts("zh")
    assert all(isinstance(v, Verdict) for v in found.values())
    for check_name in {name.rsplit(".", 1)[0] for name in found}:
        given = [v for name, v in found.items() if name.startswith(check_name + ".")]
        assert any(v.ok for v in given) and any(not v.ok for v in given), check_name
    checks = {f"nb{n:02d}.{name}" for n, m in CHECKS.items() for name in dir(m) if re.fullmatch(r"exercise_\d+", name)}
    assert {check_of(name) for name in found} == checks


def test_the_sample_reaches_every_verdict_id_of_these_checks():
    """In both languages (the id is the sentence: its template is what a language test reads)."""
    wanted = verdict_sample.must_reach("nb01_04", NOTEBOOK_NUMBERS)
    for language in ("en", "zh"):
        missed = wanted - _run(language)[1]
        assert not missed, f"no sampled case reaches {sorted(missed)} ({language}): run verdict_sample.py --choose"


def test_a_zh_verdict_is_a_chinese_sentence_on_one_line():
    problems, english = {}, verdicts("en")
    for name, verdict in verdicts("zh").items():
        line = str(verdict)
        found = []
        if not CJK.search(verdict.reason):
            found.append("no Chinese")
        if english_left(verdict.reason):
            found.append(f"English left: {english_left(verdict.reason)}")
        if "\n" in line or display_width(line) > check.WIDTH:
            found.append(f"{display_width(line)} columns")
        if verdict.reason.endswith("…") and "抛出了" not in verdict.reason and not english[name].reason.endswith("…"):
            found.append("cut short where the English is whole")  # a student's long error or value may be cut
        if found:
            problems[name] = (line, found)
    assert not problems, "\n".join(f"{name}: {line}  <- {', '.join(why)}" for name, (line, why) in problems.items())


def test_the_zh_verdicts_match_the_english_ones_in_outcome():
    english, chinese = verdicts("en"), verdicts("zh")
    assert {n: v.ok for n, v in english.items()} == {n: v.ok for n, v in chinese.items()}
    assert not any(CJK.search(str(v)) for v in english.values())


def test_a_non_callable_proposer_is_named_in_exercise_1_of_notebook_02():
    for value in (object(), None, 3, "explain"):
        for language, words in (("en", "not a function"), ("zh", "不是函数")):
            with i18n.using(language):
                verdict = nb02.exercise_1(value)
            assert not verdict.ok and "my_proposer" in verdict.reason and words in verdict.reason, verdict


def _no_address(line: str) -> str:
    """`line` without the memory addresses a repr of a student's object shows (they differ from run to run)."""
    return re.sub(r"0?x[0-9a-f]{6,}", "0x…", line)


@pytest.mark.skipif(BEFORE is None, reason="TOYHW_VERDICTS_BEFORE names no recording of the English verdicts")
def test_the_english_verdicts_are_the_recorded_ones():
    before = {name: _no_address(line) for name, line in json.loads(pathlib.Path(BEFORE).read_text("utf-8")).items()}
    now = {name: _no_address(str(v)) for name, v in verdicts("en").items()}
    differ = {name: (before[name], now[name]) for name in now if name in before and before[name] != now[name]}
    assert set(now) <= set(before) and not differ, "\n".join(f"{n}:\n  {a}\n  {b}" for n, (a, b) in differ.items())


if __name__ == "__main__":
    if sys.argv[1:2] != ["--record"] or len(sys.argv) != 3:
        sys.exit("usage: python tests/course/test_check_language_nb01_04.py --record FILE")
    with i18n.using("en"):
        recorded = {name: str(work()) for name, work in all_cases().items()}
    pathlib.Path(sys.argv[2]).write_text(json.dumps(recorded, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{len(recorded)} English verdicts recorded in {sys.argv[2]}")
