"""The pack's website (`make site`) read as a reader would, in Chromium, with nothing but the site itself reachable.

Every page of every edition is opened with every request to a non-loopback address blocked; a page fails on any such
request, any console error or failed request, any image that does not load, any internal link (page or anchor) that
does not resolve, any collapsed answer that is open before a click or does not open on one, a widget repr, or text
that is not in its edition's language. The search finds a term of each edition and its first hit opens.
Screenshots land in test-artifacts/site-<edition>-<page>.png.
"""

from __future__ import annotations

import functools
import pathlib
import re
import sys
import urllib.parse

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "website"))

import editions  # noqa: E402
import notebook_view  # noqa: E402
from widget_driver import OfflineGuard, is_local  # noqa: E402

VIEWPORT = {"width": 1400, "height": 1000}

# One term per edition that its search must find, and the first hit must contain. A new edition adds its own.
SEARCH_TERMS = {"en": "roofline", "zh": "反馈"}
# Share of CJK characters among the letters of a page's prose (headings, paragraphs, list items, answers' titles;
# code, outputs, tables and math left out): an English page has next to none, a Chinese page mostly them.
MAX_CJK_SHARE = {"en": 0.02}
MIN_CJK_SHARE = {"zh": 0.3}
MIN_LETTERS = 40  # a page with less prose than this (the search page before a query) is judged by <html lang> only
CJK = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"

_PROSE = """() => {
  const main = (document.querySelector('main') || document.body).cloneNode(true);
  main.querySelectorAll('pre, code, table, .cell_output, .math, mjx-container, script, style, nav')
      .forEach(el => el.remove());
  return Array.from(main.querySelectorAll('h1, h2, h3, h4, h5, h6, p, li, dt, dd, summary'))
      .map(el => el.textContent).join(' ');
}"""

_BROKEN_IMAGES = """() => Array.from(document.images)
    .filter(img => !(img.complete && img.naturalWidth > 0)).map(img => img.getAttribute('src'))"""

_WAIT_FOR_MATH = """() => (window.MathJax && MathJax.startup && MathJax.startup.promise)
    ? MathJax.startup.promise.then(() => document.querySelectorAll('mjx-container').length) : 0"""


@functools.cache
def _widget_repr() -> re.Pattern:
    names = "|".join(sorted(notebook_view.widget_class_names(), key=len, reverse=True))
    return re.compile(rf"\b(?:{names})\((?:children|value|description|layout|options)=")


@functools.cache
def _ids(path: pathlib.Path) -> frozenset[str]:
    return frozenset(re.findall(r'\bid="([^"]+)"', path.read_text(encoding="utf-8", errors="replace")))


def _unresolved(link: str, server_url: str, root: pathlib.Path) -> str | None:
    """Return why internal `link` does not resolve in the built site, or None when it does."""
    parts = urllib.parse.urlsplit(link)
    path = root / urllib.parse.unquote(parts.path).lstrip("/")
    if parts.path.endswith("/"):
        path = path / "index.html"
    if not path.is_file():
        return f"{link}: no such file"
    if parts.fragment and path.suffix == ".html" and urllib.parse.unquote(parts.fragment) not in _ids(path):
        return f"{link}: no element with id {parts.fragment!r}"
    return None


class Reader:
    """A browser context that blocks and records every request off the loopback (widget_driver.OfflineGuard, as the
    JupyterLab and Voila tests' pages), and records the page's errors."""

    def __init__(self, browser, viewport):
        self.errors: list[str] = []
        self.context = browser.new_context(viewport=viewport)
        self.context.set_default_timeout(30_000)
        self.outside = OfflineGuard(self.context).outside
        self.page = self.context.new_page()
        self.page.on("console", lambda m: self.errors.append(f"console: {m.text}") if m.type == "error" else None)
        self.page.on("pageerror", lambda err: self.errors.append(f"page error: {err}"))
        self.page.on(
            "requestfailed",
            lambda r: self.errors.append(f"request failed: {r.url} ({r.failure})") if is_local(r.url) else None,
        )
        self.page.on("response", lambda r: self.errors.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None)

    def close(self) -> None:
        self.context.close()


def _open_every_answer(page) -> list[str]:
    """Click every collapsed answer's summary; return what did not behave: open before the click, or not open (or
    with nothing visible in it) after."""
    problems = []
    answers = page.locator("details")
    for i in range(answers.count()):
        answer = answers.nth(i)
        title = answer.locator("summary").first.inner_text().strip()
        if answer.evaluate("el => el.open"):
            problems.append(f"answer {i} ({title}) is open before a click")
            continue
        answer.locator("summary").first.click()
        shown = answer.evaluate("""el => el.open && Array.from(el.children).some(c => c.tagName !== 'SUMMARY'
            && c.getBoundingClientRect().height > 0)""")
        if not shown:
            problems.append(f"answer {i} ({title}) does not open on a click")
    return problems


