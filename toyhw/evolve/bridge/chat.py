"""A real model in the loop (`ChatLLM`), and the replay of a logged run with no network (`ReplayLLM`).

Both are proposal steps `(parent, inspirations, feedback, rng) -> Proposal`, like the MockLLM, so `evolve` runs them
unchanged: render the prompt (toyhw.evolve.bridge.prompt), get the reply text (from the endpoint, or from the log), read it
into a proposal (toyhw.evolve.bridge.replies: parsed, never executed). A reply that gives no program - unparseable, a diff
that does not apply, an empty reply, no reply after the retries - is a failed proposal with the reason as its
description: the evaluator rejects it as "invalid", the loop counts it like a crash and goes on. They do not use `rng`.

A reply too long to read (refused unread by the client, or longer than the reply limit) is a failed proposal too;
the log keeps its start and its length, so a replay fails it the same way.

ChatLLM stops the run (EndpointUnavailable) only when retrying cannot help: a wrong key or model (401/403/404), or
`max_failures` calls in a row with no reply (the server is down, or answers 200 with something that is not a chat
completion). Otherwise a run of budget B makes B calls, each at
most `endpoint.attempts` tries.
"""

from __future__ import annotations

import dataclasses
import datetime
import os
import random
from typing import Callable, Mapping, Optional, Sequence

from toyhw.evolve import variants
from toyhw.evolve.bridge.chatlog import LOG_PREFIX_CHARS, LogError, LogWriter, read_log
from toyhw.evolve.bridge.endpoint import Attempt, ChatClient, Endpoint, EndpointUnavailable, Reply
from toyhw.evolve.llm import Feedback, ProgramWithTimes, Proposal, failed_proposal
from toyhw.evolve.bridge.prompt import PromptSettings, render_prompt
from toyhw.evolve.bridge.replies import MAX_REPLY_CHARS, read_reply, too_long
from toyhw.gemm.gpu import GPU


Progress = Callable[[int, Proposal, Reply], None]
"""Called after every call with (call number, proposal, reply): e.g. a line on a terminal."""


class ReplayError(RuntimeError):
    """A replay that cannot go on: the log ran out, or the run asks with a prompt the log does not hold."""


class PromptedLLM:
    """The proposal step of a model that answers in text; subclasses say where the reply comes from (`_reply`)."""

    def __init__(self, settings: PromptSettings, gpu: GPU | str = "H100", progress: Optional[Progress] = None) -> None:
        self.settings = settings
        self.gpu = gpu
        self.progress = progress
        self.calls = 0
        self.failures: list[tuple[int, str]] = []  # (step, reason) of every failed proposal, in order

    def __call__(
        self, parent: ProgramWithTimes, inspirations: Sequence[ProgramWithTimes], feedback: Feedback, rng: random.Random
    ) -> Proposal:
        """Return the proposal read from the model's reply to this step's prompt."""
        self.calls += 1
        messages = render_prompt(parent, inspirations, feedback, self.settings, self.gpu).messages()
        reply = self._reply(self.calls, messages)
        if reply.oversized:
            proposal = failed_proposal(str(reply.error))
        elif reply.text is None:
            proposal = failed_proposal(f"no reply from the model: {reply.error}")
        elif reply.chars is not None and reply.chars > MAX_REPLY_CHARS:
            proposal = failed_proposal(too_long(reply.chars))
        else:
            shown = [e.program for e in inspirations] if self.settings.inspirations else []
            proposal = read_reply(reply.text, parent.program, shown)
        if proposal.program is None:
            self.failures.append((self.calls, proposal.description))
        if self.progress is not None:
            self.progress(self.calls, proposal, reply)
        self._after(self.calls, messages, reply, proposal)
        return proposal

    def _reply(self, step: int, messages: list[dict]) -> Reply:
        raise NotImplementedError

    def _after(self, step: int, messages: list[dict], reply: Reply, proposal: Proposal) -> None:
        """Hook after each call (ChatLLM logs it)."""


