"""The pack's website (`make site`): the notebooks as the site shows them, the editions and their language switch, and
the built pages read as HTML (tests/browser/test_website.py reads them in Chromium).
"""

from __future__ import annotations

import dataclasses
import json
import pathlib
import re
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "website"))

import editions  # noqa: E402
import notebook_view  # noqa: E402

ENGLISH = editions.EDITIONS[0]
NOTE = "Interactive panel."
WIDGET_REPR = re.compile(r"\b(?:VBox|HBox|Box|GridBox)\(children=")


def _notebook(*cells: dict) -> dict:
    return {"cells": list(cells), "metadata": {"widgets": {"state": {}}}, "nbformat": 4, "nbformat_minor": 5}


def _code(cell_id: str, source: str, outputs: list[dict], tags: tuple[str, ...] = ()) -> dict:
    return {
        "cell_type": "code",
        "id": cell_id,
        "metadata": {"tags": list(tags)},
        "source": source,
        "outputs": outputs,
        "execution_count": 1,
    }


def _markdown(cell_id: str, source: str, tags: tuple[str, ...] = ()) -> dict:
    return {"cell_type": "markdown", "id": cell_id, "metadata": {"tags": list(tags)}, "source": source}


def _result(data: dict) -> dict:
    return {"output_type": "execute_result", "data": data, "metadata": {}, "execution_count": 1}


IMAGES = ("image/png", "image/svg+xml")  # a matplotlib plot's PNG, a panel chart's SVG
PNG = _result({"image/png": "iVBORw0KGgo=", "text/plain": "<Figure size 640x480 with 1 Axes>"})
REPR = _result({"text/plain": "VBox(children=(IntSlider(value=0, description='task', max=199), Output()))"})
VIEW = _result(
    {
        "application/vnd.jupyter.widget-view+json": {"model_id": "abc", "version_major": 2},
        "text/plain": "HBox(children=(Dropdown(options=('a', 'b'), value='a'),))",
    }
)
CONFIG = _result({"text/plain": "KernelConfig(tile=16, fuse=0, vec=4, shared=0, unroll=2)"})


def test_widget_outputs_go_and_a_note_says_where_the_panel_was():
    notebook = _notebook(
        _code("c1", "fig = panel_figure()", [PNG], tags=("static-view",)),
        _code("c2", "# NBVAL_IGNORE_OUTPUT\npanels.panel()", [REPR]),
        _code("c3", "panels.live()", [VIEW]),
    )
    view = notebook_view.site_view(notebook, NOTE)
    kinds = [(cell["cell_type"], cell.get("id")) for cell in view["cells"]]
    assert kinds[:2] == [("code", "c1"), ("code", "c2")] and kinds[2][0] == "markdown" and kinds[3] == ("code", "c3")
    assert view["cells"][0]["outputs"] == [PNG]  # the static view stays
    assert view["cells"][1]["outputs"] == [] and view["cells"][3]["outputs"] == []
    assert NOTE in view["cells"][2]["source"] and NOTE in view["cells"][4]["source"] and len(view["cells"]) == 5
    assert view["cells"][1]["source"] == "panels.panel()"  # nbval's marker is CI's business, not the reader's
    assert "widgets" not in view["metadata"]
    assert len({cell["id"] for cell in view["cells"]}) == len(view["cells"])


def test_a_value_that_merely_looks_like_a_call_is_no_widget():
    view = notebook_view.site_view(_notebook(_code("c1", "config", [CONFIG])), NOTE)
    assert view["cells"][0]["outputs"] == [CONFIG] and len(view["cells"]) == 1


def test_app_only_cells_go_static_view_and_lab_only_cells_stay():
    notebook = _notebook(
        _markdown("m1", "Watch the curve move.", tags=("app-only",)),
        _markdown("m2", "**Exercise 1.** Write a proposer.", tags=("lab-only",)),
        _code("c1", "fig = figure()", [PNG], tags=("static-view",)),
    )
    view = notebook_view.site_view(notebook, NOTE)
    assert [cell["id"] for cell in view["cells"]] == ["m2", "c1"]


def test_every_cell_keeps_its_id_as_an_anchor_and_the_notebook_is_left_as_it_was():
    notebook = _notebook(
        _markdown("m1", "## Section 1"),
        _markdown("m2", "<details><summary>Answer</summary>\n"),
        _code("c1", "x = 1", []),
    )
    before = json.dumps(notebook, sort_keys=True)
    view = notebook_view.site_view(notebook, NOTE)
    assert view["cells"][0]["source"] == "(m1)=\n## Section 1"
    assert view["cells"][1]["source"].startswith('<span id="m2"></span>\n\n<details>')
    assert view["cells"][2]["metadata"]["toyhw_cell_id"] == "c1"
    assert json.dumps(notebook, sort_keys=True) == before


