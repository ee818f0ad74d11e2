"""Notebook 07's prose numbers, recomputed from toyhw (see tests/test_prose_numbers.py).

`quotes()` returns each phrase of the markdown that states a number, built from the pack's computed values; a claim
without a number of its own ("happens to contain", "the same answer") is checked with `_holds` before its phrase is
returned.
"""

from __future__ import annotations

from toyhw import data
import re

from toyhw.course import evolve_tables as tables
from toyhw.evolve.database import Database
from toyhw.evolve.evaluator import CASCADE_EVERY, Evaluator, geomean_speedup
from toyhw.evolve.experiments import ablations, branch_check
from toyhw.evolve.programs import Program, Rule, branch_line, expert_program
from toyhw.evolve.simplify import simplify
from toyhw.evolve.source import parse
from toyhw.gemm import config as gemm_config, shapes as shapes_lib
from toyhw.gemm.config import GemmConfig
from prose.guide import BOARD_MINUTES
from prose.phrasing import holds as _holds
from toyhw.course.board import scoring as board_scoring
from exercise_cells import NOTEBOOKS, load_solution

SEEDS, BUDGET = ablations.SEEDS, ablations.BUDGET

# Comparative sentences (tests/test_comparison_claims.py) that compare no computed results: definitions, instructions,
# questions, how the check and the database work, sources.
NOT_RESULTS = [
    "*Lecture 14, part 3 · estimated time",  # the timing line: minutes of the plan, no result
    "A branch that no training shape reaches is never run",
    "Notebook 05 shows the parts this notebook takes as given",
    "The check reads the source with `ast` (never running it)",
    "Per seed: programs added to the database and how many of them",
    "a new program enters an island only by replacing its worst program",
    "A latent bad branch costs nothing in the score, so it is removed only when",
    "The first program (in seed order) of a final database",
    "M is the number of tokens in the batch",
    "The source is parsed and never run",
    "Check it, fix it, then try to beat the expert",
    "Below, switch the **branch check** to see a program",
    "Does a larger budget leave more or fewer programs with a bad branch",
    "The figure and card above are the panel's starting state",
    "A bad branch stays only while its program is among its island's best",
    "The static check still wins: it needs no run at all",
    "Other properties a static reading could verify the same way",
    "Reducing block sizes or `num_stages` may help.",
    "A decode step replays a CUDA graph captured for a fixed batch size",  # vLLM's rule, quoted with its source
    "* vLLM's CUDA-graph capture sizes:",
    "4. read a heuristic written as Python source, checked and scored",  # what Section 4 shows
    "Section 4's heuristic has one branch that cannot launch; `my_source`",  # Exercise 1's task
    "A right answer parses, every branch launches, and it scores above 1.000 on both sets.",
    "The board parses it (it never runs it)",  # what the class leaderboard does (toyhw.course.board)
]
# Comparative sentences whose comparison is what a quoted number is computed as (tests/test_comparison_claims.py).
QUOTED = [
    "the bug bites rarely but not never: in 1 of 5 seeds",
    "Line 17 sends `25 <= M <= 32`",
    "It cost no kernel run: seed 0's run with the check refused",
]

PARAMETERS = [
    "(10 runs of 1000\nproposed programs",  # the demo: 5 seeds x (with, without the check)
    "The demo runs the full method on seeds 0-4 twice",
    "returning the 5-stage `128x256x64` config",  # the hand-made bad config
    "(score 1.000 by definition)",  # the expert is the reference of every score
    "Use 128x256 (8 warps) or 256x128.",  # hint: a config that launches
    "(the table tells you for seeds 0-4;",  # demo questions
    "(seed 0, 1000 programs, check off)",
    "Count, over seeds 0-4,",  # Exercise 3
    "*The Llama 3 Herd of Models.*",  # a title
    "Llama 3 405B has 128 attention\n  heads",  # the paper's figure (checked against the csv below)
    "it scores above 1.000 on both sets",  # Exercise 1: what a right answer reaches
    "the check tries 2000-4000 and Section 1's\n3000-4000.",  # Exercise 2: the ranges the check tries
    "For 2000-4000, without the check",  # Exercise 2's range
    "[solutions/07_checking_all_branches.py](solutions/07_checking_all_branches.py)",  # the solution file's link
]


