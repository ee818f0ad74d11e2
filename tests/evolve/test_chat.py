"""A real model in the loop, over real HTTP: the `openai` client against a scripted server on 127.0.0.1.

The server answers in turn with a valid diff, a whole program in prose, a diff that does not apply, hostile code, an
empty reply, a reply slower than the timeout, a 429, three 500s and prose without code; the run goes on through all of
them, logs every call, and its replay from the log (no network) is bit-identical. Nothing here leaves 127.0.0.1.
"""

import json
import socket
import sys

import pytest

pytest.importorskip("openai")

from scripted_server import ScriptedServer  # noqa: E402

from toyhw.evolve.experiments import ablations  # noqa: E402
from toyhw.evolve.bridge.chat import ChatLLM, ReplayError, ReplayLLM  # noqa: E402
from toyhw.evolve.bridge.chatlog import read_log  # noqa: E402
from toyhw.evolve.bridge.endpoint import ChatClient, Endpoint, EndpointUnavailable  # noqa: E402
from toyhw.evolve.bridge.prompt import settings_for  # noqa: E402

SPLIT_K_DECODE = (
    "Split-K for the smallest decode shapes.\n<<<<<<< SEARCH\n    if M <= 16:\n=======\n"
    "    if M <= 2:\n"
    "        return Config(block_m=16, block_n=64, block_k=64, num_warps=2, num_stages=5, split_k=8)\n"
    "    if M <= 16:\n>>>>>>> REPLACE\n"
)
WHOLE_PROGRAM = (
    "Here is the whole program; deep-K decode shapes get split-K:\n\n```python\ndef choose(M, N, K):\n"
    "    if M <= 16 and K >= 8192:\n"
    "        return Config(block_m=16, block_n=128, block_k=256, num_warps=4, num_stages=3, split_k=8)\n"
    "    if M <= 16:\n"
    "        return Config(block_m=16, block_n=64, block_k=256, num_warps=4, num_stages=5, split_k=1)\n"
    "    if M <= 128:\n"
    "        return Config(block_m=64, block_n=64, block_k=128, num_warps=4, num_stages=4, split_k=1)\n"
    "    return Config(block_m=128, block_n=256, block_k=64, num_warps=8, num_stages=3, split_k=1)\n"
    "```\nThis should help the 70B/8 qkv shapes."
)
ON_ANY_PARENT = (
    "A rule for M = 48 with narrow N.\n<<<<<<< SEARCH\ndef choose(M, N, K):\n=======\n"
    "def choose(M, N, K):\n    if M == 48 and N <= 1280:\n"
    "        return Config(block_m=32, block_n=128, block_k=64, num_warps=8, num_stages=4, split_k=8)\n"
    ">>>>>>> REPLACE\n"
)
NOT_APPLYING = "Tune the mid regime.\n<<<<<<< SEARCH\n    if M <= 96:\n=======\n    if M <= 64:\n>>>>>>> REPLACE\n"
HOSTILE = "```python\nimport os\nos.system('touch /tmp/toyhw-pwned')\ndef choose(M, N, K):\n    return Config()\n```"
SCRIPT = [
    ("reply", SPLIT_K_DECODE),  # call 1: a valid diff (step 1's parent is the expert)
    ("reply", WHOLE_PROGRAM),  # call 2: prose with a code fence holding a whole program
    ("reply", NOT_APPLYING),  # call 3: a diff that does not apply
    ("reply", HOSTILE),  # call 4: hostile code
    ("reply", ""),  # call 5: an empty reply
    ("slow", 2.0, SPLIT_K_DECODE),  # call 6: past the timeout ...
    ("reply", ON_ANY_PARENT),  # ... and its retry
    ("status", 429),  # call 7: rate limited (Retry-After: 0) ...
    ("reply", ON_ANY_PARENT),  # ... and its retry
    ("status", 500),
    ("status", 500),
    ("status", 500),  # call 8: three server errors: no reply
    ("reply", "I would make the tiles bigger for prefill."),  # call 9: prose without code
]
BUDGET = 9
FAILED_CALLS = {
    3: "diff does not apply",
    4: "does not parse",
    5: "the reply is empty",
    8: "no reply after 3 tries",
    9: "neither SEARCH/REPLACE blocks nor",
}


