"""The message catalogues (toyhw.i18n): every id the code looks up is in every language's catalogue, no catalogue
entry is unused, the languages agree on placeholders, and choosing a language fails clearly on an unknown one."""

import ast
import json
import pathlib

import pytest

import toyhw
from toyhw import i18n

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


def test_an_unknown_language_names_the_value_and_the_languages(monkeypatch):
    with pytest.raises(ValueError, match=r"^language = 'fr' is not allowed; languages: en, zh$"):
        toyhw.set_language("fr")
    monkeypatch.setenv(i18n.ENV_VAR, "klingon")
    with pytest.raises(ValueError, match=r"^TOYHW_LANG = 'klingon' is not allowed; languages: en, zh$"):
        i18n.t("mode.scalar")


def test_a_missing_id_is_a_key_error_naming_it():
    with pytest.raises(KeyError, match="no.such.id"):
        i18n.t("no.such.id")
