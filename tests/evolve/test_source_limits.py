"""The parser refuses oversized, too deeply nested or too branchy source with its own error, quickly and in bounded
memory (before Python's parser, which would raise RecursionError or MemoryError or take seconds on megabytes)."""

import tracemalloc

import pytest

from toyhw.checks import MAX_BRANCHES, MAX_NESTING, MAX_SOURCE_CHARS
from toyhw.evolve.programs import Program, Rule, render
from toyhw.evolve.source import SourceError, parse, static_check
from toyhw.gemm.config import GemmConfig

HEAD = "def choose(M, N, K):\n"
DEFAULT = "    return Config()\n"


def _elifs(n: int) -> str:
    return (
        HEAD
        + "    if M <= 1:\n        return Config()\n"
        + "".join(f"    elif M <= {i + 2}:\n        return Config()\n" for i in range(n - 1))
        + DEFAULT
    )


HOSTILE = {
    "11 MB program": (_elifs(20) + "#" * 11_000_000, "at most 100,000 are allowed (MAX_SOURCE_CHARS)"),
    "a thousand branches": (_elifs(1000), f"more than {MAX_BRANCHES} if/elif branches (MAX_BRANCHES)"),
    "deep brackets": (
        HEAD + "    if M <= " + "(" * 300 + "1" + ")" * 300 + ":\n        return Config()\n" + DEFAULT,
        f"nested more than {MAX_NESTING} levels deep (MAX_NESTING)",
    ),
    "deep blocks": (HEAD + "".join(" " * (i + 1) + "if M:\n" for i in range(120)), "(MAX_NESTING)"),
    "long operator chain": (
        HEAD + "    if M <= " + "+".join(["1"] * 10_000) + ":\n        return Config()\n" + DEFAULT,
        "(MAX_LINE_TOKENS)",
    ),
    "not chain": (HEAD + "    if " + "not " * 10_000 + "M:\n        return Config()\n" + DEFAULT, "(MAX_LINE_TOKENS)"),
    "null byte": (HEAD + "    return Config()\x00\n", "syntax error"),
    "lone surrogate": (HEAD + "    '\ud800'\n" + DEFAULT, "cannot be parsed"),
    "huge literal": (HEAD + "    if M <= " + "9" * 5000 + ":\n        return Config()\n" + DEFAULT, "syntax error"),
    "bound beyond MAX_DIM": (
        HEAD + "    if M <= 99999999999:\n        return Config()\n" + DEFAULT,
        "the bound on M must be an integer literal from 0 to 2,147,483,647",
    ),
}


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_source_gets_the_parsers_own_error_in_bounded_memory(name):
    source, message = HOSTILE[name]
    tracemalloc.start()
    try:
        with pytest.raises(SourceError) as err:
            parse(source)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert message in str(err.value)
    assert peak < 50_000_000  # bytes; Python's parser took 1.8 GB on the 11 MB program
    assert isinstance(err.value, ValueError)


def test_the_limits_leave_room_for_any_evolved_program():
    config = GemmConfig(64, 128, 64, 4, 4, 1)
    program = Program(tuple(Rule(config, m_min=i, m_max=i + 1, n_min=i, k_max=10**6) for i in range(200)), config)
    source = render(program)
    assert len(source) < MAX_SOURCE_CHARS and parse(source) == program and static_check(source)[0]
    assert parse(_elifs(MAX_BRANCHES)).n_rules() == MAX_BRANCHES + 1


def test_nested_and_is_one_condition_and_or_is_still_refused():
    nested = HEAD + "    if (M <= 16 and N <= 4096) and (K >= 1 and (M >= 2)):\n        return Config()\n" + DEFAULT
    assert parse(nested).rules[0] == Rule(GemmConfig(), m_min=2, m_max=16, n_max=4096, k_min=1)
    with pytest.raises(SourceError, match="line 2: `or` is not allowed"):
        parse(HEAD + "    if (M <= 16 or N <= 4096) and K >= 1:\n        return Config()\n" + DEFAULT)


def test_a_non_string_is_refused_with_the_parsers_error():
    with pytest.raises(SourceError, match="program source must be a string, not bytes"):
        parse(b"def choose(M, N, K): return Config()")
