"""Notebook 06's exercise checks: each recomputes the exercise's quantity with the pack and compares the student's.

The runs are the notebook's own (the full method and Section 5's variants on `ablations.context()`, seed 0), so a
verdict is the same on every laptop; then each function is asked once more with arguments the notebook does not show
(another seed, budget, threshold or GPU), where a copy of the notebook's answer fails. A function that raises, returns
the wrong type or misses a column gets a ✗ verdict naming the problem, never a traceback.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd

from toyhw.course import compare, pristine
from toyhw.course.check import Verdict, attempt, failed, listed, on_one_line, passed
from toyhw.evolve import variants
from toyhw.evolve.evaluator import Evaluator
from toyhw.evolve.experiments import ablations, targeting
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
OTHER_SHARES = (("full", 1, 150), ("no_feedback", 2, 100))
OTHER_BUDGETS = {"seed": 1, "budgets": (150, 250)}
OTHER_THRESHOLDS = (0.8, 0.45)
OTHER_GPUS = {"gpus": ("A100",), "seed": 1, "budget": 200}
"""The calls the notebook does not show, one set per exercise (the stubs' own parameters)."""
SECONDS = 60.0
"""The time limit of one call of the student's function (the solutions take a few seconds at most)."""


def _run(what: str, work: Callable[[], Any]) -> tuple[Any, Verdict | None]:
    """Return `toyhw.course.check.attempt(what, ...)` of `work`'s value as plain data (toyhw/course/compare.py)."""
    return attempt(what, lambda: compare.plain(work()), SECONDS)


def _not_callable(name: str, value: Any) -> Verdict | None:
    if callable(value):
        return None
    return failed(t("check.nb06.not_callable", name=name, type=compare.type_name(value)))


_number = compare.number


def _call(name: str, args: tuple = (), kwargs: dict[str, Any] | None = None) -> str:
    given = [repr(a) for a in args] + [f"{k}={v!r}" for k, v in (kwargs or {}).items()]
    return f"{name}({', '.join(given)})"


def _unseen(verdict: Verdict | None, call: str | None) -> Verdict | None:
    """`verdict` as it is for the notebook's call (`call` None), or said of the other call `call`."""
    if verdict is None or call is None or verdict.ok:
        return verdict
    return failed(t("check.unseen", case=call, reason=verdict.reason))


def _frame(name: str, value: Any, columns: Sequence[str]) -> Verdict | None:
    if type(value) is not pd.DataFrame:
        kind = value.type_name if isinstance(value, compare.Alien) else type(value).__name__
        return failed(t("check.nb06.not_a_frame", name=name, type=kind))
    missing = [c for c in columns if c not in value.columns]
    if missing:
        return failed(t("check.nb06.no_column", name=name, columns=listed(map(repr, missing))))
    return None


@functools.cache
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
    """Whether `stuck_target_share(name, 0, 300)` is the pack's share for each of Section 5's four variants, and for
    two runs the notebook does not show."""
    if (bad := _not_callable("stuck_target_share", stuck_target_share)) is not None:
        return bad
    got = {}
    for name, seed, budget in [(name, SEED, BUDGET) for name in VARIANTS] + list(OTHER_SHARES):
        call = _call("stuck_target_share", (name, seed, budget))
        value, error = _run(call, lambda: stuck_target_share(name, seed, budget))
        if error is not None:
            return error
        share = _number(value)
        if share is None:
            return failed(
                t("check.nb06.share_not_a_number", name=repr(name), seed=seed, budget=budget, type=_type(value))
            )
        want = _stuck_share(name, seed, budget)
        if abs(share - want) > 1e-9:
            shown, wanted = compare.apart(share, want)
            return failed(
                t("check.nb06.share_off", name=repr(name), seed=seed, budget=budget, share=shown, want=wanted)
            )
        if (seed, budget) == (SEED, BUDGET):
            got[name] = share
    shares = listed(f"{n} {v:.0%}" for n, v in got.items())
    return passed(t("check.nb06.shares_passed", seed=SEED, budget=BUDGET, shares=shares))


def _type(value: Any) -> str:
    return value.type_name if isinstance(value, compare.Alien) else type(value).__name__


def _budgets_off(frame: Any, seed: int, budgets: Sequence[int]) -> Verdict | None:
    """The ✗ verdict if `frame` is not, per budget, the stuck shapes and both weightings' shares of `seed`'s run."""
    columns = ("stuck shapes", "roofline", "best seen")
    if (bad := _frame("stuck_share_by_budget", frame, columns)) is not None:
        return bad
    for budget in budgets:
        if budget not in frame.index:
            return failed(t("check.nb06.no_budget_row", budget=budget))
        found = targeting.targeting(seed, budget)
        want = {
            "stuck shapes": found.n_stuck,
            "roofline": found.share_on_stuck["roofline"],
            "best seen": found.share_on_stuck["best"],
        }
        for column in columns:
            cell = frame.loc[budget, column]
            value = _number(cell)
            if value is None or abs(value - want[column]) > TOLERANCE:
                return failed(
                    t(
                        "check.nb06.budget_off",
                        budget=budget,
                        column=repr(column),
                        value=compare.shown(cell),
                        want=f"{want[column]:.3g}",
                    )
                )
    return None


@on_one_line
def exercise_2(stuck_share_by_budget: Callable) -> Verdict:
    """Whether `stuck_share_by_budget(0, BUDGETS)` holds, per budget, the stuck shapes and both weightings' shares;
    then for another seed and other budgets."""
    if (bad := _not_callable("stuck_share_by_budget", stuck_share_by_budget)) is not None:
        return bad
    for kwargs, (seed, budgets) in ((None, (SEED, BUDGETS)), (OTHER_BUDGETS, tuple(OTHER_BUDGETS.values()))):
        call = _call("stuck_share_by_budget", (), kwargs) if kwargs else None
        what = call or "stuck_share_by_budget"
        frame, error = _run(what, lambda: stuck_share_by_budget(seed, budgets))
        if error is not None:
            return error
        if (bad := _unseen(_budgets_off(frame, seed, budgets), call)) is not None:
            return bad
    return passed(t("check.nb06.budgets_passed", budgets=len(BUDGETS), seed=SEED))


def _far(threshold: float) -> dict[str, tuple[float, str]]:
    """The training shapes the oracle leaves below `threshold` of the roofline: label -> (reach, bound)."""
    ctx = ablations.context()
    table = ctx.table
    want = {}
    for shape in ctx.train:
        config, best = table.oracle(shape)
        reach = table.roofline(shape) / best
        if reach < threshold:
            want[shape.label()] = (reach, gemm_cost.gemm_time(config, shape, table.gpu).bound)
    return want


def _far_off(frame: Any, threshold: float) -> Verdict | None:
    """The ✗ verdict if `frame` is not the list of shapes below `threshold`, with their reach and bound."""
    columns = ("shape", "oracle vs_roofline", "bound")
    if (bad := _frame("far_from_roofline", frame, columns)) is not None:
        return bad
    want = _far(threshold)
    got = {str(row["shape"]): row for _, row in frame.iterrows()}
    extra, missing = sorted(set(got) - set(want)), sorted(set(want) - set(got))
    if extra or missing:
        what = [t("check.nb06.shapes_missing", n=len(missing), shape=missing[0])] if missing else []
        what += [t("check.nb06.shapes_extra", n=len(extra), shape=extra[0])] if extra else []
        return failed(t("check.nb06.shapes_off", got=len(got), want=len(want), what=listed(what)))
    for label, (reach, bound) in want.items():
        value = _number(got[label]["oracle vs_roofline"])
        if value is None or abs(value - reach) > TOLERANCE:
            shown = compare.shown(got[label]["oracle vs_roofline"])
            return failed(t("check.nb06.reach_off", label=label, value=shown, reach=reach))
        if not compare.same(got[label]["bound"], bound):
            return failed(
                t("check.nb06.bound_off", label=label, value=compare.shown(got[label]["bound"]), bound=repr(bound))
            )
    return None


@on_one_line
def exercise_3(far_from_roofline: Callable) -> Verdict:
    """Whether `far_from_roofline(0.6)` lists exactly the training shapes the oracle leaves below 0.6 of the roofline,
    with the oracle's share of the roofline and what bounds it; then at two other thresholds."""
    if (bad := _not_callable("far_from_roofline", far_from_roofline)) is not None:
        return bad
    for threshold in (THRESHOLD,) + OTHER_THRESHOLDS:
        call = None if threshold == THRESHOLD else _call("far_from_roofline", (threshold,))
        frame, error = _run(call or "far_from_roofline", lambda: far_from_roofline(threshold))
        if error is not None:
            return error
        if (bad := _unseen(_far_off(frame, threshold), call)) is not None:
            return bad
    return passed(t("check.nb06.far_passed", n=len(_far(THRESHOLD)), shapes=len(ablations.context().train)))


def _decode_off(frame: Any, gpus: Sequence[str], seed: int, budget: int) -> Verdict | None:
    """The ✗ verdict if `frame` is not, per stuck decode shape of (seed, budget), each GPU's reach and fixed share."""
    columns = ["shape"] + [f"{gpu} {what}" for gpu in gpus for what in ("vs_roofline", "fixed share")]
    if (bad := _frame("decode_reach_by_gpu", frame, columns)) is not None:
        return bad
    found = targeting.targeting(seed, budget)
    want = {r.shape.label(): r.shape for r in found.rows if r.shape.M <= 16 and r.vs_best > targeting.STUCK}
    got = {str(row["shape"]): row for _, row in frame.iterrows()}
    if set(got) != set(want) or len(got) != len(frame):
        wrong = sorted(set(got) ^ set(want)) or sorted(got)
        return failed(t("check.nb06.decode_shapes_off", got=len(frame), want=len(want), wrong=wrong[0]))
    for gpu in gpus:
        table = shared_table(gpu)
        for label, shape in want.items():
            config, best = table.oracle(shape)
            expected = {
                "vs_roofline": table.roofline(shape) / best,
                "fixed share": gemm_cost.gemm_time(config, shape, table.gpu).fixed_us / best,
            }
            for what, value in expected.items():
                cell = got[label][f"{gpu} {what}"]
                mine = _number(cell)
                if mine is None or abs(mine - value) > TOLERANCE:
                    return failed(
                        t(
                            "check.nb06.decode_off",
                            label=label,
                            gpu=gpu,
                            what=what,
                            value=compare.shown(cell),
                            expected=value,
                        )
                    )
    return None


@on_one_line
def exercise_4(decode_reach_by_gpu: Callable) -> Verdict:
    """Whether `decode_reach_by_gpu(("H100", "B200"), 0, 300)` gives, per stuck decode shape and GPU, the oracle's
    vs_roofline and fixed share; then for another GPU, seed and budget."""
    if (bad := _not_callable("decode_reach_by_gpu", decode_reach_by_gpu)) is not None:
        return bad
    for kwargs, (gpus, seed, budget) in ((None, (GPUS, SEED, BUDGET)), (OTHER_GPUS, tuple(OTHER_GPUS.values()))):
        call = _call("decode_reach_by_gpu", (), kwargs) if kwargs else None
        frame, error = _run(call or "decode_reach_by_gpu", lambda: decode_reach_by_gpu(gpus, seed, budget))
        if error is not None:
            return error
        if (bad := _unseen(_decode_off(frame, gpus, seed, budget), call)) is not None:
            return bad
    n = len([r for r in targeting.targeting(SEED, BUDGET).rows if r.shape.M <= 16 and r.vs_best > targeting.STUCK])
    gpus = t("check.nb06.gpu_separator").join(GPUS)
    return passed(t("check.nb06.decode_passed", n=n, gpus=gpus))


pristine.watch()
