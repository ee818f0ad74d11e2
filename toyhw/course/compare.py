"""The one way an exercise check reads and compares a student's answer: exact types, the check's own copies, no trust.

What a student's function returns is read as plain data (`plain`) while it still runs under the runner's time limit:
numbers, strings, booleans, tuples, lists, dicts, sets, DataFrames rebuilt from their cells, and the pack's own frozen
records rebuilt field by field (so their checks run again). Anything else (an object of the student's own class, a
subclass of a pack type whose `==` is always true, a function) becomes an `Alien`, which equals nothing. After that a
check compares with `same`, which takes its rules from the reference's type, never from the answer's `__eq__`:

- a number is an int, a float or a numpy number (bool is not: True would silently be 1); a string where a number is
  asked is not one, and nothing is coerced ('17' is no line number, 13.9 no count, though 5.0 is five);
- a yes/no answer is a bool (or numpy's), never the string "False", which Python's bool() makes True;
- a record is the pack's exact type, compared field by field.

`shown` writes any value for a verdict without running more than a moment of the student's code (a repr that raises
or loops, a 4,001-digit int); `apart` writes numbers with just enough digits that two different ones never print
alike. A check hands the student `copied` arguments and computes its own reference from its own copies, so a student's
function that changes what it is given changes nothing the notebook (or the check) holds.
"""

from __future__ import annotations

import copy
import dataclasses
import decimal
import fractions
import math
import reprlib
from collections.abc import Iterator, Mapping
from typing import Any, Optional

import numpy as np
import pandas as pd

from toyhw.course import runner
from toyhw.i18n import t

DEPTH = 40
"""How deep `plain` reads nested containers: far more than any answer needs, far below Python's recursion limit."""

ITEMS = 100_000
"""The most items `plain` reads from an iterator a student returns (a generator, a map): far more than any answer has,
and few enough that an endless one ends in a verdict, not in the machine's memory filled."""

SHOWN_CHARS = 40
"""The longest text `shown` gives one value: a verdict is one line, and it names more than the value."""

REPR_S = 1.0
"""How long `shown` lets a student's `__repr__` run."""

_EXACT_NUMBERS = (int, float, fractions.Fraction, decimal.Decimal)


@dataclasses.dataclass(frozen=True, eq=False)
class Alien:
    """A student's value that is not plain data: kept as its type's name and a short text, and equal to nothing.

    Attributes:
        type_name: the name of the value's type, as a verdict names it.
        text: a short text for a verdict (`shown`'s).
    """

    type_name: str
    text: str

    def __repr__(self) -> str:
        return self.text


def _numpy_scalar(value: Any) -> bool:
    """True for numpy's own scalar types (np.float32, np.int64, np.bool_, np.str_), not a subclass of them."""
    return isinstance(value, np.generic) and type(value).__module__ == "numpy"


def _pack_record(value: Any) -> bool:
    """True for an instance of one of the pack's own dataclasses (a KernelConfig, a GemmConfig, a Program ...)."""
    kind = type(value)
    return dataclasses.is_dataclass(kind) and kind.__module__.startswith("toyhw.")


def plain(value: Any, depth: int = DEPTH) -> Any:
    """Return `value` as plain data of exact types (see the module's docstring), or an `Alien` where it is not.

    Call it inside the runner (`runner.call(lambda: plain(f(...)))`): it iterates the student's containers and reads
    their frames, which is the student's code running.
    """
    if depth <= 0:
        return Alien(type(value).__name__, "…")
    kind = type(value)
    if value is None or kind in (bool, str, bytes, complex) or kind in _EXACT_NUMBERS:
        return value
    if _numpy_scalar(value):
        return value.item() if not isinstance(value, (np.datetime64, np.timedelta64)) else Alien(kind.__name__, "…")
    if isinstance(value, (str, int, float)) and not isinstance(value, np.generic):  # a subclass: its data alone
        base = next(b for b in (str, int, float) if isinstance(value, b))
        return getattr(base, f"__{base.__name__}__")(value)
    if isinstance(value, (tuple, list, set, frozenset, range, dict)):
        return _plain_builtin(value, depth)
    if isinstance(value, Mapping):
        return {plain(k, depth - 1): plain(v, depth - 1) for k, v in value.items()}
    if kind is np.ndarray or kind is pd.Index:
        return [plain(x, depth - 1) for x in value.tolist()]
    if kind is pd.DataFrame:
        return _plain_frame(value, depth)
    if kind is pd.Series:
        return pd.Series([plain(x, depth - 1) for x in value.tolist()], index=_plain_index(value.index, depth))
    if _pack_record(value):
        return _rebuilt(value, depth)
    if isinstance(value, Iterator):  # a generator, a map: read in Python, item by item, so the time limit can stop it
        items = []
        for item in value:
            if len(items) == ITEMS:
                return Alien(kind.__name__, t("check.value.endless", type=kind.__name__, items=f"{ITEMS:,}"))
            items.append(plain(item, depth - 1))
        return items
    return Alien(kind.__name__, shown(value))


