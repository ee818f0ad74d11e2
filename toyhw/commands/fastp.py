"""`python -m toyhw fastp`: lecture 10's one-shot breakdown and feedback table (seed 000)."""
from __future__ import annotations

import argparse

from toyhw.kernels import study
from toyhw.commands.options import int_list
from toyhw.kernels.proposers import PROPOSERS

HELP = "fast_p of one-shot kernels and of iterative optimization under four feedback regimes (lecture 10)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the task seed, the number of tasks and the round counts."""
    parser.add_argument("--seed", type=int, default=study.SEED_TASK_SEED, help="task seed (default 230)")
    parser.add_argument("--tasks", type=int, default=study.SEED_N_TASKS, help="number of tasks (default 200)")
    parser.add_argument(
        "--rounds", type=int_list("--rounds", minimum=1), default=list(study.SEED_ROUNDS),
        help="comma-separated round counts (default 5,10,20,50)",
    )


def run(args: argparse.Namespace) -> dict:
    """Return {"one_shot": {...}, "iterative": {mode: {rounds: {p: fast_p}}}} with string keys."""
    if args.tasks < 1:
        raise ValueError(f"--tasks = {args.tasks} is not allowed; it must be an integer >= 1")
    report = study.one_shot(args.seed, args.tasks)
    table = study.feedback_table(args.seed, args.tasks, PROPOSERS.available(), args.rounds)
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
