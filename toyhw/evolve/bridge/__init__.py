"""The real-model bridge of lecture 14: a chat-completions model as the loop's proposal step, and its logs.

1. `prompt`       — the prompt a real system sends at one step, part by part (what the variant's mock reads);
2. `replies`      — a model's reply read into a proposal: diff blocks or a whole program, parsed, never executed;
3. `bounded_http` — an httpx transport that stops reading a response body past a size bound;
4. `endpoint`     — an OpenAI-compatible chat endpoint (the optional `openai` package): timeouts, bounded retries;
5. `chatlog`      — the JSONL log of such a run;
6. `chat`         — `ChatLLM` (a real model as the proposal step) and `ReplayLLM` (a logged run, no network).

Built on the engine (toyhw.evolve); the engine never imports it: the loop takes any proposal step.
"""
