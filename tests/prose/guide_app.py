"""The numbers of the guide's paragraph on the app's time to ready (docs/lecturer_guide.md, section 3).

They are measurements: `benchmarks/bench_app_ready.py` opens every notebook of both editions as `make present` serves
it, with and without Voila's preheated kernel, and stores the seconds in `benchmarks/app_ready.json`; the phrases are
built from that file, so a new measurement changes them and the guide must follow (tests/test_guide.py; the zh guide
states the same numbers, tests/test_zh_edition.py). `tests/prose/guide.py` adds them to its own.
"""

from __future__ import annotations

import functools
import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIGURES = ROOT / "benchmarks" / "app_ready.json"

PARAMETERS: list[str] = []
NOT_RESULTS: list[str] = []
QUOTED: list[str] = []


@functools.lru_cache(maxsize=None)
def figures() -> dict:
    return json.loads(FIGURES.read_text(encoding="utf-8"))


def _span(mode: str) -> str:
    """The range of `mode`'s seconds over every notebook of both editions, and the notebook at its top (the
    paragraph's words compare nothing: tests/test_comparison_claims.py)."""
    seconds = {name: times[mode] for name, times in figures()["notebooks"].items()}
    slowest = max(seconds, key=seconds.get)
    number = pathlib.PurePosixPath(slowest).name[:2]
    return f"{min(seconds.values()):.0f}-{max(seconds.values()):.0f} s (notebook {number} at the top)"


def phrases() -> dict[str, str]:
    f = figures()
    return {
        "machine": f"measured on {f['machine']}, load average {f['load_average_median']:.1f}, {f['date']}",
        "cold": f"a page opened as `make present` opens it is ready after {_span('cold')}",
        "preheated": f"a page opened once that has happened is ready after {_span('preheated')}",
        "at_once": f"one opened at once, as without it, after {_span('preheated_at_once')}",
    }


def quotes() -> list[str]:
    return list(phrases().values())
