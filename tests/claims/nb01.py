"""Notebook 01's claims: every number its prose states, computed from toyhw, and the checks of its claims that
are no number (tests/claims/__init__.py says why; tests/test_claims.py reads them in both editions).
"""

from __future__ import annotations

import statistics

import numpy as np

from toyhw import data, metrics
from toyhw.course import kernel_tables as tables
from toyhw.course.checks import nb01 as checks
from toyhw.kernels import failures, knobs, study
from claims import Claim, holds, said
from exercise_cells import NOTEBOOKS, load_solution


SEED, N = study.LECTURE_TASK_SEED, study.LECTURE_N_TASKS
SPREAD_SEEDS = tuple(1000 * k for k in range(10))


def _values(values) -> str:
    values = list(values)
    return ", ".join(map(str, values[:-1])) + f" or {values[-1]}"


# Comparative sentences (tests/test_comparison_claims.py) that compare no computed results: definitions,
# instructions, questions, papers' figures. Whole cells, or a few words of each where a cell also has checked ones.
NOT_RESULTS_CELLS = frozenset({"nb01-00", "nb01-05", "nb01-07", "nb01-08", "nb01-11"})
NOT_RESULTS = {
    "nb01-10": ("Why is that the right", "On a real GPU timings"),
    "nb01-17": ("In KernelBench's one-shot",),
    "nb01-21": ("Which single risky", "Why does it rescue"),
    "nb01-25": ("Where does the curve",),
    "nb01-28": ("Find a correct kernel",),
    "nb01-31": ("At which p does fast_p",),
    "nb01-summary": ("* fast_p counts a",),
    "nb01-ex1": ("Write `correct_and_faster_share`: given", "Is it a better or"),
    "nb01-ex3": ("Write `one_explained_fix`: for",),
}
# Comparisons that are what a claimed number of the cell is computed as ("20 of the 84 are not faster").
QUOTED_CELLS = frozenset({"nb01-10", "nb01-31", "nb01-ex1"})
QUOTED = {
    "nb01-15": ("Correct is not enough",),
    "nb01-21": ("break two rules or",),
    "nb01-34": ("The slider moves",),
}

# The inputs the prose restates: choices the notebook makes in its code (a seed, a budget, a shape).
INPUTS: list[Claim] = [
    *said("nb01-00", "input", n_tasks="200"),
    *said("nb01-05", "input", example_task="0"),
    *said("nb01-10", "input", tie_speedup="1.0"),
    *said("nb01-10", "input", example_fastest="2.5×"),
    *said("nb01-10", "input", example_faster="1.2×"),
    *said("nb01-10", "input", measured_tie="1.0×"),
    *said("nb01-31", "input", slider_p_from="0", fast_p_floor="0.1"),
    *said("nb01-31", "input", n_tasks="200"),
    *said("nb01-34", "input", slider_step="0.1"),
    *said("nb01-34", "input", n_tasks="200"),
    *said("nb01-ex1", "input", n_other_tasks="199"),
]