# vLLM's default CUDA-graph capture sizes, as `VllmConfig._set_cudagraph_sizes` builds them (vllm/config/vllm.py at
# commit 09f030eaf851400a83ad3d99f730868f76df0ca7, cited in notebook 07's References): 1, 2, 4, the multiples of 8
# below 256, then the multiples of 16 from 256 up to the largest size, min(2 x max_num_seqs, 512) without speculative
# decoding (512 at vLLM's default of 256 sequences and above). Think! 3 quotes the rule and counts the sizes.
VLLM_SMALL, VLLM_STEPS, VLLM_BREAK, VLLM_MAX_CAPTURE = (1, 2, 4), (8, 16), 256, 512


def vllm_capture_sizes(max_size: int = VLLM_MAX_CAPTURE) -> list[int]:
    """Return vLLM's default capture sizes up to `max_size`, the way `_set_cudagraph_sizes` lists them."""
    sizes = [i for i in VLLM_SMALL if i <= max_size]
    if max_size >= VLLM_STEPS[0]:
        sizes += list(range(VLLM_STEPS[0], min(max_size + 1, VLLM_BREAK), VLLM_STEPS[0]))
    if max_size >= VLLM_BREAK:
        sizes += list(range(VLLM_BREAK, max_size + 1, VLLM_STEPS[1]))
    return sizes


def vllm_padded(batch: int, sizes: list[int]) -> int | None:
    """Return the captured size a decode batch runs at (the smallest that holds it), None above the largest."""
    return next((s for s in sizes if s >= batch), None)


