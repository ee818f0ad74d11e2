"""The golden results: what lecture 14's studies give, split into discrete outcomes and floats.

`tests/data/golden_results.json` holds this payload, computed once and committed (the values themselves, so a
machine that cannot reproduce the one that made them can still say which value moved). The golden tests
(`tests/test_golden*.py`, `tests/evolve/test_golden*.py`) compare a fresh payload with it: discrete outcomes exactly
(kernel runs, rules, programs added, statuses, where the best-so-far curve steps up, the best program's source, every
printed table at its printed precision) and floats within FLOAT_RTOL.

Regenerate it (only when a change is meant to move results; say why in the commit):

    .venv/bin/python tests/golden_payload.py --write
"""

from __future__ import annotations

import argparse
import json
import math
import struct
import sys
from argparse import Namespace
from pathlib import Path
from typing import Any, Iterator

GOLDEN_FILE = Path(__file__).parent / "data" / "golden_results.json"

FLOAT_RTOL = 1e-12
"""Relative tolerance on every float. CPUs' transcendental functions differ in the last bit (1.1e-16 relative); with
log, exp and pow nudged by one bit for half of their inputs (`nudge_libm`) the payload's floats moved by at most
5.1e-16; the printed tables round to 1e-3. 1e-12 sits far from both."""

BUDGET = 1000
SEEDS = (0, 1, 2, 3, 4)
TARGETING = ((0, 300), (1, 300), (0, 1000))


def _steps(history: tuple[float, ...]) -> list[list]:
    """Return the best-so-far curve as its steps: [program index, score] where it rises (index 0 always)."""
    steps = [[0, history[0]]]
    for i in range(1, len(history)):
        if history[i] != history[i - 1]:
            steps.append([i, history[i]])
    return steps


def _cli_text(command: str, **options: Any) -> str:
    """Return the readable table a `python -m toyhw` command prints, computed in this process."""
    import importlib

    module = importlib.import_module(f"toyhw.commands.{command}")
    return module.render(module.run(Namespace(**options)))


def payload() -> dict:
    """Return the golden payload of this process's toyhw (every variant x seeds 0-4 x 1000 programs, demos 2 and 3)."""
    from toyhw.evolve.experiments import ablations, branch_check, targeting
    from toyhw.evolve import variants
    from toyhw.evolve.programs import render

    names = variants.available()
    study = ablations.ablation_study(names, SEEDS, BUDGET)
    runs = {
        name: [
            {
                "seed": r.seed,
                "history_steps": _steps(r.history),
                "final": r.final,
                "test": r.test,
                "bench_runs": r.kernel_runs,
                "rules": r.rules,
                "n_added": r.n_added,
                "n_added_bad_branch": r.n_added_bad_branch,
                "statuses": dict(sorted(r.statuses.items())),
                "best_source": render(r.best),
            }
            for r in study.runs[name]
        ]
        for name in names
    }
    demo3 = branch_check.branches(SEEDS, BUDGET)
    branches = {
        key: [{**row.as_dict(), "example_source": None if row.example is None else render(row.example)} for row in rows]
        for key, rows in demo3.items()
    }
    demo2 = []
    for seed, budget in TARGETING:
        t = targeting.targeting(seed, budget)
        demo2.append(
            {
                "seed": seed,
                "budget": budget,
                "n_stuck": t.n_stuck,
                "share_on_stuck": dict(t.share_on_stuck),
                "top_roofline": [r.shape.name for r in t.top_roofline],
                "top_best": [r.shape.name for r in t.top_best],
                "overlap_top5": t.overlap_top5,
                "vs_best": [r.vs_best for r in t.rows],
                "vs_roofline": [r.vs_roofline for r in t.rows],
            }
        )
    printed = {
        "ablations": _cli_text("ablations", variants=list(names), seeds=list(SEEDS), budget=BUDGET, workers=1),
        "branches": _cli_text("branches", seeds=list(SEEDS), budget=BUDGET),
        "targeting": _cli_text("targeting", seed=0, budget=300),
    }
    return {
        "oracle": {"train": study.oracle_train, "test": study.oracle_test},
        "ablation": runs,
        "branches": branches,
        "targeting": demo2,
        "printed": printed,
    }


