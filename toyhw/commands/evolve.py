"""`python -m toyhw evolve`: one run of a variant with the mock LLM, a real model (--llm) or a logged run (--replay).

Without --llm or --replay the run is the mock's, offline and identical to `ablations` for that variant and seed. With
--llm every proposal is one chat call to the endpoint (plus retries), logged with --log; --replay re-runs a log with no
network. The result table is the one of `ablations`.
"""

from __future__ import annotations

import argparse
import sys
from typing import Optional

from toyhw import checks
from toyhw.commands import ablations as ablations_command, options
from toyhw.evolve.experiments import ablations
from toyhw.evolve import variants
from toyhw.evolve.bridge.chat import ChatLLM, PromptedLLM, ReplayError, ReplayLLM
from toyhw.evolve.bridge.endpoint import Endpoint, EndpointUnavailable, shown
from toyhw.evolve.bridge.prompt import ANSWER_FORMATS, settings_for

HELP = "one mini AlphaEvolve run: the mock LLM, a real model (--llm URL --model NAME) or a logged run (--replay F)"
DEFAULTS = {"variant": "full", "seed": 0, "budget": 50}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the run (variant, seed, budget), the model (--llm, --model, --log, call settings) and --replay."""
    parser.add_argument(
        "--variant",
        default=None,
        help=f"ablation variant (default full, or the log's with --replay; known: {','.join(variants.available())})",
    )
    parser.add_argument(
        "--seed", type=options.seed("--seed"), default=None, help="seed (default 0, or the log's with --replay)"
    )
    parser.add_argument(
        "--budget",
        type=options.integer("--budget", checks.check_budget, "50"),
        default=None,
        help="proposed programs = LLM calls (default 50, or the log's with --replay)",
    )
    parser.add_argument(
        "--llm",
        nargs="?",
        const="",
        default=None,
        metavar="URL",
        help="an OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1 (--llm alone: "
        "$TOYHW_LLM_BASE_URL); the key is read from $TOYHW_LLM_API_KEY or $OPENAI_API_KEY",
    )
    parser.add_argument("--model", default=None, help="model name at the endpoint (default $TOYHW_LLM_MODEL)")
    parser.add_argument("--log", default=None, metavar="FILE", help="write every prompt and reply to FILE (JSONL)")
    parser.add_argument("--replay", default=None, metavar="FILE", help="replay a logged run, with no network")
    parser.add_argument(
        "--timeout",
        type=options.bounded("--timeout", 0, 3600, "120", low_open=True),
        default=None,
        help="seconds per try of a call, whatever the server sends (default 120, at most an hour)",
    )
    parser.add_argument(
        "--attempts",
        type=options.bounded("--attempts", 1, 10, "3", kind=int),
        default=None,
        help="tries per call, the first included (default 3, at most 10)",
    )
    parser.add_argument(
        "--temperature",
        type=options.bounded("--temperature", 0, 2, "0.8"),
        default=None,
        help="sampling temperature (default 0.8; 0 to 2, as OpenAI-compatible servers take)",
    )
    parser.add_argument(
        "--max-tokens",
        type=options.bounded("--max-tokens", 1, 1_000_000, "4000", kind=int),
        default=None,
        help="reply token limit (default: the server's)",
    )
    parser.add_argument(
        "--answer",
        choices=ANSWER_FORMATS,
        default=None,
        help="answer format asked for: SEARCH/REPLACE blocks (diff, default) or the whole program",
    )


LLM_ONLY = {
    "model": "--model",
    "log": "--log",
    "timeout": "--timeout",
    "attempts": "--attempts",
    "temperature": "--temperature",
    "max_tokens": "--max-tokens",
    "answer": "--answer",
}
"""Options that only a call to a real model uses: refused without --llm and with --replay (they would be ignored)."""
LLM_DEFAULTS = {"timeout": 120.0, "attempts": 3, "temperature": 0.8, "max_tokens": None, "answer": "diff"}


def _progress(budget: int):
    """Return a progress callback that prints one line per call on stderr."""

    def report(call: int, proposal, reply) -> None:
        outcome = "no program: " + proposal.description[:80] if proposal.program is None else proposal.operator
        seconds = sum(a.seconds for a in reply.attempts)
        print(f"call {call}/{budget}: {outcome} ({seconds:.1f} s, {len(reply.attempts)} tries)", file=sys.stderr)

    return report


def _given(args: argparse.Namespace) -> list[str]:
    return [option for key, option in LLM_ONLY.items() if getattr(args, key) is not None]


def _from_log(args: argparse.Namespace, run: dict) -> ReplayLLM:
    """Return the replay of --replay, filling `run` from the log's header; ValueError for an option it contradicts."""
    llm = ReplayLLM(args.replay)
    header = llm.header
    for key in DEFAULTS:
        logged = header.get(key, DEFAULTS[key] if key != "budget" else len(llm.records))
        if run[key] is None:
            run[key] = logged
        elif key == "budget" and run[key] > len(llm.records):
            raise ValueError(
                f"--budget {run[key]} asks for more calls than {args.replay} holds ({len(llm.records)});"
                f" replay with a budget of at most {len(llm.records)}, or none (the log's {logged})"
            )
        elif key != "budget" and run[key] != logged:
            raise ValueError(
                f"--{key} {run[key]} contradicts the log {args.replay}, a run of --{key} {logged}; "
                f"a replay takes its variant and seed from the log: drop --{key}"
            )
    variants.get(run["variant"])
    return llm


