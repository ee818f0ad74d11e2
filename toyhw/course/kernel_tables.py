"""Lecture 10's results as pandas tables and computed observations, for notebooks 01 and 02."""

from __future__ import annotations

from typing import Sequence

import pandas as pd

from toyhw import data
from toyhw.checks import UnknownNameError
from toyhw.i18n import N_, t
from toyhw.kernels import failures, study
from toyhw.kernels.labels import cause_label, cause_name, mode_label, status_name
from toyhw.kernels.study import OneShotReport, Table


def outcome_frame(report: OneShotReport) -> pd.DataFrame:
    """Return one-shot outcomes: tasks and share per status, failures split by cause."""
    causes = report.cause_counts()
    rows = [
        (t("outcome.compile_error"), cause_label("shared_memory_overflow"), causes["shared_memory_overflow"]),
        (t("outcome.wrong"), cause_label("vector_width_indivisible"), causes["vector_width_indivisible"]),
        (t("outcome.wrong"), cause_label("illegal_fusion"), causes["illegal_fusion"]),
        (t("outcome.correct"), "-", sum(k.feedback.ok for k in report.kernels)),
    ]
    status, cause, count, share = (
        t("outcome.head.status"),
        t("outcome.head.cause"),
        t("outcome.head.tasks"),
        t("outcome.head.share"),
    )
    frame = pd.DataFrame(rows, columns=[status, cause, count])
    frame[share] = (frame[count] / report.n_tasks).map("{:.1%}".format)
    return frame


RISKY_CHOICES = {
    "shared_memory_overflow": N_("risky.shared_memory_overflow"),
    "vector_width_indivisible": N_("risky.vector_width_indivisible"),
    "illegal_fusion": N_("risky.illegal_fusion"),
}
"""Each failure cause and (the message id of) the risky choice of the one-shot writer behind it
(`failures.without_choice` removes it)."""


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
    for cause in RISKY_CHOICES:
        rows.append(
            {
                t("risky.head.choice"): t(RISKY_CHOICES[cause]),
                t("risky.head.first"): first[cause],
                t("risky.head.broken"): sum(cause in b for b in broken),
                t("risky.head.alone"): sum(b == (cause,) for b in broken),
            }
        )
    return pd.DataFrame(rows).set_index(t("risky.head.choice"))


def first_tasks_frame(report: OneShotReport, n: int = 8) -> pd.DataFrame:
    """Return the first `n` tasks, one row each: the hidden traits the writer could not see, the config it wrote, what
    the run said (status and cause) and the speedup."""
    rows = [
        {
            t("first_tasks.head.task"): k.index,
            t("first_tasks.head.memory_bound"): round(k.task.memory_bound, 2),
            t("first_tasks.head.best_tile"): k.task.best_tile,
            "n": k.task.n,
            t("first_tasks.head.fusable"): k.task.fusable,
            **k.config.as_dict(),
            t("outcome.head.status"): status_name(k.feedback.status),
            t("outcome.head.cause"): cause_name(k.feedback.cause) if k.feedback.cause else "-",
            t("first_tasks.head.speedup"): round(k.speedup, 3),
        }
        for k in report.kernels[:n]
    ]
    return pd.DataFrame(rows).set_index(t("first_tasks.head.task"))


def fast_frame(report: OneShotReport, ps: Sequence[float] = study.ONE_SHOT_PS) -> pd.DataFrame:
    """Return fast_p of the one-shot kernels for each p, as one row."""
    return pd.DataFrame([{f"fast_{p:g}": round(f, 3) for p, f in report.fast(ps).items()}], index=[t("fast.one_shot")])


def one_shot_observations(report: OneShotReport) -> list[str]:
    """Return what the one-shot results show, each sentence computed from them."""
    shares = report.status_shares()
    causes = report.cause_counts()
    top = max(causes, key=lambda c: causes[c])
    fast = report.fast((0.0, 1.0))
    slower = round((fast[0.0] - fast[1.0]) * report.n_tasks)
    notes = [
        t(
            "one_shot.note.fail",
            failed=1 - shares["ok"],
            compile_error=shares["compile_error"],
            wrong=shares["wrong"],
            cause=cause_label(top),
            count=causes[top],
            tasks=report.n_tasks,
        ),
        t("one_shot.note.correct", fast0=fast[0.0], fast1=fast[1.0], slower=slower),
    ]
    return notes


def feedback_frame(table: Table, ps: Sequence[float] = study.LECTURE_PS) -> pd.DataFrame:
    """Return lecture 10's table: one row per mode, one column per round count, cells "fast_p1 / fast_p2"."""
    ps = study.check_ps(ps)
    rounds = study.check_table(table, ps)
    return pd.DataFrame(
        {
            t("fastp.rounds_head", rounds=r): {
                mode_label(mode): " / ".join(f"{row[r][p]:.2f}" for p in ps) for mode, row in table.items()
            }
            for r in rounds
        }
    ).rename_axis(t("feedback.axis", low=f"fast_{ps[0]:g}", high=f"fast_{ps[-1]:g}"))


def kernelbench_one_shot_frame() -> pd.DataFrame:
    """Return KernelBench's one-shot fast_1 over PyTorch Eager (%) per model and level (arXiv 2502.10517v1, Figure 2)."""
    rows = {
        str(r["model"]): {t("kernelbench.level", level=c[-1]): r[c] for c in data.KERNELBENCH_LEVELS}
        for r in data.kernelbench_one_shot_rows()
    }
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis(t("kernelbench.one_shot_axis")).astype("Int64")


