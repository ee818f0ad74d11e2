"""Every module of the pack has one path, and no module stands for another.

The layers move once left stubs at the moved modules' old paths (each swapped itself in `sys.modules` for the moved
module); they were the only imports from an engine's folder up into the course layer. They are gone: a module whose
body only swaps `sys.modules`, or only re-exports another module, fails here, and so does an old path that imports again.
"""

from __future__ import annotations

import ast
import importlib
import json
import pathlib
import re
import sys
import tomllib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "toyhw"

GONE = {  # the old path -> the module's one path
    "toyhw.evolve.tables": "toyhw.course.evolve_tables",
    "toyhw.evolve.feedback_tables": "toyhw.course.feedback_tables",
    "toyhw.evolve.loop_tables": "toyhw.course.loop_tables",
    "toyhw.evolve.proposal_trace": "toyhw.course.proposal_trace",
    "toyhw.evolve.prompt_view": "toyhw.course.prompt_view",
    "toyhw.evolve.scaling": "toyhw.course.scaling",
    "toyhw.kernels.tables": "toyhw.course.kernel_tables",
    "toyhw.evolve.prompt": "toyhw.evolve.bridge.prompt",
    "toyhw.evolve.replies": "toyhw.evolve.bridge.replies",
    "toyhw.evolve.endpoint": "toyhw.evolve.bridge.endpoint",
    "toyhw.evolve.chat": "toyhw.evolve.bridge.chat",
    "toyhw.evolve.chatlog": "toyhw.evolve.bridge.chatlog",
    "toyhw.evolve.ablations": "toyhw.evolve.experiments.ablations",
    "toyhw.evolve.targeting": "toyhw.evolve.experiments.targeting",
    "toyhw.evolve.branch_check": "toyhw.evolve.experiments.branch_check",
    "toyhw.evolve.sweep": "toyhw.evolve.experiments.sweep",
}
FACADES = {"toyhw/alphaevolve.py"}
"""Modules that are nothing but imports on purpose: lecture 14's driver imports its names from one module
(`from toyhw.alphaevolve import ...` is the driver's one changed line); they come from seven."""


def modules() -> list[pathlib.Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def body(path: pathlib.Path) -> list[ast.stmt]:
    """The module's statements after its docstring and `from __future__` imports."""
    nodes = ast.parse(path.read_text(encoding="utf-8")).body
    if nodes and isinstance(nodes[0], ast.Expr) and isinstance(nodes[0].value, ast.Constant):
        nodes = nodes[1:]
    return [n for n in nodes if not (isinstance(n, ast.ImportFrom) and n.module == "__future__")]


def writes_sys_modules(tree: ast.AST) -> bool:
    """An assignment to `sys.modules[...]`, or a call of its `update`/`setdefault`/`__setitem__`."""
    for node in ast.walk(tree):
        target = None
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, (ast.Store, ast.Del)):
            target = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in ("update", "setdefault", "__setitem__", "pop"):
                target = node.func.value
        if isinstance(target, ast.Attribute) and target.attr == "modules":
            if isinstance(target.value, ast.Name) and target.value.id == "sys":
                return True
    return False


def only_imports(nodes: list[ast.stmt]) -> bool:
    """Nothing but imports (and an `__all__` listing them)."""

    def is_all(n: ast.stmt) -> bool:
        return isinstance(n, (ast.Assign, ast.AnnAssign)) and any(
            isinstance(t, ast.Name) and t.id == "__all__"
            for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
        )

    return bool(nodes) and all(isinstance(n, (ast.Import, ast.ImportFrom)) or is_all(n) for n in nodes)


def test_no_module_swaps_sys_modules():
    found = [
        str(p.relative_to(ROOT)) for p in modules() if writes_sys_modules(ast.parse(p.read_text(encoding="utf-8")))
    ]
    assert not found, f"modules that write sys.modules (a module stands for another): {found}"


