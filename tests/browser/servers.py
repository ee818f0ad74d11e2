"""The servers the browser tests (and benchmarks/bench_browser.py) drive: JupyterLab and Voila on 127.0.0.1.

Every server runs on a throwaway copy of notebooks/ (JupyterLab autosaves, and the committed notebooks must not change),
with its own Jupyter config, data and runtime folders (the developer's settings must not leak in), asks for a random
token given in its environment (never on its command line, where any user of the machine could read it), and is
stopped with every process it started, also when a test fails.
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

from widget_driver import NOTEBOOK_DIR

REPO = pathlib.Path(__file__).resolve().parents[2]
LAB_OVERRIDES = REPO / "tools" / "jupyterlab-overrides.json"
SERVER_START_TIMEOUT = 90.0  # seconds; a cold JupyterLab on 2 busy cores takes about 10


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


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def throwaway_root(base: pathlib.Path) -> pathlib.Path:
    """Return `base`/root holding a copy of notebooks/, the repository's voila.json (what the app hides: Voila reads it
    from the directory it starts in, as `make present` starts it in the repository), and a link to data/."""
    root = base / "root"
    shutil.copytree(NOTEBOOK_DIR, root / "notebooks", ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    shutil.copy(REPO / "voila.json", root / "voila.json")
    if (REPO / "data").is_dir():
        (root / "data").symlink_to(REPO / "data", target_is_directory=True)
    return root


def isolated_env(base: pathlib.Path) -> dict[str, str]:
    """Return an environment whose Jupyter and IPython folders are empty temp dirs; kernels stay the venv's python3.

    Kernel specs and lab extensions are still found under sys.prefix/share/jupyter (the venv), which Jupyter searches
    whatever JUPYTER_DATA_DIR says.
    """
    env = dict(os.environ)
    for name in ("JUPYTER_PATH", "JUPYTER_CONFIG_PATH", "MPLBACKEND", "JUPYTER_TOKEN", "PYTHONSTARTUP", "TOYHW_LANG"):
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


def descendants(pid: int) -> list[int]:
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


def stop(proc: subprocess.Popen) -> None:
    """Stop `proc`, its process group and every process it started: politely, then for good."""
    below = descendants(proc.pid)
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


def wait_until_up(proc: subprocess.Popen, url: str, log: pathlib.Path) -> None:
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


def serve(
    cmd: list[str],
    base: pathlib.Path,
    root: pathlib.Path,
    port: int,
    ready_path: str,
    log: pathlib.Path,
    env: dict[str, str] | None = None,
) -> Iterator[Server]:
    """Run `cmd` in `root` with isolated_env(`base`) plus `env`, yield the Server once `ready_path` answers 200, stop
    it (and every kernel it started) at the end."""
    server = Server(url=f"http://127.0.0.1:{port}", root=root, log=log, token=secrets.token_urlsafe(32))
    # JUPYTER_TOKEN is read by jupyter_server's identity provider.
    env = {**isolated_env(base), **(env or {}), "JUPYTER_TOKEN": server.token}
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
        wait_until_up(proc, server.address(ready_path), log)
        yield server
    finally:
        stop(proc)


def root_flags() -> list[str]:
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
    and the settings of lab_settings(`base`) (the token comes from the environment: see serve)."""
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
        *root_flags(),
    ]


def voila_command(root: pathlib.Path, port: int) -> list[str]:
    """Return the command that runs Voila on 127.0.0.1:`port` over `root`/notebooks, as `make present` runs it
    (tracebacks shown), with auto_token: Voila then takes JUPYTER_TOKEN from the environment (see serve)."""
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
