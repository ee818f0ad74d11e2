"""The one runner and the one comparison every exercise check uses (toyhw/course/runner.py, compare.py, pristine.py).

Why: a student's code runs inside the check cell. A loop, a sleep or an endless iterator must end in a verdict within
the stated limit (and the kernel go on); a debug print must not put megabytes in the cell; `sys.exit()`, a
BaseException of the student's own, a repr that raises and an int too long to print must come back as one line that
names them. And the comparison must not be lied to: no coercion, no trust in the answer's own `==`, no truth taken
from a part of the pack a cell replaced.
"""

from __future__ import annotations

import io
import itertools
import signal
import sys
import time
from contextlib import redirect_stdout

import numpy as np
import pandas as pd
import pytest

from toyhw import i18n
from toyhw.course import compare, pristine, runner
from toyhw.course.check import WIDTH, Verdict, attempt, failed, on_one_line, passed
from toyhw.evolve.programs import expert_program
from toyhw.gemm.config import GemmConfig
from toyhw.kernels import knobs, proposers
from toyhw.kernels.knobs import KernelConfig
from toyhw.textwidth import display_width


class _Own(BaseException):
    """A student's BaseException subclass."""


def _one_line(verdict: Verdict) -> str:
    text = str(verdict)
    assert "\n" not in text and display_width(text) <= WIDTH, text
    return text


def _loops():
    while True:
        pass


def _swallows():
    while True:
        try:
            while True:
                pass
        except BaseException:  # noqa: BLE001 (a student who swallows even the alarm)
            pass


def _endless():
    while True:
        yield 1


@pytest.mark.parametrize(
    "work",
    [_loops, lambda: time.sleep(60), lambda: sum(_endless()), _swallows],
    ids=["loop", "sleep", "endless-generator", "swallows-the-alarm"],
)
def test_code_that_does_not_return_gets_a_verdict_within_the_stated_limit(work):
    handler, (outer, _) = signal.getsignal(signal.SIGALRM), signal.getitimer(signal.ITIMER_REAL)
    start = time.monotonic()
    value, verdict = attempt("f", work, seconds=0.5)
    took = time.monotonic() - start
    assert value is None and _one_line(verdict) == "✗ f did not return within 0.5 s"
    assert took < 2.0, took
    _alarm_put_back(handler, outer)
    assert not isinstance(getattr(sys.gettrace(), "__self__", None), runner._Limit)  # no trace of ours left


def _alarm_put_back(handler, outer: float) -> None:
    """The alarm is what it was before the call: the same handler, and the outer limit (pytest's own, if it runs
    with one) still running, or none."""
    left, _ = signal.getitimer(signal.ITIMER_REAL)
    assert signal.getsignal(signal.SIGALRM) is handler
    assert (left == 0.0) if not outer else (0.0 < left <= outer), (left, outer)


def test_an_endless_iterator_returned_is_read_no_further_than_any_answer_needs():
    start = time.monotonic()
    read = compare.plain(itertools.count())
    assert isinstance(read, compare.Alien) and read.text == "a count of more than 100,000 items"
    assert compare.plain(iter([1, 2])) == [1, 2] and compare.plain(x * 2 for x in range(3)) == [0, 2, 4]
    assert time.monotonic() - start < 2.0


def test_the_limit_is_said_in_the_readers_language():
    with i18n.using("zh"):
        _, verdict = attempt("f", _loops, seconds=0.2)
    assert str(verdict) == "✗ f 在 0.2 秒内没有返回"


def test_an_inner_call_keeps_the_outer_limit_and_the_alarm_is_put_back():
    handler, (outer, _) = signal.getsignal(signal.SIGALRM), signal.getitimer(signal.ITIMER_REAL)
    start = time.monotonic()
    found = runner.call(lambda: runner.call(_loops, seconds=30), seconds=0.5)
    assert time.monotonic() - start < 2.0 and (found.timed_out or found.value.timed_out)
    assert runner.call(lambda: 3, seconds=1).value == 3
    _alarm_put_back(handler, outer)


def test_a_thread_without_the_alarm_is_stopped_by_the_trace():
    import threading

    found = []
    worker = threading.Thread(target=lambda: found.append(runner.call(_loops, seconds=0.3)))
    worker.start()
    worker.join(5)
    assert not worker.is_alive() and found[0].timed_out


@pytest.mark.parametrize(
    "work, said",
    [
        (lambda: sys.exit(), "✗ f raised SystemExit"),
        (lambda: sys.exit(3), "✗ f raised SystemExit: 3"),
        (lambda: sys.exit("bye"), "✗ f raised SystemExit: bye"),
        (lambda: (_ for _ in ()).throw(_Own("mine")), "✗ f raised _Own: mine"),
        (lambda: (_ for _ in ()).throw(GeneratorExit()), "✗ f raised GeneratorExit"),
        (lambda: 1 / 0, "✗ f raised ZeroDivisionError: division by zero"),
        (lambda: (_ for _ in ()).throw(NotImplementedError()), "✗ f is still the stub"),
    ],
)
def test_everything_but_the_students_interrupt_becomes_a_verdict(work, said):
    value, verdict = attempt("f", work)
    assert value is None and _one_line(verdict).startswith(said), verdict


