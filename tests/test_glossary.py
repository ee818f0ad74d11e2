"""One English <-> Chinese glossary (docs/glossary.csv) for the whole pack: no empty cell, one row per term, and every
notebook's Glossary section agrees with it (the same terms, the same Chinese), so the editions cannot drift apart.

Its `scripts_wording` column says whether the Chinese is the lecture scripts' own wording (the class's terms); where
the scripts have none, the Chinese is the standard rendering.
"""

import csv
import pathlib
import re

import pytest

import notebook_text as nt

ROOT = pathlib.Path(__file__).resolve().parents[1]
GLOSSARY = ROOT / "docs" / "glossary.csv"
COLUMNS = ["term", "chinese", "scripts_wording", "definition"]
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
        assert all(row[c].strip() for c in COLUMNS), f"{term!r} has an empty cell"
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
