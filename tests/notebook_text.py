"""Read the prose of the course notebooks the way the content tests need it (no kernel, no execution).

The notebooks are the pack's text: every Think! needs an answer a student can unfold, every exercise a worked solution,
every number the prose quotes a value the pack computes. These helpers find those parts in the stored `.ipynb` files.
"""

from __future__ import annotations

import json
import pathlib
import re
from dataclasses import dataclass

import number_tokens

NOTEBOOKS = pathlib.Path(__file__).resolve().parents[1] / "notebooks"

THINK = re.compile(r"\*\*Think!\s*(\d+)\.?\*\*")
EXERCISE = re.compile(r"\*\*Exercise\s*(\d+)\.?\*\*")
DETAILS = re.compile(r"<details>\s*<summary>(.*?)</summary>(.*?)</details>", re.S)
FENCE = re.compile(r"```[\w-]*\n(.*?)```", re.S)


@dataclass(frozen=True)
class Cell:
    """One cell of a notebook.

    Attributes:
        index: its position; id: its nbformat cell id; kind: "markdown" or "code"; source: its text;
        outputs: its stored outputs (code cells).
    """

    index: int
    id: str
    kind: str
    source: str
    outputs: tuple


def notebook_paths() -> list[pathlib.Path]:
    """Return the course notebooks in teaching order."""
    return sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))


