"""Notebook 07's claims: every number its prose states, computed from toyhw, and the checks of its claims that
are no number (tests/claims/__init__.py says why; tests/test_claims.py reads them in both editions).
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
from claims import Claim, holds, said
from toyhw.course.board import scoring as board_scoring
from exercise_cells import NOTEBOOKS, load_solution

SEEDS, BUDGET = ablations.SEEDS, ablations.BUDGET


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


# Comparative sentences (tests/test_comparison_claims.py) that compare no computed results: definitions,
# instructions, questions, papers' figures. Whole cells, or a few words of each where a cell also has checked ones.
NOT_RESULTS_CELLS = frozenset(
    {"nb07-00", "nb07-05", "nb07-11", "nb07-15", "nb07-19", "nb07-20b", "nb07-board", "nb07-ex2", "nb07-references"}
)
NOT_RESULTS = {
    "nb07-06": ("Per seed: programs",),
    "nb07-10": ("The database holds", "A latent bad branch"),
    "nb07-14": ("M is the number of", "A decode step replays"),
    "nb07-22": ("A bad branch stays",),
    "nb07-ex1": ("heuristic has one", "Check it, fix it", "A right answer parses"),
    "nb07-ex4": ("Other properties a",),
}
# Comparisons that are what a claimed number of the cell is computed as ("20 of the 84 are not faster").
QUOTED_CELLS = frozenset({"nb07-10", "nb07-14"})
QUOTED = {
    "nb07-22": ("It cost no kernel",),
}

# The inputs the prose restates: choices the notebook makes in its code (a seed, a budget, a shape).
INPUTS: list[Claim] = [
    *said("nb07-01b", "input", branch_demo_runs="10", proposed_1000="1000"),
    *said("nb07-01b", "input", seed_0="0", warps_4="4"),
    *said("nb07-03", "input", returning_5="5"),
    *said("nb07-ex1", "input", expert_score="1.000"),
    *said("nb07-20b", "input", seed_0="0", programs_1000="1000"),
    *said("nb07-ex3", "input", seeds_4="4"),
    *said("nb07-references", "input", herd_3="3"),
    *said("nb07-references", "input", attention_heads_128="128"),
    *said("nb07-ex2", "input", tries_2000="2000", section_4000="4000", m_3000="3000"),
]


def claims() -> list[Claim]:
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
    # what the prose states beside its numbers in words, or in its timing line: each one a check of its value
    names = [
        holds(BOARD_MINUTES == 10, "board_minutes", "nb07-00"),
        holds(crash[0].shape.label() == "70B/8 o M=32", "first_crash_shape", "nb07-14"),
        holds(
            (on_training["no check, cascade"][0], on_training["check"][0]) == ("crash", "bad branch"),
            "training_branch_outcomes",
            "nb07-ex2",
        ),
    ]
    return [
        *INPUTS,
        *names,
        holds(
            board_rows["evolved"].held_out - 1 < 0.5 * (board_rows["evolved"].train - 1),
            "search_s_own_program_shows",
            "nb07-board",
        ),
        *said("nb07-19", study_seed_first=f'{SEEDS[0]}', study_seed_last=f'{SEEDS[-1]}'),
        *said("nb07-00", n_ctx_train=f'{len(ctx.train)}'),
        *said(("nb07-00", "nb07-06", "nb07-14", "nb07-glossary"), n_ctx_new=f'{len(ctx.new)}'),
        holds(gemm_config.shared_memory_bytes(bad) > gpu.smem_per_block, "operand_tiles_need_b_shared", "nb07-03"),
        *said(
            "nb07-03",
            bad_config_bytes=f'{gemm_config.shared_memory_bytes(bad):,}',
            h100_smem_per_block=f'{gpu.smem_per_block:,}',
        ),
        *said(
            "nb07-05",
            unchecked_score=f'{unchecked.score:.3f}',
            unchecked_runs=f'{unchecked.runs}',
            latent_line=f'{branch_line(latent, 0)}',
            checked_runs=f'{checked.runs}',
        ),
        *said(("nb07-05", "nb07-ex4"), n_untested=f'{len(untested)}'),
        holds(
            int(layers["405B/8 qkv"]["tp"]) == 8
            and int(layers["405B/8 qkv"]["n"]) == 2560
            and int(layers["405B/8 qkv 8kv"]["n"]) == 2304,
            "new_layers_are_two",
            "nb07-06",
        ),
        *said(
            "nb07-06",
            n_lecture_layers=f'{len(shapes_lib.LAYERS)}',
            tensor_parallel_405b=f"{layers['405B/8 qkv']['tp']}",
        ),
        *said(("nb07-06", "nb07-14", "nb07-glossary"), n_new_m=f'{len(shapes_lib.NEW_M)}'),
        holds(
            worst == 1 and all(r.added_bad_branch == 0 and r.crash_new_shapes == 0 for r in on),
            "without_check_programs_bad_branch",
            "nb07-10",
        ),
        *said(
            "nb07-10",
            n_added_bad_branch_off=f'{sum((r.added_bad_branch for r in off))}',
            worst_seed_bad_added=f'{per_seed_bad[worst]}',
            worst_seed=f'{worst}',
        ),
        *said("nb07-10", "input", seed_0="0"),
        *said(
            ("nb07-10", "nb07-summary"),
            n_db_bad_branch_off=f'{sum((r.db_bad_branch for r in off))}',
            n_crash_new_shapes_off=f'{sum((r.crash_new_shapes for r in off))}',
        ),
        *said(("nb07-10", "nb07-summary"), n_best_bad=f'{len(best_bad)}', n_off=f'{len(off)}'),
        *said(("nb07-10", "nb07-22"), best_bad_seed=f'{best_bad[0]}'),
        holds(
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
            "check_no_such_program_added",
            "nb07-10",
        ),
        *said(
            "nb07-10",
            min_added_on=f'{min((r.added for r in on))}',
            max_added_on=f'{max((r.added for r in on))}',
            min_added_off=f'{min((r.added for r in off))}',
            max_added_off=f'{max((r.added for r in off))}',
        ),
        *said("nb07-10", capacity=f'{capacity}', capacity_per_island=f'{capacity // n_islands}'),
        *said(("nb07-10", "nb07-glossary"), n_islands=f'{n_islands}'),
        *said("nb07-10", seed1_bad_kept=f'{seed1.db_bad_branch}', seed1_db_size=f'{seed1.db_size}'),
        *said(
            "nb07-14",
            crash_seed=f'{row.seed}',
            crash_config_bytes=f'{gemm_config.shared_memory_bytes(program.rules[(crash[0].line - 3) // 2].config):,}',
            crash_program_train_score=f'{geomean_speedup(program, ctx.train, ctx.table):.3f}',
        ),
        *said(("nb07-14", "nb07-ex4"), program_n_rules=f'{program.n_rules()}', crash_0_line=f'{crash[0].line}'),
        *said("nb07-14", "input", rule_5="5"),
        *said("nb07-14", n_crash=f'{len(crash)}'),
        *said(
            "nb07-14",
            vllm_sizes_1=f'{VLLM_SMALL[0]}',
            vllm_sizes_2=f'{VLLM_SMALL[1]}',
            vllm_sizes_4=f'{VLLM_SMALL[2]}',
            vllm_step_small=f'{VLLM_STEPS[0]}',
            vllm_break=f'{VLLM_BREAK}',
            vllm_step_large=f'{VLLM_STEPS[1]}',
            vllm_max_capture=f'{VLLM_MAX_CAPTURE}',
        ),
        *said("nb07-14", n_capture_sizes=f'{len(sizes)}', crash_m=f'{crash[0].shape.M}'),
        *said(
            "nb07-14",
            n_lecture_m=f'{len(shapes_lib.LECTURE_M)}',
            lecture_m_min=f'{min(shapes_lib.LECTURE_M)}',
            lecture_m_max=f'{max(shapes_lib.LECTURE_M)}',
            new_m_min=f'{min(shapes_lib.NEW_M)}',
            new_m_max=f'{max(shapes_lib.NEW_M)}',
        ),
        holds(
            {vllm_padded(m, sizes) for m in range(25, 33)} == {crash[0].shape.M},
            "vllm_runs_decode_batch_sequences",
            "nb07-14",
        ),
        *said("nb07-14", "input", vllm_batch_25="25"),
        holds(
            not any(4096 <= s.M <= 6144 for s in ctx.train + ctx.test) and any(s.M == 6144 for s in ctx.new),
            "starting_point_scores_training_shapes",
            "nb07-18",
        ),
        *said("nb07-18", start_train_score=f'{start_scores[0]:.3f}', start_test_score=f'{start_scores[1]:.3f}'),
        *said("nb07-18", "input", m_4096="4096", m_6144="6144", crash_score="0.000"),
        *said(
            "nb07-ex1",
            fixed_train=f'{fixed_scores[0]:.3f}',
            fixed_test=f'{fixed_scores[1]:.3f}',
            fixed_new=f'{fixed_scores[2]:.3f}',
        ),
        holds(
            fixed_scores[1] > searched.test and fixed_scores[0] < searched.final, "rules_beat_search_s_best", "nb07-ex1"
        ),
        *said(
            "nb07-ex1",
            fixed_n_rules=f'{fixed.n_rules()}',
            searched_test=f'{searched.test:.3f}',
            searched_rules=f'{searched.rules}',
            searched_final=f'{searched.final:.3f}',
            ctx_oracle_train=f'{ctx.oracle_train:.3f}',
            ctx_oracle_test=f'{ctx.oracle_test:.3f}',
        ),
        *said("nb07-ex1", "input", seed_0="0"),
        *said(
            "nb07-22",
            by_budget_100=f'{by_budget[100]}',
            by_budget_300=f'{by_budget[300]}',
            by_budget_1000=f'{by_budget[1000]}',
        ),
        *said("nb07-22", "input", programs_100="100", after_300="300", after_500="500"),
        holds(by_budget[300] == by_budget[500], "seed_among_seeds_next_ones", "nb07-22"),
        *said("nb07-22", "input", seeds_4="4"),
        *said("nb07-22", more_bad_300=f'{more[1]}', more_bad_500=f'{more[2]}'),
        *said("nb07-22", refused_by_check=f'{refused}', budget=f'{BUDGET}'),
        *said(
            "nb07-ex2",
            no_check_cascade_crashes=f"{on_training['no check, cascade'][1]}",
            no_check_no_cascade_crashes=f"{on_training['no check, no cascade'][1]}",
            check_crashes=f"{on_training['check'][1]}",
        ),
        holds(
            CASCADE_EVERY == 4 and sum(i % CASCADE_EVERY == 0 for i in m2048) == 1,
            "happens_contain_one_shapes_m",
            "nb07-ex2",
        ),
        *said("nb07-ex2", n_m2048=f'{len(m2048)}'),
        *said(
            "nb07-ex3",
            crashing_16=f"{sixteen['crashing']}",
            only_new_layers_16=f"{sixteen['only on the new layers']}",
            crashing_405b_down_16=f"{sixteen['per layer']['405B/8 down']}",
            crashing_405b_qkv_16=f"{sixteen['per layer']['405B/8 qkv']}",
            crashing_70b_o_16=f"{sixteen['per layer']['70B/8 o']}",
            crashing_70b_down_16=f"{sixteen['per layer']['70B/8 down']}",
        ),
        holds(
            eight["crashing"] == sixteen["crashing"] and eight["only on the new layers"] == 0,
            "count_same_crashing_programs_them",
            "nb07-ex3",
        ),
        *said(
            "nb07-ex3", crashing_8=f"{eight['crashing']}", crashing_405b_qkv_8=f"{eight['per layer']['405B/8 qkv 8kv']}"
        ),
        holds(
            crash[0].line in untested and solutions.untested_branches(expert, ctx.train) == [],
            "lines_branches_rules_default_never",
            "nb07-ex4",
        ),
        *said(
            "nb07-ex4",
            untested_lines=', '.join(map(str, untested[:-1])),
            untested_line_last=f'{untested[-1]}',
            default_line=f'{program.n_rules() + 1}',
        ),
        holds(all(r.db_bad_branch == 0 for r in on), "so_final_database_holds_none", "nb07-22"),
        holds(
            eight["crashing"] == sixteen["crashing"] and eight["only on the new layers"] == 0,
            "exercise_repeats_count_n_gets",
            "nb07-06",
        ),
        holds(solutions.untested_branches(expert, ctx.train) == [], "expert_has_none", "nb07-ex4"),
        holds(
            fixed_scores[1] > searched.test and fixed_scores[1] / fixed_scores[0] > searched.test / searched.final,
            "rules_follow_hardware_s_reasons",
            "nb07-ex1",
        ),
        *said("nb07-references", ffn_hidden=f'{hidden:,}', ffn_intermediate=f'{ffn:,}'),
    ]
