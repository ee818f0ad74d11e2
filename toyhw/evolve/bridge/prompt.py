"""The prompt an AlphaEvolve-style system would send a language model at one step of the loop.

Why: the mock LLM (toyhw.evolve.llm) reads the parent, the inspirations and the per-shape feedback as Python objects;
a real system writes the same things into a prompt. Rendering that prompt shows what "context in the prompt" and
"feedback" mean, and is what toyhw.evolve.bridge.chat sends to a real model. The prompt carries what the variant's mock
reads, no more: `no_borrow` has no inspirations, `no_feedback` no feedback table, `small_llm` no kernel knowledge.

A prompt is a system message and a user message made of named parts, each rendered by its own function (so a test can
check that two variants differ exactly in the expected parts, and a notebook can show them one by one):

    task, language, knowledge, parent, inspirations, feedback, instructions, answer

Sizes are in characters and in estimated tokens (`estimate_tokens`: a documented rule, no tokenizer).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional, Sequence

import numpy as np

from toyhw.evolve import knowledge, variants as variants_lib
from toyhw.evolve.database import Entry
from toyhw.evolve.llm import Feedback, MockLLM, edit_weights
from toyhw.evolve.programs import Program, choose, render
from toyhw.gemm import config as gemm_config
from toyhw.gemm.gpu import GPU, get_gpu

ANSWER_FORMATS = ("diff", "program")
"""How the model is asked to answer: SEARCH/REPLACE blocks over the parent's source (AlphaEvolve's diff format), or
the whole new program in one ```python block. toyhw.evolve.bridge.replies accepts either, whatever was asked."""
PART_NAMES = ("task", "language", "knowledge", "parent", "inspirations", "feedback", "instructions", "answer")
SYSTEM = (
    "You are an expert GPU kernel engineer. You improve the tiling heuristic of a GEMM kernel inside an "
    "evolutionary search (AlphaEvolve-style): every program you write is parsed, checked and timed, and the "
    "best ones are kept. Answer only in the format the user asks for."
)
_EDIT_KINDS = {
    "retune": "change the config that the rule deciding a shape returns",
    "specialize": "add a rule for one shape or a range of M (it may also test N or K)",
    "generalize": "add or split a rule so that it also covers a neighbouring range of M",
    "borrow": "copy a rule from one of the other programs shown",
}


@dataclass(frozen=True)
class PromptSettings:
    """What a variant puts into the prompt (the prompt-side reading of its MockLLM).

    Attributes:
        feedback: "best" (vs_best, with the best config seen), "roofline" (vs_roofline) or None (no table).
        focus: "weighted" (every training shape in the table) or "worst3" (only the 3 lowest ratios).
        knowledge: include the kernel-knowledge part (False for small_llm).
        inspirations: include the inspirations' sources (False when the mock would not borrow from them).
        new_rules: rules may be added or split; False = only the configs of the existing rules may change.
        answer: one of ANSWER_FORMATS.
    """

    feedback: Optional[str] = "best"
    focus: str = "weighted"
    knowledge: bool = True
    inspirations: bool = True
    new_rules: bool = True
    answer: str = "diff"

    def __post_init__(self) -> None:
        if self.answer not in ANSWER_FORMATS:
            raise ValueError(f"answer = {self.answer!r} is not allowed; allowed: {list(ANSWER_FORMATS)}")
        MockLLM(feedback=self.feedback, focus=self.focus)  # the mock names a bad feedback key or focus

    @classmethod
    def from_mock(cls, mock: MockLLM, answer: str = "diff") -> "PromptSettings":
        """Return the settings that show what `mock` reads (it borrows only when it may also add rules)."""
        return cls(
            mock.feedback, mock.focus, mock.knowledge, mock.use_inspirations and mock.new_rules, mock.new_rules, answer
        )

    def as_dict(self) -> dict:
        """Return the settings as a JSON-ready dict (kept in a run's log)."""
        return {
            "feedback": self.feedback,
            "focus": self.focus,
            "knowledge": self.knowledge,
            "inspirations": self.inspirations,
            "new_rules": self.new_rules,
            "answer": self.answer,
        }


def settings_for(variant: str, answer: str = "diff") -> PromptSettings:
    """Return the prompt settings of `variant` (a name of toyhw.evolve.variants; unknown -> KeyError)."""
    return PromptSettings.from_mock(variants_lib.get(variant).llm, answer)


@dataclass(frozen=True)
class Prompt:
    """A rendered prompt.

    Attributes:
        system: the system message (the same for every variant).
        parts: (name, text) pairs in PART_NAMES order, the parts a variant leaves out absent; the user message is
            their texts joined by blank lines.
    """

    system: str
    parts: tuple[tuple[str, str], ...]

    def part(self, name: str) -> Optional[str]:
        """Return the text of part `name`, None when this prompt has no such part."""
        return dict(self.parts).get(name)

    def names(self) -> tuple[str, ...]:
        """Return the names of the parts present."""
        return tuple(name for name, _ in self.parts)

    def user(self) -> str:
        """Return the user message."""
        return "\n\n".join(text for _, text in self.parts)

    def messages(self) -> list[dict[str, str]]:
        """Return the chat messages sent to the model (OpenAI chat-completions shape)."""
        return [{"role": "system", "content": self.system}, {"role": "user", "content": self.user()}]

    def text(self) -> str:
        """Return the whole prompt as a person reads it: both messages, each under its role."""
        return f"[system]\n{self.system}\n\n[user]\n{self.user()}\n"

    def chars(self) -> int:
        """Return the characters sent: the system and the user message."""
        return len(self.system) + len(self.user())

    def tokens(self) -> int:
        """Return the estimated tokens of both messages (see `estimate_tokens`)."""
        return estimate_tokens(self.system) + estimate_tokens(self.user())


_PIECES = re.compile(r"[A-Za-z]+|[0-9]{1,3}|\n[ \t]*|[^\sA-Za-z0-9]{1,2}")


def estimate_tokens(text: str) -> int:
    """Return an estimate of the tokens in `text`, with no tokenizer and no network.

    The rule: count the pieces GPT-style byte-pair tokenizers start from - runs of letters (a space before a word
    joins it), numbers in chunks of up to 3 digits, a line break with its indentation, and punctuation in pairs
    (`<=`, `):`). It is an estimate: real tokenizers differ between models, merge some pieces and split long words.
    For this pack's prompts (code, numbers, tables) it gives more tokens than the chars/4 rule of thumb for prose.
    """
    return len(_PIECES.findall(text))


# ----- the parts


def task_part(n_shapes: int, gpu: GPU) -> str:
    """Return what is being optimized and how it is scored (the same for every variant)."""
    return "\n".join(
        [
            "## Task",
            f"Improve `choose(M, N, K)`, the tiling heuristic of a bf16 GEMM kernel C[M, N] = A[M, K] @ B[K, N] on an "
            f"{gpu.model}: for every shape it returns the Config the kernel is launched with.",
            f"Score = geometric-mean speedup over the expert heuristic on {n_shapes} training shapes (Llama-3 8B and "
            "70B/8 layers, M = tokens); as many shapes are held out. Higher is better; 1.0 = the expert.",
            "A program with any branch whose config cannot launch is rejected, even a branch no training shape reaches.",
        ]
    )


def language_part(gpu: GPU) -> str:
    """Return the rule language, the config fields and their values, and the launch limits of `gpu`."""
    fields = "\n".join(f"    {name}: {', '.join(map(str, values))}" for name, values in gemm_config.FIELDS.items())
    b = gemm_config.BYTES_PER_ELEMENT
    return "\n".join(
        [
            "## The program language (the program is parsed, never executed; anything else is rejected)",
            "- exactly one `def choose(M, N, K):`, then `if <condition>:` + `return Config(...)` pairs (elif/else "
            "allowed), ending in `return Config(...)` (the default);",
            "- a condition compares M, N or K with integer literals (<, <=, >, >=, ==, chains like `32 <= M <= 96`) "
            "joined by `and` (no `or`); the first rule whose condition holds decides;",
            "- `Config(block_m=..., block_n=..., block_k=..., num_warps=..., num_stages=..., split_k=...)` with values:",
            fields,
            f"Launch limits on the {gpu.name} (a config over any of them cannot launch):",
            f"- shared memory: num_stages * (block_m + block_n) * block_k * {b} bytes <= {gpu.smem_per_block};",
            f"- registers: ceil(block_m * block_n / (32 * num_warps)) + {gemm_config.REG_OVERHEAD} <= "
            f"{gpu.max_regs_per_thread} per thread;",
            f"- warp tiling: block_m * block_n >= {gemm_config.MIN_WARP_TILE} * num_warps (a 16x16 piece per warp).",
            "Tables below write a config as BMxBNxBK wWARPS sSTAGES kSPLIT_K, e.g. 64x64x128 w4 s4 k1.",
        ]
    )


def knowledge_part() -> str:
    """Return the kernel knowledge the mock has (absent from a small_llm prompt)."""
    return "## Kernel knowledge (what usually works on this GPU)\n" + knowledge.as_text()


def _program_block(program: Program) -> str:
    return "```python\n" + render(program) + "```"


def parent_part(parent: Entry) -> str:
    """Return the current program's source and score."""
    return f"## Current program (score {parent.score:.4f}, {parent.program.n_rules()} branches)\n" + _program_block(
        parent.program
    )


def inspirations_part(inspirations: Sequence[Entry]) -> str:
    """Return the other programs shown for ideas, each with its score."""
    lines = ["## Other programs from the database, for ideas (you may copy their rules)"]
    for i, entry in enumerate(inspirations, 1):
        lines.append(f"Program {i} (score {entry.score:.4f}, {entry.program.n_rules()} branches):")
        lines.append(_program_block(entry.program))
    return "\n".join(lines)


def _rows(feedback: Feedback, key: str, focus: str) -> list[int]:
    if focus == "worst3":
        ratio = feedback.vs_best if key == "best" else feedback.vs_roofline
        return [int(i) for i in np.argsort(ratio, kind="stable")[:3]]  # the mock's worst3, in its order
    return list(range(len(feedback.shapes)))


def feedback_part(parent: Entry, feedback: Feedback, key: str, focus: str) -> str:
    """Return the per-shape table: shape, current config, time and vs_best with the best config seen (key "best")
    or vs_roofline (key "roofline"); only the 3 lowest ratios with focus "worst3"."""
    ratio_name = "vs_best" if key == "best" else "vs_roofline"
    if key == "best":
        intro = (
            "vs_best = best time seen on the shape (any program so far) / this program's time; 1.000 = no known "
            "faster config, lower = a faster config is known (shown)."
        )
    else:
        intro = (
            "vs_roofline = the shape's roofline time (the hardware bound) / this program's time; 1.000 = at the "
            "bound. A bound, not a config: no faster config is shown."
        )
    which = f"the 3 shapes with the lowest {ratio_name}: work on these" if focus == "worst3" else "every training shape"
    header = f"{'shape':<22}{'N':>7}{'K':>7}  {'config':<22}{'time us':>9}{ratio_name:>13}"
    if key == "best":
        header += "  best config seen"
    lines = [f"## Per-shape results of the current program, on {which}", intro, header]
    ratios = feedback.vs_best if key == "best" else feedback.vs_roofline
    for i in _rows(feedback, key, focus):
        shape = feedback.shapes[i]
        current = choose(parent.program, shape)
        line = (
            f"{shape.label():<22}{shape.N:>7}{shape.K:>7}  {current.short():<22}{parent.times[i]:>9.2f}"
            f"{ratios[i]:>13.3f}"
        )
        if key == "best":
            best = feedback.best_configs[i]
            line += "  " + ("same" if best == current else best.short())
        lines.append(line)
    return "\n".join(lines)


def edit_mix(settings: PromptSettings, mix: Optional[dict], can_borrow: bool) -> dict[str, float]:
    """Return the share of each edit kind the prompt asks for, as the mock picks them (MockLLM._operator): borrowing
    only when other programs are shown (`can_borrow`)."""
    weights = edit_weights(mix, settings.knowledge, settings.new_rules, can_borrow)
    total = sum(weights.values())
    return {op: weight / total for op, weight in weights.items()}


def instructions_part(settings: PromptSettings, mix: Optional[dict], can_borrow: bool) -> str:
    """Return what to change: one focused change, and the kinds of change asked for with their shares (the meta
    prompt: the shares adapt to what has paid off, unless the variant fixes them)."""
    lines = [
        "## What to change",
        "Make one focused change that should raise the score. The kinds of change we ask for, with the share "
        "of proposals we want of each:",
    ]
    lines += [f"- {op} ({share:.0%}): {_EDIT_KINDS[op]}" for op, share in edit_mix(settings, mix, can_borrow).items()]
    if not settings.new_rules:
        lines.append("Keep every condition as it is and add no rule: only the configs may change.")
    return "\n".join(lines)


def answer_part(answer: str) -> str:
    """Return the answer format: SEARCH/REPLACE blocks over the current program, or the whole program."""
    if answer == "program":
        return "\n".join(
            [
                "## Answer format",
                "First one line saying what you change and why. Then the whole new program in one ```python block.",
            ]
        )
    return "\n".join(
        [
            "## Answer format",
            "First one line saying what you change and why. Then one or more SEARCH/REPLACE blocks that turn the current "
            "program into the new one, like this:",
            "<<<<<<< SEARCH",
            "    if M <= 16:",
            "=======",
            "    if M <= 4 and K >= 8192:",
            "        return Config(block_m=16, block_n=64, block_k=128, num_warps=2, num_stages=4, split_k=4)",
            "    if M <= 16:",
            ">>>>>>> REPLACE",
            "Each SEARCH text must be whole lines copied exactly from the current program and must occur there exactly "
            "once. You may instead give the whole new program in one ```python block.",
        ]
    )


def render_prompt(
    parent: Entry, inspirations: Sequence[Entry], feedback: Feedback, settings: PromptSettings, gpu: GPU | str = "H100"
) -> Prompt:
    """Return the prompt for one proposal step: the same arguments as a proposal step, plus the variant's settings."""
    device = get_gpu(gpu) if isinstance(gpu, str) else gpu
    parts = [("task", task_part(len(feedback.shapes), device)), ("language", language_part(device))]
    if settings.knowledge:
        parts.append(("knowledge", knowledge_part()))
    parts.append(("parent", parent_part(parent)))
    shown = settings.inspirations and bool(inspirations)
    if shown:
        parts.append(("inspirations", inspirations_part(inspirations)))
    if settings.feedback is not None:
        parts.append(("feedback", feedback_part(parent, feedback, settings.feedback, settings.focus)))
    parts.append(("instructions", instructions_part(settings, feedback.mix, shown)))
    parts.append(("answer", answer_part(settings.answer)))
    return Prompt(SYSTEM, tuple(parts))
