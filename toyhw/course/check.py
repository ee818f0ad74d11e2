"""The verdict of an exercise check: one line that says whether the student's work holds and, if not, why not.

A notebook's check cell is one call, `checks.exercise_2(...)`, whose value Jupyter shows as that line. The checks
never raise for a student's mistake (a wrong value, a function that raises or returns the wrong type): the verdict
says what went wrong, so the room's laptops show a sentence, not a traceback.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Callable

from toyhw.i18n import N_, t
from toyhw.textwidth import display_width

PASS, FAIL = "✓", "✗"

WIDTH = 110
"""The widest verdict line, in display columns (a CJK character counts two): a check cell's one line must not wrap on
a projector."""

STUB_MESSAGES = {
    "run again": N_("check.stub"),
    "short": N_("check.stub_short"),
    "first": N_("check.stub_first"),
}
"""How a check says that a function is still the stub: "run again" (the default) ends "then run this check again",
"short" says it in fewer columns (checks whose names are long), "first" ends "write it first"."""


@dataclass(frozen=True)
class Verdict:
    """Whether an exercise's answer holds (`ok`) and the sentence that says so or says why not (`reason`)."""

    ok: bool
    reason: str

    def __str__(self) -> str:
        return f"{PASS if self.ok else FAIL} {self.reason}"

    __repr__ = __str__

    def __bool__(self) -> bool:
        return self.ok


def passed(reason: str) -> Verdict:
    """A verdict that holds."""
    return Verdict(True, reason)


def failed(reason: str) -> Verdict:
    """A verdict that does not hold."""
    return Verdict(False, reason)


def attempt(what: str, work: Callable[[], Any], stub: str = "run again") -> tuple[Any, Verdict | None]:
    """Run a student's `work`; return (its value, None), or (None, a failed verdict naming `what` and the error).

    `NotImplementedError` is the stub's own signal: it gets "not done yet" (the sentence `STUB_MESSAGES[stub]`) rather
    than an error message. The sentences are the catalogue's (toyhw/i18n.py), so a zh notebook's verdict is Chinese;
    the error's own text is Python's and stays as raised.
    """
    if stub not in STUB_MESSAGES:
        raise ValueError(f"stub = {stub!r} is not allowed; one of: {', '.join(STUB_MESSAGES)}")
    try:
        return work(), None
    except NotImplementedError:
        return None, failed(t(STUB_MESSAGES[stub], what=what))
    except Exception as error:  # a student's code may raise anything; the verdict names it
        return None, failed(t("check.raised", what=what, error=type(error).__name__, message=error))


def listed(items: Any) -> str:
    """`items` as a list in the reader's language: "a, b" in English, "a，b" in Chinese (the catalogue's separator)."""
    return t("list.separator").join(map(str, items))


def not_callable(name: str, value: Any) -> Verdict | None:
    """None if `value` (the student's `name`) is a function; else the failed verdict that says it must be one."""
    return None if callable(value) else failed(t("check.not_callable", name=name, type=type(value).__name__))


def fit(verdict: Verdict, width: int = WIDTH) -> Verdict:
    """Return `verdict` on one line of at most `width` display columns: its reason's whitespace runs (a student's
    exception may span lines) made single spaces, and a reason too long cut, ending in "…"."""
    reason = " ".join(verdict.reason.split())
    if display_width(str(Verdict(verdict.ok, reason))) > width:
        while display_width(str(Verdict(verdict.ok, reason + "…"))) > width:
            reason = reason[:-1]
        reason = reason.rstrip() + "…"
    return verdict if reason == verdict.reason else Verdict(verdict.ok, reason)


def on_one_line(check: Callable[..., Verdict]) -> Callable[..., Verdict]:
    """Return `check` with its verdict made one line (`fit`): the decorator of a notebook's `exercise_K` checks."""

    @functools.wraps(check)
    def fitted(*args: Any, **kwargs: Any) -> Verdict:
        return fit(check(*args, **kwargs))

    return fitted
