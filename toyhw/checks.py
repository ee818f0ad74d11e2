"""Checks of input shared by every layer: the pack's limits (each with its reason), seeds, integers and lists.

Why one module: the command line, the notebooks' library calls and the widgets must refuse the same bad input with the
same sentence — the input's name, its value and what is allowed — and every limit must be written down once, with the
reason it has the value it has. Limits are generous: each is far above what the lectures use, and below the point
where a typo (an extra three zeros) would run for hours or fill the memory without a word.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Optional, TypeVar

T = TypeVar("T")

MAX_TASKS = 100_000
"""Tasks of one lecture-10 benchmark. The lecture uses 200; 100,000 tasks run the seed's table in about two minutes
(one Task and a few cached speedups each, a few hundred MB at most). More shows nothing new: fast_p is a share, and its
sampling error at 100,000 tasks is already below 0.2 percentage points."""

MAX_ROUNDS = 10_000
"""Rounds of one optimization (each a kernel run). The lecture stops at 50 and the curves are flat by 100 (the panel's
slider ends at 200); 10,000 leaves room to explore and still finishes 200 tasks in a few seconds per mode."""

MAX_ROUND_COUNTS = 100
"""Round counts in one table (`--rounds`): each is its own column and its own run; the lecture uses 4."""

MAX_COMPETITORS = 50
"""Competitors of one lecture-10 race (built-in modes and students' proposers): the lecture races 4 or 5, and a legend
of 50 lines is already unreadable."""

MAX_BUDGET = 100_000
"""Proposed programs of one evolution run. The lecture uses 1,000 (0.1 s); 100,000 take about 10 s per run, and the
run's memory stays bounded (the database keeps at most 400 programs, the history one float per program)."""

MAX_SEEDS = 100
"""Seeds in one list (`--seeds`, `ablation_study(seeds=...)`): the lecture uses 5; 100 give tight medians, and 100
seeds x 11 variants x 1,000 programs is the longest run a class needs (a few minutes, with a progress bar)."""

MAX_SEED = 2**32 - 1
"""The largest seed: 32-bit seeds are what every tool accepts (C's srand, numpy's legacy seeding), far more than a
class tries. Seeds are integers >= 0 because `random.Random(-3)` is the same stream as `Random(3)`."""

MAX_WORKERS = 256
"""Local worker processes of one sweep: beyond the cores of any one machine; more only adds start-up time."""

MAX_SOURCE_CHARS = 100_000
"""Characters of one program's source (`toyhw.evolve.source.parse`): the evolved programs are a few kB (the largest
rule lists a run produces render to under 20 kB); 100 kB parses in milliseconds and bounded memory."""

MAX_BRANCHES = 500
"""`if`/`elif` branches of one program: evolved programs have under 50; Python's own parser nests each `elif` one
level deeper, and 500 stay far from its recursion limit."""

MAX_NESTING = 50
"""Nesting depth of brackets and indented blocks in one program's source: the rule language needs 2 (a block, a
`Config(...)` call); 50 keeps every nested construct far from Python's parser and recursion limits."""

MAX_LINE_TOKENS = 1_000
"""Tokens of one logical line of a program's source: a rule's condition and its `return Config(...)` need under 60;
a bound keeps any expression's depth, and so the parser's recursion, bounded."""


class UnknownNameError(KeyError, ValueError):
    """An unknown name (a feedback mode, a variant, a GPU, a layer): a KeyError for dict-like lookups and a ValueError
    for callers that catch bad input, whose message reads as written (a plain KeyError would quote it)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def is_int(value: object) -> bool:
    """Return True for a Python int that is not a bool (True would silently be 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_int(name: str, value: Any, low: int, high: Optional[int] = None, why: str = "") -> int:
    """Return `value` if it is an integer >= `low` (and <= `high`); else raise ValueError naming `name` and the range.

    `why` says where `high` comes from (for example "MAX_ROUNDS: curves are flat by 100 rounds"), shown in the error.
    """
    allowed = f"it must be an integer >= {low}" + (f" and <= {high:,}" if high is not None else "")
    if why:
        allowed += f" ({why})"
    if not is_int(value) or value < low or (high is not None and value > high):
        raise ValueError(f"{name} = {value!r} is not allowed; {allowed}")
    return value


def check_tasks(name: str, n_tasks: Any) -> int:
    """Return `n_tasks` if it is an integer from 1 to MAX_TASKS, else raise ValueError naming `name`."""
    return check_int(name, n_tasks, 1, MAX_TASKS, "MAX_TASKS; the lecture uses 200")


def check_rounds(name: str, rounds: Any) -> int:
    """Return `rounds` if it is an integer from 1 to MAX_ROUNDS, else raise ValueError naming `name`."""
    return check_int(name, rounds, 1, MAX_ROUNDS, "MAX_ROUNDS; the curves are flat by 100 rounds")


def check_budget(name: str, budget: Any) -> int:
    """Return `budget` if it is an integer from 1 to MAX_BUDGET, else raise ValueError naming `name`."""
    return check_int(name, budget, 1, MAX_BUDGET, "proposed programs; MAX_BUDGET, the lecture uses 1,000")


def check_seed(name: str, seed: Any) -> int:
    """Return `seed` if it is an integer from 0 to MAX_SEED; else raise ValueError naming it.

    Why refuse the rest: `random.Random(-3)` draws the same stream as `Random(3)`, `Random(None)` a different stream on
    every call (the results would silently stop being reproducible), and `Random("3")` yet another one.
    """
    if not is_int(seed) or not 0 <= seed <= MAX_SEED:
        why = (
            "None would draw a different stream on every run"
            if seed is None
            else "a negative seed repeats a positive one: random.Random(-3) is Random(3)"
            if is_int(seed) and seed < 0
            else "MAX_SEED"
        )
        raise ValueError(
            f"{name} = {seed!r} is not allowed; a seed must be an integer >= 0 and <= {MAX_SEED:,} ({why})"
        )
    return seed


def check_seeds(name: str, seeds: Any) -> tuple[int, ...]:
    """Return `seeds` as a tuple: a list of 1 to MAX_SEEDS distinct seeds (each as `check_seed` wants)."""
    return check_list(name, seeds, check_seed, MAX_SEEDS, "seed")


def check_list(name: str, values: Any, check: Callable[[str, Any], T], max_len: int, what: str) -> tuple[T, ...]:
    """Return `values` as a tuple, each item passed through `check(f"{name}[i]", item)`.

    Refused, naming `name`: a string or a non-iterable (a common slip: `seeds=3`, `modes="scalar"`), an empty list,
    more than `max_len` items, and a duplicate (a median over duplicated runs, or two rows of one name, is wrong
    without looking wrong). `what` names one item in the messages ("seed", "variant").
    """
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise ValueError(f"{name} = {values!r} is not allowed; give a list of {what}s, e.g. {_example(what)}")
    items = list(values)
    if not items:
        raise ValueError(f"{name} is empty; give at least one {what}")
    if len(items) > max_len:
        raise ValueError(f"{name} has {len(items):,} {what}s; at most {max_len:,} are allowed")
    checked = tuple(check(f"{name}[{i}]", item) for i, item in enumerate(items))
    seen: dict[object, int] = {}
    for i, item in enumerate(checked):
        try:
            first = seen.setdefault(item, i)
        except TypeError:  # unhashable items (a proposer can be any callable) are compared by identity
            first = next(j for j, other in enumerate(checked) if other is item)
        if first != i:
            raise ValueError(f"{name} lists {item!r} twice (items {first} and {i}); give each {what} once")
    return checked


def _example(what: str) -> str:
    return {"seed": "[0, 1, 2]", "round count": "[5, 10, 20, 50]"}.get(what, f"['{what}1', '{what}2']")