def _plain_builtin(value: Any, depth: int) -> Any:
    """A tuple, list, set, range or dict (or a subclass, read with the built-in type's own methods) as plain data."""
    if isinstance(value, dict):
        return {plain(k, depth - 1): plain(v, depth - 1) for k, v in dict.items(value)}
    if isinstance(value, (set, frozenset)):
        members = set.__iter__(value) if isinstance(value, set) else frozenset.__iter__(value)
        return frozenset(plain(x, depth - 1) for x in members)
    if isinstance(value, tuple):
        return tuple(plain(x, depth - 1) for x in tuple.__iter__(value))
    return [plain(x, depth - 1) for x in (list.__iter__(value) if isinstance(value, list) else value)]


def _plain_index(index: pd.Index, depth: int) -> pd.Index:
    labels = [plain(x, depth - 1) for x in index.tolist()]
    names = [plain(n, depth - 1) for n in index.names]
    if isinstance(index, pd.MultiIndex):
        return pd.MultiIndex.from_tuples(labels, names=names) if labels else pd.MultiIndex.from_tuples([], names=names)
    return pd.Index(labels, name=names[0], dtype=object if not labels else None, tupleize_cols=False)


def _plain_frame(frame: pd.DataFrame, depth: int) -> pd.DataFrame:
    """A DataFrame rebuilt from its cells, index and column labels read as plain data (pandas' own methods only)."""
    columns = [plain(c, depth - 1) for c in frame.columns.tolist()]
    rows = [[plain(x, depth - 1) for x in row] for row in frame.itertuples(index=False, name=None)]
    rebuilt = pd.DataFrame(rows, index=_plain_index(frame.index, depth), columns=range(len(columns)))
    rebuilt.columns = pd.Index(columns, dtype=object)
    return rebuilt.infer_objects()


def _rebuilt(record: Any, depth: int) -> Any:
    """One of the pack's records built again from its fields read as plain data (its own checks run again), or an
    Alien if a field is no longer what the record allows."""
    kind = type(record)
    fields = {f.name: plain(getattr(record, f.name), depth - 1) for f in dataclasses.fields(record) if f.init}
    try:
        return kind(**fields)
    except Exception:  # a field changed behind the record's back (object.__setattr__): not a record of the pack
        return Alien(kind.__name__, shown(record))


def copied(value: Any) -> Any:
    """A deep copy of `value`, to hand a student's function: what it changes in its copy, it changes nowhere else."""
    return copy.deepcopy(value)


# ----- reading one value


def number(value: Any) -> Optional[float]:
    """`value` as a float if it is a finite int, float or numpy number (not a bool, not a string), else None."""
    if isinstance(value, (bool, np.bool_)):
        return None
    if type(value) in _EXACT_NUMBERS or (_numpy_scalar(value) and isinstance(value, (np.integer, np.floating))):
        number = float(value)
        return number if math.isfinite(number) else None
    return None


def whole(value: Any) -> Optional[int]:
    """`value` as an int if it is an int, a numpy integer or a float that is a whole number (5.0 is five programs),
    else None: not a bool, not 13.9, not the string '17'."""
    if type(value) is int or (_numpy_scalar(value) and isinstance(value, np.integer)):
        return int(value)
    if type(value) is float or (_numpy_scalar(value) and isinstance(value, np.floating)):
        return int(value) if math.isfinite(value) and value == int(value) else None
    return None


def truth(value: Any) -> Optional[bool]:
    """`value` if it is a bool (or numpy's), else None: the string "False" is no answer, though bool() says True."""
    return bool(value) if type(value) is bool or type(value) is np.bool_ else None


def text(value: Any) -> Optional[str]:
    """`value` if it is a str (or numpy's), else None."""
    return str(value) if type(value) is str or type(value) is np.str_ else None


# ----- comparing


