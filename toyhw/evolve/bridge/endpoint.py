"""An OpenAI-compatible chat-completions endpoint: one call, with a timeout and bounded retries, through `openai`.

Any server that speaks the chat-completions API works: vLLM (`vllm serve MODEL`), llama.cpp's server, Ollama, a hosted
API. The `openai` package is an optional extra (`pip install -e '.[llm]'`), imported only when a client is made: with
no endpoint configured the pack never imports it and never touches the network.

Why a retry loop of our own and not the client's (it is made with `max_retries=0`): the client's timeout bounds each
read, not a try, and its retries are not reported one by one; here every try has its own deadline and its own record.
A timeout, a dropped connection, a 408/409/429 or a 5xx is retried after `backoff * 2**i` seconds (a server's
Retry-After is honoured up to `max_delay`), at most `attempts` tries in all, each ended after `timeout` seconds whatever
the server sends (toyhw.evolve.bridge.bounded_http). One call therefore takes at most about
`attempts * timeout + (attempts - 1) * max_delay` seconds, and every try is reported. Errors that retrying cannot fix
(a wrong key, an unknown model or path: 401, 403, 404) raise EndpointUnavailable at once.

A 200 reply is read by the pack (`read_completion`), not by the client's models, so a body that is not a chat
completion - text, JSON of another shape, nesting deep enough to exhaust the parser - is a try with its reason, and
OpenAI's list-of-parts content is read as text. Its body is read up to MAX_BODY_BYTES (the reply limit, JSON-escaped,
plus the envelope): a longer one is refused unread (`Reply.oversized`). The key and any credentials in the URL are
replaced by "***" in every message the client makes (`Endpoint.redact`).
"""

from __future__ import annotations

import json
import math
import os
import re
import time
import urllib.parse
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

from toyhw.evolve.bridge.replies import MAX_REPLY_CHARS

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
MAX_BODY_BYTES = 6 * MAX_REPLY_CHARS + 65_536
"""The longest body read: a reply at the limit with every character JSON-escaped (\\uXXXX), plus the envelope."""
SHOWN_CHARS = 80
"""How much of a bad value an error message quotes."""
KEY_PREFIXES = (
    "sk-", "sk_", "rk_", "gsk_", "ghp_", "gho_", "ghs_", "ghu_", "github_pat_", "hf_", "glpat-", "xoxb-", "xoxp-",
    "nvapi-", "pplx-", "r8_", "AKIA", "ASIA", "AIza", "ya29.", "bearer ",
)  # fmt: skip
"""How the API keys of the common hosts begin (OpenAI, Anthropic, Groq, GitHub, Hugging Face, GitLab, Slack, NVIDIA,
Perplexity, Replicate, AWS, Google): a model name starting so is a key pasted in the wrong place."""
_BEARER = re.compile(r"(?i)(bearer\s+)[^\s\"',;]+")
_RUN = re.compile(r"[A-Za-z0-9]{24,}")
_URL_CREDENTIALS = re.compile(r"(?i)(\b[a-z][a-z0-9+.-]*://)[^/\s@]*@")


