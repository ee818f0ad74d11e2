"""The one way an exercise check runs a student's code: under a time limit, its output cut, every error caught.

A check cell calls the student's function, and the student's function may loop for ever, print 90 MB, call
`sys.exit()`, raise a BaseException of its own or return a value whose repr raises. Each of these would hang the
kernel, flood the cell or show a traceback instead of the check's one line. So every check runs the student's code
through `call` (a time limit; whatever it raises, or that it did not return, comes back as a value) inside `session`
(the student's output passes through up to a few lines, then is only counted). toyhw.course.check turns what comes
back into the verdict's words.

Why a signal and not a subprocess: the student's functions are closures in the kernel's namespace and return
closures, frames and programs, which cannot be pickled to another process. SIGALRM interrupts Python code in the main
thread (where Jupyter runs a cell) and time.sleep; elsewhere (another thread, or a system without SIGALRM) a trace
function looks at the clock on every line, which is slower but stops a loop just the same. The student's own
interrupt (the kernel's stop button: KeyboardInterrupt) is never caught: it stops the check as it stops any cell.
"""

from __future__ import annotations

import contextlib
import io
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Optional, TextIO

LIMIT_S = 5.0
"""The time limit of one call, unless a check states another: a right answer to a quick exercise takes well under a
second, and a class notices a cell that hangs for more than a few."""

AGAIN_S = 0.1
"""After the limit, how often the alarm fires again: a student's `except BaseException: pass` in a loop swallows the
first one."""

HEAD_LINES = 5
"""Lines of a student's output a check cell shows (a debug print is for reading the first lines)."""

HEAD_CHARS = 2_000
"""Characters of it shown at most: a 10 MB line is not a few lines."""


class TimeUp(BaseException):
    """The time limit of `call` passed. A BaseException, so that a student's `except Exception` does not catch it."""


@dataclass(frozen=True)
class Ran:
    """What came of a student's code: its `value`, or the `error` it raised, or that it did not return in `seconds`.

    Attributes:
        value: what the code returned (None when it raised or timed out).
        error: the exception it raised (any BaseException but KeyboardInterrupt), or None.
        timed_out: True when it had not returned after `seconds` (whatever it did with the alarm).
        seconds: the time limit it ran under, in seconds.
    """

    value: Any
    error: Optional[BaseException]
    timed_out: bool
    seconds: float

    @property
    def ok(self) -> bool:
        return self.error is None and not self.timed_out


def check_seconds(seconds: object) -> float:
    """Return `seconds` if it is a positive number of seconds, else ValueError naming it."""
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 < seconds < 86_400:
        raise ValueError(f"seconds = {seconds!r} is not allowed; give a number of seconds above 0 and below a day")
    return float(seconds)


def call(work: Callable[[], Any], seconds: float = LIMIT_S) -> Ran:
    """Run `work()` for at most `seconds`; return what came of it (never raise, but KeyboardInterrupt).

    A call inside another `call` keeps the outer limit too: it ends at whichever comes first.
    """
    seconds = check_seconds(seconds)
    main = threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")
    limit = _Limit(seconds, alarm=main)
    try:
        with limit:
            try:
                value = work()
            except BaseException as error:  # a student's code may raise anything, SystemExit included
                limit.stop()
                if isinstance(error, KeyboardInterrupt):  # the student's own stop button: it stops the check too
                    raise
                if isinstance(error, TimeUp) or limit.passed:
                    return Ran(None, None, True, seconds)
                return Ran(None, error, False, seconds)
            limit.stop()
            return Ran(None, None, True, seconds) if limit.passed else Ran(value, None, False, seconds)
    except TimeUp:  # the alarm rang between the student's return and the limit's end: it did take that long
        return Ran(None, None, True, seconds)


