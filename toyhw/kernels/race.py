"""Who is in a race: every competitor (a built-in mode or a student's proposer) under a unique, visible row name.

Why not just the function's `__name__`: tables and curves are keyed by row name, so two competitors with one name
would silently become one row — a student's proposer called `scalar` would replace the built-in `scalar` row, and two
lambdas would collapse into one. The rule (applied in the order the competitors are given):

- a built-in mode keeps its name ("scalar"), whether given by name or as the registered function itself;
- a proposer function keeps its `__name__` when no other competitor has that name and it is no built-in's name
  (notebook 02's `my_proposer` stays "my_proposer");
- a function named like a built-in gets " (yours)": a student's `scalar` is the row "scalar (yours)";
- functions that share a name are numbered in order: "<lambda> #1", "<lambda> #2";
- given a mapping {name: competitor}, its names are used as given, except that a built-in's name given to anything
  but that built-in also gets " (yours)".

The same competitor twice (one name or one function object) is refused: it would be one row run twice.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Sequence, Union

from toyhw.checks import MAX_COMPETITORS, UnknownNameError, check_list
from toyhw.kernels.optimize import ProposerLike
from toyhw.kernels.proposers import PROPOSERS

Competitors = Union[Sequence[ProposerLike], Mapping[str, ProposerLike]]
YOURS = " (yours)"
"""Appended to a student's proposer that carries a built-in's name."""


def builtin_name(mode: ProposerLike) -> str | None:
    """Return the built-in mode's name for a mode name or a registered proposer function, else None."""
    if isinstance(mode, str):
        return mode if mode in PROPOSERS else None
    for name in PROPOSERS:
        if PROPOSERS.get(name) is mode:
            return name
    return None


def check_mode(name: str, mode: object) -> ProposerLike:
    """Return `mode` (a registered function as its built-in name); refuse anything but a known name or a callable."""
    if isinstance(mode, str):
        if mode not in PROPOSERS:
            raise UnknownNameError(f"unknown feedback mode {mode!r}; known: {', '.join(PROPOSERS)}")
        return mode
    if not callable(mode):
        raise ValueError(
            f"{name} = {mode!r} is not allowed; give a mode name ({', '.join(PROPOSERS)}) or a "
            "proposer function (feedback, config, rng) -> config"
        )
    return builtin_name(mode) or mode  # type: ignore[return-value]


def _function_name(mode: ProposerLike) -> str:
    name = getattr(mode, "__name__", None)
    return name if isinstance(name, str) and name else type(mode).__name__


def competitors(modes: Competitors, name: str = "modes") -> dict[str, ProposerLike]:
    """Return {row name: competitor} for `modes` (a sequence, or a mapping of names), named by the module's rule.

    Raises ValueError naming `name` for an empty list, a string instead of a list, more than MAX_COMPETITORS, an
    item that is neither a known mode name nor a function, or the same competitor twice.
    """
    if isinstance(modes, Mapping):
        for key in modes:
            if not isinstance(key, str) or not key.strip():
                raise ValueError(f"{name} has the name {key!r}; names must be non-empty strings")
        given = check_list(name, list(modes.values()), check_mode, MAX_COMPETITORS, "mode")
        return {
            (key if builtin_name(mode) == key or key not in PROPOSERS else key + YOURS): mode
            for key, mode in zip(modes, given)
        }
    given = check_list(name, modes, check_mode, MAX_COMPETITORS, "mode")
    bases = [
        mode if isinstance(mode, str) else _function_name(mode) + (YOURS if _function_name(mode) in PROPOSERS else "")
        for mode in given
    ]
    counts, seen = Counter(bases), Counter()
    named: dict[str, ProposerLike] = {}
    for base, mode in zip(bases, given):
        seen[base] += 1
        label = f"{base} #{seen[base]}" if counts[base] > 1 else base
        while label in named:  # only if a student named a function "f #2" and raced two other f's
            label += "'"
        named[label] = mode
    return named
