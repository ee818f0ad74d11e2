"""Notebook 08's exercise checks (08_appendix_cost_and_scale.ipynb): `checks.exercise_K(...)` -> Verdict.

Each check compares the student's kernel run counts with the pack's own (`ablations.run_one`, which spends exactly
the kernel runs of a fresh run): machine-independent numbers only, never seconds. A wrong type, a wrong value or a
function that raises gives a ✗ verdict that says why, never an exception. Each function is asked again with
arguments the notebook does not show (other seeds, a smaller budget, other variants): a copy of the notebook's table
fails there.
"""

from __future__ import annotations

from typing import Any, Callable

import pandas as pd

from toyhw.course import compare, pristine
from toyhw.course.check import Verdict, attempt as _attempt, failed, not_callable, on_one_line, passed
from toyhw.evolve.experiments import ablations
from toyhw.i18n import t

SHARE_TOLERANCE = 0.005
"""How far a share saved may be from the pack's (half a percentage point: a share rounded to 0.23 still holds)."""

GRID = (("full", "small_llm"), (0, 1), 100)
"""Exercise 2's grid: variants, seeds, budget."""

SEEDS, BUDGET = tuple(ablations.SEEDS), int(ablations.BUDGET)
"""The lecture's seeds and budget as this module was imported: a cell that rebinds ablations.SEEDS changes no truth."""

OTHER_SAVINGS = {"budget": 200, "seeds": (5, 6)}
OTHER_GRID = {"names": ("no_cascade",), "seeds": (3,), "budget": 60}
"""The calls the notebook does not show (the stubs' own parameters)."""

SECONDS = 120.0
"""The time limit of one call of the student's function (the solutions take a few seconds; a cold run of the first
exercise's ten runs about half a minute)."""


def attempt(what: str, work: Callable[[], Any]) -> tuple[Any, Verdict | None]:
    """Return `toyhw.course.check.attempt(what, ...)` of `work`'s value as plain data (toyhw/course/compare.py)."""
    return _attempt(what, lambda: compare.plain(work()), SECONDS)


def _call(name: str, kwargs: dict[str, Any]) -> str:
    return f"{name}({', '.join(f'{key}={value!r}' for key, value in kwargs.items())})"


def _said_of(call: str | None, verdict: Verdict) -> Verdict:
    """`verdict`, said of the call the notebook does not show when `call` names one."""
    return verdict if call is None else failed(t("check.unseen", case=call, reason=verdict.reason))


def _cell(frame: Any, seed: int, column: str) -> Any:
    """Return frame.loc[seed, column], or raise KeyError naming what is missing."""
    try:
        return frame.loc[seed, column]
    except Exception as error:
        raise KeyError(t("check.nb08.no_cell", seed=seed, column=repr(column))) from error


def _savings_off(name: str, frame: Any, seeds: tuple[int, ...], budget: int) -> tuple[list[float], Verdict | None]:
    """The shares saved per seed, and the ✗ verdict if `frame` is not the kernel runs of full and no_cascade and the
    share saved, per seed of `seeds` at `budget`."""
    if type(frame) is not pd.DataFrame:
        return [], failed(t("check.nb08.not_a_frame", name=name, type=_type(frame)))
    shares = []
    for seed in seeds:
        full = ablations.run_one("full", seed, budget).kernel_runs
        every = ablations.run_one("no_cascade", seed, budget).kernel_runs
        try:
            got_full, got_every, got_saved = (_cell(frame, seed, c) for c in ("full", "no_cascade", "saved"))
        except KeyError as error:
            return [], failed(
                t("check.raised", what=t("check.nb08.reading_seed", seed=seed), error="KeyError", message=error.args[0])
            )
        if not compare.same(got_full, full) or not compare.same(got_every, every):
            return [], failed(
                t(
                    "check.nb08.kernel_runs_off",
                    seed=seed,
                    got_full=compare.shown(got_full),
                    got_every=compare.shown(got_every),
                    full=full,
                    every=every,
                )
            )
        saved = 1 - full / every
        if not compare.same(got_saved, saved, SHARE_TOLERANCE):
            return [], failed(t("check.nb08.saved_off", seed=seed, got=compare.shown(got_saved), saved=saved))
        shares.append(saved)
    return shares, None


@on_one_line
def exercise_1(cascade_savings: Callable[..., Any]) -> Verdict:
    """Check the frame per seed (0-4, 1000 programs): kernel runs of full and no_cascade, and the share saved; then
    for other seeds and a smaller budget."""
    name = "cascade_savings"
    if (problem := not_callable(name, cascade_savings)) is not None:
        return problem
    shares: list[float] = []
    for kwargs, (seeds, budget) in (
        ({}, (SEEDS, BUDGET)),
        (OTHER_SAVINGS, (OTHER_SAVINGS["seeds"], OTHER_SAVINGS["budget"])),
    ):
        call = _call(name, kwargs)
        frame, problem = attempt(call, lambda: cascade_savings(**kwargs))
        if problem is not None:
            return problem
        found, problem = _savings_off(name, frame, seeds, budget)
        if problem is not None:
            return _said_of(call if kwargs else None, problem)
        shares = shares or found
    return passed(
        t(
            "check.nb08.savings_passed",
            low=min(shares),
            high=max(shares),
            first=SEEDS[0],
            last=SEEDS[-1],
        )
    )


@on_one_line
def exercise_2(serial_and_parallel_agree: Callable[..., Any]) -> Verdict:
    """Check the grid's run count, its kernel runs serially and in parallel, and that the results agree; then for
    another grid."""
    name = "serial_and_parallel_agree"
    if (problem := not_callable(name, serial_and_parallel_agree)) is not None:
        return problem
    for kwargs, (variants, seeds, budget) in (
        ({}, GRID),
        (OTHER_GRID, (OTHER_GRID["names"], OTHER_GRID["seeds"], OTHER_GRID["budget"])),
    ):
        call = _call(name, kwargs)
        answer, problem = attempt(call, lambda: serial_and_parallel_agree(**kwargs))
        if problem is not None:
            return problem
        if not isinstance(answer, dict):
            return failed(t("check.nb08.not_a_dict", name=name, type=_type(answer)))
        runs = len(variants) * len(seeds)
        kernel_runs = sum(ablations.run_one(v, s, budget).kernel_runs for v in variants for s in seeds)
        expected = {
            "runs": runs,
            "kernel runs, serial": kernel_runs,
            "kernel runs, parallel": kernel_runs,
            "identical": True,
        }
        for key, value in expected.items():
            if key not in answer:
                keys = t("list.separator").join(map(repr, expected))
                return _said_of(
                    call if kwargs else None, failed(t("check.nb08.no_key", name=name, key=repr(key), keys=keys))
                )
            if not compare.same(answer[key], value):
                wrong = failed(
                    t("check.nb08.grid_off", name=name, key=repr(key), got=compare.shown(answer[key]), want=repr(value))
                )
                return _said_of(call if kwargs else None, wrong)
    variants, seeds, budget = GRID
    kernel_runs = sum(ablations.run_one(v, s, budget).kernel_runs for v in variants for s in seeds)
    return passed(t("check.nb08.grid_passed", runs=len(variants) * len(seeds), kernel_runs=kernel_runs))


def _type(value: Any) -> str:
    return value.type_name if isinstance(value, compare.Alien) else type(value).__name__


pristine.watch()
