"""The lecturer's code-free app (`make present NB=..`): notebooks served by Voila, every panel redraws in Chromium.

Screenshots land in test-artifacts/voila-*.png.
"""

from __future__ import annotations

import pathlib
import time
import urllib.parse
import urllib.request

import nbformat
import pytest

from exercise_cells import INSTRUCTION, ZH_INSTRUCTION
from panel_notebook import app_test_notebook
from widget_driver import (
    CJK,
    exercise_panels,
    has_widget_cells,
    is_chinese_edition,
    notebooks,
    page_errors,
    served_name,
    notebook_id,
    wait_voila_rendered,
)

# The app views a lecturer projects: every notebook, and the feedback loops (02) and the AlphaEvolve ablations (04)
# above all (test_app_notebooks_include_the_lectures_demos). Voila renders each as the app shows it, its code cells cut
# to the panels and the cells they need (panel_notebook.app_test_notebook; nbval runs the rest): 5-12 s each.
APP_NOTEBOOKS = notebooks()
REQUIRED = ("02_feedback_loops", "04_alphaevolve_ablations")
LOAD_TIMEOUT = 300.0  # seconds for Voila to run the notebook and the page to render its widgets
# The app's pages come from the pack's Voila template (tools/voila-template, selected in voila.json), which drops the
# stock `lab` template's CDN stylesheets: no app page asks any host but this machine (tests/browser/test_app_offline.py
# checks the template's other pages and the zh app's language); each app test below asserts it for its own page.


@pytest.mark.browser
def test_voila_refuses_requests_without_its_token(voila_server):
    """Another user of the machine, who does not know the random token, gets the login page, not a notebook."""
    with urllib.request.urlopen(f"{voila_server.url}/voila/render/{APP_NOTEBOOKS[0].name}", timeout=60) as resp:
        assert urllib.parse.urlparse(resp.geturl()).path == "/login"


@pytest.mark.browser
@pytest.mark.parametrize("path", APP_NOTEBOOKS, ids=[notebook_id(p) for p in APP_NOTEBOOKS])
def test_notebook_as_voila_app(path: pathlib.Path, voila_server, page, offline, artifacts: pathlib.Path) -> None:
    """Serve the notebook as an app, see no error and no code, move every control of every panel and see it redraw,
    with no request off the loopback."""
    try:
        _check_app(path, voila_server, page, artifacts)
        offline.assert_none(f"Voila with {served_name(path)}")
    except Exception:
        page.screenshot(path=str(artifacts / f"voila-{notebook_id(path).replace('/', '-')}-FAILED.png"))
        raise


def _check_app(path: pathlib.Path, voila_server, page, artifacts: pathlib.Path) -> None:
    nbformat.write(app_test_notebook(path), voila_server.root / "notebooks" / served_name(path))
    start = time.monotonic()
    page.goto(voila_server.address(f"/voila/render/{served_name(path)}"), timeout=LOAD_TIMEOUT * 1000)
    wait_voila_rendered(page, LOAD_TIMEOUT)
    ran = time.monotonic() - start
    page.screenshot(path=str(artifacts / f"voila-{notebook_id(path).replace('/', '-')}.png"))
    problems = page_errors(page)
    assert not problems, f"{path.name} as an app shows errors:\n" + "\n".join(problems)
    assert page.locator(".jp-CodeCell:not(.jp-mod-noInput), .jp-InputArea-editor, .cm-editor").count() == 0, (
        "the app shows code"
    )
    _check_reads_as_an_app(path, page)
    if is_chinese_edition(path) and has_widget_cells(path):
        labels = page.evaluate(
            "() => Array.from(document.querySelectorAll('.widget-label, .widget-dropdown option, "
            ".widget-button, .widget-toggle-button')).map(e => e.innerText).join(' ')"
        )
        assert CJK.search(labels), f"{served_name(path)}: no Chinese widget label on screen: {labels[:200]!r}"
    moves = exercise_panels(page, artifacts, f"voila-{notebook_id(path).replace('/', '-')}")
    if has_widget_cells(path):
        assert moves, f"{path.name} has widget cells but the app has no widget panel to move"
    assert not page_errors(page)
    if has_widget_cells(path):
        shown = page.evaluate(_CHART_TEXTS)
        assert shown, f"{path.name} as an app draws no chart"
        for k, text in enumerate(shown):  # the charts speak the edition's language
            if is_chinese_edition(path):
                assert CJK.search(text), f"{served_name(path)}: chart {k} shows no Chinese: {text[:300]!r}"
            else:
                assert not CJK.search(text), f"{served_name(path)}: chart {k} shows Chinese: {CJK.findall(text)[:20]}"
    print(
        f"\n{path.name} in Voila: rendered in {ran:.1f} s; {len(moves)} moves in "
        f"{time.monotonic() - start - ran:.1f} s: "
        + "; ".join(f"[{m.panel}] {m.control} ({m.seconds} s, {'+'.join(m.changed)})" for m in moves)
    )


_CHART_TEXTS = """() => Array.from(document.querySelectorAll('.toyhw-chart > svg')).map(svg =>
    Array.from(svg.querySelectorAll('text')).map(t => t.textContent).join('\\n'))"""


def _check_reads_as_an_app(path: pathlib.Path, page) -> None:
    """No visible sentence tells the room to run or edit code; no stored static view (a figure the notebook stored
    for readers without a kernel: a PNG, or the SVG of a panel's starting state) is on screen beside its live panel:
    each figure is drawn once."""
    text = page.evaluate("() => document.body.innerText")
    told = sorted({m.group(0) for pattern in (INSTRUCTION, ZH_INSTRUCTION) for m in pattern.finditer(text)})
    assert not told, f"{path.name} as an app tells the room to act on code: {told}"
    stored = _static_view_images(path)
    # JupyterLab's renderers (Voila's too) show a PNG as a base64 data URL and an SVG as a percent-encoded one.
    shown = page.evaluate("""() => Array.from(document.querySelectorAll('img')).map(img => {
        const src = img.getAttribute('src') || '';
        if (src.startsWith('data:image/png;base64,')) return src.slice(22, 222);
        if (src.startsWith('data:image/svg+xml,')) {
          try { return decodeURIComponent(src.slice(19)).trim(); } catch (e) { return src; }
        }
        return '';
    })""")
    twice = [i for i, head in enumerate(stored) if head in shown]
    assert not twice, f"{path.name} as an app shows {len(twice)} stored static view(s) beside their live panels"


def _static_view_images(path: pathlib.Path) -> list[str]:
    """Each figure the notebook's static-view cells store: the first 200 base64 characters of a PNG, the whole text
    of an SVG."""
    import json

    heads = []
    for cell in json.loads(path.read_text())["cells"]:
        if "static-view" in cell.get("metadata", {}).get("tags", []):
            for output in cell.get("outputs", []):
                png = output.get("data", {}).get("image/png")
                if png:
                    heads.append("".join(png).replace("\n", "")[:200])
                svg = output.get("data", {}).get("image/svg+xml")
                if svg:
                    heads.append("".join(svg).strip())
    return heads


def test_app_notebooks_include_the_lectures_demos() -> None:
    """The feedback-loops and ablations notebooks are the app views the lectures need: they must be among the tested."""
    stems = {p.stem for p in APP_NOTEBOOKS}
    assert set(REQUIRED) <= stems, f"missing: {set(REQUIRED) - stems}"
