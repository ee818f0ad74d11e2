"""Where `python -m toyhw` writes, and what it never writes: a full disk or a closed stdout is one line and exit 1
(never a traceback), and a value shaped like an API key - pasted as --model, as a stray argument or as a name - is
refused or replaced by "***", never echoed."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from toyhw import cli
from toyhw.evolve.bridge.endpoint import Endpoint, looks_like_key

KEY = "sk-proj-Qx7vT2mZ9kLp4Rw8Yb3Nc6Hd1Fg5Js0A"
"""A made-up key of OpenAI's shape."""


def toyhw(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "toyhw", *args], capture_output=True, text=True, **kwargs)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="/dev/full is Linux's")
@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_a_full_disk_is_one_line_and_exit_1(json_flag):
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "toyhw", "fastp", "--tasks", "5", *json_flag], stdout=full, stderr=subprocess.PIPE
        )
    err = proc.stderr.decode()
    assert proc.returncode == 1 and "Traceback" not in err and "Exception ignored" not in err
    assert err == "python -m toyhw fastp: error: cannot write the output (No space left on device)\n"


def test_a_closed_stdout_is_one_line_and_exit_1():
    proc = subprocess.run(
        [sys.executable, "-m", "toyhw", "fastp", "--tasks", "5"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        pass_fds=(), preexec_fn=lambda: os.close(1),
    )  # fmt: skip
    assert proc.returncode == 1
    assert proc.stderr.decode() == "python -m toyhw fastp: error: cannot write the output: stdout is closed\n"


def test_a_closed_stderr_with_bad_input_still_exits_2_and_writes_nothing_to_stdout():
    proc = subprocess.run(
        [sys.executable, "-m", "toyhw", "fastp", "--lang", "fr"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        preexec_fn=lambda: os.close(2),
    )  # fmt: skip
    assert proc.returncode == 2 and proc.stdout == b""


MODEL_NAMES = [
    "m",
    "Qwen/Qwen2.5-Coder-7B-Instruct",
    "llama3.1:8b-instruct-q4_K_M",
    "meta-llama/Meta-Llama-3.1-70B-Instruct",
    "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B",
    "hf.co/bartowski/Llama-3.2-3B-Instruct-GGUF:Q4_K_M",
    "claude-3-5-sonnet-20241022",
    "mistralai/Mixtral-8x22B-Instruct-v0.1",
    "Qwen2.5-Coder-32B-Instruct-GPTQ-Int4",
    "gpt-4o-2024-08-06",
    "skywork/Skywork-o1-Open-Llama-3.1-8B",
]
KEYS = [
    KEY,
    "sk-ant-api03-abcdefghijklmnop",
    "ghp_1234567890abcdefghijklmnopqrstuvwxyz",
    "hf_AbCdEfGhIjKlMnOpQrStUvWxYz",
    "gsk_0123456789abcdef",
    "AKIAIOSFODNN7EXAMPLE",
    "Bearer abcdefgh12345678",
    "3f9a8c7d6e5b4a3928171615141312110a0b0c0d",  # a hex token
    "AbCdEfGh1234IjKlMnOp5678QrSt",  # a base62 token
]


@pytest.mark.parametrize("name", MODEL_NAMES)
def test_model_names_are_not_taken_for_keys(name):
    assert not looks_like_key(name)
    assert Endpoint("http://127.0.0.1:9/v1", name).model == name


@pytest.mark.parametrize("key", KEYS)
def test_key_shaped_values_are_refused_as_a_model_without_being_quoted(key):
    assert looks_like_key(key)
    with pytest.raises(ValueError, match=r"^model is not allowed: it is shaped like an API key") as err:
        Endpoint("http://127.0.0.1:9/v1", key)
    assert key not in str(err.value) and key[8:] not in str(err.value)


def test_a_key_pasted_as_model_is_never_printed_by_the_command_line():
    """Neither in the error, nor in a table (the run never starts), however it reaches the command."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TOYHW_LLM", "OPENAI"))}
    runs = [
        toyhw("evolve", "--llm", "http://127.0.0.1:9/v1", "--model", KEY, "--budget", "1", env=env),
        toyhw("evolve", "--llm", "http://127.0.0.1:9/v1", f"--model={KEY}", env=env),
        toyhw("evolve", "--llm", "http://127.0.0.1:9/v1", env={**env, "TOYHW_LLM_MODEL": KEY}),
    ]
    for proc in runs:
        assert proc.returncode == 2 and proc.stdout == "" and proc.stderr.count("\n") == 1
        assert "shaped like an API key" in proc.stderr and KEY[3:] not in proc.stderr


@pytest.mark.parametrize(
    "args",
    [["evolve", KEY], ["evolve", "--variant", KEY], ["ablations", "--variants", f"full,{KEY}"], ["gemm", "--gpu", KEY]],
)
def test_a_key_in_any_error_line_is_replaced_by_stars(args):
    proc = toyhw(*args)
    assert (
        proc.returncode == 2 and "***" in proc.stderr and KEY[3:] not in proc.stderr and "Traceback" not in proc.stderr
    )


def test_scrub_keeps_everything_but_the_key():
    message = f"unknown variant '{KEY}'; known: full, no_feedback (file run.jsonl, line 3)"
    assert cli._scrub(message) == "unknown variant '***'; known: full, no_feedback (file run.jsonl, line 3)"