def cells(path: pathlib.Path) -> list[Cell]:
    """Return the cells of the notebook at `path`."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    return [
        Cell(i, c.get("id", ""), c["cell_type"], "".join(c["source"]), tuple(c.get("outputs", ())))
        for i, c in enumerate(nb["cells"])
    ]


def markdown(path: pathlib.Path) -> str:
    """Return all markdown of the notebook, cells joined by blank lines (the prose a reader sees)."""
    return "\n\n".join(c.source for c in cells(path) if c.kind == "markdown")


def after(text: str, start: int, stop: re.Pattern) -> str:
    """Return the text from `start` up to the next match of `stop` or the next heading, whichever comes first."""
    rest = text[start:]
    ends = [m.start() for m in (stop.search(rest, 1), re.search(r"\n#{1,6} ", rest)) if m]
    return rest[: min(ends)] if ends else rest


def prompts(text: str, pattern: re.Pattern) -> list[tuple[str, str]]:
    """Return (number, the text that follows up to the next prompt or heading) for each match of `pattern`."""
    return [(m.group(1), after(text, m.start(), pattern)) for m in pattern.finditer(text)]


def details(block: str) -> list[tuple[str, str]]:
    """Return (summary, body) of each <details> block in `block`."""
    return [(s.strip(), b) for s, b in DETAILS.findall(block)]


# ----- numbers in prose (the tokenizer and the exempt regions are number_tokens', shared with the claims and zh tests)


def uncovered_numbers(text: str, quotes: list[str]) -> list[str]:
    """Return the prose numbers of `text` that no quote covers, each with its context (empty when all are covered)."""
    plain = number_tokens.blank_exempt(text, "en")
    covered = [False] * len(text)
    for quote in quotes:
        for m in re.finditer(re.escape(quote), text):
            covered[m.start() : m.end()] = [True] * (m.end() - m.start())
    found = []
    for m in number_tokens.NUMBER.finditer(plain):
        if not all(covered[m.start() : m.end()]):
            context = text[max(0, m.start() - 40) : m.end() + 40].replace("\n", " ")
            found.append(f"{m.group(0)!r} in '...{context}...'")
    return found


# ----- comparative sentences

# Words that make a sentence compare things or quantify over them ("X ends above Y", "most seeds", "never"). A sentence
# with one of them, outside code, math, headings and tables, states a comparison the pack's results must bear out, or
# is a definition, an instruction, a question or a paper's figure (see tests/test_comparison_claims.py).
COMPARATIVE = re.compile(
    r"\b(above|below|more|less|fewer|higher|lower|faster|slower|better|worse|beats?|beaten|ahead|behind|than|most|"
    r"least|never|always|none|worst|equal|exceeds?|overtakes?|stalls?|wins?|loses?|largest|smallest|highest|lowest|"
    r"fastest|slowest|catches up|leads?|trails?)\b"
    # "every", "all", "only", "same", "best" mostly define things ("every kernel is compared with", "the best config
    # seen"); they flag a sentence when they quantify over the results: seeds, runs, rows, variants, budgets, rounds.
    r"|\b(every|all|each|both|none of the|same|only)\b[^.;:]{0,24}?\b(seeds?|runs?|rows?|variants?|budgets?|"
    r"round counts?|times?|order|ranks?)\b",
    re.I,
)
# "above"/"below" as a direction on the page ("the cell below", "the table above shows") compare nothing.
_ON_THE_PAGE = re.compile(
    r"\b(?:the|a|this)\s+(?:[\w-]+\s+){0,2}(?:below|above)(?=\s*[.,:;)]|\s*$|\s+(?:shows?|lists?|is|are|has|have|"
    r"runs?|draws?|plots?|gives?|reads?|counts?|add|adds|prints?|lets?|holds?|and|with|to|for|in|on|from|that|which|"
    r"scores?|compares?|renders?|replays?|\())|\b(?:see|shown|listed|described|as)\s+(?:below|above)\b"
    r"|\b(?:below|above)\s*:",
    re.I | re.M,
)

# Regions that are not running prose: blocks (code, display math, summaries, headings, table rows, timing lines) end
# sentences; inline code, math, HTML tags and link targets are part of a sentence but never flag it.
_BLOCKS = [
    re.compile(r"```.*?```", re.S),
    re.compile(r"\$\$.*?\$\$", re.S),
    re.compile(r"<summary>.*?</summary>", re.S),
    re.compile(r"^#{1,6} .*$", re.M),
    re.compile(r"^\s*\|.*$", re.M),
    re.compile(r"^\*Estimated timing.*$", re.M),
]
_INLINE = [
    re.compile(r"`[^`\n]*`"),
    re.compile(r"\$[^$\n]*\$"),
    re.compile(r"<[^>\n]*>"),
    re.compile(r"\]\([^)\s]*\)"),
]


def _blank(text: str, patterns: list[re.Pattern]) -> str:
    """Return `text` with each match of `patterns` replaced by spaces (newlines and positions kept)."""
    for pattern in patterns:
        text = pattern.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    return text


# A sentence ends at . ! ? (or a colon closing a line) followed by space and a capital, a list item or a blank line.
_ABBREVIATIONS = re.compile(r"\b(e\.g|i\.e|vs|cf|Fig|Eq|al|etc|approx)\.$")
_BREAK = re.compile(r"\n\s*\n|\n(?=\s*(?:[-*+]|\d+\.)\s)|(?<=[.!?])[*_)\"']*\s+(?=[*_(\"'`]*[A-Z0-9`*])")


@dataclass(frozen=True)
class Sentence:
    """One sentence of prose: its character span in the markdown and its text with whitespace collapsed."""

    start: int
    end: int
    text: str


def sentences(text: str) -> list[Sentence]:
    """Split the prose of markdown `text` into sentences, with spans into `text` (code blocks, math, headings and
    tables are blanked first, so they neither split nor join sentences)."""
    plain = _blank(text, _BLOCKS)
    bounds, start = [], 0
    for m in _BREAK.finditer(plain):
        if _ABBREVIATIONS.search(plain[start : m.start()].rstrip()):
            continue
        bounds.append((start, m.start()))
        start = m.end()
    bounds.append((start, len(plain)))
    out = []
    for a, b in bounds:
        while a < b and plain[a].isspace():
            a += 1
        while b > a and plain[b - 1].isspace():
            b -= 1
        if a < b:
            out.append(Sentence(a, b, " ".join(text[a:b].split())))
    return out


def comparative(text: str) -> list[Sentence]:
    """Return the sentences of markdown `text` whose prose (code, math, tags and directions on the page blanked) has a
    comparative word."""
    plain = _blank(_blank(text, _BLOCKS + _INLINE), [_ON_THE_PAGE])
    return [s for s in sentences(text) if COMPARATIVE.search(plain[s.start : s.end])]
