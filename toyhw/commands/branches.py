"""`python -m toyhw branches`: seed 003 demo 3, latent unlaunchable branches with and without checking all branches."""

from __future__ import annotations

import argparse

from toyhw.commands import options
from toyhw.i18n import N_, t
from toyhw.textwidth import column_width, pad

HELP = "latent bad branches in the program database with and without the branch check (lecture 14, demo 3)"
COLUMNS = ("seed", "added", "added_bad_branch", "db_size", "db_bad_branch", "crash_new_shapes", "best_has_bad_branch")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the seeds and the budget."""
    from toyhw.evolve.experiments import ablations

    options.seeds_and_budget(parser, list(ablations.SEEDS), ablations.BUDGET, "proposed programs per run")


def run(args: argparse.Namespace) -> dict:
    """Return {"checked": [row per seed], "unchecked": [row per seed]}."""
    from toyhw.evolve.experiments import branch_check

    return {key: [r.as_dict() for r in rows] for key, rows in branch_check.branches(args.seeds, args.budget).items()}


HEADS = {
    "check": N_("branches.head.check"),
    "seed": N_("branches.head.seed"),
    "added": N_("branches.head.added"),
    "added_bad_branch": N_("branches.head.added_bad_branch"),
    "db_size": N_("branches.head.db_size"),
    "db_bad_branch": N_("branches.head.db_bad_branch"),
    "crash_new_shapes": N_("branches.head.crash_new_shapes"),
    "best_has_bad_branch": N_("branches.head.best_has_bad_branch"),
}
"""Message id of each column head (the JSON keys stay as they are)."""
CHECKS = {"checked": N_("branches.checked"), "unchecked": N_("branches.unchecked")}


def render(result: dict) -> str:
    """Return one table row per (check, seed), padded by display width."""
    heads = {c: t(HEADS[c]) for c in ("check", *COLUMNS)}
    checks = {key: t(CHECKS[key]) if key in CHECKS else key for key in result}
    first = column_width(10, [heads["check"], *checks.values()])
    widths = {c: column_width(20, [heads[c]]) for c in COLUMNS}
    lines = [pad(heads["check"], first) + "".join(pad(heads[c], widths[c], right=True) for c in COLUMNS)]
    for key, rows in result.items():
        for row in rows:
            lines.append(pad(checks[key], first) + "".join(pad(row[c], widths[c], right=True) for c in COLUMNS))
    return "\n".join(lines)
