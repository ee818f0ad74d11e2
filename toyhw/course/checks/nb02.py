"""Notebook 02's exercise checks: each races or probes the student's proposer with the pack and says what it finds.

Every check runs on lecture 10's benchmark (task seed 230, 200 tasks) and the loop's own random streams, so a
verdict is the same on every laptop. A proposer that raises, returns something other than a kernel config, or a
value of the wrong type gets a ✗ verdict naming the problem, never a traceback.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from toyhw import metrics
from toyhw.course.check import Verdict, attempt, failed, on_one_line, passed
from toyhw.i18n import t
from toyhw.kernels import knobs, optimize, proposers, study
from toyhw.kernels.knobs import KernelConfig

SEED, N_TASKS = study.LECTURE_TASK_SEED, study.LECTURE_N_TASKS
MODES = ("resample", "scalar", "explain", "suggest")
PS = (1.0, 1.5)
RACE_ROUNDS = 10
"""Exercise 1's and Exercise 5's budget: the column of lecture 10's table the exercise names."""
SWEEP_ROUNDS, SWEEP_P, SWEEP_Q, SWEEP_TOLERANCE = 50, 1.5, 0.5, 0.015
"""Exercise 2: at q = 0.5 the adviser stays within 0.015 of `explain`'s fast_1.5 after 50 rounds."""
EARLY, LATE = 5, 50
"""Exercise 3's two budgets."""
BAR = 1.5
"""Exercise 4's bar: the ceiling of Section 3."""


def _attempt(what: str, work: Callable[[], Any]) -> tuple[Any, Verdict | None]:
    """`attempt`, seeing through the loop's ProposerError to the stub's NotImplementedError."""

    def unwrapped() -> Any:
        try:
            return work()
        except optimize.ProposerError as error:
            if isinstance(error.__cause__, NotImplementedError):
                raise error.__cause__ from None
            raise

    return attempt(what, unwrapped)


def _tasks() -> list:
    return list(study.tasks(SEED, N_TASKS))


def _not_callable(name: str, value: Any) -> Verdict | None:
    if callable(value):
        return None
    return failed(t("check.nb02.not_a_function", name=name, type=type(value).__name__))


def _fast(what: str, proposer: Callable, rounds: int) -> tuple[dict[float, float] | None, Verdict | None]:
    """Return ({p: fast_p} after `rounds` rounds of `proposer`, None), or (None, a ✗ verdict saying why it failed)."""
    speedups, error = _attempt(what, lambda: optimize.speedups_after(_tasks(), rounds, proposer))
    if error is not None:
        return None, error
    return {p: metrics.fast_p(speedups, p) for p in PS}, None


def _builtins(rounds: int) -> dict[str, dict[float, float]]:
    table = study.feedback_table(SEED, N_TASKS, list(MODES), rounds=(rounds,), ps=PS)
    return {mode: table[mode][rounds] for mode in MODES}


@on_one_line
def exercise_1(my_proposer: Callable) -> Verdict:
    """Whether `my_proposer` beats every built-in mode after 10 rounds, at fast_1 and at fast_1.5."""
    if (bad := _not_callable("my_proposer", my_proposer)) is not None:  # a failed Verdict is falsy
        return bad
    mine, error = _fast("my_proposer", my_proposer, RACE_ROUNDS)
    if error is not None:
        return error
    assert mine is not None
    builtins = _builtins(RACE_ROUNDS)
    behind = []
    for p in PS:
        best = max(MODES, key=lambda m: builtins[m][p])
        if mine[p] <= builtins[best][p]:
            behind.append(t("check.nb02.exercise_1.behind_at", p=p, mine=mine[p], best=best, theirs=builtins[best][p]))
    if behind:
        return failed(
            t("check.nb02.exercise_1.behind", rounds=RACE_ROUNDS, behind=t("check.nb02.separator").join(behind))
        )
    return passed(t("check.nb02.exercise_1.passed", rounds=RACE_ROUNDS, fast_1=mine[1.0], fast_1_5=mine[1.5]))


