"""Notebook 08's exercise checks (08_appendix_cost_and_scale.ipynb): `checks.exercise_K(...)` -> Verdict.

Each check compares the student's kernel run counts with the pack's own (`ablations.run_one`, which spends exactly
the kernel runs of a fresh run): machine-independent numbers only, never seconds. A wrong type, a wrong value or a
function that raises gives a ✗ verdict that says why, never an exception.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from toyhw.course.check import Verdict, attempt as _attempt, failed, not_callable, on_one_line, passed
from toyhw.evolve import ablations
from toyhw.i18n import t

SHARE_TOLERANCE = 0.005
"""How far a share saved may be from the pack's (half a percentage point: a share rounded to 0.23 still holds)."""

GRID = (("full", "small_llm"), (0, 1), 100)
"""Exercise 2's grid: variants, seeds, budget."""


def attempt(what: str, work: Callable[[], Any]) -> tuple[Any, Verdict | None]:
    """Return `toyhw.course.check.attempt(what, work)`, its "still the stub" verdict said in fewer columns."""
    return _attempt(what, work, stub="short")


def _cell(frame: Any, seed: int, column: str) -> Any:
    """Return frame.loc[seed, column], or raise KeyError naming what is missing."""
    try:
        return frame.loc[seed, column]
    except Exception as error:
        raise KeyError(t("check.nb08.no_cell", seed=seed, column=repr(column))) from error


@on_one_line
def exercise_1(cascade_savings: Callable[..., Any]) -> Verdict:
    """Check the frame per seed (0-4, 1000 programs): kernel runs of full and no_cascade, and the share saved."""
    name = "cascade_savings"
    if (problem := not_callable(name, cascade_savings)) is not None:
        return problem
    frame, problem = attempt(f"{name}()", lambda: cascade_savings())
    if problem is not None:
        return problem
    if not hasattr(frame, "loc"):
        return failed(t("check.nb08.not_a_frame", name=name, type=type(frame).__name__))
    shares = []
    for seed in ablations.SEEDS:
        full = ablations.run_one("full", seed, ablations.BUDGET).kernel_runs
        every = ablations.run_one("no_cascade", seed, ablations.BUDGET).kernel_runs
        values, problem = attempt(
            t("check.nb08.reading_seed", seed=seed),
            lambda: [_cell(frame, seed, c) for c in ("full", "no_cascade", "saved")],
        )
        if problem is not None:
            return problem
        got_full, got_every, got_saved = values
        if got_full != full or got_every != every:
            return failed(
                t(
                    "check.nb08.kernel_runs_off",
                    seed=seed,
                    got_full=repr(got_full),
                    got_every=repr(got_every),
                    full=full,
                    every=every,
                )
            )
        saved = 1 - full / every
        try:
            close = math.isclose(float(got_saved), saved, abs_tol=SHARE_TOLERANCE)
        except (TypeError, ValueError):
            close = False
        if not close:
            return failed(t("check.nb08.saved_off", seed=seed, got=repr(got_saved), saved=saved))
        shares.append(saved)
    return passed(
        t(
            "check.nb08.savings_passed",
            low=min(shares),
            high=max(shares),
            first=ablations.SEEDS[0],
            last=ablations.SEEDS[-1],
        )
    )


@on_one_line
def exercise_2(serial_and_parallel_agree: Callable[..., Any]) -> Verdict:
    """Check the grid's run count, its kernel runs serially and in parallel, and that the results agree."""
    name = "serial_and_parallel_agree"
    if (problem := not_callable(name, serial_and_parallel_agree)) is not None:
        return problem
    answer, problem = attempt(f"{name}()", lambda: serial_and_parallel_agree())
    if problem is not None:
        return problem
    if not isinstance(answer, dict):
        return failed(t("check.nb08.not_a_dict", name=name, type=type(answer).__name__))
    variants, seeds, budget = GRID
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
            return failed(t("check.nb08.no_key", name=name, key=repr(key), keys=keys))
        if answer[key] != value:
            return failed(t("check.nb08.grid_off", name=name, key=repr(key), got=repr(answer[key]), want=repr(value)))
    return passed(t("check.nb08.grid_passed", runs=runs, kernel_runs=kernel_runs))
