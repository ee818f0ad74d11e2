"""`python -m toyhw prompt` and `python -m toyhw evolve` (mock, --llm over a scripted local server, --replay)."""

import json
import subprocess
import sys

import pytest

from toyhw import cli


def run_json(capsys, *args):
    assert cli.main([*args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_prompt_prints_a_readable_prompt_with_its_size_and_the_mocks_answer(capsys):
    assert cli.main(["prompt", "--variant", "full", "--seed", "0", "--step", "100"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("[system]\n") and "\n[user]\n## Task\n" in out
    for heading in (
        "## The program language",
        "## Kernel knowledge",
        "## Current program",
        "## Other programs",
        "## Per-shape results",
        "## What to change",
        "## Answer format",
    ):
        assert heading in out
    assert "characters, about" in out and "what the mock LLM did" in out and "--- parent\n+++ child" in out


def test_prompt_json_and_the_variants_parts(capsys):
    full = run_json(capsys, "prompt", "--step", "30")
    assert set(full) == {
        "variant",
        "seed",
        "step",
        "answer",
        "messages",
        "parts",
        "chars",
        "tokens",
        "token_rule",
        "mock",
    }
    assert full["chars"] == sum(len(m["content"]) for m in full["messages"])
    assert set(full["mock"]) == {
        "description",
        "operator",
        "parent_score",
        "child_score",
        "child_source",
        "diff",
        "reply",
    }
    no_feedback = run_json(capsys, "prompt", "--variant", "no_feedback", "--step", "30")
    assert set(full["parts"]) - set(no_feedback["parts"]) == {"feedback"}
    program = run_json(capsys, "prompt", "--step", "30", "--answer", "program")
    assert "```python" in program["mock"]["reply"]


def test_evolve_with_the_mock_is_the_ablations_run(capsys):
    mine = run_json(capsys, "evolve", "--variant", "small_llm", "--seed", "2", "--budget", "60")
    theirs = run_json(capsys, "ablations", "--variants", "small_llm", "--seeds", "2", "--budget", "60")
    assert {k: mine[k] for k in theirs} == theirs
    assert mine["llm"]["kind"] == "mock" and mine["llm"]["calls"] == 0 and mine["llm"]["statuses"]["invalid"] == 0
    assert cli.main(["evolve", "--budget", "60"]) == 0
    out = capsys.readouterr().out
    assert "50 progs" in out and "proposals by the mock LLM (offline): ok" in out


def test_default_runs_never_import_openai_nor_touch_the_network():
    code = """
import socket, sys
def no_network(*args, **kwargs):
    raise AssertionError("a default run touched the network")
socket.socket.connect = no_network
socket.create_connection = no_network
from toyhw import cli
import toyhw.evolve.bridge.chat, toyhw.evolve.bridge.endpoint
assert cli.main(["evolve", "--budget", "30", "--json"]) == 0
assert cli.main(["prompt", "--step", "20", "--json"]) == 0
assert cli.main(["ablations", "--seeds", "0", "--budget", "20", "--variants", "full", "--json"]) == 0
assert "openai" not in sys.modules, "openai was imported"
"""
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, timeout=300)


def test_evolve_with_a_real_client_then_its_replay(capsys, tmp_path, monkeypatch):
    pytest.importorskip("openai")
    from scripted_server import ScriptedServer
    from test_chat import HOSTILE, ON_ANY_PARENT, SPLIT_K_DECODE, _local_only

    _local_only(monkeypatch)
    log = tmp_path / "run.jsonl"
    script = [("reply", SPLIT_K_DECODE), ("reply", HOSTILE), ("status", 429), ("reply", ON_ANY_PARENT), ("reply", "")]
    with ScriptedServer(script) as server:
        live = run_json(
            capsys,
            "evolve",
            "--variant",
            "fb_roofline",
            "--seed",
            "3",
            "--budget",
            "4",
            "--llm",
            server.url,
            "--model",
            "scripted",
            "--log",
            str(log),
            "--timeout",
            "2",
        )
    assert live["llm"]["kind"] == "chat" and live["llm"]["calls"] == 4 and live["llm"]["statuses"]["invalid"] == 2
    assert [f["step"] for f in live["llm"]["failures"]] == [2, 4]
    replayed = run_json(capsys, "evolve", "--replay", str(log))  # variant, seed and budget from the log
    assert replayed["variants"] == live["variants"] and replayed["llm"]["statuses"] == live["llm"]["statuses"]
    assert replayed["llm"]["kind"] == "replay" and replayed["llm"]["model"] == "scripted"
    assert cli.main(["evolve", "--replay", str(log)]) == 0
    assert "a replay of" in capsys.readouterr().out


@pytest.mark.parametrize(
    "args, message",
    [
        (["prompt", "--variant", "nope"], "unknown variant 'nope'"),
        (["evolve", "--log", "x.jsonl"], "--log needs --llm URL"),
        (["evolve", "--replay", "missing.jsonl"], "cannot read the log 'missing.jsonl'"),
        (["evolve", "--replay", "x.jsonl", "--llm", "http://127.0.0.1:9/v1"], "--replay replays a logged run"),
        (["evolve", "--llm", "http://127.0.0.1:9/v1"], "no model name"),
        (["evolve", "--llm"], "no LLM base URL"),
        (["evolve", "--llm", "127.0.0.1:8000", "--model", "m"], "base_url = '127.0.0.1:8000' is not allowed"),
    ],
)
def test_bad_input_exits_2_naming_it(args, message, capsys, monkeypatch):
    for name in ("TOYHW_LLM_BASE_URL", "TOYHW_LLM_MODEL"):
        monkeypatch.delenv(name, raising=False)
    assert cli.main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"python -m toyhw {args[0]}: error: ") and message in err and err.count("\n") == 1


def test_llm_without_the_openai_package_names_the_extra(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "openai", None)
    assert cli.main(["evolve", "--llm", "http://127.0.0.1:9/v1", "--model", "m"]) == 2
    assert "pip install -e '.[llm]'" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv, message",
    [
        (["evolve", "--attempts", "0"], "--attempts = '0' is not allowed; give a number in [1, 10]"),
        (["evolve", "--budget", "0"], "--budget = 0 is not allowed"),
        (
            ["evolve", "--llm", "http://127.0.0.1:9/v1", "--model", "m", "--timeout", "0"],
            "--timeout = '0' is not allowed",
        ),
        (["evolve", "--timeout", "-1"], "--timeout = '-1' is not allowed; give a number in (0, 3,600]"),
        (["evolve", "--timeout", "nan"], "--timeout = 'nan' is not allowed"),
        (["evolve", "--temperature", "3"], "--temperature = '3' is not allowed; give a number in [0, 2]"),
        (["evolve", "--max-tokens", "0"], "--max-tokens = '0' is not allowed; give a number in [1, 1,000,000]"),
        (["evolve", "--seed", "-1"], "--seed = -1 is not allowed"),
        (["prompt", "--step", "0"], "--step = 0 is not allowed"),
        (["prompt", "--seed", "-2"], "--seed = -2 is not allowed"),
    ],
)
def test_every_option_of_prompt_and_evolve_is_range_checked(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(argv)
    assert exit_.value.code == 2 and message in capsys.readouterr().err
