"""The numbers a reader reads in a markdown cell, as written, in either edition (one tokenizer for every prose test).

Why one module: the claims test (tests/test_claims.py) compares each number of a cell with the package's value, and
the zh test (tests/test_zh_edition.py) compares a zh cell's numbers with its English cell's. Both must cut a text into
the same numbers: "1.148" is not the "1.148" inside "11.148", "1,000" and "19.0%" and "2.5×" are one number each, and
"85%-89%" is 85% and 89% (a range, not a negative number).

Some numbers in a cell are structure, not figures: code, formulas, links, headings, timing lines, "Section 3",
"notebook 02", "Think! 1", paper ids and years. `EXEMPT` lists those regions per edition; the zh edition writes the
same structure in Chinese ("第 3 节", "笔记本 02", "想一想 1", "2025 年 6 月").
"""

from __future__ import annotations

import re

EDITIONS = ("en", "zh")

# A number as the prose writes it: digits with thousands commas, a decimal part, a %, × or x glued on. A sign belongs
# to it only where nothing number-like precedes it ("−3%", but not the dash of "85%-89%"). CJK characters are not word
# characters here, so "共3个" still has its 3.
NUMBER = re.compile(
    r"(?:(?<![A-Za-z0-9_.%×)\]])[-−+])?(?<![A-Za-z0-9_.])\d+(?:,\d{3}(?!\d))*(?:\.\d+)?(?:%|×|x(?![A-Za-z0-9]))?"
)

# Years (1950-2039; 2048 is a size, 2000-4000 a range of sizes, 2023-2025 a range of years).
_YEAR = re.compile(r"\b(?:19[5-9]\d|20[0-3]\d)\b(?![.,]\d|[-–](?!(?:19|20)\d\d)\d)", re.A)

# Regions whose numbers are not prose figures, in both editions: code (it is what it says), math (formulas), HTML
# tags and link targets, headings and timing lines (structure), references to the pack's own structure or to sources,
# identifiers with digits (H100, BF16, Llama-3, fast_1.5).
_COMMON = [
    re.compile(r"```.*?```", re.S),  # fenced code
    re.compile(r"`[^`\n]*`"),  # inline code
    re.compile(r"\$\$.*?\$\$", re.S),  # display math
    re.compile(r"\$[^$\n]*\$"),  # inline math
    re.compile(r"<[^>\n]*>"),  # HTML tags
    re.compile(r"\]\([^)\s]*\)"),  # link targets
    re.compile(r"^#{1,6} .*$", re.M),  # headings
    re.compile(r"^\s*\d+\.\s", re.M),  # numbered-list markers
    re.compile(r"\barXiv[: ]*\d{4}\.\d{4,5}(v\d+)?", re.A),  # paper ids
    _YEAR,
    re.compile(r"\b(fast|vs)_[\w.]+", re.A),  # metric names: fast_1, fast_1.5, fast_p
    re.compile(r"\b[A-Za-z][\w.+-]*\d[\w.+-]*", re.A),  # identifiers with digits: H100, BF16, Llama-3, 8B, 2MNK
    # digits glued to letters: 70B/8, 8B, 2D, 16x64x256 (but an ordinal, 6th or 173rd, is a number, "第 6" in zh, and
    # so is a factor, 1.32x)
    re.compile(r"(?<![\d.])\b\d+(?!(?:st|nd|rd|th)\b|x(?![A-Za-z0-9]))[A-Za-z][\w-]*(/\d+)?", re.A),
    re.compile(r"\[\^?\d+\]"),  # footnote-style reference markers
    re.compile(r"\bsolutions/\d\d_\w+\.py\b", re.A),  # an exercise's solution file (its notebook's number)
]
_ENGLISH = [
    re.compile(r"^\*Estimated timing.*$", re.M),  # timing lines
    re.compile(r"^\*(Lecture|Lectures) .*$", re.M),  # the line under a notebook's title
    re.compile(r"\*\*(Think!|Exercise)\s*\d+\.?\*\*"),  # prompt labels
    re.compile(
        r"\b(Think!|Exercise|Section|Sections|[Nn]otebooks?|[Ll]ectures?|[Ss]cript|[Dd]emos?|[Cc]ells?|"
        r"[Qq]uestions?|[Ss]tep|[Pp]art)\s+\d+(\s*(-|–|,|and|or|to)\s*\d+)*\b"
    ),
    re.compile(r"\b(Table|Tables|Figure|Figures|Fig\.|[Ss]ection|§|Appendix|Eq\.|[Cc]hapter)\s*\d+(\.\d+)*"),
]
_N = r"\d+(?:\.\d+)*"  # a section number: 3, 5.2.1
_NS = rf"{_N}(?:\s*(?:-|–|、|和|或|到|至)\s*{_N})*"  # several: 3-4, 3 和 4, 2 到 5
_CHINESE = [
    re.compile(r"^\*预计.*$", re.M),  # timing lines
    re.compile(rf"^\*第 ?{_NS} ?讲.*$", re.M),  # the line under a notebook's title
    re.compile(r"\*\*(想一想|练习)\s*\d+\.?\*\*"),  # prompt labels
    re.compile(rf"第 ?{_NS} ?(?:节|讲|部分|章|步|阶段)"),  # 第 3 节, 第 10 讲, 第 5.2.1 节, 第 3-4 节, 第 1 阶段
    re.compile(rf"(?<![\d.]){_NS} ?节"),  # a paper's section: 3.3 节
    re.compile(rf"(?:想一想|练习|笔记本|问题|演示|单元格?|图|表|附录|公式|脚本) ?{_NS}"),
    re.compile(r"前 ?\d+ ?名单"),  # "top-5 lists": a compound, as English's "top-5" is
    re.compile(r"\b(19|20)\d\d ?年 ?\d{1,2} ?月"),  # "June 2025" is "2025 年 6 月": a month is a number in Chinese
]
EXEMPT: dict[str, list[re.Pattern]] = {"en": _COMMON + _ENGLISH, "zh": _COMMON + _ENGLISH + _CHINESE}


