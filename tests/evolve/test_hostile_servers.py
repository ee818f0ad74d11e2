"""Servers that misbehave, over real HTTP on 127.0.0.1: a try ends at its deadline whatever the server sends, a reply
too long is refused unread (memory and log stay small), odd 200 bodies are failed proposals with their reason, and
keys or URL credentials never reach stderr, the JSON or the log."""

import json
import subprocess
import sys
import textwrap
import time

import pytest

pytest.importorskip("openai")

from scripted_server import ScriptedServer, completion  # noqa: E402
from test_chat import SPLIT_K_DECODE, _local_only, endpoint  # noqa: E402

from toyhw import cli  # noqa: E402
from toyhw.evolve.experiments import ablations  # noqa: E402
from toyhw.evolve.bridge.chat import ChatLLM  # noqa: E402
from toyhw.evolve.bridge.chatlog import read_log  # noqa: E402
from toyhw.evolve.bridge.endpoint import (  # noqa: E402
    MAX_BODY_BYTES,
    ChatClient,
    Endpoint,
    EndpointUnavailable,
    read_completion,
)
from toyhw.evolve.bridge.prompt import settings_for  # noqa: E402
from toyhw.evolve.bridge.replies import MAX_REPLY_CHARS  # noqa: E402

KEY = "sk-test-0123456789abcdef"
MESSAGES = [{"role": "user", "content": "hi"}]


@pytest.fixture(autouse=True)
def local_only(monkeypatch):
    _local_only(monkeypatch)


def test_the_reply_limit_stays_at_least_80000_characters():
    assert MAX_REPLY_CHARS >= 80_000 and MAX_BODY_BYTES >= 6 * MAX_REPLY_CHARS


@pytest.mark.timeout(60)
def test_a_trickling_server_is_cut_off_at_the_tries_deadline():
    with ScriptedServer([("trickle", 0.2)] * 2) as server:
        client = ChatClient(endpoint(server, timeout=1.0, attempts=2, backoff=0.0))
        start = time.monotonic()
        reply = client.complete(MESSAGES)
        took = time.monotonic() - start
    assert reply.text is None and len(reply.attempts) == 2 and "timeout" in reply.attempts[0].error
    assert took < 2 * 1.0 + 3  # attempts x timeout + a few seconds, whatever the server sends
    assert all(a.seconds < 1.0 + 1.5 for a in reply.attempts)


@pytest.mark.timeout(120)
def test_an_endless_reply_is_refused_unread_and_the_log_stays_small(tmp_path):
    log = tmp_path / "run.jsonl"
    with ScriptedServer([("chunked", 1024), ("reply", "x" * (MAX_REPLY_CHARS + 5))]) as server:
        llm = ChatLLM(
            endpoint(server, timeout=20),
            settings_for("full"),
            log=str(log),
            header={"variant": "full", "seed": 0, "budget": 2},
        )
        run = ablations.run_variant("full", 0, 2, llm)
    assert run.statuses["invalid"] == 2
    (s1, r1), (s2, r2) = llm.failures
    assert f"longer than {MAX_BODY_BYTES:,} bytes" in r1 and "at most" in r1
    assert f"the reply is {MAX_REPLY_CHARS + 5:,} characters" in r2
    assert log.stat().st_size < 200_000  # a prefix of the long reply, with its length
    _, records = read_log(log)
    assert records[0]["oversized"] and records[0]["reply"] is None
    assert records[1]["reply_chars"] == MAX_REPLY_CHARS + 5 and len(records[1]["reply"]) < MAX_REPLY_CHARS
    from toyhw.evolve.bridge.chat import ReplayLLM

    replay = ReplayLLM(log)
    again = ablations.run_variant("full", 0, 2, replay)
    assert replay.failures == llm.failures and again.history == run.history


PEAK = textwrap.dedent("""
    import sys
    sys.path.insert(0, sys.argv[2])
    from toyhw.evolve.bridge.endpoint import ChatClient, Endpoint
    reply = ChatClient(Endpoint(sys.argv[1], "m", timeout=60, attempts=1)).complete([{"role": "user", "content": "x"}])
    assert reply.oversized, reply
    status = open("/proc/self/status").read().split("\\n")
    print(next(line.split()[1] for line in status if line.startswith("VmHWM:")))
""")
"""The client's peak resident memory in kB: VmHWM, this process's own. Not getrusage's ru_maxrss, which Linux carries
over from the forked parent across exec, so that under a full test run (a pytest process of 500 MB) it reported the
parent's size, not the client's."""


