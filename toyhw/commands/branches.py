"""`python -m toyhw branches`: seed 003 demo 3, latent unlaunchable branches with and without checking all branches."""
from __future__ import annotations

import argparse

from toyhw.commands import options

HELP = "latent bad branches in the program database with and without the branch check (lecture 14, demo 3)"
COLUMNS = ("seed", "added", "added_bad_branch", "db_size", "db_bad_branch", "crash_new_shapes", "best_has_bad_branch")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the seeds and the budget."""
    from toyhw.evolve import ablations

    options.seeds_and_budget(parser, list(ablations.SEEDS), ablations.BUDGET, "proposed programs per run")


def run(args: argparse.Namespace) -> dict:
    """Return {"checked": [row per seed], "unchecked": [row per seed]}."""
    from toyhw.evolve import branch_check

    return {key: [r.as_dict() for r in rows] for key, rows in branch_check.branches(args.seeds, args.budget).items()}


def render(result: dict) -> str:
    """Return one table row per (check, seed)."""
    lines = [f"{'check':<10}" + "".join(f"{c:>20}" for c in COLUMNS)]
    for key, rows in result.items():
        for row in rows:
            lines.append(f"{key:<10}" + "".join(f"{str(row[c]):>20}" for c in COLUMNS))
    return "\n".join(lines)
