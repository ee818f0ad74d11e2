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
        why = ("an integer of more than 1,000 digits is beyond every limit" if re.fullmatch(r"\s*[+-]?[0-9]+\s*", text)
               else f"give an integer, e.g. {example}")
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


def int_list(option: str, check: Check, max_len: int, what: str, example: str) -> Callable[[str], list[int]]:
    """Return an argparse type that reads "5,10,20" as [5, 10, 20]: each item passed through `check`, at least one
    and at most `max_len` items, none repeated (a median over a repeated run is wrong without looking wrong)."""

    def parse(text: str) -> list[int]:
        parts = [part.strip() for part in text.split(",") if part.strip()]
        refused = f"{option} = {_show(text)} is not allowed;"
        if not parts:
            raise argparse.ArgumentTypeError(f"{refused} give one or more {what}s, e.g. {example}")
        if len(parts) > max_len:
            raise argparse.ArgumentTypeError(f"{refused} give at most {max_len} {what}s")
        values = []
        for part in parts:
            if not re.fullmatch(_INTEGER, part):
                raise argparse.ArgumentTypeError(f"{refused} give comma-separated integers, e.g. {example}")
            try:
                values.append(check(option, int(part)))
            except ValueError as err:
                raise argparse.ArgumentTypeError(f"{refused} {_show(part)}: {_allowed(err)}") from None
        repeated = next((v for i, v in enumerate(values) if v in values[:i]), None)
        if repeated is not None:
            raise argparse.ArgumentTypeError(f"{refused} it lists {repeated} twice; give each {what} once")
        return values

    parse.__name__ = option
    return parse


def name_list(option: str, what: str, example: str) -> Callable[[str], list[str]]:
    """Return an argparse type that reads "a,b" as ["a", "b"]: at least one name, none repeated (whether each name is
    known is checked by the library call, whose error lists the known ones)."""

    def parse(text: str) -> list[str]:
        names = [part.strip() for part in text.split(",") if part.strip()]
        refused = f"{option} = {_show(text)} is not allowed;"
        if not names:
            raise argparse.ArgumentTypeError(f"{refused} give one or more {what}s, e.g. {example}")
        repeated = next((n for i, n in enumerate(names) if n in names[:i]), None)
        if repeated is not None:
            raise argparse.ArgumentTypeError(f"{refused} it lists {repeated} twice; give each {what} once")
        return names

    parse.__name__ = option
    return parse


def gemm_shape(option: str, max_dim: int) -> Callable[[str], tuple[int, int, int]]:
    """Return an argparse type that reads "16x4096x4096" as (M, N, K), each an integer from 1 to `max_dim`."""

    def parse(text: str) -> tuple[int, int, int]:
        found = re.fullmatch(_SHAPE, text) if len(text) <= 100 else None
        values = tuple(int(v) for v in found.groups()) if found else ()
        if len(values) != 3 or not all(1 <= v <= max_dim for v in values):
            raise argparse.ArgumentTypeError(f"{option} = {_show(text)} is not allowed; give MxNxK with positive "
                                             f"integers, e.g. 16x4096x4096 (each at most {max_dim:,})")
        return values  # type: ignore[return-value]

    parse.__name__ = option
    return parse


def seed(option: str) -> Callable[[str], int]:
    """Return an argparse type for one seed (an integer >= 0: `random.Random(-3)` would repeat `Random(3)`)."""
    return integer(option, checks.check_seed, "230")
