"""Notebook 01's exercise checks: the share of correct kernels that beat PyTorch, a calmer writer, one explained fix.

Each check computes the truth with the pack on the lecture's benchmark (tasks from `random.Random(230)`, 200 of them)
and compares the student's answer with it; none compares with the solution file's code. Exercise 3's truth comes
from a different route than the exercise's: a failing kernel becomes correct after one fix exactly when it breaks one
rule only (`failures.broken_rules`), so the check counts broken rules instead of applying fixes.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from toyhw import metrics
from toyhw.course import compare, pristine
from toyhw.course.check import Verdict, attempt, failed, on_one_line, passed
from toyhw.i18n import N_, t
from toyhw.kernels import failures, knobs, optimize, study
from toyhw.kernels.knobs import KernelConfig

TOLERANCE = 1e-6
"""How far a share may be from the pack's own value: rounding only (both are ratios of the same counts), a share
computed in numpy's float32 included (its rounding is below 1e-7)."""

EAGER_TILE, CALM_TILE = 64, 32
"""Exercise 2: the tile the eager writer favours, and the one the calm writer uses instead."""

FIX_KEYS = ("failing", "correct after one fix", "still failing")
"""Exercise 3: the keys of the dict `one_explained_fix` returns (the student's keys: the same in every language)."""

OTHER_SEED, OTHER_TASKS = 7, 60
"""Another benchmark, which the notebook never shows: a right answer holds on it too, a copy of the notebook's does
not."""

CALM_SECONDS = 10.0
"""Exercise 2's time limit for the 260 calls of `calm_config` (a right one takes a few milliseconds)."""

OUTCOMES = {
    "compile errors": N_("check.nb01.outcome.compile_errors"),
    "wrong": N_("check.nb01.outcome.wrong"),
    "correct": N_("check.nb01.outcome.correct"),
}
"""Exercise 2: the outcome shares its pass compares, by `_outcome`'s key, as the verdict names them."""


def writer_report(
    writer: Callable[[random.Random], KernelConfig],
    task_seed: int = study.LECTURE_TASK_SEED,
    n_tasks: int = study.LECTURE_N_TASKS,
) -> study.OneShotReport:
    """Return the one-shot report of `writer` on the same tasks and random streams as `study.one_shot`.

    Task i's kernel is `writer(Random(task_seed + 1 + i))`, the stream the eager writer draws from, so two writers
    that make the same draws differ only where their choices differ.
    """
    return _report([writer(optimize.one_shot_rng(task_seed, i)) for i in range(n_tasks)], task_seed)


def _report(configs: Sequence[KernelConfig], task_seed: int = study.LECTURE_TASK_SEED) -> study.OneShotReport:
    """The one-shot report of the kernels `configs`, config i written for task i of the benchmark."""
    kernels = []
    for i, (task, config) in enumerate(zip(study.tasks(task_seed, len(configs)), configs)):
        feedback = knobs.run_kernel(task, config)
        kernels.append(study.OneShotKernel(i, task, config, feedback, knobs.speedup(task, feedback)))
    return study.OneShotReport(task_seed, tuple(kernels))


def _share_cases() -> list[tuple[str, Sequence[float]]]:
    """Exercise 1's inputs, each with the name its verdict gives it: the notebook's, then one it does not show."""
    return [
        (t("check.nb01.case.one_shot"), study.one_shot().speedups()),
        ("[0.0, 1.0, 1.2, 2.5]", [0.0, 1.0, 1.2, 2.5]),
        (t("check.nb01.case.no_correct"), [0.0, 0.0]),
        (t("check.nb01.case.other_seed", seed=OTHER_SEED, tasks=OTHER_TASKS), _other_report().speedups()),
    ]


def _other_report() -> study.OneShotReport:
    """The one-shot kernels of a benchmark the notebook does not show: an answer copied from the notebook fails it."""
    return study.one_shot(OTHER_SEED, OTHER_TASKS)


@on_one_line
def exercise_1(correct_and_faster_share: Callable[..., Any]) -> Verdict:
    """Whether `correct_and_faster_share(speedups, p)` is fast_p / fast_0 (0.0 without a correct kernel), for several p.

    Tried on the lecture's one-shot speedups (a numpy array, as `report.speedups()` gives them), two short lists and
    the one-shot speedups of another task seed, at p = 0.5, 1.0 and 1.5.
    """
    for label, speedups in _share_cases():
        for p in (1.0, 1.5, 0.5):
            correct = metrics.fast_p(speedups, 0.0)
            want = metrics.fast_p(speedups, p) / correct if correct else 0.0
            given = compare.copied(speedups)  # the student's function may change what it is given
            value, error = attempt(
                t("check.nb01.the_function"), lambda: compare.plain(correct_and_faster_share(given, p))
            )
            if error is not None:  # a failed Verdict is falsy
                return error
            got = compare.number(value)
            if got is None:
                return failed(t("check.nb01.exercise_1.not_a_number", value=compare.shown(value)))
            if not math.isclose(got, want, rel_tol=0.0, abs_tol=TOLERANCE):
                got_text, want_text = compare.apart(got, want)
                return failed(t("check.nb01.exercise_1.differs", case=label, p=p, got=got_text, want=want_text))
    lecture = study.one_shot().speedups()
    share = metrics.fast_p(lecture, 1.0) / metrics.fast_p(lecture, 0.0)
    return passed(t("check.nb01.exercise_1.passed", share=share))


