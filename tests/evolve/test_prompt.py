"""The rendered prompt: its parts, how each variant's prompt differs from the full method's, and the prompt at a step."""

import pytest

from toyhw.evolve import variants
from toyhw.evolve.experiments.ablations import context
from toyhw.evolve.evaluator import Evaluator
from toyhw.evolve.llm import FIXED_MIX
from toyhw.evolve.loop import evolve
from toyhw.evolve.programs import expert_program, render
from toyhw.evolve.bridge.prompt import PART_NAMES, PromptSettings, estimate_tokens, render_prompt, settings_for
from toyhw.course.prompt_view import prompt_at, record_step
from toyhw.evolve.bridge.replies import read_reply
from toyhw.evolve.source import parse

# Given the same parent, inspirations and feedback, the parts in which each variant's prompt differs from the full
# method's: a part missing or with other text. The loop-side variants (islands, cascade, evolution, meta prompt)
# change what the prompt is given, not how it is written.
EXPECTED_DIFFERENCES = {
    "full": set(),
    "fb_roofline": {"feedback"},  # vs_roofline, no best config to adopt
    "fb_worst3": {"feedback"},  # only the 3 lowest vs_best
    "no_feedback": {"feedback"},  # no table at all
    "small_llm": {"knowledge", "instructions"},  # no kernel knowledge; no guessed rules (retune, specialize only)
    "no_borrow": {"inspirations", "instructions"},  # no other programs, nothing to borrow
    "no_full_file": {"inspirations", "instructions"},  # only configs change: nothing to borrow, no new rules
    "no_evolution": set(),
    "one_island": set(),
    "no_cascade": set(),
    "no_meta_prompt": set(),
}


def step_inputs(step=100, seed=0):
    """Return the full method's (parent, inspirations, feedback) at `step` of seed `seed`."""
    ctx = context()
    seen = record_step(step, Evaluator(ctx.train, ctx.table), seed=seed)
    return seen.parent, seen.inspirations, seen.feedback


def test_every_variant_is_listed_with_its_expected_differences():
    assert set(EXPECTED_DIFFERENCES) == set(variants.available())


@pytest.mark.parametrize("variant", sorted(EXPECTED_DIFFERENCES))
def test_each_variants_prompt_differs_from_the_full_one_exactly_in_the_expected_parts(variant):
    parent, inspirations, feedback = step_inputs()
    full = render_prompt(parent, inspirations, feedback, settings_for("full"))
    mine = render_prompt(parent, inspirations, feedback, settings_for(variant))
    assert full.names() == PART_NAMES
    differing = {name for name in PART_NAMES if full.part(name) != mine.part(name)}
    assert differing == EXPECTED_DIFFERENCES[variant]
    assert mine.system == full.system


def test_the_parts_say_what_each_variant_changes():
    parent, inspirations, feedback = step_inputs()
    prompt = {v: render_prompt(parent, inspirations, feedback, settings_for(v)) for v in EXPECTED_DIFFERENCES}
    assert "vs_best" in prompt["full"].part("feedback") and "best config seen" in prompt["full"].part("feedback")
    assert "vs_roofline" in prompt["fb_roofline"].part("feedback")
    assert "best config seen" not in prompt["fb_roofline"].part("feedback")
    rows = [line for line in prompt["fb_worst3"].part("feedback").splitlines() if " M=" in line]
    assert len(rows) == 3
    assert prompt["no_feedback"].part("feedback") is None
    assert prompt["small_llm"].part("knowledge") is None and "borrow" not in prompt["small_llm"].part("instructions")
    assert prompt["no_borrow"].part("inspirations") is None
    assert "borrow" not in prompt["no_borrow"].part("instructions")
    assert "add no rule" in prompt["no_full_file"].part("instructions")
    full_rows = [line for line in prompt["full"].part("feedback").splitlines() if " M=" in line]
    assert len(full_rows) == len(feedback.shapes) == 44


def test_the_prompt_carries_the_parent_and_inspirations_as_source_that_parses_back():
    parent, inspirations, feedback = step_inputs()
    prompt = render_prompt(parent, inspirations, feedback, settings_for("full"))
    assert render(parent.program) in prompt.part("parent") and f"{parent.score:.4f}" in prompt.part("parent")
    for entry in inspirations:
        assert render(entry.program) in prompt.part("inspirations")
        assert parse(render(entry.program)) == entry.program


