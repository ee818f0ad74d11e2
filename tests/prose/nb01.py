"""Notebook 01's prose numbers, recomputed from toyhw (see tests/test_prose_numbers.py).

`quotes()` returns each phrase of the markdown that states a number, built from the pack's computed values; a claim
that is not a number ("more than half", "the longest bar") is checked here with `_holds` before its phrase is returned.
"""

from __future__ import annotations

import statistics

import numpy as np

from toyhw import data, metrics
from toyhw.course import kernel_tables as tables
from toyhw.course.checks import nb01 as checks
from toyhw.kernels import failures, knobs, study
from prose.phrasing import holds as _holds
from exercise_cells import NOTEBOOKS, load_solution

# Comparative sentences (tests/test_comparison_claims.py) that compare no computed results: definitions, instructions,
# questions, papers' figures, descriptions of a printed record.
NOT_RESULTS = [
    "1. meet the toy kernel behind lecture",
    "the same seed always gives the same numbers",
    "* staging the largest tile in shared",
    "Its time blends a compute term (a tile",
    "One run, for task 0 with the largest",
    "This kernel never built:",
    "act on the cause, never on the message",
    "A kernel that does not build never runs",
    "And **every task counts in the denominator**",
    "Why is that the right choice for a benchmark",
    "On a real GPU timings are also noisy",
    "that likes aggressive choices",
    "(KernelBench saw the same trade-off with real models",
    "In KernelBench's one-shot baseline",
    "Which single risky choice, if the writer never made it",
    "Why does it rescue fewer kernels than its failure bar in the chart above counts?",
    "Where does the curve drop fastest",
    "Find a correct kernel that is slower than PyTorch.",
    "At which p does fast_p first drop below 0.1?",
    "* fast_p counts a task only if its kernel is",
    "Write `correct_and_faster_share`: given every task's speedup",
    "Is it a better or a worse benchmark score than fast_1?",
    "Write `one_explained_fix`: for a one-shot report",
]
# Comparative sentences whose comparison is what a quoted number is computed as (tests/test_comparison_claims.py).
QUOTED = [
    "fast_0 = 0.75 counts the three correct",
    "With the strict `>` the example scores",
    "Correct is not enough either:",
    "And 30 of the 116 break two rules or more",
    "Of the 20 correct kernels that are not faster",
    "its first value below 0.1",
    "64 of the 84 correct one-shot kernels beat PyTorch",
    "It answers a useful question",
]

SEED, N = study.LECTURE_TASK_SEED, study.LECTURE_N_TASKS
SPREAD_SEEDS = tuple(1000 * k for k in range(10))

PARAMETERS = [
    "run 200 one-shot kernels",  # the notebook's N_TASKS
    "`random.Random(230 + 1 + i)`",  # code, listed for the reader of this file
    "One run, for task 0",  # the task the notebook's code picks
    "a tie (speedup exactly 1.0)",  # the example list the notebook's code chooses
    "the kernel at 2.5×",
    "the kernels at 1.2× and 2.5×",
    "a kernel measured at 1.0×",
    "up to p = 0.75",  # grid points of the notebook's p grid (steps of 0.05)
    "The card below is task 0, where the slider starts",
    "Move **p** from 0 to 2. At which p does fast_p first drop below 0.1?",
    "200-task benchmark",
    "Increase the number of **tasks** to 1000",
    "starting state (p = 1)",
    "The slider moves in steps of 0.1",
    "With 1000 tasks",
    "(200 tasks each)",
    "its first value below 0.1",
    "on one 200-task draw",
    "and nothing for the other 199",
]


def _values(values) -> str:
    values = list(values)
    return ", ".join(map(str, values[:-1])) + f" or {values[-1]}"


