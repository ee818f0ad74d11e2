"""The verdict of an exercise check: one line that says whether the student's work holds and, if not, why not.

A notebook's check cell is one call, `checks.exercise_2(...)`, whose value Jupyter shows as that line. The checks
never raise for a student's mistake (a wrong value, a function that raises or returns the wrong type): the verdict
says what went wrong, so the room's laptops show a sentence, not a traceback.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Callable

from toyhw.course import compare, pristine, runner
from toyhw.i18n import t
from toyhw.kernels.optimize import ProposerError
from toyhw.textwidth import display_width

PASS, FAIL = "✓", "✗"

WIDTH = 110
"""The widest verdict line, in display columns (a CJK character counts two): a check cell's one line must not wrap on
a projector."""


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


def attempt(what: str, work: Callable[[], Any], seconds: float = runner.LIMIT_S) -> tuple[Any, Verdict | None]:
    """Run a student's `work` through the runner (toyhw/course/runner.py: at most `seconds`, everything it raises
    caught); return (its value, None), or (None, a failed verdict naming `what` and what went wrong).

    `NotImplementedError` is the stub's own signal: it gets "still the stub" rather than an error message. The sentences
    are the catalogue's (toyhw/i18n.py), so a zh notebook's verdict is Chinese; the error's own text is Python's (or
    the student's) and stays as raised, on one line and cut.
    """
    ran = runner.call(work, seconds)
    if ran.timed_out:
        return None, failed(t("check.timeout", what=what, seconds=f"{ran.seconds:g}"))
    if ran.error is None:
        return ran.value, None
    error = ran.error
    if isinstance(error, ProposerError) and error.__cause__ is not None:  # the loop's wrapper: name the student's own
        error = error.__cause__
    if isinstance(error, NotImplementedError):
        return None, failed(t("check.stub", what=what))
    name, message = compare.type_name(error), compare.error_text(error)
    if not message:
        return None, failed(t("check.raised_bare", what=what, error=name))
    return None, failed(t("check.raised", what=what, error=name, message=message))


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


def _unchanged() -> Verdict | None:
    """None if the pack is as the checks found it (toyhw/course/pristine.py); else the failed verdict naming what a
    cell replaced: the check's truth would come from the replacement."""
    names = pristine.changed()
    pristine.watch()  # modules the pack loaded since: noted from now on
    if not names:
        return None
    shown = listed(names[:3]) + (t("list.separator") + "…" if len(names) > 3 else "")
    return failed(t("check.pack_changed", names=shown))


def on_one_line(check: Callable[..., Verdict]) -> Callable[..., Verdict]:
    """Return `check` as a notebook's `exercise_K` runs: refused if a cell replaced a part of the pack (`_unchanged`),
    inside a runner session (the student's output shown up to a few lines, the rest counted in one line after them),
    anything the check itself raises on a strange answer turned into a verdict, and the verdict made one line."""

    @functools.wraps(check)
    def fitted(*args: Any, **kwargs: Any) -> Verdict:
        with runner.session() as cut:
            try:
                refused = _unchanged()
                verdict = refused if refused is not None else check(*args, **kwargs)
            except KeyboardInterrupt:
                raise
            except BaseException as error:  # reading an answer went wrong in a way no rule foresaw: a sentence still
                verdict = failed(
                    t("check.unreadable", error=compare.type_name(error), message=compare.error_text(error))
                )
        if cut.chars:
            note = t("check.output_cut", lines=f"{cut.lines:,}", chars=f"{cut.chars:,}")
            print(("\n" if cut.shown_open else "") + note, flush=True)
        return fit(verdict)

    return fitted
