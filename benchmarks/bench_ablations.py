"""Benchmark lecture 14: the full ablation (9 variants x 5 seeds x 1000 programs), the other demos, widget redraws.

Run: .venv/bin/python benchmarks/bench_ablations.py   (prints a Markdown table; figures are medians of repeats)
The target: `python -m toyhw ablations` under 10 s serially on a 2-core machine (the seed's own run took ~50 s).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time

import matplotlib

matplotlib.use("Agg")

from timing import median_seconds  # noqa: E402  (benchmarks/ is on sys.path when a script here runs)
from toyhw.evolve.experiments import ablations, branch_check, targeting  # noqa: E402
from toyhw.evolve import variants


def clear_caches() -> None:
    """Empty the demo caches (the time table stays cached: it belongs to the GEMM model's benchmark)."""
    for module in (ablations, targeting, branch_check):
        module.clear_caches()


def cli_seconds(*args: str) -> float:
    """Return the wall time of `python -m toyhw ARGS --json` in a fresh process (output discarded)."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "toyhw", *args, "--json"], check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def measurements() -> list[tuple[str, float]]:
    """Return (what, seconds) for each lecture-14 measurement."""
    ablations.context()
    rows = [
        (
            "`python -m toyhw ablations` (9 variants x 5 seeds x 1000 programs), fresh process",
            statistics.median(cli_seconds("ablations") for _ in range(3)),
        ),
        (
            "ablation study in process, cold run caches (45 runs)",
            median_seconds(lambda: ablations.ablation_study(), 3, clear_caches),
        ),
        (
            "one run (full, seed 0, 1000 programs)",
            median_seconds(lambda: ablations.run_one("full", 0, 1000), 5, clear_caches),
        ),
        ("`python -m toyhw branches` (2 x 5 runs x 1000 programs), fresh process", cli_seconds("branches")),
        ("`python -m toyhw targeting` (300 programs), fresh process", cli_seconds("targeting")),
    ]
    try:
        from toyhw.panels import evolution as panels  # noqa: E402
    except ImportError:
        return rows
    rows.append(
        (
            "every variant x 5 seeds x 1000 programs (what notebook 04 computes once), cold",
            median_seconds(panels.full_study, 1, clear_caches),
        )
    )
    rows.append(
        (
            "ablation chart description (9 variants, budget 1000, 5 seeds), warm cache",
            median_seconds(lambda: json.dumps(panels.ablation_figure(variants.LECTURE_VARIANTS, 1000, 5).spec), 5),
        )
    )
    rows.append(
        (
            "ablation chart description (3 variants, budget 300, 3 seeds), warm cache",
            median_seconds(
                lambda: json.dumps(panels.ablation_figure(["full", "small_llm", "no_evolution"], 300, 3).spec), 5
            ),
        )
    )
    return rows


def main() -> None:
    """Print the measurements as a Markdown table."""
    print("| measurement | seconds |\n|---|---|")
    for what, seconds in measurements():
        print(f"| {what} | {seconds:.3f} |")


if __name__ == "__main__":
    sys.exit(main())