def test_the_site_drops_every_widget_repr_of_the_stored_notebooks_and_keeps_every_figure():
    def outputs(nb: dict) -> list[dict]:
        return [out for cell in nb["cells"] if cell["cell_type"] == "code" for out in cell["outputs"]]

    panels = 0
    for path in ENGLISH.notebook_files():
        notebook = json.loads(path.read_text(encoding="utf-8"))
        view = notebook_view.site_view(notebook, NOTE)
        reprs = [
            out for out in outputs(notebook) if WIDGET_REPR.match("".join(out.get("data", {}).get("text/plain", "")))
        ]
        assert [out for out in outputs(notebook) if out not in outputs(view)] == reprs, path.name
        assert not WIDGET_REPR.search(json.dumps(outputs(view))), path.name
        assert [o for o in outputs(view) if set(IMAGES) & set(o.get("data", {}))] == [
            o for o in outputs(notebook) if set(IMAGES) & set(o.get("data", {}))
        ], path.name
        panels += len(reprs)
    assert panels >= 5, "the notebooks' widget panels (01, 02, 03, 04, 06, 07) are found"


def test_glossary_section_ends_at_the_next_heading_or_the_cell():
    notebook = _notebook(
        _markdown(
            "m1",
            "## Summary\n\ntext\n\n## Glossary\n\n| term | meaning |\n|---|---|\n"
            "| round | one kernel |\n\n## After\n\nmore",
        )
    )
    assert (
        notebook_view.glossary_section(notebook, "Glossary") == "| term | meaning |\n|---|---|\n| round | one kernel |"
    )
    assert notebook_view.glossary_section(notebook, "Nothing") is None


def test_a_notebook_without_a_title_is_refused_by_name():
    with pytest.raises(ValueError, match="level-1 heading"):
        notebook_view.title(_notebook(_markdown("m1", "## Only a section")))


# --- Editions and the language switch -------------------------------------------------------------------------------


def test_one_edition_means_no_language_switch():
    assert editions.switch_links(ENGLISH, "notebooks/02_feedback_loops", [ENGLISH]) == []


def test_an_edition_without_notebooks_is_not_built(tmp_path: pathlib.Path):
    later = dataclasses.replace(ENGLISH, code="zh", notebooks=str(tmp_path / "absent"))
    assert editions.built((ENGLISH, later)) == [ENGLISH]


def test_the_switch_goes_to_the_same_page_of_the_other_edition_and_back():
    """The first edition sits at the root, the second in zh/; a page the other edition lacks goes to its home."""
    zh = dataclasses.replace(ENGLISH, code="zh", name="中文")
    built = [ENGLISH, zh]
    assert editions.switch_links(ENGLISH, "notebooks/02_feedback_loops", built) == [
        {"code": "en", "name": "English", "current": True, "href": "../notebooks/02_feedback_loops.html"},
        {"code": "zh", "name": "中文", "current": False, "href": "../zh/notebooks/02_feedback_loops.html"},
    ]
    back = editions.switch_links(zh, "index", built)
    assert [link["href"] for link in back] == ["../index.html", "../zh/index.html"]
    assert editions.switch_links(zh, "search", built)[0]["href"] == "../search.html"
    assert editions.switch_links(zh, "notebooks/99_only_in_zh", built)[0]["href"] == "../../index.html"


def test_every_edition_has_its_home_page_and_sources():
    for edition in editions.EDITIONS:
        assert edition.index_page.is_file(), f"edition {edition.code}: no home page {edition.index_page}"
        for path in (edition.guide, edition.references, edition.readme):
            assert (REPO / path).is_file() or not edition.notebook_files(), f"edition {edition.code}: no {path}"


def test_the_chinese_search_script_defines_the_stemmer_it_installs():
    """Sphinx 9.0 installs `ChineseStemmer`, which its script never defines; the pack's Chinese search installs the
    English stemmer it ships (tests/browser/test_website.py searches a Chinese term once the zh edition is built)."""
    import toyhw_site

    code = toyhw_site.chinese_search_for_sphinx_9_0().js_stemmer_code
    installed = re.search(r"window\.Stemmer = (\w+);\s*$", code).group(1)
    assert re.search(rf"\bvar {installed}\s*=", code), f"{installed} is installed but never defined"


# --- The built site, read as HTML ---------------------------------------------------------------------------------


def _html(path: pathlib.Path) -> str:
    return path.read_text(encoding="utf-8")