KERNELBENCH_METHODS = {
    "one_shot": N_("nb02.method.one_shot"),
    "resample": N_("nb02.method.resample"),
    "scalar": N_("nb02.method.scalar"),
    "explain": N_("nb02.method.explain"),
    "suggest": N_("nb02.method.suggest"),
}
"""The toy mode of each row of KernelBench's Table 1 -> (the message id of) the paper's method, as the row label; the
English catalogue holds the paper's own names, as data/kernelbench_table1.csv writes them."""


def kernelbench_frame(
    rounds: int = 10, task_seed: int = study.LECTURE_TASK_SEED, n_tasks: int = study.LECTURE_N_TASKS
) -> pd.DataFrame:
    """Return KernelBench's Table 1 (Level 2, fast_1 %, 10 calls) next to the toy's fast_1 for the matching mode."""
    rows = []
    for paper in data.kernelbench_rows():
        mode = str(paper["toy_mode"])
        if mode == "one_shot":
            toy = study.one_shot(task_seed, n_tasks).fast((1.0,))[1.0]
        else:
            toy = study.feedback_table(task_seed, n_tasks, [mode], [rounds], [1.0])[mode][rounds][1.0]
        rows.append(
            {
                t("kernelbench.method"): t(KERNELBENCH_METHODS[mode]),
                "Llama-3.1-70B": paper["llama_3_1_70b"],
                "DeepSeek-V3": paper["deepseek_v3"],
                "DeepSeek-R1": paper["deepseek_r1"],
                t("kernelbench.toy_mode", rounds=rounds): mode,
                t("kernelbench.toy_fast"): round(100 * toy, 1),
            }
        )
    counts = {"Llama-3.1-70B": "Int64", "DeepSeek-V3": "Int64", "DeepSeek-R1": "Int64"}
    return pd.DataFrame(rows).set_index(t("kernelbench.method")).astype(counts)


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
        verdict = t("race.beats", best=best, value=others[best])
    elif mine == others[best]:
        verdict = t("race.ties", best=best, value=others[best])
    else:
        verdict = t("race.behind", best=best, value=others[best], gap=others[best] - mine)
    return t("race.verdict", rounds=rounds, challenger=challenger, p=f"{p:g}", mine=mine, verdict=verdict)


def observations(table: dict[str, dict[int, dict[float, float]]], ps: Sequence[float] = study.LECTURE_PS) -> list[str]:
    """Return lecture 10's observations, each stated only if the table bears it out."""
    ps = study.check_ps(ps)
    rounds = sorted(study.check_table(table, ps))
    notes: list[str] = []
    lo, hi = ps[0], ps[-1]
    sep = t("list.separator")
    low, high = f"fast_{lo:g}", f"fast_{hi:g}"
    if {"scalar", "resample"} <= table.keys():
        worse = [r for r in rounds if table["scalar"][r][lo] < table["resample"][r][lo]]
        if worse:
            scalar = ", ".join(f"{table['scalar'][r][lo]:.2f}" for r in worse)
            resample = ", ".join(f"{table['resample'][r][lo]:.2f}" for r in worse)
            notes.append(
                t(
                    "feedback.note.scalar_worse",
                    rounds=sep.join(map(str, worse)),
                    low=low,
                    scalar=scalar,
                    resample=resample,
                )
            )
        else:
            notes.append(t("feedback.note.scalar_never_worse", low=low))
    if {"explain", "scalar", "resample"} <= table.keys():
        ahead = [r for r in rounds if table["explain"][r][lo] > max(table["scalar"][r][lo], table["resample"][r][lo])]
        if ahead == rounds:
            notes.append(t("feedback.note.explain_ahead", low=low, rounds=sep.join(map(str, rounds))))
        elif ahead:
            notes.append(t("feedback.note.explain_sometimes", low=low, rounds=sep.join(map(str, ahead))))
    if {"suggest", "explain"} <= table.keys():
        early = [r for r in rounds if table["suggest"][r][lo] > table["explain"][r][lo]]
        late = [r for r in rounds if table["suggest"][r][hi] < table["explain"][r][hi]]
        if early:
            notes.append(t("feedback.note.suggest_early", low=low, rounds=sep.join(map(str, early))))
        if late:
            notes.append(
                t(
                    "feedback.note.suggest_late",
                    high=high,
                    rounds=sep.join(map(str, late)),
                    last=late[-1],
                    suggest=table["suggest"][late[-1]][hi],
                    explain=table["explain"][late[-1]][hi],
                )
            )
    last = rounds[-1]
    # The drop is taken between the cells as the table prints them (two decimals), so a reader who subtracts the
    # printed cells gets the printed drop (0.97 - 0.46 = 0.51, not the 0.515 -> 0.52 of the unrounded values).
    drops = {mode: round(row[last][lo], 2) - round(row[last][hi], 2) for mode, row in table.items()}
    notes.append(
        t(
            "feedback.note.higher_bar",
            low=low,
            high=high,
            last=last,
            drops=sep.join(t("feedback.note.drop", drop=d, mode=mode_label(m)) for m, d in drops.items()),
        )
    )
    return notes
