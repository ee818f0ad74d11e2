"""Run the seed script's own functions (seed000_fastp_feedback.py) with any task seed and task count.

The seed's main() hard-codes seed 230 and 200 tasks; this replays its exact logic with other parameters, so tests can
check that toyhw matches "the seed script run the same way". The script is not part of the pack: point the
environment variable TOYHW_SEED_SCRIPT at it (without it the live comparison skips; tests/data/*.json keep the
script's stored outputs, which stay the real check). Used by tests and to regenerate tests/data/*.json:
    TOYHW_SEED_SCRIPT=/path/to/seed000_fastp_feedback.py python tests/seed_reference.py 7 300 \
        > tests/data/seed000_seed7_tasks300.json
"""

from __future__ import annotations

import importlib.util
import json
import os
import pathlib
import random
import sys
from types import ModuleType
from typing import Optional

ENVIRONMENT = "TOYHW_SEED_SCRIPT"
"""The environment variable that names the seed script's path."""
MODES = ("resample", "scalar", "explain", "suggest")


def seed_script() -> Optional[pathlib.Path]:
    """Return the seed script's path from TOYHW_SEED_SCRIPT, or None when the variable is unset or empty."""
    value = os.environ.get(ENVIRONMENT, "").strip()
    return pathlib.Path(value) if value else None


def load_seed() -> Optional[ModuleType]:
    """Return the seed script as a module, or None when TOYHW_SEED_SCRIPT is unset (a wrong path is an error)."""
    path = seed_script()
    if path is None:
        return None
    if not path.is_file():
        raise FileNotFoundError(f"{ENVIRONMENT} = {str(path)!r} is not a file; unset it or name the seed script")
    spec = importlib.util.spec_from_file_location("seed000", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def reference(seed: ModuleType, task_seed: int, n_tasks: int, rounds: tuple[int, ...] = (5, 10, 20, 50)) -> dict:
    """Return the seed's numbers for (task_seed, n_tasks) in the JSON shape of `python -m toyhw fastp --json`."""
    rng = random.Random(task_seed)
    tasks = [seed.make_task(rng) for _ in range(n_tasks)]
    outcomes, one_shot = [], []
    for i, t in enumerate(tasks):
        status, info, _ = seed.run_kernel(t, seed.random_config(random.Random(task_seed + 1 + i)))
        outcomes.append(status)
        one_shot.append(seed.baseline_time(t) / info if status == "ok" else 0.0)
    result = {
        "one_shot": {
            "compile_error": outcomes.count("compile_error") / n_tasks,
            "wrong": outcomes.count("wrong") / n_tasks,
            "ok": outcomes.count("ok") / n_tasks,
            "fast": {str(p): seed.fast_p(one_shot, p) for p in (0.0, 1.0, 1.5)},
        },
        "iterative": {},
    }
    for mode in MODES:
        result["iterative"][mode] = {}
        for r in rounds:
            sp = [seed.optimize(t, random.Random(1000 * r + i), r, mode) for i, t in enumerate(tasks)]
            result["iterative"][mode][str(r)] = {str(p): seed.fast_p(sp, p) for p in (1.0, 1.5)}
    return result


if __name__ == "__main__":
    module = load_seed()
    if module is None:
        raise SystemExit(f"set {ENVIRONMENT} to the seed script's path")
    print(json.dumps(reference(module, int(sys.argv[1]), int(sys.argv[2])), indent=1))
