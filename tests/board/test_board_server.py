"""The class leaderboard end to end (issue 36): a real `board serve` process on a free loopback port, 30 submissions
from 30 threads (right, wrong and hostile), every valid one ranked with the score the package computes directly, every
invalid one refused in one line, the database intact after kill -9 and a restart, no submitted code ever run, and
nothing listening once the command has ended."""

from __future__ import annotations

import concurrent.futures
import json
import socket
import sqlite3
import urllib.error
import urllib.request

import pytest

from board_server import start
from toyhw.course.board import client
from toyhw.course.board.shapes import held_out_shapes, train_shapes
from toyhw.evolve.evaluator import geomean_speedup
from toyhw.evolve.experiments import ablations
from toyhw.evolve.programs import expert_program, render
from toyhw.evolve.source import parse

EXPERT = render(expert_program())
CONFIG = "return Config(block_m={bm}, block_n={bn}, block_k={bk}, num_warps={w}, num_stages={s}, split_k={k})"


def _program(rules: list[tuple[str, tuple]], default: tuple = (128, 256, 64, 8, 3, 1)) -> str:
    lines = ["def choose(M, N, K):"]
    for cond, (bm, bn, bk, w, s, k) in rules:
        lines += [f"    if {cond}:", "        " + CONFIG.format(bm=bm, bn=bn, bk=bk, w=w, s=s, k=k)]
    bm, bn, bk, w, s, k = default
    lines.append("    " + CONFIG.format(bm=bm, bn=bn, bk=bk, w=w, s=s, k=k))
    return "\n".join(lines) + "\n"


DECODE, MID = (16, 64, 256, 4, 5, 1), (64, 64, 128, 4, 4, 1)
VALID = {
    "Ada": EXPERT,
    "Grace": _program([("M <= 16", DECODE), ("M <= 256", MID)]),
    "Alan": _program([("M <= 16 and N <= 2048", (16, 32, 256, 2, 5, 4)), ("M <= 16", DECODE), ("M <= 128", MID)]),
    "Barbara": _program([("M <= 8", DECODE), ("M <= 64", MID), ("M <= 512", (128, 128, 64, 4, 3, 1))]),
    "Edsger": _program([("M <= 16", DECODE), ("M <= 128 and K >= 8192", (64, 64, 128, 4, 4, 2)), ("M <= 128", MID)]),
    "Robert'); DROP TABLE entries;--": _program([("M <= 32", DECODE)]),
    "1 OR 1=1; SELECT * FROM meta": _program([("M <= 16", DECODE), ("M <= 1024", MID)]),
    "李华": _program([("M <= 4", (16, 32, 256, 2, 5, 4)), ("M <= 16", DECODE), ("M <= 128", MID)]),
    "evolved copy": render(ablations.run_one("full", 0, 1000).best),
    "Tab\tName": _program([("M <= 16", DECODE), ("M <= 96", MID)]),  # a tab: refused (control character)
}
VALID_NAMES = [n for n in VALID if "\t" not in n]


def _wrong(canary) -> dict[str, str]:
    """Programs outside the rule language or with a branch that cannot launch: each refused with the parser's line."""
    return {
        "syntax": "def choose(M, N, K):\n    if M <= 16\n        return Config()\n",
        "bad branch": _program([("3000 <= M <= 4000", (128, 256, 64, 8, 5, 1))]),
        "or": _program([("M <= 16 or N <= 2048", DECODE)]),
        "no default": "def choose(M, N, K):\n    if M <= 16:\n        "
        + CONFIG.format(bm=16, bn=64, bk=256, w=4, s=5, k=1),
        "import": f"def choose(M, N, K):\n    __import__('os').system('touch {canary}')\n    return Config()\n",
        "top-level code": f"open({str(canary)!r}, 'w').write('ran')\n" + EXPERT,
        "eval in a bound": f"def choose(M, N, K):\n    if M <= eval(\"open({str(canary)!r},'w')\"):\n"
        "        return Config()\n    return Config()\n",
        "huge": "def choose(M, N, K):\n" + "    # padding\n" * 20_000 + "    return Config()\n",
        "deep brackets": "def choose(M, N, K):\n    return Config(" + "(" * 5000 + "1" + ")" * 5000 + ")\n",
        "deep ifs": "def choose(M, N, K):\n"
        + "".join("    " * (i + 1) + "if M > 0:\n" for i in range(80))
        + "    " * 81
        + "return Config()\n    return Config()\n",
        "null byte": "def choose(M, N, K):\n    return Config()\x00\n",
    }


