"""Notebook 05's exercise checks: how often the tournament picks the best, what the cascade cut, how the prompt grows.

Each check recomputes its answer with the pack (the tournament's formula, the traced run of `full` with seed 0 scored
on the time table, the replayed prompts) and compares the student's value with it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from toyhw.course import compare, pristine, prompt_view, proposal_trace
from toyhw.course.check import Verdict, attempt, failed, listed, on_one_line, passed
from toyhw.evolve.evaluator import geomean_speedup
from toyhw.evolve.experiments import ablations
from toyhw.i18n import t

TOURNAMENTS = (1, 2, 3, 5)  # the tournament sizes Exercise 1 asks about
OTHER_TOURNAMENTS = ((4, {"island": 10}), (2, {"island": 40, "seed": 3}))
"""Exercise 1's calls the notebook does not show (the stub's own parameters): a copy of its four shares fails them."""
SECONDS = 10.0  # one call of best_share: 20,000 draws take well under a second
ISLAND = 25  # a full island: the default capacity per island
TOLERANCE = 0.01  # one percentage point: 20,000 draws measure a share to about 0.3 points
TRACED = ("full", 0, 1000)  # the traced run of Sections 2-4 (variant, seed, proposals)
PROMPT_STEPS = (1, 10, 100, 1000)

_shown = compare.shown


def _share(value: Any) -> float | None:
    """Return `value` as a share in [0, 1] (an int, a float or a numpy number), or None if it is not one."""
    share = compare.number(value)
    return share if share is not None and 0.0 <= share <= 1.0 else None


def _count(value: Any) -> int | None:
    """Return `value` as a whole count (an int or a numpy integer, >= 0), or None: 5.0 and '5' are not counts."""
    count = compare.whole(value)
    return count if count is not None and count >= 0 else None


def best_share_formula(k: int, island: int = ISLAND) -> float:
    """The share of tournaments of `k` draws with replacement that include the best of `island` programs."""
    return 1.0 - (1.0 - 1.0 / island) ** k


@on_one_line
def exercise_1(best_share: Callable[[int], Any]) -> Verdict:
    """Does `best_share(k)` give, for k = 1, 2, 3, 5, the share 1 - (1 - 1/25)^k within one point? And for islands of
    other sizes (another k, island and seed) the notebook does not show?"""
    if not callable(best_share):
        return failed(t("check.nb05.best_share_not_a_function", type=compare.type_name(best_share)))
    measured = {}
    for k, kwargs in [(k, {}) for k in TOURNAMENTS] + list(OTHER_TOURNAMENTS):
        call = f"best_share({k}{''.join(f', {key}={value!r}' for key, value in kwargs.items())})"
        value, error = attempt(call, lambda k=k, kwargs=kwargs: compare.plain(best_share(k, **kwargs)), SECONDS)
        if error is not None:
            return error
        share = _share(value)
        if share is None:
            return failed(t("check.nb05.best_share_not_a_share", call=call, value=_shown(value)))
        island = kwargs.get("island", ISLAND)
        expected = best_share_formula(k, island)
        if abs(share - expected) > TOLERANCE:
            got, want = compare.apart(share, expected)
            return failed(
                t("check.nb05.best_share_off", call=call, share=got, island=island, expected=want, tolerance=TOLERANCE)
            )
        if not kwargs:
            measured[k] = share
    shown = listed(f"{measured[k]:.1%}" for k in TOURNAMENTS)
    return passed(t("check.nb05.best_share_passed", shares=shown, ks=listed(TOURNAMENTS), island=ISLAND))


def cascade_misses() -> dict[str, int]:
    """Return how many programs the traced run cut after stage one, and how many of them would have beaten their
    parent, or the best score reached before them, on all training shapes (scored on the time table)."""
    ctx = ablations.context()
    run = proposal_trace.trace(*TRACED)
    cut = [s for s in run.steps if s.status == "cascade"]
    scores = [geomean_speedup(s.program, ctx.train, ctx.table) for s in cut]
    best_before = [run.result.history[s.step - 2] if s.step > 1 else 1.0 for s in cut]  # the expert scores 1.0
    return {
        "cut": len(cut),
        "beat_parent": sum(f > s.parent_score for f, s in zip(scores, cut)),
        "beat_best": sum(f > b for f, b in zip(scores, best_before)),
    }


@on_one_line
def exercise_2(beat_parent: Any, beat_best: Any) -> Verdict:
    """Are `beat_parent` and `beat_best` the counts of cut programs that would have beaten their parent, and the
    best score before them, had they run on every training shape?"""
    for name, value in (("beat_parent", beat_parent), ("beat_best", beat_best)):
        if value is None:
            return failed(t("check.nb05.count_none", name=name))
        if _count(value) is None:
            return failed(t("check.nb05.count_not_a_count", name=name, value=_shown(value)))
    truth = cascade_misses()
    if _count(beat_parent) != truth["beat_parent"]:
        return failed(t("check.nb05.beat_parent_off", value=_shown(beat_parent)))
    if _count(beat_best) != truth["beat_best"]:
        return failed(t("check.nb05.beat_best_off", value=_shown(beat_best)))
    return passed(
        t("check.nb05.cut_passed", beat_parent=truth["beat_parent"], cut=truth["cut"], beat_best=truth["beat_best"])
    )


def prompt_sizes(steps: tuple[int, ...] = PROMPT_STEPS) -> dict[int, dict[str, int]]:
    """Return, per step of the traced run, each part's characters of the prompt and its estimated tokens."""
    sizes = {}
    for step in steps:
        view = prompt_view.prompt_at(TRACED[0], TRACED[1], step)
        sizes[step] = {**{name: len(text) for name, text in view.prompt.parts}, "tokens": view.tokens}
    return sizes