def blank_exempt(text: str, edition: str = "en") -> str:
    """Return `text` with every exempt region of `edition` replaced by spaces (positions kept)."""
    if edition not in EXEMPT:
        raise ValueError(f"edition = {edition!r} is not an edition; give one of {', '.join(EDITIONS)}")
    return _blank(text, EXEMPT[edition])


def _blank(text: str, patterns: list[re.Pattern]) -> str:
    out = list(text)
    for pattern in patterns:
        for m in pattern.finditer(text):
            out[m.start() : m.end()] = " " * (m.end() - m.start())
    return "".join(out)


def normal(token: str) -> str:
    """Return a number as both editions compare it: a typographic minus as "-", no leading "+"."""
    return token.replace("−", "-").lstrip("+")


def tokens(text: str, edition: str = "en") -> list[str]:
    """Return the prose numbers of `text` (exempt regions left out), in order, as written."""
    return [normal(m.group(0)) for m in NUMBER.finditer(blank_exempt(text, edition))]


def value_numbers(value: str) -> list[str]:
    """Return the numbers of a claim's value ("1.148", or "8, 16, 32, 64" for a list): a value is never a year, so
    "2000" is a number here even where the prose's 2000 alone would read as one."""
    plain = _blank(value, [p for p in EXEMPT["en"] if p is not _YEAR])
    return [normal(m.group(0)) for m in NUMBER.finditer(plain)]


def spans(text: str, edition: str = "en") -> list[tuple[int, int, str]]:
    """Return (start, end, number) of each prose number of `text`, for messages that show a number's context."""
    return [(m.start(), m.end(), normal(m.group(0))) for m in NUMBER.finditer(blank_exempt(text, edition))]


def numbers(text: str) -> list[str]:
    """Return every number `text` states, exempt regions included, sorted: a zh cell states its English cell's.

    A Chinese date's month is left out ("2025 年 6 月" says "June 2025", whose month is a word in English).
    """
    text = re.sub(r"(\d{4}) ?年 ?\d{1,2} ?月", r"\1", text)
    return sorted(normal(m.group(0)) for m in NUMBER.finditer(text))
