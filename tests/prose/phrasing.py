"""How the guide's prose modules (tests/prose/guide*.py) assert a claim before quoting it, and write a computed value
the way the pack prints it."""

from __future__ import annotations

import sys
from collections import defaultdict

# How a value is written (f3, pct, ...): one place for the guide modules and the notebooks' claims (tests/claims/).
from claims.formats import f2, f3, ordinal, p1, pct, value_range  # noqa: F401 (the guide modules import them here)


# Every phrase `holds` has checked, by the name of the module that asked (e.g. "prose.guide"). Append-only, so a phrase
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
