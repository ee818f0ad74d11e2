"""The verdict of an exercise check: one line that says whether the student's work holds and, if not, why not.

A notebook's check cell is one call, `checks.exercise_2(...)`, whose value Jupyter shows as that line. The checks
never raise for a student's mistake (a wrong value, a function that raises or returns the wrong type): the verdict
says what went wrong, so the room's laptops show a sentence, not a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional

from toyhw.i18n import t

PASS, FAIL = "✓", "✗"


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


def attempt(what: str, work: Callable[[], Any], stub: Optional[str] = None) -> tuple[Any, Verdict | None]:
    """Run a student's `work`; return (its value, None), or (None, a failed verdict naming `what` and the error).

    `NotImplementedError` is the stub's own signal: it gets "not done yet" (message `stub`, default "check.stub",
    with the placeholder `what`) rather than an error message. The sentences are the catalogue's (toyhw/i18n.py), so
    a zh notebook's verdict is Chinese; the error's own text is Python's and stays as raised.
    """
    try:
        return work(), None
    except NotImplementedError:
        return None, failed(t(stub or "check.stub", what=what))
    except Exception as error:  # a student's code may raise anything; the verdict names it
        return None, failed(t("check.raised", what=what, error=type(error).__name__, message=error))