@on_one_line
def exercise_2(adviser: Callable) -> Verdict:
    """Whether `adviser(q)` is `explain` at q = 0, `suggest` at q = 1, and keeps fast_1.5 within 0.015 at q = 0.5.

    The ends are compared task by task after 20 and 50 rounds (the same streams give the same kernels only if the
    adviser draws no extra random number at q = 0 or q = 1); the middle is the exercise's finding.
    """
    if (bad := _not_callable("adviser", adviser)) is not None:
        return bad
    tasks = _tasks()
    for q, mode in ((0.0, "explain"), (1.0, "suggest")):
        proposer, error = _attempt(f"adviser({q:g})", lambda: adviser(q))
        if error is not None:
            return error
        if (bad := _not_callable(f"adviser({q:g})", proposer)) is not None:
            return bad
        for rounds in (20, SWEEP_ROUNDS):
            mine, error = _attempt(f"adviser({q:g})", lambda: optimize.speedups_after(tasks, rounds, proposer))
            if error is not None:
                return error
            if mine != optimize.speedups_after(tasks, rounds, mode):
                return failed(t("check.nb02.exercise_2.not_exact", q=q, mode=mode, rounds=rounds))
    middle, error = _attempt(f"adviser({SWEEP_Q:g})", lambda: adviser(SWEEP_Q))
    if error is not None:
        return error
    if (bad := _not_callable(f"adviser({SWEEP_Q:g})", middle)) is not None:
        return bad
    mine, error = _attempt(f"adviser({SWEEP_Q:g})", lambda: optimize.speedups_after(tasks, SWEEP_ROUNDS, middle))
    if error is not None:
        return error
    value = metrics.fast_p(mine, SWEEP_P)
    explain = metrics.fast_p(optimize.speedups_after(tasks, SWEEP_ROUNDS, "explain"), SWEEP_P)
    if abs(value - explain) > SWEEP_TOLERANCE + 1e-12:
        return failed(
            t(
                "check.nb02.exercise_2.too_far",
                q=SWEEP_Q,
                p=SWEEP_P,
                value=value,
                rounds=SWEEP_ROUNDS,
                tolerance=SWEEP_TOLERANCE,
                explain=explain,
            )
        )
    return passed(
        t("check.nb02.exercise_2.passed", q=SWEEP_Q, p=SWEEP_P, value=value, rounds=SWEEP_ROUNDS, explain=explain)
    )


def _probes() -> Iterable[tuple[int, knobs.RunFeedback, KernelConfig]]:
    """Notebook 01's one-shot kernels and their feedback: every failure cause and many successes."""
    for kernel in study.one_shot(SEED, N_TASKS).kernels:
        yield kernel.index, kernel.feedback, kernel.config


def _differences(mine: Any, want: KernelConfig) -> str:
    """Say how `mine` differs from `want`, knob by knob (or what it is, if it is no config)."""
    if not isinstance(mine, KernelConfig):
        return t("check.nb02.exercise_3.not_a_config", type=type(mine).__name__)
    return t("list.separator").join(
        t("check.nb02.exercise_3.knob", knob=knob, got=getattr(mine, knob), want=getattr(want, knob))
        for knob in knobs.KNOBS
        if getattr(mine, knob) != getattr(want, knob)
    )


@on_one_line
def exercise_3(vec_one_proposer: Callable) -> Verdict:
    """Whether `vec_one_proposer` repairs a vector-width error with vec = 1 and otherwise acts exactly as `explain`.

    Probed on notebook 01's 200 one-shot kernels, each with its own seeded stream; then raced for the exercise's
    numbers after 5 and 50 rounds.
    """
    if (bad := _not_callable("vec_one_proposer", vec_one_proposer)) is not None:
        return bad
    for i, feedback, config in _probes():
        mine, error = _attempt("vec_one_proposer", lambda: vec_one_proposer(feedback, config, random.Random(i)))
        if error is not None:
            return error
        if feedback.cause == "vector_width_indivisible":
            want, rule = config.replace(vec=1), t("check.nb02.exercise_3.vector_width")
        else:
            want = proposers.explain(feedback, config, random.Random(i))
            rule = t("check.nb02.exercise_3.explains_step", status=feedback.status)
        if mine != want:
            return failed(t("check.nb02.exercise_3.differs", kernel=i, rule=rule, differences=_differences(mine, want)))
    early, error = _fast("vec_one_proposer", vec_one_proposer, EARLY)
    if error is not None:
        return error
    assert early is not None
    return passed(t("check.nb02.exercise_3.passed", rounds=EARLY, fast_1=early[1.0], fast_1_5=early[1.5]))