def _calm(config: KernelConfig) -> KernelConfig:
    return config.replace(tile=CALM_TILE) if config.tile == EAGER_TILE else config


def _outcome(report: study.OneShotReport) -> dict[str, float]:
    shares = report.status_shares()
    return {
        "compile errors": shares["compile_error"],
        "wrong": shares["wrong"],
        "correct": shares["ok"],
        "fast_1": report.fast((1.0,))[1.0],
    }


def _streams() -> list[tuple[str, Callable[[], random.Random]]]:
    """Exercise 2's random streams, each with its name: the lecture's tasks', then another task seed's."""
    lecture = [
        (t("check.nb01.case.task", task=i), lambda i=i: optimize.one_shot_rng(study.LECTURE_TASK_SEED, i))
        for i in range(study.LECTURE_N_TASKS)
    ]
    other = [
        (t("check.nb01.case.stream", seed=OTHER_SEED + 1 + i), lambda i=i: optimize.one_shot_rng(OTHER_SEED, i))
        for i in range(OTHER_TASKS)
    ]
    return lecture + other


@on_one_line
def exercise_2(calm_config: Callable[[random.Random], Any]) -> Verdict:
    """Whether `calm_config(rng)` makes the eager writer's draws with tile 64 replaced by 32, on every lecture task's
    stream and on the streams of another task seed.

    The eager writer is `knobs.random_config`; both get task i's stream, Random(230 + 1 + i). A pass shows the calm
    writer's outcome shares and fast_1 beside the eager one's.
    """
    streams = _streams()
    configs, error = attempt(
        "calm_config", lambda: [compare.plain(calm_config(stream())) for _, stream in streams], CALM_SECONDS
    )
    if error is not None:  # a failed Verdict is falsy
        return error
    for (label, stream), got in zip(streams, configs):
        want = _calm(knobs.random_config(stream()))
        if type(got) is not KernelConfig:
            return failed(t("check.nb01.exercise_2.not_a_config", type=_type(got)))
        if not compare.same(got, want):
            knob = next(k for k in knobs.KNOBS if not compare.same(getattr(got, k), getattr(want, k)))
            return failed(
                t("check.nb01.exercise_2.knob", case=label, knob=knob, got=getattr(got, knob), want=getattr(want, knob))
            )
    calm, eager = _outcome(_report(configs[: study.LECTURE_N_TASKS])), _outcome(study.one_shot())
    shown = t("list.separator").join(
        t("check.nb01.exercise_2.share", outcome=t(OUTCOMES[name]), calm=calm[name], eager=eager[name])
        for name in OUTCOMES
    )
    return passed(t("check.nb01.exercise_2.passed", shares=shown, calm=calm["fast_1"], eager=eager["fast_1"]))


def _type(value: Any) -> str:
    """The type a verdict names: an Alien's own (a student's class), else the value's."""
    return value.type_name if isinstance(value, compare.Alien) else type(value).__name__


def _fix_counts(value: Any, report: study.OneShotReport) -> str | None:
    """Why `value` (plain data) is not the one explained fix's counts for `report`, or None if it is."""
    if not isinstance(value, dict):
        return t("check.nb01.exercise_3.not_a_dict", type=_type(value))
    missing = [key for key in FIX_KEYS if key not in value]
    if missing:
        return t("check.nb01.exercise_3.no_key", key=repr(missing[0]), keys=", ".join(map(repr, FIX_KEYS)))
    counts = {key: compare.whole(value[key]) for key in FIX_KEYS}
    if any(c is None for c in counts.values()):
        return t("check.nb01.exercise_3.not_whole", values=compare.shown([value[k] for k in FIX_KEYS]))
    failing = [k for k in report.kernels if not k.feedback.ok]
    one_rule = sum(len(failures.broken_rules(k.task, k.config)) == 1 for k in failing)
    if counts["failing"] != len(failing):
        return t("check.nb01.exercise_3.failing", got=compare.shown(counts["failing"]), failing=len(failing))
    if counts["correct after one fix"] + counts["still failing"] != counts["failing"]:
        return t("check.nb01.exercise_3.no_sum")
    if counts["correct after one fix"] != one_rule:
        return t("check.nb01.exercise_3.fixed", got=compare.shown(counts["correct after one fix"]))
    return None


@on_one_line
def exercise_3(one_explained_fix: Callable[..., Any]) -> Verdict:
    """Whether `one_explained_fix(report)` counts the failing one-shot kernels that one explained fix makes correct,
    on the lecture's report and on another task seed's.

    The truth: of the failing kernels, those that break exactly one rule become correct after one fix (the fix
    removes that rule's choice), and those that break two or more still fail.
    """
    for report, label in ((study.one_shot(), None), (_other_report(), f"study.one_shot({OTHER_SEED}, {OTHER_TASKS})")):
        given = compare.copied(report)  # the report is the notebook's (cached): the student's function gets a copy
        value, error = attempt("one_explained_fix", lambda: compare.plain(one_explained_fix(given)))
        if error is not None:  # a failed Verdict is falsy
            return error
        wrong = _fix_counts(value, report)
        if wrong is not None:
            return failed(wrong if label is None else t("check.unseen", case=label, reason=wrong))
    report = study.one_shot()
    failing = [k for k in report.kernels if not k.feedback.ok]
    one_rule = sum(len(failures.broken_rules(k.task, k.config)) == 1 for k in failing)
    return passed(
        t("check.nb01.exercise_3.passed", fixed=one_rule, failing=len(failing), still=len(failing) - one_rule)
    )


pristine.watch()
