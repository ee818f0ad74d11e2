"""`python -m toyhw fastp`: lecture 10's one-shot breakdown and feedback table (seed 000).

Imports only lecture 10's plain-Python modules (no numpy, no GEMM model): the command starts as quickly as the
lecture's own script.
"""
from __future__ import annotations

import argparse
import sys

from toyhw import checks
from toyhw.commands import options

HELP = "fast_p of one-shot kernels and of iterative optimization under four feedback regimes (lecture 10)"
BAR_WORK = 2_000_000
"""Above this many optimization rounds (tasks x the sum of --rounds, per mode) a progress bar is drawn on a terminal:
about ten seconds of work."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the task seed, the number of tasks and the round counts."""
    from toyhw.kernels import study

    parser.add_argument("--seed", type=options.seed("--seed"), default=study.LECTURE_TASK_SEED,
                        help="task seed, an integer >= 0 (default 230)")
    parser.add_argument("--tasks", type=options.integer("--tasks", checks.check_tasks, "200"),
                        default=study.LECTURE_N_TASKS, help=f"number of tasks, 1 to {checks.MAX_TASKS:,} (default 200)")
    parser.add_argument(
        "--rounds", type=options.int_list("--rounds", checks.check_rounds, checks.MAX_ROUND_COUNTS, "round count",
                                          "5,10,20,50"),
        default=list(study.LECTURE_ROUNDS),
        help=f"comma-separated round counts, each 1 to {checks.MAX_ROUNDS:,} (default 5,10,20,50)",
    )


def run(args: argparse.Namespace) -> dict:
    """Return {"one_shot": {...}, "iterative": {mode: {rounds: {p: fast_p}}}} with string keys."""
    from toyhw.kernels import study
    from toyhw.kernels.proposers import PROPOSERS

    report = study.one_shot(args.seed, args.tasks)
    modes = PROPOSERS.available()
    work = [(mode, r) for mode in modes for r in args.rounds]
    bar = None
    if sys.stderr.isatty() and args.tasks * sum(args.rounds) > BAR_WORK:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(work), desc="feedback table cells", unit="cell")
    table: dict = {mode: {} for mode in modes}
    try:
        for mode, r in work:  # one cell at a time, so that a long table shows its progress
            table[mode][r] = study.feedback_table(args.seed, args.tasks, [mode], [r])[mode][r]
            bar and bar.update()
    finally:
        bar and bar.close()
    return {
        "one_shot": {**report.status_shares(), "fast": {str(p): f for p, f in report.fast().items()}},
        "iterative": {
            mode: {str(r): {str(p): f for p, f in cells.items()} for r, cells in rows.items()}
            for mode, rows in table.items()
        },
    }


def render(result: dict) -> str:
    """Return the result as the lecture prints it: the one-shot shares, then fast_1 / fast_1.5 per mode and rounds."""
    shot = result["one_shot"]
    lines = [
        "One-shot kernels: "
        f"compile error {shot['compile_error']:.1%}, wrong {shot['wrong']:.1%}, correct {shot['ok']:.1%}",
        "  " + ", ".join(f"fast_{p} = {f:.3f}" for p, f in shot["fast"].items()),
        "",
        "Iterative optimization (fast_1.0 / fast_1.5):",
    ]
    rows = result["iterative"]
    rounds = list(next(iter(rows.values())))
    lines.append(f"{'feedback':<12}" + "".join(f"{r + ' rounds':>16}" for r in rounds))
    for mode, cells in rows.items():
        lines.append(f"{mode:<12}" + "".join(f"{cells[r]['1.0']:.2f} / {cells[r]['1.5']:.2f}".rjust(16) for r in rounds))
    return "\n".join(lines)
