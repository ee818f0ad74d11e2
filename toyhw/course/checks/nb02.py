"""Notebook 02's exercise checks: each races or probes the student's proposer with the pack and says what it finds.

Every check runs on lecture 10's benchmark (task seed 230, 200 tasks) and the loop's own random streams, so a
verdict is the same on every laptop, and then on kernels or tasks the notebook never shows (other task seeds): a
proposer that only replays the notebook's answers fails there. A proposer that raises, loops, returns something other
than a kernel config, or a value of the wrong type gets a ✗ verdict naming the problem, never a traceback.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from toyhw import metrics
from toyhw.course import compare, pristine
from toyhw.course.check import Verdict, attempt, failed, on_one_line, passed
from toyhw.i18n import t
from toyhw.kernels import knobs, labels, optimize, proposers, study
from toyhw.kernels.knobs import KernelConfig, RunFeedback

SEED, N_TASKS = study.LECTURE_TASK_SEED, study.LECTURE_N_TASKS
MODES = ("resample", "scalar", "explain", "suggest")
PS = (1.0, 1.5)
RACE_ROUNDS = 10
"""Exercise 1's and Exercise 5's budget: the column of lecture 10's table the exercise names."""
SWEEP_ROUNDS, SWEEP_P, SWEEP_Q, SWEEP_TOLERANCE = 50, 1.5, 0.5, 0.015
"""Exercise 2: at q = 0.5 the adviser stays within 0.015 of `explain`'s fast_1.5 after 50 rounds."""
FOLLOW_QS, FOLLOW_TOLERANCE = (0.5, 0.25), 0.08
"""Exercise 2: at these q, the share of steps after a success that change a knob the bottleneck points to is within
0.08 of what following with probability q gives (over about 500 steps a right answer is within 0.03 of it)."""
EARLY, LATE = 5, 50
"""Exercise 3's two budgets."""
BAR = 1.5
"""Exercise 4's bar: the ceiling of Section 3."""
OTHER_SEED = 7
"""A benchmark the notebook never shows: Exercise 1 races on it too, Exercises 2, 3 and 5 probe its kernels."""
PROBE_SEEDS = (SEED, OTHER_SEED, 8, 9, 10, 11)
"""The benchmarks whose one-shot kernels Exercises 2 and 5 probe (about 500 successes and 700 failures)."""
MISREAD_LOW, MISREAD_HIGH, MISREAD_MIN_ERRORS = 0.25, 0.75, 50
"""Exercise 5: of each kind of error (each cause with at least 50 probes), a proposer that misreads half of the error
messages at random leaves between 25% and 75% unrepaired (a right answer: about 40%, as a random knob sometimes makes
the repair by chance); one that misreads only some causes does not."""
RACE_SECONDS = 10.0
"""The time limit of one race (2,000 to 10,000 calls of the student's proposer; the solutions' take under a second)."""
PROBE_SECONDS = 10.0
"""The time limit of one probe of up to 1,200 one-shot kernels."""

Probe = tuple[int, RunFeedback, KernelConfig]
"""One step to ask a proposer for: the one-shot kernel's index (its stream is Random(index)), feedback and config."""


class _NotAConfig(Exception):
    """Raised by the check's wrapper around a student's proposer when it returns something other than a config."""


def _tasks(seed: int = SEED) -> list:
    return list(study.tasks(seed, N_TASKS))


def _not_callable(name: str, value: Any) -> Verdict | None:
    if callable(value):
        return None
    return failed(t("check.nb02.not_a_function", name=name, type=compare.type_name(value)))


