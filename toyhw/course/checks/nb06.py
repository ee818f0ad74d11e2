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

from toyhw.course.check import Verdict, attempt, failed, listed, on_one_line, passed
from toyhw.evolve import ablations, targeting, variants
from toyhw.evolve.evaluator import Evaluator
from toyhw.evolve.llm import peek_target
from toyhw.evolve.loop import StepRecord, evolve
from toyhw.gemm import cost as gemm_cost
from toyhw.gemm.time_table import shared_table
from toyhw.i18n import t

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


def _run(what: str, work: Callable[[], Any]) -> tuple[Any, Verdict | None]:
    """Return `toyhw.course.check.attempt(what, work)`, its "still the stub" verdict ending "write it first"."""
    return attempt(what, work, stub="first")


def _not_callable(name: str, value: Any) -> Verdict | None:
    return None if callable(value) else failed(t("check.nb06.not_callable", name=name, type=type(value).__name__))


def _number(value: Any) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def _frame(name: str, value: Any, columns: Sequence[str]) -> Verdict | None:
    if not isinstance(value, pd.DataFrame):
        return failed(t("check.nb06.not_a_frame", name=name, type=type(value).__name__))
    missing = [c for c in columns if c not in value.columns]
    if missing:
        return failed(t("check.nb06.no_column", name=name, columns=listed(map(repr, missing))))
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


@on_one_line
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
                t("check.nb06.share_not_a_number", name=repr(name), seed=SEED, budget=BUDGET, type=type(value).__name__)
            )
        want = _stuck_share(name, SEED, BUDGET)
        if abs(share - want) > 1e-9:
            return failed(t("check.nb06.share_off", name=repr(name), seed=SEED, budget=BUDGET, share=share, want=want))
        got[name] = share
    shares = listed(f"{n} {v:.0%}" for n, v in got.items())
    return passed(t("check.nb06.shares_passed", seed=SEED, budget=BUDGET, shares=shares))


@on_one_line
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
            return failed(t("check.nb06.no_budget_row", budget=budget))
        found = targeting.targeting(SEED, budget)
        want = {
            "stuck shapes": found.n_stuck,
            "roofline": found.share_on_stuck["roofline"],
            "best seen": found.share_on_stuck["best"],
        }
        for column in columns:
            value = _number(frame.loc[budget, column])
            if value is None or abs(value - want[column]) > TOLERANCE:
                return failed(
                    t(
                        "check.nb06.budget_off",
                        budget=budget,
                        column=repr(column),
                        value=repr(frame.loc[budget, column]),
                        want=want[column],
                    )
                )
    return passed(t("check.nb06.budgets_passed", budgets=len(BUDGETS), seed=SEED))


@on_one_line
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
        what = [t("check.nb06.shapes_missing", n=len(missing), shape=missing[0])] if missing else []
        what += [t("check.nb06.shapes_extra", n=len(extra), shape=extra[0])] if extra else []
        return failed(t("check.nb06.shapes_off", got=len(got), want=len(want), what=listed(what)))
    for label, (reach, bound) in want.items():
        value = _number(got[label]["oracle vs_roofline"])
        if value is None or abs(value - reach) > TOLERANCE:
            return failed(
                t("check.nb06.reach_off", label=label, value=repr(got[label]["oracle vs_roofline"]), reach=reach)
            )
        if got[label]["bound"] != bound:
            return failed(t("check.nb06.bound_off", label=label, value=repr(got[label]["bound"]), bound=repr(bound)))
    return passed(t("check.nb06.far_passed", n=len(want), shapes=len(ctx.train)))


@on_one_line
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
    found = targeting.targeting(SEED, BUDGET)
    want = {r.shape.label(): r.shape for r in found.rows if r.shape.M <= 16 and r.vs_best > targeting.STUCK}
    got = {str(row["shape"]): row for _, row in frame.iterrows()}
    if set(got) != set(want):
        wrong = sorted(set(got) ^ set(want))
        return failed(t("check.nb06.decode_shapes_off", got=len(got), want=len(want), wrong=wrong[0]))
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
                    return failed(
                        t(
                            "check.nb06.decode_off",
                            label=label,
                            gpu=gpu,
                            what=what,
                            value=repr(got[label][f"{gpu} {what}"]),
                            expected=value,
                        )
                    )
    gpus = t("check.nb06.gpu_separator").join(GPUS)
    return passed(t("check.nb06.decode_passed", n=len(want), gpus=gpus))