def shown(value: object, limit: int = SHOWN_CHARS) -> str:
    """Return repr(value), cut to about `limit` characters (an error never echoes a 100 kB value)."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def looks_like_key(text: str) -> bool:
    """Return True when `text` is shaped like an API key rather than a model name: it starts like a key of a common
    host (KEY_PREFIXES) with 8 characters or more after, or holds a run of 24 or more letters and digits, both mixed,
    as random as a key (over 3 bits of entropy per character).

    Model names are words, sizes and versions between separators ("Qwen/Qwen2.5-Coder-7B-Instruct",
    "llama3.1:8b-instruct-q4_K_M"): their longest run of letters and digits is a dozen characters or so.
    """
    stripped = text.strip()
    if any(stripped.lower().startswith(p.lower()) and len(stripped) >= len(p) + 8 for p in KEY_PREFIXES):
        return True
    for run in _RUN.findall(stripped):
        if any(c.isdigit() for c in run) and any(c.isalpha() for c in run):
            counts = [run.count(c) for c in set(run)]
            if -sum(n / len(run) * math.log2(n / len(run)) for n in counts) > 3.0:
                return True
    return False


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
        timeout: seconds one try may take in all, whatever the server sends (> 0, finite).
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
        if (
            not isinstance(self.base_url, str)
            or not self.base_url.startswith(("http://", "https://"))
            or any(c.isspace() or not c.isprintable() for c in self.base_url)
        ):
            raise ValueError(
                f"base_url = {shown(_redact_url(self.base_url))} is not allowed; give the server's "
                "http(s) URL without spaces or line breaks, e.g. http://127.0.0.1:8000/v1"
            )
        if isinstance(self.model, str) and looks_like_key(self.model):
            raise ValueError(
                "model is not allowed: it is shaped like an API key, not a model name (it is not shown); give the "
                f"name the server knows (e.g. Qwen/Qwen2.5-Coder-7B-Instruct) and the key in ${ENV_API_KEY}"
            )
        if not isinstance(self.model, str) or not self.model.strip() or not self.model.isprintable():
            raise ValueError(f"model = {shown(self.model)} is not allowed; give the model name the server knows")
        if not isinstance(self.api_key, str) or not self.api_key or any(c.isspace() for c in self.api_key):
            raise ValueError(
                "api_key is not allowed: it must be a text without spaces or line breaks (it is sent as a bearer token)"
            )
        checks = (
            ("timeout", self.timeout, 0, False),
            ("backoff", self.backoff, 0, True),
            ("max_delay", self.max_delay, 0, True),
            ("temperature", self.temperature, 0, True),
        )
        for name, value, low, inclusive in checks:
            if (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or not math.isfinite(value)
                or not (value >= low if inclusive else value > low)
            ):
                raise ValueError(
                    f"{name} = {shown(value)} is not allowed; it must be a finite number "
                    f"{'>=' if inclusive else '>'} {low}"
                )
        if self.temperature > 2:
            raise ValueError(f"temperature = {shown(self.temperature)} is not allowed; it must be between 0 and 2")
        if isinstance(self.attempts, bool) or not isinstance(self.attempts, int) or self.attempts < 1:
            raise ValueError(f"attempts = {shown(self.attempts)} is not allowed; it must be an integer >= 1")
        if self.max_tokens is not None and (
            isinstance(self.max_tokens, bool) or not isinstance(self.max_tokens, int) or self.max_tokens < 1
        ):
            raise ValueError(
                f"max_tokens = {shown(self.max_tokens)} is not allowed; it must be an integer >= 1 or None"
            )

    @classmethod
    def from_env(
        cls, base_url: Optional[str] = None, model: Optional[str] = None, api_key: Optional[str] = None, **settings
    ) -> "Endpoint":
        """Return an endpoint from the arguments, each missing one read from the environment: TOYHW_LLM_BASE_URL,
        TOYHW_LLM_MODEL, TOYHW_LLM_API_KEY (else OPENAI_API_KEY, else NO_KEY)."""
        base_url = (base_url or os.environ.get(ENV_BASE_URL) or "").strip()  # a line break pasted with the URL
        model = (model or os.environ.get(ENV_MODEL) or "").strip()
        if not base_url:
            raise ValueError(f"no LLM base URL: give one (--llm URL) or set {ENV_BASE_URL}")
        if not model:
            raise ValueError(f"no model name: give one (--model NAME) or set {ENV_MODEL}")
        key = (api_key or os.environ.get(ENV_API_KEY) or os.environ.get(FALLBACK_KEY_ENV) or "").strip() or NO_KEY
        return cls(base_url, model, key, **settings)

    def worst_case_seconds(self) -> float:
        """Return the longest one call can take if every try times out (each try ends at its deadline)."""
        return self.attempts * self.timeout + (self.attempts - 1) * self.max_delay

    @property
    def where(self) -> str:
        """Return the base URL without credentials (for messages)."""
        return _redact_url(self.base_url)

    def redact(self, text: Optional[str], patterns: bool = True) -> Optional[str]:
        """Return `text` with the key, the URL's credentials and (`patterns`) any bearer token or credentials in a URL
        replaced by "***" (a model's reply gets only the first two: its other text is the model's)."""
        if not text:
            return text
        secrets = [self.api_key] if self.api_key != NO_KEY and len(self.api_key) >= 4 else []
        parts = urllib.parse.urlsplit(self.base_url)
        secrets += [p for p in (parts.password, parts.username) if p and len(p) >= 3]
        for secret in secrets:
            text = text.replace(secret, "***")
            quoted = urllib.parse.unquote(secret)
            if quoted != secret:
                text = text.replace(quoted, "***")
        return _URL_CREDENTIALS.sub(r"\1***@", _BEARER.sub(r"\1***", text)) if patterns else text

    def describe(self) -> dict:
        """Return the endpoint without its key or URL credentials (for logs and reports)."""
        return {
            "base_url": self.where,
            "model": self.model,
            "timeout": self.timeout,
            "attempts": self.attempts,
            "backoff": self.backoff,
            "max_delay": self.max_delay,
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
        }


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
        oversized: the server sent a reply too long to read (text None, error says how long): a reply, not an outage.
        chars: the reply's full length when `text` holds only its start (a long reply as a log keeps it).
    """

    text: Optional[str]
    error: Optional[str]
    attempts: tuple[Attempt, ...] = ()
    finish_reason: Optional[str] = None
    oversized: bool = False
    chars: Optional[int] = None