def _race(what: str, proposer: Callable, rounds: int, seed: int = SEED) -> tuple[list[float] | None, Verdict | None]:
    """Return (every task's speedup after `rounds` rounds of `proposer` on benchmark `seed`, None), or (None, a ✗
    verdict saying why the race did not finish: a raise, a return that is no config, the time limit)."""
    returned: list[Any] = []

    def propose(feedback: RunFeedback, config: KernelConfig, rng: random.Random) -> KernelConfig:
        value = proposer(feedback, config, rng)
        if type(value) is not KernelConfig:  # a subclass too: the loop would take its == and its knobs on trust
            returned.append(value)
            raise _NotAConfig()
        return value

    speedups, error = attempt(what, lambda: optimize.speedups_after(_tasks(seed), rounds, propose), RACE_SECONDS)
    if returned:
        return None, failed(t("check.nb02.not_a_config", name=what, value=compare.shown(returned[0])))
    return speedups, error


def _fast(what: str, proposer: Callable, rounds: int, seed: int = SEED) -> tuple[dict | None, Verdict | None]:
    """Return ({p: fast_p} after `rounds` rounds of `proposer`, None), or (None, a ✗ verdict saying why it failed)."""
    speedups, error = _race(what, proposer, rounds, seed)
    if error is not None:
        return None, error
    return {p: metrics.fast_p(speedups, p) for p in PS}, None


def _builtins(rounds: int, seed: int = SEED) -> dict[str, dict[float, float]]:
    table = study.feedback_table(seed, N_TASKS, list(MODES), rounds=(rounds,), ps=PS)
    return {mode: table[mode][rounds] for mode in MODES}


def _numbers(*values: float) -> tuple[str, ...]:
    return compare.apart(*values)


def _behind(mine: dict[float, float], rounds: int, seed: int) -> Verdict | None:
    """The ✗ verdict if `mine` is not ahead of every built-in mode at every p (after `rounds` rounds on `seed`)."""
    builtins = _builtins(rounds, seed)
    behind = []
    for p in PS:
        best = max(MODES, key=lambda m: builtins[m][p])
        if mine[p] <= builtins[best][p]:
            own, theirs = _numbers(mine[p], builtins[best][p])
            behind.append(t("check.nb02.exercise_1.behind_at", p=p, mine=own, best=best, theirs=theirs))
    if not behind:
        return None
    return failed(t("check.nb02.exercise_1.behind", rounds=rounds, behind=t("check.nb02.separator").join(behind)))


@on_one_line
def exercise_1(my_proposer: Callable) -> Verdict:
    """Whether `my_proposer` beats every built-in mode after 10 rounds, at fast_1 and at fast_1.5, on the lecture's
    benchmark and on another one (task seed 7)."""
    if (bad := _not_callable("my_proposer", my_proposer)) is not None:  # a failed Verdict is falsy
        return bad
    lecture = None
    for seed in (SEED, OTHER_SEED):
        mine, error = _fast("my_proposer", my_proposer, RACE_ROUNDS, seed)
        if error is None:
            assert mine is not None
            error = _behind(mine, RACE_ROUNDS, seed)
            lecture = lecture or mine
        if error is not None:
            return error if seed == SEED else failed(t("check.unseen", case=_benchmark(seed), reason=error.reason))
    assert lecture is not None
    return passed(t("check.nb02.exercise_1.passed", rounds=RACE_ROUNDS, fast_1=lecture[1.0], fast_1_5=lecture[1.5]))


def _benchmark(seed: int) -> str:
    return t("check.nb02.case.benchmark", seed=seed, tasks=N_TASKS)


def _probes(seeds: Sequence[int] = (SEED,), ok: bool | None = None) -> list[Probe]:
    """The one-shot kernels of benchmarks `seeds` with their feedback (successes only if `ok`, failures only if not
    `ok`), numbered on across the benchmarks: every failure cause and many successes."""
    found = []
    for number, seed in enumerate(seeds):
        for kernel in study.one_shot(seed, N_TASKS).kernels:
            if ok is None or kernel.feedback.ok == ok:
                found.append((number * N_TASKS + kernel.index, kernel.feedback, kernel.config))
    return found


