"""An OpenAI-compatible chat-completions endpoint: one call, with a timeout and bounded retries, through `openai`.

Any server that speaks the chat-completions API works: vLLM (`vllm serve MODEL`), llama.cpp's server, Ollama, a hosted
API. The `openai` package is an optional extra (`pip install -e '.[llm]'`), imported only when a client is made: with
no endpoint configured the pack never imports it and never touches the network.

Retries are ours, not the client's (it is made with `max_retries=0`): a timeout, a dropped connection, a 408/409/429
or a 5xx is retried after `backoff * 2**i` seconds (a server's Retry-After is honoured up to `max_delay`), at most
`attempts` tries in all, each limited to `timeout` seconds per network operation. One call therefore takes at most
about `attempts * timeout + (attempts - 1) * max_delay` seconds, and every try is reported. Errors that retrying cannot
fix (a wrong key, an unknown model or path: 401, 403, 404) raise EndpointUnavailable at once.
"""
from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

ENV_BASE_URL = "TOYHW_LLM_BASE_URL"
ENV_MODEL = "TOYHW_LLM_MODEL"
ENV_API_KEY = "TOYHW_LLM_API_KEY"
FALLBACK_KEY_ENV = "OPENAI_API_KEY"
NO_KEY = "not-needed"
"""Sent when no key is configured: local servers (vLLM, llama.cpp, Ollama) ignore it; a hosted API answers 401."""
RETRY_STATUSES = (408, 409, 429)
"""HTTP statuses worth retrying, besides every 5xx (as the openai client itself does)."""
FATAL_STATUSES = (401, 403, 404)
"""HTTP statuses that no retry fixes: the run stops with the server's message."""


class EndpointUnavailable(RuntimeError):
    """The endpoint cannot be used at all (package missing, wrong key, unknown model, server down): stop the run."""


@dataclass(frozen=True)
class Endpoint:
    """Where and how to ask a model.

    Attributes:
        base_url: the server's OpenAI-compatible root, e.g. http://127.0.0.1:8000/v1 (vLLM) or
            http://127.0.0.1:11434/v1 (Ollama).
        model: the model name the server knows.
        api_key: the key sent as a bearer token (never logged or shown); NO_KEY when none is configured.
        timeout: seconds allowed per network operation of one try (> 0).
        attempts: tries per call, the first included (>= 1).
        backoff: seconds before the first retry, doubled for each further one (>= 0).
        max_delay: the longest wait between tries, a server's Retry-After included (>= 0).
        temperature: sampling temperature sent with every call (0 to 2).
        max_tokens: the reply's token limit sent with every call, None = the server's default.
    """

    base_url: str
    model: str
    api_key: str = field(default=NO_KEY, repr=False)
    timeout: float = 120.0
    attempts: int = 3
    backoff: float = 1.0
    max_delay: float = 30.0
    temperature: float = 0.8
    max_tokens: Optional[int] = None

    def __post_init__(self) -> None:
        if not isinstance(self.base_url, str) or not self.base_url.startswith(("http://", "https://")):
            raise ValueError(f"base_url = {self.base_url!r} is not allowed; give the server's http(s) URL, e.g. "
                             "http://127.0.0.1:8000/v1")
        if not isinstance(self.model, str) or not self.model.strip():
            raise ValueError(f"model = {self.model!r} is not allowed; give the model name the server knows")
        checks = (("timeout", self.timeout, 0, False), ("backoff", self.backoff, 0, True),
                  ("max_delay", self.max_delay, 0, True), ("temperature", self.temperature, 0, True))
        for name, value, low, inclusive in checks:
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not (
                    value >= low if inclusive else value > low):
                raise ValueError(f"{name} = {value!r} is not allowed; it must be a number {'>=' if inclusive else '>'} "
                                 f"{low}")
        if self.temperature > 2:
            raise ValueError(f"temperature = {self.temperature!r} is not allowed; it must be between 0 and 2")
        if isinstance(self.attempts, bool) or not isinstance(self.attempts, int) or self.attempts < 1:
            raise ValueError(f"attempts = {self.attempts!r} is not allowed; it must be an integer >= 1")
        if self.max_tokens is not None and (isinstance(self.max_tokens, bool) or not isinstance(self.max_tokens, int)
                                            or self.max_tokens < 1):
            raise ValueError(f"max_tokens = {self.max_tokens!r} is not allowed; it must be an integer >= 1 or None")

    @classmethod
    def from_env(cls, base_url: Optional[str] = None, model: Optional[str] = None, api_key: Optional[str] = None,
                 **settings) -> "Endpoint":
        """Return an endpoint from the arguments, each missing one read from the environment: TOYHW_LLM_BASE_URL,
        TOYHW_LLM_MODEL, TOYHW_LLM_API_KEY (else OPENAI_API_KEY, else NO_KEY)."""
        base_url = base_url or os.environ.get(ENV_BASE_URL)
        model = model or os.environ.get(ENV_MODEL)
        if not base_url:
            raise ValueError(f"no LLM base URL: give one (--llm URL) or set {ENV_BASE_URL}")
        if not model:
            raise ValueError(f"no model name: give one (--model NAME) or set {ENV_MODEL}")
        key = api_key or os.environ.get(ENV_API_KEY) or os.environ.get(FALLBACK_KEY_ENV) or NO_KEY
        return cls(base_url, model, key, **settings)

    def worst_case_seconds(self) -> float:
        """Return the longest one call can take if every try times out (network operations of one try included)."""
        return self.attempts * self.timeout + (self.attempts - 1) * self.max_delay

    def describe(self) -> dict:
        """Return the endpoint without its key (for logs and reports)."""
        return {"base_url": self.base_url, "model": self.model, "timeout": self.timeout, "attempts": self.attempts,
                "backoff": self.backoff, "max_delay": self.max_delay, "temperature": self.temperature,
                "max_tokens": self.max_tokens}