def claims() -> list[Claim]:
    report = study.one_shot(SEED, N)
    kernels = report.kernels
    shares = report.status_shares()
    fast = report.fast(metrics.KERNELBENCH_PS)
    s = report.speedups()
    correct = s[s > 0]
    n_correct = len(correct)
    failing = [k for k in kernels if not k.feedback.ok]
    rules = {k.index: failures.broken_rules(k.task, k.config) for k in failing}
    compile_fail = [k for k in failing if k.feedback.cause == "shared_memory_overflow"]
    also = [rules[k.index] for k in compile_fail if len(rules[k.index]) > 1]
    risky = tables.risky_choice_frame(report)
    rescued = risky["correct without it"]
    tasks = study.tasks(SEED, N)
    example = [0.0, 1.0, 1.2, 2.5]
    ex = {p: metrics.fast_p(example, p) for p in (0.0, 1.0, 1.5)}
    grid = [0.05 * i for i in range(61)]
    curve = metrics.fast_p_curve(s, grid)
    flat_until = max(p for p, v in zip(grid, curve) if v == fast[0.0])
    steps = np.diff(curve)
    steps = np.round(steps, 9)  # fast_p moves in steps of 1/N; rounding makes equal steps compare equal
    steep = [i + 1 for i, d in enumerate(steps) if d == steps.min()]  # grid index where each steepest step lands
    at_one = next(i for i, p in enumerate(grid) if round(p, 2) == 1.0)

    def _p(i: int) -> str:
        return f"{grid[i]:.2f}".rstrip("0").rstrip(".")

    first8 = kernels[:8]
    build_fail8 = [k.index for k in first8 if k.feedback.cause == "shared_memory_overflow"]
    ok8 = [k for k in first8 if k.feedback.ok]
    vec_fail = next(k for k in kernels if k.feedback.cause == "vector_width_indivisible")
    slow = [k for k in kernels if k.feedback.ok and k.speedup <= 1.0]
    widths = {n: [v for v in knobs.KNOBS["vec"] if n % v == 0] for n in knobs.PROBLEM_SIZES}
    slider = {round(0.1 * i, 1): metrics.fast_p(s, round(0.1 * i, 1)) for i in range(31)}
    first_below = min(p for p, v in slider.items() if v < 0.1)
    before = round(first_below - 0.1, 1)
    spread200 = [study.one_shot(seed, N) for seed in SPREAD_SEEDS]
    spread1000 = [study.one_shot(seed, 1000) for seed in SPREAD_SEEDS]
    fig2 = {r["model"]: r for r in data.kernelbench_one_shot_rows()}
    solution = load_solution(NOTEBOOKS / "01_one_shot_kernels.ipynb")
    calm = checks.writer_report(solution.calm_config, SEED, N)
    calm_wrong = sum(k.feedback.status == "wrong" for k in calm.kernels)
    eager_wrong = sum(k.feedback.status == "wrong" for k in kernels)
    big_tile = max(knobs.KNOBS["tile"])
    faster = [(a, b) for a, b in zip(kernels, calm.kernels) if a.config.tile == big_tile and a.feedback.ok]
    fixed = solution.one_explained_fix(report)
    sure = np.zeros(N)
    observations = [
        note.split(". The most common")[0].removeprefix("Correct is not enough: ").split(" (its library")[0]
        for note in tables.one_shot_observations(report)
    ]
    sure[int(np.argmax(s))] = s.max()

    return [
        *INPUTS,
        *said("nb01-03", knobs_tile=f"{', '.join(map(str, knobs.KNOBS['tile']))}"),
        *said("nb01-03", knobs_fuse=f"{', '.join(map(str, knobs.KNOBS['fuse']))}"),
        *said("nb01-03", knobs_vec=f"{', '.join(map(str, knobs.KNOBS['vec']))}"),
        *said("nb01-03", knobs_shared=f"{', '.join(map(str, knobs.KNOBS['shared']))}"),
        *said("nb01-03", knobs_unroll=f"{', '.join(map(str, knobs.KNOBS['unroll']))}"),
        *said("nb01-03", best_tiles=f"{' or '.join(map(str, sorted({t.best_tile for t in tasks})))}"),
        *said("nb01-03", problem_sizes=f'{_values(knobs.PROBLEM_SIZES)}'),
        *said("nb01-03", baseline_tile=f'{knobs.DEFAULT.tile}', baseline_factor=f'{knobs.BASELINE_FACTOR}'),
        *said(("nb01-07", "nb01-21"), n_build_failures=f'{len(compile_fail)}'),
        *said(("nb01-07", "nb01-21", "nb01-ex2"), n_build_failures_breaking_more=f'{len(also)}'),
        *said(
            "nb01-07",
            n_also_vector_width=f"{sum((r == ('shared_memory_overflow', 'vector_width_indivisible') for r in also))}",
            n_also_illegal_fusion=f"{sum((r == ('shared_memory_overflow', 'illegal_fusion') for r in also))}",
            n_also_both=f'{sum((len(r) == 3 for r in also))}',
        ),
        *said("nb01-10", example_fast_0=f'{ex[0.0]}'),
        *said("nb01-10", example_fast_1=f'{ex[1.0]}', example_fast_1_5=f'{ex[1.5]}'),
        holds(shares["ok"] < 0.5, "most_kernels_fail", "nb01-15"),
        *said("nb01-15", shares_compile_error=f"{shares['compile_error']:.1%}", shares_wrong=f"{shares['wrong']:.1%}"),
        *said(("nb01-15", "nb01-ex2"), shares_ok=f"{shares['ok']:.1%}"),
        *said(("nb01-15", "nb01-25"), fast_0=f'{fast[0.0]:g}'),
        *said(("nb01-15", "nb01-ex2"), fast_1=f'{fast[1.0]:g}'),
        *said("nb01-15", n_correct_not_faster=f'{n_correct - round(fast[1.0] * N)}'),
        *said(("nb01-15", "nb01-25", "nb01-ex1"), n_correct=f'{n_correct}'),
        *said(("nb01-15", "nb01-25", "nb01-ex2"), fast_1_5=f'{fast[1.5]:g}'),
        *said("nb01-15", "input", bar_1_5="1.5×"),
        holds(
            max(report.cause_counts().values()) == report.cause_counts()["shared_memory_overflow"],
            "longest_failure_bar_shared_memory",
            "nb01-15",
        ),
        *said("nb01-15", n_shared_memory_overflow=f"{report.cause_counts()['shared_memory_overflow']}"),
        *said(
            "nb01-17",
            kernelbench_level=f'{data.KERNELBENCH_LEVELS[0][-1]}',
            gpt_4o_level_1=f"{fig2['GPT-4o']['level_1']}%",
            o1_level_1=f"{fig2['OpenAI o1']['level_1']}%",
            deepseek_r1_level_1=f"{fig2['DeepSeek-R1']['level_1']}%",
        ),
        *said("nb01-17", fast_1_percent=f'{fast[1.0]:.0%}'),
        holds(
            fast[1.0] < 0.5 and all(r[c] < 50 for r in fig2.values() for c in data.KERNELBENCH_LEVELS),
            "most_one_shot_kernels_wrong",
            "nb01-17",
        ),
        holds(int(risky["break its rule"].sum()) > len(failing), "more_rule_breaks_than_failures", "nb01-21"),
        *said("nb01-21", n_failing=f'{len(failing)}'),
        holds(rescued.idxmax() == "tile 64 staged through shared memory", "shared_tile_rescues_most", "nb01-21"),
        *said(
            "nb01-21",
            rescued_without_shared_tile=f'{rescued.iloc[0]}',
            rescued_without_wide_vectors=f'{rescued.iloc[1]}',
            rescued_without_fusion=f'{rescued.iloc[2]}',
        ),
        *said("nb01-21", "input", narrowest_vector_width="1"),
        holds(
            rescued.idxmax() == risky["reported first"].idxmax()
            and rescued.max() < risky.loc[rescued.idxmax(), "reported first"],
            "rescues_fewer_than_its_bar",
            "nb01-21",
        ),
        *said(
            "nb01-21",
            fusion_reported_first=f"{risky['reported first'].iloc[2]}",
            n_failing_fused=f"{risky['break its rule'].iloc[2]}",
        ),
        *said("nb01-21", n_breaking_two_rules=f'{sum((len(r) > 1 for r in rules.values()))}'),
        *said("nb01-25", flat_until=f'{flat_until:g}'),
        *said("nb01-25", slowest_correct=f"{correct.min():.3f}×"),
        *said("nb01-25", "input", p_low="0.8", p_high="1.5"),
        *said("nb01-25", fast_0_8=f'{fast[0.8]:g}'),
        *said("nb01-25", "input", p_top="2"),
        *said("nb01-25", fast_2=f'{fast[2.0]:g}', s_max=f"{s.max():.3f}×"),
        *said("nb01-25", n_between_p_low_and_high=f'{round((fast[0.8] - fast[1.5]) * N)}'),
        holds(len(steep) == 3 and round(grid[at_one], 2) == 1.0 and at_one + 1 in steep, "steepest_steps", "nb01-25"),
        *said(
            "nb01-25",
            steepest_step=f'{-steps.min():g}',
            steepest_at_1=f'{_p(steep[0])}',
            steepest_at_2=f'{_p(steep[1])}',
            steepest_at_3=f'{_p(steep[2])}',
            fast_at_1=f'{curve[at_one]:g}',
            fast_past_1=f'{curve[at_one + 1]:g}',
        ),
        *said("nb01-25", "input", p_1="1"),
        *said("nb01-25", median_correct=f"{statistics.median(correct):.3f}×"),
        *said("nb01-25", "input", bar_1_5="1.5×"),
        *said("nb01-25", n_correct_not_1_5_faster=f'{n_correct - round(fast[1.5] * N)}'),
        holds(len(build_fail8) == 4, "first8_build_failures_are_4", "nb01-28"),
        *said(
            "nb01-28",
            first8_build_failures=f"{', '.join(map(str, build_fail8[:-1]))}",
            first8_last_build_failure=f'{build_fail8[-1]}',
        ),
        *said(
            ("nb01-28", "nb01-31"),
            vec_fail_index=f'{vec_fail.index}',
            vec_fail_config_vec=f'{vec_fail.config.vec}',
            vec_fail_task_n=f'{vec_fail.task.n}',
        ),
        holds(all(1.0 < k.speedup < 1.5 for k in ok8), "first8_correct_below_1_5", "nb01-28"),
        *said(
            "nb01-28",
            first8_correct=f"{', '.join((str(k.index) for k in ok8[:-1]))}",
            first8_last_correct=f'{ok8[-1].index}',
            first8_speedups=', '.join((f'{k.speedup:.3f}×' for k in ok8[:-1])),
            first8_last_speedup=f"{ok8[-1].speedup:.3f}×",
        ),
        *said("nb01-31", vec_fail_widest=f'{widths[vec_fail.task.n][-1]}'),
        holds(
            widths[1002] == [1, 2] and widths[1000] == widths[1024] == widths[4096] == [1, 2, 4],
            "widths_by_size",
            "nb01-31",
        ),
        *said("nb01-31", "input", size_1002="1002", size_1000="1000", size_1024="1024", size_4096="4096"),
        holds(
            slow[0].feedback.bottleneck == "compute" and slow[0].config.tile != slow[0].task.best_tile,
            "first_slow_is_compute_bound",
            "nb01-31",
        ),
        *said(
            "nb01-31",
            first_slow=f'{slow[0].index}',
            first_slow_speedup=f'{slow[0].speedup:.2f}',
            first_slow_memory_bound=f'{slow[0].task.memory_bound:.2f}',
        ),
        *said("nb01-31", first_slow_tile=f'{slow[0].config.tile}', first_slow_best_tile=f'{slow[0].task.best_tile}'),
        *said(
            "nb01-31",
            n_slow=f'{len(slow)}',
            n_slow_compute_bound=f"{sum((k.feedback.bottleneck == 'compute' for k in slow))}",
        ),
        *said(
            "nb01-34",
            fast_p_before=f'{slider[before]:g}',
            p_before=f'{before:g}',
            fast_p_first_below=f'{slider[first_below]:g}',
            p_first_below=f'{first_below:g}',
        ),
        *said(
            "nb01-34",
            spread_seed_first=f'{SPREAD_SEEDS[0]}',
            spread_seed_second=f'{SPREAD_SEEDS[1]}',
            spread_seed_last=f'{SPREAD_SEEDS[-1]}',
        ),
        *said(
            "nb01-34",
            correct_share_min_200=f"{min((r.status_shares()['ok'] for r in spread200)):.1%}",
            correct_share_max_200=f"{max((r.status_shares()['ok'] for r in spread200)):.1%}",
            fast_1_min_200=f'{min((r.fast()[1.0] for r in spread200)):.3f}',
            fast_1_max_200=f'{max((r.fast()[1.0] for r in spread200)):.3f}',
        ),
        *said(
            "nb01-34",
            correct_share_min_1000=f"{min((r.status_shares()['ok'] for r in spread1000)):.1%}",
            correct_share_max_1000=f"{max((r.status_shares()['ok'] for r in spread1000)):.1%}",
            fast_1_min_1000=f'{min((r.fast()[1.0] for r in spread1000)):.3f}',
            fast_1_max_1000=f'{max((r.fast()[1.0] for r in spread1000)):.3f}',
        ),
        *said("nb01-summary", fail_share=f"{1 - shares['ok']:.1%}"),
        holds(
            observations
            == [
                f"{1 - shares['ok']:.0%} of one-shot kernels fail: {shares['compile_error']:.0%} do not build and "
                f"{shares['wrong']:.0%} give wrong results",
                f"fast_0 = {fast[0.0]:.3f} but fast_1 = {fast[1.0]:.3f}; {n_correct - round(fast[1.0] * N)} correct kernels "
                "are not faster than PyTorch",
            ],
            "observations_match",
            "nb01-15",
        ),
        *said(
            "nb01-ex1",
            correct_and_faster_share=f'{solution.correct_and_faster_share(s):.3f}',
            n_beat_pytorch=f'{round(fast[1.0] * N)}',
        ),
        *said(
            "nb01-ex1",
            sure_share=f'{solution.correct_and_faster_share(sure):.1f}',
            sure_fast_1=f'{metrics.fast_p(sure, 1.0):.3f}',
        ),
        *said(
            "nb01-ex2",
            calm_status_shares_ok=f"{calm.status_shares()['ok']:.1%}",
            calm_fast_1=f'{calm.fast()[1.0]:g}',
            calm_fast_1_5=f'{calm.fast()[1.5]:g}',
        ),
        *said("nb01-ex2", eager_wrong=f'{eager_wrong}', calm_wrong=f'{calm_wrong}'),
        holds(
            all(b.speedup > a.speedup for a, b in faster) and all(t.best_tile < big_tile for t in tasks),
            "calm_faster_for_largest_tile",
            "nb01-ex2",
        ),
        *said("nb01-ex2", n_calm_faster=f'{len(faster)}'),
        holds(
            fixed["still failing"] == sum(len(r) > 1 for r in rules.values()),
            "still_failing_break_two_rules",
            "nb01-ex3",
        ),
        *said(
            "nb01-ex3",
            fixed_correct_after_one_fix=f"{fixed['correct after one fix']}",
            fixed_failing=f"{fixed['failing']}",
            fixed_still_failing=f"{fixed['still failing']}",
        ),
        holds(correct.min() > flat_until, "every_correct_clears_flat_part", "nb01-25"),
        holds(round((fast[0.8] - fast[1.5]) * N) > n_correct / 2, "most_correct_kernels_sit_range", "nb01-25"),
        holds(1.0 < statistics.median(correct) < 1.5, "median_a_little_faster", "nb01-25"),
        holds(round((fast[1.0] - fast[1.5]) * N) > round(fast[1.0] * N) / 2, "winners_win_by_little", "nb01-25"),
        holds(round((fast[1.0] - fast[1.5]) * N) > n_correct / 2, "most_correct_win_by_little", "nb01-summary"),
        holds(
            all(
                max(v) - min(v) < max(w) - min(w)
                for v, w in (
                    ([r.status_shares()["ok"] for r in spread1000], [r.status_shares()["ok"] for r in spread200]),
                    ([r.fast()[1.0] for r in spread1000], [r.fast()[1.0] for r in spread200]),
                )
            ),
            "more_tasks_less_spread",
            "nb01-34",
        ),
        holds(any(len(r) > 1 for r in rules.values()), "one_fix_not_always_enough", "nb01-summary"),
        holds(fixed["correct after one fix"] > fixed["failing"] / 2, "one_explained_error_fixes_most", "nb01-ex3"),
    ]
