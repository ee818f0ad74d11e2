"""The app (`make present`) through the pack's Voila template (tools/voila-template, selected in voila.json): nothing
asked of any host but this machine, on an app page of each edition and on Voila's own pages, and each edition's app
in its own language around the content: <html lang>, the loading screen's text, the tab's title (the notebook's
title, not its file name).

tests/browser/test_voila.py opens every notebook of both editions as an app with every request off the loopback
blocked and counted (none allowed); here the template's own changes are checked.
"""

from __future__ import annotations

import json
import pathlib
import re

import pytest

from widget_driver import CJK, has_widget_cells, is_chinese_edition, notebook_id, notebooks, served_name
from widget_driver import wait_voila_rendered

REPO = pathlib.Path(__file__).resolve().parents[2]
TEMPLATE = REPO / "tools" / "voila-template"
LOAD_TIMEOUT = 300.0
VOILA_ENGLISH = re.compile(r"^(Running \.\.\.|(Executing|Reading) \d+ of \d+)$")  # the stock template's loading text
_RECORD_LOADING = """
window.toyhwLoading = [];
new MutationObserver(() => {
  const shown = document.getElementById('loading_text');
  const text = shown ? shown.textContent.trim() : '';
  if (text && window.toyhwLoading[window.toyhwLoading.length - 1] !== text) window.toyhwLoading.push(text);
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


def _first_of_each_edition() -> list[pathlib.Path]:
    """The quickest app of each edition: its first notebook without widget panels (else its first)."""
    english = [p for p in notebooks() if not is_chinese_edition(p)]
    chinese = [p for p in notebooks() if is_chinese_edition(p)]
    return [next((p for p in group if not has_widget_cells(p)), group[0]) for group in (english, chinese) if group]


APPS = _first_of_each_edition()


def _title(path: pathlib.Path) -> str:
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        found = re.search(r"^# (.+)$", "".join(cell["source"]), re.M) if cell["cell_type"] == "markdown" else None
        if found:
            return found.group(1).strip()
    raise AssertionError(f"{path.name} has no title")


def test_voila_json_selects_the_packs_template_and_the_venv_has_it_installed():
    """`make present` (and `make test`) installs tools/voila-template as the venv's Voila template `toyhw`."""
    import sys

    assert json.loads((REPO / "voila.json").read_text())["VoilaConfiguration"]["template"] == "toyhw"
    installed = pathlib.Path(sys.prefix) / "share" / "jupyter" / "voila" / "templates" / "toyhw"
    for source in TEMPLATE.iterdir():
        target = installed / source.name
        assert target.is_file() and target.read_bytes() == source.read_bytes(), (
            f"{target} is not tools/voila-template/{source.name}: run `make present` or `make test`, which install it"
        )


def test_the_stock_template_still_links_a_cdn_which_the_packs_drops():
    """The reason for the pack's template: if Voila's own `lab` template stops linking a CDN, the filter is moot."""
    import sys

    stock = pathlib.Path(sys.prefix) / "share" / "jupyter" / "voila" / "templates" / "lab" / "index.html.j2"
    assert re.search(r'<link [^>]*href="https://', stock.read_text(encoding="utf-8"))


@pytest.mark.browser
@pytest.mark.parametrize("path", APPS, ids=[notebook_id(p) for p in APPS])
def test_the_app_speaks_its_editions_language_around_its_content(path, voila_server, page, offline):
    page.add_init_script(_RECORD_LOADING)
    page.goto(voila_server.address(f"/voila/render/{served_name(path)}"), timeout=LOAD_TIMEOUT * 1000)
    wait_voila_rendered(page, LOAD_TIMEOUT)
    lang = page.evaluate("document.documentElement.lang")
    shown = page.evaluate("window.toyhwLoading")
    assert page.title() == _title(path), "the tab is titled by the notebook's title"
    assert shown, "no loading text was seen"
    assert not [text for text in shown if VOILA_ENGLISH.search(text)], f"the stock loading text: {shown}"
    if is_chinese_edition(path):
        assert lang.startswith("zh"), f"<html lang={lang!r}> in the zh app"
        assert all(CJK.search(text) for text in shown), f"loading text not in Chinese: {shown}"
    else:
        assert lang == "en" and not any(CJK.search(text) for text in shown), (lang, shown)
    assert _title(path) in shown[0], shown
    offline.assert_none(f"Voila with {served_name(path)}")


@pytest.mark.browser
@pytest.mark.parametrize("where", ["/", "/voila/render/no_such_notebook.ipynb"], ids=["folder", "error"])
def test_voilas_own_pages_ask_no_other_host(where, voila_server, page, offline):
    """The folder view (a `voila` started on a folder) and an error page: the template's page.html drops the stock
    one's Font Awesome link."""
    page.goto(voila_server.address(where), wait_until="load")
    page.wait_for_load_state("networkidle")
    offline.assert_none(f"Voila's page {where}")
