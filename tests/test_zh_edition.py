"""The Chinese edition stays in step with the English one (tools/zh_edition.py says how it is kept so).

Held here: every English notebook has its zh notebook with the same cells (ids, order, tags), the same code byte for
byte but the one language line, and a translation of every markdown cell that records the English version it
translates (a changed English cell is named stale); the zh text is Chinese, not English left over; every number a zh
cell states is a number its English cell states, and the other way round; the zh solution files are the English
ones' code with Chinese explanations.
"""

from __future__ import annotations

import ast
import pathlib
import re
import shutil
import sys

import nbformat
import pytest

from notebook_text import NUMBER

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import zh_edition  # noqa: E402

# Every English notebook: each has its zh notebook (a missing one fails the in-step test), held in step below.
ENGLISH = zh_edition.english_notebooks()
IDS = [p.stem for p in ENGLISH]

CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_NOT_PROSE = [
    re.compile(r"```.*?```", re.S),  # code listings
    re.compile(r"`[^`\n]*`"),  # code spans
    re.compile(r"\$\$.*?\$\$|\$[^$\n]+\$", re.S),  # formulas
    re.compile(r"\]\([^)]*\)"),  # link targets
    re.compile(r"<[^>]+>"),  # HTML tags
    re.compile(r"https?://\S+"),
    re.compile(r"\*[^*]+?\*|\"[^\"]+?\"|“[^”]+?”", re.S),  # titles as published, quoted phrases, emphasis
    re.compile(r"arXiv[: ]\S+|\b[0-9a-f]{7,40}\b"),  # citations: arXiv ids, commits
]
ENGLISH_RUN = re.compile(r"(?:\b[A-Za-z][A-Za-z'’-]+\b[\s,;:.()/&-]*){8,}")


def prose(text: str) -> str:
    """The text of a markdown cell a reader reads as sentences: code, formulas, links, titles and citations out."""
    for pattern in _NOT_PROSE[:-2]:
        text = pattern.sub(" ", text)
    text = text.replace("**", "")  # bold, so that what is left of `*` marks a title in italics
    text = re.sub(r"^(\s*)[*+-] ", r"\1", text, flags=re.M)  # list bullets, which are not italics either
    for pattern in _NOT_PROSE[-2:]:
        text = pattern.sub(" ", text)
    return text


def english_left(text: str) -> list[str]:
    """Runs of eight or more English words in the prose of a zh cell: a sentence left untranslated."""
    return [m.group(0).strip() for m in ENGLISH_RUN.finditer(prose(text))]


ZH_MONTH = re.compile(
    r"(\d{4}) 年 \d{1,2} 月"
)  # "June 2025" is "2025 年 6 月": the month's name is a number in Chinese


def numbers(text: str) -> list[str]:
    """The numbers a cell states, as written (1,000 and 0.94 and 19.0%), sorted: the same in both editions."""
    text = ZH_MONTH.sub(r"\1", text)
    return sorted(m.group(0).replace("−", "-").lstrip("+").rstrip(",") for m in NUMBER.finditer(text))


def pairs(path: pathlib.Path) -> list[tuple[dict, dict]]:
    en = nbformat.read(path, as_version=4)
    zh = nbformat.read(zh_edition.zh_path(path), as_version=4)
    return [(e, z) for e, z in zip(en.cells, zh.cells) if e.cell_type == "markdown"]


@pytest.mark.parametrize("path", ENGLISH, ids=IDS)
def test_the_zh_notebook_is_in_step_with_the_english(path: pathlib.Path):
    found = zh_edition.problems(path)
    assert not found, (
        "the zh edition is out of step (python tools/zh_edition.py status; export / import):\n" + "\n".join(found)
    )


@pytest.mark.parametrize("path", ENGLISH, ids=IDS)
def test_every_zh_markdown_cell_is_chinese(path: pathlib.Path):
    left = {e.id: english_left(z.source) for e, z in pairs(path)}
    left = {cell: runs for cell, runs in left.items() if runs}
    bare = [e.id for e, z in pairs(path) if not CJK.search(z.source) and len(prose(z.source).split()) > 3]
    assert not left and not bare, f"{path.name}: English prose in the zh edition: {left or bare}"


