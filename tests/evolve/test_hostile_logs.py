"""Logs and --log paths that are wrong: every malformed log is refused with one line naming the file and the line, only
regular files are replayed, a replay takes its run from the log, and a log that cannot be written stops the run
before the first call (or, when its folder vanishes mid-run, saves the calls so far)."""

import json
import os
import sys

import pytest

pytest.importorskip("openai")

from scripted_server import ScriptedServer  # noqa: E402
from test_chat import ON_ANY_PARENT, SPLIT_K_DECODE, _local_only  # noqa: E402

from toyhw import cli  # noqa: E402


@pytest.fixture(autouse=True)
def local_only(monkeypatch):
    _local_only(monkeypatch)


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """Return the path of a 2-call log of variant fb_roofline, seed 3."""
    log = tmp_path_factory.mktemp("logs") / "run.jsonl"
    with (
        pytest.MonkeyPatch.context() as monkeypatch,
        ScriptedServer([("reply", SPLIT_K_DECODE), ("reply", ON_ANY_PARENT)]) as server,
    ):
        _local_only(monkeypatch)
        assert (
            cli.main(
                [
                    "evolve",
                    "--variant",
                    "fb_roofline",
                    "--seed",
                    "3",
                    "--budget",
                    "2",
                    "--llm",
                    server.url,
                    "--model",
                    "m",
                    "--log",
                    str(log),
                    "--json",
                ]
            )
            == 0
        )
    return log


def error_line(capsys, *argv):
    assert cli.main(list(argv)) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"python -m toyhw {argv[0]}: error: ") and err.count("\n") == 1, err
    return err


