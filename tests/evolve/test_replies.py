"""Reading a model's reply: SEARCH/REPLACE blocks or a whole program, parsed and never executed; failures say why."""

import random
import re

import pytest

from toyhw.evolve.bridge import replies
from toyhw.evolve.experiments.ablations import context
from toyhw.evolve.evaluator import Evaluator
from toyhw.evolve.loop import evolve
from toyhw.evolve.programs import Program, Rule, expert_program, render
from toyhw.evolve.bridge.replies import MAX_REPLY_CHARS, as_diff, edit_kind, read_reply
from toyhw.evolve.source import parse
from toyhw.gemm.config import GemmConfig

PARENT = expert_program()
SOURCE = render(PARENT)
NEW_RULE = (
    "    if M <= 4 and K >= 8192:\n"
    "        return Config(block_m=16, block_n=64, block_k=128, num_warps=2, num_stages=4, split_k=4)\n"
)
DIFF = (
    "Split-K for deep-K decode shapes.\n<<<<<<< SEARCH\n    if M <= 16:\n=======\n"
    + NEW_RULE
    + "    if M <= 16:\n>>>>>>> REPLACE\n"
)
CHILD = Program((Rule(GemmConfig(16, 64, 128, 2, 4, 4), m_max=4, k_min=8192),) + PARENT.rules, PARENT.default)


def test_a_diff_is_applied_to_the_parents_source_and_parsed():
    proposal = read_reply(DIFF, PARENT)
    assert proposal.program == CHILD and proposal.operator == "specialize"
    assert proposal.description == "Split-K for deep-K decode shapes. (diff)"


def test_a_whole_program_in_a_fence_with_prose_around_it():
    reply = f"Here is my improved heuristic:\n\n```python\n{render(CHILD)}```\n\nIt should help decode shapes."
    proposal = read_reply(reply, PARENT)
    assert proposal.program == CHILD and proposal.description == "Here is my improved heuristic: (program)"


def test_a_bare_program_and_a_reasoning_models_thinking_are_read():
    assert read_reply(render(CHILD), PARENT).program == CHILD
    reply = "<think>\nMaybe `def choose` should ... <<<<<<< SEARCH\n</think>\n" + DIFF
    assert read_reply(reply, PARENT).program == CHILD


def test_several_blocks_apply_in_order():
    second = (
        "<<<<<<< SEARCH\n    if M <= 128:\n        return Config(block_m=64, block_n=64, block_k=128, "
        "num_warps=4, num_stages=4, split_k=1)\n=======\n    if M <= 128:\n        return Config(block_m=64, "
        "block_n=128, block_k=128, num_warps=4, num_stages=4, split_k=1)\n>>>>>>> REPLACE\n"
    )
    child = read_reply(DIFF + second, PARENT).program
    assert child.rules[0] == CHILD.rules[0] and child.rules[2].config == GemmConfig(64, 128, 128, 4, 4, 1)


@pytest.mark.parametrize(
    "reply, reason",
    [
        ("<<<<<<< SEARCH\n    if M <= 17:\n=======\n    if M <= 18:\n>>>>>>> REPLACE", "diff does not apply"),
        (
            "<<<<<<< SEARCH\n        return Config(block_m=16, block_n=64, block_k=256, num_warps=4, num_stages=5, "
            "split_k=1)\n    if M <= 128:\n=======\n>>>>>>> REPLACE\n" * 2,
            "diff does not apply",
        ),  # second: gone
        ("<<<<<<< SEARCH\n=======\n    if M <= 18:\n>>>>>>> REPLACE", "empty SEARCH"),
        ("", "the reply is empty"),
        ("   \n", "the reply is empty"),
        ("I would use bigger tiles for prefill and split-K for decode.", "neither SEARCH/REPLACE blocks nor"),
        (
            "```python\nimport os\nos.system('echo hi')\n```\n```python\ndef choose(M, N, K):\n    return os.getcwd()\n```",
            "does not parse",
        ),
        (
            "```python\ndef choose(M, N, K):\n    if M <= 16 or K > 4:\n        return Config()\n    return Config()\n```",
            "`or` is not allowed",
        ),
    ],
)
def test_replies_that_give_no_program_are_failed_proposals_with_the_reason(reply, reason):
    proposal = read_reply(reply, PARENT)
    assert proposal.program is None and proposal.operator is None and reason in proposal.description


def test_an_ambiguous_search_text_does_not_apply():
    parent = Program((Rule(GemmConfig(), m_max=1),) + PARENT.rules[:1] + (Rule(GemmConfig(), m_max=2),), PARENT.default)
    line = render(parent).splitlines()[2]  # the first rule's return line, the same as the third's
    reply = f"<<<<<<< SEARCH\n{line}\n=======\n{line}\n>>>>>>> REPLACE"
    assert "occurs 2 times" in read_reply(reply, parent).description


def test_hostile_code_is_refused_and_never_executed(tmp_path):
    marker = tmp_path / "pwned"
    hostile = (
        f"```python\ndef choose(M, N, K):\n    __import__('pathlib').Path({str(marker)!r}).touch()\n"
        "    return Config()\n```"
    )
    for reply in (
        hostile,
        hostile.replace("```python\n", "```python\nimport os\n"),
        f"<<<<<<< SEARCH\n    if M <= 16:\n=======\n    open({str(marker)!r}, 'w')\n    if M <= 16:\n>>>>>>> REPLACE",
    ):
        proposal = read_reply(reply, PARENT)
        assert proposal.program is None and "does not parse" in proposal.description
    assert not marker.exists()


