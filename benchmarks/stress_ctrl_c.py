"""How reliably Ctrl-C stops a sweep on worker processes: `python -m toyhw ablations --workers 2`, interrupted again and
again, must exit 130 and leave no process behind.

Run: .venv/bin/python benchmarks/stress_ctrl_c.py [--tries 10] [--no-write]

Each try starts the command on a pseudo-terminal (so it draws its progress bar, like a student's terminal) with 40
seeds at a budget that would take hours, and sends SIGINT at one of these moments: 0, 5, 10, 20, 50, 100, 200 or
500 ms after the bar appears (while the pool forks its workers, the window where a Ctrl-C once left a worker running),
or once both workers have computed for 0.3 s. A try fails if the command has not exited 130 within 20 s, or if the
terminal is still held open 20 s after it exited (a worker outlived it). Why a script and not a test: the failure it
hunts was rare (1 try in 30), so it takes hundreds of tries; the tests in tests/evolve/test_ablation_cli.py run each
moment once and fail, never hang, if it comes back. Writes its own section of benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import collections
import fcntl
import os
import pathlib
import pty
import signal
import struct
import subprocess
import sys
import termios
import time

import results_md  # benchmarks/ is on sys.path when a script here runs

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
import interrupt  # noqa: E402 - the tests' own helpers: the same way of starting and interrupting the command

RESULTS = HERE / "RESULTS.md"
HEADING = "Ctrl-C during a sweep on 2 worker processes"
MOMENTS = ["0 ms", "5 ms", "10 ms", "20 ms", "50 ms", "100 ms", "200 ms", "500 ms", "workers computing"]
ARGS = ["ablations", "--seeds", ",".join(map(str, range(40))), "--budget", "20000", "--workers", "2"]


def one_try(moment: str) -> str:
    """Interrupt one run at `moment`; return "ok" or what went wrong."""
    reader, writer = pty.openpty()
    fcntl.ioctl(writer, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    with interrupt.stopped(ARGS, stdout=subprocess.DEVNULL, stderr=writer) as proc:
        os.close(writer)
        if moment == "workers computing":
            interrupt.wait_until_workers_compute(proc, 2)
        else:
            interrupt.wait_for_text(reader, "evolution runs")
            time.sleep(int(moment.split()[0]) / 1000)
        proc.send_signal(signal.SIGINT)
        try:
            code = interrupt.wait_for_exit(proc, reader, timeout=20)
            if code != 130:
                os.close(reader)
                return f"exit {code}"
            interrupt.read_until_closed(reader, timeout=20)  # closes `reader` when it returns
            return "ok"
        except AssertionError as failure:
            os.close(reader)
            return "not ended 20 s after Ctrl-C" if "had not ended" in str(failure) else "a worker outlived the command"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tries", type=int, default=10, help="tries per moment (default 10)")
    parser.add_argument("--no-write", action="store_true", help="print only; leave RESULTS.md alone")
    args = parser.parse_args()
    outcomes: dict[str, collections.Counter] = {moment: collections.Counter() for moment in MOMENTS}
    start = time.perf_counter()
    for _ in range(args.tries):
        for moment in MOMENTS:
            outcomes[moment][one_try(moment)] += 1
    seconds = time.perf_counter() - start
    lines = [
        f"Command: `.venv/bin/python benchmarks/stress_ctrl_c.py --tries {args.tries}` "
        f"({args.tries * len(MOMENTS)} tries in {seconds:.0f} s; load average at the end "
        f"{os.getloadavg()[0]:.2f})",
        "",
        "| Ctrl-C at (after the progress bar appears) | tries | exited 130, nothing left running | failures |",
        "|---|---|---|---|",
    ]
    for moment in MOMENTS:
        counts = outcomes[moment]
        failures = ", ".join(f"{n} {what}" for what, n in counts.items() if what != "ok") or "none"
        lines.append(f"| {moment} | {sum(counts.values())} | {counts['ok']} | {failures} |")
    failed = sum(n for counts in outcomes.values() for what, n in counts.items() if what != "ok")
    lines += ["", f"{failed} of {args.tries * len(MOMENTS)} tries failed."]
    body = "\n".join(lines) + "\n"
    print(body)
    if not args.no_write:
        results_md.replace_section(RESULTS, HEADING, body)
        print(f"wrote its section into {RESULTS.relative_to(HERE.parent)}")


if __name__ == "__main__":
    main()
