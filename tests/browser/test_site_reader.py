"""The website as a reader uses it, in Chromium with every request off the machine blocked (issue 39): the zh search
finds every glossary term of three or more Chinese characters that the zh notebooks use, and every zh notebook's
title, typed as written (no spaces), on every page that uses it; no excerpt starts with the theme's button labels;
the print button prints the answers unfolded; the copy buttons copy a cell's code; on a phone's 390 px the language
switch stays on one line.
"""

from __future__ import annotations

import csv
import html
import json
import pathlib
import re
import sys
import urllib.parse

import pytest

from widget_driver import OfflineGuard

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "website"))

import editions  # noqa: E402
import notebook_view  # noqa: E402

HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
# The hidden labels of the theme's buttons that excerpts used to start with, and the pack's own header's words.
HEADER_WORDS = ("System Settings", "亮色", "暗色", "Light", "Dark", ".ipynb", "English", "中文")
PHONE = {"width": 390, "height": 844}
_RESULTS = """(query) => {
  const [searchQuery, terms, excluded, highlight, objects] = Search._parseQuery(query);
  return Search._performSearch(searchQuery, terms, excluded, highlight, objects).map((hit) => hit[0]);
}"""


def zh_queries(edition) -> list[str]:
    """Every glossary term (docs/glossary.csv) of three or more Chinese characters that the edition's notebooks use,
    and every notebook's title: what a reader types into the search."""
    text = "".join(
        "".join(cell["source"])
        for path in edition.notebook_files()
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]
    )
    with open(REPO / "docs" / "glossary.csv", encoding="utf-8", newline="") as table:
        terms = [row["chinese"] for row in csv.DictReader(table)]
    used = sorted({term for term in terms if len(HAN.findall(term)) >= 3 and term in text})
    titles = [notebook_view.title(json.loads(p.read_text(encoding="utf-8"))) for p in edition.notebook_files()]
    return used + titles


def _page_texts(folder: pathlib.Path, names: list[str]) -> dict[str, str]:
    """Each page's article text (what the index holds of it), by Sphinx document name."""
    texts = {}
    for name in names:
        page = (folder / name).read_text(encoding="utf-8")
        found = re.search(r'<article class="bd-article">(.*?)</article>', page, re.S)
        if found:
            texts[name.removesuffix(".html")] = html.unescape(re.sub(r"<[^>]+>", "", found.group(1)))
    return texts


def _context(browser, **options):
    context = browser.new_context(**options)
    context.set_default_timeout(30_000)
    return context, OfflineGuard(context)


@pytest.mark.browser
def test_the_zh_search_finds_every_term_and_title_as_typed_on_every_page_that_uses_it(browser, built_site, site_server):
    zh = [e for e in built_site.editions if e.language.startswith("zh")]
    if not zh:
        pytest.skip("no Chinese edition built")
    edition = zh[0]
    queries = zh_queries(edition)
    assert len(queries) > 50, f"only {len(queries)} queries"
    texts = _page_texts(built_site.folder(edition), built_site.pages(edition))
    context, guard = _context(browser)
    try:
        page = context.new_page()
        page.goto(f"{site_server.url}/{editions.folder(edition, built_site.editions)}search.html", wait_until="load")
        page.wait_for_function("() => typeof Search !== 'undefined' && Search.hasIndex()")
        missed = {}
        for query in queries:
            found = set(page.evaluate(_RESULTS, query))
            using = {name for name, text in texts.items() if query in text}
            if not using <= found or not found:
                missed[query] = sorted(using - found) or "no result"
        assert not missed, f"{len(missed)} of {len(queries)} queries miss pages that use them: {missed}"
        print(f"\nzh search: {len(queries)} queries, every page that uses each found")
    finally:
        context.close()
    guard.assert_none("the zh search page")


@pytest.mark.browser
def test_excerpts_start_with_the_pages_text(browser, built_site, site_server, artifacts):
    # Words of a notebook's title: on that page the excerpt starts at the page's first words (no "..." before it),
    # where the header's labels stood before them.
    queries = {"en": "KernelBench", "zh": "反馈循环"}
    for edition in built_site.editions:
        context, guard = _context(browser)
        try:
            page = context.new_page()
            base = f"{site_server.url}/{editions.folder(edition, built_site.editions)}"
            page.goto(f"{base}search.html?q={urllib.parse.quote(queries[edition.code])}", wait_until="load")
            page.wait_for_function(  # the summary line counts the hits once every hit's excerpt is shown
                "() => /\\d/.test((document.querySelector('#search-results p.search-summary') || {}).textContent || '')",
                timeout=60_000,
            )
            page.screenshot(path=str(artifacts / f"site-{edition.code}-search-excerpts.png"))
            excerpts = page.locator("#search-results ul.search li p.context").all_inner_texts()
            title = page.locator("#search-results ul.search li a").first.inner_text().strip()
            assert excerpts[0].lstrip(".").strip().startswith(title), f"{edition.code}: {excerpts[0][:120]!r}"
            bad = [e[:80] for e in excerpts if e.lstrip(".").strip().startswith(HEADER_WORDS)]
            assert not bad, f"{edition.code}: excerpts that start with the header's words: {bad}"
        finally:
            context.close()
        guard.assert_none(f"{edition.code} search")