class ChatLLM(PromptedLLM):
    """Asks a model behind an OpenAI-compatible endpoint; logs every prompt and reply when given a log path.

    `seed`: when given, call k sends `seed * 1_000_000 + k` as the request's seed (vLLM and Ollama then sample
    repeatably; a hosted API may ignore it). `header`: extra facts for the log's header (variant, seed, budget).
    """

    def __init__(
        self,
        endpoint: Endpoint,
        settings: PromptSettings = PromptSettings(),
        log: Optional[str] = None,
        header: Optional[Mapping] = None,
        seed: Optional[int] = None,
        max_failures: int = 3,
        gpu: GPU | str = "H100",
        client: Optional[ChatClient] = None,
        progress: Optional[Progress] = None,
    ) -> None:
        super().__init__(settings, gpu, progress)
        if isinstance(max_failures, bool) or not isinstance(max_failures, int) or max_failures < 1:
            raise ValueError(f"max_failures = {max_failures!r} is not allowed; it must be an integer >= 1")
        self.endpoint = endpoint
        self.seed = seed
        self.max_failures = max_failures
        self.client = client if client is not None else ChatClient(endpoint)  # fails here if openai is missing
        self._in_row = 0
        self.log = (
            None
            if log is None
            else LogWriter(
                log,
                {
                    "settings": settings.as_dict(),
                    "endpoint": endpoint.describe(),
                    **(header or {}),
                    "started": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                },
            )
        )

    def _reply(self, step: int, messages: list[dict]) -> Reply:
        return self.client.complete(messages, None if self.seed is None else self.seed * 1_000_000 + step)

    def close(self) -> None:
        """Close the log's file (each call's record is already on disk)."""
        if self.log is not None:
            self.log.close()

    def _after(self, step: int, messages: list[dict], reply: Reply, proposal: Proposal) -> None:
        if self.log is not None:
            text, extra = reply.text, {}
            if text is not None and len(text) > MAX_REPLY_CHARS:  # refused unread: the log keeps its start
                text, extra = text[:LOG_PREFIX_CHARS], {"reply_chars": len(reply.text)}
            if reply.oversized:
                extra["oversized"] = True
            self.log.write(
                {
                    "step": step,
                    "messages": messages,
                    "model": self.endpoint.model,
                    "reply": text,
                    **extra,
                    "error": reply.error,
                    "finish_reason": reply.finish_reason,
                    "attempts": [
                        {"seconds": round(a.seconds, 3), "error": a.error, "status": a.status} for a in reply.attempts
                    ],
                    "seconds": round(sum(a.seconds for a in reply.attempts), 3),
                    "outcome": "failed" if proposal.program is None else "ok",
                    "description": proposal.description,
                    "operator": proposal.operator,
                }
            )
        self._in_row = self._in_row + 1 if reply.text is None and not reply.oversized else 0
        if self._in_row >= self.max_failures:
            raise EndpointUnavailable(
                f"{self._in_row} calls in a row got no reply from {self.endpoint.where} "
                f"(last: {reply.error}); stopping the run"
            )


class ReplayLLM(PromptedLLM):
    """Replays a logged run: call k returns the reply logged for call k, with no network.

    The prompt of every call is checked against the logged one, so a replay under another variant, seed or code
    stops with the first difference instead of silently diverging. The replayed run's results are those of the
    recorded run, bit for bit. `settings` default to the log's.
    """

    def __init__(
        self, path: str | os.PathLike, settings: Optional[PromptSettings] = None, gpu: GPU | str = "H100"
    ) -> None:
        header, records = read_log(path, [f.name for f in dataclasses.fields(PromptSettings)], variants.available())
        try:
            logged = PromptSettings(**header["settings"])
        except (TypeError, ValueError) as err:
            raise LogError(f"{os.fspath(path)}, line 1: the header's settings are not allowed ({err})") from None
        super().__init__(settings if settings is not None else logged, gpu)
        self.path = os.fspath(path)
        self.header = header
        self.records = records

    def _reply(self, step: int, messages: list[dict]) -> Reply:
        if step > len(self.records):
            raise ReplayError(
                f"the log {self.path!r} holds {len(self.records)} calls and the run asks for call "
                f"{step}: replay with a budget of at most {len(self.records)}"
            )
        record = self.records[step - 1]
        if record["messages"] != messages:
            raise ReplayError(
                f"call {step}: the prompt differs from the one in {self.path!r} "
                f"({_first_difference(record['messages'], messages)}); replay with the variant, seed and "
                "toyhw version of the recorded run"
            )
        attempts = tuple(
            Attempt(a.get("seconds", 0.0), a.get("error"), a.get("status")) for a in record.get("attempts", ())
        )
        return Reply(
            record.get("reply"),
            record.get("error"),
            attempts,
            record.get("finish_reason"),
            bool(record.get("oversized", False)),
            record.get("reply_chars"),
        )


def _first_difference(logged: list, now: list) -> str:
    """Return where two message lists first differ, as `message M, line L: logged '...', now '...'`."""
    for m, (a, b) in enumerate(zip(logged, now)):
        old, new = str(a.get("content", "")).splitlines(), str(b.get("content", "")).splitlines()
        for line, (x, y) in enumerate(zip(old + [""] * len(new), new + [""] * len(old)), 1):
            if x != y:
                return f"message {m + 1}, line {line}: logged {x[:80]!r}, now {y[:80]!r}"
    return f"logged {len(logged)} messages, now {len(now)}"