def _local_only(monkeypatch):
    for name in (
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "TOYHW_LLM_API_KEY",
        "TOYHW_LLM_BASE_URL",
        "TOYHW_LLM_MODEL",
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "http_proxy",
        "https_proxy",
        "all_proxy",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")


@pytest.fixture(autouse=True)
def local_only(monkeypatch):
    """No real key, no proxy: every request goes to the scripted server on 127.0.0.1."""
    _local_only(monkeypatch)


def endpoint(server, **kwargs):
    return Endpoint(
        server.url,
        "scripted-model",
        "test-key",
        **{"timeout": 0.5, "attempts": 3, "backoff": 0.01, "max_delay": 0.05, **kwargs},
    )


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """Return (run summary, the ChatLLM, its log, the server) of the full method, seed 0, through SCRIPT."""
    log = tmp_path_factory.mktemp("recorded") / "run.jsonl"
    with pytest.MonkeyPatch.context() as monkeypatch, ScriptedServer(SCRIPT) as server:
        _local_only(monkeypatch)
        llm = ChatLLM(
            endpoint(server),
            settings_for("full"),
            log=str(log),
            header={"variant": "full", "seed": 0, "budget": BUDGET},
            seed=0,
        )
        run = ablations.run_variant("full", 0, BUDGET, llm)
    return run, llm, log, server


def test_a_run_through_every_kind_of_reply_goes_on_and_counts_failures_like_crashes(recorded):
    run, llm, _, server = recorded
    assert run.statuses["invalid"] == len(FAILED_CALLS) and sum(run.statuses.values()) == BUDGET
    assert [step for step, _ in llm.failures] == sorted(FAILED_CALLS)
    for step, reason in llm.failures:
        assert FAILED_CALLS[step] in reason
    assert len(run.history) == BUDGET and run.final > 1.0  # the valid proposals were evaluated and kept
    assert len(server.requests) == len(SCRIPT)  # every scripted answer was asked for, retries included


def test_the_requests_carry_the_prompt_model_key_and_seed(recorded):
    _, _, _, server = recorded
    first = server.requests[0]
    assert first["path"] == "/v1/chat/completions" and first["authorization"] == "Bearer test-key"
    body = first["body"]
    assert body["model"] == "scripted-model" and body["seed"] == 1 and body["temperature"] == 0.8
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    assert (
        "## Current program" in body["messages"][1]["content"]
        and "def choose(M, N, K):" in body["messages"][1]["content"]
    )


def test_every_call_is_logged_with_its_tries(recorded):
    _, _, log, _ = recorded
    header, calls = read_log(log)
    assert header["variant"] == "full" and header["endpoint"]["model"] == "scripted-model"
    assert "test-key" not in log.read_text()  # keys are never written
    assert [c["step"] for c in calls] == list(range(1, BUDGET + 1))
    assert [c["outcome"] for c in calls] == ["failed" if s in FAILED_CALLS else "ok" for s in range(1, BUDGET + 1)]
    assert [len(c["attempts"]) for c in calls] == [1, 1, 1, 1, 1, 2, 2, 3, 1]
    assert calls[5]["attempts"][0]["error"].startswith("timeout")
    assert calls[6]["attempts"][0]["status"] == 429 and calls[6]["reply"] == ON_ANY_PARENT
    assert calls[7]["reply"] is None and [a["status"] for a in calls[7]["attempts"]] == [500, 500, 500]
    assert calls[5]["attempts"][0]["seconds"] < 1.5  # the slow reply did not hold the loop


def test_replaying_the_log_is_bit_identical_and_needs_no_network(recorded, monkeypatch):
    run, llm, log, _ = recorded

    def no_network(*args, **kwargs):
        raise AssertionError("the replay touched the network")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    replay = ReplayLLM(str(log))
    replayed = ablations.run_variant("full", 0, BUDGET, replay)
    assert replayed == run and replayed.history == run.history and replay.failures == llm.failures


def test_a_replay_says_when_the_log_runs_out_or_the_prompt_differs(recorded):
    log = recorded[2]
    with pytest.raises(ReplayError, match=f"holds {BUDGET} calls"):
        ablations.run_variant("full", 0, BUDGET + 1, ReplayLLM(str(log)))
    with pytest.raises(ReplayError, match="call 2: the prompt differs .* logged 'Program 1 "):
        ablations.run_variant("full", 1, BUDGET, ReplayLLM(str(log)))  # another seed: other inspirations
    with pytest.raises(ReplayError, match="prompt differs"):
        ablations.run_variant("no_feedback", 0, BUDGET, ReplayLLM(str(log), settings_for("no_feedback")))


def test_a_log_is_never_overwritten_and_a_broken_log_is_named(recorded, tmp_path):
    log = recorded[2]
    with ScriptedServer([]) as server, pytest.raises(ValueError, match="exists"):
        ChatLLM(endpoint(server), log=str(log))
    broken = tmp_path / "broken.jsonl"
    broken.write_text(log.read_text().splitlines()[0] + "\n{not json\n")
    with pytest.raises(ValueError, match="line 2: not JSON"):
        ReplayLLM(str(broken))
    with pytest.raises(ValueError, match="not a toyhw LLM log"):
        (tmp_path / "other.jsonl").write_text('{"hello": 1}\n')
        ReplayLLM(str(tmp_path / "other.jsonl"))


def test_a_server_that_keeps_failing_stops_the_run_with_the_reason(tmp_path):
    with ScriptedServer([("status", 503)] * 4) as server:
        llm = ChatLLM(endpoint(server, attempts=2), max_failures=2, log=str(tmp_path / "down.jsonl"))
        with pytest.raises(EndpointUnavailable, match="2 calls in a row got no reply .* HTTP 503"):
            ablations.run_variant("full", 0, 50, llm)
    assert len(read_log(tmp_path / "down.jsonl")[1]) == 2


@pytest.mark.parametrize("status", [401, 404])
def test_a_wrong_key_or_model_stops_the_run_at_once(status):
    with ScriptedServer([("status", status)]) as server:
        with pytest.raises(EndpointUnavailable, match=f"HTTP {status} for model 'scripted-model'"):
            ablations.run_variant("full", 0, 50, ChatLLM(endpoint(server)))
        assert len(server.requests) == 1


def test_a_bad_request_is_reported_not_repeated():
    with ScriptedServer([("status", 400, "context too long"), ("reply", ON_ANY_PARENT)]) as server:
        reply = ChatClient(endpoint(server)).complete([{"role": "user", "content": "hi"}])
        assert reply.text is None and "HTTP 400" in reply.error and "context too long" in reply.error
        assert len(server.requests) == 1


def test_an_unreachable_server_is_a_connection_error_after_bounded_tries():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again before the call: nothing listens there
    client = ChatClient(Endpoint(f"http://127.0.0.1:{port}/v1", "m", "k", timeout=0.5, attempts=2, backoff=0.01))
    reply = client.complete([{"role": "user", "content": "hi"}])
    assert reply.text is None and len(reply.attempts) == 2 and "connection error" in reply.error


def test_without_the_openai_package_the_error_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "openai", None)
    with pytest.raises(EndpointUnavailable, match=r"pip install -e '\.\[llm\]'"):
        ChatLLM(Endpoint("http://127.0.0.1:9/v1", "m"))