def _steps(what: str, proposer: Callable, probes: list[Probe]) -> tuple[list | None, Verdict | None]:
    """Ask `proposer` for each probe's next kernel, on the probe's stream Random(index); return ([(its answer as plain
    data, the stream's state after), ...], None), or (None, a ✗ verdict)."""

    def asked() -> list:
        answers = []
        for index, feedback, config in probes:
            rng = random.Random(index)
            answers.append((compare.plain(proposer(feedback, config, rng)), rng.getstate()))
        return answers

    answers, error = attempt(what, asked, PROBE_SECONDS)
    if error is not None:
        return None, error
    for got, _ in answers:
        if type(got) is not KernelConfig:
            return None, failed(t("check.nb02.not_a_config", name=what, value=compare.shown(got)))
    return answers, None


def _reference(proposer: Callable, probes: list[Probe]) -> list[tuple[KernelConfig, Any]]:
    """A built-in proposer's answers to `probes`, as `_steps` gives a student's."""
    answers = []
    for index, feedback, config in probes:
        rng = random.Random(index)
        answers.append((proposer(feedback, config, rng), rng.getstate()))
    return answers


def _differences(mine: Any, want: KernelConfig) -> str:
    """Say how `mine` differs from `want`, knob by knob (or what it is, if it is no config)."""
    if type(mine) is not KernelConfig:
        return t("check.nb02.exercise_3.not_a_config", type=compare.type_name(mine))
    return t("list.separator").join(
        t("check.nb02.exercise_3.knob", knob=knob, got=getattr(mine, knob), want=getattr(want, knob))
        for knob in knobs.KNOBS
        if not compare.same(getattr(mine, knob), getattr(want, knob))
    )


def _kernel(index: int) -> str:
    """A probe's name in a verdict: the lecture's one-shot kernel i, or kernel i of another benchmark."""
    number, i = divmod(index, N_TASKS)
    if number == 0:
        return str(i)
    return t("check.nb02.case.kernel_of", kernel=i, seed=PROBE_SEEDS[number])


def _end(adviser_q: Callable, q: float, mode: str, other: str) -> Verdict | None:
    """The ✗ verdict if `adviser_q` (the adviser at q = 0 or 1) is not exactly `mode`, step by step and raced."""
    name = f"adviser({q:g})"
    probes = _probes(PROBE_SEEDS[:2])
    mine, error = _steps(name, adviser_q, probes)
    if error is not None:
        return error
    assert mine is not None
    want = _reference(proposers.PROPOSERS.get(mode), probes)
    if all(compare.same(a, b) for (a, _), (b, _) in zip(mine, _reference(proposers.PROPOSERS.get(other), probes))):
        return failed(t("check.nb02.exercise_2.ignores_q", q=q, other=other, mode=mode))
    for (index, feedback, _), (got, state), (expected, expected_state) in zip(probes, mine, want):
        if not compare.same(got, expected):
            return failed(
                t(
                    "check.nb02.exercise_2.step",
                    q=q,
                    mode=mode,
                    kernel=_kernel(index),
                    status=feedback.status,
                    differences=_differences(got, expected),
                )
            )
        if state != expected_state:
            return failed(t("check.nb02.exercise_2.draws", q=q, mode=mode, kernel=_kernel(index)))
    for seed, rounds in ((SEED, 20), (SEED, SWEEP_ROUNDS), (OTHER_SEED, 20)):
        speedups, error = _race(name, adviser_q, rounds, seed)
        if error is not None:
            return error
        if speedups != optimize.speedups_after(_tasks(seed), rounds, proposers.PROPOSERS.get(mode)):
            return failed(t("check.nb02.exercise_2.not_exact", q=q, mode=mode, rounds=rounds))
    return None


