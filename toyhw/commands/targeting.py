"""`python -m toyhw targeting`: seed 003 demo 2, where "distance to roofline" and "distance to best seen" point."""

from __future__ import annotations

import argparse

from toyhw import checks
from toyhw.commands import options

HELP = "which shapes roofline vs best-seen feedback points at, and the share of proposals on stuck shapes (demo 2)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the seed and the budget."""
    parser.add_argument(
        "--seed",
        type=options.seed("--seed"),
        default=0,
        help="seed of the full method's run, an integer >= 0 (default 0)",
    )
    parser.add_argument(
        "--budget",
        type=options.integer("--budget", checks.check_budget, "300"),
        default=300,
        help=f"proposed programs before looking, 1 to {checks.MAX_BUDGET:,} (default 300)",
    )


def run(args: argparse.Namespace) -> dict:
    """Return {"n_shapes", "n_stuck", "share_on_stuck": {"roofline", "best"}, "overlap_top5"}."""
    from toyhw.evolve.experiments import targeting

    t = targeting.targeting(args.seed, args.budget)
    return {
        "n_shapes": len(t.rows),
        "n_stuck": t.n_stuck,
        "share_on_stuck": dict(t.share_on_stuck),
        "overlap_top5": t.overlap_top5,
    }


def render(result: dict) -> str:
    """Return the demo's summary lines."""
    from toyhw.evolve.experiments import targeting
    from toyhw.i18n import t

    share = result["share_on_stuck"]
    return "\n".join(
        [
            t("targeting.stuck", stuck=result["n_stuck"], shapes=result["n_shapes"], bar=targeting.STUCK),
            t("targeting.share", roofline=share["roofline"], best=share["best"]),
            t("targeting.overlap", overlap=result["overlap_top5"]),
        ]
    )