def test_the_students_interrupt_stops_the_check_as_it_stops_any_cell():
    def interrupted():
        raise KeyboardInterrupt

    handler, (outer, _) = signal.getsignal(signal.SIGALRM), signal.getitimer(signal.ITIMER_REAL)
    with pytest.raises(KeyboardInterrupt):
        attempt("f", interrupted)
    _alarm_put_back(handler, outer)


def test_an_error_whose_message_cannot_be_read_is_still_named():
    class Mute(Exception):
        def __str__(self):
            raise RuntimeError("no")

    class Slow(Exception):
        def __str__(self):
            _loops()

    def raising(error):
        def work():
            raise error

        return work

    assert str(attempt("f", raising(Mute()))[1]) == "✗ f raised Mute: (its message cannot be read)"
    assert str(attempt("f", raising(Slow()))[1]) == "✗ f raised Slow: (its message cannot be read)"


def test_the_seconds_are_checked():
    for bad in (0, -1, "5", True, float("nan"), 10**9):
        with pytest.raises(ValueError, match="seconds = .* is not allowed"):
            runner.call(lambda: 1, seconds=bad)


# ----- output


def _through_a_check(work):
    @on_one_line
    def exercise():
        value, verdict = attempt("f", work)
        return verdict if verdict is not None else passed("done")

    out = io.StringIO()
    with redirect_stdout(out):
        verdict = exercise()
    return verdict, out.getvalue()


def test_a_10_mb_print_shows_a_few_lines_and_says_how_much_more():
    verdict, shown = _through_a_check(lambda: print("x" * 10_000_000))
    assert verdict.ok
    lines = shown.splitlines()
    assert len(lines) == 2 and len(shown) < runner.HEAD_CHARS + 200, lines[-1]
    assert lines[-1] == "… and 1 more lines of output (9,998,001 characters), not shown"


def test_a_print_per_call_shows_the_first_lines_of_the_whole_check():
    verdict, shown = _through_a_check(lambda: [print(i) for i in range(100_000)])
    lines = shown.splitlines()
    assert lines[: runner.HEAD_LINES] == [str(i) for i in range(runner.HEAD_LINES)]
    assert lines[-1] == "… and 99,995 more lines of output (588,880 characters), not shown"
    assert len(lines) == runner.HEAD_LINES + 1
    with i18n.using("zh"):
        _, shown = _through_a_check(lambda: [print(i) for i in range(100_000)])
    assert shown.splitlines()[-1] == "……还有 99,995 行输出（588,880 个字符）没有显示"


def test_output_on_stderr_counts_too_and_the_streams_are_put_back():
    before = sys.stdout, sys.stderr
    verdict, shown = _through_a_check(lambda: [print("e", file=sys.stderr) for _ in range(10)])
    assert (sys.stdout, sys.stderr) == before
    assert shown.splitlines()[-1] == "… and 5 more lines of output (10 characters), not shown"


def test_a_check_that_prints_nothing_adds_nothing():
    verdict, shown = _through_a_check(lambda: 1)
    assert verdict.ok and shown == ""


# ----- reading and comparing


@pytest.mark.parametrize(
    "value, number",
    [
        (0.762, 0.762),
        (np.float32(0.5), 0.5),
        (np.int64(3), 3.0),
        (3, 3.0),
        ("0.762", None),
        (True, None),
        (np.True_, None),
        (None, None),
        (float("nan"), None),
        (float("inf"), None),
        ([0.5], None),
    ],
)
def test_a_number_is_an_int_a_float_or_a_numpy_number_and_nothing_else(value, number):
    assert compare.number(value) == number


@pytest.mark.parametrize(
    "value, count", [(17, 17), (np.int64(17), 17), (17.0, 17), ("17", None), (13.9, None), (True, None), (None, None)]
)
def test_a_count_is_a_whole_number_never_coerced(value, count):
    assert compare.whole(value) == count


def test_a_yes_or_no_is_a_bool_and_the_string_false_is_not_false():
    assert compare.truth(False) is False and compare.truth(np.True_) is True
    assert compare.truth("False") is None and compare.truth(0) is None and compare.truth("yes") is None