def test_no_module_only_re_exports():
    found = {
        p.relative_to(ROOT).as_posix()
        for p in modules()
        if p.name not in ("__init__.py", "__main__.py") and only_imports(body(p))
    }
    assert found == FACADES, f"modules whose body is only imports (import the module they take from): {found - FACADES}"


def test_the_check_above_bites():
    stub = "import sys\n\nfrom toyhw.course import evolve_tables as _module\n\nsys.modules[__name__] = _module\n"
    assert writes_sys_modules(ast.parse(stub))
    assert only_imports(ast.parse("from toyhw.course.evolve_tables import *\n").body)
    assert not only_imports(ast.parse("import sys\n\nX = 1\n").body)


@pytest.mark.parametrize("old, new", GONE.items())
def test_an_old_path_no_longer_imports(old, new):
    assert importlib.import_module(new).__name__ == new
    package, _, name = old.rpartition(".")
    assert old not in sys.modules
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(old)
    with pytest.raises(ImportError):  # `from toyhw.evolve import tables`
        exec(f"from {package} import {name}", {})
    assert not (PACKAGE.parent / (old.replace(".", "/") + ".py")).exists()


def test_the_layers_exempt_no_import():
    """The stubs were the contracts' only exemptions (an engine's folder importing the course); none is left."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    assert "ignore_imports" not in config
    assert [c["name"] for c in config["contracts"] if c.get("ignore_imports")] == []


OLD = re.compile(
    r"(?<![\w.])toyhw\.(?:evolve|kernels)\.(?:"
    + "|".join(sorted({o.rsplit(".", 1)[1] for o in GONE}, key=len, reverse=True))
    + r")(?!\w)"
)
FROM_OLD = re.compile(r"^\s*from toyhw\.(evolve|kernels) import \(?([\w ,]+)", re.M)


def old_imports(text: str) -> list[str]:
    found = [m.group(0) for m in OLD.finditer(text)]
    for m in FROM_OLD.finditer(text):
        names = [part.split(" as ")[0].strip() for part in m.group(2).split(",")]
        found += [f"toyhw.{m.group(1)}.{n}" for n in names if f"toyhw.{m.group(1)}.{n}" in GONE]
    return found


def test_nothing_imports_an_old_path():
    """The notebooks' code (both editions), the README's and docs' code, and every script use the one path."""
    found = []
    texts = [p for d in ("toyhw", "tests", "tools", "benchmarks", "website", "docs") for p in (ROOT / d).rglob("*.py")]
    texts += sorted(ROOT.glob("README*.md")) + sorted((ROOT / "docs").rglob("*.md"))
    texts += sorted((ROOT / "notebooks").rglob("*.py"))
    for path in texts:
        if path == pathlib.Path(__file__).resolve() or "__pycache__" in path.parts:
            continue
        found += [f"{path.relative_to(ROOT)}: {o}" for o in old_imports(path.read_text(encoding="utf-8"))]
    for path in sorted((ROOT / "notebooks").rglob("*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            found += [f"{path.relative_to(ROOT)} {cell.get('id')}: {o}" for o in old_imports("".join(cell["source"]))]
    assert not found, "old module paths still imported:\n" + "\n".join(found)
    assert old_imports("from toyhw.evolve import ablations, variants\nx = toyhw.kernels.tables.fast_frame") == [
        "toyhw.kernels.tables",
        "toyhw.evolve.ablations",
    ]


TOP_LEVEL_MOST = 10  # issue 35: the top of toyhw/ reads as the pack's parts, infrastructure grouped below it


def test_the_top_of_the_package_holds_at_most_ten_modules():
    """Lectures, course, widgets and the grouped infrastructure (data/, machine/) are folders; what stays at the top is
    what every layer shares and the lecture-14 driver's one import line."""
    top = sorted(p.stem for p in (ROOT / "toyhw").glob("*.py") if p.stem not in ("__init__", "__main__"))
    assert len(top) <= TOP_LEVEL_MOST, f"{len(top)} modules at the top of toyhw/: {top}"