@pytest.mark.browser
def test_the_print_button_prints_with_every_answer_unfolded(browser, built_site, site_server):
    edition = built_site.editions[-1]
    context, guard = _context(browser)
    try:
        page = context.new_page()
        base = f"{site_server.url}/{editions.folder(edition, built_site.editions)}"
        page.goto(f"{base}notebooks/02_feedback_loops.html", wait_until="load")
        page.evaluate("""() => {
          window.toyhwPrinted = [];
          window.print = () => {  // what the browser's print would do: fire its events around the printing
            window.dispatchEvent(new Event('beforeprint'));
            window.toyhwPrinted.push(Array.from(document.querySelectorAll('details')).map((d) => d.open));
            window.dispatchEvent(new Event('afterprint'));
          };
        }""")
        closed = page.evaluate("Array.from(document.querySelectorAll('details')).filter((d) => !d.open).length")
        assert closed > 0
        page.locator(".toyhw-print").click()
        printed = page.evaluate("window.toyhwPrinted")
        assert len(printed) == 1 and printed[0] and all(printed[0]), "an answer is folded in print"
        assert page.evaluate("Array.from(document.querySelectorAll('details')).filter((d) => !d.open).length") == closed
        assert page.locator(".bd-header-article").evaluate("el => getComputedStyle(el).display") != "none"
        page.emulate_media(media="print")
        assert page.locator(".bd-header-article").evaluate("el => getComputedStyle(el).display") == "none"
    finally:
        context.close()
    guard.assert_none("a notebook page, printed")


@pytest.mark.browser
def test_a_copy_button_copies_a_cells_code(browser, built_site, site_server):
    edition = built_site.editions[0]
    context, guard = _context(browser, permissions=["clipboard-read", "clipboard-write"])
    try:
        page = context.new_page()
        base = f"{site_server.url}/{editions.folder(edition, built_site.editions)}"
        page.goto(f"{base}notebooks/02_feedback_loops.html", wait_until="load")
        cells = page.locator("div.cell_input div.highlight")
        assert page.locator("div.cell_input button.copybtn").count() == cells.count() > 0
        assert page.locator("div.cell_output button.copybtn").count() == 0, "a copy button on an output"
        cells.nth(1).hover()
        cells.nth(1).locator("button.copybtn").click()
        copied = page.evaluate("navigator.clipboard.readText()")
        assert copied.strip() == cells.nth(1).locator("pre").inner_text().strip()
    finally:
        context.close()
    guard.assert_none("a notebook page's copy button")


@pytest.mark.browser
def test_on_a_phone_the_language_switch_stays_on_one_line(browser, built_site, site_server, artifacts):
    for edition in built_site.editions:
        context, guard = _context(browser, viewport=PHONE)
        try:
            page = context.new_page()
            base = f"{site_server.url}/{editions.folder(edition, built_site.editions)}"
            for name in ("index.html", "notebooks/02_feedback_loops.html", "docs/lecturer_guide.html"):
                page.goto(base + name, wait_until="load")
                boxes = page.evaluate("""() => Array.from(document.querySelectorAll('.toyhw-language')).map((el) => {
                    const box = el.getBoundingClientRect();
                    return {top: box.top, height: box.height, right: box.right,
                            line: parseFloat(getComputedStyle(el).lineHeight)};
                })""")
                assert len(boxes) == len(built_site.editions), (edition.code, name)
                assert len({round(b["top"]) for b in boxes}) == 1, f"{edition.code}/{name}: the switch wraps"
                assert all(b["height"] < 1.6 * b["line"] + 8 for b in boxes), f"{edition.code}/{name}: {boxes}"
                assert all(b["right"] <= PHONE["width"] for b in boxes), f"{edition.code}/{name}: off the screen"
                page.screenshot(path=str(artifacts / f"site-{edition.code}-phone-{name.replace('/', '-')[:-5]}.png"))
        finally:
            context.close()
        guard.assert_none(f"{edition.code} on a phone")
