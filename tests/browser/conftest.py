"""Fixtures for the browser tests: Debian's Chromium driven by playwright, JupyterLab and Voila on 127.0.0.1.

Every server runs on a throwaway copy of notebooks/ (JupyterLab autosaves, and the committed notebooks must not change),
with its own Jupyter config, data and runtime folders (the developer's settings must not leak in), and is always
stopped, also when a test fails: the fixture's finalizer ends the whole process group and any kernel it started.
Each server asks for a random token (given in its environment, not on its command line, where any user of a shared
machine could read it): another user of the machine cannot run code in it while the tests run.

Where Chromium is missing the tests skip with the reason (tools/ensure_chromium.sh writes it); under CI (CI=true) or
with TOYHW_REQUIRE_BROWSER=1 they fail instead, so a CI run can never pass without having run them.
"""

from __future__ import annotations

import dataclasses
import json
import os
import pathlib
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from typing import Iterator

import pytest

from widget_driver import NOTEBOOK_DIR, OfflineGuard

REPO = pathlib.Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts"
LAB_OVERRIDES = REPO / "tools" / "jupyterlab-overrides.json"
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
SERVER_START_TIMEOUT = 90.0  # seconds; a cold JupyterLab on 2 busy cores takes about 10


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


@dataclasses.dataclass(frozen=True)
class Server:
    """A running server.

    Attributes:
        url: base URL, http://127.0.0.1:PORT (no trailing slash).
        root: the throwaway folder it serves; its notebooks/ is a copy of the committed one.
        log: file that holds the server's stdout and stderr.
        token: the random token the server asks for.
    """

    url: str
    root: pathlib.Path
    log: pathlib.Path
    token: str

    def address(self, path: str) -> str:
        """Return the URL of `path` with the token: the first page a browser opens with it logs the browser in."""
        return f"{self.url}{path}{'&' if '?' in path else '?'}token={self.token}"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _throwaway_root(base: pathlib.Path) -> pathlib.Path:
    """Return `base`/root holding a copy of notebooks/, the repository's voila.json (what the app hides: Voila reads it
    from the directory it starts in, as `make present` starts it in the repository), and a link to data/."""
    root = base / "root"
    shutil.copytree(NOTEBOOK_DIR, root / "notebooks", ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    shutil.copy(REPO / "voila.json", root / "voila.json")
    if (REPO / "data").is_dir():
        (root / "data").symlink_to(REPO / "data", target_is_directory=True)
    return root


def _isolated_env(base: pathlib.Path) -> dict[str, str]:
    """Return an environment whose Jupyter and IPython folders are empty temp dirs; kernels stay the venv's python3.

    Kernel specs and lab extensions are still found under sys.prefix/share/jupyter (the venv), which Jupyter searches
    whatever JUPYTER_DATA_DIR says.
    """
    env = dict(os.environ)
    for name in ("JUPYTER_PATH", "JUPYTER_CONFIG_PATH", "MPLBACKEND", "JUPYTER_TOKEN", "PYTHONSTARTUP"):
        env.pop(name, None)
    for name, sub in (
        ("JUPYTER_CONFIG_DIR", "config"),
        ("JUPYTER_DATA_DIR", "data"),
        ("JUPYTER_RUNTIME_DIR", "runtime"),
        ("IPYTHONDIR", "ipython"),
    ):
        (base / sub).mkdir(parents=True, exist_ok=True)
        env[name] = str(base / sub)
    env["PATH"] = f"{pathlib.Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONUNBUFFERED"] = "1"
    return env


def _descendants(pid: int) -> list[int]:
    """Return the ids of every process below `pid` (kernels run in sessions of their own, out of its group)."""
    children: dict[int, list[int]] = {}
    for stat in pathlib.Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _stop(proc: subprocess.Popen) -> None:
    """Stop `proc`, its process group and every process it started: politely, then for good."""
    below = _descendants(proc.pid)
    for sig, grace in ((signal.SIGTERM, 15.0), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=grace)
            break
        except subprocess.TimeoutExpired:
            continue
    for pid in below:  # a kernel the server did not get to shut down
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def _wait_until_up(proc: subprocess.Popen, url: str, log: pathlib.Path) -> None:
    deadline = time.monotonic() + SERVER_START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}; its log ({log}):\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=5) as resp:
                if resp.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.3)
    raise RuntimeError(
        f"server not up at {url} after {SERVER_START_TIMEOUT:.0f} s; log ({log}):\n{log.read_text()[-3000:]}"
    )