@dataclass(frozen=True)
class Attempt:
    """One try of a call.

    Attributes:
        seconds: how long it took.
        error: None if it got a reply, else what went wrong (kind and message).
        status: the HTTP status of an error response, None otherwise.
    """

    seconds: float
    error: Optional[str] = None
    status: Optional[int] = None


@dataclass(frozen=True)
class Reply:
    """The outcome of one call.

    Attributes:
        text: the model's reply (possibly empty), None when every try failed.
        error: why the call failed (the last try's error), None when it got a reply.
        attempts: every try, in order.
        finish_reason: the server's finish reason ("stop", "length", ...), None if unknown.
    """

    text: Optional[str]
    error: Optional[str]
    attempts: tuple[Attempt, ...] = ()
    finish_reason: Optional[str] = None


def _openai():
    try:
        import openai
    except ImportError:
        raise EndpointUnavailable("a real LLM needs the `openai` package: pip install -e '.[llm]' (or pip install "
                                  "openai)") from None
    return openai


def _retry_after(err, cap: float) -> Optional[float]:
    headers = getattr(getattr(err, "response", None), "headers", None) or {}
    try:
        value = float(headers.get("retry-after"))
    except (TypeError, ValueError):
        return None
    return min(max(value, 0.0), cap) if math.isfinite(value) else None


class ChatClient:
    """Sends chat messages to an Endpoint and returns a Reply; never raises for a failure a retry could fix."""

    def __init__(self, endpoint: Endpoint, sleep: Callable[[float], None] = time.sleep) -> None:
        self.endpoint = endpoint
        self._sleep = sleep
        self._openai = _openai()
        self._client = self._openai.OpenAI(base_url=endpoint.base_url, api_key=endpoint.api_key,
                                           timeout=endpoint.timeout, max_retries=0)

    def complete(self, messages: Sequence[dict], seed: Optional[int] = None) -> Reply:
        """Return the model's reply to `messages` (`seed` is passed on: servers like vLLM then sample repeatably)."""
        ep, oa = self.endpoint, self._openai
        extra = {"max_tokens": ep.max_tokens} if ep.max_tokens is not None else {}
        if seed is not None:
            extra["seed"] = seed
        tries: list[Attempt] = []
        for i in range(ep.attempts):
            start = time.monotonic()
            try:
                response = self._client.chat.completions.create(model=ep.model, messages=list(messages),
                                                                temperature=ep.temperature, **extra)
            except oa.APIStatusError as err:
                status = err.status_code
                tries.append(Attempt(time.monotonic() - start, f"HTTP {status}: {_message(err)}", status))
                if status in FATAL_STATUSES:
                    raise EndpointUnavailable(f"{ep.base_url} answered HTTP {status} for model {ep.model!r}: "
                                              f"{_message(err)} (check the URL, the model name and the key)") from None
                if status not in RETRY_STATUSES and status < 500:
                    break  # a bad request stays bad: report it, do not repeat it
                delay = _retry_after(err, ep.max_delay)
            except (oa.APITimeoutError, oa.APIConnectionError) as err:
                kind = "timeout" if isinstance(err, oa.APITimeoutError) else "connection error"
                tries.append(Attempt(time.monotonic() - start, f"{kind}: {_message(err)}"))
                delay = None
            except oa.OpenAIError as err:  # a reply the client cannot read: retrying will not help
                tries.append(Attempt(time.monotonic() - start, f"{type(err).__name__}: {_message(err)}"))
                break
            else:
                tries.append(Attempt(time.monotonic() - start))
                choice = response.choices[0] if response.choices else None
                text = (choice.message.content if choice is not None and choice.message is not None else None) or ""
                return Reply(text, None, tuple(tries), getattr(choice, "finish_reason", None))
            if i + 1 < ep.attempts:
                self._sleep(delay if delay is not None else min(ep.backoff * 2 ** i, ep.max_delay))
        return Reply(None, f"no reply after {len(tries)} tries; last: {tries[-1].error}", tuple(tries))


def _message(err: Exception) -> str:
    text = " ".join(str(getattr(err, "message", None) or err).split())
    return text if len(text) <= 300 else text[:297] + "..."
