"""The Chinese edition stays in step with the English one (tools/zh_edition.py says how it is kept so).

Held here: every English notebook has its zh notebook with the same cells (ids, order, tags), the same code byte for
byte but the one language line (the exercises' stubs: the same code, their instructions in Chinese), and a
translation of every markdown cell that records the English version it translates (a changed English cell is named
stale); the zh text is Chinese, not English left over; every number a zh
cell states is a number its English cell states, and the other way round; the zh solution files are the English
ones' code with Chinese explanations.
"""

from __future__ import annotations

import ast
import json
import pathlib
import re
import shutil
import sys

import nbformat
import pytest

from number_tokens import numbers

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
    en, zh = (
        without_reading_load(english.read_text(encoding="utf-8")),
        without_reading_load(chinese.read_text(encoding="utf-8")),
    )
    assert numbers(zh) == numbers(en), (
        f"{chinese.name}: numbers differ from the English: "
        f"only English {sorted(set(numbers(en)) - set(numbers(zh)))[:20]}, only zh {sorted(set(numbers(zh)) - set(numbers(en)))[:20]}"
    )
    assert sorted(CELL_ID.findall(zh)) == sorted(CELL_ID.findall(en)), f"{chinese.name}: not the English cells"


PLAN_ROW = re.compile(r"^(\| \d+-\d+ \| \d\d \| .* \| \d+) \| \d+ \| \d+ \|$", re.M)
READING_LOAD = re.compile(
    r"about \d+ words a minute|\(the heaviest, \d+\)|每分钟大约读 \d+ 个汉字|（最重的一段是 \d+）"
)


def without_reading_load(text: str) -> str:
    """A guide without its reading load: the English counts words, the zh guide 汉字 (tests/test_guide.py checks
    each against its own edition's notebooks), so the plan rows' last two cells and the limit sentence differ."""
    return READING_LOAD.sub("", PLAN_ROW.sub(r"\1 |", text))


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


# ----- Chinese as it renders: no stray spaces, no English words left in the prose

HAN_OR_PUNCT = r"[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]"
CJK_BREAK = re.compile(rf"{HAN_OR_PUNCT}[*_`]*\n[ \t]*[*_`]*{HAN_OR_PUNCT}")
"""A line break between two Chinese characters (emphasis marks aside): Markdown renders it as a space inside a
sentence ("运行的 反馈记录"), so a Chinese paragraph is one line."""
ZH_DOCS = [
    ROOT / "README.zh.md",
    *sorted((ROOT / "docs" / "zh").glob("*.md")),
    *sorted((ROOT / "website" / "zh").glob("*.md")),
]


def zh_markdown() -> dict[str, str]:
    """Every zh markdown text by name: each zh notebook's markdown cell, and each zh document."""
    texts = {}
    for path in ENGLISH:
        for cell in nbformat.read(zh_edition.zh_path(path), as_version=4).cells:
            if cell.cell_type == "markdown":
                texts[f"zh/{path.name} {cell.id}"] = cell.source
    for path in ZH_DOCS:
        texts[str(path.relative_to(ROOT))] = path.read_text(encoding="utf-8")
    return texts