def differences(expected: Any, actual: Any, path: str = "") -> Iterator[str]:
    """Yield one line per difference: discrete values (ints, strings, booleans, lengths, keys) must be equal, floats
    equal within FLOAT_RTOL."""
    if type(expected) is not type(actual):
        yield f"{path}: {expected!r} != {actual!r} ({type(expected).__name__} expected)"
    elif isinstance(expected, float):
        if not math.isclose(expected, actual, rel_tol=FLOAT_RTOL, abs_tol=0.0) and expected != actual:
            yield f"{path}: {expected!r} != {actual!r} (difference {actual - expected:.1e})"
    elif isinstance(expected, dict):
        if list(expected) != list(actual):
            yield f"{path}: keys {list(expected)} != {list(actual)}"
        for key in expected:
            if key in actual:
                yield from differences(expected[key], actual[key], f"{path}.{key}")
    elif isinstance(expected, list):
        if len(expected) != len(actual):
            yield f"{path}: length {len(expected)} != {len(actual)}"
        for i, (e, a) in enumerate(zip(expected, actual)):
            yield from differences(e, a, f"{path}[{i}]")
    elif expected != actual:
        yield f"{path}: {expected!r} != {actual!r}"


def load() -> dict:
    """Return the committed golden payload."""
    return json.loads(GOLDEN_FILE.read_text(encoding="utf-8"))


def as_json(value: dict) -> str:
    """Return the payload as the committed file's text (floats written with repr: exact)."""
    return json.dumps(value, indent=1, ensure_ascii=False) + "\n"


def floats_moved(expected: Any, actual: Any) -> int:
    """Return how many floats of `actual` differ from `expected` in any bit (same structure assumed)."""
    if isinstance(expected, float):
        return int(expected != actual)
    if isinstance(expected, dict):
        return sum(floats_moved(v, actual[k]) for k, v in expected.items() if k in actual)
    if isinstance(expected, list):
        return sum(floats_moved(e, a) for e, a in zip(expected, actual))
    return 0


def nudge_libm() -> None:
    """Make the C library's log, exp and pow return a neighbouring float for about half of their inputs.

    Another CPU's (or another C library's) transcendental functions differ from this one's in the last bit, for some
    inputs. This stands in for one: the nudge depends only on the input's bits, so equal inputs still give equal
    outputs (ties stay ties), as on a real CPU. A result that survives it does not hang on last bits.
    """

    def nudged(function):
        def call(x: float, *rest: float) -> float:
            y = function(x, *rest)
            bits = struct.unpack("<Q", struct.pack("<d", x))[0]
            turn = ((bits * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF) >> 62
            if math.isfinite(y) and y != 0.0 and turn in (1, 2):
                y = math.nextafter(y, math.inf if turn == 1 else -math.inf)
            return y

        return call

    math.log, math.exp, math.pow = nudged(math.log), nudged(math.exp), nudged(math.pow)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"write {GOLDEN_FILE.name} (else compare with it)")
    parser.add_argument("--dump", metavar="FILE", help="write this process's payload to FILE (JSON)")
    parser.add_argument("--nudge-libm", action="store_true", help="compute with last-bit noise in log, exp and pow")
    args = parser.parse_args(argv)
    if args.nudge_libm:
        nudge_libm()
    fresh = json.loads(json.dumps(payload()))  # tuples -> lists, as the file reads back
    if args.dump:
        Path(args.dump).write_text(as_json(fresh), encoding="utf-8")
    if args.write:
        GOLDEN_FILE.write_text(as_json(fresh), encoding="utf-8")
        print(f"wrote {GOLDEN_FILE}")
        return 0
    golden = load()
    found = list(differences(golden, fresh))
    print("\n".join(found) if found else "the same discrete outcomes, floats within the tolerance")
    print(json.dumps({"differences": len(found), "floats_moved": floats_moved(golden, fresh)}))
    return 1 if found else 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    sys.exit(main(sys.argv[1:]))