@on_one_line
def exercise_3(tokens: Any, grows_most: Any) -> Verdict:
    """Does `tokens` hold the prompt's estimated tokens at proposals 1, 10, 100 and 1000, and `grows_most` name the
    part that gains the most characters between the first and the last?"""
    if not isinstance(tokens, Mapping):
        return failed(t("check.nb05.tokens_not_a_dict", type=compare.type_name(tokens)))
    tokens, error = attempt("tokens", lambda: compare.plain(tokens))
    if error is not None:
        return error
    missing = [step for step in PROMPT_STEPS if step not in tokens]
    if missing:
        return failed(t("check.nb05.tokens_missing", steps=listed(missing)))
    sizes = prompt_sizes()
    for step in PROMPT_STEPS:
        value = tokens[step]
        if value is None:
            return failed(t("check.nb05.tokens_none", step=step))
        if _count(value) != sizes[step]["tokens"]:
            return failed(t("check.nb05.tokens_off", step=step, value=_shown(value)))
    first, last = sizes[PROMPT_STEPS[0]], sizes[PROMPT_STEPS[-1]]
    parts = [name for name in last if name != "tokens"]
    gains = {name: last[name] - first.get(name, 0) for name in parts}
    most = max(gains, key=gains.__getitem__)
    if grows_most is None:
        return failed(t("check.nb05.grows_most_none"))
    name = compare.text(grows_most)
    if name is None:
        return failed(t("check.nb05.grows_most_not_a_name", value=_shown(grows_most)))
    if name.strip().lower() not in gains:
        return failed(t("check.nb05.grows_most_unknown", value=_shown(grows_most), parts=listed(parts)))
    if name.strip().lower() != most:
        return failed(t("check.nb05.grows_most_off", value=_shown(grows_most), gain=gains[name.strip().lower()]))
    return passed(
        t("check.nb05.tokens_passed", first=first["tokens"], last=last["tokens"], most=most, gain=gains[most])
    )


pristine.watch()
