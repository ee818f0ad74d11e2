"""Time the GEMM cost model: building the full table (every config x every lecture shape) and single lookups.

Usage: python benchmarks/bench_gemm.py [--gpu H100] [--repeat 5]
The acceptance target (issue 3) is "well under a second" for the full table; the evolution loop needs fast lookups.
"""
from __future__ import annotations

import argparse
import time

from toyhw import expert, shapes
from toyhw.time_table import TimeTable


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gpu", default="H100")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    lecture = shapes.all_shapes()
    builds = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        table = TimeTable(args.gpu)
        table.table(lecture)
        for shape in lecture:
            table.oracle(shape)
        builds.append(time.perf_counter() - start)
    n_lookups = 1_000_000
    pairs = [(expert.expert_config(s), s) for s in lecture]
    start = time.perf_counter()
    for i in range(n_lookups):
        config, shape = pairs[i % len(pairs)]
        table.time(config, shape)
    lookup = (time.perf_counter() - start) / n_lookups
    n_times = len(table.configs) * len(lecture)
    median = sorted(builds)[len(builds) // 2]
    print(f"{args.gpu}: {len(table.configs)} configs x {len(lecture)} shapes = {n_times:,} times")
    print(f"full table + oracles: best {min(builds) * 1e3:.1f} ms, median {median * 1e3:.1f} ms"
          f" over {args.repeat} fresh builds")
    print(f"TimeTable.time lookup: {lookup * 1e9:.0f} ns per call ({n_lookups:,} calls)")


if __name__ == "__main__":
    main()