@pytest.mark.timeout(180)
def test_a_1_gb_chunked_reply_costs_little_memory(tmp_path):
    import pathlib

    with ScriptedServer([("chunked", 1024)]) as server:
        out = subprocess.run(
            [sys.executable, "-c", PEAK, server.url, str(pathlib.Path(__file__).parent)],
            capture_output=True,
            text=True,
            timeout=150,
        )
    assert out.returncode == 0, out.stderr
    peak_mb = int(out.stdout.split()[-1]) / 1024
    print(f"peak RSS for a 1 GB chunked reply: {peak_mb:.0f} MB")
    assert peak_mb < 400  # the interpreter, numpy-free imports and openai: far from the 1 GB sent


ODD = [
    (("raw", 200, "text/plain", "hello there"), "not JSON"),
    (("raw", 200, "application/json", '"hello"'), "not an object"),
    (("raw", 200, "application/json", "null"), "not an object"),
    (("raw", 200, "application/json", "[1, 2]"), "not an object"),
    (("raw", 200, "application/json", "{not json"), "not JSON"),
    (("raw", 200, "application/json", "[" * 100_000 + "]" * 100_000), "nested too deeply"),
    (("raw", 200, "application/json", json.dumps({"choices": "no"})), "no list of choices"),
    (("raw", 200, "application/json", json.dumps({"choices": [{"message": "hi"}]})), "without a message"),
    (("raw", 200, "application/json", json.dumps({"choices": [{"message": {"content": 3}}]})), "not text: 3"),
    (("raw", 200, "application/json", json.dumps({"choices": [{"message": {"content": {"a": 1}}}]})), "not text"),
    (("raw", 200, "application/json", b"\xff\xfe"), "not UTF-8"),
]


@pytest.mark.parametrize("action, reason", ODD)
def test_odd_200_bodies_are_failed_proposals_naming_the_endpoint_and_what_came_back(action, reason):
    with ScriptedServer([action]) as server:
        reply = ChatClient(endpoint(server)).complete(MESSAGES)
    assert reply.text is None and len(reply.attempts) == 1  # not retried: asking again gets the same
    assert reason in reply.error and server.url.split("/v1")[0] in reply.error and "HTTP 200" in reply.error


def test_list_of_parts_content_is_read_as_text():
    parts = completion("")
    parts["choices"][0]["message"]["content"] = [
        {"type": "text", "text": "Split-K.\n"},
        {"type": "image_url", "image_url": {}},
        {"type": "text", "text": "ok"},
    ]
    assert read_completion(json.dumps(parts).encode()) == ("Split-K.\nok", "stop")
    nothing = completion("")
    nothing["choices"][0]["message"]["content"] = None
    assert read_completion(json.dumps(nothing).encode()) == ("", "stop")