def _follow_share(answers: list, probes: list[Probe]) -> tuple[float, float]:
    """(The share of `answers` to successful `probes` that change one knob the bottleneck points to, the share that
    following the bottleneck with probability q would give at q = 0: a random knob hits a pointed-to one by chance)."""
    followed, by_chance = 0, 0.0
    for (_, feedback, config), (got, _) in zip(probes, answers):
        related = proposers.MEMORY_KNOBS if feedback.bottleneck == "memory" else proposers.COMPUTE_KNOBS
        changed = [k for k in knobs.KNOBS if getattr(got, k) != getattr(config, k)]
        followed += len(changed) == 1 and changed[0] in related
        by_chance += len(related) / len(knobs.KNOBS)
    return followed / len(probes), by_chance / len(probes)


def _middle(adviser: Callable) -> Verdict | None:
    """The ✗ verdict if the adviser between the ends does not follow the bottleneck with probability q."""
    probes = _probes(PROBE_SEEDS, ok=True)
    for q in FOLLOW_QS:
        name = f"adviser({q:g})"
        proposer, error = attempt(name, lambda q=q: adviser(q))
        if error is not None:
            return error
        if (bad := _not_callable(name, proposer)) is not None:
            return bad
        answers, error = _steps(name, proposer, probes)
        if error is not None:
            return error
        share, chance = _follow_share(answers, probes)
        expected = q + (1 - q) * chance
        if abs(share - expected) > FOLLOW_TOLERANCE:
            return failed(
                t("check.nb02.exercise_2.follows", q=q, share=f"{share:.0%}", expected=f"{expected:.0%}", n=len(probes))
            )
    return None


@on_one_line
def exercise_2(adviser: Callable) -> Verdict:
    """Whether `adviser(q)` is `explain` at q = 0, `suggest` at q = 1, follows the bottleneck with probability q in
    between, and keeps fast_1.5 within 0.015 of explain at q = 0.5.

    The ends are compared step by step (the same kernel and the same random draws, on the one-shot kernels of the
    lecture and of another benchmark) and raced task by task after 20 and 50 rounds; in between, the share of steps
    after a success that follow the bottleneck is measured at q = 0.5 and 0.25 on about 500 successful kernels.
    """
    if (bad := _not_callable("adviser", adviser)) is not None:
        return bad
    for q, mode, other in ((0.0, "explain", "suggest"), (1.0, "suggest", "explain")):
        proposer, error = attempt(f"adviser({q:g})", lambda q=q: adviser(q))
        if error is not None:
            return error
        if (bad := _not_callable(f"adviser({q:g})", proposer)) is not None:
            return bad
        if (bad := _end(proposer, q, mode, other)) is not None:
            return bad
    if (bad := _middle(adviser)) is not None:
        return bad
    middle, error = attempt(f"adviser({SWEEP_Q:g})", lambda: adviser(SWEEP_Q))
    if error is not None:
        return error
    if (bad := _not_callable(f"adviser({SWEEP_Q:g})", middle)) is not None:
        return bad
    mine, error = _race(f"adviser({SWEEP_Q:g})", middle, SWEEP_ROUNDS)
    if error is not None:
        return error
    value = metrics.fast_p(mine, SWEEP_P)
    explain = metrics.fast_p(
        optimize.speedups_after(_tasks(), SWEEP_ROUNDS, proposers.PROPOSERS.get("explain")), SWEEP_P
    )
    if abs(value - explain) > SWEEP_TOLERANCE + 1e-12:
        shown_value, shown_explain = _numbers(value, explain)
        return failed(
            t(
                "check.nb02.exercise_2.too_far",
                q=SWEEP_Q,
                p=SWEEP_P,
                value=shown_value,
                rounds=SWEEP_ROUNDS,
                tolerance=SWEEP_TOLERANCE,
                explain=shown_explain,
            )
        )
    return passed(
        t("check.nb02.exercise_2.passed", q=SWEEP_Q, p=SWEEP_P, value=value, rounds=SWEEP_ROUNDS, explain=explain)
    )


