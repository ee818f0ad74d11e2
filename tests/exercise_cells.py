"""The notebooks' classroom structure, read from their cells: what the app hides, the exercises, the solution files.

Shared by the tests of the three readers (tests/test_app_view.py), the exercises (tests/test_exercises.py), the names
the prose uses (tests/test_exercises.py). The app's hiding is read from `voila.json` itself, through nbconvert's own
TagRemovePreprocessor, so the tests see what Voila shows, not what they think it shows.
"""

from __future__ import annotations

import ast
import copy
import importlib.util
import json
import pathlib
import re
import types
from dataclasses import dataclass
from typing import Optional

import nbformat

ROOT = pathlib.Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
SOLUTIONS = NOTEBOOKS / "solutions"
VOILA_CONFIG = ROOT / "voila.json"

# A sentence that tells the reader to act on code: the app's room has no code to run, edit or type.
INSTRUCTION = re.compile(
    r"\b(re-?run\w*|run (the|this|that|its|each|every|your|these|all|a) (\w+ )?cells?\b|run it\b"
    r"|execute (the|this|that|it|each|every|your|all) (\w+ )?(cells?|code|notebook)\b"
    r"|edit (the|this|that|its|your) (\w+ )?(cells?|code|function)\b|change the code|type (it|this)\b"
    r"|the (cell|code) (below|above|after|before)|(next|previous|following) cell)",
    re.I,
)
# The same, as the zh edition would say it.
ZH_INSTRUCTION = re.compile(
    r"(重新运行|再运行一(遍|次)|运行(一下)?(这个|这段|下面的|上面的|该|每个|所有)?(单元格|代码)"
    r"|执行(这个|下面的|上面的)?(单元格|代码)|修改(这段|你的)?代码|(下面|上面)的单元格)"
)
EXERCISE_TITLE = re.compile(r"^### Exercise (\d+) · (.+)$", re.M)
SECTION = re.compile(r"^# %% Exercise (\d+)[ \t]*$", re.M)
CHECK_CALL = re.compile(r"^checks\.exercise_(\d+)\(.*\)$", re.S)


def notebook_paths() -> list[pathlib.Path]:
    """The eight notebooks of the English edition, in course order."""
    return sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))


def number(path: pathlib.Path) -> str:
    """The notebook's two-digit number, as its cell ids carry it ("02" for 02_feedback_loops.ipynb)."""
    return path.name[:2]


def read(path: pathlib.Path) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=4)


def tags(cell: dict) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))


def source(cell: dict) -> str:
    text = cell.get("source", "")
    return text if isinstance(text, str) else "".join(text)


def hidden_tags() -> frozenset[str]:
    """The cell tags Voila drops before it runs a notebook, as voila.json configures its TagRemovePreprocessor."""
    config = json.loads(VOILA_CONFIG.read_text())
    return frozenset(config["TagRemovePreprocessor"]["remove_cell_tags"])


def app_cells(nb: nbformat.NotebookNode) -> list[dict]:
    """The cells the app shows (and runs): nbconvert's TagRemovePreprocessor with voila.json's settings applied."""
    from nbconvert.preprocessors import TagRemovePreprocessor

    shown, _ = TagRemovePreprocessor(remove_cell_tags=set(hidden_tags())).preprocess(copy.deepcopy(nb), {})
    return list(shown.cells)


@dataclass(frozen=True)
class Exercise:
    """One exercise of a notebook: its markdown cell and, for a computable one, its stub and check cells."""

    notebook: pathlib.Path
    number: int
    title: str
    text: dict
    stub: Optional[dict]
    check: Optional[dict]

    @property
    def computable(self) -> bool:
        return self.check is not None


def exercises(path: pathlib.Path) -> list[Exercise]:
    """The exercises of the notebook at `path`, found by their cell ids (`nbNN-exK`, `-stub`, `-check`)."""
    nb = read(path)
    by_id = {cell.get("id"): cell for cell in nb.cells}
    found = []
    for cell in nb.cells:
        match = re.fullmatch(rf"nb{number(path)}-ex(\d+)", cell.get("id", ""))
        if not match:
            continue
        k = int(match.group(1))
        title = EXERCISE_TITLE.search(source(cell))
        found.append(
            Exercise(
                path,
                k,
                title.group(2) if title else "",
                cell,
                by_id.get(f"{cell.id}-stub"),
                by_id.get(f"{cell.id}-check"),
            )
        )
    return found