def quotes() -> list[str]:
    solutions = load_solution(NOTEBOOKS / "07_checking_all_branches.ipynb")  # its solution file
    sizes = vllm_capture_sizes()
    ctx = ablations.context()
    gpu = ctx.table.gpu
    demo = branch_check.branches(SEEDS, BUDGET)
    off, on = demo["unchecked"], demo["checked"]
    expert = expert_program()
    bad = GemmConfig(128, 256, 64, 8, 5, 1)
    latent = Program((Rule(bad, m_min=3000, m_max=4000),) + expert.rules, expert.default)
    unchecked = Evaluator(ctx.train, ctx.table, check_all_branches=False).evaluate(latent)
    checked = Evaluator(ctx.train, ctx.table, check_all_branches=True).evaluate(latent)
    row = next(r for r in off if r.example is not None)
    program = simplify(row.example)
    crash = branch_check.crashes(program, ctx.new)
    untested = solutions.untested_branches(program, ctx.train)
    per_seed_bad = {r.seed: r.added_bad_branch for r in off}
    worst = max(per_seed_bad, key=per_seed_bad.get)
    best_bad = [r.seed for r in off if r.best_has_bad_branch]
    db = Database.__init__.__defaults__  # (n_islands, capacity, migrate_every, ...)
    n_islands, capacity = db[0], db[1]
    seed1 = next(r for r in off if r.seed == worst)
    by_budget = {b: branch_check.branch_row(0, b, False).db_bad_branch for b in (100, 300, 500, 1000)}
    more = [s for s in range(20) if branch_check.branch_row(s, BUDGET, False).best_has_bad_branch]
    refused = ablations.run_one("full", 0, BUDGET).statuses["bad branch"]
    start = parse("""
def choose(M, N, K):
    if M <= 16 and N <= 2048:
        return Config(block_m=16, block_n=32, block_k=256, num_warps=2, num_stages=5, split_k=4)
    if M <= 16:
        return Config(block_m=16, block_n=64, block_k=256, num_warps=4, num_stages=5, split_k=1)
    if M <= 128:
        return Config(block_m=64, block_n=64, block_k=128, num_warps=4, num_stages=4, split_k=1)
    if 4096 <= M <= 6144:
        return Config(block_m=128, block_n=256, block_k=64, num_warps=8, num_stages=3, split_k=1)
    return Config(block_m=128, block_n=256, block_k=64, num_warps=8, num_stages=3, split_k=1)
""")  # the notebook's starting point, its bad config replaced: the train and test scores do not reach it
    start_scores = [geomean_speedup(start, s, ctx.table) for s in (ctx.train, ctx.test)]
    fixed = parse(solutions.my_source)
    fixed_scores = [geomean_speedup(fixed, s, ctx.table) for s in (ctx.train, ctx.test, ctx.new)]
    searched = ablations.run_one("full", 0, BUDGET)
    on_training = solutions.bad_branch_on_a_training_shape()
    m2048 = [i for i, s in enumerate(ctx.train) if s.M == 2048]
    sixteen = solutions.new_shape_crashes()
    eight = solutions.new_shape_crashes(new_layers=("405B/8 qkv 8kv", "405B/8 down"))
    layers = {str(r["name"]): r for r in data.layer_rows()}
    hidden, ffn = shapes_lib.ALL_LAYERS["405B o"][0], shapes_lib.ALL_LAYERS["405B down"][1]

    board_rows = dict(board_scoring.fixed_rows())  # the class leaderboard's fixed rows
    return [
        _holds(
            board_rows["evolved"].held_out - 1 < 0.5 * (board_rows["evolved"].train - 1),
            "the search's own program shows it too",
        ),
        # the panel: the seeds it runs when it is made (toyhw.panels.evolution.branches_panel)
        f"Seeds {SEEDS[0]}-{SEEDS[-1]} were run when the panel appeared",
        # introduction
        f"{BOARD_MINUTES} more when the class plays the leaderboard",  # the guide's slot for it in lecture 14
        f"running its kernels on the {len(ctx.train)} training shapes",
        f"crashes on {len(ctx.new)} new shapes",
        # Section 1
        _holds(
            gemm_config.shared_memory_bytes(bad) > gpu.smem_per_block,
            f"Its operand tiles need {gemm_config.shared_memory_bytes(bad):,} B of shared memory; an H100 block may "
            f"use at most {gpu.smem_per_block:,} B.",
        ),
        f"it scores {unchecked.score:.3f}, exactly the expert, in {unchecked.runs} kernel runs, because no training "
        f"shape reaches line {branch_line(latent, 0)}. With the check it is rejected as a \"bad branch\" in "
        f"{checked.runs} kernel runs.",
        # Think! 1
        f"Exercise 4 finds {len(untested)} branches of Section 3's program that no training shape reaches, one of them "
        f"the bad one.",
        # Section 2
        f"how many programs of the final database fail on at least one of the {len(ctx.new)} new shapes",
        _holds(
            int(layers["405B/8 qkv"]["tp"]) == 8
            and int(layers["405B/8 qkv"]["n"]) == 2560
            and int(layers["405B/8 qkv 8kv"]["n"]) == 2304,
            f"the lecture's {len(shapes_lib.LAYERS)} layers plus two layers of Llama-3.1-405B at tensor-parallel "
            f"{layers['405B/8 qkv']['tp']}, each at {len(shapes_lib.NEW_M)} token counts the training shapes do not "
            f"use.",
        ),
        _holds(
            worst == 1 and all(r.added_bad_branch == 0 and r.crash_new_shapes == 0 for r in on),
            f"**without the check**, {sum(r.added_bad_branch for r in off)} programs with a bad branch entered the "
            f"databases (seeds 0-4 together), {per_seed_bad[worst]} of them in seed {worst} alone; "
            f"{sum(r.db_bad_branch for r in off)} are still in the final databases, and "
            f"{sum(r.crash_new_shapes for r in off)} of those fail on some new shape.",
        ),
        f"in {len(best_bad)} of {len(off)} seeds (seed {best_bad[0]}) the *best* program",
        _holds(
            [int(n) for n in re.findall(r"\d+", " ".join(tables.branches_observations(demo)))]
            == [
                sum(r.added_bad_branch for r in off),
                len(off),
                sum(r.db_bad_branch for r in off),
                len(best_bad),
                len(off),
                sum(r.crash_new_shapes for r in off),
                len(ctx.new),
                sum(r.added_bad_branch for r in on),
                sum(r.crash_new_shapes for r in on),
            ],
            "**with the check**, no such program is added and nothing crashes on the new shapes",
        ),
        f"the runs still add {min(r.added for r in on)}-{max(r.added for r in on)} programs each (without: "
        f"{min(r.added for r in off)}-{max(r.added for r in off)}).",
        # Think! 2
        f"{sum(r.added_bad_branch for r in off)} were added and {sum(r.db_bad_branch for r in off)} remain. The "
        f"database holds {capacity} programs, split over {n_islands} islands of {capacity // n_islands}",
        f"as in seed {worst}, where {seed1.db_bad_branch} of the final database's {seed1.db_size} programs carry one.",
        # Section 3
        f"Seed {row.seed}'s program has {program.n_rules()} rules. Line {crash[0].line} sends `25 <= M <= 32` with "
        f"`N >= 8192` to a 5-stage `64x256x128` config that needs "
        f"{gemm_config.shared_memory_bytes(program.rules[(crash[0].line - 3) // 2].config):,} B of shared memory: no "
        f"training shape has an M in that range, so the program scores "
        f"{geomean_speedup(program, ctx.train, ctx.table):.3f} and the branch was never run.",
        f"It fails on {len(crash)} of the {len(ctx.new)} new shapes, first `{crash[0].shape.label()}`.",
        # Think! 3
        f"vLLM's default sizes are\n{VLLM_SMALL[0]}, {VLLM_SMALL[1]}, {VLLM_SMALL[2]}, then every multiple of "
        f"{VLLM_STEPS[0]} below {VLLM_BREAK} and of {VLLM_STEPS[1]} from {VLLM_BREAK} up to {VLLM_MAX_CAPTURE},",
        f"That is {len(sizes)} decode M values, changing from step to step — {crash[0].shape.M}\nconcurrent decodes "
        "is an ordinary afternoon",
        f"The lecture's {len(shapes_lib.LECTURE_M)} token counts are a sample ({min(shapes_lib.LECTURE_M)} to "
        f"{max(shapes_lib.LECTURE_M)}); the new shapes' {len(shapes_lib.NEW_M)} ({min(shapes_lib.NEW_M)} to "
        f"{max(shapes_lib.NEW_M)}) are another",
        _holds(
            {vllm_padded(m, sizes) for m in range(25, 33)} == {crash[0].shape.M},
            f"vLLM runs a decode batch of 25 to 32 sequences at its captured size {crash[0].shape.M}.",
        ),
        # Section 4
        _holds(
            not any(4096 <= s.M <= 6144 for s in ctx.train + ctx.test) and any(s.M == 6144 for s in ctx.new),
            f"The starting point scores {start_scores[0]:.3f} on the training shapes and {start_scores[1]:.3f} on "
            f"the test shapes, which have no M in 4096-6144 either; on the new shapes, which have `M = 6144`, it "
            f"fails to launch (0.000).",
        ),
        f"scores {fixed_scores[0]:.3f} on the training shapes, {fixed_scores[1]:.3f} on the test shapes and "
        f"{fixed_scores[2]:.3f} on the new ones.",
        _holds(
            fixed_scores[1] > searched.test and fixed_scores[0] < searched.final,
            f"Its {fixed.n_rules()} rules beat the search's best program of seed 0 (notebook 04) on the held-out "
            f"shapes ({searched.test:.3f} with {searched.rules} rules), though not on the training shapes "
            f"({searched.final:.3f}); the oracle is {ctx.oracle_train:.3f} and {ctx.oracle_test:.3f}.",
        ),
        # demo answers
        f"for seed 0 the final database holds {by_budget[100]} such programs after 100 programs, {by_budget[300]} after "
        f"300 and 500, and {by_budget[1000]} after 1000.",
        _holds(
            by_budget[300] == by_budget[500],
            f"Seed {best_bad[0]} among seeds 0-4; the next ones are seeds {more[1]} and {more[2]}.",
        ),
        f"seed 0's run with the check refused {refused} of its {BUDGET} proposals as a \"bad branch\", each in 0 runs.",
        # Summary
        f"{sum(r.db_bad_branch for r in off)} in the final databases of {len(off)} seeds, "
        f"{sum(r.crash_new_shapes for r in off)} of them failing on new shapes, and in {len(best_bad)} seed the best "
        f"program itself.",
        # Exercise 2
        f"without the check the program is a \"{on_training['no check, cascade'][0]}\" — "
        f"{on_training['no check, cascade'][1]} kernel runs with the cascade, {on_training['no check, no cascade'][1]} "
        f"without; with the check it is a \"{on_training['check'][0]}\" in {on_training['check'][1]} runs.",
        _holds(
            CASCADE_EVERY == 4 and sum(i % CASCADE_EVERY == 0 for i in m2048) == 1,
            f"happens to contain one of the {len(m2048)} shapes with `M = 2048`",
        ),
        # Exercise 3
        f"of the {sixteen['crashing']} crashing programs, {sixteen['only on the new layers']} crash only on the 405B/8 "
        f"layers. {sixteen['per layer']['405B/8 down']} fail on `405B/8 down` and {sixteen['per layer']['405B/8 qkv']} "
        f"on `405B/8 qkv`, but {sixteen['per layer']['70B/8 o']} fail on `70B/8 o` and "
        f"{sixteen['per layer']['70B/8 down']} on `70B/8 down` — layers of the training set.",
        _holds(
            eight["crashing"] == sixteen["crashing"] and eight["only on the new layers"] == 0,
            f"the count is the same: {eight['crashing']} crashing programs, {eight['per layer']['405B/8 qkv 8kv']} of "
            f"them on the eight-KV-head layer.",
        ),
        # Exercise 4
        _holds(
            crash[0].line in untested and solutions.untested_branches(expert, ctx.train) == [],
            "lines " + ", ".join(map(str, untested[:-1])) + f" and {untested[-1]} — {len(untested)} of its "
            f"{program.n_rules() + 1} branches ({program.n_rules()} rules and the default) are never run by the "
            f"evaluator, line {crash[0].line} the bad one.",
        ),
        # comparisons without a number of their own (tests/test_comparison_claims.py)
        _holds(all(r.db_bad_branch == 0 for r in on), "so the final database holds none"),
        _holds(
            eight["crashing"] == sixteen["crashing"] and eight["only on the new layers"] == 0,
            "Exercise 3 repeats the count with `N = 2304` and gets the same answer",
        ),
        _holds(solutions.untested_branches(expert, ctx.train) == [], "The expert has none"),
        _holds(
            fixed_scores[1] > searched.test and fixed_scores[1] / fixed_scores[0] > searched.test / searched.final,
            "Rules that follow the hardware's reasons generalize; rules fitted shape by\nshape to the training set, "
            "as the search writes them, carry over less",
        ),
        # references
        f"model dimension {hidden:,} and FFN dimension {ffn:,}",
        # Glossary
        f"{n_islands} islands of bounded size",
        f"demo 3's {len(ctx.new)} shapes: the lecture's layers and two 405B/8 layers at {len(shapes_lib.NEW_M)} new "
        f"token counts",
    ]
