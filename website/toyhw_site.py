"""Sphinx extension for the pack's website: notebooks as the site shows them, links between the pack's pages, the
language switch and the notebook download button.

- Every notebook is read through `notebook_view.site_view` (widget reprs and `app-only` cells out).
- A notebook's file name in inline code (`02_feedback_loops.ipynb`, as the README's course map writes them) becomes a
  link to that notebook's page, and a cell's id in inline code (`nb02-13`, as the guide names cells) a link to that
  cell on its notebook's page. Every cell is an anchor: markdown cells through the MyST target notebook_view adds,
  code cells here.
- Each page gets `toyhw_languages` (the language switch: empty with one edition) and, on a notebook's page,
  `toyhw_download` (the stored notebook, byte for byte as committed) with the word that it needs the pack (a link to
  the course download), `toyhw_launch` (the launch links into the class's hub and Binder, launch.py; none unless
  `make site` is given them) and the print button, for the header template `_templates/toyhw-header.html`.
- The staged files of tools/build_site.py: `_extra/` (the course download) goes to the edition's root, and the zh
  search loads `_parts/search-words.txt` into jieba (the glossary's terms and the headings' words: the index then
  holds them whole).
- The Chinese search splits a query typed without spaces into the words the index holds (search_zh.js); on Sphinx
  9.0 it also gets its English stemmer under the name its script looks for (below).
"""

from __future__ import annotations

import pathlib
import re

import sphinx
import sphinx.search
from docutils import nodes
from sphinx.application import Sphinx
from sphinx.search.zh import SearchChinese

import editions
import launch
import notebook_view

_HERE = pathlib.Path(__file__).parent
SEARCH_WORDS = "_parts/search-words.txt"
"""jieba's user dictionary for the Chinese search, staged by tools/build_site.py (one word a line)."""
EXTRA = "_extra"
"""The staged folder whose files land at the edition's root (the course download)."""

_NOTEBOOK_FILE = re.compile(r"(\d\d_\w+)\.ipynb")
_CELL_ID = re.compile(r"nb(\d\d)-[0-9a-z][0-9a-z-]*")  # nb02-13, nb07-01b, nb02-ex1, nb07-summary
_HTML_ID = re.compile(r'\bid="([^"]+)"')


def _edition(app: Sphinx) -> editions.Edition:
    return next(e for e in editions.EDITIONS if e.code == app.config.toyhw_edition)


def _site_view(app: Sphinx, docname: str, source: list[str]) -> None:
    if docname.startswith("notebooks/"):
        source[0] = notebook_view.site_view_text(source[0], _edition(app).widget_note)


def _cell_anchors(app: Sphinx, doctree: nodes.document) -> None:
    """Make every code cell of a notebook an anchor named by its id, and record the notebook's cell anchors."""
    docname = app.env.docname
    if not docname.startswith("notebooks/"):
        return
    for cell in doctree.findall(nodes.container):
        cell_id = cell.get("cell_metadata", {}).get("toyhw_cell_id") if cell.get("nb_element") == "cell_code" else None
        if cell_id and cell_id not in doctree.ids:
            cell["ids"].append(cell_id)
            doctree.ids[cell_id] = cell
    in_html = {found.group(1) for raw in doctree.findall(nodes.raw) for found in _HTML_ID.finditer(raw.astext())}
    _anchors(app.env)[docname] = {anchor for anchor in {*doctree.ids, *in_html} if _CELL_ID.fullmatch(anchor)}


def _anchors(env) -> dict[str, set[str]]:
    if not hasattr(env, "toyhw_cell_anchors"):
        env.toyhw_cell_anchors = {}
    return env.toyhw_cell_anchors


def _purge_anchors(app: Sphinx, env, docname: str) -> None:
    _anchors(env).pop(docname, None)


def _merge_anchors(app: Sphinx, env, docnames: set[str], other) -> None:
    _anchors(env).update({name: anchors for name, anchors in _anchors(other).items() if name in docnames})


def _link_target(app: Sphinx, text: str) -> tuple[str, str] | None:
    """Return (docname, anchor) that inline code `text` names: a notebook file or a notebook cell, else None."""
    found = _NOTEBOOK_FILE.fullmatch(text)
    if found:
        target = f"notebooks/{found.group(1)}"
        return (target, "") if target in app.env.all_docs else None
    found = _CELL_ID.fullmatch(text)
    if found:
        for name, anchors in _anchors(app.env).items():
            if name.startswith(f"notebooks/{found.group(1)}_") and text in anchors:
                return name, text
    return None