def same(got: Any, want: Any, tolerance: float = 0.0) -> bool:
    """Whether the student's `got` (plain data) is the check's `want`, by the rules of `want`'s type.

    Numbers within `tolerance` (a float `want` takes an int or a float; an int `want` a whole number), bools only as
    bools, strings only as strings, tuples and lists alike element by element, dicts and sets by their members, the
    pack's records of exactly their type field by field; `got`'s own `__eq__` is never asked.
    """
    if want is None:
        return got is None
    if isinstance(want, (bool, np.bool_)):
        return truth(got) is not None and truth(got) == bool(want)
    if isinstance(want, (int, np.integer)):
        return whole(got) is not None and whole(got) == int(want)
    if isinstance(want, (float, np.floating)):
        value = number(got)
        return value is not None and abs(value - float(want)) <= tolerance
    if isinstance(want, str):
        return text(got) == want
    if isinstance(want, (tuple, list)):
        return (
            isinstance(got, (tuple, list))
            and len(got) == len(want)
            and all(same(g, w, tolerance) for g, w in zip(got, want))
        )
    if isinstance(want, Mapping):
        if not isinstance(got, Mapping) or len(got) != len(want):
            return False
        keys = list(got)
        return all(
            len(found := [k for k in keys if same(k, key)]) == 1 and same(got[found[0]], value, tolerance)
            for key, value in want.items()
        )
    if isinstance(want, (set, frozenset)):
        return (
            isinstance(got, (set, frozenset))
            and len(got) == len(want)
            and all(any(same(g, w, tolerance) for g in got) for w in want)
        )
    if _pack_record(want):
        return type(got) is type(want) and all(
            same(getattr(got, f.name), getattr(want, f.name), tolerance) for f in dataclasses.fields(want)
        )
    return type(got) is type(want) and bool(want == got)  # a pack type the rules above do not know: its own ==


# ----- showing


class _Repr(reprlib.Repr):
    """reprlib's short repr, with an int too long for Python's str (4,300 digits) named by its length."""

    def repr_int(self, x: int, level: int) -> str:
        return _int_text(x)

    def repr_float(self, x: float, level: int) -> str:
        return repr(x)


_REPR = _Repr()
_REPR.maxstring = SHOWN_CHARS - 6
_REPR.maxother = 400  # cut by `_cut`, at the end: the start of a repr names the type
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = _REPR.maxset = _REPR.maxfrozenset = 6


def _int_text(x: int) -> str:
    digits = len(str(abs(x))) if x.bit_length() < 1000 else math.floor(math.log10(abs(x))) + 1
    if digits <= SHOWN_CHARS - 6:
        return str(x)
    return t("check.value.long_int", digits=f"{digits:,}")


def _cut(text: str, chars: int = SHOWN_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= chars else text[: chars - 1].rstrip() + "…"


def shown(value: Any) -> str:
    """A short one-line text for `value` in a verdict: its repr, cut; an int of thousands of digits by its length; a
    value whose repr raises or does not return in REPR_S by its type."""
    if isinstance(value, Alien):
        return value.text
    if type(value) is int:
        return _int_text(value)
    if type(value) is float:
        return repr(value)
    ran = runner.call(lambda: _REPR.repr(value), seconds=REPR_S)
    if ran.ok and type(ran.value) is str:
        qualified = getattr(type(value), "__qualname__", "")  # a class defined in a function: its name alone
        text = ran.value
        if isinstance(qualified, str) and "." in qualified and text.startswith(qualified):
            text = type(value).__name__ + text[len(qualified) :]
        return _cut(text)
    if ran.timed_out:
        return t("check.value.repr_hangs", type=type_name(value), seconds=f"{REPR_S:g}")
    return t("check.value.repr_raised", type=type_name(value), error=type_name(ran.error))


def type_name(value: Any) -> str:
    """The name of `value`'s type, cut for a verdict (a student's class may have any name)."""
    return _cut(type(value).__name__, 30)


def error_text(error: BaseException, chars: int = 200) -> str:
    """The message of a student's exception, on one line and cut at `chars` (its `__str__` may raise or loop too)."""
    ran = runner.call(lambda: str(error), seconds=REPR_S)
    if ran.ok and type(ran.value) is str:
        return _cut(ran.value, chars)
    return t("check.value.no_message")


def apart(*values: float, decimals: int = 3) -> tuple[str, ...]:
    """The numbers `values` written with `decimals` decimals, or as many more as it takes for different numbers to
    print differently ("0.7620" and "0.7619", not "0.762" twice)."""
    floats = [float(v) for v in values]
    if any(not math.isfinite(v) or abs(v) >= 1e6 for v in floats):  # no run of digits: the shortest exact form
        return tuple(repr(v) for v in floats)
    for places in range(decimals, 18):
        texts = tuple(f"{v:.{places}f}" for v in floats)
        if len(set(texts)) == len(set(floats)):
            return texts
    return tuple(repr(v) for v in floats)
