"""Benchmark lecture 10: the seed-000 table (toyhw vs the seed script) and the fast_p panels' chart descriptions.

Run: .venv/bin/python benchmarks/bench_fastp.py [--seed-script PATH]   (prints a Markdown table; figures are medians
of repeats; without the seed script's path, from the option or TOYHW_SEED_SCRIPT, its row is skipped)
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import json
import pathlib
import sys
from typing import Callable, Optional

import seed_script  # benchmarks/ is on sys.path when a script here runs
from timing import median_seconds
from toyhw.kernels import study
from toyhw.panels import fastp as fastp_panels


def panel_redraw(draw: Callable[[], object]) -> Callable[[], None]:
    """Return a call that makes a chart the way a panel's first visit of a state does: its description, as JSON
    (what the widget sends; the page draws it)."""
    return lambda: json.dumps(draw().spec)


def clear_caches() -> None:
    """Empty every lecture-10 cache, so a measurement starts cold (as after a new task seed)."""
    study.clear_caches()


def seed_script_seconds(path: Optional[pathlib.Path]) -> Optional[float]:
    """Return the seed script's own run time in this process (output discarded), or None without its path."""
    if path is None:
        return None
    spec = importlib.util.spec_from_file_location("seed000", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)

    def run() -> None:
        with contextlib.redirect_stdout(io.StringIO()):
            module.main()

    return median_seconds(run, repeats=3)


def measurements(script: Optional[pathlib.Path] = None) -> list[tuple[str, float]]:
    """Return (what, seconds) for each lecture-10 measurement (the seed script's row only with its path)."""
    rows = [
        (
            "seed-000 table, toyhw (one-shot + 4 modes x 4 round counts, cold)",
            median_seconds(lambda: (study.one_shot(), study.feedback_table()), 3, clear_caches),
        )
    ]
    seed = seed_script_seconds(script)
    if seed is not None:
        rows.append(("seed-000 table, the seed script itself", seed))
    for mode in ("resample", "suggest"):
        rows.append(
            (
                f"feedback redraw, {mode}, 200 tasks, 100 rounds, cold cache",
                median_seconds(
                    panel_redraw(lambda m=mode: fastp_panels.feedback_figure([m], 100, 1.0)), 3, clear_caches
                ),
            )
        )
    modes = ["resample", "scalar", "explain", "suggest"]
    rows.append(
        (
            "feedback redraw, all 4 modes, 100 rounds, cold cache",
            median_seconds(panel_redraw(lambda: fastp_panels.feedback_figure(modes, 100, 1.0)), 3, clear_caches),
        )
    )
    fastp_panels.feedback_figure(modes, 100, 1.0)
    rows.append(
        (
            "feedback redraw, all 4 modes, 100 rounds, warm (p or mode moved)",
            median_seconds(panel_redraw(lambda: fastp_panels.feedback_figure(modes, 100, 1.5))),
        )
    )
    rows.append(
        (
            "one-shot panel redraw, 200 tasks, cold",
            median_seconds(panel_redraw(lambda: fastp_panels.one_shot_figure(230, 200, 1.0)), 3, clear_caches),
        )
    )
    return rows


def main(argv: list[str]) -> None:
    """Print the measurements as a Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    seed_script.add_option(parser)
    args = parser.parse_args(argv)
    rows = measurements(seed_script.checked(parser, args.seed_script))
    print("| measurement | seconds |\n|---|---|")
    for what, seconds in rows:
        print(f"| {what} | {seconds:.3f} |")
    named = dict(rows)
    seed = named.get("seed-000 table, the seed script itself")
    if seed:
        toy = named["seed-000 table, toyhw (one-shot + 4 modes x 4 round counts, cold)"]
        print(f"\ntoyhw / seed script time ratio: {toy / seed:.2f}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