def _link_notebooks_and_cells(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Turn inline code naming a notebook or a notebook's cell into a link to its page or the cell."""
    for literal in list(doctree.findall(nodes.literal)):
        if isinstance(literal.parent, nodes.reference):
            continue
        target = _link_target(app, literal.astext())
        if target is None or target == (docname, ""):
            continue
        page, anchor = target
        uri = "" if page == docname else app.builder.get_relative_uri(docname, page)
        link = nodes.reference("", "", internal=True, refuri=f"{uri}#{anchor}" if anchor else uri)
        literal.replace_self(link)
        link.append(literal)


def _staged_files(app: Sphinx, config) -> None:
    """Point the search and the extra files at what tools/build_site.py staged beside the pages' sources."""
    source = pathlib.Path(app.srcdir)
    words = source / SEARCH_WORDS
    if config.language.startswith("zh") and words.is_file():
        config.html_search_options = {**config.html_search_options, "dict": str(words)}
    if (source / EXTRA).is_dir():
        config.html_extra_path = [*config.html_extra_path, str(source / EXTRA)]


def _page_context(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    edition = _edition(app)
    context["toyhw_languages"] = editions.switch_links(edition, pagename, editions.built())
    context["toyhw_download"] = None
    context["toyhw_launch"] = []
    context["toyhw_print"] = None
    if pagename.startswith("notebooks/") and app.env.doc2path(pagename).suffix == ".ipynb":
        context["toyhw_download"] = f"{context['pathto']('_sources', 1)}/{pagename}.ipynb"
        context["toyhw_pack_note"] = edition.pack_note
        context["toyhw_course_zip"] = context["pathto"](edition.course_zip, 1)
        context["toyhw_print"] = edition.print_label
        where = launch.target(app.config.toyhw_hub_url, app.config.toyhw_repo_url, app.config.toyhw_repo_branch)
        notebook = f"{edition.notebooks}/{pagename.rsplit('/', 1)[-1]}.ipynb"
        for kind, label, href in (
            ("hub", edition.hub_label, launch.hub_link(where, notebook)),
            ("binder", edition.binder_label, launch.binder_link(where, notebook)),
        ):
            if href:
                context["toyhw_launch"].append({"kind": kind, "label": label, "href": href})


def chinese_search_for_sphinx_9_0() -> type[SearchChinese]:
    """Return Sphinx 9.0's Chinese search with a language_data.js that defines the stemmer it installs.

    Sphinx 9.0 ships the English stemmer for Chinese (Latin words in Chinese text are stemmed as English) but ends
    language_data.js with `window.Stemmer = ChineseStemmer;`, a class nothing defines: every search on a Chinese page
    stops with a ReferenceError. Sphinx 9.1 names the class after the stemmer's file (sphinx-doc/sphinx pull 14416),
    but needs Python 3.12; this gives 9.0 the same script: the base and English stemmers, installed as EnglishStemmer.
    """
    scripts = sphinx.search._MINIFIED_JS_PATH
    code = "\n".join(
        (
            (scripts / "base-stemmer.js").read_text(encoding="utf-8"),
            (scripts / "english-stemmer.js").read_text(encoding="utf-8"),
            "window.Stemmer = EnglishStemmer;",
        )
    )
    return type("SearchChineseWithItsStemmer", (SearchChinese,), {"js_stemmer_rawcode": "", "js_stemmer_code": code})


def _inner_words(word: str) -> list[str]:
    """Return the dictionary words of four or more characters inside `word` (jieba's search cut gives those of two
    and three only): `进程启动开销` holds `启动开销`, which is then found on its page too."""
    import jieba

    return [
        word[start:end]
        for start in range(len(word))
        for end in range(start + 4, len(word) + (start > 0))
        if jieba.dt.FREQ.get(word[start:end], 0) > 0
    ]


def chinese_search() -> type[SearchChinese]:
    """Return the site's Chinese search: Sphinx's (with 9.0's stemmer fixed), whose index also holds the longer
    dictionary words inside a word, and the query splitter of search_zh.js, which cuts a run of Chinese characters
    that the index does not hold whole into words it holds."""
    base = chinese_search_for_sphinx_9_0() if sphinx.version_info[:2] < (9, 1) else SearchChinese

    class SearchChineseAsTyped(base):
        js_splitter_code = (_HERE / "search_zh.js").read_text(encoding="utf-8")

        def split(self, input: str) -> list[str]:
            words = super().split(input)
            return words + [inner for word in words if len(word) > 4 for inner in _inner_words(word)]

    return SearchChineseAsTyped


def setup(app: Sphinx) -> dict:
    sphinx.search.languages["zh"] = chinese_search()
    app.add_config_value("toyhw_edition", "", "env", types=[str])
    app.add_config_value("toyhw_code", "", "env", types=[str])
    for name in ("toyhw_hub_url", "toyhw_repo_url", "toyhw_repo_branch"):  # make site HUB_URL= REPO_URL= REPO_BRANCH=
        app.add_config_value(name, "", "html", types=[str])
    app.connect("config-inited", _staged_files)
    app.connect("source-read", _site_view)
    app.connect("doctree-read", _cell_anchors)
    app.connect("env-purge-doc", _purge_anchors)
    app.connect("env-merge-info", _merge_anchors)
    app.connect("doctree-resolved", _link_notebooks_and_cells)
    app.connect("html-page-context", _page_context)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