def test_odd_bodies_through_the_cli_end_in_one_line_naming_the_endpoint(capsys, tmp_path):
    odd = ("raw", 200, "text/plain", "hello")
    with ScriptedServer([odd] * 3) as server:
        code = cli.main(["evolve", "--budget", "5", "--llm", server.url, "--model", "m", "--attempts", "1"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and err.startswith("python -m toyhw evolve: error: 3 calls in a row")
    assert server.url in err and "not JSON" in err


def test_an_http_error_that_stops_the_run_names_its_status_and_never_the_key(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("TOYHW_LLM_API_KEY", KEY)
    log = tmp_path / "run.jsonl"
    with ScriptedServer([("echo", 401)]) as server:
        code = cli.main(["evolve", "--budget", "2", "--llm", server.url, "--model", "m", "--log", str(log)])
    assert server.requests[0]["authorization"] == f"Bearer {KEY}"
    err = capsys.readouterr().err
    assert code == 2 and "HTTP 401" in err and err.count("\n") == 1 and KEY not in err and "Bearer ***" in err
    assert KEY not in log.read_text()


def test_an_echoed_key_in_a_retried_error_stays_out_of_the_json_and_the_log(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("TOYHW_LLM_API_KEY", KEY)
    log = tmp_path / "run.jsonl"
    with ScriptedServer([("echo", 500), ("reply", SPLIT_K_DECODE), ("echo", 400)]) as server:
        code = cli.main(
            [
                "evolve",
                "--budget",
                "2",
                "--llm",
                server.url,
                "--model",
                "m",
                "--log",
                str(log),
                "--attempts",
                "2",
                "--json",
            ]
        )
    captured = capsys.readouterr()
    assert code == 0 and KEY not in captured.out + captured.err and KEY not in log.read_text()
    assert "Bearer ***" in captured.out and "HTTP 400" in captured.out


def test_url_credentials_are_redacted_in_the_log_header_and_the_error_line(capsys, tmp_path):
    log = tmp_path / "run.jsonl"
    with ScriptedServer([("status", 404)]) as server:
        url = server.url.replace("http://", "http://user:hunter22@")
        code = cli.main(["evolve", "--budget", "2", "--llm", url, "--model", "m", "--log", str(log)])
    err = capsys.readouterr().err
    assert code == 2 and "HTTP 404" in err and "hunter22" not in err and "user:" not in err and "***@" in err
    header, _ = read_log(log)
    assert "hunter22" not in log.read_text() and header["endpoint"]["base_url"].startswith("http://***@127.0.0.1")
    ep = Endpoint(url, "m", KEY)
    assert "hunter22" not in repr(ep.describe()) and ep.redact(f"x {KEY} Bearer abc {url}").count("***") == 3


@pytest.mark.parametrize(
    "kwargs, needle",
    [
        ({"timeout": float("inf")}, "timeout = inf"),
        ({"max_delay": float("inf")}, "max_delay = inf"),
        ({"backoff": float("nan")}, "backoff = nan"),
        ({"base_url": "http://127.0.0.1:8000/v1\n"}, "without spaces or line breaks"),
        ({"model": "m\n" * 50_000}, "(150,002 characters)"),
    ],
)
def test_the_library_refuses_infinite_timeouts_line_breaks_and_cuts_long_values(kwargs, needle):
    with pytest.raises(ValueError) as err:
        Endpoint(**{"base_url": "http://127.0.0.1:8000/v1", "model": "m", **kwargs})
    assert needle in str(err.value) and len(str(err.value)) < 400


def test_a_url_with_a_trailing_newline_from_the_environment_is_read_without_it(monkeypatch):
    monkeypatch.setenv("TOYHW_LLM_BASE_URL", "http://127.0.0.1:8000/v1\n")
    assert Endpoint.from_env(model="m").base_url == "http://127.0.0.1:8000/v1"


def test_a_server_that_is_down_stops_the_run_naming_it():
    with ScriptedServer([("status", 503)] * 6) as server:
        llm = ChatLLM(endpoint(server, attempts=2), settings_for("full"), max_failures=3)
        with pytest.raises(EndpointUnavailable, match="3 calls in a row got no reply from http://127.0.0.1"):
            ablations.run_variant("full", 0, 5, llm)


@pytest.mark.parametrize(
    "argv",
    [
        ["evolve", "--variant", "x" * 100_000],
        ["evolve", "--replay", "x" * 100_000],
        ["evolve", "--llm", "http://127.0.0.1:9/" + "x" * 100_000, "--model", "m"],
    ],
)
def test_errors_that_quote_a_100_kb_value_are_cut_to_one_short_line(argv, capsys):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("python -m toyhw evolve: error: ") and err.count("\n") == 1 and len(err) < 1_100


def test_a_key_echoed_in_a_reply_is_not_logged(tmp_path):
    log = tmp_path / "run.jsonl"
    with ScriptedServer([("reply", f"my key is {KEY}\n" + SPLIT_K_DECODE)]) as server:
        llm = ChatLLM(Endpoint(server.url, "m", KEY, timeout=5), settings_for("full"), log=str(log))
        ablations.run_variant("full", 0, 1, llm)
        llm.close()
    assert KEY not in log.read_text() and "my key is ***" in log.read_text()
