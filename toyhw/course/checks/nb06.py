"""Notebook 06's exercise checks: each recomputes the exercise's quantity with the pack and compares the student's.

The runs are the notebook's own (the full method and Section 5's variants on `ablations.context()`, seed 0), so a
verdict is the same on every laptop. A function that raises, returns the wrong type or misses a column gets a ✗
verdict naming the problem, never a traceback.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd

from toyhw.course.check import Verdict, attempt, failed, passed
from toyhw.evolve import ablations, targeting, variants
from toyhw.evolve.evaluator import Evaluator
from toyhw.evolve.llm import peek_target
from toyhw.evolve.loop import StepRecord, evolve
from toyhw.gemm import cost as gemm_cost
from toyhw.gemm.time_table import shared_table

WIDTH = 110
"""A verdict is one line of at most this many columns (a projector wraps anything longer)."""
SEED, BUDGET = 0, 300
"""The run every check reads: the lecture's demo 2 (seed 0, 300 proposed programs)."""
VARIANTS = ("full", "fb_roofline", "fb_worst3", "no_feedback")
"""Exercise 1's variants: Section 5's four ways to read the feedback."""
BUDGETS = (100, 200, 300, 500, 700, 1000)
"""Exercise 2's budgets."""
THRESHOLD = 0.6
"""Exercise 3's threshold on the oracle's share of the roofline."""
GPUS = ("H100", "B200")
"""Exercise 4's two GPUs."""
TOLERANCE = 0.006
"""Shares and ratios may be rounded to two decimals (the tables print them so): a gap up to this is no error."""


def _one_line(verdict: Verdict) -> Verdict:
    if len(str(verdict)) <= WIDTH:
        return verdict
    return Verdict(verdict.ok, verdict.reason[: WIDTH - 3] + "…")


def _run(what: str, work: Callable[[], Any]) -> tuple[Any, Verdict | None]:
    value, verdict = attempt(what, work, stub="first")
    return value, (None if verdict is None else _one_line(verdict))


def _not_callable(name: str, value: Any) -> Verdict | None:
    return None if callable(value) else failed(f"{name} is {type(value).__name__}, not a function.")


def _number(value: Any) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def _frame(name: str, value: Any, columns: Sequence[str]) -> Verdict | None:
    if not isinstance(value, pd.DataFrame):
        return failed(f"{name} returned {type(value).__name__}, not a pandas DataFrame.")
    missing = [c for c in columns if c not in value.columns]
    if missing:
        return _one_line(failed(f"{name}'s frame has no column {', '.join(repr(c) for c in missing)}."))
    return None


def _stuck_share(name: str, seed: int, budget: int) -> float:
    """The share of `name`'s proposals whose target (read with `peek_target`) is stuck for the step's parent."""
    spec = variants.get(name)
    stuck: list[bool] = []

    def note(step: StepRecord) -> None:
        index = peek_target(spec.llm, step.feedback, step.rng)
        stuck.append(not targeting.known_improvement(float(step.feedback.vs_best[index])))

    ctx = ablations.context()
    evolve(Evaluator(ctx.train, ctx.table), budget, seed=seed, llm=spec.llm, config=spec.config, observer=note)
    return sum(stuck) / len(stuck)


def exercise_1(stuck_target_share: Callable) -> Verdict:
    """Whether `stuck_target_share(name, 0, 300)` is the pack's share for each of Section 5's four variants."""
    if (bad := _not_callable("stuck_target_share", stuck_target_share)) is not None:
        return bad
    got = {}
    for name in VARIANTS:
        value, error = _run("stuck_target_share", lambda: stuck_target_share(name, SEED, BUDGET))
        if error is not None:
            return error
        share = _number(value)
        if share is None:
            return failed(
                f"stuck_target_share({name!r}, {SEED}, {BUDGET}) returned {type(value).__name__}, "
                "not a share (a number)."
            )
        want = _stuck_share(name, SEED, BUDGET)
        if abs(share - want) > 1e-9:
            return _one_line(
                failed(
                    f"stuck_target_share({name!r}, {SEED}, {BUDGET}) = {share:.3f}; counted "
                    f"target by target it is {want:.3f}."
                )
            )
        got[name] = share
    return _one_line(
        passed(
            "seed 0, first 300 proposals: "
            + ", ".join(f"{n} {v:.0%}" for n, v in got.items())
            + " aim at a stuck shape."
        )
    )