def test_every_notebook_has_a_page_with_its_figures_answers_and_download(built_site):
    for edition in built_site.editions:
        pages = built_site.folder(edition)
        for path in edition.notebook_files():
            notebook = json.loads(path.read_text(encoding="utf-8"))
            html = _html(pages / "notebooks" / f"{path.stem}.html")
            figures = sum(
                bool(set(IMAGES) & set(out.get("data", {})))
                for cell in notebook["cells"]
                if cell["cell_type"] == "code"
                for out in cell["outputs"]
            )
            answers = sum(
                "".join(cell["source"]).count("<details")
                for cell in notebook["cells"]
                if cell["cell_type"] == "markdown"
            )
            assert len(re.findall(r'<img [^>]*src="\.\./_images/', html)) == figures, path.name
            assert html.count("<details") == answers and "<details open" not in html, path.name
            assert not WIDGET_REPR.search(html), f"{path.name}: a widget repr on the page"
            download = re.search(r'<a class="btn btn-sm toyhw-download" href="([^"]+)" download', html)
            assert download, f"{path.name}: no download button"
            assert (pages / "notebooks" / download.group(1)).resolve().read_bytes() == path.read_bytes()


def test_the_home_page_has_the_course_map_and_the_timing_plan_from_the_readme_and_the_guide(built_site):
    edition = built_site.editions[0]
    html = _html(built_site.folder(edition) / "index.html")
    for path in edition.notebook_files():  # the README's course map, each notebook linked to its page
        assert re.search(
            rf'<a class="reference internal" href="notebooks/{path.stem}.html"><code[^>]*>'
            rf'<span class="pre">{path.name}</span>',
            html,
        ), path.name
    guide = (REPO / edition.guide).read_text(encoding="utf-8")
    plan = guide[guide.index("## 2. Timing plan") : guide.index("### When time is short")]
    rows = re.findall(r"^\| (\d+-\d+) \| (\d\d) \|", plan, flags=re.MULTILINE)
    assert len(rows) > 10
    for clock, notebook in rows:
        assert re.search(rf"<td><p>{clock}</p></td>\s*<td><p>{notebook}</p></td>", html), (clock, notebook)


def test_the_glossary_page_gathers_every_notebooks_glossary(built_site):
    for edition in built_site.editions:
        html = _html(built_site.folder(edition) / "glossary.html").replace("’", "'")  # Sphinx's smart quotes
        cells = {re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<td><p>(.*?)</p></td>", html)}
        for path in edition.notebook_files():
            section = notebook_view.glossary_section(
                json.loads(path.read_text(encoding="utf-8")), edition.glossary_heading
            )
            for term in re.findall(r"^\| ([^|]+?) \|", section, flags=re.MULTILINE)[1:]:  # the header row aside
                assert re.sub(r"[`*]", "", term) in cells, (path.name, term)


def test_the_guides_cell_references_link_to_the_cells(built_site):
    for edition in built_site.editions:
        html = _html(built_site.folder(edition) / "docs" / "lecturer_guide.html")
        unlinked = re.findall(
            r'(?<!">)<code class="docutils literal notranslate"><span class="pre">(nb\d\d-[0-9a-z][0-9a-z-]*)<', html
        )
        present = {path.name[:2] for path in edition.notebook_files()}  # an edition still being translated
        unlinked = [cell for cell in unlinked if cell[2:4] in present]  # links only the notebooks it has
        assert not unlinked, f"cells the guide names that have no anchor on the site: {sorted(set(unlinked))}"
        linked = re.findall(r'href="\.\./notebooks/(\d\d)_\w+\.html#nb(\d\d)-[0-9a-z][0-9a-z-]*"', html)
        assert linked and all(a == b for a, b in linked)


def test_no_page_loads_anything_from_another_host(built_site):
    """The pages' scripts, styles, fonts and images all come from the site (the browser test checks it live)."""
    outside = re.compile(r'<(?:script|link|img|iframe|source)\b[^>]*(?:src|href)="(?:https?:)?//', re.IGNORECASE)
    css_outside = re.compile(r"url\(\s*['\"]?(?:https?:)?//|@import\s+['\"]?(?:https?:)?//", re.IGNORECASE)
    for path in built_site.root.rglob("*"):
        if path.suffix == ".html":
            assert not outside.search(_html(path)), path
        elif path.suffix == ".css":
            assert not css_outside.search(path.read_text(encoding="utf-8", errors="replace")), path


def test_every_page_has_the_language_switch_exactly_when_two_editions_are_built(built_site):
    """With one edition there is nothing to switch to; with more, every page links to every other edition."""
    for edition in built_site.editions:
        others = [e for e in built_site.editions if e != edition]
        for name in built_site.pages(edition):
            path = built_site.folder(edition) / name
            html = _html(path)
            assert ('class="toyhw-languages"' in html) == bool(others), path
            for other in others:
                assert f'hreflang="{other.code}"' in html, (path, other.code)
