"""A model's reply read into a proposal: SEARCH/REPLACE diff blocks or a whole program, parsed, never executed.

Why this module: a real model answers in text. AlphaEvolve asks for diff blocks over the parent's source

    <<<<<<< SEARCH
    (lines copied from the current program)
    =======
    (the lines that replace them)
    >>>>>>> REPLACE

and a model may also send the whole program in a ```python block. The reply is turned into program source (blocks
applied exactly; a SEARCH text that is not in the source, or is there more than once, means the diff does not apply),
then parsed with toyhw.evolve.source.parse, which only reads the rule language. Anything else - prose without code,
hostile code, an empty or oversized reply - is a failed proposal whose description says why; nothing is executed.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Sequence

from toyhw.evolve.llm import Proposal, failed_proposal
from toyhw.evolve.programs import Program, render
from toyhw.evolve.source import parse

MAX_REPLY_CHARS = 100_000
"""Longer replies are refused unread (a program of this pack is a few thousand characters)."""
MAX_RULES = 200
"""Programs with more rules are refused (the evaluator's cost grows with the rules; the mock's have a few dozen)."""
SEARCH, DIVIDER, REPLACE = "<<<<<<< SEARCH", "=======", ">>>>>>> REPLACE"
_SEARCH_LINE = re.compile(r"<{5,} SEARCH[ \t]*")
_DIVIDER_LINE = re.compile(r"={5,}[ \t]*")
_REPLACE_LINE = re.compile(r">{5,} REPLACE[ \t]*")
_FENCE_OPEN = re.compile(r"```[ \t]*(?:python|py)?[ \t]*")
THINK_OPEN, THINK_CLOSE = "<think>", "</think>"
"""Why line scanners and not regular expressions with lazy DOTALL groups: a small model stuck repeating a diff header
("<<<<<<< SEARCH\n=======\n" thousands of times) or "<think>" makes such a pattern retry from every start, quadratic
in the reply (minutes for 100 kB). Each scanner below reads every line once: parsing is linear in the reply."""


@dataclass(frozen=True)
class Block:
    """One SEARCH/REPLACE block.

    Attributes:
        search: the lines to find in the current source (exactly, whole lines).
        replace: the lines to put in their place.
    """

    search: str
    replace: str


class ReplyError(ValueError):
    """A reply that gives no program; the message says why (it becomes the failed proposal's description)."""


class _Lines:
    """The lines of a text split at "\\n" only, with their offsets, scanned forward (each line is looked at once)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0]
        at = text.find("\n")
        while at >= 0:
            self.starts.append(at + 1)
            at = text.find("\n", at + 1)

    def __len__(self) -> int:
        return len(self.starts)

    def line(self, i: int) -> str:
        """Return line i without its newline."""
        end = self.starts[i + 1] - 1 if i + 1 < len(self.starts) else len(self.text)
        return self.text[self.starts[i] : end]

    def ended(self, i: int) -> bool:
        """Return whether line i ends with a newline (the last line may not)."""
        return i + 1 < len(self.starts)

    def find(self, pattern: "re.Pattern[str]", start: int, ended: bool = True) -> int:
        """Return the first line from `start` on that `pattern` matches whole (ending in a newline if `ended`), or
        -1."""
        for i in range(start, len(self.starts)):
            if (not ended or self.ended(i)) and pattern.fullmatch(self.line(i)):
                return i
        return -1

    def between(self, first: int, stop: int) -> str:
        """Return the text of lines first .. stop - 1, newlines included."""
        return self.text[self.starts[first] : self.starts[stop]]


def diff_blocks(text: str) -> list[Block]:
    """Return the SEARCH/REPLACE blocks of `text`, in order (none when it has none).

    A block is a SEARCH line, the lines up to the first divider line, the lines up to the first REPLACE line after it;
    the next block is looked for after that REPLACE line. A SEARCH line with no divider and REPLACE line after it ends
    the scan (no later SEARCH line can have them either).
    """
    lines, blocks, i = _Lines(text), [], 0
    while True:
        search = lines.find(_SEARCH_LINE, i)
        divider = lines.find(_DIVIDER_LINE, search + 1) if search >= 0 else -1
        replace = lines.find(_REPLACE_LINE, divider + 1, ended=False) if divider >= 0 else -1
        if replace < 0:
            return blocks
        blocks.append(Block(lines.between(search + 1, divider), lines.between(divider + 1, replace)))
        i = replace + 1


def without_thinking(text: str) -> str:
    """Return `text` without its <think>...</think> spans (reasoning models think aloud first); an unclosed
    <think> and what follows it are kept."""
    kept, at = [], 0
    while True:
        start = text.find(THINK_OPEN, at)
        end = text.find(THINK_CLOSE, start + len(THINK_OPEN)) if start >= 0 else -1
        if end < 0:
            kept.append(text[at:])
            return "".join(kept)
        kept.append(text[at:start])
        at = end + len(THINK_CLOSE)


def _fences(text: str) -> list[str]:
    """Return the contents of the text's ``` code blocks (plain, python or py), in order."""
    lines, found, i = _Lines(text), [], 0
    while True:
        start = lines.find(_FENCE_OPEN, i)
        close = (
            next((j for j in range(start + 1, len(lines)) if lines.line(j).startswith("```")), -1) if start >= 0 else -1
        )
        if close < 0:
            return found
        found.append(lines.between(start + 1, close))
        i = close + 1


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines()]


def _text(lines: Sequence[str]) -> str:
    return "".join(line + "\n" for line in lines)


