"""The package's layers (pyproject.toml, [tool.importlinter]): checked on the real tree, and shown to bite.

Why both: a contract that lists the wrong module names, or a checker that silently finds nothing, passes on any tree.
So besides checking the package itself, each test below copies the package, adds one wrong-way import or one import
cycle, and expects import-linter to refuse it.
"""

from __future__ import annotations

import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]


def lint(tree: pathlib.Path) -> subprocess.CompletedProcess:
    """Run import-linter with the repository's contracts on the package copy under `tree`."""
    env = {**os.environ, "PYTHONPATH": str(tree), "COLUMNS": "200"}  # wide: one line per contract
    code = "import sys, importlinter.cli as c; sys.exit(c.lint_imports(no_cache=True, no_logo=True))"
    return subprocess.run([sys.executable, "-c", code], cwd=tree, env=env, capture_output=True, text=True)


def status(report: str, contract: str) -> str:
    """Return "KEPT" or "BROKEN": what import-linter's report says of the contract whose name starts with `contract`."""
    found = re.search(re.escape(contract) + r".*?\b(KEPT|BROKEN)\b", " ".join(report.split()))
    assert found, f"no contract named {contract!r} in the report:\n{report}"
    return found.group(1)


@pytest.fixture
def package_copy(tmp_path: pathlib.Path) -> pathlib.Path:
    """Return a directory holding pyproject.toml and a copy of toyhw/ (without caches)."""
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    shutil.copytree(ROOT / "toyhw", tmp_path / "toyhw", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def test_the_package_keeps_its_layers(package_copy):
    result = lint(package_copy)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "4 kept, 0 broken" in result.stdout


@pytest.mark.parametrize(
    "module, line, broken",
    [
        # the GEMM model reaching up into lecture 14
        ("gemm/config.py", "import toyhw.evolve.programs", "Layers"),
        # lecture 10 reaching into the GEMM model
        ("kernels/knobs.py", "import toyhw.gemm.shapes", "Lecture 10 stands alone"),
        # the data layer reaching up into the command line
        ("data/__init__.py", "import toyhw.cli", "Layers"),
        ("machine/libm.py", "import toyhw.data", "Layers"),
        # lecture 14's engine reaching up into the course layer (no import is exempted)
        ("evolve/loop.py", "import toyhw.course.evolve_tables", "Layers"),
        # lecture 10's engine reaching up into the course layer
        ("kernels/optimize.py", "import toyhw.course.kernel_tables", "Layers"),
        # lecture 14's engine reaching into its real-model bridge or its experiments
        ("evolve/llm.py", "import toyhw.evolve.bridge.prompt", "Lecture 14's engine never imports"),
        ("evolve/evaluator.py", "import toyhw.evolve.experiments.ablations", "Lecture 14's engine never imports"),
        # a cycle between the engine and its bridge (the bridge's prompt reads the variants)
        ("evolve/variants.py", "import toyhw.evolve.bridge.prompt", "No import cycles"),
        # a cycle between the engine and the course
        ("evolve/loop.py", "import toyhw.course.loop_tables", "No import cycles"),
        # a cycle between sibling modules: programs <-> source (the circle this layout broke)
        ("evolve/programs.py", "import toyhw.evolve.source", "No import cycles"),
    ],
)
def test_a_wrong_way_import_breaks_a_contract(package_copy, module, line, broken):
    path = package_copy / "toyhw" / module
    path.write_text(path.read_text() + f"\n{line}  # added by the test\n")
    result = lint(package_copy)
    assert result.returncode == 1, result.stdout + result.stderr
    assert status(result.stdout, broken) == "BROKEN", result.stdout
