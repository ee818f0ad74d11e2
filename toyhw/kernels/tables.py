"""Lecture 10's results as pandas tables and computed observations, for notebooks 01 and 02."""
from __future__ import annotations

from typing import Sequence

import pandas as pd

from toyhw import data
from toyhw.checks import UnknownNameError
from toyhw.kernels import failures, study
from toyhw.kernels.study import CAUSE_LABELS, OneShotReport, Table


def outcome_frame(report: OneShotReport) -> pd.DataFrame:
    """Return one-shot outcomes: tasks and share per status, failures split by cause."""
    causes = report.cause_counts()
    rows = [("compile error", CAUSE_LABELS["shared_memory_overflow"], causes["shared_memory_overflow"]),
            ("wrong result", CAUSE_LABELS["vector_width_indivisible"], causes["vector_width_indivisible"]),
            ("wrong result", CAUSE_LABELS["illegal_fusion"], causes["illegal_fusion"]),
            ("correct", "-", sum(k.feedback.ok for k in report.kernels))]
    frame = pd.DataFrame(rows, columns=["status", "cause", "tasks"])
    frame["share"] = (frame["tasks"] / report.n_tasks).map("{:.1%}".format)
    return frame


RISKY_CHOICES = {
    "shared_memory_overflow": "tile 64 staged through shared memory",
    "vector_width_indivisible": "a vector width above 1",
    "illegal_fusion": "fusion",
}
"""Each failure cause and the risky choice of the one-shot writer behind it (`failures.without_choice` removes it)."""


def risky_choice_frame(report: OneShotReport) -> pd.DataFrame:
    """Return, per risky choice, how many failing one-shot kernels break its rule and how many it alone breaks.

    Columns (counts of failing kernels): "reported first", the outcome table's count (the first cause `run_kernel`
    reports); "break its rule", every failing kernel that breaks the rule (a kernel may break two or three);
    "correct without it", those that would be correct had the writer never made that choice (the rule is the only
    one they break). Computed from the model with `failures.broken_rules`.
    """
    failing = [k for k in report.kernels if not k.feedback.ok]
    broken = [failures.broken_rules(k.task, k.config) for k in failing]
    first = report.cause_counts()
    rows = []
    for cause, choice in RISKY_CHOICES.items():
        rows.append({
            "risky choice": choice,
            "reported first": first[cause],
            "break its rule": sum(cause in b for b in broken),
            "correct without it": sum(b == (cause,) for b in broken),
        })
    return pd.DataFrame(rows).set_index("risky choice")


def fast_frame(report: OneShotReport, ps: Sequence[float] = study.ONE_SHOT_PS) -> pd.DataFrame:
    """Return fast_p of the one-shot kernels for each p, as one row."""
    return pd.DataFrame([{f"fast_{p:g}": round(f, 3) for p, f in report.fast(ps).items()}], index=["one-shot"])


def one_shot_observations(report: OneShotReport) -> list[str]:
    """Return what the one-shot results show, each sentence computed from them."""
    shares = report.status_shares()
    causes = report.cause_counts()
    top = max(causes, key=lambda c: causes[c])
    fast = report.fast((0.0, 1.0))
    slower = round((fast[0.0] - fast[1.0]) * report.n_tasks)
    notes = [
        f"{1 - shares['ok']:.0%} of one-shot kernels fail: {shares['compile_error']:.0%} do not build and "
        f"{shares['wrong']:.0%} give wrong results. The most common cause is {CAUSE_LABELS[top]} "
        f"({causes[top]} of {report.n_tasks} tasks): the eager sampler likes tile 64 with shared memory, wide vectors "
        "and fusion, and each of them breaks some tasks.",
        f"Correct is not enough: fast_0 = {fast[0.0]:.3f} but fast_1 = {fast[1.0]:.3f}; {slower} correct kernels are "
        "not faster than PyTorch (its library kernel is already well tuned).",
    ]
    return notes


def feedback_frame(table: Table, ps: Sequence[float] = study.LECTURE_PS) -> pd.DataFrame:
    """Return lecture 10's table: one row per mode, one column per round count, cells "fast_p1 / fast_p2"."""
    ps = study.check_ps(ps)
    rounds = study.check_table(table, ps)
    return pd.DataFrame(
        {f"{r} rounds": {mode: " / ".join(f"{row[r][p]:.2f}" for p in ps) for mode, row in table.items()}
         for r in rounds}
    ).rename_axis(f"feedback (fast_{ps[0]:g} / fast_{ps[-1]:g})")


def kernelbench_one_shot_frame() -> pd.DataFrame:
    """Return KernelBench's one-shot fast_1 over PyTorch Eager (%) per model and level (arXiv 2502.10517v1, Figure 2)."""
    rows = {str(r["model"]): {f"Level {c[-1]}": r[c] for c in data.KERNELBENCH_LEVELS}
            for r in data.kernelbench_one_shot_rows()}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("one-shot fast_1 (%)").astype("Int64")