def _redact_url(url: object) -> object:
    return _URL_CREDENTIALS.sub(r"\1***@", url) if isinstance(url, str) else url


def _openai():
    try:
        import openai
    except ImportError:
        raise EndpointUnavailable(
            "a real LLM needs the `openai` package: pip install -e '.[llm]' (or pip install openai)"
        ) from None
    return openai


def _retry_after(err, cap: float) -> Optional[float]:
    headers = getattr(getattr(err, "response", None), "headers", None) or {}
    try:
        value = float(headers.get("retry-after"))
    except (TypeError, ValueError):
        return None
    return min(max(value, 0.0), cap) if math.isfinite(value) else None


class NotACompletion(ValueError):
    """A 200 body that is not a chat completion; the message says what came back."""


def _content_text(content: object) -> Optional[str]:
    """Return a message's content as text: a string, None, or OpenAI's list of parts ({"type": "text", "text"})."""
    if content is None or isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = []
        for part in content:
            if isinstance(part, str):
                texts.append(part)
            elif isinstance(part, dict) and isinstance(part.get("text"), str):
                texts.append(part["text"])
            elif not (isinstance(part, dict) and part.get("type") not in (None, "text")):
                raise NotACompletion(f"a content part that is not text: {shown(part)}")
        return "".join(texts)
    raise NotACompletion(f"message content that is not text: {shown(content)}")


def read_completion(body: bytes) -> tuple[str, Optional[str]]:
    """Return (the reply text, the finish reason) of a chat completion's body; NotACompletion saying what it is else.

    The first choice's message content: text, or a list of parts whose texts are joined (non-text parts skipped);
    None or missing content is an empty reply.
    """
    try:
        value = json.loads(body.decode("utf-8"))
    except UnicodeDecodeError as err:
        raise NotACompletion(f"a body that is not UTF-8 (byte {err.start})") from None
    except RecursionError:
        raise NotACompletion("JSON nested too deeply to read") from None
    except ValueError as err:
        start = body[:SHOWN_CHARS].decode("utf-8", "replace")
        raise NotACompletion(f"a body that is not JSON ({getattr(err, 'msg', err)}; it starts {start!r})") from None
    if not isinstance(value, dict):
        raise NotACompletion(f"JSON that is not an object: {shown(value)}")
    choices = value.get("choices")
    if not isinstance(choices, list) or not choices:
        raise NotACompletion(f"no list of choices (choices = {shown(choices)})")
    choice = choices[0]
    message = choice.get("message") if isinstance(choice, dict) else None
    if not isinstance(message, dict):
        raise NotACompletion(f"a first choice without a message object: {shown(choice)}")
    finish = choice.get("finish_reason")
    return _content_text(message.get("content")) or "", finish if isinstance(finish, str) else None


