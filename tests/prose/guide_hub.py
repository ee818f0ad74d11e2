"""The numbers of the guide's section on a class on one server (docs/lecturer_guide.md, section 6).

Its figures are measurements, not results of the pack: `benchmarks/bench_hub.py` runs every notebook in a kernel of its
own and stores what it measured in `benchmarks/hub.json`; the phrases here are built from that file, so a new
measurement changes the phrases and the guide must follow (tests/test_guide.py). The pool sizes come from toyhw.machine.cpus.
`tests/prose/guide.py` adds these phrases, parameters and exemptions to its own.
"""

from __future__ import annotations

import functools
import json
import math
import pathlib

from toyhw.evolve import variants
from toyhw.evolve.experiments import ablations

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIGURES = ROOT / "benchmarks" / "hub.json"

CLASS_SIZE = 100  # the class the section sizes a server for
SERVER_CORES = 32  # an example server's cores
QUOTA_CPUS = 1  # the CPU quota per user the section recommends
STUDY_RUNS = len(variants.available()) * len(ablations.SEEDS)  # notebook 04's study: every variant x the seeds

PARAMETERS = [
    f"a {SERVER_CORES}-core server",
    f"limits.cpu {QUOTA_CPUS}",
    f"its {STUDY_RUNS} runs",
    "`TOYHW_WORKERS=1`",
]

NOT_RESULTS = [
    "Every notebook runs on a shared server",
]

QUOTED: list[str] = []


@functools.lru_cache(maxsize=None)
def figures() -> dict:
    return json.loads(FIGURES.read_text())


def _rows(workers: str) -> dict[str, dict]:
    return {r["notebook"][:2]: r for r in figures()["notebooks"] if r["workers_env"] == workers}


def _mb(x: float) -> str:
    return f"{x:.0f} MB"


def suggested_limit_gb() -> float:
    """The memory limit the section suggests: the idle server and all eight kernels at their peaks (a student who never
    shuts a kernel down), on the pool of 1 CPU, rounded up to a quarter GB."""
    need_mb = figures()["server"]["pss_mb"] + sum(r["tree_peak_pss_mb"] for r in _rows(str(QUOTA_CPUS)).values())
    return math.ceil(need_mb / 256) / 4


def two_open_mb() -> float:
    """The server and the two largest kernels (the notebook open and the one before), on the pool of 1 CPU."""
    serial = sorted((r["tree_peak_pss_mb"] for r in _rows(str(QUOTA_CPUS)).values()), reverse=True)
    return figures()["server"]["pss_mb"] + serial[0] + serial[1]


def phrases() -> dict[str, str]:
    serial, pooled = _rows("1"), _rows("2")
    server = figures()["server"]
    kernels = sorted(serial.items(), key=lambda kv: kv[1]["kernel_peak_rss_mb"])
    low, high = kernels[0], kernels[-1]
    nb04, nb04_pool = serial["04"], pooled["04"]
    total_serial = sum(r["tree_peak_pss_mb"] for r in serial.values())
    cpu = {n: r["cpu_s"] for n, r in serial.items()}
    busiest = max(cpu, key=cpu.get)
    class_cpu = CLASS_SIZE * cpu[busiest]
    out = {
        "server": f"idle JupyterLab server takes {_mb(server['pss_mb'])} (PSS; {_mb(server['rss_mb'])} RSS)",
        "kernels": (
            f"a kernel after Run All peaks between {_mb(low[1]['kernel_peak_rss_mb'])} (notebook {low[0]}) and "
            f"{_mb(high[1]['kernel_peak_rss_mb'])} (notebook {high[0]}) RSS"
        ),
        "workers": (
            f"on two CPUs it starts {nb04_pool['workers']} workers of up to "
            f"{_mb(nb04_pool['worker_peak_rss_mb'])} RSS each ({_mb(nb04_pool['worker_peak_pss_mb'])} of "
            f"their own, PSS), and the kernel with its workers peaks at {_mb(nb04_pool['tree_peak_pss_mb'])} "
            f"PSS; on one CPU it runs serially in the kernel, at {_mb(nb04['tree_peak_pss_mb'])}"
        ),
        "nb08": (
            f"notebook 08 starts up to {serial['08']['workers']} processes of its own whatever the pool (it times "
            f"one and two processes), and peaks at {_mb(serial['08']['tree_peak_pss_mb'])} PSS with them"
        ),
        "all_eight": f"all eight kernels at once take {total_serial:,.0f} MB",
        "limit": f"limits.memory {suggested_limit_gb():g}G",
        "class_cpu": (
            f"notebook {busiest}'s Run All costs {cpu[busiest]:.0f} CPU-seconds: {CLASS_SIZE} students "
            f"starting it together ask for {class_cpu:,.0f} CPU-seconds, about "
            f"{class_cpu / SERVER_CORES:.0f} seconds of a {SERVER_CORES}-core server"
        ),
        "class_memory": f"{CLASS_SIZE} students at that limit need up to {CLASS_SIZE * suggested_limit_gb():g} GB",
        "two_open": f"the server and two kernels, {_mb(two_open_mb())}",
        "machine": (
            f"measured on {figures()['machine']['cpus']} CPUs with Python {figures()['machine']['python']}, "
            f"{figures()['machine']['date']}"
        ),
    }
    for n, r in sorted(serial.items()):
        p = pooled[n]
        out[f"row{n}"] = (
            f"| {n} | {r['cpu_s']:.0f} | {r['kernel_peak_rss_mb']:.0f} | {r['tree_peak_pss_mb']:.0f} | "
            f"{p['workers']} | {p['tree_peak_pss_mb']:.0f} |"
        )
    return out


def quotes() -> list[str]:
    return list(phrases().values())
