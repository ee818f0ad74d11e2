"""After nbval has run an English notebook's cells, the same kernel runs the notebook's solution file and resolves the
names its prose tells a student to use: one execution per notebook serves nbval, the exercise checks and the prose.

Why in nbval's kernel: nbval runs a notebook's code cells as the items of one file, in one kernel it starts before the
first and stops after the last. Items added after the last share that kernel, so the notebook is not run a second
time for its solutions (it was, in a kernel of its own, until the suite had to fit in minutes). The stubs' verdicts
need no item of their own: nbval compares each check cell's fresh output with the stored one, which
tests/test_exercises.py requires to be one ✗ line.

The items, after the last cell of notebooks/NN_x.ipynb (`--dist loadfile` keeps them on the cells' worker):

- `exercise K: the solution passes`, per computable exercise in order: the solution file's section K, then the
  exercise's check cell, whose verdict must be ✓ (the sections run in the namespace the notebook left, as a student
  pastes them below the stub);
- `the prose's names resolve`: every dotted code span of the prose (`failures.one_knob_repair_chance`) names something
  of the namespace, the pack or the standard library.

Registered by the repository's conftest.py, so `pytest notebooks/03_gemm_cost_model.ipynb` runs them too.
"""

from __future__ import annotations

import json
import pathlib
import re
from typing import Any, Optional

import pytest

from exercise_cells import RESOLVER, dotted_spans, exercises, solution_path, solution_sections, source
from toyhw.course.check import PASS

TIMEOUT_S = 900.0
"""At most this long for one solution and its check (the slowest, notebook 04's, takes seconds)."""

DESCRIBED: dict[str, set[str]] = {
    "02": {"feedback", "config", "rng"},  # a proposer's parameters, (feedback, config, rng) -> config
    "08": {"Client"},  # dask.distributed's Client, whose API the prose names (`Client.get_executor()`)
}
"""Roots of dotted spans that name a function's parameter or a record's field the prose describes, not a name of the
namespace."""


_ANSI = re.compile(r"\x1b\[[0-9;]*m")
"""IPython's colours in a traceback."""


def run_in(kernel: Any, code: str, timeout: float = TIMEOUT_S) -> tuple[str, Optional[str]]:
    """Run `code` in nbval's kernel (nbval.kernel.RunningKernel); return (the text it showed: streams and text/plain
    results, the traceback of an error or None)."""
    msg_id = kernel.execute_cell_input(code, allow_stdin=False)
    shown, error = [], None
    while True:
        msg = kernel.get_message(stream="iopub", timeout=timeout)
        if msg.get("parent_header", {}).get("msg_id") != msg_id:
            continue
        kind, content = msg["msg_type"], msg["content"]
        if kind == "stream":
            shown.append(content["text"])
        elif kind in ("execute_result", "display_data"):
            shown.append(content.get("data", {}).get("text/plain", ""))
        elif kind == "error":
            error = _ANSI.sub("", "\n".join(content.get("traceback", [])) or f"{content['ename']}: {content['evalue']}")
        elif kind == "status" and content["execution_state"] == "idle":
            break
    kernel.await_reply(msg_id, timeout=timeout)
    return "".join(shown), error


class SolutionPasses(pytest.Item):
    """Exercise `number`'s solution section, then its check cell, in the notebook's kernel: the verdict is ✓."""

    def __init__(self, *, number: int, code: str, check: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.number, self.code, self.check = number, code, check

    def runtest(self) -> None:
        kernel = self.parent.kernel
        _, error = run_in(kernel, self.code)
        if error:
            pytest.fail(f"exercise {self.number}'s solution raised:\n{error}", pytrace=False)
        verdict, error = run_in(kernel, self.check)
        if error:
            pytest.fail(f"exercise {self.number}'s check raised on the solution:\n{error}", pytrace=False)
        if not verdict.strip().startswith(PASS):
            pytest.fail(f"exercise {self.number}: the check fails on the solution: {verdict.strip()!r}", pytrace=False)

    def reportinfo(self) -> tuple[pathlib.Path, None, str]:
        return self.path, None, self.name


class ProseNamesResolve(pytest.Item):
    """Every dotted code span of the notebook's prose resolves in the kernel's namespace after its cells ran."""

    def __init__(self, *, spans: dict[str, list[str]], allowed: set[str], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.spans, self.allowed = spans, allowed

    def runtest(self) -> None:
        shown, error = run_in(self.parent.kernel, f"PATHS = {sorted(self.spans)!r}\n" + RESOLVER)
        if error:
            pytest.fail(f"resolving the prose's names raised:\n{error}", pytrace=False)
        found = json.loads(shown.strip().splitlines()[-1] or "{}")
        unresolved = {name: why for name, why in found.items() if name.split(".")[0] not in self.allowed}
        if unresolved:
            pytest.fail(
                f"{self.path.name}: the prose names what the notebook does not define:\n"
                + "\n".join(f"  `{self.spans[name][0]}`: {why}" for name, why in sorted(unresolved.items())),
                pytrace=False,
            )

    def reportinfo(self) -> tuple[pathlib.Path, None, str]:
        return self.path, None, self.name


def kernel_items(notebook: pytest.Collector) -> list[pytest.Item]:
    """The items to run after the last cell of `notebook` (nbval's IPyNbFile of an English notebook)."""
    path = pathlib.Path(str(notebook.path))
    items: list[pytest.Item] = []
    sections = solution_sections(path) if solution_path(path).exists() else {}
    for exercise in exercises(path):
        if exercise.computable and exercise.number in sections:
            items.append(
                SolutionPasses.from_parent(
                    notebook,
                    name=f"exercise {exercise.number}: the solution passes",
                    number=exercise.number,
                    code=sections[exercise.number],
                    check=source(exercise.check),
                )
            )
    items.append(
        ProseNamesResolve.from_parent(
            notebook,
            name="the prose's names resolve",
            spans=dotted_spans(path),
            allowed=DESCRIBED.get(path.name[:2], set()),
        )
    )
    return items


def is_english_notebook(node: pytest.Collector) -> bool:
    path = pathlib.Path(str(node.path))
    return path.suffix == ".ipynb" and path.parent.name == "notebooks" and path.name[:2].isdigit()


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """Put each English notebook's kernel items right after its last nbval cell (so its kernel is still up)."""
    last: dict[int, int] = {}
    for index, item in enumerate(items):
        parent = item.parent
        if parent is not None and type(parent).__name__ == "IPyNbFile" and is_english_notebook(parent):
            last[id(parent)] = index
    for index in sorted(last.values(), reverse=True):
        items[index + 1 : index + 1] = kernel_items(items[index].parent)