class ChatClient:
    """Sends chat messages to an Endpoint and returns a Reply; never raises for a failure a retry could fix."""

    def __init__(self, endpoint: Endpoint, sleep: Callable[[float], None] = time.sleep) -> None:
        self.endpoint = endpoint
        self._sleep = sleep
        self._openai = _openai()
        import httpx2  # openai's HTTP library: present wherever openai is

        from toyhw.evolve.bridge.bounded_http import BodyTooLong, BoundedTransport

        self._too_long = BodyTooLong
        self._http = httpx2.Client(
            transport=BoundedTransport(endpoint.timeout, MAX_BODY_BYTES),
            timeout=endpoint.timeout + 5,
            follow_redirects=False,
        )
        try:
            self._client = self._openai.OpenAI(
                base_url=endpoint.base_url,
                api_key=endpoint.api_key,
                timeout=endpoint.timeout,
                max_retries=0,
                http_client=self._http,
            )
        except Exception as err:  # the client's own URL checks (too long, a bad port): bad input, said in one line
            raise ValueError(
                endpoint.redact(
                    f"base_url = {shown(endpoint.where)} is not allowed: the client refuses "
                    f"it ({type(err).__name__}: {shown(str(err))})"
                )
            ) from None

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
                raw = self._client.chat.completions.with_raw_response.create(
                    model=ep.model, messages=list(messages), temperature=ep.temperature, **extra
                )
                text, finish = read_completion(raw.http_response.content)
            except NotACompletion as err:  # a server that answers 200 with something else: asking again will not help
                tries.append(Attempt(time.monotonic() - start, ep.redact(f"HTTP 200 with {err}"), 200))
                break
            except oa.APIStatusError as err:
                status = err.status_code
                tries.append(Attempt(time.monotonic() - start, ep.redact(f"HTTP {status}: {_message(err)}"), status))
                if status in FATAL_STATUSES:
                    raise EndpointUnavailable(
                        ep.redact(
                            f"{ep.where} answered HTTP {status} for model {ep.model!r}: "
                            f"{_message(err)} (check the URL, the model name and the key)"
                        )
                    ) from None
                if status not in RETRY_STATUSES and status < 500:
                    break  # a bad request stays bad: report it, do not repeat it
                delay = _retry_after(err, ep.max_delay)
            except (oa.APITimeoutError, oa.APIConnectionError) as err:
                if isinstance(err.__cause__, self._too_long):
                    seconds = time.monotonic() - start
                    why = f"{err.__cause__}; at most {MAX_REPLY_CHARS:,} characters are read"
                    return Reply(None, why, tuple(tries) + (Attempt(seconds, why, 200),), oversized=True)
                kind = "timeout" if isinstance(err, oa.APITimeoutError) else "connection error"
                cause = f" ({err.__cause__})" if err.__cause__ is not None and str(err.__cause__) else ""
                tries.append(Attempt(time.monotonic() - start, ep.redact(f"{kind}: {_message(err)}{cause}")))
                delay = None
            except oa.OpenAIError as err:  # a reply the client cannot read: retrying will not help
                tries.append(Attempt(time.monotonic() - start, ep.redact(f"{type(err).__name__}: {_message(err)}")))
                break
            else:
                tries.append(Attempt(time.monotonic() - start))
                return Reply(ep.redact(text, patterns=False), None, tuple(tries), finish)
            if i + 1 < ep.attempts:
                self._sleep(delay if delay is not None else min(ep.backoff * 2**i, ep.max_delay))
        return Reply(None, f"{ep.where}: no reply after {len(tries)} tries; last: {tries[-1].error}", tuple(tries))


def _message(err: Exception) -> str:
    text = " ".join(str(getattr(err, "message", None) or err).split())
    return text if len(text) <= 300 else text[:297] + "..."
