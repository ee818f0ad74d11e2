"""One English <-> Chinese glossary (docs/glossary.csv) for the whole pack: no empty cell, one row per term, and every
notebook's Glossary section agrees with it (the same terms, the same Chinese), so the editions cannot drift apart.

Its `scripts_wording` column says whether the Chinese is the lecture scripts' own wording (the class's terms); where
the scripts have none, the Chinese is the standard rendering. Its `rejected` column lists the other wordings of the
concept (separated by ";") that the Chinese edition must not use: one term per concept, and one concept per term. The
Chinese texts (the zh notebooks' markdown, the zh guide, README.zh.md, the zh references and toyhw/locale/zh.json)
use every term of the glossary and none of the rejected wordings, except inside another term that contains it
(填充, padding's rejected wording, is part of 预填充 and of 填充和排空).
"""

import csv
import json
import pathlib
import re

import pytest

import notebook_text as nt

ROOT = pathlib.Path(__file__).resolve().parents[1]
GLOSSARY = ROOT / "docs" / "glossary.csv"
COLUMNS = ["term", "chinese", "scripts_wording", "definition", "rejected"]
SCRIPT_TERMS = (
    "分块",
    "融合",
    "向量化宽度",
    "共享内存",
    "循环展开",
    "重复采样（不用反馈）",
    "只有标量反馈",
    "执行反馈（解释错误）",
    "性能分析建议",
    "内核常识（定向修改）",
    "岛",
    "级联",
    "分支检查",
)
"""Terms of the lecture scripts the glossary must use as they are."""


def glossary() -> dict[str, dict[str, str]]:
    with open(GLOSSARY, encoding="utf-8", newline="") as file:
        reader = csv.DictReader(file)
        assert reader.fieldnames == COLUMNS
        rows = list(reader)
    terms = [r["term"] for r in rows]
    assert len(terms) == len(set(terms)), "a term is listed twice"
    return {r["term"]: r for r in rows}


def notebook_glossary(path: pathlib.Path) -> list[tuple[str, str]]:
    """Return (term, Chinese) of each row of the notebook's Glossary table."""
    text = nt.markdown(path)
    start = re.search(r"^## Glossary.*$", text, re.M)
    assert start, f"{path.name}: no '## Glossary' section"
    section = text[start.end() :]
    stop = re.search(r"^#{1,2} ", section, re.M)
    section = section[: stop.start()] if stop else section
    rows = [r for r in re.findall(r"^\|.*\|\s*$", section, re.M) if not re.match(r"^\|[-\s|:]+\|\s*$", r)]
    cells = [[c.strip() for c in r.strip().strip("|").split("|")] for r in rows]
    assert cells and cells[0] == ["term", "meaning", "Chinese"], f"{path.name}: glossary head {cells[:1]}"
    return [(c[0], c[-1]) for c in cells[1:]]


def test_no_cell_is_empty_and_the_scripts_terms_are_there():
    rows = glossary()
    for term, row in rows.items():
        assert all(row[c].strip() for c in COLUMNS if c != "rejected"), f"{term!r} has an empty cell"
        assert row["chinese"] not in ("—", "-"), f"{term!r} has no Chinese"
        assert row["scripts_wording"] in ("yes", "no")
    chinese = {row["chinese"] for row in rows.values()}
    assert set(SCRIPT_TERMS) <= chinese, sorted(set(SCRIPT_TERMS) - chinese)


@pytest.mark.parametrize("path", nt.notebook_paths(), ids=lambda p: p.name[:2])
def test_the_notebooks_glossary_agrees_with_the_packs(path):
    rows = glossary()
    entries = notebook_glossary(path)
    unknown = [term for term, _ in entries if term not in rows]
    assert not unknown, f"{path.name}: terms not in docs/glossary.csv: {unknown}"
    differ = [(term, zh, rows[term]["chinese"]) for term, zh in entries if zh != rows[term]["chinese"]]
    assert not differ, f"{path.name}: Chinese differs from docs/glossary.csv (term, notebook, glossary): {differ}"