def _language_problem(page, edition) -> str | None:
    lang = page.evaluate("document.documentElement.lang")
    if not lang.lower().startswith(edition.code):
        return f"<html lang={lang!r}>, not the edition's {edition.code!r}"
    prose = page.evaluate(_PROSE)
    cjk = len(re.findall(f"[{CJK}]", prose))
    letters = cjk + len(re.findall(r"[A-Za-z]", prose))
    if letters < MIN_LETTERS:
        return None
    share = cjk / letters
    if share > MAX_CJK_SHARE.get(edition.code, 1.0) or share < MIN_CJK_SHARE.get(edition.code, 0.0):
        return f"CJK share of its prose is {share:.2f}: not the edition's language ({edition.code})"
    return None


@pytest.mark.browser
def test_every_page_reads_offline_with_working_links_images_and_answers(
    browser, built_site, site_server, artifacts: pathlib.Path
):
    problems: dict[str, list[str]] = {}
    links: dict[str, set[str]] = {}
    opened = 0
    for edition in built_site.editions:
        base = f"{site_server.url}/{editions.folder(edition, built_site.editions)}"
        names = built_site.pages(edition)
        listed = {f"{page}.html" for page in editions.pages(edition)} | {"search.html", "genindex.html"}
        assert listed <= set(names), f"edition {edition.code}: pages not built: {sorted(listed - set(names))}"
        for name in names:
            reader = Reader(browser, VIEWPORT)
            page, found = reader.page, []
            try:
                page.goto(base + name, wait_until="load")
                page.evaluate(_WAIT_FOR_MATH)
                page.wait_for_load_state("networkidle")
                found += [f"image does not load: {src}" for src in page.evaluate(_BROKEN_IMAGES)]
                if _widget_repr().search(page.inner_text("body")):
                    found.append("a widget repr is on the page")
                language = _language_problem(page, edition)
                found += [language] if language else []
                found += _open_every_answer(page)
                page.screenshot(path=str(artifacts / f"site-{edition.code}-{name.replace('/', '-')[:-5]}.png"))
                for link in page.eval_on_selector_all("a[href]", "els => els.map(a => a.href)"):
                    if link.startswith(site_server.url):
                        links.setdefault(link, set()).add(f"{edition.code}/{name}")
            finally:
                reader.close()
            found += [f"request off the loopback: {url}" for url in reader.outside] + reader.errors
            if found:
                problems[f"{edition.code}/{name}"] = found
            opened += 1
    for link, sources in sorted(links.items()):
        why = _unresolved(link[len(site_server.url) :], site_server.url, built_site.root)
        if why:
            for source in sorted(sources):
                problems.setdefault(source, []).append(f"link does not resolve: {why}")
    print(f"\nsite: {opened} pages opened, {len(links)} internal links checked")
    assert not problems, "\n".join(f"{page}:\n  " + "\n  ".join(found) for page, found in problems.items())


@pytest.mark.browser
def test_search_finds_a_term_of_each_edition_and_its_first_hit_opens(
    browser, built_site, site_server, artifacts: pathlib.Path
):
    for edition in built_site.editions:
        term = SEARCH_TERMS.get(edition.code)
        assert term, f"edition {edition.code} has no search term in SEARCH_TERMS"
        base = f"{site_server.url}/{editions.folder(edition, built_site.editions)}"
        reader = Reader(browser, VIEWPORT)
        page = reader.page
        try:
            page.goto(f"{base}search.html?q={urllib.parse.quote(term)}", wait_until="load")
            first = page.locator("#search-results ul.search li a").first
            first.wait_for(state="visible", timeout=60_000)
            hits = page.locator("#search-results ul.search li").count()
            page.screenshot(path=str(artifacts / f"site-{edition.code}-search.png"))
            first.click()
            page.wait_for_load_state("load")
            text = page.inner_text("main")
            page.screenshot(path=str(artifacts / f"site-{edition.code}-search-hit.png"))
            print(f"\nsearch {edition.code} {term!r}: {hits} hits, first {page.url}")
            assert term.lower() in text.lower(), f"the first hit for {term!r}, {page.url}, does not contain it"
            assert page.url.startswith(base) and "/search.html" not in page.url
        finally:
            reader.close()
        assert not reader.outside and not reader.errors, (reader.outside, reader.errors)