def cjk_breaks(text: str) -> list[str]:
    """The line breaks of markdown `text` that fall between two Chinese characters (fenced listings left out)."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    return [m.group(0).replace("\n", "⏎") for m in CJK_BREAK.finditer(text)]


def test_no_line_break_between_chinese_characters():
    found = {name: breaks[:3] for name, text in zh_markdown().items() if (breaks := cjk_breaks(text))}
    assert not found, f"line breaks inside Chinese sentences (they render as spaces): {found}"


BARE_ENGLISH = re.compile(r"\b([Nn]otebooks?|[Mm]ock)\b")
"""English words a zh text says in Chinese: 笔记本, 模拟 LLM (code spans, links and titles aside)."""


def test_zh_prose_says_notebook_and_mock_in_chinese():
    found = {
        name: [m.group(0) for m in BARE_ENGLISH.finditer(prose(text))]
        for name, text in zh_markdown().items()
        if BARE_ENGLISH.search(prose(text))
    }
    assert not found, f"English left in zh prose (笔记本, 模拟 LLM): {found}"


def test_the_prose_checks_find_a_break_and_a_bare_word():
    assert cjk_breaks("运行的\n反馈记录") and cjk_breaks("**粗体**\n的术语") and not cjk_breaks("- 一项\n- 二项")
    assert not cjk_breaks("```\n# 注释\n# 注释\n```") and not cjk_breaks("第 1 节\nfast_p 的")
    assert BARE_ENGLISH.search(prose("见 notebook 04 的 mock LLM")) and not BARE_ENGLISH.search(
        prose("见 `notebooks/zh`")
    )


# ----- results a zh student reads are Chinese

ENGLISH_RESULTS = re.compile(
    r"\[cause: |瓶颈：(memory|compute)|[:：] ?\(True, \(\)\)|\bcannot launch\b|\{'ok': |"
    r"^(区间|计时方式) +(prefill|mid|per_call|back_to_back|graph|trace) |\b(waves|stream_k)\)?$|"
    r"^(borrow|retune|specialize|generalize) +\d|^\d+ +(compile_error|wrong|ok) ",
    re.M,
)
"""English labels once left in zh results: the task card's status and cause, the bottleneck, a raw static-check tuple,
the branch problem's wording, a raw status dict, regime and timing names, schedule names, edit kinds, run statuses."""


def _stored_results(nb: nbformat.NotebookNode) -> list[tuple[str, str]]:
    """(cell id, text) of each stored output a reader reads as a result: source listings left out."""
    found = []
    for cell in nb.cells:
        if cell.cell_type != "code" or "getsource" in cell.source:
            continue
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            text = output.get("text") or data.get("text/plain", "") + data.get("text/html", "")
            found.append((cell.id, text if isinstance(text, str) else "".join(text)))
    return found


@pytest.mark.parametrize("path", ENGLISH, ids=IDS)
def test_the_zh_results_carry_no_english_labels(path: pathlib.Path):
    nb = nbformat.read(zh_edition.zh_path(path), as_version=4)
    found = [(cell, m.group(0)) for cell, text in _stored_results(nb) for m in ENGLISH_RESULTS.finditer(text)]
    assert not found, f"zh/{path.name}: English labels in stored results: {found[:6]}"


# ----- the tools refuse bad input in one line, exit 2, and write nothing (on a copy: never the real notebooks)


