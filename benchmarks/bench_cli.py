"""Benchmark the command line as a whole process: `python -m toyhw fastp` against the lecture's seed script.

Run: .venv/bin/python benchmarks/bench_cli.py --seed-script PATH [--repeats 11] [--before CHECKOUT] [--no-write]

Both are run alternately in fresh processes with this interpreter (start-up, imports and output included; output
discarded), so that a load change on a shared machine hits both alike; the medians and their ratio are reported, in
wall time and in CPU time (user + system of the child, steadier under load). `--before CHECKOUT` also runs another
checkout's `python -m toyhw fastp` (its package first on PYTHONPATH), for a before/after figure. The import-time
breakdown comes from `python -X importtime -m toyhw fastp`. The script's path may also come from TOYHW_SEED_SCRIPT;
without it the comparison is skipped. Writes its own section of benchmarks/RESULTS.md (the rest of the file stays).
"""

from __future__ import annotations

import argparse
import os
import pathlib
import re
import resource
import statistics
import subprocess
import sys
import time
from typing import Optional

import results_md  # benchmarks/ is on sys.path when a script here runs
import seed_script

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / "RESULTS.md"
HEADING = "Command line: `python -m toyhw fastp` against the seed script (whole process)"
TOYHW = ["-m", "toyhw", "fastp"]


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(args: list[str], where: pathlib.Path = ROOT) -> tuple[float, float]:
    """Return (wall seconds, CPU seconds) of one fresh `python ARGS` process run in the checkout `where` (its
    package first on the path), output discarded."""
    cpu = _child_cpu()
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], check=True, stdout=subprocess.DEVNULL, cwd=where, env=_env(where))
    return time.perf_counter() - start, _child_cpu() - cpu


def _env(where: pathlib.Path) -> dict:
    return {**os.environ, "PYTHONPATH": str(where)}


def measure(script: Optional[pathlib.Path], repeats: int, before: Optional[pathlib.Path]) -> dict:
    """Return {name: (median wall, median CPU)} for toyhw, the seed script and the `before` checkout, run in turn."""
    runs: dict[str, list[tuple[float, float]]] = {}
    commands = {"toyhw": (TOYHW, ROOT)}
    if script is not None:
        commands["seed script"] = ([str(script)], ROOT)
    if before is not None:
        commands["toyhw before"] = (TOYHW, before.resolve())
    for args, where in commands.values():
        run_once(args, where)  # warm the file cache and the .pyc files once
    for _ in range(repeats):
        for name, (args, where) in commands.items():
            runs.setdefault(name, []).append(run_once(args, where))
    return {name: (statistics.median(w for w, _ in r), statistics.median(c for _, c in r)) for name, r in runs.items()}


def import_breakdown(where: pathlib.Path = ROOT, top: int = 8) -> tuple[float, list[tuple[str, float]]]:
    """Return (total import ms of the process's own imports after `site`, the `top` costliest top-level imports) of
    `python -m toyhw fastp` in the checkout `where`."""
    out = subprocess.run(
        [sys.executable, "-X", "importtime", *TOYHW],
        capture_output=True,
        text=True,
        check=True,
        cwd=where,
        env=_env(where),
    ).stderr
    rows = []
    for line in out.splitlines():
        found = re.match(r"import time:\s+\d+ \|\s+(\d+) \|( *)(\S+)", line)
        if found and found.group(2) == " ":  # a top-level import (one space of indentation)
            rows.append((found.group(3), int(found.group(1)) / 1000))
    after_site = [(name, ms) for name, ms in rows if name not in ("site", "encodings", "_frozen_importlib_external")]
    return sum(ms for _, ms in after_site), sorted(after_site, key=lambda r: -r[1])[:top]


def report(figures: dict, imports: tuple, imports_before: Optional[tuple], repeats: int) -> str:
    """Return the section's Markdown body."""
    lines = [
        f"Fresh processes run alternately, {repeats} times each, with {sys.executable.split('/')[-3]}'s Python "
        f"{sys.version.split()[0]}; medians (output discarded). `.venv/bin/python benchmarks/bench_cli.py "
        "--seed-script PATH` writes this section.",
        "",
        "| process | wall (s) | CPU (s) |",
        "|---|---|---|",
    ]
    for name, (wall, cpu) in figures.items():
        command = "python -m toyhw fastp" if name.startswith("toyhw") else "python seed000_fastp_feedback.py"
        lines.append(f"| {name}: `{command}` | {wall:.3f} | {cpu:.3f} |")
    lines.append("")
    if "seed script" in figures:
        (tw, tc), (sw, sc) = figures["toyhw"], figures["seed script"]
        lines.append(
            f"- **ratio toyhw / seed script: {tw / sw:.2f} in wall time, {tc / sc:.2f} in CPU time** "
            "(at most 1.0 is the goal)"
        )
    else:
        lines.append("- the seed script was not given (--seed-script or TOYHW_SEED_SCRIPT): no ratio")
    if "toyhw before" in figures:
        bw, bc = figures["toyhw before"]
        lines.append(f"- the `--before` checkout: {bw / figures['toyhw'][0]:.2f}x this one's wall time")
    for label, (total, top) in (("imports", imports), ("imports before", imports_before)):
        if total is not None:
            lines.append(
                f"- {label} (`python -X importtime`, after `site`): {total:.0f} ms; largest: "
                + ", ".join(f"{name} {ms:.1f} ms" for name, ms in top)
            )
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    seed_script.add_option(parser)
    parser.add_argument("--repeats", type=int, default=11, help="runs of each process (default 11)")
    parser.add_argument("--before", type=pathlib.Path, help="another checkout of the pack to measure alongside")
    parser.add_argument("--no-write", action="store_true", help="print only; leave RESULTS.md as it is")
    args = parser.parse_args(argv)
    script = seed_script.checked(parser, args.seed_script)
    if args.repeats < 1:
        parser.error(f"--repeats = {args.repeats} is not allowed; it must be >= 1")
    figures = measure(script, args.repeats, args.before)
    body = report(
        figures,
        import_breakdown(),
        import_breakdown(args.before.resolve()) if args.before else (None, []),
        args.repeats,
    )
    print(f"## {HEADING}\n\n{body}")
    if not args.no_write:
        results_md.replace_section(RESULTS, HEADING, body)  # only its own section; the rest stays
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