def _widest_vec(n: int) -> int:
    return max(v for v in knobs.KNOBS["vec"] if n % v == 0)


@on_one_line
def exercise_4(hopeless: Any) -> Verdict:
    """Whether `hopeless` is the set of (fusable, widest legal vector width) groups in which no task clears 1.5×.

    The truth is computed from every task's best possible speedup (Section 3's ceiling).
    """
    best = study.best_possible_speedups(SEED, N_TASKS)
    clears: dict[tuple[bool, int], bool] = {}
    for i, task in enumerate(study.tasks(SEED, N_TASKS)):
        key = (bool(task.fusable), _widest_vec(task.n))
        clears[key] = clears.get(key, False) or bool(best[i] > BAR)
    truth = {key for key, any_clears in clears.items() if not any_clears}
    try:
        given = {(bool(f), int(w)) for f, w in hopeless}
    except (TypeError, ValueError):
        return failed(t("check.nb02.exercise_4.not_pairs", value=repr(hopeless)))
    unknown = given - clears.keys()
    if unknown:
        return failed(t("check.nb02.exercise_4.no_group", group=sorted(unknown)[0], groups=sorted(clears)))
    if given - truth:
        key = sorted(given - truth)[0]
        n_clear = sum(
            1
            for i, task in enumerate(study.tasks(SEED, N_TASKS))
            if (bool(task.fusable), _widest_vec(task.n)) == key and best[i] > BAR
        )
        return failed(t("check.nb02.exercise_4.clears", group=key, tasks=n_clear, bar=BAR))
    if truth - given:
        return failed(t("check.nb02.exercise_4.missing", groups=len(truth - given), bar=BAR))
    n_tasks = sum(1 for task in study.tasks(SEED, N_TASKS) if (bool(task.fusable), _widest_vec(task.n)) in truth)
    return passed(t("check.nb02.exercise_4.passed", groups=sorted(truth), tasks=n_tasks, bar=BAR))


@on_one_line
def exercise_5(misreading_explain: Callable) -> Verdict:
    """Whether `misreading_explain`, raced for 10 rounds, lands below `explain` and above `scalar` and `resample`.

    Also that it misreads some errors and reads others: on notebook 01's failing one-shot kernels it sometimes
    returns `explain`'s repair and sometimes not.
    """
    if (bad := _not_callable("misreading_explain", misreading_explain)) is not None:
        return bad
    same = differ = 0
    for i, feedback, config in _probes():
        if feedback.ok:
            continue
        mine, error = _attempt("misreading_explain", lambda: misreading_explain(feedback, config, random.Random(i)))
        if error is not None:
            return error
        if mine == proposers.explain(feedback, config, random.Random(i)):
            same += 1
        else:
            differ += 1
    if not differ:
        return failed(t("check.nb02.exercise_5.misreads_none"))
    if not same:
        return failed(t("check.nb02.exercise_5.reads_none"))
    mine, error = _fast("misreading_explain", misreading_explain, RACE_ROUNDS)
    if error is not None:
        return error
    assert mine is not None
    builtins = _builtins(RACE_ROUNDS)
    for p in PS:
        low = max(builtins["scalar"][p], builtins["resample"][p])
        if not low < mine[p] < builtins["explain"][p]:
            return failed(
                t(
                    "check.nb02.exercise_5.not_between",
                    rounds=RACE_ROUNDS,
                    p=p,
                    mine=mine[p],
                    low=low,
                    high=builtins["explain"][p],
                )
            )
    return passed(t("check.nb02.exercise_5.passed", rounds=RACE_ROUNDS, fast_1=mine[1.0], fast_1_5=mine[1.5]))