def test_every_glossary_term_is_used_by_a_notebook():
    used = {term for path in nt.notebook_paths() for term, _ in notebook_glossary(path)}
    assert sorted(set(glossary()) - used) == []


# ----- one term per concept, in the Chinese texts

SYNONYMS = {frozenset({"expert", "expert heuristic"}), frozenset({"feedback", "feedback mode"})}
"""Rows that are one concept under two English names (the notebooks' glossaries name it either way)."""

_CODE = re.compile(r"```.*?```|`[^`\n]*`", re.S)


def rejected(row: dict[str, str]) -> list[str]:
    return [v.strip() for v in row["rejected"].split(";") if v.strip()]


def zh_texts() -> dict[str, str]:
    """The Chinese edition's texts by name, code spans and listings left out (code is the English code)."""
    texts = {}
    for path in sorted((ROOT / "notebooks" / "zh").glob("[0-9][0-9]_*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        texts[f"notebooks/zh/{path.name}"] = "\n\n".join(
            "".join(c["source"]) for c in cells if c["cell_type"] == "markdown"
        )
    for name in ("docs/zh/lecturer_guide.md", "docs/zh/references.md", "README.zh.md"):
        texts[name] = (ROOT / name).read_text(encoding="utf-8")
    catalogue = json.loads((ROOT / "toyhw" / "locale" / "zh.json").read_text(encoding="utf-8"))
    texts["toyhw/locale/zh.json"] = "\n".join(catalogue.values())
    return {name: _CODE.sub(" ", text) for name, text in texts.items()}


def rejected_uses(text: str, rows: dict[str, dict[str, str]]) -> list[tuple[str, str, str]]:
    """(term, rejected wording, context) for every rejected wording `text` uses outside a term that contains it."""
    terms = {row["chinese"] for row in rows.values()} | {row["chinese"].split("（")[0] for row in rows.values()}
    found = []
    for term, row in rows.items():
        for wording in rejected(row):
            hosts = [t for t in terms if wording in t and t != wording]
            for m in re.finditer(re.escape(wording), text):
                inside = any(
                    text[h.start() : h.end()]
                    for host in hosts
                    for h in re.finditer(re.escape(host), text)
                    if h.start() <= m.start() and m.end() <= h.end()
                )
                if not inside:
                    found.append((term, wording, text[max(0, m.start() - 20) : m.end() + 20].replace("\n", " ")))
    return found


def test_every_chinese_term_names_one_concept():
    seen: dict[str, list[str]] = {}
    for term, row in glossary().items():
        seen.setdefault(row["chinese"], []).append(term)
    shared = {zh: terms for zh, terms in seen.items() if len(terms) > 1 and frozenset(terms) not in SYNONYMS}
    assert not shared, f"one Chinese term for several concepts (give each its own, and reject the other): {shared}"


def test_a_rejected_wording_is_never_a_term():
    rows = glossary()
    terms = {row["chinese"] for row in rows.values()}
    clash = [(term, w) for term, row in rows.items() for w in rejected(row) if w in terms]
    assert not clash, f"rejected wordings that are another row's term: {clash}"


def test_the_chinese_texts_use_every_glossary_term():
    everything = "\n".join(zh_texts().values())
    missing = [(term, row["chinese"]) for term, row in glossary().items() if row["chinese"] not in everything]
    assert not missing, f"glossary terms no Chinese text uses: {missing}"


@pytest.mark.parametrize("name", sorted(zh_texts()), ids=lambda n: n.split("/")[-1])
def test_no_chinese_text_uses_a_rejected_wording(name):
    found = rejected_uses(zh_texts()[name], glossary())
    assert not found, f"{name}: rejected wordings (term, wording, where): {found}"


def test_a_rejected_wording_is_found_and_a_term_that_contains_it_is_not():
    rows = glossary()
    assert [w for _, w, _ in rejected_uses("M 和 N 要填充到整块。", rows)] == ["填充"]
    assert rejected_uses("预填充的形状；启动、填充和排空以及 split-K 的归约。", rows) == []
    assert sorted(w for _, w, _ in rejected_uses("提议函数和代价模型", rows)) == ["代价模型", "提议函数"]
