"""Read the prose of the course notebooks the way the content tests need it (no kernel, no execution).

The notebooks are the pack's text: every Think! needs an answer a student can unfold, every exercise a worked solution,
every number the prose quotes a value the pack computes. These helpers find those parts in the stored `.ipynb` files.
"""
from __future__ import annotations

import json
import pathlib
import re
from dataclasses import dataclass

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


# Notebooks whose prose has been brought to the course standard (answers, solutions, static views, recomputed numbers).
# The content tests run on these; the list grows notebook by notebook and goes away when it holds them all.
CONVERTED: tuple[str, ...] = ("01", "02", "03", "04", "05", "06", "07", "08")


def converted_paths() -> list[pathlib.Path]:
    """Return the notebooks the content tests check (see CONVERTED)."""
    return [p for p in notebook_paths() if p.name[:2] in CONVERTED]


def cells(path: pathlib.Path) -> list[Cell]:
    """Return the cells of the notebook at `path`."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    return [Cell(i, c.get("id", ""), c["cell_type"], "".join(c["source"]), tuple(c.get("outputs", ())))
            for i, c in enumerate(nb["cells"])]


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


# ----- numbers in prose

# Regions of markdown whose numbers are not prose figures: code (it is what it says), math (formulas), HTML tags and
# link targets, headings and timing lines (structure), and references to the pack's own structure or to sources.
_EXEMPT = [
    re.compile(r"```.*?```", re.S),                       # fenced code
    re.compile(r"`[^`\n]*`"),                              # inline code
    re.compile(r"\$\$.*?\$\$", re.S),                     # display math
    re.compile(r"\$[^$\n]*\$"),                            # inline math
    re.compile(r"<[^>\n]*>"),                              # HTML tags
    re.compile(r"\]\([^)\s]*\)"),                          # link targets
    re.compile(r"^#{1,6} .*$", re.M),                      # headings
    re.compile(r"^\*Estimated timing.*$", re.M),           # timing lines
    re.compile(r"^\*(Lecture|Lectures) .*$", re.M),       # the line under a notebook's title
    re.compile(r"^\s*\d+\.\s", re.M),                      # numbered-list markers
    re.compile(r"\*\*(Think!|Exercise)\s*\d+\.?\*\*"),     # prompt labels
    re.compile(r"\b(Think!|Exercise|Section|Sections|[Nn]otebooks?|[Ll]ectures?|[Ss]cript|[Dd]emos?|[Cc]ells?|"
               r"[Qq]uestions?|[Ss]tep|[Pp]art)\s+\d+(\s*(-|–|,|and|or|to)\s*\d+)*\b"),
    re.compile(r"\barXiv[: ]*\d{4}\.\d{4,5}(v\d+)?"),     # paper ids
    re.compile(r"\b(Table|Tables|Figure|Figures|Fig\.|[Ss]ection|§|Appendix|Eq\.|[Cc]hapter)\s*\d+(\.\d+)*"),
    re.compile(r"\b(19|20)\d\d\b"),                        # years
    re.compile(r"\b(fast|vs)_[\w.]+"),                    # metric names: fast_1, fast_1.5, fast_p
    re.compile(r"\b[A-Za-z][\w.+-]*\d[\w.+-]*"),          # identifiers with digits: H100, BF16, Llama-3, 8B, 2MNK
    re.compile(r"\b\d+[A-Za-z][\w-]*(/\d+)?"),             # 70B/8, 8B, 2D, 1st: digits glued to letters
    re.compile(r"\[\^?\d+\]"),                             # footnote-style reference markers
]
NUMBER = re.compile(r"(?<![\w.])[-−+]?\d[\d,]*(\.\d+)?(%|x|×)?")


def blank_exempt(text: str) -> str:
    """Return `text` with every exempt region replaced by spaces (positions kept)."""
    out = list(text)
    for pattern in _EXEMPT:
        for m in pattern.finditer(text):
            out[m.start():m.end()] = " " * (m.end() - m.start())
    return "".join(out)


def uncovered_numbers(text: str, quotes: list[str]) -> list[str]:
    """Return the prose numbers of `text` that no quote covers, each with its context (empty when all are covered)."""
    plain = blank_exempt(text)
    covered = [False] * len(text)
    for quote in quotes:
        for m in re.finditer(re.escape(quote), text):
            covered[m.start():m.end()] = [True] * (m.end() - m.start())
    found = []
    for m in NUMBER.finditer(plain):
        if not all(covered[m.start():m.end()]):
            context = text[max(0, m.start() - 40): m.end() + 40].replace("\n", " ")
            found.append(f"{m.group(0)!r} in '...{context}...'")
    return found
