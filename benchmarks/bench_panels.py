"""What each widget panel costs the kernel, in process (no browser): its first draw, its memory, and a move.

Run: .venv/bin/python benchmarks/bench_panels.py [--repeats 5] [--out benchmarks/RESULTS.md]

Builds every panel of notebooks 01-07 (05 and 08 have none) with the notebook's own arguments, after what the
notebook computes before it (notebook 04's full study: its cost is the notebook's setup, reported on its own line),
and reports per panel:

- first draw: CPU seconds to make the panel, which computes the numbers its controls can reach (or the first seed's)
  and the description of its starting state; `tracemalloc` bytes it left allocated (its kept numbers, the caches it
  filled) and its peak;
- a move: each control moved `--repeats` times the way bench_browser.py moves it (sliders five steps one way and one
  back, the next dropdown option, one more / one fewer selected, the number one up, the other toggle), by setting the
  control's `.value`, the path a browser move takes once the kernel has the value. Timed: CPU milliseconds of the
  kernel's own thread (the one that answers the page; notebooks 06 and 07 run the next seeds in a thread of their
  own, SeedRuns.ahead, whose work is a seed's first visit, not a move) in the callback (a lookup, or the description made on the state's first visit) plus serializing the widget's new state to
  JSON, which is what the kernel sends. Without a kernel nothing is sent, so the websocket's own cost is not here:
  bench_browser.py measures the whole move in a real page;
- the description's size (kB of JSON) after the last move.

Writes the section "## Panels in process (bench_panels.py)" of the output file, leaving the rest alone.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import statistics
import subprocess
import sys
import time
import tracemalloc
from typing import Callable, Iterator

import ipywidgets as widgets

import results_md  # benchmarks/ is sys.path[0] when this script runs
from toyhw.charts.widget import ChartWidget

HERE = pathlib.Path(__file__).resolve().parent


def panels() -> list[tuple[str, str, Callable[[], widgets.Widget]]]:
    """Return (notebook, panel, make) for every panel, with the notebook's arguments."""
    from toyhw.evolve import variants
    from toyhw.evolve.experiments import ablations
    from toyhw.gemm.config import GemmConfig
    from toyhw.panels import evolution, fastp, gemm

    def my_proposer(feedback, config, rng):  # notebook 02's exercise solution has this shape
        return config

    return [
        ("01", "task_explorer_panel", lambda: fastp.task_explorer_panel(230, 200)),
        ("01", "one_shot_panel", lambda: fastp.one_shot_panel(230, 200, p=1.0)),
        (
            "02",
            "feedback_panel",
            lambda: fastp.feedback_panel(max_rounds=50, p=1.0, extra={"my_proposer": my_proposer}),
        ),
        ("03", "gemm_panel", lambda: gemm.gemm_panel("H100", "70B/8 qkv", 16, GemmConfig(16, 64, 128, 4, 3, 1))),
        ("04", "ablation_panel", lambda: evolution.ablation_panel(variants.LECTURE_VARIANTS, 100)),
        ("06", "feedback_panel", lambda: evolution.feedback_panel(seed=0, budget=ablations.BUDGET)),
        ("07", "branches_panel", lambda: evolution.branches_panel(seed=0, budget=ablations.BUDGET)),
    ]


def walk(widget: widgets.Widget) -> Iterator[widgets.Widget]:
    yield widget
    for child in getattr(widget, "children", ()):
        yield from walk(child)


def options(control: widgets.Widget) -> list:
    return [o[1] if isinstance(o, tuple) else o for o in control.options]


def moves(control: widgets.Widget, repeats: int) -> Iterator[Callable[[], None]]:
    """Yield `repeats` moves of `control`, as bench_browser.py makes them."""
    for k in range(repeats):
        if isinstance(control, (widgets.IntSlider, widgets.FloatLogSlider, widgets.SelectionSlider)):
            values = options(control) if isinstance(control, widgets.SelectionSlider) else None
            if values is None:
                step = 5 * control.step if k % 2 == 0 else -control.step
                target = min(control.max, max(control.min, control.value + step))
                if isinstance(control, widgets.FloatLogSlider):
                    exponent = min(control.max, max(control.min, __import__("math").log2(control.value) + step))
                    target = 2**exponent
            else:
                i = values.index(control.value)
                target = values[min(len(values) - 1, i + 5)] if k % 2 == 0 else values[max(0, i - 1)]
                if target == control.value:
                    target = values[max(0, i - 5)]
            yield lambda c=control, v=target: setattr(c, "value", v)
        elif isinstance(control, (widgets.Dropdown, widgets.ToggleButtons)):
            values = options(control)
            yield lambda c=control, vs=values: setattr(c, "value", vs[(vs.index(c.value) + 1) % len(vs)])
        elif isinstance(control, widgets.SelectMultiple):
            values = options(control)

            def toggle(c=control, vs=values, add=k % 2 == 0) -> None:
                missing = [v for v in vs if v not in c.value]
                c.value = (
                    tuple(v for v in vs if v in c.value or (add and missing and v == missing[0]))
                    if add or len(c.value) < 2
                    else tuple(c.value[1:])
                )

            yield toggle
        elif isinstance(control, widgets.BoundedIntText):
            yield lambda c=control: setattr(c, "value", c.value + 1)


