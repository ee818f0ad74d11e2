"""`python -m toyhw prompt`: the prompt a real system would send the LLM at one step of a run, and the mock's answer."""

from __future__ import annotations

import argparse

from toyhw import checks
from toyhw.commands import options
from toyhw.evolve.bridge import prompt as prompt_lib
from toyhw.course import prompt_view
from toyhw.evolve import variants

HELP = "the prompt an AlphaEvolve-style system would send at one step of a run, and what the mock LLM did (lecture 14)"
TOKEN_RULE = "estimated: words, 3-digit number chunks, line breaks and punctuation pairs; no tokenizer"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the variant, the seed, the step and the answer format."""
    parser.add_argument(
        "--variant", default="full", help=f"ablation variant (default full; known: {','.join(variants.available())})"
    )
    parser.add_argument("--seed", type=options.seed("--seed"), default=0, help="seed of the run (default 0)")
    parser.add_argument(
        "--step",
        type=options.integer("--step", checks.check_budget, "100"),
        default=100,
        help="which proposal of the run, 1 = the first (default 100)",
    )
    parser.add_argument(
        "--answer",
        choices=prompt_lib.ANSWER_FORMATS,
        default="diff",
        help="answer format asked for: SEARCH/REPLACE blocks (diff, default) or the whole program",
    )


def run(args: argparse.Namespace) -> dict:
    """Return {"variant", "seed", "step", "answer", "messages", "parts", "chars", "tokens", "token_rule", "mock"}."""
    view = prompt_view.prompt_at(args.variant, args.seed, args.step, args.answer)
    return {
        "variant": view.variant,
        "seed": view.seed,
        "step": view.step,
        "answer": args.answer,
        "messages": view.prompt.messages(),
        "parts": dict(view.prompt.parts),
        "chars": view.chars,
        "tokens": view.tokens,
        "token_rule": TOKEN_RULE,
        "mock": {
            "description": view.description,
            "operator": view.operator,
            "parent_score": view.parent_score,
            "child_score": view.child_score,
            "child_source": view.child_source,
            "diff": view.diff,
            "reply": view.reply,
        },
    }


def render(result: dict) -> str:
    """Return the prompt as both messages, then its size and what the mock LLM did with it (the prompt itself is what
    the model reads, in English in every language; the lines about it follow the language)."""
    from toyhw.i18n import t

    system, user = (m["content"] for m in result["messages"])
    mock = result["mock"]
    lines = [
        f"[system]\n{system}\n\n[user]\n{user}\n",
        t(
            "prompt.size",
            variant=result["variant"],
            seed=result["seed"],
            step=result["step"],
            chars=result["chars"],
            tokens=result["tokens"],
            rule=result["token_rule"],
            parts=t("list.separator").join(result["parts"]),
        ),
        t("prompt.mock", operator=mock["operator"], description=mock["description"]),
        t("prompt.child", child=mock["child_score"], parent=mock["parent_score"]),
        mock["diff"].rstrip() or t("prompt.no_change"),
    ]
    return "\n".join(lines)