def _snapshot(folder: pathlib.Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _refused(capsys, argv: list[str], message: str) -> str:
    code = zh_edition.main(argv)
    captured = capsys.readouterr()
    assert code == 2 and captured.out == "", captured
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err, captured.err
    assert captured.err.startswith(f"zh_edition.py {argv[0]}: error: "), captured.err
    assert message in captured.err, captured.err
    return captured.err


NUMBERS = {
    "99": "number = '99' names no notebook; give one of 01, 02, 03, 04, 05, 06, 07, 08",
    "2": "number = '2' names no notebook (did you mean 02?); give one of 01",
    "9": "number = '9' names no notebook; give one of",
    "": "number = '' names no notebook; give one of",
    "0": "number = '0' names no notebook; give one of",
    "02x": "number = '02x' names no notebook",
    "٠٢": "number = '٠٢' names no notebook",
    "0" * 500: "number = '00000000",
}


@pytest.mark.parametrize("command", ["status", "sync", "export"])
@pytest.mark.parametrize("number", list(NUMBERS))
def test_a_number_that_names_no_notebook_is_refused(command, number, editions_copy, capsys):
    before = _snapshot(editions_copy)
    err = _refused(capsys, [command, number], NUMBERS[number])
    assert len(err) < 200 and _snapshot(editions_copy) == before


def test_a_good_number_still_chooses_its_notebook(editions_copy, capsys):
    assert zh_edition.main(["status", "02", "03"]) == 0
    capsys.readouterr()
    assert zh_edition.main(["export", "02", "--all"]) == 0
    exported = json.loads(capsys.readouterr().out)
    assert exported and all(cell_id.startswith("nb02-") for cell_id in exported)


def _gbk(path: pathlib.Path) -> None:
    path.write_bytes('{"nb01-00": "中文"}'.encode("gbk"))


BAD_FILES = {  # name -> (how the file is made, what the one line says)
    "missing": (lambda p: None, "cannot read {path} (No such file or directory)"),
    "folder": (lambda p: p.mkdir(), "cannot read {path} (Is a directory)"),
    "empty": (lambda p: p.write_text(""), "{path} is empty; give a JSON object of cell id -> zh markdown"),
    "blank": (lambda p: p.write_text(" \n"), "{path} is empty"),
    "broken": (lambda p: p.write_text('{"nb01-00": "x",\n'), "{path}, line 2: not JSON"),
    "gbk": (_gbk, "{path}, line 1: byte 0xd6 is not UTF-8; save the file as UTF-8 (not GBK)"),
    "list": (lambda p: p.write_text('["nb01-00"]'), "{path} holds a list; give a JSON object"),
    "empty_object": (lambda p: p.write_text("{}"), "{path} holds an empty object"),
    "number": (lambda p: p.write_text('{"nb01-00": 3}'), "the translation of 'nb01-00' is 3; give its zh markdown"),
    "blank_text": (lambda p: p.write_text('{"nb01-00": "  "}'), "the translation of 'nb01-00' is '  '"),
    "exported": (
        lambda p: p.write_text('{"nb01-00": {"en": "a", "zh": "b"}}'),
        "the translation of 'nb01-00' is {{'en': 'a', 'zh': 'b'}}",
    ),
    "repeated": (lambda p: p.write_text('{"nb01-00": "甲", "nb01-00": "乙"}'), "cell id 'nb01-00' appears twice"),
    "no_notebook": (lambda p: p.write_text('{"nb99-00": "甲"}'), "cell id 'nb99-00' names no notebook"),
    "not_an_id": (lambda p: p.write_text('{"x": "甲"}'), "cell id 'x' names no notebook (ids look like nb02-05)"),
    "unknown_cell": (lambda p: p.write_text('{"nb01-zz": "甲"}'), "01_one_shot_kernels.ipynb has no cell 'nb01-zz'"),
    "code_cell": (lambda p: p.write_text('{"nb01-02": "甲"}'), "'nb01-02' is a code cell; only markdown is translated"),
    "good_then_bad": (
        lambda p: p.write_text('{"nb01-00": "甲", "nb02-zz": "乙"}'),
        "02_feedback_loops.ipynb has no cell 'nb02-zz'",
    ),
}


@pytest.mark.parametrize("name", list(BAD_FILES))
def test_a_bad_import_file_is_one_line_and_writes_nothing(name, editions_copy, tmp_path, capsys):
    """Not a traceback; and a bad id for notebook 02 no longer leaves notebook 01 rewritten."""
    make, message = BAD_FILES[name]
    path = tmp_path / "translations.json"
    make(path)
    before = _snapshot(editions_copy)
    _refused(capsys, ["import", str(path)], message.format(path=path))
    assert _snapshot(editions_copy) == before


def test_a_good_import_writes_its_translation_and_names_the_count(editions_copy, tmp_path, capsys):
    path = tmp_path / "translations.json"
    path.write_text(json.dumps({"nb01-00": "新的译文。", "nb02-00": "另一段。"}, ensure_ascii=False), encoding="utf-8")
    assert zh_edition.main(["import", str(path)]) == 0
    assert capsys.readouterr().out == "wrote 2 translations\n"
    zh = nbformat.read(editions_copy / "zh" / "01_one_shot_kernels.ipynb", as_version=4)
    assert next(c for c in zh.cells if c.id == "nb01-00").source == "新的译文。"


def test_an_unknown_command_is_named_in_one_line(capsys):
    with pytest.raises(SystemExit) as exit_:
        zh_edition.main(["frob"])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and err.count("\n") == 1 and "invalid choice: 'frob'" in err


# tools/notebooks.py: its --help is help, an unknown command is named, a bad path runs nothing
sys.path.insert(0, str(ROOT / "tools"))
import notebooks as notebook_tools  # noqa: E402


def test_the_notebook_tools_help_exits_0_and_lists_its_commands(capsys):
    with pytest.raises(SystemExit) as exit_:
        notebook_tools.main(["--help"])
    assert exit_.value.code == 0 and "{execute,check}" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["frob", "x.ipynb"], "notebooks.py: error: argument command: invalid choice: 'frob'"),
        ([], "notebooks.py: error: the following arguments are required: command"),
        (["execute"], "notebooks.py execute: error: the following arguments are required: paths"),
    ],
)
def test_the_notebook_tools_usage_errors_are_one_line_exit_2(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        notebook_tools.main(argv)
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and err.count("\n") == 1 and err.startswith(message), err


def test_a_bad_path_anywhere_stops_the_notebook_tool_before_it_runs_any(tmp_path, capsys, monkeypatch):
    good = tmp_path / "good.ipynb"
    nbformat.write(nbformat.v4.new_notebook(), good)
    (tmp_path / "list.ipynb").write_text("[]")
    ran = []
    monkeypatch.setattr(notebook_tools, "execute", lambda path: ran.append(path) or 0.0)
    for bad, message in (("missing.ipynb", "(No such file or directory)"), ("list.ipynb", "is not a notebook")):
        assert notebook_tools.main(["execute", str(good), str(tmp_path / bad)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("notebooks.py execute: error: ") and message in err
    assert ran == [] and notebook_tools.main(["execute", str(good)]) == 0 and ran == [good]


# ----- the exercises' starting cells: Chinese instructions on the English code


def _instructions(source: str) -> list[str]:
    """The comments and docstrings of a cell's source: what a stub says to the student."""
    import io
    import tokenize

    found = [
        tok.string for tok in tokenize.generate_tokens(io.StringIO(source).readline) if tok.type == tokenize.COMMENT
    ]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Module)):
            docstring = ast.get_docstring(node)
            if docstring:
                found.append(docstring)
    return found


@pytest.mark.parametrize("path", ENGLISH, ids=IDS)
def test_every_zh_stub_says_its_instructions_in_chinese_on_the_english_code(path: pathlib.Path):
    english = {c.id: c.source for c in nbformat.read(path, as_version=4).cells if c.get("id", "").endswith("-stub")}
    chinese = {
        c.id: c.source
        for c in nbformat.read(zh_edition.zh_path(path), as_version=4).cells
        if c.get("id", "").endswith("-stub")
    }
    assert english and set(chinese) == set(english), path.name
    for cell_id, source in english.items():
        zh = chinese[cell_id]
        assert zh_edition.same_code(zh, source), f"zh/{path.name} {cell_id}: not the English stub's code"
        said = _instructions(zh)
        assert said, f"zh/{path.name} {cell_id}: the stub says nothing to the student"
        english_said = [text for text in said if not CJK.search(text)]
        assert not english_said, f"zh/{path.name} {cell_id}: instructions left in English: {english_said}"


def test_a_zh_stub_may_change_its_comments_but_not_its_code(editions_copy: pathlib.Path):
    path = sorted(editions_copy.glob("02_*.ipynb"))[0]
    target = zh_edition.zh_path(path)
    nb = nbformat.read(target, as_version=4)
    stub = next(c for c in nb.cells if c.get("id") == "nb02-ex3-stub")
    stub.source = stub.source.replace("vec = 1", "vec = 1，其余照旧")
    nbformat.write(nb, target)
    assert not zh_edition.problems(path)
    zh_edition.sync(path)
    assert "其余照旧" in next(c for c in nbformat.read(target, as_version=4).cells if c.id == "nb02-ex3-stub").source
    stub.source = stub.source.replace("raise NotImplementedError", "return config")
    nbformat.write(nb, target)
    assert "02_feedback_loops.ipynb nb02-ex3-stub: code differs from the English cell (sync copies it)" in (
        zh_edition.problems(path)
    )
    zh_edition.sync(path)
    assert not zh_edition.problems(path)
    synced = next(c for c in nbformat.read(target, as_version=4).cells if c.id == "nb02-ex3-stub").source
    assert synced == next(c for c in nbformat.read(path, as_version=4).cells if c.id == "nb02-ex3-stub").source
