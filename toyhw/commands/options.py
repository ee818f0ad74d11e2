"""Parsers for option values shared by the commands: integers within the pack's limits, seeds, comma-separated
lists without repeats, and GEMM shapes; each error names the option, the text given and what is allowed.

They reuse toyhw.checks, so an option refuses exactly what the library call behind it refuses, in the same words.
"""

from __future__ import annotations

import argparse
import re
from typing import Any, Callable, Optional

from toyhw import checks

Check = Callable[[str, Any], Any]
"""A check of toyhw.checks: (name, value) -> value, or ValueError "name = value is not allowed; <what is allowed>"."""

_SHAPE = r"\s*([0-9]+)\s*[xX]\s*([0-9]+)\s*[xX]\s*([0-9]+)\s*"


def _show(text: str) -> str:
    """Return `text` quoted for an error message, cut to 60 characters (an option's value can be megabytes long)."""
    return repr(text) if len(text) <= 60 else repr(text[:57] + "...")


def _allowed(err: ValueError) -> str:
    """Return the "what is allowed" half of a toyhw.checks message ("x = 3 is not allowed; <this>")."""
    return str(err).split(" is not allowed; ", 1)[-1]


_INTEGER = r"\s*[+-]?[0-9]{1,1000}\s*"
"""An integer as an option's text: int() would also take "1_000", "١" and (slowly) a million digits. Patterns are
compiled on first use (re caches them), not at import: start-up time matters."""


def _integer(option: str, text: str, example: str) -> int:
    if not re.fullmatch(_INTEGER, text):
        why = (
            "an integer of more than 1,000 digits is beyond every limit"
            if re.fullmatch(r"\s*[+-]?[0-9]+\s*", text)
            else f"give an integer, e.g. {example}"
        )
        raise argparse.ArgumentTypeError(f"{option} = {_show(text)} is not allowed; {why}")
    return int(text)


def integer(option: str, check: Optional[Check], example: str) -> Callable[[str], int]:
    """Return an argparse type that reads one integer and passes it through `check` (e.g. checks.check_tasks; None:
    the library call behind the option checks the value)."""

    def parse(text: str) -> int:
        value = _integer(option, text, example)
        try:
            return check(option, value) if check is not None else value
        except ValueError as err:
            raise argparse.ArgumentTypeError(str(err)) from None

    parse.__name__ = option  # argparse shows this name in its own messages
    return parse


def _items(option: str, text: str, what: str, example: str, max_len: int) -> list[str]:
    """Return the comma-separated items of `text`; refuse none and more than `max_len`."""
    items = [part.strip() for part in text.split(",") if part.strip()]
    if not items:
        raise argparse.ArgumentTypeError(
            f"{option} = {_show(text)} is not allowed; give one or more {what}s, e.g. {example}"
        )
    if len(items) > max_len:
        raise argparse.ArgumentTypeError(f"{option} = {_show(text)} is not allowed; give at most {max_len} {what}s")
    return items


def _once(option: str, text: str, values: list, what: str) -> list:
    """Return `values`; refuse a repeated one (a median over a repeated run is wrong without looking wrong)."""
    repeated = next((v for i, v in enumerate(values) if v in values[:i]), None)
    if repeated is not None:
        raise argparse.ArgumentTypeError(
            f"{option} = {_show(text)} is not allowed; it lists {repeated} twice; give each {what} once"
        )
    return values


def int_list(option: str, check: Check, max_len: int, what: str, example: str) -> Callable[[str], list[int]]:
    """Return an argparse type that reads "5,10,20" as [5, 10, 20]: each item passed through `check`, at least one
    and at most `max_len` items, none repeated."""

    def parse(text: str) -> list[int]:
        values = []
        for part in _items(option, text, what, example, max_len):
            if not re.fullmatch(_INTEGER, part):
                raise argparse.ArgumentTypeError(
                    f"{option} = {_show(text)} is not allowed; give comma-separated integers, e.g. {example}"
                )
            try:
                values.append(check(option, int(part)))
            except ValueError as err:
                raise argparse.ArgumentTypeError(
                    f"{option} = {_show(text)} is not allowed; {_show(part)}: {_allowed(err)}"
                ) from None
        return _once(option, text, values, what)

    parse.__name__ = option
    return parse


def name_list(option: str, what: str, example: str, max_len: int = 100) -> Callable[[str], list[str]]:
    """Return an argparse type that reads "a,b" as ["a", "b"]: at least one name and at most `max_len`, none repeated
    (whether each name is known is checked by the library call, whose error lists the known ones)."""

    def parse(text: str) -> list[str]:
        return _once(option, text, _items(option, text, what, example, max_len), what)

    parse.__name__ = option
    return parse


def seeds_and_budget(parser: argparse.ArgumentParser, seeds: list[int], budget: int, budget_help: str) -> None:
    """Add `--seeds` (distinct seeds, default `seeds`) and `--budget` (proposed programs, default `budget`)."""
    parser.add_argument(
        "--seeds",
        type=int_list("--seeds", checks.check_seed, checks.MAX_SEEDS, "seed", "0,1,2"),
        default=seeds,
        help=f"comma-separated distinct seeds, at most {checks.MAX_SEEDS} (default {','.join(map(str, seeds))})",
    )
    parser.add_argument(
        "--budget",
        type=integer("--budget", checks.check_budget, str(budget)),
        default=budget,
        help=f"{budget_help}, 1 to {checks.MAX_BUDGET:,} (default {budget})",
    )


def gemm_shape(option: str, max_dim: int) -> Callable[[str], tuple[int, int, int]]:
    """Return an argparse type that reads "16x4096x4096" as (M, N, K), each an integer from 1 to `max_dim`."""

    def parse(text: str) -> tuple[int, int, int]:
        found = re.fullmatch(_SHAPE, text) if len(text) <= 100 else None
        values = tuple(int(v) for v in found.groups()) if found else ()
        if len(values) != 3 or not all(1 <= v <= max_dim for v in values):
            raise argparse.ArgumentTypeError(
                f"{option} = {_show(text)} is not allowed; give MxNxK with positive "
                f"integers, e.g. 16x4096x4096 (each at most {max_dim:,})"
            )
        return values  # type: ignore[return-value]

    parse.__name__ = option
    return parse


def _num(value: float) -> str:
    return f"{int(value):,}" if float(value).is_integer() else f"{value:g}"


def bounded(
    option: str, low: float, high: float, example: str, kind: type = float, low_open: bool = False
) -> Callable[[str], float]:
    """Return an argparse type for one number (`kind` int or float) in [low, high] ((low, high] with `low_open`)."""

    def parse(text: str) -> float:
        try:
            value = _integer(option, text, example) if kind is int else float(text)
        except ValueError:
            value = float("nan")
        below = value <= low if low_open else value < low
        if value != value or below or value > high:  # NaN, inf and out of range alike
            bracket = "(" if low_open else "["
            raise argparse.ArgumentTypeError(
                f"{option} = {_show(text)} is not allowed; give a number in "
                f"{bracket}{_num(low)}, {_num(high)}], e.g. {example}"
            )
        return value

    parse.__name__ = option
    return parse


def seed(option: str) -> Callable[[str], int]:
    """Return an argparse type for one seed (an integer >= 0: `random.Random(-3)` would repeat `Random(3)`)."""
    return integer(option, checks.check_seed, "230")
