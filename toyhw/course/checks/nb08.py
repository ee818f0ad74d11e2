"""Notebook 08's exercise checks (08_appendix_cost_and_scale.ipynb): `checks.exercise_K(...)` -> Verdict.

Each check compares the student's kernel run counts with the pack's own (`ablations.run_one`, which spends exactly
the kernel runs of a fresh run): machine-independent numbers only, never seconds. A wrong type, a wrong value or a
function that raises gives a ✗ verdict that says why, never an exception.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from toyhw.course.check import Verdict, attempt as _attempt, failed, passed
from toyhw.evolve import ablations
from toyhw.textwidth import display_width

WIDTH = 110
"""The widest verdict line, in columns: a check cell's one line must not wrap on a projector."""

SHARE_TOLERANCE = 0.005
"""How far a share saved may be from the pack's (half a percentage point: a share rounded to 0.23 still holds)."""

GRID = (("full", "small_llm"), (0, 1), 100)
"""Exercise 2's grid: variants, seeds, budget."""


def attempt(what: str, work: Callable[[], Any]) -> tuple[Any, Verdict | None]:
    """Return `toyhw.course.check.attempt(what, work)`, its "still the stub" verdict said in fewer columns."""
    return _attempt(what, work, stub="short")


def _fit(verdict: Verdict) -> Verdict:
    """Return `verdict` with its reason cut (ending in "…") so that its line fits WIDTH columns."""
    if display_width(str(verdict)) <= WIDTH:
        return verdict
    reason = verdict.reason
    while display_width(str(Verdict(verdict.ok, reason + "…"))) > WIDTH:
        reason = reason[:-1]
    return Verdict(verdict.ok, reason.rstrip() + "…")


def _not_callable(name: str, value: Any) -> Verdict | None:
    if callable(value):
        return None
    return _fit(failed(f"{name} must be a function (def {name}(...)), got {type(value).__name__}"))


def _cell(frame: Any, seed: int, column: str) -> Any:
    """Return frame.loc[seed, column], or raise KeyError naming what is missing."""
    try:
        return frame.loc[seed, column]
    except Exception as error:
        raise KeyError(f"no row for seed {seed} with column {column!r}") from error


def exercise_1(cascade_savings: Callable[..., Any]) -> Verdict:
    """Check the frame per seed (0-4, 1000 programs): kernel runs of full and no_cascade, and the share saved."""
    name = "cascade_savings"
    if (problem := _not_callable(name, cascade_savings)) is not None:
        return problem
    frame, problem = attempt(f"{name}()", lambda: cascade_savings())
    if problem is not None:
        return _fit(problem)
    if not hasattr(frame, "loc"):
        return _fit(failed(f"{name}() must return a DataFrame indexed by seed, got {type(frame).__name__}"))
    shares = []
    for seed in ablations.SEEDS:
        full = ablations.run_one("full", seed, ablations.BUDGET).kernel_runs
        every = ablations.run_one("no_cascade", seed, ablations.BUDGET).kernel_runs
        values, problem = attempt(
            f"reading seed {seed} of the frame",
            lambda: [_cell(frame, seed, c) for c in ("full", "no_cascade", "saved")],
        )
        if problem is not None:
            return _fit(problem)
        got_full, got_every, got_saved = values
        if got_full != full or got_every != every:
            return _fit(
                failed(
                    f"seed {seed}: full {got_full!r} and no_cascade {got_every!r} kernel runs; "
                    f"the runs spend {full:,} and {every:,}"
                )
            )
        saved = 1 - full / every
        try:
            close = math.isclose(float(got_saved), saved, abs_tol=SHARE_TOLERANCE)
        except (TypeError, ValueError):
            close = False
        if not close:
            return _fit(failed(f"seed {seed}: saved is {got_saved!r}; 1 - full / no_cascade is {saved:.3f}"))
        shares.append(saved)
    return _fit(
        passed(
            f"the cascade saves {min(shares):.0%}-{max(shares):.0%} of the kernel runs on seeds "
            f"{ablations.SEEDS[0]}-{ablations.SEEDS[-1]}"
        )
    )


def exercise_2(serial_and_parallel_agree: Callable[..., Any]) -> Verdict:
    """Check the grid's run count, its kernel runs serially and in parallel, and that the results agree."""
    name = "serial_and_parallel_agree"
    if (problem := _not_callable(name, serial_and_parallel_agree)) is not None:
        return problem
    answer, problem = attempt(f"{name}()", lambda: serial_and_parallel_agree())
    if problem is not None:
        return _fit(problem)
    if not isinstance(answer, dict):
        return _fit(failed(f"{name}() must return a dict, got {type(answer).__name__}"))
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
            return _fit(failed(f"{name}() has no key {key!r} (keys: {', '.join(map(repr, expected))})"))
        if answer[key] != value:
            return _fit(failed(f"{name}()[{key!r}] is {answer[key]!r}; the grid gives {value!r}"))
    return _fit(passed(f"{runs} runs, {kernel_runs:,} kernel runs serially and on two processes, identical results"))