def _vec_one(feedback: RunFeedback, config: KernelConfig, rng: random.Random) -> KernelConfig:
    """Exercise 3's rule, for the check's truth: vec = 1 for a vector-width error, else explain's step."""
    if feedback.cause == "vector_width_indivisible":
        return config.replace(vec=1)
    return proposers.PROPOSERS.get("explain")(feedback, config, rng)


@on_one_line
def exercise_3(vec_one_proposer: Callable) -> Verdict:
    """Whether `vec_one_proposer` repairs a vector-width error with vec = 1 and otherwise acts exactly as `explain`.

    Probed on the 200 one-shot kernels of notebook 01 and of another benchmark, each with its own seeded stream; then
    raced for the exercise's numbers after 5 rounds.
    """
    if (bad := _not_callable("vec_one_proposer", vec_one_proposer)) is not None:
        return bad
    probes = _probes(PROBE_SEEDS[:2])
    mine, error = _steps("vec_one_proposer", vec_one_proposer, probes)
    if error is not None:
        return error
    assert mine is not None
    for (index, feedback, _), (got, _), (want, _) in zip(probes, mine, _reference(_vec_one, probes)):
        if compare.same(got, want):
            continue
        if feedback.cause == "vector_width_indivisible":
            rule = t("check.nb02.exercise_3.vector_width")
        else:
            rule = t("check.nb02.exercise_3.explains_step", status=feedback.status)
        return failed(
            t("check.nb02.exercise_3.differs", kernel=_kernel(index), rule=rule, differences=_differences(got, want))
        )
    early, error = _fast("vec_one_proposer", vec_one_proposer, EARLY)
    if error is not None:
        return error
    assert early is not None
    return passed(t("check.nb02.exercise_3.passed", rounds=EARLY, fast_1=early[1.0], fast_1_5=early[1.5]))


def _widest_vec(n: int) -> int:
    return max(v for v in knobs.KNOBS["vec"] if n % v == 0)


def _pairs(value: Any) -> tuple[dict[tuple[bool, int], Any] | None, Verdict | None]:
    """Return ({(fusable, widest vec): the pair as the student wrote it}, None) for a set (or list, tuple) of pairs of
    a bool and an int; else (None, the ✗ verdict naming what is not such a pair). Nothing is coerced: the string
    "False" is not False (Python's bool() makes it True), and '2' is not 2."""
    if value is None or not isinstance(value, (set, frozenset, list, tuple)):
        return None, failed(t("check.nb02.exercise_4.not_pairs", value=compare.shown(value)))
    pairs: dict[tuple[bool, int], Any] = {}
    for item in value:
        fusable, width = item if isinstance(item, (tuple, list)) and len(item) == 2 else (None, None)
        if compare.truth(fusable) is None or compare.whole(width) is None:
            return None, failed(t("check.nb02.exercise_4.not_a_pair", value=compare.shown(item)))
        pairs[(compare.truth(fusable), compare.whole(width))] = item
    return pairs, None


@on_one_line
def exercise_4(hopeless: Any) -> Verdict:
    """Whether `hopeless` is the set of (fusable, widest legal vector width) groups in which no task clears 1.5×.

    The truth is computed from every task's best possible speedup (Section 3's ceiling).
    """
    best = study.best_possible_speedups(SEED, N_TASKS)
    clears: dict[tuple[bool, int], int] = {}
    for i, task in enumerate(study.tasks(SEED, N_TASKS)):
        key = (bool(task.fusable), _widest_vec(task.n))
        clears[key] = clears.get(key, 0) + bool(best[i] > BAR)
    truth = {key for key, n_clear in clears.items() if not n_clear}
    value, error = attempt("hopeless", lambda: compare.plain(hopeless))
    if error is not None:
        return error
    given, error = _pairs(value)
    if error is not None:
        return error
    assert given is not None
    unknown = sorted(set(given) - clears.keys())
    if unknown:
        return failed(
            t("check.nb02.exercise_4.no_group", group=compare.shown(given[unknown[0]]), groups=sorted(clears))
        )
    if set(given) - truth:
        key = sorted(set(given) - truth)[0]
        return failed(t("check.nb02.exercise_4.clears", group=compare.shown(given[key]), tasks=clears[key], bar=BAR))
    if truth - set(given):
        return failed(t("check.nb02.exercise_4.missing", groups=len(truth - set(given)), bar=BAR))
    n_tasks = sum(1 for task in study.tasks(SEED, N_TASKS) if (bool(task.fusable), _widest_vec(task.n)) in truth)
    return passed(t("check.nb02.exercise_4.passed", groups=sorted(truth), tasks=n_tasks, bar=BAR))


