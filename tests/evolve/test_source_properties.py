"""Properties of the program parser: random programs survive render -> parse; random and hostile source gives a
Program or the parser's own SourceError, never anything else (no RecursionError, MemoryError, TypeError...)."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from toyhw.evolve.programs import Program, Rule, render
from toyhw.evolve.source import SourceError, parse, static_check
from toyhw.gemm.config import FIELDS, GemmConfig
from toyhw.gemm.shapes import MAX_DIM

configs = st.builds(GemmConfig, *(st.sampled_from(v) for v in FIELDS.values()))
bound = st.one_of(st.none(), st.integers(0, 64), st.integers(0, MAX_DIM))


@st.composite
def rules(draw):
    values = [draw(bound) for _ in range(6)]
    if all(v is None for v in values):
        values[draw(st.integers(0, 5))] = draw(st.integers(0, MAX_DIM))
    return Rule(draw(configs), *values)


@settings(max_examples=200)
@given(st.builds(Program, st.lists(rules(), max_size=12).map(tuple), configs))
def test_render_then_parse_gives_the_program_back_for_any_bounds(program):
    assert parse(render(program)) == program


def _parses_or_refuses(source) -> None:
    """Assert that `source` parses, or fails with SourceError only; static_check likewise."""
    for call in (parse, static_check):
        try:
            call(source)
        except SourceError:
            pass


# the rule language's own words and a few of Python's, glued at random: near misses of real programs
WORDS = [
    "def",
    "choose",
    "(",
    ")",
    "M",
    "N",
    "K",
    ",",
    ":",
    "\n",
    "    ",
    "        ",
    "if",
    "elif",
    "else",
    "return",
    "Config",
    "=",
    "==",
    "<=",
    "<",
    ">",
    ">=",
    "!=",
    "and",
    "or",
    "not",
    "lambda",
    "0",
    "16",
    "4096",
    "-1",
    "block_m",
    "split_k",
    "**",
    "+",
    "[",
    "]",
    "{",
    "}",
    "'''",
    '"',
    "#",
    "\\",
    "\t",
    "\x00",
    "\ud800",
    "yield",
    "import os",
    "__import__",
    ".",
    "9" * 50,
    "1e3",
    "None",
    "@",
    "async",
    "await",
    ";",
    "pass",
    "x",
]
near_misses = st.lists(st.sampled_from(WORDS), max_size=60).map(" ".join)


@settings(max_examples=300)
@given(st.one_of(st.text(max_size=300), near_misses))
def test_random_source_gives_a_program_or_the_parsers_own_error(source):
    _parses_or_refuses(source)


@st.composite
def hostile(draw):
    """Source built to break parsers: deep nesting, long chains, many branches, huge literals, odd bytes."""
    n = draw(st.integers(1, 4000))
    kind = draw(
        st.sampled_from(
            [
                "parens",
                "brackets",
                "not",
                "minus",
                "plus",
                "attr",
                "ifexp",
                "elif",
                "indent",
                "call",
                "literal",
                "lambda",
                "walrus",
                "bytes",
            ]
        )
    )
    head = "def choose(M, N, K):\n    if "
    tail = ":\n        return Config()\n    return Config()\n"
    body = {
        "parens": "(" * n + "M" + ")" * n + " <= 1",
        "brackets": "[" * n + "]" * n,
        "not": "not " * n + "M",
        "minus": "M <= " + "-" * n + "1",
        "plus": "M <= " + "+".join(["1"] * n),
        "attr": "M" + ".x" * n,
        "ifexp": "1 if M else " * n + "2",
        "call": "M" + "()" * n,
        "literal": "M <= " + "7" * n,
        "lambda": "lambda: " * n + "M",
        "walrus": "(x := " * min(n, 150) + "M" + ")" * min(n, 150),
        "bytes": draw(st.text(alphabet=st.characters(max_codepoint=0x10FFFF), max_size=200)),
    }.get(kind)
    if kind == "elif":
        return (
            "def choose(M, N, K):\n    if M <= 0:\n        return Config()\n"
            + "".join(f"    elif M <= {i}:\n        return Config()\n" for i in range(1, n))
            + "    return Config()\n"
        )
    if kind == "indent":
        return "def choose(M, N, K):\n" + "".join(" " * (i + 1) + "if M:\n" for i in range(min(n, 400)))
    return head + body + tail


@settings(max_examples=120)
@given(hostile())
def test_hostile_source_gives_the_parsers_own_error(source):
    _parses_or_refuses(source)
