"""Time the GEMM cost model: building the full table (every config x every lecture shape) and single lookups.

Usage: python benchmarks/bench_gemm.py [--gpu H100] [--repeat 5]
The acceptance target (issue 3) is "well under a second" for the full table; the evolution loop needs fast lookups.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

from toyhw.gemm import expert, shapes
from toyhw.gemm.time_table import TimeTable


@dataclass(frozen=True)
class GemmTiming:
    """The GEMM time table's cost.

    Attributes:
        gpu: the GPU's name; n_configs, n_shapes: the table's size.
        builds: seconds of each fresh build of the full table with every shape's oracle.
        lookup: seconds per `TimeTable.time` call on a built table.
    """

    gpu: str
    n_configs: int
    n_shapes: int
    builds: tuple[float, ...]
    lookup: float

    @property
    def median_build(self) -> float:
        """Return the median build time (seconds)."""
        return sorted(self.builds)[len(self.builds) // 2]


def measure(gpu: str = "H100", repeat: int = 5, n_lookups: int = 1_000_000) -> GemmTiming:
    """Return the build times of `repeat` fresh full tables and the time of one lookup (over `n_lookups` calls)."""
    lecture = shapes.all_shapes()
    builds = []
    for _ in range(repeat):
        start = time.perf_counter()
        table = TimeTable(gpu)
        table.table(lecture)
        for shape in lecture:
            table.oracle(shape)
        builds.append(time.perf_counter() - start)
    pairs = [(expert.expert_config(s), s) for s in lecture]
    start = time.perf_counter()
    for i in range(n_lookups):
        config, shape = pairs[i % len(pairs)]
        table.time(config, shape)
    lookup = (time.perf_counter() - start) / n_lookups
    return GemmTiming(gpu, len(table.configs), len(lecture), tuple(builds), lookup)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gpu", default="H100")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    t = measure(args.gpu, args.repeat)
    print(f"{t.gpu}: {t.n_configs} configs x {t.n_shapes} shapes = {t.n_configs * t.n_shapes:,} times")
    print(
        f"full table + oracles: best {min(t.builds) * 1e3:.1f} ms, median {t.median_build * 1e3:.1f} ms"
        f" over {args.repeat} fresh builds"
    )
    print(f"TimeTable.time lookup: {t.lookup * 1e9:.0f} ns per call (1,000,000 calls)")


if __name__ == "__main__":
    main()