def _raw(url: str, body: bytes, headers: dict | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(url + "/api/submit", data=body, method="POST", headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def _hostile_bodies(code: str) -> dict[str, bytes]:
    """Bodies no client would send: not UTF-8, a lone surrogate, too big, nested JSON, not an object, extra fields."""
    good = {"source": EXPERT, "name": "raw", "code": code}
    return {
        "not utf-8": b'{"source": "def choose(M, N, K):\xff\xfe", "name": "raw1", "code": "' + code.encode() + b'"}',
        "lone surrogate": json.dumps({**good, "name": "raw2", "source": "\ud800"}).encode(),
        "too big": json.dumps({**good, "name": "raw3", "source": "x" * 1_000_000}).encode(),
        "nested json": b"[" * 200_000 + b"]" * 200_000,
        "not an object": b'"just a string"',
        "extra field": json.dumps({**good, "name": "raw4", "exec": "print(1)"}).encode(),
        "control name": json.dumps({**good, "name": "\x1b[2J\x1b[31mred"}).encode(),
        "empty name": json.dumps({**good, "name": "   "}).encode(),
    }


def _one_line(text: str) -> bool:
    return bool(text) and "\n" not in text and "\r" not in text and "Traceback" not in text


def _board_rows(url: str) -> list[dict]:
    return client.fetch_board(url)["rows"]


def _direct(source: str) -> tuple[float, float]:
    program = parse(source)
    table = ablations.context().table
    return geomean_speedup(program, held_out_shapes(), table), geomean_speedup(program, train_shapes(), table)


def _refused_port(url: str) -> bool:
    host, port = url.removeprefix("http://").rsplit(":", 1)
    with socket.socket() as sock:
        sock.settimeout(2)
        return sock.connect_ex((host, int(port))) != 0


def test_thirty_submissions_from_thirty_threads_survive_kill_9_and_run_no_code(tmp_path):
    canary = tmp_path / "CANARY"
    db = tmp_path / "board.sqlite3"
    board = start(db, tmp_path / "board-1.log")
    try:
        jobs: list[tuple[str, str, object]] = []  # (label, what, payload)
        for name, source in VALID.items():
            jobs.append((name, "client", (source, name, board.code)))
        for label, source in _wrong(canary).items():
            jobs.append((label, "client", (source, f"wrong {label}", board.code)))
        jobs.append(("wrong code", "client", (EXPERT, "Mallory", "AAAA-AAAA")))
        for label, body in _hostile_bodies(board.code).items():
            jobs.append((label, "raw", body))
        assert len(jobs) == 30

        def run(job):
            label, what, payload = job
            if what == "client":
                source, name, code = payload
                verdict = client.submit(source, name=name, url=board.url, code=code)
                return label, verdict.ok, str(verdict)
            status, answer = _raw(board.url, payload, {"Content-Type": "application/json"})
            return label, answer["ok"], f"{status} {answer['message']}"

        with concurrent.futures.ThreadPoolExecutor(max_workers=30) as pool:
            results = list(pool.map(run, jobs))
        outcome = {label: (ok, line) for label, ok, line in results}
        for label, (ok, line) in outcome.items():
            assert _one_line(line), f"{label}: not one line: {line!r}"
            assert ok == (label in VALID_NAMES), f"{label}: {line}"
        assert "cannot launch" in outcome["bad branch"][1] and "line 3" in outcome["bad branch"][1]
        assert "MAX_SOURCE_CHARS" in outcome["huge"][1] and "MAX_NESTING" in outcome["deep ifs"][1]
        assert "wrong class code" in outcome["wrong code"][1]
        assert outcome["too big"][1].startswith("413 ") and outcome["not utf-8"][1].startswith("400 ")

        rows = _board_rows(board.url)
        students = {r["name"]: r for r in rows if r["kind"] == "student"}
        assert sorted(students) == sorted(VALID_NAMES), "every valid submission is on the board, nothing else"
        for name in VALID_NAMES:
            assert (students[name]["held_out"], students[name]["train"]) == _direct(VALID[name]), name
        assert [r["rank"] for r in rows] == list(range(1, len(rows) + 1))
        assert [r["held_out"] for r in rows] == sorted((r["held_out"] for r in rows), reverse=True)
        assert {r["kind"] for r in rows} == {"student", "oracle", "evolved", "expert"}

        board.kill_9()
        assert _refused_port(board.url), "nothing listens after kill -9"
        with sqlite3.connect(db) as con:
            assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        again = start(db, tmp_path / "board-2.log")
        try:
            assert again.code == board.code, "a restarted board keeps its class code"
            assert _board_rows(again.url) == rows, "a restarted board keeps every entry"
        finally:
            assert again.stop() == 0
        assert _refused_port(again.url), "nothing listens after the command ends"
        last = json.loads(again.log.read_text(encoding="utf-8").splitlines()[-1])
        assert last["entries"] == len(VALID_NAMES) and last["code"] == board.code
    finally:
        board.stop()
    assert not canary.exists(), "a submission's code ran"
    assert not list(tmp_path.glob("CANARY*"))


@pytest.mark.parametrize(
    "argv, expected",
    [
        (["--port", "70000"], "--port = '70000' is not allowed; give a port from 1024 to 65535"),
        (["--port", "eighty"], "--port = 'eighty' is not allowed; give a port"),
        (["--host", "the.room"], "--host = 'the.room' is not allowed; give an IP address of this machine"),
        (["--host", "192.0.2.1"], "--host = '192.0.2.1' is not allowed; it is not an address of this machine"),
        (
            ["--db", "/no/such/folder/board.sqlite3"],
            "--db = '/no/such/folder/board.sqlite3' is not allowed; its folder",
        ),
        (["--wait", "-1"], "--wait = '-1' is not allowed; give a number in [0, 3,600]"),
    ],
)
def test_a_bad_option_is_one_line_naming_it_and_exit_2(argv, expected, tmp_path):
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-m", "toyhw", "board", "serve", "--db", str(tmp_path / "b.sqlite3"), *argv],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    if argv[0] != "--wait":  # checked when the board starts, not by argparse: no usage line either
        assert len(proc.stderr.splitlines()) == 1, proc.stderr
    last = proc.stderr.splitlines()[-1]
    assert last.startswith("python -m toyhw board: error: ") and expected in last, proc.stderr


def _serve_error(*argv: str) -> str:
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "toyhw", "board", *argv], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stdout == "" and "Traceback" not in proc.stderr, proc.stderr
    assert len(proc.stderr.splitlines()) == 1, proc.stderr
    return proc.stderr


def test_a_port_in_use_a_folder_a_file_that_is_no_board_and_no_action_are_one_line_each(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        err = _serve_error("serve", "--port", str(port), "--db", str(tmp_path / "b.sqlite3"))
        assert f"--port = {port} is not allowed; 127.0.0.1:{port} is in use" in err
    assert "it is a folder" in _serve_error("serve", "--port", "0", "--db", str(tmp_path))
    text = tmp_path / "notes.txt"
    text.write_text("not a database, just notes\n" * 100)
    assert "is not a board's SQLite database" in _serve_error("serve", "--port", "0", "--db", str(text))
    assert "action = nothing is not allowed; give one of: serve" in _serve_error()
    assert "action = 'stop' is not allowed" in _serve_error("stop")