def test_oversized_replies_and_programs_are_refused():
    assert "at most" in read_reply("x" * (MAX_REPLY_CHARS + 1), PARENT).description
    rules = "".join(f"    if M == {i}:\n        return Config()\n" for i in range(replies.MAX_RULES + 1))
    proposal = read_reply(f"```python\ndef choose(M, N, K):\n{rules}    return Config()\n```", PARENT)
    assert proposal.program is None and f"at most {replies.MAX_RULES} are allowed" in proposal.description


def test_edit_kinds_are_read_from_the_result():
    retuned = Program((PARENT.rules[0].with_config(GemmConfig()),) + PARENT.rules[1:], PARENT.default)
    two = Program(CHILD.rules[:1] + (Rule(GemmConfig(), m_min=9000),) + PARENT.rules, PARENT.default)
    donor = Program((Rule(GemmConfig(), n_max=2048),), PARENT.default)
    borrowed = Program((donor.rules[0],) + PARENT.rules, PARENT.default)
    assert edit_kind(PARENT, retuned) == "retune" and edit_kind(PARENT, CHILD) == "specialize"
    assert edit_kind(PARENT, two) == "generalize" and edit_kind(PARENT, borrowed, [donor]) == "borrow"
    assert edit_kind(PARENT, borrowed) == "specialize"


def test_as_diff_writes_blocks_that_turn_any_program_into_any_other():
    ctx = context()
    programs = evolve(Evaluator(ctx.train, ctx.table), 300, seed=2).db.programs()
    rng = random.Random(0)
    pairs = [(a, b) for a in programs for b in rng.sample(programs, 3) if a != b]
    assert len(pairs) > 100
    for a, b in pairs:
        assert read_reply("Edit.\n" + as_diff(render(a), render(b)), a).program == b
    assert as_diff(SOURCE, SOURCE) == ""


def test_search_text_matches_whole_lines_and_ignores_trailing_spaces_only():
    reply = DIFF.replace("    if M <= 16:\n=======", "    if M <= 16:   \n=======")
    assert read_reply(reply, PARENT).program == CHILD
    assert read_reply(DIFF.replace("    if M <= 16:\n=======", "  if M <= 16:\n======="), PARENT).program is None
    assert parse(replies.apply_blocks(SOURCE, replies.diff_blocks(DIFF))) == CHILD


# The lazy DOTALL patterns the scanners replace: the reference for what a reply means (slow only on long replies).
OLD_BLOCK = re.compile(r"^<{5,} SEARCH[ \t]*\n(.*?)^={5,}[ \t]*\n(.*?)^>{5,} REPLACE[ \t]*$", re.DOTALL | re.MULTILINE)
OLD_FENCE = re.compile(r"^```[ \t]*(?:python|py)?[ \t]*\n(.*?)^```", re.DOTALL | re.MULTILINE)
OLD_THINKING = re.compile(r"<think>.*?</think>", re.DOTALL)
PIECES = (
    "<<<<<<< SEARCH\n",
    "<<<<< SEARCH \n",
    "<<<<<<< SEARCH",
    "=======\n",
    "===== \t\n",
    "==",
    ">>>>>>> REPLACE\n",
    ">>>>>>> REPLACE",
    ">>>>>>> REPLACE x\n",
    "```python\n",
    "```py\n",
    "```\n",
    "```js\n",
    "x```\n",
    "<think>",
    "</think>",
    "<think>\n",
    "def choose",
    "    if M <= 16:\n",
    "a",
    "\n",
    " ",
    "\r\n",
    "\t",
)


def test_the_scanners_read_replies_exactly_as_the_patterns_they_replace():
    rng = random.Random(26)
    for _ in range(4000):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randrange(1, 30)))
        assert [(b.search, b.replace) for b in replies.diff_blocks(text)] == OLD_BLOCK.findall(text), text
        assert replies._fences(text) == OLD_FENCE.findall(text), text
        assert replies.without_thinking(text) == OLD_THINKING.sub("", text), text


DEGENERATE = {  # what a small model stuck until max_tokens writes
    "<<<<<<< SEARCH\n=======\n": "neither SEARCH/REPLACE blocks nor",
    "<<<<<<< SEARCH\n": "neither SEARCH/REPLACE blocks nor",
    "<think>": "neither SEARCH/REPLACE blocks nor",
    "```python\n": "neither SEARCH/REPLACE blocks nor",
    "<<<<<<< SEARCH\n=======\n>>>>>>> REPLACE\n": "empty SEARCH text",
    "<<<<<<< SEARCH\n    if M <= 16:\n=======\n    if M <= 16:\n>>>>>>> REPLACE\n": "",
}


@pytest.mark.timeout(
    120
)  # backtracking patterns take hours on these, the scanners milliseconds (benchmarks/bench_replies.py)
@pytest.mark.parametrize("unit", list(DEGENERATE))
def test_degenerate_replies_at_the_size_limit_are_read_in_one_pass(unit):
    text = unit * (MAX_REPLY_CHARS // len(unit))
    assert MAX_REPLY_CHARS - len(unit) < len(text) <= MAX_REPLY_CHARS
    proposal = read_reply(text, PARENT)
    if DEGENERATE[unit]:
        assert proposal.program is None and DEGENERATE[unit] in proposal.description
    else:  # the same harmless block thousands of times: the parent again
        assert proposal.program == PARENT
    assert replies.without_thinking("<think>" * 14_000) == "<think>" * 14_000
    assert len(replies.diff_blocks("<<<<<<< SEARCH\n=======\n" * 4_000 + ">>>>>>> REPLACE\n")) == 1