def edited(recorded, tmp_path, line, change):
    """Return a copy of the log with `change(record)` applied to its line `line` (1 = the header)."""
    lines = recorded.read_text().splitlines()
    record = json.loads(lines[line - 1])
    change(record)
    lines[line - 1] = json.dumps(record)
    path = tmp_path / "edited.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_replay_takes_its_run_from_the_log_and_refuses_options_that_contradict_it(recorded, capsys):
    assert cli.main(["evolve", "--replay", str(recorded), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out["variants"]) == ["fb_roofline"] and out["seeds"] == [3] and out["budget"] == 2
    for option, value, logged in (
        ("--variant", "no_feedback", "fb_roofline"),
        ("--variant", "full", "fb_roofline"),
        ("--seed", "0", "3"),
    ):
        err = error_line(capsys, "evolve", "--replay", str(recorded), option, value)
        assert f"{option} {value} contradicts" in err and f"{option} {logged}" in err
    err = error_line(capsys, "evolve", "--replay", str(recorded), "--budget", "3")
    assert "--budget 3" in err and "holds (2)" in err
    assert cli.main(["evolve", "--replay", str(recorded), "--budget", "1", "--variant", "fb_roofline"]) == 0
    capsys.readouterr()


@pytest.mark.parametrize(
    "option",
    [
        ["--timeout", "5"],
        ["--attempts", "2"],
        ["--temperature", "0"],
        ["--max-tokens", "9"],
        ["--answer", "program"],
        ["--model", "m"],
        ["--log", "x.jsonl"],
    ],
)
def test_call_options_are_refused_without_llm_and_with_replay(option, recorded, capsys):
    assert f"{option[0]} needs --llm URL" in error_line(capsys, "evolve", *option)
    assert f"it takes no {option[0]}" in error_line(capsys, "evolve", "--replay", str(recorded), *option)


BAD_LINES = [
    (2, lambda r: r.update(reply=5), "line 2: reply = 5 is not allowed"),
    (2, lambda r: r.update(attempts="many"), "line 2: attempts = 'many'"),
    (2, lambda r: r.update(attempts=[3]), "line 2: attempts[0] = 3"),
    (2, lambda r: r.update(messages="hi"), "line 2: messages = 'hi'"),
    (2, lambda r: r.update(messages=[{"role": "user"}]), "line 2: messages[0].content = None"),
    (3, lambda r: r.update(step=7), "line 3: expected the record of call 2"),
    (1, lambda r: r.update(endpoint="x"), "line 1: endpoint = 'x'"),
    (1, lambda r: r.update(endpoint={"model": 3}), "line 1: endpoint.model = 3"),
    (1, lambda r: r.pop("settings"), "line 1: the header's settings = None"),
    (1, lambda r: r.update(settings=None), "line 1: the header's settings = None"),
    (1, lambda r: r["settings"].update(colour="red"), "unknown 'colour'"),
    (1, lambda r: r["settings"].pop("focus"), "missing 'focus'"),
    (1, lambda r: r.update(seed="3"), "line 1: seed = '3'"),
    (1, lambda r: r.update(variant=None), "line 1: variant = None"),
]


@pytest.mark.parametrize("line, change, message", BAD_LINES)
def test_a_malformed_log_is_refused_naming_the_file_line_and_field(line, change, message, recorded, tmp_path, capsys):
    path = edited(recorded, tmp_path, line, change)
    err = error_line(capsys, "evolve", "--replay", str(path))
    assert str(path) in err and message in err


def test_bad_encodings_nesting_and_non_logs_are_refused_naming_the_line(recorded, tmp_path, capsys):
    lines = recorded.read_bytes().splitlines()
    cases = {
        "latin1.jsonl": (lines[0] + b"\n" + lines[1].replace(b"Split", b"Spl\xe9t") + b"\n", "line 2: byte 0xe9"),
        "deep.jsonl": (lines[0] + b"\n" + b"[" * 100_000 + b"]" * 100_000 + b"\n", "line 2: JSON nested"),
        "other.jsonl": (b'{"kind": "run"}\n', "is not a toyhw LLM log"),
    }
    for name, (content, message) in cases.items():
        path = tmp_path / name
        path.write_bytes(content)
        err = error_line(capsys, "evolve", "--replay", str(path))
        assert str(path) in err and message in err


@pytest.mark.timeout(60)
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_only_regular_files_are_replayed(tmp_path, capsys):
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    for path in (str(fifo), "/dev/zero", str(tmp_path)):
        if os.path.exists(path):
            assert "not a regular file" in error_line(capsys, "evolve", "--replay", path)


def test_a_log_larger_than_any_run_writes_is_refused(tmp_path, capsys, monkeypatch):
    from toyhw.evolve.bridge import chatlog

    monkeypatch.setattr(chatlog, "MAX_LOG_BYTES", 1000)
    path = tmp_path / "big.jsonl"
    path.write_text("x" * 1001)
    assert "larger than 1,000 bytes" in error_line(capsys, "evolve", "--replay", str(path))


@pytest.mark.parametrize(
    "where, message",
    [
        ("missing/run.jsonl", "No such file or directory"),
        ("", "No such file or directory"),
        ("x" * 300 + ".jsonl", "File name too long"),
        ("ro/run.jsonl", "Permission denied"),
    ],
)
def test_a_log_that_cannot_be_created_stops_the_run_before_the_first_call(
    where, message, tmp_path, capsys, monkeypatch
):
    if where.startswith("ro/"):
        if os.geteuid() == 0:
            pytest.skip("root writes to read-only folders")
        (tmp_path / "ro").mkdir(mode=0o500)
    monkeypatch.chdir(tmp_path)
    with ScriptedServer([]) as server:
        err = error_line(capsys, "evolve", "--budget", "2", "--llm", server.url, "--model", "m", "--log", where)
    assert "cannot create the log" in err and message in err and server.requests == []


def test_a_log_whose_folder_vanishes_mid_run_keeps_the_calls_so_far(tmp_path, capsys, monkeypatch):
    import shutil
    import tempfile

    folder = tmp_path / "logs"
    folder.mkdir()
    rescued = tmp_path / "tmp"
    rescued.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(rescued))
    from toyhw.evolve.bridge import chat

    step = chat.PromptedLLM.__call__

    def vanish_after_the_first(self, *args):
        if self.calls == 1:
            shutil.rmtree(folder)
        return step(self, *args)

    monkeypatch.setattr(chat.PromptedLLM, "__call__", vanish_after_the_first)
    with ScriptedServer([("reply", SPLIT_K_DECODE), ("reply", ON_ANY_PARENT)]) as server:
        err = error_line(
            capsys, "evolve", "--budget", "3", "--llm", server.url, "--model", "m", "--log", str(folder / "run.jsonl")
        )
    saved = list(rescued.iterdir())
    assert "could not be written" in err and "the 2 calls so far are saved in" in err and str(saved[0]) in err
    lines = saved[0].read_text().splitlines()
    assert len(lines) == 3 and [json.loads(line)["step"] for line in lines[1:]] == [1, 2]  # the header, calls 1-2
    assert len(server.requests) == 2  # the run stopped when call 2's record found the log gone