def test_the_comparison_takes_its_rules_from_the_reference_not_from_the_answer():
    class AlwaysEqual(KernelConfig):
        def __eq__(self, other):
            return True

        __hash__ = KernelConfig.__hash__

    want = KernelConfig(tile=16)
    assert not compare.same(compare.plain(AlwaysEqual()), want)
    assert isinstance(compare.plain(AlwaysEqual()), compare.Alien)
    assert compare.same(compare.plain(KernelConfig(tile=16)), want)
    assert compare.same((np.False_, np.int64(2)), (False, 2)) and not compare.same(("yes", "2"), (True, 2))
    assert not compare.same((0, 2), (False, 2)) and not compare.same(1, True)
    assert compare.same({"a": [1, 2.0]}, {"a": (1, 2.0)}) and not compare.same({"a": 1, "b": 2}, {"a": 1})
    assert compare.same(0.7620001, 0.762, tolerance=1e-6) and not compare.same("0.762", 0.762, tolerance=1)


def test_a_record_changed_behind_its_back_is_not_a_record_of_the_pack():
    config = KernelConfig(tile=16)
    object.__setattr__(config, "tile", 17)
    assert isinstance(compare.plain(config), compare.Alien)
    program = expert_program()
    assert compare.plain(program) == program and compare.plain(program) is not program


def test_plain_data_is_built_with_the_builtin_types_own_methods():
    class Lying(dict):
        def items(self):
            return [("lie", 1)]

    class Sneaky(str):
        def __eq__(self, other):
            return True

        __hash__ = str.__hash__

    assert compare.plain(Lying(a=1)) == {"a": 1}
    assert type(compare.plain(Sneaky("x"))) is str and not compare.same(compare.plain(Sneaky("x")), "y")
    frame = pd.DataFrame({"gap": [np.float32(0.1), 0.2]}, index=pd.Index([100, 300], name="programs"))
    rebuilt = compare.plain(frame)
    assert type(rebuilt) is pd.DataFrame and rebuilt.loc[300, "gap"] == 0.2 and rebuilt.index.name == "programs"
    assert compare.plain(np.array([1, 2])) == [1, 2]
    assert isinstance(compare.plain(lambda: 1), compare.Alien)
    assert type(compare.plain(GemmConfig(64, 64, 64))) is GemmConfig


def test_a_value_is_shown_in_one_short_line_whatever_its_repr_does():
    class Raises:
        def __repr__(self):
            raise ValueError("no")

    class Loops:
        def __repr__(self):
            _loops()

    assert "Raises" in compare.shown(Raises())
    assert compare.shown(Loops()) == "a Loops (its repr did not return within 1 s)"
    assert compare.shown(10**4000 + 1) == "an int of 4,001 digits"
    assert compare.shown([10**5000, 1]) == "[an int of 5,001 digits, 1]"
    assert len(compare.shown("x" * 10_000)) <= compare.SHOWN_CHARS
    with i18n.using("zh"):
        assert compare.shown(10**4000) == "一个 4,001 位的整数"


def test_two_different_numbers_never_print_alike():
    assert compare.apart(0.7619047619, 0.762) == ("0.7619", "0.7620")
    assert compare.apart(0.5, 0.5) == ("0.500", "0.500")
    assert compare.apart(1.0, 1.0 + 1e-12) == ("1.000000000000", "1.000000000001")
    got, want = compare.apart(0.1, 0.1 + 2**-55)
    assert got != want


def test_an_answer_of_thousands_of_digits_gets_a_verdict_not_a_traceback():
    @on_one_line
    def exercise(answer):
        return failed(f"it gives {compare.shown(answer)}")

    assert str(exercise(10**5000)) == "✗ it gives an int of 5,001 digits"


# ----- the pack as the checks found it


def test_a_replaced_part_of_the_pack_is_named_and_the_check_refuses_until_it_is_put_back(monkeypatch):
    import toyhw.course.checks.nb02  # noqa: F401 (its import notes the pack)

    assert pristine.changed() == []
    monkeypatch.setattr(proposers, "fix_failure", lambda feedback, config, rng: config)
    monkeypatch.setattr(knobs, "KNOBS", dict(knobs.KNOBS))  # a dict: mutable state, not compared
    assert pristine.changed() == ["kernels.proposers.fix_failure"]

    @on_one_line
    def exercise():
        return passed("fine")

    verdict = exercise()
    assert _one_line(verdict).startswith("✗ a cell replaced part of the pack (kernels.proposers.fix_failure)")
    monkeypatch.undo()
    assert pristine.changed() == [] and exercise().ok


def test_a_registry_entry_replaced_is_named_and_an_equal_constant_rebound_is_not(monkeypatch):
    import toyhw.course.checks.nb02  # noqa: F401
    import toyhw.course.checks.nb04  # noqa: F401 (it notes the evolution's modules)
    from toyhw.evolve.experiments import ablations

    monkeypatch.setitem(proposers.PROPOSERS._items, "explain", proposers.suggest)
    monkeypatch.setattr(ablations, "SEEDS", (0, 1, 2, 3, 4))
    assert pristine.changed() == ["kernels.proposers.PROPOSERS[explain]"]
    monkeypatch.setattr(ablations, "SEEDS", (0,))
    assert "evolve.experiments.ablations.SEEDS" in pristine.changed()