def _llm(args: argparse.Namespace, run: dict) -> Optional[PromptedLLM]:
    """Return the proposal step the options ask for (None = the mock), filling `run` from a replayed log."""
    if args.replay is not None:
        given = ([] if args.llm is None else ["--llm"]) + _given(args)
        if given:
            raise ValueError(f"--replay replays a logged run with no network: it takes no {', '.join(given)}")
        return _from_log(args, run)
    for key, value in DEFAULTS.items():
        run[key] = run[key] if run[key] is not None else value
    if args.llm is None:
        given = _given(args)
        if given:
            raise ValueError(
                f"{', '.join(given)} need{'s' if len(given) == 1 else ''} --llm URL (the mock LLM runs "
                "offline: it makes no calls and has nothing to log)"
            )
        return None
    call = {key: getattr(args, key) if getattr(args, key) is not None else value for key, value in LLM_DEFAULTS.items()}
    endpoint = Endpoint.from_env(
        args.llm or None,
        args.model,
        timeout=call["timeout"],
        attempts=call["attempts"],
        temperature=call["temperature"],
        max_tokens=call["max_tokens"],
    )
    variants.get(run["variant"])  # an unknown variant fails before the log is made
    return ChatLLM(
        endpoint,
        settings_for(run["variant"], call["answer"]),
        log=args.log,
        header=dict(run),
        seed=run["seed"],
        progress=_progress(run["budget"]) if sys.stderr.isatty() else None,
    )


def run(args: argparse.Namespace) -> dict:
    """Return the `ablations` JSON for one variant and seed, plus "llm": {"kind", "model", "calls", "statuses",
    "failures": [{"step", "reason"}], "log"}."""
    spec = {"variant": args.variant, "seed": args.seed, "budget": args.budget}
    llm: Optional[PromptedLLM] = None
    try:
        llm = _llm(args, spec)
        summary = (
            ablations.run_one(spec["variant"], spec["seed"], spec["budget"])
            if llm is None
            else ablations.run_variant(spec["variant"], spec["seed"], spec["budget"], llm)
        )
    except (EndpointUnavailable, ReplayError) as err:
        where = f" (the calls made so far are in {args.log})" if args.log else ""
        raise ValueError(f"{err}{where}") from None
    finally:
        if isinstance(llm, ChatLLM):
            llm.close()
    ctx = ablations.context()
    kind = "mock" if llm is None else "replay" if isinstance(llm, ReplayLLM) else "chat"
    model = (
        llm.header.get("endpoint", {}).get("model")
        if kind == "replay"
        else llm.endpoint.model
        if kind == "chat"
        else None
    )
    return {
        "budget": summary.budget,
        "seeds": [summary.seed],
        "oracle": {"train": ctx.oracle_train, "test": ctx.oracle_test},
        "variants": {
            summary.variant: {
                "history": [list(summary.history)],
                "final": [summary.final],
                "test": [summary.test],
                "bench_runs": [summary.kernel_runs],
                "rules": [summary.rules],
            }
        },
        "llm": {
            "kind": kind,
            "model": model,
            "calls": 0 if llm is None else llm.calls,
            "statuses": dict(summary.statuses),
            "failures": [] if llm is None else [{"step": s, "reason": r} for s, r in llm.failures],
            "log": args.replay if kind == "replay" else args.log,
        },
    }


def render(result: dict) -> str:
    """Return the `ablations` table, then who proposed, how the proposals ended and the first failures."""
    info = result["llm"]
    model = shown(info["model"])
    who = {
        "mock": "the mock LLM (offline)",
        "chat": f"model {model}, {info['calls']} calls",
        "replay": f"a replay of {info['log']} (model {model}), no network",
    }[info["kind"]]
    lines = [
        ablations_command.render(result),
        f"proposals by {who}: " + ", ".join(f"{status} {n}" for status, n in info["statuses"].items()),
    ]
    for failure in info["failures"][:5]:
        lines.append(f"  step {failure['step']}: {failure['reason']}")
    if len(info["failures"]) > 5:
        lines.append(f"  ... and {len(info['failures']) - 5} more failed proposals")
    if info["kind"] == "chat" and info["log"]:
        lines.append(f"every prompt and reply is in {info['log']}; replay it with --replay {info['log']}")
    return "\n".join(lines)
