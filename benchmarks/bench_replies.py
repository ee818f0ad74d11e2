"""Benchmark reading a model's reply: seconds per 100 kB for degenerate replies (a model stuck repeating a diff header,
"<think>", a fence) and for ordinary ones (a diff, a whole program, prose), each at the reply size limit.

Run: .venv/bin/python benchmarks/bench_replies.py [--repeats N]   (prints a Markdown table; figures are medians)
"""

from __future__ import annotations

import argparse

from timing import median_seconds  # noqa: E402  (benchmarks/ is on sys.path when a script here runs)
from toyhw.evolve.programs import expert_program, render
from toyhw.evolve.bridge.replies import MAX_REPLY_CHARS, as_diff, read_reply


def _fill(unit: str) -> str:
    """Return `unit` repeated to just under the reply size limit."""
    return unit * (MAX_REPLY_CHARS // len(unit))


def replies() -> dict[str, str]:
    """Return the replies timed, by name: degenerate ones first, then ordinary ones padded with prose."""
    parent = expert_program()
    source = render(parent)
    new_rule = "    if M <= 2:\n        return Config(split_k=8)\n"
    child = source.replace("    if M <= 16:\n", new_rule + "    if M <= 16:\n", 1)
    diff = "Split-K for the smallest decode shapes.\n" + as_diff(source, child) + "\n"
    program = f"The whole program:\n```python\n{child}```\n"
    prose = "The tiles are too small for prefill; larger ones would use the SMs better. "
    return {
        "SEARCH + divider, repeated": _fill("<<<<<<< SEARCH\n=======\n"),
        "SEARCH header, repeated": _fill("<<<<<<< SEARCH\n"),
        "<think>, repeated": _fill("<think>"),
        "```python, repeated": _fill("```python\n"),
        "one diff line, repeated": _fill("    if M <= 16:\n"),
        "a diff, then prose": diff + _fill(prose)[len(diff) :],
        "a whole program, then prose": program + _fill(prose)[len(program) :],
        "a diff block, repeated": _fill(diff),
        "prose only": _fill(prose),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    parent = expert_program()
    print("| reply (at the size limit) | characters | s per 100 kB | outcome |")
    print("|---|---:|---:|---|")
    for name, text in replies().items():
        seconds = median_seconds(lambda: read_reply(text, parent), args.repeats)
        proposal = read_reply(text, parent)
        outcome = "program" if proposal.program is not None else "failed: " + proposal.description[:50]
        print(f"| {name} | {len(text):,} | {seconds * 100_000 / len(text):.4f} | {outcome} |")


if __name__ == "__main__":
    main()
