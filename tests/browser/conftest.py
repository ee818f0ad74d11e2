"""Fixtures for the browser tests: Debian's Chromium driven by playwright, JupyterLab and Voila on 127.0.0.1.

The servers themselves (a throwaway copy of the pack, empty Jupyter folders, a random token, always stopped) are
tests/browser/servers.py's.

Where Chromium is missing the tests skip with the reason (tools/ensure_chromium.sh writes it); under CI (CI=true) or
with TOYHW_REQUIRE_BROWSER=1 they fail instead, so a CI run can never pass without having run them.
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
from typing import Iterator

import pytest

from servers import Server, free_port, lab_command, serve, stop, throwaway_root, voila_command, wait_until_up
from widget_driver import OfflineGuard

REPO = pathlib.Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts"
CHROMIUM = pathlib.Path(os.environ.get("TOYHW_CHROMIUM", "/usr/bin/chromium"))
# Written by tools/ensure_chromium.sh when it could not install Chromium: the reason the tests skip.
CHROMIUM_MISSING_NOTE = ARTIFACTS / "chromium-missing.txt"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
VIEWPORT = {"width": 1400, "height": 1000}


def _browser_required() -> bool:
    return os.environ.get("CI", "").lower() == "true" or os.environ.get("TOYHW_REQUIRE_BROWSER") == "1"


def _why_no_browser() -> str | None:
    """Return why the browser tests cannot run here, or None when they can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError as err:
        return f"the playwright package is not installed ({err}); run `make setup`"
    if not (CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK)):
        if CHROMIUM_MISSING_NOTE.exists():  # tools/ensure_chromium.sh tried, and says why it could not install it
            return CHROMIUM_MISSING_NOTE.read_text().strip()
        return (
            f"Chromium not found at {CHROMIUM} (Debian package `chromium`; `make test` runs "
            "tools/ensure_chromium.sh, which installs it when run as root)"
        )
    return None


def pytest_report_header(config: pytest.Config) -> str:
    why = _why_no_browser()
    if why is None:
        return f"browser tests: Chromium at {CHROMIUM}"
    return f"browser tests: WILL BE SKIPPED: {why}"


_skipped_because: list[str] = []


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    """Repeat, loudly and last, that the browser tests did not run and why."""
    if _skipped_because:
        terminalreporter.write_sep("#", "BROWSER TESTS SKIPPED", red=True, bold=True)
        terminalreporter.write_line(f"tests/browser did not run: {_skipped_because[0]}", red=True, bold=True)


@pytest.fixture(scope="session")
def browser() -> Iterator["playwright.sync_api.Browser"]:  # noqa: F821
    """A headless Debian Chromium (never a downloaded browser build)."""
    why = _why_no_browser()
    if why is not None:
        if _browser_required():
            pytest.fail(f"browser tests are required here (CI or TOYHW_REQUIRE_BROWSER=1) but cannot run: {why}")
        _skipped_because.append(why)
        pytest.skip(why)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def browsing(browser) -> Iterator[tuple["playwright.sync_api.Page", OfflineGuard]]:  # noqa: F821
    """A fresh page in its own browser context (no cookies or storage shared between tests), offline: every request
    to a host off the loopback is blocked and recorded (OfflineGuard). A test that does not check the record itself
    fails at teardown when something was asked for."""
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(30_000)
    guard = OfflineGuard(context)
    try:
        yield context.new_page(), guard
    finally:
        context.close()
    if not guard.checked:
        guard.assert_none("the test's pages")


@pytest.fixture
def page(browsing):
    """The page of `browsing`: fresh, in its own context, offline."""
    return browsing[0]


@pytest.fixture
def offline(browsing) -> OfflineGuard:
    """The record of `browsing`'s requests off the loopback (all blocked): `offline.assert_none(where)`."""
    return browsing[1]


@pytest.fixture(scope="session")
def artifacts() -> pathlib.Path:
    """The folder that screenshots and server logs go to (gitignored)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def lab_server(browser, tmp_path_factory: pytest.TempPathFactory, artifacts: pathlib.Path) -> Iterator[Server]:
    """JupyterLab on a free port of 127.0.0.1, a random token, the app exposed as window.jupyterapp, on a copy of the
    pack."""
    base = tmp_path_factory.mktemp("lab")
    root = throwaway_root(base)
    port = free_port()
    yield from serve(lab_command(base, root, port), base, root, port, "/api/status", artifacts / "jupyterlab.log")


@pytest.fixture(scope="session")
def voila_server(browser, tmp_path_factory: pytest.TempPathFactory, artifacts: pathlib.Path) -> Iterator[Server]:
    """Voila serving a copy of notebooks/ as code-free apps (tracebacks shown, so a failing cell is visible), with a
    random token (auto_token: Voila then takes JUPYTER_TOKEN from the environment instead of serving without one)."""
    base = tmp_path_factory.mktemp("voila")
    root = throwaway_root(base)
    port = free_port()
    yield from serve(voila_command(root, port), base, root, port, "/", artifacts / "voila.log")


@pytest.fixture(scope="session")
def site_server(browser, built_site, artifacts: pathlib.Path) -> Iterator[Server]:
    """The built website served as static files on a free port of 127.0.0.1 (as `make site-serve` serves it)."""
    port = free_port()
    log = artifacts / "site-server.log"
    cmd = [sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "--directory", str(built_site.root), str(port)]
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        wait_until_up(proc, f"http://127.0.0.1:{port}/index.html", log)
        yield Server(url=f"http://127.0.0.1:{port}", root=built_site.root, log=log, token="")
    finally:
        stop(proc)
