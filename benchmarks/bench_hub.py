"""What one student costs a shared server (The Littlest JupyterHub or similar): memory and CPU per notebook.

    .venv/bin/python benchmarks/bench_hub.py [--notebooks 01,04] [--workers 1,2] [--no-server]

Each notebook runs top to bottom ("Run All", as a student does on opening it) in a kernel of its own, a subprocess
started by nbclient. Meanwhile a sampler reads, every 50 ms, the memory of that kernel and of every process it starts
(the sweep's workers): RSS (what `top` shows; a forked worker's RSS counts the pages it shares with the kernel) and PSS
(proportional set size: shared pages split between the processes sharing them, so the PSS of kernel and workers adds up
to the memory they occupy together; /proc/PID/smaps_rollup). A last cell, not stored, reads the kernel's own
getrusage: its peak RSS as the kernel counts it (ru_maxrss, exact, no sampling) and the CPU seconds of the kernel and
of its finished workers. CPU share = CPU seconds / wall seconds: how many CPUs the notebook keeps busy while it runs;
after Run All a kernel idles until a slider moves (a move costs tens of milliseconds: "Latency" sections below).

`--workers` sets TOYHW_WORKERS for the kernels (the pool a hub's 1-CPU quota gives is 1); without it each kernel uses
the CPUs this process may use. `--no-server` skips the idle JupyterLab server (the user's single-user server on a hub).
Writes its section of benchmarks/RESULTS.md and the figures to benchmarks/hub.json, which the lecturer's guide quotes
(Linux only: it reads /proc).
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import platform
import socket
import subprocess
import sys
import threading
import time

import nbformat
from nbclient import NotebookClient

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import results_md  # noqa: E402  (benchmarks/ is on sys.path when a script here runs)

ROOT = pathlib.Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "RESULTS.md"
FIGURES = ROOT / "benchmarks" / "hub.json"
"""The figures of the last full run, read by the guide's test (tests/prose/guide_hub.py): the guide quotes them."""
HEADING = "Hub: memory and CPU per student (bench_hub.py)"
PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024

USAGE_CELL = """
import json as _json, resource as _resource
_self, _kids = _resource.getrusage(_resource.RUSAGE_SELF), _resource.getrusage(_resource.RUSAGE_CHILDREN)
print(_json.dumps({"maxrss_kb": _self.ru_maxrss, "cpu_s": _self.ru_utime + _self.ru_stime,
                   "children_maxrss_kb": _kids.ru_maxrss, "children_cpu_s": _kids.ru_utime + _kids.ru_stime}))
"""


def _children() -> dict[int, list[int]]:
    """Return ppid -> [pid] over every process visible in /proc."""
    tree: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = pathlib.Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            tree.setdefault(ppid, []).append(int(entry))
    return tree


def _descendants(pid: int) -> list[int]:
    tree, out, todo = _children(), [], list(_children().get(pid, []))
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(tree.get(p, []))
    return out


def _memory_kb(pid: int) -> tuple[int, int]:
    """Return (RSS, PSS) of a process in kB, (0, 0) once it is gone."""
    try:
        text = pathlib.Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return 0, 0
    fields = {line.split(":")[0]: int(line.split()[1]) for line in text.splitlines()[1:] if line.split()[1].isdigit()}
    return fields.get("Rss", 0), fields.get("Pss", 0)


class Sampler(threading.Thread):
    """Sample the memory of `parent`'s descendants (the kernel, then its workers) until stopped."""

    def __init__(self, parent: int, interval: float = 0.05) -> None:
        super().__init__(daemon=True)
        self.parent, self.interval, self.stopping = parent, interval, threading.Event()
        self.kernel: int | None = None
        self.peak_tree_pss = self.peak_kernel_rss = self.peak_worker_rss = self.peak_worker_pss = self.most_workers = 0

    def run(self) -> None:
        while not self.stopping.is_set():
            children = _children().get(self.parent, [])
            if self.kernel is None and children:
                self.kernel = children[0]  # nbclient starts one process: the kernel
            if self.kernel is not None:
                workers = _descendants(self.kernel)
                kernel_rss, kernel_pss = _memory_kb(self.kernel)
                worker_mem = [_memory_kb(p) for p in workers]
                self.peak_kernel_rss = max(self.peak_kernel_rss, kernel_rss)
                self.peak_tree_pss = max(self.peak_tree_pss, kernel_pss + sum(pss for _, pss in worker_mem))
                self.peak_worker_rss = max([self.peak_worker_rss] + [rss for rss, _ in worker_mem])
                self.peak_worker_pss = max([self.peak_worker_pss] + [pss for _, pss in worker_mem])
                self.most_workers = max(self.most_workers, sum(1 for rss, _ in worker_mem if rss))
            self.stopping.wait(self.interval)


