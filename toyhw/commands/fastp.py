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
BAR_WORK = 8_000_000
"""Above this many optimization rounds (tasks x the sum of --rounds x the 4 modes) the command says how far it is on
stderr: about ten seconds of work. The largest run the limits allow (100,000 tasks, 100 round counts of 10,000) is
hours of work, so a long run is never silent: a bar on a terminal, one line of what is to come otherwise."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the task seed, the number of tasks and the round counts."""
    from toyhw.kernels import study

    parser.add_argument(
        "--seed",
        type=options.seed("--seed"),
        default=study.LECTURE_TASK_SEED,
        help="task seed, an integer >= 0 (default 230)",
    )
    parser.add_argument(
        "--tasks",
        type=options.integer("--tasks", checks.check_tasks, "200"),
        default=study.LECTURE_N_TASKS,
        help=f"number of tasks, 1 to {checks.MAX_TASKS:,} (default 200)",
    )
    parser.add_argument(
        "--rounds",
        type=options.int_list("--rounds", checks.check_rounds, checks.MAX_ROUND_COUNTS, "round count", "5,10,20,50"),
        default=list(study.LECTURE_ROUNDS),
        help=f"comma-separated round counts, each 1 to {checks.MAX_ROUNDS:,} (default 5,10,20,50)",
    )


def _progress(total: int):
    """Return a tqdm bar over `total` rounds on a terminal's stderr (None for shorter work); elsewhere write one line
    saying how many rounds are to run and return None."""
    if total <= BAR_WORK or sys.stderr is None:
        return None
    from toyhw.i18n import t

    if not sys.stderr.isatty():
        print(t("fastp.long_run", rounds=total), file=sys.stderr)
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=t("fastp.progress"), unit="round", unit_scale=True)


def run(args: argparse.Namespace) -> dict:
    """Return {"one_shot": {...}, "iterative": {mode: {rounds: {p: fast_p}}}} with string keys.

    The table is `study.feedback_table`'s, computed task by task (one optimization on its own seeded stream each, as
    `optimize.speedups_after` does) so that a bar can move while one long cell runs.
    """
    from toyhw import metrics
    from toyhw.kernels import optimize, study
    from toyhw.kernels.proposers import PROPOSERS

    modes = PROPOSERS.available()
    bar = _progress(args.tasks * sum(args.rounds) * len(modes))
    report = study.one_shot(args.seed, args.tasks)
    tasks = study.tasks(args.seed, args.tasks)
    table: dict = {mode: {} for mode in modes}
    try:
        for mode in modes:
            for r in args.rounds:
                speedups = []
                for i, task in enumerate(tasks):
                    speedups.append(optimize.optimize(task, r, mode, optimize.optimization_rng(i, r)).speedup)
                    bar and bar.update(r)
                table[mode][r] = {p: metrics.fast_p(speedups, p) for p in study.LECTURE_PS}
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
    """Return the result as the lecture prints it: the one-shot shares, then fast_1 / fast_1.5 per mode and rounds.

    In Chinese the table is the lecture script's demo 2, line for line: its row labels and column heads, padded by
    display width (the label column is the widest label plus four columns, which is the script's 26 in Chinese and
    the English table's 12).
    """
    from toyhw.i18n import t
    from toyhw.kernels.labels import mode_label
    from toyhw.textwidth import display_width, pad

    shot = result["one_shot"]
    lines = [
        t("fastp.one_shot", compile_error=shot["compile_error"], wrong=shot["wrong"], ok=shot["ok"]),
        t(
            "fastp.one_shot_fast",
            values=t("list.separator").join(t("fastp.fast_value", p=p, value=f) for p, f in shot["fast"].items()),
        ),
        "",
        t("fastp.iterative"),
    ]
    rows = result["iterative"]
    rounds = list(next(iter(rows.values())))
    head = t("fastp.feedback_head")
    labels = {mode: mode_label(mode) for mode in rows}
    width = max(map(display_width, [head, *labels.values()])) + 4
    lines.append(pad(head, width) + "".join(pad(t("fastp.rounds_head", rounds=r), 16, right=True) for r in rounds))
    for mode, cells in rows.items():
        lines.append(
            pad(labels[mode], width)
            + "".join(pad(f"{cells[r]['1.0']:.2f} / {cells[r]['1.5']:.2f}", 16, right=True) for r in rounds)
        )
    return "\n".join(lines)