def test_endpoint_settings_come_from_arguments_or_the_environment(monkeypatch):
    monkeypatch.setenv("TOYHW_LLM_BASE_URL", "http://127.0.0.1:8000/v1")
    monkeypatch.setenv("TOYHW_LLM_MODEL", "from-env")
    monkeypatch.setenv("OPENAI_API_KEY", "fallback-key")
    ep = Endpoint.from_env()
    assert (ep.base_url, ep.model, ep.api_key) == ("http://127.0.0.1:8000/v1", "from-env", "fallback-key")
    monkeypatch.setenv("TOYHW_LLM_API_KEY", "toyhw-key")
    assert Endpoint.from_env(model="given").model == "given" and Endpoint.from_env().api_key == "toyhw-key"
    assert "toyhw-key" not in repr(Endpoint.from_env()) and "toyhw-key" not in json.dumps(ep.describe())
    monkeypatch.delenv("TOYHW_LLM_MODEL")
    with pytest.raises(ValueError, match="TOYHW_LLM_MODEL"):
        Endpoint.from_env()


@pytest.mark.parametrize(
    "kwargs, needle",
    [
        ({"base_url": "127.0.0.1:8000"}, "base_url = '127.0.0.1:8000'"),
        ({"model": " "}, "model = ' '"),
        ({"timeout": 0}, "timeout = 0"),
        ({"attempts": 0}, "attempts = 0"),
        ({"temperature": 3}, "temperature = 3"),
        ({"max_tokens": 0}, "max_tokens = 0"),
        ({"backoff": -1}, "backoff = -1"),
    ],
)
def test_bad_endpoint_settings_name_the_parameter(kwargs, needle):
    with pytest.raises(ValueError, match=needle.replace(".", r"\.")):
        Endpoint(**{"base_url": "http://127.0.0.1:8000/v1", "model": "m", **kwargs})


def test_the_worst_case_time_of_one_call_is_bounded():
    assert Endpoint("http://h/v1", "m", timeout=10, attempts=3, max_delay=5).worst_case_seconds() == 40