def run_notebook(path: pathlib.Path) -> dict:
    """Run the notebook at `path` in a fresh kernel; return its memory and CPU figures."""
    nb = nbformat.read(path, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(USAGE_CELL))
    sampler = Sampler(os.getpid())
    sampler.start()
    start = time.perf_counter()
    client = NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}})
    with client.setup_kernel():
        started = time.perf_counter()
        for index, cell in enumerate(nb.cells):
            client.execute_cell(cell, index)
        ran = time.perf_counter() - started
    sampler.stopping.set()
    sampler.join()
    usage = json.loads("".join(o.get("text", "") for o in nb.cells[-1].outputs if o.get("name") == "stdout"))
    cpu = usage["cpu_s"] + usage["children_cpu_s"]
    return {
        "notebook": path.name,
        "start_s": started - start,
        "run_s": ran,
        "cpu_s": cpu,
        "cpu_share": cpu / ran,
        "kernel_peak_rss_mb": usage["maxrss_kb"] / 1024,
        "sampled_kernel_rss_mb": sampler.peak_kernel_rss / 1024,
        "tree_peak_pss_mb": sampler.peak_tree_pss / 1024,
        "workers": sampler.most_workers,
        "worker_peak_rss_mb": max(usage["children_maxrss_kb"], sampler.peak_worker_rss) / 1024
        if sampler.most_workers
        else 0.0,
        "worker_peak_pss_mb": sampler.peak_worker_pss / 1024,
    }


def idle_server_mb() -> dict:
    """Start JupyterLab as a hub user's single-user server would be (no browser, 127.0.0.1, a token), wait until it
    answers, let it settle, and return its RSS and PSS in MB."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "JUPYTER_TOKEN": os.urandom(16).hex()}
    allow_root = ["--allow-root"] if os.geteuid() == 0 else []
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={port}",
            *allow_root,
        ],
        cwd=ROOT / "notebooks",
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.5)
        time.sleep(5)
        rss, pss = _memory_kb(proc.pid)
        return {"rss_mb": rss / 1024, "pss_mb": pss / 1024}
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def report(rows: list[dict], server: dict | None, workers: str) -> str:
    lines = [
        f"Machine: {platform.platform()}, Python {platform.python_version()}, {len(os.sched_getaffinity(0))} CPUs "
        f"this process may use; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. Each notebook: Run All in a fresh "
        "kernel (a subprocess), memory sampled every 50 ms, CPU from getrusage.",
        "",
        "| notebook | TOYHW_WORKERS | kernel start s | Run All s | CPU s | CPUs busy | kernel peak RSS MB | workers | "
        "worker peak RSS MB | worker peak PSS MB | kernel + workers peak PSS MB |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['notebook']} | {r['workers_env']} | {r['start_s']:.1f} | {r['run_s']:.1f} | "
            f"{r['cpu_s']:.1f} | {r['cpu_share']:.2f} | {r['kernel_peak_rss_mb']:.0f} | {r['workers']} | "
            f"{r['worker_peak_rss_mb']:.0f} | {r['worker_peak_pss_mb']:.0f} | {r['tree_peak_pss_mb']:.0f} |"
        )
    if server:
        lines += [
            "",
            f"Idle JupyterLab server (a hub user's single-user server, no notebook open): RSS "
            f"{server['rss_mb']:.0f} MB, PSS {server['pss_mb']:.0f} MB.",
        ]
    worst = max(rows, key=lambda r: r["tree_peak_pss_mb"])
    lines += [
        "",
        f"Largest kernel + workers: {worst['notebook']} ({worst['workers_env']}), "
        f"{worst['tree_peak_pss_mb']:.0f} MB PSS. Options: {workers or 'default pool'}.",
    ]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notebooks", default="", help="comma-separated numbers (default: all)")
    parser.add_argument(
        "--workers",
        default="",
        help="comma-separated TOYHW_WORKERS values to run each notebook "
        "with (default: unset, the CPUs this process may use)",
    )
    parser.add_argument("--no-server", action="store_true", help="skip the idle JupyterLab server")
    parser.add_argument("--no-write", action="store_true", help="print only; leave RESULTS.md as it is")
    args = parser.parse_args(argv)
    wanted = [n.strip() for n in args.notebooks.split(",") if n.strip()]
    paths = sorted(p for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb") if not wanted or p.name[:2] in wanted)
    settings = [w.strip() for w in args.workers.split(",") if w.strip()] or [""]
    rows = []
    for setting in settings:
        if setting:
            os.environ["TOYHW_WORKERS"] = setting
        else:
            os.environ.pop("TOYHW_WORKERS", None)
        for path in paths:
            row = run_notebook(path)
            row["workers_env"] = setting or "unset"
            print(json.dumps(row), flush=True)
            rows.append(row)
    server = None if args.no_server else idle_server_mb()
    body = report(rows, server, args.workers)
    print(body)
    if not args.no_write:
        results_md.replace_section(RESULTS, HEADING, body)
        machine = {
            "cpus": len(os.sched_getaffinity(0)),
            "python": platform.python_version(),
            "date": time.strftime("%Y-%m-%d", time.gmtime()),
        }
        FIGURES.write_text(json.dumps({"machine": machine, "notebooks": rows, "server": server}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
