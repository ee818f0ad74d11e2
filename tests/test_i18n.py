"""The message catalogues (toyhw.i18n): every id the code looks up is in every language's catalogue, no catalogue
entry is unused, the languages agree on placeholders, and choosing a language fails clearly on an unknown one."""

import ast
import json
import pathlib
import re
import shutil

import pytest

import toyhw
from toyhw import cli, i18n

ROOT = pathlib.Path(__file__).resolve().parents[1]
LOOKUPS = {"t", "N_"}
"""The functions whose first argument is a message id: `t(id, ...)` looks it up, `N_(id)` marks it for a later `t`."""


def _callee(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name) and call.func.value.id == "i18n":
        return call.func.attr
    return None


def _imports_lookups(tree: ast.Module) -> bool:
    """Return True when the module imports t or N_ from toyhw.i18n, or imports toyhw.i18n itself."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "toyhw.i18n":
            return True
        if isinstance(node, ast.ImportFrom) and node.module == "toyhw" and any(a.name == "i18n" for a in node.names):
            return True
    return False


def _marked_tables(tree: ast.Module) -> set[str]:
    """Return the module-level dicts whose every value is an `N_("id")` call: tables of ids chosen at run time."""
    tables = set()
    for node in tree.body:
        target = (
            node.targets[0]
            if isinstance(node, ast.Assign) and len(node.targets) == 1
            else (node.target if isinstance(node, ast.AnnAssign) else None)
        )
        value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
        if (
            isinstance(target, ast.Name)
            and isinstance(value, ast.Dict)
            and value.values
            and all(isinstance(v, ast.Call) and _callee(v) == "N_" for v in value.values)
        ):
            tables.add(target.id)
    return tables


def _from_marked_table(arg: ast.expr, tables: set[str]) -> bool:
    return isinstance(arg, ast.Subscript) and isinstance(arg.value, ast.Name) and arg.value.id in tables


def used_ids() -> dict[str, list[str]]:
    """Return message id -> the places (file:line) that use it, from an AST scan of the package (toyhw.i18n aside).

    A lookup's id is a string literal, or an item of a module-level table of `N_` literals (`t(MODE_LABELS[mode])`);
    anything else fails here, so no id can hide from the scan."""
    used: dict[str, list[str]] = {}
    for path in sorted((ROOT / "toyhw").rglob("*.py")):
        if path.name == "i18n.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if not _imports_lookups(tree):
            continue
        tables = _marked_tables(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _callee(node) in LOOKUPS:
                where = f"{path.relative_to(ROOT)}:{node.lineno}"
                first = node.args[0] if node.args else None
                if _callee(node) == "t" and first is not None and _from_marked_table(first, tables):
                    continue
                assert isinstance(first, ast.Constant) and isinstance(first.value, str), (
                    f"{where}: a message id must be a string literal (mark run-time ids with N_)"
                )
                used.setdefault(first.value, []).append(where)
    return used


def test_the_scan_finds_the_lookups():
    used = used_ids()
    assert "fastp.feedback_head" in used and "mode.resample" in used and "failure.illegal_fusion" in used


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_every_id_the_code_uses_is_in_the_catalogue(language):
    missing = {mid: places for mid, places in used_ids().items() if mid not in i18n.catalogue(language)}
    assert not missing, f"ids missing from {language}.json: {missing}"


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_no_catalogue_entry_is_unused(language):
    unused = sorted(set(i18n.catalogue(language)) - set(used_ids()))
    assert not unused, f"{language}.json has entries no code uses: {unused}"


@pytest.mark.parametrize("language", i18n.LANGUAGES[1:])
def test_languages_have_the_same_ids_and_placeholders(language):
    english, other = i18n.catalogue("en"), i18n.catalogue(language)
    assert set(english) == set(other)
    differ = {
        mid: (sorted(i18n.placeholders(english[mid])), sorted(i18n.placeholders(other[mid])))
        for mid in english
        if i18n.placeholders(english[mid]) != i18n.placeholders(other[mid])
    }
    assert not differ, f"placeholders differ between en and {language}: {differ}"


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_no_entry_is_empty_and_every_template_formats(language):
    for mid, template in i18n.catalogue(language).items():
        assert template.strip(), f"{language}.json: {mid} is empty"
        template.format_map({name: 0.5 for name in i18n.placeholders(template)})  # a stray brace fails here


def test_catalogue_files_are_the_languages():
    files = sorted(p.stem for p in (ROOT / "toyhw" / "locale").glob("*.json"))
    assert files == sorted(i18n.LANGUAGES)
    for language in i18n.LANGUAGES:  # plain JSON objects of strings
        data = json.loads((ROOT / "toyhw" / "locale" / f"{language}.json").read_text(encoding="utf-8"))
        assert all(isinstance(k, str) and isinstance(v, str) for k, v in data.items())


def test_english_is_the_default_and_set_language_switches(monkeypatch):
    monkeypatch.delenv(i18n.ENV_VAR, raising=False)
    assert toyhw.language() == "en" and i18n.t("fastp.feedback_head") == "feedback"
    with i18n.using("zh"):
        assert i18n.t("fastp.feedback_head") == "反馈"
    assert toyhw.language() == "en"
    try:
        toyhw.set_language("zh")
        assert i18n.t("fastp.rounds_head", rounds=5) == "5 轮"
    finally:
        toyhw.set_language(None)
    assert toyhw.language() == "en"


def test_the_environment_variable_chooses_and_set_language_overrides_it(monkeypatch):
    monkeypatch.setenv(i18n.ENV_VAR, "zh")
    assert i18n.language() == "zh"
    with i18n.using("en"):
        assert i18n.t("mode.scalar") == "scalar"
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")  # the system's variable is not read
    monkeypatch.delenv(i18n.ENV_VAR)
    assert i18n.language() == "en"


ALLOWED = r"languages: en, zh \(any spelling of them, e\.g\. ZH, zh_CN, zh-Hans, en_US\.UTF-8\)"


def test_an_unknown_language_given_by_name_names_the_value_and_the_languages():
    with pytest.raises(ValueError, match=rf"^language = 'fr' is not allowed; {ALLOWED}$"):
        toyhw.set_language("fr")
    with pytest.raises(ValueError, match=r"^language = 'xxxxxxxx.*\.\.\. \(5,002 characters\) is not allowed"):
        toyhw.set_language("x" * 5000)
    assert toyhw.language() == "en"


@pytest.mark.parametrize(
    "value, language",
    [
        ("ZH", "zh"),
        ("zh_CN", "zh"),
        ("zh-Hans", "zh"),
        ("zh_CN.UTF-8", "zh"),
        ("zh_TW", "zh"),
        (" zh ", "zh"),
        ("Chinese", "zh"),
        ("zh_CN:en", "zh"),
        ("EN", "en"),
        ("en_US.UTF-8", "en"),
        ("en-GB", "en"),
        ("english", "en"),
    ],
)
def test_a_language_in_another_spelling_selects_it(value, language, monkeypatch, capsys):
    """TOYHW_LANG=ZH once made every check cell and panel raise: a locale name counts by its language part."""
    monkeypatch.setenv(i18n.ENV_VAR, value)
    assert i18n.language() == language
    assert i18n.t("fastp.feedback_head") == {"en": "feedback", "zh": "反馈"}[language]
    with i18n.using(value):
        assert i18n.language() == language
    assert capsys.readouterr().err == ""


@pytest.fixture
def fresh_warnings():
    """Forget which TOYHW_LANG values were already warned about (the warning is once per value)."""
    i18n._environment_language.cache_clear()
    yield
    i18n._environment_language.cache_clear()


@pytest.mark.parametrize("value", ["klingon", "C.UTF-8", "POSIX", "fr_FR", "１", "x" * 6000])
def test_an_unknown_environment_language_is_one_warning_and_english(value, monkeypatch, capsys, fresh_warnings):
    """Not a traceback per cell: the first lookup writes one line naming the value (cut) and the languages; every
    lookup after it, in any cell, shows English without a word."""
    monkeypatch.setenv(i18n.ENV_VAR, value)
    assert [i18n.t("mode.scalar") for _ in range(3)] == ["scalar"] * 3
    assert i18n.language() == "en"
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"toyhw: TOYHW_LANG = {repr(value)[:40]}")
    assert re.search(rf"is not allowed; {ALLOWED}; showing en$", err.strip())
    assert len(err) < 250
    with i18n.using("zh"):  # a language given by name still wins
        assert i18n.t("mode.scalar") != "scalar"


def test_a_study_table_and_a_panel_label_work_under_an_unknown_language(monkeypatch, capsys, fresh_warnings):
    from toyhw.kernels.labels import mode_label

    monkeypatch.setenv(i18n.ENV_VAR, "ZH")
    assert mode_label("scalar") == i18n.catalogue("zh")["mode.scalar"]
    monkeypatch.setenv(i18n.ENV_VAR, "Klingon")
    assert mode_label("scalar") == i18n.catalogue("en")["mode.scalar"]
    assert capsys.readouterr().err.count("\n") == 1


def test_a_missing_id_is_a_key_error_naming_it():
    with pytest.raises(KeyError, match="no.such.id"):
        i18n.t("no.such.id")


# ----- the catalogue files themselves: json.load keeps the last of a repeated id without a word


def _pairs_of(path: pathlib.Path) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=lambda items: pairs.extend(items) or {})
    return pairs


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_no_catalogue_repeats_an_id(language):
    ids = [key for key, _ in _pairs_of(ROOT / "toyhw" / "locale" / f"{language}.json")]
    repeated = sorted({key for key in ids if ids.count(key) > 1})
    assert not repeated, f"{language}.json gives these ids more than once (json.load keeps the last): {repeated}"


@pytest.mark.parametrize("language", i18n.LANGUAGES[1:])
def test_the_files_placeholders_are_the_english_ones(language):
    """Read from the files as they are (not through `catalogue`, which refuses a difference at once)."""
    english = dict(_pairs_of(ROOT / "toyhw" / "locale" / "en.json"))
    other = dict(_pairs_of(ROOT / "toyhw" / "locale" / f"{language}.json"))
    differ = sorted(
        mid for mid in english if mid in other and i18n.placeholders(english[mid]) != i18n.placeholders(other[mid])
    )
    assert not differ, f"{language}.json: placeholders not the English ones in {differ}"


@pytest.fixture
def locale_copy(tmp_path, monkeypatch):
    """A copy of the catalogues that toyhw.i18n reads instead of its own (the cache emptied before and after)."""
    copy = tmp_path / "locale"
    shutil.copytree(ROOT / "toyhw" / "locale", copy)
    monkeypatch.setattr(i18n, "_LOCALE", copy)
    i18n.catalogue.cache_clear()
    yield copy
    i18n.catalogue.cache_clear()


def _edit_json(path: pathlib.Path, change) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def _unclosed(data):
    data["fastp.rounds_head"] = "{rounds 轮"


def _renamed(data):
    data["fastp.rounds_head"] = "{round} 轮"


def _stray(data):
    data["fastp.feedback_head"] = "反馈}"


def _number(data):
    data["fastp.feedback_head"] = 3


def _dropped(data):
    del data["fastp.feedback_head"]


def _added(data):
    data["no.such.id"] = "多余"


BROKEN = {  # case -> (how the zh catalogue is broken, what the one line says after the file's name; EN: en.json's)
    "missing": (lambda p: p.unlink(), r": cannot read the message catalogue \(No such file or directory\)"),
    "not_json": (lambda p: p.write_text('{"a": "b",\n}', encoding="utf-8"), r", line 2: not JSON \(Expecting"),
    "not_utf8": (
        lambda p: p.write_bytes('{"fastp.feedback_head": "反馈"}'.encode("gbk")),
        r", line 1: byte 0x.. is not UTF-8",
    ),
    "a_list": (lambda p: p.write_text('["反馈"]', encoding="utf-8"), r": a catalogue is a JSON object .*not list"),
    "unclosed": (lambda p: _edit_json(p, _unclosed), r", line \d+: id 'fastp.rounds_head': expected '}' before end"),
    "stray_brace": (lambda p: _edit_json(p, _stray), r", line \d+: id 'fastp.feedback_head': Single '}'"),
    "not_text": (lambda p: _edit_json(p, _number), r", line \d+: id 'fastp.feedback_head': 3 is not a text"),
    "renamed": (
        lambda p: _edit_json(p, _renamed),
        r", line \d+: id 'fastp.rounds_head' has the placeholders \{round\}, EN has \{rounds\}",
    ),
    "dropped": (
        lambda p: _edit_json(p, _dropped),
        r": id 'fastp.feedback_head' is missing; EN has it",
    ),
    "added": (lambda p: _edit_json(p, _added), r", line \d+: id 'no.such.id' is not in EN"),
    "repeated": (
        lambda p: p.write_text(
            p.read_text(encoding="utf-8").replace("{\n", '{\n "mode.scalar": "x",\n', 1), encoding="utf-8"
        ),
        r", line \d+: id 'mode.scalar' appears twice; give each id once",
    ),
}


@pytest.mark.parametrize("case", list(BROKEN))
def test_a_broken_catalogue_is_one_line_naming_the_file_and_the_id(case, locale_copy):
    break_it, message = BROKEN[case]
    path = locale_copy / "zh.json"
    break_it(path)
    before = path.read_bytes() if path.exists() else None
    with pytest.raises(i18n.CatalogueError) as err:
        i18n.catalogue("zh")
    text = str(err.value)
    assert "\n" not in text and len(text) < 300, text
    message = message.replace("EN", re.escape(str(locale_copy / "en.json")))
    assert re.match(rf"^{re.escape(str(path))}{message}", text), text
    assert (path.read_bytes() if path.exists() else None) == before  # read, never repaired
    assert i18n.catalogue("en")["mode.scalar"] == "scalar"  # English is not held up by it


def test_a_broken_catalogue_through_the_cli_is_one_line_exit_2(locale_copy, capsys):
    (locale_copy / "zh.json").write_text("[]", encoding="utf-8")
    assert cli.main(["fastp", "--tasks", "3", "--rounds", "5", "--lang", "zh"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert captured.err.startswith(f"python -m toyhw fastp: error: {locale_copy / 'zh.json'}: a catalogue is")


def test_the_shipped_catalogues_name_themselves_by_their_path_in_the_package():
    assert i18n._file("zh") == "toyhw/locale/zh.json"


@pytest.mark.timeout(300)
def test_in_a_real_kernel_an_unknown_language_is_one_line_once_and_the_cells_run():
    """Through Jupyter's own kernel: `%env TOYHW_LANG=fr` warns under the first cell that shows text, and only there;
    `%env TOYHW_LANG=ZH` then switches to Chinese."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(source)
        for source in (
            "%env TOYHW_LANG=fr",
            "from toyhw.kernels.labels import mode_label\nprint(mode_label('scalar'))",
            "print(mode_label('explain'))",
            "%env TOYHW_LANG=ZH\nprint(mode_label('scalar'))",
        )
    ]
    NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}).execute()
    streams = [[(o["name"], o["text"]) for o in cell.outputs if o["output_type"] == "stream"] for cell in nb.cells]
    assert streams[1][0] == ("stdout", "scalar\n")
    assert [name for name, _ in streams[1]] == ["stdout", "stderr"] and streams[1][1][1].count("\n") == 1
    assert streams[1][1][1].startswith("toyhw: TOYHW_LANG = 'fr' is not allowed; languages: en, zh")
    assert streams[2] == [("stdout", "explain\n")]
    assert streams[3][-1][1].endswith("\n" + i18n.catalogue("zh")["mode.scalar"] + "\n")
    assert not any(o["output_type"] == "error" for cell in nb.cells for o in cell.outputs)
