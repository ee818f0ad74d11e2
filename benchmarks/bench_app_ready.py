"""The classroom app's time to ready, with and without Voila's preheated kernels (the lecturer's guide quotes it).

Run: .venv/bin/python benchmarks/bench_app_ready.py [--notebooks 02,zh/04] [--out benchmarks/app_ready.json]

For each notebook of both editions it serves the notebook alone, as `make present NB=..` does (Voila with the repo's
voila.json and the pack's template, tools/voila-template; `make present` installs it), from a throwaway copy of the
pack, and opens it in Debian's Chromium through playwright with every request off the machine blocked:

- cold: Voila as `make present` starts it without preheating; the page is opened as soon as the server answers,
  and Voila starts a kernel and runs the notebook for it (the loading screen counts the cells);
- preheated: Voila with `--preheat_kernel=True --pool_size=1`, which starts a kernel and runs the notebook before
  anyone asks; the page is opened once that kernel has finished (idle for SETTLE_S), as a lecturer who starts the app
  before the class would open it (and as every later tab finds it once the pool has refilled);
- preheated_at_once: the same Voila, the page opened as soon as the server answers (`make present` opens the
  browser at once): Voila sends the page when its kernel has run the notebook.

Time to ready: from the page's navigation to the first moment the loading screen is gone, the document complete and
every widget view rendered (tests/browser/widget_driver.py's wait_voila_rendered waits for the same), polled every
POLL_S. It writes the medians per notebook, the machine and its load to --out (JSON).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import pathlib
import platform
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "browser"))

from widget_driver import OfflineGuard, notebooks, served_name  # noqa: E402

CHROMIUM = os.environ.get("TOYHW_CHROMIUM", "/usr/bin/chromium")
POLL_S = 0.05
SETTLE_S = 8.0  # a preheated kernel idle this long has run the whole notebook (cells follow one another closely)
TIMEOUT_S = 300.0
_READY = """() => document.readyState === 'complete' && !document.getElementById('loading')
  && Array.from(document.querySelectorAll('script[type="application/vnd.voila.cell-output+json"]'))
       .every(s => !s.textContent.includes('application/vnd.jupyter.widget-view+json'))"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _get(url: str) -> bytes | None:
    try:
        with urllib.request.urlopen(url, timeout=10) as reply:
            return reply.read()
    except OSError:
        return None


def _kernel_cpu_seconds(server: int) -> float | None:
    """Return the CPU seconds used so far by the kernels below process `server` (None while there is none)."""
    children: dict[int, list[int]] = {}
    for stat in pathlib.Path("/proc").glob("[0-9]*/stat"):
        try:
            children.setdefault(int(stat.read_text().rsplit(")", 1)[1].split()[1]), []).append(int(stat.parent.name))
        except (OSError, IndexError, ValueError):
            continue
    below, todo = [], [server]
    while todo:
        for child in children.get(todo.pop(), []):
            below.append(child)
            todo.append(child)
    total, found = 0.0, False
    for pid in below:
        try:
            if b"ipykernel" not in pathlib.Path(f"/proc/{pid}/cmdline").read_bytes():
                continue
            fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        found = True
    return total if found else None


