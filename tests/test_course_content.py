"""The notebooks read as a course: every Think! has an answer, every exercise a worked solution CI runs, every demo a
static view, every notebook a glossary.

Why tests: a prompt without an answer, or a solution that drifted from the code CI runs, is invisible in a diff of a
notebook's JSON; these checks make either one a failing test (Neuromatch answers every prompt, d2l runs every
exercise's code).
"""

from __future__ import annotations

import importlib
import inspect
import re

import pytest

import notebook_text as nt

SOLUTION_MODULES = ("toyhw.kernels.solutions", "toyhw.gemm.solutions", "toyhw.evolve.solutions")
MIN_ANSWER_WORDS = 15
PATHS = nt.notebook_paths()
IDS = [p.stem for p in PATHS]


def _solution_functions() -> dict[str, object]:
    found = {}
    for name in SOLUTION_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError:
            continue
        found.update({n: f for n, f in vars(module).items() if inspect.isfunction(f) and f.__module__ == name})
    return found


@pytest.mark.parametrize("path", PATHS, ids=IDS)
def test_every_think_has_an_answer(path):
    text = nt.markdown(path)
    numbers = [int(m.group(1)) for m in nt.THINK.finditer(text)]
    assert numbers, "no Think! prompt found: every notebook asks its student something (or the pattern broke)"
    assert numbers == list(range(1, len(numbers) + 1)), f"Think! prompts numbered {numbers}, expected 1, 2, 3, ..."
    for m in nt.THINK.finditer(text):
        block = nt.after(text, m.start(), re.compile(r"\*\*(Think!|Exercise)"))
        answers = [body for summary, body in nt.details(block) if summary.startswith("Answer")]
        assert answers, f"Think! {m.group(1)} has no <details><summary>Answer</summary> block before the next prompt"
        words = len(re.findall(r"\w+", answers[0]))
        assert words >= MIN_ANSWER_WORDS, f"Think! {m.group(1)}'s answer has {words} words: too short to teach"


@pytest.mark.parametrize("path", PATHS, ids=IDS)
def test_every_exercise_has_a_solution_that_ci_runs(path):
    from exercise_cells import exercises

    if exercises(path):
        pytest.skip("exercises in their own cells, with checks and a solution file: tests/test_exercises.py")
    text = nt.markdown(path)
    functions = _solution_functions()
    numbers = [int(m.group(1)) for m in nt.EXERCISE.finditer(text)]
    assert numbers, "no Exercise found: every notebook gives its student something to do (or the pattern broke)"
    assert numbers == list(range(1, len(numbers) + 1)), f"exercises numbered {numbers}, expected 1, 2, 3, ..."
    for m in nt.EXERCISE.finditer(text):
        block = nt.after(text, m.start(), re.compile(r"\*\*(Think!|Exercise)"))
        solutions = [body for summary, body in nt.details(block) if summary.startswith("Solution")]
        assert solutions, f"Exercise {m.group(1)} has no <details><summary>Solution</summary> block"
        code = nt.FENCE.findall(solutions[0])
        defined = [re.match(r"def (\w+)", c.strip()) for c in code]
        names = [d.group(1) for d in defined if d]
        assert names, f"Exercise {m.group(1)}'s solution shows no function (def ...) from {SOLUTION_MODULES}"
        for name, shown in zip(names, (c for c, d in zip(code, defined) if d)):
            assert name in functions, f"Exercise {m.group(1)}: {name} is not a function of {SOLUTION_MODULES}"
            assert inspect.getsource(functions[name]).strip() == shown.strip(), (
                f"Exercise {m.group(1)}: the code shown for {name} differs from the function CI runs"
            )


@pytest.mark.parametrize("path", PATHS, ids=IDS)
def test_exercise_sections_hold_only_labelled_exercises(path):
    """Exercises are **Exercise N.** items (so the test above sees them), never a bare numbered list."""
    for m in re.finditer(r"^## Exercises\s*$", nt.markdown(path), re.M):
        section = nt.after(nt.markdown(path), m.end(), re.compile(r"^## ", re.M))
        outside_details = re.sub(nt.DETAILS, "", section)
        bare = re.findall(r"^\d+\.\s.*$", outside_details, re.M)
        assert not bare, f"unlabelled exercises (write **Exercise N.**): {bare}"


@pytest.mark.parametrize("path", PATHS, ids=IDS)
def test_every_demo_has_a_static_view(path):
    """The code cell before each widget panel stores that panel's default figure, card or table as a normal output.

    It must call the same panel module (the panel and its static view share one drawing function), so the stored view
    is the demo at its defaults and not some other figure that happens to precede it.
    """
    code = [c for c in nt.cells(path) if c.kind == "code"]
    for before, cell in zip(code, code[1:]):
        panel = re.search(r"(\w+)\.\w+_panel\(", cell.source)
        if "NBVAL_IGNORE_OUTPUT" in cell.source and panel:
            assert f"{panel.group(1)}." in before.source, (
                f"cell {cell.index}: the code cell before the panel must draw its default view with the same panel "
                f"module ({panel.group(1)}.<name>_view(...) or similar), got {before.source[:80]!r}"
            )
            kinds = {k for o in before.outputs for k in o.get("data", {})}
            assert kinds & {"image/png", "image/svg+xml", "text/html"}, (
                f"cell {cell.index} is a widget panel but the code cell before it stores no figure or table "
                f"(a reader without a kernel sees nothing of the demo): {before.source[:80]!r}"
            )
            assert "NBVAL_IGNORE_OUTPUT" not in before.source, f"cell {before.index}: the static view must be compared"


@pytest.mark.parametrize("path", PATHS, ids=IDS)
def test_every_notebook_ends_with_a_glossary(path):
    text = nt.markdown(path)
    m = re.search(r"^## Glossary.*$", text, re.M)
    assert m, "no '## Glossary' section"
    rows = [r for r in re.findall(r"^\|.*\|\s*$", text[m.end() :], re.M) if not re.match(r"^\|[-\s|:]+\|\s*$", r)]
    assert len(rows) >= 5, f"the glossary has {len(rows) - 1} terms"
    header = [h.strip() for h in rows[0].strip("|").split("|")]
    assert len(header) == 3, f"glossary columns: term | meaning | the lecture script's term, got {header}"
