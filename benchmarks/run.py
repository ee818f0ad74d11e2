"""The pack's benchmark in one run, side by side; prints a Markdown table and writes it to benchmarks/RESULTS.md.

Run: .venv/bin/python benchmarks/run.py [--no-notebooks]   (replaces the top of RESULTS.md; its `## ` sections stay)

Measures: the seed-000 table (toyhw vs the seed script, as a ratio; its path from --seed-script PATH or the environment
variable TOYHW_SEED_SCRIPT, else that row is skipped) and fast_p widget redraws
(bench_fastp.py), the GEMM time table (bench_gemm.py), one evolve run of 1000 programs (bench_ablations.py), the full
ablation (9 variants x 5 seeds x 1000 programs) in a fresh process serially and with 2 worker processes (checking the
results are identical), every notebook executed into a temporary copy (the committed notebooks never change), and
peak memory. The fresh processes matter: no in-process cache may help a measurement that a lecturer's first run pays.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import pathlib
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time

import results_md  # benchmarks/ is on sys.path when a script here runs; both import nothing heavy
import seed_script

# The other benchmark scripts (and through them matplotlib and the widget panels) are imported where measured, not
# here: the fresh child processes must pay only for what a real run of their work imports.

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / "RESULTS.md"
Row = tuple[str, float, "float | None"]
"""(what, seconds, peak resident memory in MB or None)."""


def _peak_mb(who: int) -> float:
    """Return the peak resident memory (MB) of this process (RUSAGE_SELF) or of its largest finished child.

    For this process, Linux's VmHWM is read where it exists: ru_maxrss survives exec, so a child started by a big
    parent would report the parent's size at fork instead of its own.
    """
    if who == resource.RUSAGE_SELF:
        try:
            for line in pathlib.Path("/proc/self/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        except OSError:
            pass
    return resource.getrusage(who).ru_maxrss / 1024  # Linux reports kilobytes


# ----- work done in fresh child processes (`run.py --child WHAT`), each printing one JSON object


def _ablation_child(workers: int) -> dict:
    """Run the full ablation grid with `workers` processes (1 = serially here); return time, memory and a digest."""
    from toyhw.evolve import programs, variants
    from toyhw.evolve.experiments import sweep

    start = time.perf_counter()
    results = sweep.run_grid(sweep.grid(variants.LECTURE_VARIANTS, range(5), [1000]), workers=workers)
    seconds = time.perf_counter() - start
    # repr of floats round-trips exactly, so equal digests mean bit-identical results
    digest = hashlib.sha256(
        repr(
            [
                (
                    r.variant,
                    r.seed,
                    r.budget,
                    r.history,
                    r.final,
                    r.test,
                    r.kernel_runs,
                    r.rules,
                    programs.render(r.best),
                    r.lineage,
                    r.n_added,
                    r.n_added_bad_branch,
                )
                for r in results
            ]
        ).encode()
    ).hexdigest()
    cpu = sum(
        resource.getrusage(who).ru_utime + resource.getrusage(who).ru_stime
        for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    return {
        "seconds": seconds,
        "cpu_seconds": cpu,
        "digest": digest,
        "peak_mb": _peak_mb(resource.RUSAGE_SELF),
        "children_peak_mb": _peak_mb(resource.RUSAGE_CHILDREN),
    }


def _notebooks_child() -> dict:
    """Execute every notebook into a temporary copy with tools/notebooks.py; return seconds per notebook."""
    sys.path.insert(0, str(ROOT / "tools"))
    import notebooks as notebooks_tool

    with tempfile.TemporaryDirectory() as tmp:
        copy = pathlib.Path(tmp) / "notebooks"
        shutil.copytree(ROOT / "notebooks", copy)
        seconds = {path.name: notebooks_tool.execute(path) for path in sorted(copy.glob("*.ipynb"))}
    return {"seconds": seconds, "kernel_peak_mb": _peak_mb(resource.RUSAGE_CHILDREN)}


def _child(what: str) -> tuple[dict, float]:
    """Return (the child's JSON, its wall time including interpreter start and imports)."""
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, __file__, "--child", what], check=True, capture_output=True, text=True, cwd=ROOT
    )
    return json.loads(out.stdout.strip().splitlines()[-1]), time.perf_counter() - start


# ----- the measurements


def fastp_rows(script: "pathlib.Path | None") -> tuple[list[Row], str]:
    """Return lecture 10's rows and a line with the toyhw / seed-script time ratio (none without the script)."""
    import bench_fastp  # benchmarks/ is on sys.path when a script here runs

    rows = bench_fastp.measurements(script)
    named = dict(rows)
    seed = named.get("seed-000 table, the seed script itself")
    toy = named["seed-000 table, toyhw (one-shot + 4 modes x 4 round counts, cold)"]
    note = (
        f"seed-000 table: toyhw / seed script time = {toy / seed:.2f}"
        if seed
        else "seed-000 table: the seed script was not given (--seed-script or TOYHW_SEED_SCRIPT), no ratio"
    )
    return [(what, s, None) for what, s in rows], note