@pytest.mark.parametrize("path", ENGLISH, ids=IDS)
def test_every_zh_cell_states_the_numbers_of_its_english_cell(path: pathlib.Path):
    differ = {
        e.id: (numbers(e.source), numbers(z.source)) for e, z in pairs(path) if numbers(e.source) != numbers(z.source)
    }
    assert not differ, f"{path.name}: zh cells whose numbers are not their English cell's: " + "; ".join(
        f"{cell}: English {en} zh {zh}" for cell, (en, zh) in differ.items()
    )


def _code_only(text: str) -> str:
    """The solution file's code: comments and docstrings (its explanations, which each edition writes) left out."""
    tree = ast.parse(text)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(body, list)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(getattr(body[0], "value", None), ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree)


@pytest.mark.parametrize("path", ENGLISH, ids=IDS)
def test_the_zh_solution_file_is_the_english_code(path: pathlib.Path):
    english = ROOT / "notebooks" / "solutions" / f"{path.stem}.py"
    chinese = zh_edition.CHINESE / "solutions" / f"{path.stem}.py"
    if not english.exists():
        pytest.skip(f"{path.name} has no solution file")
    assert chinese.exists(), f"missing {chinese.relative_to(ROOT)}"
    assert _code_only(english.read_text()) == _code_only(chinese.read_text()), (
        f"{chinese.relative_to(ROOT)}: the code differs from the English solution file's"
    )
    assert CJK.search(chinese.read_text()), f"{chinese.relative_to(ROOT)} explains nothing in Chinese"
    sections = zh_edition_sections(chinese)
    assert sections == zh_edition_sections(english), f"{chinese.name}: not the English file's sections"


def zh_edition_sections(file: pathlib.Path) -> list[str]:
    return re.findall(r"^# %% Exercise \d+", file.read_text(), flags=re.M)


# ----- the checks catch what they are for


@pytest.fixture
def editions_copy(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> pathlib.Path:
    """A copy of notebooks/ (both editions) that zh_edition reads instead of the repository's."""
    copy = tmp_path / "notebooks"
    shutil.copytree(ROOT / "notebooks", copy, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "solutions"))
    monkeypatch.setattr(zh_edition, "ENGLISH", copy)
    monkeypatch.setattr(zh_edition, "CHINESE", copy / "zh")
    return copy


def test_a_changed_english_cell_is_named_stale(editions_copy: pathlib.Path):
    path = sorted(editions_copy.glob("02_*.ipynb"))[0]
    nb = nbformat.read(path, as_version=4)
    cell = next(c for c in nb.cells if c.cell_type == "markdown" and c.id != nb.cells[0].id)
    zh_edition.import_translations({cell.id: "译文。"})
    assert not any(cell.id in p for p in zh_edition.problems(path))
    cell.source += "\n\nOne more sentence."
    nbformat.write(nb, path)
    assert f"{path.name} {cell.id}: stale (the English cell changed since it was translated)" in zh_edition.problems(
        path
    )


def test_a_new_english_cell_is_named_untranslated(editions_copy: pathlib.Path):
    path = sorted(editions_copy.glob("02_*.ipynb"))[0]
    nb = nbformat.read(path, as_version=4)
    nb.cells.insert(1, nbformat.v4.new_markdown_cell("A new paragraph.", id="nb02-new"))
    nbformat.write(nb, path)
    assert zh_edition.problems(path)  # cells out of step until sync
    zh_edition.sync(path)
    assert "02_feedback_loops.ipynb nb02-new: not translated" in zh_edition.problems(path)


def test_a_changed_number_in_a_zh_cell_fails():
    english = "fast_1 = 0.94 at 10 rounds"
    assert numbers("10 轮时 fast_1 = 0.94") == numbers(english)
    assert numbers("10 轮时 fast_1 = 0.95") != numbers(english)


def test_english_prose_left_in_a_zh_cell_is_found():
    assert english_left("以下是结果。 The starting point is behind after ten rounds of the race here.")
    assert not english_left(
        "`study.feedback_table(TASK_SEED, N_TASKS, MODES)` 给出 *KernelBench: Can LLMs Write "
        "Efficient GPU Kernels?* 的表 1。"
    )