def apply_blocks(source: str, blocks: Sequence[Block]) -> str:
    """Return `source` with every block applied in turn; ReplyError when a SEARCH text is not found exactly once.

    Matching is by whole lines, exactly (trailing spaces ignored): a model that misquotes the program gets a diff that
    does not apply, with the block's number and first line, rather than a guess at what it meant.
    """
    lines = _lines(source)
    for number, block in enumerate(blocks, 1):
        search, replace = _lines(block.search), _lines(block.replace)
        if not search:
            raise ReplyError(
                f"diff does not apply: block {number} has an empty SEARCH text; copy the lines to "
                "replace from the current program"
            )
        first, size = search[0], len(search)
        starts = [
            i
            for i, line in enumerate(lines[: len(lines) - size + 1])
            if line == first and lines[i : i + size] == search
        ]
        if len(starts) != 1:
            where = "is not in the current program" if not starts else f"occurs {len(starts)} times"
            raise ReplyError(
                f"diff does not apply: the SEARCH text of block {number} (starting {search[0].strip()!r})"
                f" {where}; it must be whole lines copied exactly, occurring once"
            )
        i = starts[0]
        lines[i : i + len(search)] = replace
    return _text(lines)


def fenced_program(text: str) -> str | None:
    """Return the last fenced code block of `text` that defines `choose`, None when there is none."""
    blocks = [b for b in _fences(text) if "def choose" in b]
    return blocks[-1] if blocks else None


def too_long(chars: int) -> str:
    """Return why a reply of `chars` characters is refused unread."""
    return f"the reply is {chars:,} characters; at most {MAX_REPLY_CHARS:,} are read"


def reply_source(text: str, parent_source: str) -> tuple[str, str]:
    """Return (the program source the reply gives, "diff" or "program"); ReplyError when it gives none."""
    if text is None or not text.strip():
        raise ReplyError("the reply is empty")
    if len(text) > MAX_REPLY_CHARS:
        raise ReplyError(too_long(len(text)))
    text = without_thinking(text)
    blocks = diff_blocks(text)
    if blocks:
        return apply_blocks(parent_source, blocks), "diff"
    program = fenced_program(text)
    if program is None and text.lstrip().startswith("def choose"):
        program = text  # a bare program, no fence
    if program is None:
        raise ReplyError("the reply has neither SEARCH/REPLACE blocks nor a ```python block with `def choose(M, N, K)`")
    return program, "program"


def summary_line(text: str) -> str:
    """Return the reply's first line of prose (its own account of the change), at most 160 characters."""
    text = without_thinking(text or "")
    for line in text.splitlines():
        line = line.strip().strip("*#").strip()
        if not line:
            continue
        if line.startswith(("```", "<<<<<<<", "def choose")):
            break
        return line if len(line) <= 160 else line[:157] + "..."
    return ""


def edit_kind(parent: Program, child: Program, inspirations: Sequence[Program] = ()) -> str:
    """Return the edit kind (toyhw.evolve.llm.OPERATORS) a child looks like, for the meta prompt's bookkeeping.

    New rules all found in an inspiration: "borrow"; as many rules as the parent: "retune"; one more: "specialize";
    more: "generalize". A reading of the result, not of the model's intent.
    """
    old = set(parent.rules)
    new = [r for r in child.rules if r not in old]
    donors = {r for p in inspirations for r in p.rules}
    if new and len(child.rules) > len(parent.rules) and all(r in donors for r in new):
        return "borrow"
    extra = len(child.rules) - len(parent.rules)
    return "retune" if extra <= 0 else "specialize" if extra == 1 else "generalize"


def read_reply(text: str, parent: Program, inspirations: Sequence[Program] = ()) -> Proposal:
    """Return the proposal a reply makes: the child and its description, or a failed proposal saying why.

    Never executes the reply: the program source is parsed into rules (toyhw.evolve.source.parse).
    """
    try:
        source, form = reply_source(text, render(parent))
        child = parse(source)
    except (ValueError, RecursionError) as err:  # ReplyError, or the parser's message naming the line
        reason = str(err) if isinstance(err, ReplyError) else f"the program does not parse: {err}"
        return failed_proposal(reason)
    if len(child.rules) > MAX_RULES:
        return failed_proposal(f"the program has {len(child.rules)} rules; at most {MAX_RULES} are allowed")
    said = summary_line(text) or f"a {'diff' if form == 'diff' else 'whole program'} without explanation"
    return Proposal(child, f"{said} ({form})", edit_kind(parent, child, inspirations))


def as_diff(parent_source: str, child_source: str) -> str:
    """Return SEARCH/REPLACE blocks turning `parent_source` into `child_source` (how a model would write the edit).

    Each change becomes one block, widened by neighbouring lines until its SEARCH text occurs once; if the blocks do
    not reproduce the child exactly, one block replaces the whole function body. Equal sources give "".
    """
    old, new = _lines(parent_source), _lines(child_source)
    blocks = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        while True:
            search = old[i1:i2]
            if search and sum(old[k : k + len(search)] == search for k in range(len(old) - len(search) + 1)) == 1:
                break
            if i1 > 1:
                i1, j1 = i1 - 1, j1 - 1
            elif i2 < len(old):
                i2, j2 = i2 + 1, j2 + 1
            else:
                break
        blocks.append(Block(_text(old[i1:i2]), _text(new[j1:j2])))
    try:
        if apply_blocks(parent_source, blocks) != _text(new):
            raise ReplyError("overlapping blocks")
    except ReplyError:
        blocks = [Block(_text(old[1:]), _text(new[1:]))]
    return "\n".join(f"{SEARCH}\n{b.search}{DIVIDER}\n{b.replace}{REPLACE}" for b in blocks)