def quotes() -> list[str]:
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
        # Section 1
        f"| `tile` | {', '.join(map(str, knobs.KNOBS['tile']))} |",
        f"| `fuse` | {', '.join(map(str, knobs.KNOBS['fuse']))} |",
        f"| `vec` | {', '.join(map(str, knobs.KNOBS['vec']))} |",
        f"| `shared` | {', '.join(map(str, knobs.KNOBS['shared']))} |",
        f"| `unroll` | {', '.join(map(str, knobs.KNOBS['unroll']))} |",
        f"its\nbest tile ({' or '.join(map(str, sorted({t.best_tile for t in tasks})))})",
        f"*n* ({_values(knobs.PROBLEM_SIZES)}:",
        f"(tile {knobs.DEFAULT.tile}, nothing else switched on) × {knobs.BASELINE_FACTOR}",
        # Think! 1
        f"of the {len(compile_fail)} one-shot\nkernels that do not compile (Section 3), {len(also)} also break another rule — "
        f"{sum(r == ('shared_memory_overflow', 'vector_width_indivisible') for r in also)} a vector width that does not "
        f"divide *n*,\n{sum(r == ('shared_memory_overflow', 'illegal_fusion') for r in also)} an illegal fusion and "
        f"{sum(len(r) == 3 for r in also)} both",
        # Section 2
        f"fast_0 = {ex[0.0]} counts the three correct",
        f"fast_1 = {ex[1.0]} drops the tie as well; fast_1.5 = {ex[1.5]} keeps",
        f"the example scores fast_1 = {ex[1.0]}, not {ex[0.0]}",
        # Section 3
        _holds(shares["ok"] < 0.5, "More than half of the kernels fail"),
        f"{shares['compile_error']:.1%} do not build and {shares['wrong']:.1%} give wrong results, so only "
        f"{shares['ok']:.1%} are correct —\nthat is fast_0 = {fast[0.0]:g}",
        f"fast_1 = {fast[1.0]:g}, so {n_correct - round(fast[1.0] * N)} of the {n_correct} correct kernels",
        f"only {fast[1.5]:g} of the tasks get a kernel more than 1.5× faster",
        _holds(
            max(report.cause_counts().values()) == report.cause_counts()["shared_memory_overflow"],
            f"The longest\nfailure bar is the shared-memory overflow, {report.cause_counts()['shared_memory_overflow']} "
            "kernels",
        ),
        f"on Level {data.KERNELBENCH_LEVELS[0][-1]} is {fig2['GPT-4o']['level_1']}% for\nGPT-4o, "
        f"{fig2['OpenAI o1']['level_1']}% for OpenAI o1 and {fig2['DeepSeek-R1']['level_1']}% for DeepSeek-R1",
        f"The toy's fast_1 of {fast[1.0]:.0%} is higher",
        _holds(
            fast[1.0] < 0.5 and all(r[c] < 50 for r in fig2.values() for c in data.KERNELBENCH_LEVELS),
            "most one-shot kernels are wrong or\nslower than the library",
        ),
        _holds(int(risky["break its rule"].sum()) > len(failing), f"more than the {len(failing)} failing kernels"),
        # Think! 3
        _holds(
            rescued.idxmax() == "tile 64 staged through shared memory",
            f"Never staging the largest tile in shared memory: {rescued.iloc[0]} of the {len(failing)} failing kernels "
            f"become correct, against {rescued.iloc[1]} for never\nusing a vector width above 1 and "
            f"{rescued.iloc[2]} for never fusing",
        ),
        _holds(
            rescued.idxmax() == risky["reported first"].idxmax()
            and rescued.max() < risky.loc[rescued.idxmax(), "reported first"],
            f"It is the choice with the longest failure bar, but it rescues\nfewer than its bar's "
            f"{len(compile_fail)}: {len(also)} of those {len(compile_fail)} kernels break\nanother rule too",
        ),
        f"it is reported first for {risky['reported first'].iloc[2]} kernels, but {risky['break its rule'].iloc[2]} "
        "failing kernels fuse ops",
        f"{sum(len(r) > 1 for r in rules.values())} of the {len(failing)} break two rules or more",
        # Section 4
        f"at the correctness rate, {fast[0.0]:g}, up to p = {flat_until:g}",
        f"the slowest correct kernel runs at {correct.min():.3f}× PyTorch",
        f"Between p = 0.8 ({fast[0.8]:g}) and p = 1.5 ({fast[1.5]:g})",
        f"at p = 2 only {fast[2.0]:g} of the tasks are left; the fastest kernel is {s.max():.3f}×\nPyTorch",
        # Think! 4
        f"Between about p = 0.8 and p = 1.5: fast_p falls from {fast[0.8]:g} to {fast[1.5]:g} there, so "
        f"{round((fast[0.8] - fast[1.5]) * N)} of the {n_correct} correct kernels",
        _holds(
            len(steep) == 3 and round(grid[at_one], 2) == 1.0 and at_one + 1 in steep,
            f"the steepest steps of the grid, {-steps.min():g} each, are at p = {_p(steep[0])}, {_p(steep[1])} and "
            f"{_p(steep[2])} (from {curve[at_one]:g} to {curve[at_one + 1]:g}\njust above p = 1)",
        ),
        f"The median correct kernel is {statistics.median(correct):.3f}× PyTorch",
        f"raising the bar to 1.5× removes {n_correct - round(fast[1.5] * N)} of the {n_correct} correct kernels",
        # Section 5
        _holds(len(build_fail8) == 4, f"(tasks {', '.join(map(str, build_fail8[:-1]))} and {build_fail8[-1]})"),
        f"Task {vec_fail.index}\nfails its tests: a vector width of {vec_fail.config.vec} does not divide n = {vec_fail.task.n}",
        _holds(
            all(1.0 < k.speedup < 1.5 for k in ok8),
            f"(tasks {', '.join(str(k.index) for k in ok8[:-1])} and {ok8[-1].index}) run at\n"
            + ", ".join(f"{k.speedup:.3f}×" for k in ok8[:-1])
            + f" and {ok8[-1].speedup:.3f}× PyTorch",
        ),
        f"Task {vec_fail.index} is the first: n = {vec_fail.task.n}, vector width {vec_fail.config.vec}. Only a width of "
        f"{widths[vec_fail.task.n][-1]} divides {vec_fail.task.n}",
        _holds(
            widths[1002] == [1, 2] and widths[1000] == widths[1024] == widths[4096] == [1, 2, 4],
            "for n = 1002 widths 1 and 2\n   work, and for 1000, 1024 and 4096 all three",
        ),
        _holds(
            slow[0].feedback.bottleneck == "compute" and slow[0].config.tile != slow[0].task.best_tile,
            f"Task {slow[0].index} is the first: speedup {slow[0].speedup:.2f}, memory-bound share "
            f"{slow[0].task.memory_bound:.2f}",
        ),
        f"Its tile is {slow[0].config.tile} but its best tile is {slow[0].task.best_tile}",
        f"Of the {len(slow)} correct kernels that are not faster than\n   PyTorch, "
        f"{sum(k.feedback.bottleneck == 'compute' for k in slow)} are compute-bound",
        f"fast_p is {slider[before]:g} at p = {before:g} and {slider[first_below]:g} at p = {first_below:g}",
        f"the task seeds {SPREAD_SEEDS[0]}, {SPREAD_SEEDS[1]}, ..., {SPREAD_SEEDS[-1]}",
        f"the correct share ranges from {min(r.status_shares()['ok'] for r in spread200):.1%} to "
        f"{max(r.status_shares()['ok'] for r in spread200):.1%} and fast_1\n   from "
        f"{min(r.fast()[1.0] for r in spread200):.3f} to {max(r.fast()[1.0] for r in spread200):.3f}",
        f"correct shares from {min(r.status_shares()['ok'] for r in spread1000):.1%} to "
        f"{max(r.status_shares()['ok'] for r in spread1000):.1%} and fast_1 from "
        f"{min(r.fast()[1.0] for r in spread1000):.3f} to {max(r.fast()[1.0] for r in spread1000):.3f}",
        # Summary
        f"here {1 - shares['ok']:.1%} of them",
        # what tables.one_shot_observations (the pack's own reading of the one-shot results) says, as the prose does
        _holds(
            observations
            == [
                f"{1 - shares['ok']:.0%} of one-shot kernels fail: {shares['compile_error']:.0%} do not build and "
                f"{shares['wrong']:.0%} give wrong results",
                f"fast_0 = {fast[0.0]:.3f} but fast_1 = {fast[1.0]:.3f}; {n_correct - round(fast[1.0] * N)} correct kernels "
                "are not faster than PyTorch",
            ],
            "27.0% do not build and 31.0% give wrong results, so only 42.0% are correct",
        ),
        # Exercise 1
        f"gives {solution.correct_and_faster_share(s):.3f}: {round(fast[1.0] * N)} of the {n_correct} correct one-shot "
        "kernels beat PyTorch",
        f"would score {solution.correct_and_faster_share(sure):.1f} on\nit, with fast_1 = {metrics.fast_p(sure, 1.0):.3f}",
        # Exercise 2
        f"has no compile errors at all and {calm.status_shares()['ok']:.1%} correct kernels instead of "
        f"{shares['ok']:.1%}; fast_1 rises from {fast[1.0]:g} to\n{calm.fast()[1.0]:g} and fast_1.5 from {fast[1.5]:g} "
        f"to {calm.fast()[1.5]:g}",
        f"the wrong\nresults grow from {eager_wrong} to {calm_wrong}, because the {len(also)} kernels that also broke "
        "another rule",
        _holds(
            all(b.speedup > a.speedup for a, b in faster) and all(t.best_tile < big_tile for t in tasks),
            f"all {len(faster)} kernels that were correct with the largest tile get faster",
        ),
        # Exercise 3
        _holds(
            fixed["still failing"] == sum(len(r) > 1 for r in rules.values()),
            f"repairs {fixed['correct after one fix']} of the {fixed['failing']} failing kernels in one step. The "
            f"{fixed['still failing']} that still fail",
        ),
        # comparisons without a number of their own (tests/test_comparison_claims.py)
        _holds(correct.min() > flat_until, "so every correct kernel clears a lower bar"),
        _holds(round((fast[0.8] - fast[1.5]) * N) > n_correct / 2, "most\ncorrect kernels sit in that range"),
        _holds(
            1.0 < statistics.median(correct) < 1.5,
            "a typical one-shot kernel that works is only a little faster than the\nlibrary",
        ),
        _holds(
            round((fast[1.0] - fast[1.5]) * N) > round(fast[1.0] * N) / 2,
            "the kernels beating PyTorch mostly beat it by little",
        ),
        _holds(round((fast[1.0] - fast[1.5]) * N) > n_correct / 2, "here most correct kernels beat PyTorch by little"),
        _holds(
            all(
                max(v) - min(v) < max(w) - min(w)
                for v, w in (
                    ([r.status_shares()["ok"] for r in spread1000], [r.status_shares()["ok"] for r in spread200]),
                    ([r.fast()[1.0] for r in spread1000], [r.fast()[1.0] for r in spread200]),
                )
            ),
            "the bars move less from seed to seed",
        ),
        _holds(any(len(r) > 1 for r in rules.values()), "so one fix is not always enough"),
        _holds(fixed["correct after one fix"] > fixed["failing"] / 2, "One explained error fixes most failures"),
    ]