def measure(index: int, repeats: int, memory: bool) -> dict:
    """Return the figures of panel `index` of `panels()`, made in this (fresh) process: with `memory`, what tracemalloc
    saw of its first draw (tracemalloc slows Python down, so the times come from a run without it)."""
    from toyhw.panels import evolution

    notebook, name, make = panels()[index]
    if notebook == "04":
        evolution.full_study(workers=1)  # the notebook's setup, before the panel
    if memory:
        tracemalloc.start()
    start = time.process_time()
    panel = make()
    first = time.process_time() - start
    if memory:
        kept, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        return {"kept": kept, "peak": peak}
    charts = [w for w in walk(panel) if isinstance(w, ChartWidget)]
    outputs = [*charts, *(w for w in walk(panel) if isinstance(w, widgets.HTML))]
    controls = [
        w for w in walk(panel) if isinstance(w, widgets.ValueWidget) and not isinstance(w, (widgets.HTML, ChartWidget))
    ]
    times, walls = [], []
    for control in controls:
        for move in moves(control, repeats):
            start, wall = time.thread_time(), time.perf_counter()
            move()
            for out in outputs:
                json.dumps(out.get_state())
            times.append((time.thread_time() - start) * 1000)
            walls.append((time.perf_counter() - wall) * 1000)
    size = sum(len(json.dumps(c.spec)) for c in charts) / 1000
    return {"notebook": notebook, "name": name, "first": first, "moves": times, "walls": walls, "kB": size}


def in_fresh_process(index: int, repeats: int, memory: bool) -> dict:
    """Return `measure(index, ...)` run in a new Python process (no cache of another panel's)."""
    command = [sys.executable, __file__, "--panel", str(index), "--repeats", str(repeats)] + (
        ["--memory"] if memory else []
    )
    done = subprocess.run(command, capture_output=True, text=True, check=True, cwd=HERE)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--out", type=pathlib.Path, default=HERE / "RESULTS.md")
    parser.add_argument("--panel", type=int, help=argparse.SUPPRESS)  # one panel, in this process (used internally)
    parser.add_argument("--memory", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.panel is not None:
        print(json.dumps(measure(args.panel, args.repeats, args.memory)))
        return
    rows = []
    for index in range(len(panels())):
        found = in_fresh_process(index, args.repeats, memory=False)
        found.update(in_fresh_process(index, args.repeats, memory=True))
        ms = found["moves"]
        rows.append(
            f"| {found['notebook']} | {found['name']} | {found['first']:.2f} | {found['kept'] / 1e6:.1f} | "
            f"{found['peak'] / 1e6:.1f} | {len(ms)} | {statistics.median(ms):.1f} | {max(ms):.1f} | "
            f"{max(found['walls']):.0f} | {found['kB']:.1f} |"
        )
        print(rows[-1], flush=True)
    body = (
        f"\nCommand: `.venv/bin/python benchmarks/bench_panels.py --repeats {args.repeats}`, "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, Python {sys.version.split()[0]}, each panel in a "
        "fresh process.\n\n"
        "First draw = CPU seconds to make the panel (the numbers its controls reach, or its first seed's, and the "
        "starting state's description); kept / peak = MB tracemalloc saw left allocated by making it / at its peak "
        "(caches it filled included); a move = CPU ms of the callback plus serializing the widget's new state (what "
        "the kernel sends; the page draws it), in the kernel's own thread; worst wall = the slowest move's elapsed "
        "ms (a move to a seed still running in the background thread waits for it: moved at once after the first "
        "draw, as here, that is the seed's run); size = the description's JSON after the last move. Notebook 04's full "
        "study is computed before its panel (the notebook's setup) and is in no row.\n\n"
        "| notebook | panel | first draw s | kept MB | peak MB | moves | move median ms | move worst ms | worst wall ms "
        "| size kB |\n"
        "|---|---|---|---|---|---|---|---|---|---|\n" + "\n".join(rows) + "\n"
    )
    results_md.replace_section(args.out, "Panels in process (bench_panels.py)", body)


if __name__ == "__main__":
    main(sys.argv[1:])