def test_the_language_part_gives_the_config_fields_and_the_h100_launch_limits():
    parent, inspirations, feedback = step_inputs(10)
    text = render_prompt(parent, inspirations, feedback, settings_for("full")).part("language")
    for needle in (
        "block_m: 16, 32, 64, 128, 256",
        "split_k: 1, 2, 4, 8",
        "<= 232448",
        "<= 255 per thread",
        ">= 256 * num_warps",
        "never executed",
    ):
        assert needle in text


def test_the_prompt_at_a_step_in_each_variants_run():
    views = {
        v: prompt_at(v, 0, 100)
        for v in ("full", "no_feedback", "no_borrow", "small_llm", "no_evolution", "no_meta_prompt")
    }
    assert views["full"].prompt.names() == PART_NAMES
    assert "feedback" not in views["no_feedback"].prompt.names()
    assert "inspirations" not in views["no_borrow"].prompt.names()
    assert "knowledge" not in views["small_llm"].prompt.names()
    # no evolution: every proposal edits the initial program, with no other programs shown
    assert views["no_evolution"].parent_source == render(expert_program())
    assert "inspirations" not in views["no_evolution"].prompt.names()
    fixed = [f"{op} ({share:.0%})" for op, share in FIXED_MIX.items()]
    assert all(s in views["no_meta_prompt"].prompt.part("instructions") for s in fixed)


def test_the_prompt_view_gives_sizes_and_the_mocks_answer_as_a_model_would_write_it():
    view = prompt_at("full", 0, 100)
    assert view.chars == len(view.prompt.system) + len(view.prompt.user()) and view.chars > 5000
    assert view.tokens == estimate_tokens(view.prompt.system) + estimate_tokens(view.prompt.user())
    assert view.reply.startswith(view.description) and "<<<<<<< SEARCH" in view.reply
    assert read_reply(view.reply, parse(view.parent_source)).program == parse(view.child_source)
    assert view.diff.startswith("--- parent") and view.child_score > 0
    program = prompt_at("full", 0, 100, answer="program")
    assert "```python" in program.reply and "SEARCH" not in program.prompt.part("answer")
    assert read_reply(program.reply, parse(program.parent_source)).program == parse(program.child_source)


def test_recording_the_prompt_changes_nothing_in_the_run():
    ctx = context()
    plain = evolve(Evaluator(ctx.train, ctx.table), 150, seed=3)
    steps = []
    recorded = evolve(Evaluator(ctx.train, ctx.table), 150, seed=3, observer=steps.append)
    assert plain.history == recorded.history and plain.best == recorded.best and len(steps) == 150
    assert [s.step for s in steps] == list(range(1, 151)) and [s.island for s in steps[:5]] == [0, 1, 2, 3, 0]


def test_the_same_step_gives_the_same_prompt():
    a = prompt_at.__wrapped__("fb_roofline", 2, 40)
    b = prompt_at.__wrapped__("fb_roofline", 2, 40)
    assert a.prompt == b.prompt and a.reply == b.reply


def test_estimate_tokens_counts_words_number_chunks_line_breaks_and_punctuation_pairs():
    assert estimate_tokens("") == 0
    assert estimate_tokens("def choose(M, N, K):") == 9  # def choose ( M , N , K ):
    assert estimate_tokens("12288") == 2 and estimate_tokens("a\n    b") == 3


@pytest.mark.parametrize(
    "kwargs, needle",
    [
        ({"step": 0}, "step = 0"),
        ({"step": 2.5}, "step = 2.5"),
        ({"answer": "xml"}, "answer = 'xml'"),
    ],
)
def test_bad_arguments_name_the_parameter(kwargs, needle):
    with pytest.raises(ValueError, match=needle.replace(".", r"\.")):
        prompt_at(**{"variant": "full", "seed": 0, "step": 5, **kwargs})


def test_unknown_variant_and_bad_settings_are_refused():
    with pytest.raises(KeyError):
        prompt_at("no_such_variant", 0, 5)
    with pytest.raises(ValueError, match="feedback"):
        PromptSettings(feedback="loud")
    with pytest.raises(ValueError, match="answer"):
        settings_for("full", answer="xml")


def test_the_observer_gets_a_snapshot_of_the_feedback_the_step_saw():
    ctx = context()
    steps = []
    evolve(Evaluator(ctx.train, ctx.table), 30, seed=1, observer=steps.append)
    parent, feedback, proposal = steps[4].parent, steps[4].feedback, steps[4].proposal
    assert len(steps) == 30 and proposal.program is not None
    assert isinstance(feedback.best_configs, tuple) and len(feedback.best_configs) == len(feedback.shapes)
    again = prompt_at.__wrapped__("full", 1, 5)
    assert again.parent_score == parent.score and again.description == proposal.description