def test_no_traceback_for_any_of_these(recorded):
    import subprocess

    out = subprocess.run(
        [sys.executable, "-m", "toyhw", "evolve", "--replay", "/dev/zero"], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 2 and "Traceback" not in out.stderr and out.stderr.count("\n") == 1


def test_the_readme_quotes_the_limits_the_code_has():
    import pathlib
    from toyhw.evolve.bridge.chatlog import LOG_PREFIX_CHARS, MAX_LOG_BYTES
    from toyhw.evolve.bridge.replies import MAX_REPLY_CHARS

    readme = (pathlib.Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("### A real model in the loop") : readme.index("### Sweeps")]
    assert f"longer than {MAX_REPLY_CHARS:,} characters" in section
    assert f"first {LOG_PREFIX_CHARS:,} characters" in section
    assert f"at most\n  {MAX_LOG_BYTES // 2**20} MB" in section or f"at most {MAX_LOG_BYTES // 2**20} MB" in section


def raw_edited(recorded, tmp_path, line, old, new):
    """Return a copy of the log with the text `old` of its line `line` replaced by `new` (JSON no writer makes)."""
    lines = recorded.read_text().splitlines()
    assert old in lines[line - 1]
    lines[line - 1] = lines[line - 1].replace(old, new, 1)
    path = tmp_path / "raw.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


KEY = "sk-proj-Qx7vT2mZ9kLp4Rw8Yb3Nc6Hd1Fg5Js0A"
HOSTILE_VALUES = [  # (line, text replaced, by, what the one line says after "FILE, line N: ")
    (1, '"budget": 2', '"budget": 0', "the header's budget = 0 is not allowed; it must be an integer >= 1"),
    (1, '"budget": 2', '"budget": -5', "the header's budget = -5 is not allowed; it must be an integer >= 1"),
    (1, '"budget": 2', '"budget": 1' + "0" * 4000, "a number of 4,001 digits (1000000000"),
    (1, '"budget": 2', '"budget": ' + "9" * 6000, "a number of 6,000 digits (9999999999"),
    (1, '"budget": 2', '"budget": 1e400', "1e400 is not allowed; it is beyond a float's range"),
    (1, '"budget": 2', '"budget": NaN', "NaN is not allowed; a log's numbers are finite"),
    (1, '"seed": 3', '"seed": -1', "the header's seed = -1 is not allowed; a seed must be an integer >= 0"),
    (1, '"seed": 3', '"seed": ' + "7" * 6000, "a number of 6,000 digits (7777777777"),
    (1, '"seed": 3', '"seed": 4294967296', "the header's seed = 4294967296 is not allowed"),
    (
        1,
        '"variant": "fb_roofline"',
        '"variant": "nonesuch"',
        "the header's variant = 'nonesuch' is not allowed; known: full",
    ),
    (1, '"variant": "fb_roofline"', '"variant": "' + "x" * 500 + '"', "the header's variant = 'xxxxxxxx"),
    (1, '"seed": 3', '"seed": 3, "seed": 4', "the key 'seed' appears twice in one record"),
    (2, '"step": 1', '"step": 1, "reply": "a", "reply": "b"', "the key 'reply' appears twice in one record"),
    (2, '"role": "system"', '"role": "system", "role": "user"', "the key 'role' appears twice in one record"),
    (2, '"step": 1', '"step": true', "expected the record of call 1"),
    (1, '"model": "m"', f'"model": "{KEY}"', "endpoint.model is not allowed: it is shaped like an API key"),
    (2, '"model": "m"', f'"model": "{KEY}"', "model is not allowed: it is shaped like an API key"),
]


@pytest.mark.parametrize("line, old, new, message", HOSTILE_VALUES)
def test_a_hostile_value_is_the_logs_fault_in_one_short_line(line, old, new, message, recorded, tmp_path, capsys):
    """Not Python's own message, not as if the reader's option were wrong: the file, the line, the value cut to a
    few dozen characters (a key: not at all); the log is left as it was."""
    path = raw_edited(recorded, tmp_path, line, old, new)
    before = path.read_bytes()
    err = error_line(capsys, "evolve", "--replay", str(path))
    assert err.startswith(f"python -m toyhw evolve: error: {path}, line {line}: {message}"), err
    assert len(err) < len(str(path)) + 330 and "--budget" not in err and "--seed" not in err
    assert KEY[3:] not in err and "Exceeds the limit" not in err and "sys.set_int_max_str_digits" not in err
    assert path.read_bytes() == before
    assert cli.main(["evolve", "--replay", str(recorded), "--json"]) == 0  # the log it came from still replays
    capsys.readouterr()
