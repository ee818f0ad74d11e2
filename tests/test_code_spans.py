"""Every name the prose tells a student to use resolves: the dotted code spans (`failures.one_knob_repair_chance`,
`report.speedups()`) of each notebook, looked up in its kernel's namespace after the whole notebook ran.

A span whose root is a parameter the prose describes (`feedback.ok` inside a proposer) is not a name of the notebook;
such roots are listed per notebook below, with the reason, and kept few. A module path of the pack or the standard
library (`toyhw.kernels.knobs`, `random.Random`) resolves when it imports: the prose names a module a student imports.
"""

from __future__ import annotations

import pathlib

import pytest

from exercise_cells import dotted_spans, execute_with_solutions, notebook_paths, number

NOTEBOOKS = notebook_paths()

# Roots that name a function's parameter or a record's field the prose describes, not a name of the namespace.
DESCRIBED: dict[str, set[str]] = {
    "02": {"feedback", "config", "rng"},  # a proposer's parameters, (feedback, config, rng) -> config
    "08": {"Client"},  # dask.distributed's Client, whose API the prose names (`Client.get_executor()`)
}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_every_dotted_name_in_the_prose_resolves(path: pathlib.Path):
    allowed = DESCRIBED.get(number(path), set())
    unresolved = {
        name: why for name, why in execute_with_solutions(path).unresolved.items() if name.split(".")[0] not in allowed
    }
    spans = dotted_spans(path)
    assert not unresolved, f"{path.name}: the prose names what the notebook does not define:\n" + "\n".join(
        f"  `{spans[name][0]}`: {why}" for name, why in sorted(unresolved.items())
    )