def solution_path(path: pathlib.Path) -> pathlib.Path:
    """The notebook's solution file: notebooks/solutions/<the notebook's stem>.py."""
    return SOLUTIONS / f"{path.stem}.py"


def solution_sections(path: pathlib.Path) -> dict[int, str]:
    """The solution file's sections, by exercise number: the code under each `# %% Exercise K` line."""
    text = solution_path(path).read_text()
    marks = list(SECTION.finditer(text))
    return {
        int(m.group(1)): text[m.end() : (marks[i + 1].start() if i + 1 < len(marks) else len(text))].strip("\n")
        for i, m in enumerate(marks)
    }


def load_solution(path: pathlib.Path) -> types.ModuleType:
    """Import the notebook's solution file as a module (every section runs in order; each is self-contained)."""
    file = solution_path(path)
    spec = importlib.util.spec_from_file_location(f"solutions_{number(path)}", file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def check_number(check: dict) -> Optional[int]:
    """The K of a check cell that is exactly one expression `checks.exercise_K(...)`, else None."""
    text = source(check).strip()
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return None
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Expr) or not isinstance(tree.body[0].value, ast.Call):
        return None
    match = CHECK_CALL.match(text)
    return int(match.group(1)) if match else None


def output_text(cell: dict) -> str:
    """The text a code cell's stored (or freshly run) outputs show: streams and text/plain results."""
    parts = []
    for output in cell.get("outputs", []):
        if output.get("output_type") == "stream":
            parts.append(source({"source": output.get("text", "")}))
        elif output.get("output_type") in ("execute_result", "display_data"):
            parts.append(source({"source": output.get("data", {}).get("text/plain", "")}))
        elif output.get("output_type") == "error":
            parts.append(f"{output.get('ename')}: {output.get('evalue')}")
    return "".join(parts)


CODE_SPAN = re.compile(r"(?<![`\\])`([^`\n]+)`(?!`)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)
DOTTED = re.compile(r"^([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(?:\(.*\))?$")
FILE_SUFFIX = re.compile(r"\.(py|ipynb|json|csv|md|txt|toml|ya?ml|cfg|png|sh)$")


def dotted_spans(path: pathlib.Path) -> dict[str, list[str]]:
    """The dotted names the prose's code spans use, each with the spans that use it: `a.b` or `a.b(...)` (a call's
    callee). Spans in fenced code listings, file names and bare names (`fast_p`, `advice_sweep()`) are not names a
    student is told to type after a dot, so they are left out."""
    found: dict[str, list[str]] = {}
    for cell in read(path).cells:
        if cell.cell_type != "markdown":
            continue
        for span in CODE_SPAN.findall(FENCE.sub("", source(cell))):
            match = DOTTED.match(span.strip())
            if match and not FILE_SUFFIX.search(match.group(1)):
                found.setdefault(match.group(1), []).append(span)
    return found


RESOLVER = '''
import builtins as _b, importlib as _i, json as _j
def _importable(path):  # a module path of the pack or the standard library (`toyhw.kernels.knobs`, `random.Random`):
    parts = path.split(".")  # the prose names the module; a student imports it
    named = parts[0] == "toyhw" or parts[0] in __import__("sys").stdlib_module_names
    for n in range(len(parts), 0, -1) if named else ():
        try:
            obj = _i.import_module(".".join(parts[:n]))
        except ImportError:
            continue
        return _attrs(obj, parts[n:])
    return False
def _attrs(obj, parts):
    for p in parts:
        if not hasattr(obj, p):
            return False
        obj = getattr(obj, p)
    return True
def _toyhw_resolve(paths):
    missing = {}
    for path in paths:
        root, *rest = path.split(".")
        if root in globals():
            obj = globals()[root]
        elif hasattr(_b, root):
            obj = getattr(_b, root)
        elif _importable(path):
            continue
        else:
            missing[path] = f"NameError: name {root!r} is not defined"
            continue
        for part in rest:
            if not hasattr(obj, part):
                missing[path] = f"AttributeError: {type(obj).__name__} has no attribute {part!r}"
                break
            obj = getattr(obj, part)
    return missing
print(_j.dumps(_toyhw_resolve(PATHS)))
'''
