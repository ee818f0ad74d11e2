"""Answers copied from what a notebook shows, for the tests that hold every exercise check to cases the student has
not seen (tests/course/test_checks_nb01.py ... nb08.py).

A student who cannot write the function can still copy what the notebook shows: the solution's values for the calls
the check makes visibly, hard-coded. `copied_answer` is that student: it records the solution's answers to the
notebook's own calls and returns them, whatever it is asked. `replayed_proposer` is the same for a proposer: it
replays the solution's steps on the states it has seen (the notebook's probes, its race) and, anywhere else, takes
`explain`'s step. A check that holds against them runs the function on a case the notebook does not show.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

from toyhw.kernels import proposers


def copied_answer(solution: Callable[..., Any], *calls: tuple[tuple, dict]) -> Callable[..., Any]:
    """A function that returns the solution's answer to whichever of the visible `calls` ((args, kwargs) pairs; the
    first is the default) it matches, and otherwise the first one's: a hard-coded copy of the notebook's answers."""
    recorded = [(args, kwargs, solution(*args, **kwargs)) for args, kwargs in calls or [((), {})]]

    def copy_of_the_answer(*args: Any, **kwargs: Any) -> Any:
        for known_args, known_kwargs, answer in recorded:
            if repr((known_args, known_kwargs)) == repr((args, kwargs)):
                return copy.deepcopy(answer)
        return copy.deepcopy(recorded[0][2])

    return copy_of_the_answer


def replayed_proposer(solution: Callable, seen: list[tuple[Any, Any, random.Random]]) -> Callable:
    """A proposer that gives, for each (feedback, config, stream state) in `seen`, the solution's step (and leaves the
    stream as the solution left it), and `explain`'s step anywhere else: a table of the notebook's answers."""
    table = {}
    for feedback, config, rng in seen:
        before = rng.getstate()
        answer = solution(feedback, config, rng)
        table[(feedback, config, before)] = (answer, rng.getstate())

    def replayed(feedback: Any, config: Any, rng: random.Random) -> Any:
        known = table.get((feedback, config, rng.getstate()))
        if known is None:
            return proposers.explain(feedback, config, rng)
        rng.setstate(known[1])
        return known[0]

    return replayed


def recording(proposer: Callable, seen: list) -> Callable:
    """`proposer`, noting each (feedback, config, a copy of the stream) it is asked, to replay it (`replayed_proposer`)."""

    def noted(feedback: Any, config: Any, rng: random.Random) -> Any:
        twin = random.Random()
        twin.setstate(rng.getstate())
        seen.append((feedback, config, twin))
        return proposer(feedback, config, rng)

    return noted