@pytest.mark.parametrize("path", ENGLISH, ids=IDS)
def test_the_zh_app_tells_no_one_to_run_code(path: pathlib.Path):
    """What the room sees of a zh notebook (the same tags as the English one hide the same cells) says nothing about
    running or editing code either."""
    from exercise_cells import ZH_INSTRUCTION, app_cells

    zh = nbformat.read(zh_edition.zh_path(path), as_version=4)
    found = [
        (c.get("id"), m.group(0))
        for c in app_cells(zh)
        if c.cell_type == "markdown"
        for m in ZH_INSTRUCTION.finditer(re.sub(r"```.*?```", "", c.source, flags=re.S))
    ]
    assert not found, f"zh/{path.name}: shown in the app, these tell the room to act on code: {found}"


GUIDE, ZH_GUIDE = ROOT / "docs" / "lecturer_guide.md", ROOT / "docs" / "zh" / "lecturer_guide.md"
REFERENCES, ZH_REFERENCES = ROOT / "docs" / "references.md", ROOT / "docs" / "zh" / "references.md"
CELL_ID = re.compile(r"\bnb\d\d-[\w-]+")


@pytest.mark.parametrize(
    "english, chinese",
    [(GUIDE, ZH_GUIDE), (REFERENCES, ZH_REFERENCES), (ROOT / "README.md", ROOT / "README.zh.md")],
    ids=["guide", "references", "readme"],
)
def test_the_zh_documents_exist_and_are_chinese(english: pathlib.Path, chinese: pathlib.Path):
    assert chinese.exists(), f"missing {chinese.relative_to(ROOT)}"
    text = chinese.read_text(encoding="utf-8")
    left = [
        run
        for para in text.split("\n\n")
        if not para.lstrip().startswith(("|", "```", "    "))
        for run in english_left(para)
    ]
    assert not left, f"{chinese.relative_to(ROOT)}: English prose left: {left[:3]}"


@pytest.mark.parametrize(
    "english, chinese", [(GUIDE, ZH_GUIDE), (REFERENCES, ZH_REFERENCES)], ids=["guide", "references"]
)
def test_the_zh_guide_and_references_state_the_english_numbers_and_cells(english: pathlib.Path, chinese: pathlib.Path):
    """The English guide's numbers are checked against the computation (tests/test_guide.py); the zh guide states the
    same numbers and points at the same cells (the zh notebooks keep the English cell ids)."""
    en, zh = english.read_text(encoding="utf-8"), chinese.read_text(encoding="utf-8")
    assert numbers(zh) == numbers(en), (
        f"{chinese.name}: numbers differ from the English: "
        f"only English {sorted(set(numbers(en)) - set(numbers(zh)))[:20]}, only zh {sorted(set(numbers(zh)) - set(numbers(en)))[:20]}"
    )
    assert sorted(CELL_ID.findall(zh)) == sorted(CELL_ID.findall(en)), f"{chinese.name}: not the English cells"


def _glossary_rows(path: pathlib.Path, heading: str) -> list[list[str]]:
    text = "\n".join(c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "markdown")
    start = re.search(rf"^## {heading}\s*$", text, re.M)
    assert start, f"{path.name}: no '## {heading}' section"
    section = text[start.end() :]
    stop = re.search(r"^#{1,2} ", section, re.M)
    section = section[: stop.start()] if stop else section
    rows = [r for r in re.findall(r"^\|.*\|\s*$", section, re.M) if not re.match(r"^\|[-\s|:]+\|\s*$", r)]
    return [[c.strip() for c in r.strip().strip("|").split("|")] for r in rows]


@pytest.mark.parametrize("path", ENGLISH, ids=IDS)
def test_the_zh_glossary_is_the_english_glossary_turned_round(path: pathlib.Path):
    """Each zh notebook ends with 术语表: the English glossary's terms, Chinese first (docs/glossary.csv's wording, which
    tests/test_glossary.py holds the English notebooks to), the English term beside it."""
    en = _glossary_rows(path, "Glossary")
    zh = _glossary_rows(zh_edition.zh_path(path), "术语表")
    assert zh and zh[0] == ["术语", "含义", "英文"], f"zh/{path.name}: glossary head {zh[:1]}"
    assert [(r[0], r[-1]) for r in zh[1:]] == [(r[-1], r[0]) for r in en[1:]], (
        f"zh/{path.name}: the glossary's (Chinese, English) rows are not the English glossary's (term, Chinese) rows"
    )
