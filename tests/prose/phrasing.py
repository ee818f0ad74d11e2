"""How the prose modules write a computed value the way the notebooks print it, and assert a claim before quoting it."""
from __future__ import annotations

from typing import Callable, Iterable

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh")


def holds(condition: bool, phrase: str) -> str:
    """Return `phrase` if the claim it makes holds for the computed values; fail loudly otherwise."""
    if not condition:
        raise AssertionError(f"the notebook claims something the pack no longer computes: {phrase!r}")
    return phrase


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