def kernelbench_frame(rounds: int = 10, task_seed: int = study.LECTURE_TASK_SEED,
                      n_tasks: int = study.LECTURE_N_TASKS) -> pd.DataFrame:
    """Return KernelBench's Table 1 (Level 2, fast_1 %, 10 calls) next to the toy's fast_1 for the matching mode."""
    rows = []
    for paper in data.kernelbench_rows():
        mode = str(paper["toy_mode"])
        if mode == "one_shot":
            toy = study.one_shot(task_seed, n_tasks).fast((1.0,))[1.0]
        else:
            toy = study.feedback_table(task_seed, n_tasks, [mode], [rounds], [1.0])[mode][rounds][1.0]
        rows.append({
            "KernelBench method": paper["method"],
            "Llama-3.1-70B": paper["llama_3_1_70b"],
            "DeepSeek-V3": paper["deepseek_v3"],
            "DeepSeek-R1": paper["deepseek_r1"],
            f"toy mode ({rounds} rounds)": mode,
            "toy fast_1 (%)": round(100 * toy, 1),
        })
    return pd.DataFrame(rows).set_index("KernelBench method").astype({"Llama-3.1-70B": "Int64", "DeepSeek-V3": "Int64",
                                                                       "DeepSeek-R1": "Int64"})


def race_verdict(table: Table, challenger: str, rounds: int, p: float) -> str:
    """Return one sentence comparing `challenger` with the best built-in mode at (`rounds`, `p`), as computed."""
    known = study.check_table(table, [p])
    if challenger not in table:
        raise UnknownNameError(f"challenger = {challenger!r} is not a row of the table; rows: {', '.join(table)}")
    if rounds not in known:
        raise ValueError(f"rounds = {rounds!r} is not a column of the table; round counts: {known}")
    if len(table) < 2:
        raise ValueError(f"the table has only {challenger!r}; race it against at least one other mode")
    others = {mode: row[rounds][p] for mode, row in table.items() if mode != challenger}
    best = max(others, key=lambda m: others[m])
    mine = table[challenger][rounds][p]
    if mine > others[best]:
        verdict = f"beats every built-in mode (best: {best}, {others[best]:.3f})"
    elif mine == others[best]:
        verdict = f"ties the best built-in mode ({best}, {others[best]:.3f})"
    else:
        verdict = f"is behind the best built-in mode ({best}, {others[best]:.3f}) by {others[best] - mine:.3f}"
    return f"After {rounds} rounds, {challenger} reaches fast_{p:g} = {mine:.3f} and {verdict}."


def observations(table: dict[str, dict[int, dict[float, float]]], ps: Sequence[float] = study.LECTURE_PS) -> list[str]:
    """Return lecture 10's observations, each stated only if the table bears it out."""
    ps = study.check_ps(ps)
    rounds = sorted(study.check_table(table, ps))
    notes: list[str] = []
    lo, hi = ps[0], ps[-1]
    if {"scalar", "resample"} <= table.keys():
        worse = [r for r in rounds if table["scalar"][r][lo] < table["resample"][r][lo]]
        if worse:
            scalar = ", ".join(f"{table['scalar'][r][lo]:.2f}" for r in worse)
            resample = ", ".join(f"{table['resample'][r][lo]:.2f}" for r in worse)
            notes.append(
                f"With scalar feedback only, a failed config just says 'failed'; changing one random knob of it often "
                f"fails again. At {', '.join(map(str, worse))} rounds scalar feedback is even worse than writing a "
                f"fresh kernel every round (fast_{lo:g} {scalar} vs {resample})."
            )
        else:
            notes.append(f"Scalar feedback is never worse than repeated sampling here (fast_{lo:g}).")
    if {"explain", "scalar", "resample"} <= table.keys():
        ahead = [r for r in rounds if table["explain"][r][lo] > max(table["scalar"][r][lo], table["resample"][r][lo])]
        if ahead == rounds:
            notes.append(
                f"Knowing *why* a kernel failed fixes it directly: with explained errors fast_{lo:g} is above scalar "
                f"feedback and repeated sampling at every round count ({', '.join(map(str, rounds))})."
            )
        elif ahead:
            notes.append(f"Explained errors lead at fast_{lo:g} after {', '.join(map(str, ahead))} rounds, not always.")
    if {"suggest", "explain"} <= table.keys():
        early = [r for r in rounds if table["suggest"][r][lo] > table["explain"][r][lo]]
        late = [r for r in rounds if table["suggest"][r][hi] < table["explain"][r][hi]]
        if early:
            notes.append(
                f"Profiler suggestions help most early: suggest beats explain at fast_{lo:g} after "
                f"{', '.join(map(str, early))} rounds."
            )
        if late:
            notes.append(
                f"But suggestions narrow the search to the bottleneck's knobs: at fast_{hi:g} suggest falls behind "
                f"explain after {', '.join(map(str, late))} rounds (at {late[-1]} rounds: "
                f"{table['suggest'][late[-1]][hi]:.2f} vs {table['explain'][late[-1]][hi]:.2f}). Good feedback is "
                f"advice, not a command."
            )
    last = rounds[-1]
    # The drop is taken between the cells as the table prints them (two decimals), so a reader who subtracts the
    # printed cells gets the printed drop (0.97 - 0.46 = 0.51, not the 0.515 -> 0.52 of the unrounded values).
    drops = {mode: round(row[last][lo], 2) - round(row[last][hi], 2) for mode, row in table.items()}
    notes.append(
        f"A higher bar is harder for every method: from fast_{lo:g} to fast_{hi:g} at {last} rounds fast_p drops by "
        + ", ".join(f"{d:.2f} ({m})" for m, d in drops.items())
        + "."
    )
    return notes
