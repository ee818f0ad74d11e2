"""Text padded by the columns a terminal gives it, not by its length: a CJK character takes two columns.

`f"{text:<12}"` pads by characters, so a Chinese label pushes every later column of its row to the right. The lecture
script's `pad_cell` counts two columns for a wide character; here a character is wide when Unicode's East Asian Width
says W (wide) or F (fullwidth), which gives the script's widths for every label it prints (its CJK characters and
fullwidth brackets are wide, ASCII is narrow) and stays right for the narrow non-ASCII characters (é, ×, –) the
script would count double. Every table of the CLI is padded with `pad`.
"""

from __future__ import annotations

import unicodedata
from typing import Iterable

_WIDE = frozenset("WF")


def display_width(text: str) -> int:
    """Return the number of terminal columns `text` takes (2 for each wide or fullwidth character, else 1)."""
    if text.isascii():
        return len(text)
    return sum(2 if unicodedata.east_asian_width(ch) in _WIDE else 1 for ch in text)


def pad(text: object, width: int, right: bool = False) -> str:
    """Return `text` (str() of it) padded with spaces to `width` columns: on the right (left-aligned), or on the left
    with `right`; text wider than `width` is returned whole, like f"{text:<12}"."""
    text = str(text)
    gap = " " * max(0, width - display_width(text))
    return gap + text if right else text + gap


def column_width(least: int, texts: Iterable[object]) -> int:
    """Return `least`, or more when one of `texts` would fill it: one column wider than the widest text, so that a
    right-aligned column keeps a space before it in every language."""
    return max([least] + [display_width(str(text)) + 1 for text in texts])