def gemm_rows() -> list[Row]:
    """Return the GEMM time table's rows."""
    import bench_gemm

    t = bench_gemm.measure(repeat=5, n_lookups=200_000)
    return [
        (
            f"GEMM time table: {t.n_configs} configs x {t.n_shapes} shapes + oracles, fresh build (median of 5)",
            t.median_build,
            None,
        ),
        ("GEMM time table: one `TimeTable.time` lookup", t.lookup, None),
    ]


def evolve_rows() -> list[Row]:
    """Return one evolve run of the full variant (1000 programs), caches cleared before each repeat."""
    import bench_ablations
    from timing import median_seconds
    from toyhw.evolve.experiments import ablations

    ablations.context()
    return [
        (
            "one evolve run (full, seed 0, 1000 programs), in process (median of 5)",
            median_seconds(lambda: ablations.run_one("full", 0, 1000), 5, bench_ablations.clear_caches),
            None,
        )
    ]


def ablation_rows() -> tuple[list[Row], str]:
    """Return the full ablation in fresh processes, serially and with 2 workers, and whether the results agree."""
    serial, serial_wall = _child("ablation-1")
    pool, pool_wall = _child("ablation-2")
    same = serial["digest"] == pool["digest"]
    rows = [
        ("full ablation 9 x 5 x 1000, serial: fresh process incl. start-up", serial_wall, serial["peak_mb"]),
        ("full ablation 9 x 5 x 1000, serial: the grid alone", serial["seconds"], None),
        (
            "full ablation 9 x 5 x 1000, 2 worker processes: fresh process incl. start-up",
            pool_wall,
            max(pool["peak_mb"], pool["children_peak_mb"]),
        ),
        ("full ablation 9 x 5 x 1000, 2 worker processes: the grid alone", pool["seconds"], None),
    ]
    note = (
        "full ablation: 2 workers give results identical to serial (sha256 " + serial["digest"][:12] + ")"
        if same
        else "full ablation: RESULTS DIFFER between serial and 2 workers"
    )
    note += (
        f"; CPU time of the whole fresh process (workers included): serial {serial['cpu_seconds']:.2f} s, "
        f"2 workers {pool['cpu_seconds']:.2f} s"
    )
    return rows, note


def notebook_rows() -> list[Row]:
    """Return each notebook's execution time and the total (one fresh kernel each, in a temporary copy)."""
    out, _ = _child("notebooks")
    rows: list[Row] = [(f"notebook {name} executed", s, None) for name, s in out["seconds"].items()]
    rows.append(("all notebooks executed (total)", sum(out["seconds"].values()), out["kernel_peak_mb"]))
    return rows


def machine(numpy_version: str) -> str:
    """Return one line naming the machine: CPU model, cores, Python and numpy versions, date (UTC)."""
    cpu = platform.processor() or "unknown CPU"
    try:
        for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    load = ", load average %.2f at the start" % os.getloadavg()[0] if hasattr(os, "getloadavg") else ""
    return (
        f"{cpu}, {cores} cores usable, Python {platform.python_version()}, numpy {numpy_version}, "
        f"{platform.system()} {platform.release()}, {now}{load}"
    )


def _seconds(value: float) -> str:
    if value != value:  # NaN: a memory-only row
        return ""
    return f"{value * 1e9:.0f} ns" if value < 1e-4 else f"{value:.3f}"


def report(with_notebooks: bool = True, script: "pathlib.Path | None" = None) -> str:
    """Run every measurement and return the Markdown report."""
    import numpy as np

    where = machine(np.__version__)  # before measuring: it reports the load the measurements started under
    rows: list[Row] = []
    notes: list[str] = []
    fastp, note = fastp_rows(script)
    rows += fastp
    notes.append(note)
    rows += gemm_rows()
    rows += evolve_rows()
    ablation, note = ablation_rows()
    rows += ablation
    notes.append(note)
    if with_notebooks:
        rows += notebook_rows()
    rows.append(
        (
            "this benchmark process (lecture 10, GEMM, one evolve run), peak memory",
            float("nan"),
            _peak_mb(resource.RUSAGE_SELF),
        )
    )
    lines = [
        "# Benchmark results",
        "",
        f"Machine: {where}",
        "",
        "Written by `.venv/bin/python benchmarks/run.py` (its latest output). On a shared machine the figures "
        "vary by 10-30% from run to run: compare runs made at the same time.",
        "",
        "| measurement | seconds | peak memory (MB) |",
        "|---|---|---|",
    ]
    for what, seconds, mb in rows:
        lines.append(f"| {what} | {_seconds(seconds)} | {'' if mb is None else f'{mb:.0f}'} |")
    lines += [""] + [f"- {n}" for n in notes]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-notebooks", action="store_true", help="skip executing the notebooks (about a minute)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    seed_script.add_option(parser)
    args = parser.parse_args(argv)
    if args.child:
        result = _notebooks_child() if args.child == "notebooks" else _ablation_child(int(args.child.split("-")[1]))
        print(json.dumps(result))
        return 0
    text = report(not args.no_notebooks, seed_script.checked(parser, args.seed_script))
    print(text)
    results_md.replace_preamble(RESULTS, text)  # the sections other scripts wrote (## ...) stay
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
