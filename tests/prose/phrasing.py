"""How the prose modules write a computed value the way the notebooks print it, and assert a claim before quoting it."""

from __future__ import annotations

import sys
from collections import defaultdict
from typing import Callable, Iterable

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh")


# Every phrase `holds` has checked, by the name of the module that asked (e.g. "prose.nb02"). Append-only, so a phrase
# checked inside an lru_cache'd function stays recorded after the cache answers: tests/test_comparison_claims.py asks
# "was this sentence's comparison checked?" by looking for one of these phrases in it.
CHECKED: defaultdict[str, list[str]] = defaultdict(list)


def holds(condition: bool, phrase: str) -> str:
    """Return `phrase` if the claim it makes holds for the computed values; fail loudly otherwise.

    The phrase is recorded in CHECKED under the calling module's name, so the comparison test can tell a checked
    comparative sentence from an unchecked one.
    """
    if not condition:
        raise AssertionError(f"the notebook claims something the pack no longer computes: {phrase!r}")
    CHECKED[sys._getframe(1).f_globals["__name__"]].append(phrase)
    return phrase


def checked_by(module) -> list[str]:
    """Return the phrases `holds` checked for prose module `module`, computing its quotes first (they do the checks)."""
    module.quotes()
    return list(dict.fromkeys(CHECKED[module.__name__]))


def f2(x: float) -> str:
    return f"{x:.2f}"


def f3(x: float) -> str:
    return f"{x:.3f}"


def pct(x: float, digits: int = 0) -> str:
    return f"{x:.{digits}%}"


def p1(x: float) -> str:
    return pct(x, 1)


def value_range(values: Iterable[float], fmt: Callable[[float], str] = pct) -> str:
    """Return "low-high" as the prose writes a spread (e.g. "85%-89%")."""
    values = list(values)
    return f"{fmt(min(values))}-{fmt(max(values))}"


def ordinal(n: int) -> str:
    """Return "first" for 1 ... "eleventh" for 11 (the prose spells out ranks)."""
    return ORDINALS[n - 1]