class _Coin(random.Random):
    """A stream whose every `random()` is `side`: explain's repair with its coin fallen one way."""

    def __init__(self, side: float) -> None:
        super().__init__(0)
        self.side = side

    def random(self) -> float:
        return self.side


def _repairs(feedback: RunFeedback, config: KernelConfig) -> set[KernelConfig]:
    """Every config explain's repair of `feedback` can give (the shared-memory repair tosses a coin: both sides)."""
    return {proposers.fix_failure(feedback, config, _Coin(side)) for side in (0.0, 0.99)}


def _misread_by_cause(answers: list, probes: list[Probe]) -> dict[str, tuple[int, int]]:
    """Per failure cause: (how many of the probes' errors the answers leave unrepaired, how many probes)."""
    found: dict[str, tuple[int, int]] = {}
    for (_, feedback, config), (got, _) in zip(probes, answers):
        misread, n = found.get(feedback.cause, (0, 0))
        found[feedback.cause] = (misread + (got not in _repairs(feedback, config)), n + 1)
    return found


@on_one_line
def exercise_5(misreading_explain: Callable) -> Verdict:
    """Whether `misreading_explain` misreads about half of every kind of error and, raced for 10 rounds, lands below
    `explain` and above `scalar` and `resample`.

    The misreading is measured on the failing one-shot kernels of six benchmarks (notebook 01's and five it does not
    show): per failure cause, the share of errors it does not repair as explain would.
    """
    if (bad := _not_callable("misreading_explain", misreading_explain)) is not None:
        return bad
    probes = _probes(PROBE_SEEDS, ok=False)
    answers, error = _steps("misreading_explain", misreading_explain, probes)
    if error is not None:
        return error
    by_cause = _misread_by_cause(answers, probes)
    misread, n = (sum(counts) for counts in zip(*by_cause.values()))
    if not misread:
        return failed(t("check.nb02.exercise_5.misreads_none"))
    if misread == n:
        return failed(t("check.nb02.exercise_5.reads_none"))
    for cause, (wrong, count) in sorted(by_cause.items()):
        if count >= MISREAD_MIN_ERRORS and not MISREAD_LOW <= wrong / count <= MISREAD_HIGH:
            return failed(
                t(
                    "check.nb02.exercise_5.by_cause",
                    share=f"{wrong / count:.0%}",
                    cause=labels.cause_label(cause),
                    misread=wrong,
                    n=count,
                )
            )
    mine, error = _fast("misreading_explain", misreading_explain, RACE_ROUNDS)
    if error is not None:
        return error
    assert mine is not None
    builtins = _builtins(RACE_ROUNDS)
    for p in PS:
        low = max(builtins["scalar"][p], builtins["resample"][p])
        if not low < mine[p] < builtins["explain"][p]:
            shown_mine, shown_low, shown_high = _numbers(mine[p], low, builtins["explain"][p])
            return failed(
                t(
                    "check.nb02.exercise_5.not_between",
                    rounds=RACE_ROUNDS,
                    p=p,
                    mine=shown_mine,
                    low=shown_low,
                    high=shown_high,
                )
            )
    return passed(t("check.nb02.exercise_5.passed", rounds=RACE_ROUNDS, fast_1=mine[1.0], fast_1_5=mine[1.5]))


pristine.watch()