class _Limit:
    """A time limit on the code run inside `with`: TimeUp raised in it once `seconds` have passed.

    With `alarm` (the main thread), SIGALRM rings after `seconds`, and again every AGAIN_S; from the second ring on, a
    trace function raises TimeUp on the next line of the student's code as well, so an `except BaseException: pass`
    that swallowed the first one raises it again from its own handler. Without `alarm`, the trace function alone looks
    at the clock (and cannot come back after a swallowed TimeUp: Python drops a trace function that raises). Frames of
    this module are never interrupted: `call` must be able to report. A loop inside one C call (`sum(itertools.count())`)
    runs no Python line: neither this nor the kernel's interrupt stops it.
    """

    def __init__(self, seconds: float, alarm: bool) -> None:
        self.seconds, self.alarm = seconds, alarm
        self.passed = self.tracing = self.done = False
        self.deadline = time.monotonic() + seconds

    def __enter__(self) -> "_Limit":
        self.outer_trace = sys.gettrace()
        if self.alarm:
            self.outer_delay, _ = signal.getitimer(signal.ITIMER_REAL)
            self.outer_handler = signal.signal(signal.SIGALRM, self._ring)
            delay = min(self.seconds, self.outer_delay) if self.outer_delay else self.seconds
            signal.setitimer(signal.ITIMER_REAL, delay)
        else:
            self._trace_from(None)
        return self

    def _ring(self, signum: int, frame: Any) -> None:
        if self.done:
            return
        if self.passed:  # the last TimeUp was swallowed: raise it from every line, the handler's own too
            self._trace_from(frame)
        self.passed = True
        signal.setitimer(signal.ITIMER_REAL, AGAIN_S)
        raise TimeUp()

    def _trace(self, frame: Any, event: str, arg: Any) -> Any:
        # Only on a line: raised on the "exception" event, TimeUp would replace the one on its way to the student's
        # handler, and Python stops a trace function that raises, so the handler's own line would run untraced.
        if event != "line" or self.done or frame.f_code.co_filename == __file__:
            return self._trace
        if self.passed or time.monotonic() > self.deadline:
            self.passed = True
            raise TimeUp()
        return self._trace

    def _trace_from(self, frame: Any) -> None:
        """Trace from now on, in the frames running `frame` (the student's, up to `call`) and in every new one."""
        self.tracing = True
        sys.settrace(self._trace)
        while frame is not None and frame.f_code.co_filename != __file__:
            frame.f_trace = self._trace
            frame = frame.f_back

    def stop(self) -> None:
        """End the limit (the student's code has returned or raised): no alarm, no trace."""
        if self.done:
            return
        self.done = True
        if self.alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
        if self.tracing:
            sys.settrace(self.outer_trace)

    def __exit__(self, *exc: Any) -> None:
        self.stop()
        if self.alarm:
            signal.signal(signal.SIGALRM, self.outer_handler)
            if self.outer_delay:  # an outer limit keeps running: what is left of it, or at once if it passed
                left = self.outer_delay - (time.monotonic() - (self.deadline - self.seconds))
                signal.setitimer(signal.ITIMER_REAL, max(left, 1e-6))


@dataclass
class Cut:
    """What a session kept back of the student's output, and whether what it showed ends inside a line.

    Attributes:
        chars: characters not shown.
        newlines: line ends among them.
        open: the last character not shown is not a line end (a line was cut, or the output ends without one).
        shown_open: the last character shown is not a line end (the note about the rest starts a line of its own).
    """

    chars: int = 0
    newlines: int = 0
    open: bool = False
    shown_open: bool = False

    @property
    def lines(self) -> int:
        """The lines not shown, a line cut in the middle counted as one."""
        return self.newlines + self.open


class _Head(io.TextIOBase):
    """A text stream that passes what is written to `target` until the session's budget of lines and characters is
    spent, then only counts it (in `cut`)."""

    def __init__(self, target: TextIO, budget: dict[str, int], cut: Cut) -> None:
        super().__init__()
        self._target, self._budget, self._cut = target, budget, cut

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return "utf-8"

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        shown = ""
        if self._budget["lines"] > 0 and self._budget["chars"] > 0:
            shown = text[: self._budget["chars"]]
            ends = [i for i, c in enumerate(shown) if c == "\n"][: self._budget["lines"]]
            if len(ends) == self._budget["lines"]:
                shown = shown[: ends[-1] + 1]
            self._budget["lines"] -= shown.count("\n")
            self._budget["chars"] -= len(shown)
            if len(shown) < len(text):
                self._budget["lines"] = 0  # cut here: a later write must not go on with a line cut short
            if shown:
                self._cut.shown_open = not shown.endswith("\n")
                with contextlib.suppress(Exception):  # the real stream's trouble is not the student's answer
                    self._target.write(shown)
        rest = text[len(shown) :]
        if rest:
            self._cut.chars += len(rest)
            self._cut.newlines += rest.count("\n")
            self._cut.open = not rest.endswith("\n")
        return len(text)

    def flush(self) -> None:
        with contextlib.suppress(Exception):
            self._target.flush()


@contextlib.contextmanager
def session(lines: int = HEAD_LINES, chars: int = HEAD_CHARS) -> Iterator[Cut]:
    """Pass the first `lines` lines (at most `chars` characters) of everything written to sys.stdout and sys.stderr
    inside the block, and count the rest; yield the count (filled in as the block runs).

    A session inside another (a check that calls a check) adds nothing: the outer one already cuts.
    """
    if isinstance(sys.stdout, _Head):
        yield Cut()
        return
    budget, cut = {"lines": lines, "chars": chars}, Cut()
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Head(out, budget, cut), _Head(err, budget, cut)
    try:
        yield cut
    finally:
        sys.stdout, sys.stderr = out, err