class App:
    """One notebook served alone by Voila, as `make present` serves it, from a throwaway copy of the pack."""

    def __init__(self, notebook: str, preheat: bool, work: pathlib.Path):
        self.port, self.token = _free_port(), secrets.token_urlsafe(16)
        env = {k: v for k, v in os.environ.items() if not k.startswith("JUPYTER")}
        for name in ("config", "data", "runtime"):
            (work / name).mkdir(exist_ok=True)
            env[f"JUPYTER_{name.upper()}_DIR"] = str(work / name)
        env["JUPYTER_TOKEN"] = self.token
        flags = ["--preheat_kernel=True", "--pool_size=1"] if preheat else []
        cmd = [sys.executable, "-m", "voila", f"notebooks/{notebook}", "--no-browser", "--Voila.ip=127.0.0.1"]
        cmd += [f"--port={self.port}", "--Voila.auto_token=True", "--show_tracebacks=True", *flags]
        self.log = open(work / "voila.log", "wb")
        self.proc = subprocess.Popen(
            cmd, cwd=work / "root", env=env, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True
        )
        deadline = time.monotonic() + TIMEOUT_S
        while _get(f"{self.url}/login") is None:  # a page that starts no kernel
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"voila did not start: {(work / 'voila.log').read_text()[-2000:]}")
            time.sleep(0.2)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def wait_preheated(self) -> None:
        """Wait until the pool's kernel has run the notebook: a kernel below Voila whose CPU time stayed put for
        SETTLE_S (single-notebook Voila lists no kernels over its API; its log says when the kernel has started, not
        when it has run the notebook)."""
        deadline, last, still_since = time.monotonic() + TIMEOUT_S, None, None
        while time.monotonic() < deadline:
            busy = _kernel_cpu_seconds(self.proc.pid)
            if busy is not None and last is not None and busy - last < 0.02:
                still_since = still_since or time.monotonic()
                if time.monotonic() - still_since >= SETTLE_S:
                    return
            else:
                still_since = None
            last = busy
            time.sleep(0.25)
        raise RuntimeError("the preheated kernel never settled")

    def stop(self) -> None:
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(self.proc.pid, sig)
                self.proc.wait(timeout=15)
                break
            except (ProcessLookupError, subprocess.TimeoutExpired):
                continue
        self.log.close()


def time_to_ready(browser, app: App) -> float:
    """Open the app in a fresh browser context; return the seconds from navigation to ready."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    guard = OfflineGuard(context)
    try:
        page = context.new_page()
        start = time.monotonic()
        page.goto(f"{app.url}/?token={app.token}", wait_until="commit", timeout=TIMEOUT_S * 1000)
        while not page.evaluate(_READY):
            if time.monotonic() - start > TIMEOUT_S:
                raise RuntimeError("the app was not ready in time")
            time.sleep(POLL_S)
        seconds = time.monotonic() - start
    finally:
        context.close()
    guard.assert_none("the app")
    return seconds


def _copy_of_the_pack(work: pathlib.Path) -> None:
    root = work / "root"
    shutil.copytree(REPO / "notebooks", root / "notebooks", ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    shutil.copy(REPO / "voila.json", root / "voila.json")
    (root / "data").symlink_to(REPO / "data", target_is_directory=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--notebooks", default="", help="e.g. 02,zh/04 (default: every notebook of both editions)")
    parser.add_argument("--repeats", type=int, default=1, help="loads per notebook and mode (medians reported)")
    parser.add_argument("--out", type=pathlib.Path, default=REPO / "benchmarks" / "app_ready.json")
    args = parser.parse_args()
    chosen = [served_name(p) for p in notebooks()]
    if args.notebooks:
        wanted = args.notebooks.split(",")
        chosen = [name for name in chosen if any(name.startswith(w) for w in wanted)]
    from playwright.sync_api import sync_playwright

    results = {}
    loads = []
    with sync_playwright() as pw, tempfile.TemporaryDirectory() as tmp:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"], headless=True)
        for name in chosen:
            results[name] = {}
            for mode in ("cold", "preheated", "preheated_at_once"):
                times = []
                for repeat in range(args.repeats):
                    work = pathlib.Path(tmp) / f"{name.replace('/', '-')}-{mode}-{repeat}"
                    work.mkdir()
                    _copy_of_the_pack(work)
                    app = App(name, mode.startswith("preheated"), work)
                    try:
                        if mode == "preheated":
                            app.wait_preheated()
                        loads.append(os.getloadavg()[0])
                        times.append(time_to_ready(browser, app))
                    finally:
                        app.stop()
                results[name][mode] = round(statistics.median(times), 2)
            print(f"{name}: " + ", ".join(f"{mode} {t:.1f} s" for mode, t in results[name].items()), flush=True)
        browser.close()
    report = {
        "what": "seconds from opening the app's page to ready (loading screen gone, widgets rendered), median",
        "date": datetime.date.today().isoformat(),
        "machine": f"{os.cpu_count()} CPUs, {platform.machine()}, Python {platform.python_version()}",
        "load_average_median": round(statistics.median(loads), 1),
        "repeats": args.repeats,
        "notebooks": results,
    }
    args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
