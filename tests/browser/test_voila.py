"""The lecturer's code-free app (`make present NB=..`): notebooks served by Voila, every panel redraws in Chromium.

Screenshots land in test-artifacts/voila-*.png.
"""

from __future__ import annotations

import pathlib
import time
import urllib.parse
import urllib.request

import pytest

from exercise_cells import INSTRUCTION, ZH_INSTRUCTION
from widget_driver import (
    CJK,
    exercise_panels,
    has_widget_cells,
    is_chinese_edition,
    notebooks,
    page_errors,
    served_name,
    notebook_id,
)

# The app views a lecturer projects: every notebook, and the feedback loops (02) and the AlphaEvolve ablations (04)
# above all (test_app_notebooks_include_the_lectures_demos). Voila runs each notebook once more: about 10 s each.
APP_NOTEBOOKS = notebooks()
REQUIRED = ("02_feedback_loops", "04_alphaevolve_ablations")
LOAD_TIMEOUT = 300.0  # seconds for Voila to run the notebook and the page to render its widgets


@pytest.mark.browser
def test_voila_refuses_requests_without_its_token(voila_server):
    """Another user of the machine, who does not know the random token, gets the login page, not a notebook."""
    with urllib.request.urlopen(f"{voila_server.url}/voila/render/{APP_NOTEBOOKS[0].name}", timeout=60) as resp:
        assert urllib.parse.urlparse(resp.geturl()).path == "/login"


def _wait_rendered(page) -> None:
    """Wait until Voila has run every cell and every widget view on the page has rendered.

    Voila streams each cell's outputs as it runs them (the document is complete when the last cell has run) and sends
    a widget view as JSON in a script tag, which the page replaces with the rendered view.
    """
    deadline = time.monotonic() + LOAD_TIMEOUT
    last, steady = None, 0
    while steady < 4:  # the same, finished state in four polls in a row
        if time.monotonic() > deadline:
            raise AssertionError(f"Voila page not rendered after {LOAD_TIMEOUT:.0f} s: {last}")
        page.wait_for_timeout(250)
        state = page.evaluate("""() => ({
          pending: Array.from(document.querySelectorAll('script[type="application/vnd.voila.cell-output+json"]'))
            .filter(s => s.textContent.includes('application/vnd.jupyter.widget-view+json')).length,
          rendered: Array.from(document.querySelectorAll('.jupyter-widgets')).filter(el =>
            !(el.parentElement && el.parentElement.closest('.jupyter-widgets'))).length,
          ready: document.readyState,
        })""")
        # Rendered widget views replace their script tags, so none pending means all rendered (or none sent).
        finished = state["ready"] == "complete" and state["pending"] == 0
        steady = steady + 1 if finished and state == last else 0
        last = state
    page.wait_for_timeout(500)  # let the panels' first figures arrive


@pytest.mark.browser
@pytest.mark.parametrize("path", APP_NOTEBOOKS, ids=[notebook_id(p) for p in APP_NOTEBOOKS])
def test_notebook_as_voila_app(path: pathlib.Path, voila_server, page, artifacts: pathlib.Path) -> None:
    """Serve the notebook as an app, see no error and no code, move every control of every panel and see it redraw."""
    try:
        _check_app(path, voila_server, page, artifacts)
    except Exception:
        page.screenshot(path=str(artifacts / f"voila-{notebook_id(path).replace('/', '-')}-FAILED.png"))
        raise


def _check_app(path: pathlib.Path, voila_server, page, artifacts: pathlib.Path) -> None:
    start = time.monotonic()
    page.goto(voila_server.address(f"/voila/render/{served_name(path)}"), timeout=LOAD_TIMEOUT * 1000)
    _wait_rendered(page)
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
    print(
        f"\n{path.name} in Voila: rendered in {ran:.1f} s; {len(moves)} moves in "
        f"{time.monotonic() - start - ran:.1f} s: "
        + "; ".join(f"[{m.panel}] {m.control} ({m.seconds} s)" for m in moves)
    )


def _check_reads_as_an_app(path: pathlib.Path, page) -> None:
    """No visible sentence tells the room to run or edit code; no stored static view (an image the notebook stored
    for readers without a kernel) is on screen beside its live panel: each figure is drawn once."""
    text = page.evaluate("() => document.body.innerText")
    told = sorted({m.group(0) for pattern in (INSTRUCTION, ZH_INSTRUCTION) for m in pattern.finditer(text)})
    assert not told, f"{path.name} as an app tells the room to act on code: {told}"
    stored = _static_view_images(path)
    shown = page.evaluate("""() => Array.from(document.querySelectorAll('img'))
        .map(img => (img.getAttribute('src') || '').replace(/^data:image\\/png;base64,/, '').slice(0, 200))""")
    twice = [i for i, head in enumerate(stored) if head in shown]
    assert not twice, f"{path.name} as an app shows {len(twice)} stored static view(s) beside their live panels"


def _static_view_images(path: pathlib.Path) -> list[str]:
    """The first 200 base64 characters of each PNG the notebook's static-view cells store."""
    import json

    heads = []
    for cell in json.loads(path.read_text())["cells"]:
        if "static-view" in cell.get("metadata", {}).get("tags", []):
            for output in cell.get("outputs", []):
                png = output.get("data", {}).get("image/png")
                if png:
                    heads.append("".join(png).replace("\n", "")[:200])
    return heads


def test_app_notebooks_include_the_lectures_demos() -> None:
    """The feedback-loops and ablations notebooks are the app views the lectures need: they must be among the tested."""
    stems = {p.stem for p in APP_NOTEBOOKS}
    assert set(REQUIRED) <= stems, f"missing: {set(REQUIRED) - stems}"
