"""Text padded by the columns a terminal gives it, not by its length: a CJK character takes two columns.

`f"{text:<12}"` pads by characters, so a Chinese label pushes every later column of its row to the right. The lecture
script's `pad_cell` counts two columns for a wide character; here a character is wide when Unicode's East Asian Width
says W (wide) or F (fullwidth), which gives the script's widths for every label it prints (its CJK characters and
fullwidth brackets are wide, ASCII is narrow) and stays right for the narrow non-ASCII characters (é, ×, –) the
script would count double. Every table of the CLI is padded with `pad`.
"""

from __future__ import annotations

import textwrap
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


_CLOSING = frozenset("，。、；：！？）」』》%,.;:!?)")
"""Punctuation that stays on the line of the character before it (a line never starts with it)."""
_OPENING = frozenset("（「『《(")
"""Punctuation that stays on the line of the character after it (a line never ends with it)."""


def _chunks(text: str) -> list[str]:
    """Split `text` where a line may break: whitespace runs, runs of narrow characters, single wide characters;
    closing punctuation joined to the chunk before it, opening punctuation to the chunk after it."""
    chunks: list[str] = []
    for ch in text:
        kind = "space" if ch.isspace() else ("wide" if display_width(ch) == 2 else "narrow")
        last = chunks[-1] if chunks else ""
        last_kind = "space" if last[-1:].isspace() else ("wide" if display_width(last[-1:]) == 2 else "narrow")
        if chunks and (
            (kind == last_kind and kind != "wide")
            or (ch in _CLOSING and last_kind != "space")
            or (last[-1] in _OPENING and kind != "space")
        ):
            chunks[-1] += ch
        else:
            chunks.append(ch)
    return chunks


def fill(text: str, width: int, initial_indent: str = "", subsequent_indent: str = "") -> str:
    """Return `text` wrapped to lines of at most `width` display columns, like `textwrap.fill` (which counts
    characters): text without a wide character is exactly textwrap.fill's; text with one may also break between two
    CJK characters, never before closing punctuation or after opening punctuation. A chunk wider than a line is kept
    whole."""
    if display_width(text) == len(text):
        return textwrap.fill(text, width, initial_indent=initial_indent, subsequent_indent=subsequent_indent)
    lines: list[str] = []
    line, indent, space = initial_indent, initial_indent, ""
    for chunk in _chunks(" ".join(text.split())):
        if chunk.isspace():
            space = " "
            continue
        if line != indent and display_width(line + space + chunk) > width:
            lines.append(line)
            line, indent, space = subsequent_indent, subsequent_indent, ""
        line += (space if line != indent else "") + chunk
        space = ""
    lines.append(line)
    return "\n".join(lines)