def exercise_2(stuck_share_by_budget: Callable) -> Verdict:
    """Whether `stuck_share_by_budget(0, BUDGETS)` holds, per budget, the stuck shapes and both weightings' shares."""
    if (bad := _not_callable("stuck_share_by_budget", stuck_share_by_budget)) is not None:
        return bad
    frame, error = _run("stuck_share_by_budget", lambda: stuck_share_by_budget(SEED, BUDGETS))
    if error is not None:
        return error
    columns = ("stuck shapes", "roofline", "best seen")
    if (bad := _frame("stuck_share_by_budget", frame, columns)) is not None:
        return bad
    for budget in BUDGETS:
        if budget not in frame.index:
            return failed(f"stuck_share_by_budget's frame has no row for budget {budget} (index the rows by budget).")
        t = targeting.targeting(SEED, budget)
        want = {
            "stuck shapes": t.n_stuck,
            "roofline": t.share_on_stuck["roofline"],
            "best seen": t.share_on_stuck["best"],
        }
        for column in columns:
            value = _number(frame.loc[budget, column])
            if value is None or abs(value - want[column]) > TOLERANCE:
                return _one_line(
                    failed(
                        f"after {budget} programs {column!r} is {frame.loc[budget, column]!r}; "
                        f"the pack's targeting gives {want[column]:.3g}."
                    )
                )
    return passed(f"the stuck shapes and both shares after {len(BUDGETS)} budgets of seed {SEED} match the pack's.")


def exercise_3(far_from_roofline: Callable) -> Verdict:
    """Whether `far_from_roofline(0.6)` lists exactly the training shapes the oracle leaves below 0.6 of the roofline,
    with the oracle's share of the roofline and what bounds it."""
    if (bad := _not_callable("far_from_roofline", far_from_roofline)) is not None:
        return bad
    frame, error = _run("far_from_roofline", lambda: far_from_roofline(THRESHOLD))
    if error is not None:
        return error
    columns = ("shape", "oracle vs_roofline", "bound")
    if (bad := _frame("far_from_roofline", frame, columns)) is not None:
        return bad
    ctx = ablations.context()
    table = ctx.table
    want = {}
    for shape in ctx.train:
        config, best = table.oracle(shape)
        reach = table.roofline(shape) / best
        if reach < THRESHOLD:
            want[shape.label()] = (reach, gemm_cost.gemm_time(config, shape, table.gpu).bound)
    got = {str(row["shape"]): row for _, row in frame.iterrows()}
    extra, missing = sorted(set(got) - set(want)), sorted(set(want) - set(got))
    if extra or missing:
        what = [f"{len(missing)} missing (e.g. {missing[0]})"] if missing else []
        what += [f"{len(extra)} too many (e.g. {extra[0]})"] if extra else []
        return _one_line(failed(f"{len(got)} shapes listed, the pack finds {len(want)}: " + ", ".join(what) + "."))
    for label, (reach, bound) in want.items():
        value = _number(got[label]["oracle vs_roofline"])
        if value is None or abs(value - reach) > TOLERANCE:
            return _one_line(
                failed(f"{label}: oracle vs_roofline {got[label]['oracle vs_roofline']!r}, the pack's is {reach:.2f}.")
            )
        if got[label]["bound"] != bound:
            return _one_line(failed(f"{label}: bound {got[label]['bound']!r}, the cost model says {bound!r}."))
    return passed(
        f"{len(want)} of the {len(ctx.train)} training shapes, with the oracle's reach and bound, as the "
        "pack computes them."
    )


def exercise_4(decode_reach_by_gpu: Callable) -> Verdict:
    """Whether `decode_reach_by_gpu(("H100", "B200"), 0, 300)` gives, per stuck decode shape and GPU, the oracle's
    vs_roofline and fixed share."""
    if (bad := _not_callable("decode_reach_by_gpu", decode_reach_by_gpu)) is not None:
        return bad
    frame, error = _run("decode_reach_by_gpu", lambda: decode_reach_by_gpu(GPUS, SEED, BUDGET))
    if error is not None:
        return error
    columns = ["shape"] + [f"{gpu} {what}" for gpu in GPUS for what in ("vs_roofline", "fixed share")]
    if (bad := _frame("decode_reach_by_gpu", frame, columns)) is not None:
        return bad
    t = targeting.targeting(SEED, BUDGET)
    want = {r.shape.label(): r.shape for r in t.rows if r.shape.M <= 16 and r.vs_best > targeting.STUCK}
    got = {str(row["shape"]): row for _, row in frame.iterrows()}
    if set(got) != set(want):
        wrong = sorted(set(got) ^ set(want))
        return _one_line(
            failed(f"{len(got)} shapes listed, {len(want)} stuck decode shapes in demo 2 (not matching: {wrong[0]}).")
        )
    for gpu in GPUS:
        table = shared_table(gpu)
        for label, shape in want.items():
            config, best = table.oracle(shape)
            expected = {
                "vs_roofline": table.roofline(shape) / best,
                "fixed share": gemm_cost.gemm_time(config, shape, table.gpu).fixed_us / best,
            }
            for what, value in expected.items():
                mine = _number(got[label][f"{gpu} {what}"])
                if mine is None or abs(mine - value) > TOLERANCE:
                    return _one_line(
                        failed(
                            f"{label} on the {gpu}: {what} {got[label][f'{gpu} {what}']!r}, the pack's is {value:.2f}."
                        )
                    )
    return passed(
        f"the {len(want)} stuck decode shapes on the {' and the '.join(GPUS)}: reach and fixed share match the pack's."
    )
