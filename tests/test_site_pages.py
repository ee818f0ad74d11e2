"""What the website gives a reader without Python (`make site`, issue 39): no page tells them to run a cell, each
notebook page says the notebook needs the pack and has a print button and copy buttons, both home pages link the
course download, every page has the icon, and the zh search's word list holds the glossary's terms and the titles.

The built pages are read as HTML here; tests/browser/test_site_reader.py reads them in Chromium (the search over the
whole list, printing, a phone's width), tests/test_course_zip.py unpacks and sets up the download, and
tests/test_site_launch.py builds the site with launch links.
"""

from __future__ import annotations

import csv
import html
import json
import pathlib
import re
import sys

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "website"))

import editions  # noqa: E402
import notebook_view  # noqa: E402

# A sentence that tells the reader to run (or execute) a cell, in either edition.
RUN_A_CELL = re.compile(
    r"\b(?:re-?)?(?:run|execute)(?:s|d|ning)?\s+(?:the|this|that|these|those|each|every|all|a|its|your|next|"
    r"following)\s+(?:\w+\s+)?cells?\b|运行[^。；！？\n]{0,12}单元格|单元格[^。；！？\n]{0,8}运行|执行[^。；！？\n]{0,12}单元格",
    re.I,
)
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")


def _article_text(path: pathlib.Path) -> str:
    """The text of a page's article (what a reader reads), code blocks left out."""
    page = path.read_text(encoding="utf-8")
    found = re.search(r'<article class="bd-article">(.*?)</article>', page, re.S)
    body = re.sub(r"<(pre|script|style)\b.*?</\1>", " ", found.group(1) if found else "", flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


def _markdown(text: str) -> dict:
    return {"cell_type": "markdown", "id": "m1", "metadata": {}, "source": text}


def test_a_lab_sentence_gives_way_to_the_sites_and_an_empty_one_takes_its_cell_along():
    assert notebook_view.for_the_site("## Setup\n\n*Run the cell.*<!-- site: *The set-up.* --> It imports.") == (
        "## Setup\n\n*The set-up.* It imports."
    )
    assert notebook_view.for_the_site("start; *run the cell\nafter it.*<!-- site: *it is live.* -->") == (
        "start; *it is live.*"
    )
    notebook = {"cells": [_markdown("*Run the next cell.*<!-- site: -->")], "metadata": {}, "nbformat": 4}
    assert notebook_view.site_view(notebook, "note")["cells"] == []


def test_every_lab_sentence_that_tells_to_run_a_cell_carries_the_sites_in_both_editions():
    """The source of the site's sentence is the Lab's cell: a run instruction without one would reach the site."""
    bare = []
    for edition in editions.EDITIONS:
        for path in edition.notebook_files():
            for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
                if cell["cell_type"] == "markdown":
                    text = notebook_view.for_the_site("".join(cell["source"]))
                    text = re.sub(r"```.*?```", "", text, flags=re.S)  # listings are code, not sentences
                    bare += [(path.parent.name, path.name, cell["id"], m.group(0)) for m in RUN_A_CELL.finditer(text)]
    assert not bare, f"run instructions without the site's sentence (*...*<!-- site: ... -->): {bare}"


def test_no_site_page_tells_the_reader_to_run_a_cell(built_site):
    told = {}
    for edition in built_site.editions:
        for name in built_site.pages(edition):
            found = [m.group(0) for m in RUN_A_CELL.finditer(_article_text(built_site.folder(edition) / name))]
            if found:
                told[f"{edition.code}/{name}"] = found
    assert not told, f"site pages that tell a reader without a kernel to run a cell: {told}"


def test_every_notebook_page_says_it_needs_the_pack_and_can_be_printed_and_copied(built_site):
    for edition in built_site.editions:
        folder = built_site.folder(edition)
        for path in edition.notebook_files():
            page = (folder / "notebooks" / f"{path.stem}.html").read_text(encoding="utf-8")
            note = re.search(r'<a class="toyhw-pack-note" href="([^"]+)" download>([^<]+)</a>', page)
            assert note and note.group(2) == edition.pack_note, f"{edition.code} {path.name}: no note by the .ipynb"
            assert (folder / "notebooks" / note.group(1)).resolve() == folder / edition.course_zip, note.group(1)
            assert re.search(r'<button type="button" class="btn btn-sm toyhw-print" title="[^"]+">', page), path.name
            assert re.search(r'<script src="\.\./_static/clipboard\.min\.js', page), f"{path.name}: no copy buttons"
            assert re.search(r'<script src="\.\./_static/copybutton\.js', page), f"{path.name}: no copy buttons"
            assert re.search(r'<script src="\.\./_static/toyhw\.js', page), f"{path.name}: no print script"


def test_both_home_pages_link_their_course_download(built_site):
    for edition in built_site.editions:
        folder = built_site.folder(edition)
        home = (folder / "index.html").read_text(encoding="utf-8")
        assert f'<a class="toyhw-course-zip" href="{edition.course_zip}" download>' in home, edition.code
        assert (folder / edition.course_zip).is_file(), f"{edition.code}: {edition.course_zip} is not in the site"


def test_every_page_has_the_icon(built_site):
    for edition in built_site.editions:
        folder = built_site.folder(edition)
        for name in built_site.pages(edition):
            icon = re.search(r'<link rel="icon" href="([^"]+)"', (folder / name).read_text(encoding="utf-8"))
            assert icon, f"{edition.code}/{name}: no icon"
            assert ((folder / name).parent / icon.group(1)).resolve().is_file(), (
                f"{edition.code}/{name}: {icon.group(1)}"
            )


def test_the_zh_search_keeps_every_glossary_term_and_heading_whole(built_site):
    """jieba's user dictionary (tools/build_site.py) holds every run of Chinese of the glossary and of the headings
    (the index then holds them as words; tests/browser/test_site_reader.py searches them)."""
    import build_site

    for edition in (e for e in built_site.editions if e.language.startswith("zh")):
        words = set(build_site.search_words(edition, build_site.staged_files(edition)))
        with open(REPO / "docs" / "glossary.csv", encoding="utf-8", newline="") as table:
            terms = [row["chinese"] for row in csv.DictReader(table)]
        for term in terms:
            for run in re.findall(r"[\u3400-\u4dbf\u4e00-\u9fff]{2,}", term):
                assert run in words, (term, run)
        for path in edition.notebook_files():
            title = notebook_view.title(json.loads(path.read_text(encoding="utf-8")))
            assert all(run in words for run in re.findall(r"[\u3400-\u4dbf\u4e00-\u9fff]{2,}", title)), title
        assert _HAN.search("".join(words))