def _serve(
    cmd: list[str], base: pathlib.Path, root: pathlib.Path, port: int, ready_path: str, log: pathlib.Path
) -> Iterator[Server]:
    server = Server(url=f"http://127.0.0.1:{port}", root=root, log=log, token=secrets.token_urlsafe(32))
    env = {**_isolated_env(base), "JUPYTER_TOKEN": server.token}  # read by jupyter_server's identity provider
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            cmd,
            cwd=root,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        _wait_until_up(proc, server.address(ready_path), log)
        yield server
    finally:
        _stop(proc)


def _root_flags() -> list[str]:
    return ["--allow-root"] if os.geteuid() == 0 else []


def lab_settings(base: pathlib.Path) -> pathlib.Path:
    """Return an app settings folder with the pack's overrides plus the tests' own (every cell kept in the DOM)."""
    overrides = base / "app-settings" / "overrides.d"
    overrides.mkdir(parents=True)
    shutil.copy(LAB_OVERRIDES, overrides / "toyhw.json")
    tests_only = {"@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"}}
    (overrides / "zz-browser-tests.json").write_text(json.dumps(tests_only, indent=2))
    return overrides.parent


def lab_command(base: pathlib.Path, root: pathlib.Path, port: int) -> list[str]:
    """Return the command that runs JupyterLab on 127.0.0.1:`port` over `root`, the app exposed as window.jupyterapp
    and the settings of lab_settings(`base`) (the token comes from the environment: see _serve)."""
    return [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        "--ServerApp.password=",
        f"--ServerApp.root_dir={root}",
        "--LabApp.expose_app_in_browser=True",
        f"--LabApp.app_settings_dir={lab_settings(base)}",
        *_root_flags(),
    ]


def voila_command(root: pathlib.Path, port: int) -> list[str]:
    """Return the command that runs Voila on 127.0.0.1:`port` over `root`/notebooks, as `make present` runs it
    (tracebacks shown), with auto_token: Voila then takes JUPYTER_TOKEN from the environment (see _serve)."""
    return [
        sys.executable,
        "-m",
        "voila",
        str(root / "notebooks"),
        "--no-browser",
        "--Voila.ip=127.0.0.1",
        f"--port={port}",
        "--Voila.port_retries=0",
        "--Voila.auto_token=True",
        "--show_tracebacks=True",
    ]


@pytest.fixture(scope="session")
def lab_server(browser, tmp_path_factory: pytest.TempPathFactory, artifacts: pathlib.Path) -> Iterator[Server]:
    """JupyterLab on a free port of 127.0.0.1, a random token, the app exposed as window.jupyterapp, on a copy of the
    pack."""
    base = tmp_path_factory.mktemp("lab")
    root = _throwaway_root(base)
    port = _free_port()
    yield from _serve(lab_command(base, root, port), base, root, port, "/api/status", artifacts / "jupyterlab.log")


@pytest.fixture(scope="session")
def voila_server(browser, tmp_path_factory: pytest.TempPathFactory, artifacts: pathlib.Path) -> Iterator[Server]:
    """Voila serving a copy of notebooks/ as code-free apps (tracebacks shown, so a failing cell is visible), with a
    random token (auto_token: Voila then takes JUPYTER_TOKEN from the environment instead of serving without one)."""
    base = tmp_path_factory.mktemp("voila")
    root = _throwaway_root(base)
    port = _free_port()
    yield from _serve(voila_command(root, port), base, root, port, "/", artifacts / "voila.log")


@pytest.fixture(scope="session")
def site_server(browser, built_site, artifacts: pathlib.Path) -> Iterator[Server]:
    """The built website served as static files on a free port of 127.0.0.1 (as `make site-serve` serves it)."""
    port = _free_port()
    log = artifacts / "site-server.log"
    cmd = [sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "--directory", str(built_site.root), str(port)]
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        _wait_until_up(proc, f"http://127.0.0.1:{port}/index.html", log)
        yield Server(url=f"http://127.0.0.1:{port}", root=built_site.root, log=log, token="")
    finally:
        _stop(proc)
