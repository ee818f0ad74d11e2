"""`python -m toyhw ablations`: seed 003 demo 1, every variant x seed, score against the number of proposed programs.

A long run (many seeds, a big budget) is legitimate here: on a terminal it draws a progress bar, and Ctrl-C stops it
with one line (toyhw.cli).
"""

from __future__ import annotations

import argparse
import sys

from toyhw import checks
from toyhw.commands import options

HELP = "mini AlphaEvolve ablations: variants x seeds, best score vs proposed programs (lecture 14, demo 1)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the seeds, the budget, the variants and the worker processes."""
    from toyhw.evolve.experiments import ablations
    from toyhw.evolve import variants

    options.seeds_and_budget(parser, list(ablations.SEEDS), ablations.BUDGET, "proposed programs per run")
    parser.add_argument(
        "--variants",
        type=options.name_list("--variants", "variant", "full,small_llm"),
        default=list(variants.LECTURE_VARIANTS),
        help=f"comma-separated variants (default: the seed's nine; known: {','.join(variants.available())})",
    )
    parser.add_argument(
        "--workers",
        type=options.integer("--workers", _check_workers, "2"),
        default=1,
        help="local processes to spread the runs over (default 1: serial; results are identical)",
    )


def _check_workers(name: str, workers: int) -> int:
    return checks.check_int(name, workers, 1, checks.MAX_WORKERS, "MAX_WORKERS")


def run(args: argparse.Namespace) -> dict:
    """Return {"budget", "seeds", "oracle": {"train", "test"}, "variants": {name: {history, final, test, ...}}}."""
    from toyhw.evolve.experiments import sweep
    from toyhw.i18n import t

    progress = sweep.terminal_progress(t("progress.evolution_runs")) if sys.stderr.isatty() else None
    try:
        if progress is not None:
            progress(0, len(args.variants) * len(args.seeds))  # the bar shows before the first run ends
        study = sweep.ablation_study(args.variants, args.seeds, args.budget, workers=args.workers, progress=progress)
    finally:
        if progress is not None:
            progress.close()  # after Ctrl-C the next message starts on its own line
    return {
        "budget": study.budget,
        "seeds": list(study.seeds),
        "oracle": {"train": study.oracle_train, "test": study.oracle_test},
        "variants": {
            name: {
                "history": [list(r.history) for r in runs],
                "final": [r.final for r in runs],
                "test": [r.test for r in runs],
                "bench_runs": [r.kernel_runs for r in runs],
                "rules": [r.rules for r in runs],
            }
            for name, runs in study.runs.items()
        },
    }


def render(result: dict) -> str:
    """Return the seed's table: medians at 50/100/300/1000 programs, min-max at the end, test score, runs, rules
    (padded by display width; variant names are the machine names in every language)."""
    import numpy as np

    from toyhw.evolve.experiments import ablations
    from toyhw.i18n import t
    from toyhw.textwidth import column_width, pad

    budget = result["budget"]
    oracle = result["oracle"]["train"]
    marks = [m for m in ablations.MARKS if m <= budget] or [budget]
    heads = [t("ablations.head.programs", programs=m) for m in marks]
    tail = [
        (t("ablations.head.end_range"), 15),
        (t("ablations.head.headroom"), 10),
        (t("ablations.head.test"), 8),
        (t("ablations.head.kernel_runs"), 13),
        (t("ablations.head.rules"), 7),
    ]
    variant = t("ablations.head.variant")
    first = column_width(15, [variant, *result["variants"]])
    mark_widths = [column_width(11, [h]) for h in heads]
    widths = [column_width(least, [h]) for h, least in tail]
    header = (
        pad(variant, first)
        + "".join(pad(h, w, right=True) for h, w in zip(heads, mark_widths))
        + "".join(pad(h, w, right=True) for (h, _), w in zip(tail, widths))
    )
    lines = [t("ablations.caption", seeds=result["seeds"]), header]
    for name, v in result["variants"].items():
        hist = np.array(v["history"])
        final = hist[:, -1]
        share = ablations.headroom_share(float(np.median(final)), oracle)
        cells = [
            f"{final.min():.3f}-{final.max():.3f}",
            f"{share:.0%}",
            f"{np.median(v['test']):.3f}",
            f"{int(np.median(v['bench_runs'])):,}",
            f"{np.median(v['rules']):.0f}",
        ]
        lines.append(
            pad(name, first)
            + "".join(pad(f"{np.median(hist[:, m - 1]):.3f}", w, right=True) for m, w in zip(marks, mark_widths))
            + "".join(pad(c, w, right=True) for c, w in zip(cells, widths))
        )
    lines.append(t("ablations.oracle", train=oracle, test=result["oracle"]["test"]))
    return "\n".join(lines)
