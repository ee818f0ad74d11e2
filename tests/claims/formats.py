"""How a claim writes a computed value the way the notebooks print it (one place, so every claim rounds alike)."""

from __future__ import annotations

from typing import Callable, Iterable

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh")


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
