"""Lecture 14's results as pandas tables and observations computed from them: the ablation and demo 3 (notebooks 04
and 07); demo 2's are in toyhw.course.feedback_tables, notebook 05's in toyhw.course.loop_tables.

Every observation states only what the numbers show: a comparison is worded from the computed values ("above",
"below", "within the seed spread"), never typed in. "Within the seed spread of X" has one meaning everywhere
(`spread_position`): inside X's min-max over the seeds at the end, the range the table's "end min-max" column shows.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from toyhw.evolve.experiments import ablations
from toyhw.evolve.experiments.ablations import AblationStudy
from toyhw.evolve.experiments.branch_check import BranchRow
from toyhw.evolve.loop import LineageStep
from toyhw.i18n import t


def lecture_frame(study: AblationStudy) -> pd.DataFrame:
    """Return the seed's table: medians at 50/100/300/1000 programs, min-max at the end, test, runs, rules.

    Each median is followed by the share of the oracle's headroom it captures, (score - 1) / (oracle - 1).
    """
    frame = pd.DataFrame(ablations.lecture_table(study)).set_index("variant")
    marks = [c for c in frame.columns if c.endswith("programs")]
    out = frame[marks].map(lambda v: f"{v:.3f} ({ablations.headroom_share(v, study.oracle_train):.0%})")
    out.columns = [t("tables.lecture.programs", n=c.split()[0]) for c in marks]
    out[t("tables.lecture.end_range")] = [f"{a:.3f}-{b:.3f}" for a, b in zip(frame["end min"], frame["end max"])]
    out[t("tables.lecture.test")] = frame["test"].map("{:.3f}".format)
    out[t("tables.lecture.kernel_runs")] = frame["kernel runs"].map("{:,}".format)
    out[t("tables.lecture.rules")] = frame["rules"].map("{:.0f}".format)
    out.index.name = t("tables.variant")
    return out


def oracle_line(study: AblationStudy) -> str:
    """Return the ceiling as one line."""
    return t("tables.oracle_line", train=f"{study.oracle_train:.3f}", test=f"{study.oracle_test:.3f}")


def _final(study: AblationStudy, name: str) -> np.ndarray:
    return np.array([r.final for r in study.runs[name]])


def spread_position(study: AblationStudy, name: str, reference: str = "full") -> str:
    """Return where `name`'s median final score lies against `reference`'s seed spread: "above", "below" or "within".

    The seed spread is `reference`'s min-max over the seeds at the end (ends included), the range the seed table's
    "end min-max" column shows; it is the one meaning of "within the seed spread" in the observations and notebooks.
    """
    final = _final(study, reference)
    median = float(np.median(_final(study, name)))
    if median > final.max():
        return "above"
    return "below" if median < final.min() else "within"


def _spread_words(study: AblationStudy, name: str, reference: str = "full") -> str:
    position = spread_position(study, name, reference)
    return f"within {reference}'s seed spread" if position == "within" else f"{position} {reference}'s seed spread"


def ablation_observations(study: AblationStudy) -> list[str]:
    """Return observations on demo 1, each computed from `study` (only comparisons that hold are stated)."""
    med = {n: float(np.median(_final(study, n))) for n in study.runs}
    share = {n: ablations.headroom_share(v, study.oracle_train) for n, v in med.items()}
    notes = []
    order = sorted(med, key=med.get)
    notes.append(
        f"Lowest at {study.budget} programs: {order[0]} ({med[order[0]]:.3f}, {share[order[0]]:.0%} of the "
        f"headroom), then {order[1]} ({med[order[1]]:.3f}); highest: {order[-1]} ({med[order[-1]]:.3f}, "
        f"{share[order[-1]]:.0%})."
    )
    if "full" in med:
        if "no_evolution" in med:
            notes.append(
                f"No evolution (every proposal edits the initial program) ends at {med['no_evolution']:.3f} "
                f"against {med['full']:.3f} for the full method: one edit is one small step, and good "
                "heuristics are built from many steps on top of each other."
            )
        if "small_llm" in med:
            overlap = _final(study, "small_llm").max() >= _final(study, "full").min()
            notes.append(
                f"Small LLM (single-field edits): {med['small_llm']:.3f}, "
                f"{'overlapping' if overlap else 'with no seed overlapping'} the full method's range. Good "
                "configs often differ from the current one in several fields at once."
            )
        feedback = [n for n in ("fb_roofline", "no_feedback", "fb_worst3") if n in med]
        if feedback:
            lo, hi = _final(study, "full").min(), _final(study, "full").max()
            parts = [f"{n} {med[n]:.3f} ({_spread_words(study, n)})" for n in feedback]
            notes.append(
                f"Feedback: full (weights on distance to the best seen) {med['full']:.3f}, its seed spread "
                f"{lo:.3f}-{hi:.3f}; "
                + "; ".join(parts)
                + ". Only best-seen feedback comes with a config to adopt; notebook 06 shows where each key "
                "points."
            )
        plumbing = [n for n in ("no_borrow", "one_island", "no_cascade", "no_meta_prompt") if n in med]
        if plumbing:
            lo, hi = _final(study, "full").min(), _final(study, "full").max()
            inside = [n for n in plumbing if spread_position(study, n) == "within"]
            outside = [n for n in plumbing if n not in inside]
            text = (
                f"Medians within full's seed spread ({lo:.3f}-{hi:.3f}, its min-max over the seeds): "
                f"{', '.join(inside) or 'none'}"
            )

            def overlap(n: str) -> str:
                values = _final(study, n)
                return "ranges overlap" if values.max() >= lo and values.min() <= hi else "no seed overlaps"

            text += (
                "; outside it: "
                + ", ".join(f"{n} {med[n]:.3f} ({spread_position(study, n)}, {overlap(n)})" for n in outside)
                + "."
                if outside
                else "."
            )
            if any(spread_position(study, n) == "above" for n in outside):
                text += " A median above full's spread means the search did better without that part at this budget."
            notes.append(text + " Parts within the spread are hard to tell apart from seed noise at this size.")
        if "no_cascade" in med:
            runs = {n: float(np.median([r.kernel_runs for r in study.runs[n]])) for n in ("full", "no_cascade")}
            notes.append(
                f"Runs with the cascade spent {1 - runs['full'] / runs['no_cascade']:.0%} fewer kernel runs than "
                f"runs without it (medians {runs['full']:,.0f} against {runs['no_cascade']:,.0f}; different "
                "runs, since the cascade changes which programs enter the database)."
            )
    marks = [m for m in (100, study.budget) if m <= study.budget]
    if len(marks) == 2 and marks[0] < marks[1]:
        gaps = [
            max(study.median_at(n, m) for n in study.runs) - min(study.median_at(n, m) for n in study.runs)
            for m in marks
        ]
        notes.append(
            f"Gap between the best and worst median: {gaps[0]:.3f} after 100 programs, {gaps[1]:.3f} after "
            f"{study.budget}"
            + (" - compare search methods on curves, not at one budget." if gaps[1] > gaps[0] else ".")
        )
    test = {n: float(np.median([r.test for r in study.runs[n]])) for n in study.runs}
    best_test = max(test, key=test.get)
    notes.append(
        f"On the held-out shapes the best median is {best_test} ({test[best_test]:.3f}; oracle "
        f"{study.oracle_test:.3f})"
        + (f"; full gets {test['full']:.3f}" if "full" in test else "")
        + ". Rules fitted to training shapes do not all carry over to the other half."
    )
    return notes


def lineage_frame(steps: Sequence[LineageStep], oracle: float) -> pd.DataFrame:
    """Return the best program's ancestors: proposal number, score, headroom captured, the LLM's description."""
    return pd.DataFrame(
        {
            t("tables.lineage.proposal"): [s.step for s in steps],
            t("tables.lineage.score"): [f"{s.score:.3f}" for s in steps],
            t("tables.lineage.headroom"): [f"{ablations.headroom_share(s.score, oracle):.0%}" for s in steps],
            t("tables.lineage.description"): [s.description for s in steps],
        }
    )


def branches_frame(demo: dict[str, list[BranchRow]]) -> pd.DataFrame:
    """Return demo 3's table: one row per (branch check, seed)."""
    rows = []
    yes, no = t("tables.yes"), t("tables.no")
    for key, label in (("checked", t("tables.branches.on")), ("unchecked", t("tables.branches.off"))):
        for r in demo[key]:
            rows.append(
                {
                    t("tables.branches.check"): label,
                    t("tables.seed"): r.seed,
                    t("tables.branches.added"): r.added,
                    t("tables.branches.added_bad"): r.added_bad_branch,
                    t("tables.branches.db"): r.db_size,
                    t("tables.branches.db_bad"): r.db_bad_branch,
                    t("tables.branches.crash"): r.crash_new_shapes,
                    t("tables.branches.best_bad"): yes if r.best_has_bad_branch else no,
                }
            )
    return pd.DataFrame(rows)


def branches_observations(demo: dict[str, list[BranchRow]]) -> list[str]:
    """Return observations on demo 3, computed from the rows."""
    off, on = demo["unchecked"], demo["checked"]
    n = len(off)
    notes = [
        t(
            "tables.branches.note.unchecked",
            added=sum(r.added_bad_branch for r in off),
            n=n,
            kept=sum(r.db_bad_branch for r in off),
            best=sum(r.best_has_bad_branch for r in off),
        ),
        t("tables.branches.note.crash", crash=sum(r.crash_new_shapes for r in off)),
        t(
            "tables.branches.note.checked",
            added=sum(r.added_bad_branch for r in on),
            crash=sum(r.crash_new_shapes for r in on),
        ),
    ]
    return notes


def rank_frame(study: AblationStudy) -> pd.DataFrame:
    """Return each variant's median final score on the training shapes and on the held-out shapes, with its rank on
    each (1 = highest), sorted by the training rank; the medians to 4 decimals so that close ranks can be read."""
    train = pd.Series({n: float(np.median(_final(study, n))) for n in study.runs})
    test = pd.Series({n: float(np.median([r.test for r in runs])) for n, runs in study.runs.items()})
    train_median, train_rank = t("tables.rank.train_median"), t("tables.rank.train_rank")
    test_median, test_rank = t("tables.rank.test_median"), t("tables.rank.test_rank")
    frame = pd.DataFrame(
        {
            train_median: train,
            train_rank: train.rank(ascending=False, method="min"),
            test_median: test,
            test_rank: test.rank(ascending=False, method="min"),
            t("tables.rank.test_range"): [
                f"{min(r.test for r in study.runs[n]):.3f}-{max(r.test for r in study.runs[n]):.3f}" for n in study.runs
            ],
        }
    )
    frame = frame.sort_values(train_rank)
    frame.index.name = t("tables.variant")
    return frame.astype({train_rank: int, test_rank: int}).round({train_median: 4, test_median: 4})


def database_counts(result) -> dict[str, int]:
    """Return what a run's final database holds (`result`: an EvolveResult) next to what its capacity says.

    Keys: islands; capacity per island (`Database.per_island` = capacity // islands); entries held (island by
    island); distinct entries (an entry migrated to another island is held twice); migration copies; distinct
    programs (two entries can hold the same program, proposed separately on two islands); added over the run (every
    admission, most of them evicted later).
    """
    db = result.db
    entries = db.entries()
    ids = {e.id for e in entries}
    return {
        "islands": len(db.islands),
        "capacity per island": db.per_island,
        "entries held": len(entries),
        "distinct entries": len(ids),
        "migration copies": len(entries) - len(ids),
        "distinct programs": len(db.programs()),
        "added over the run": result.n_added,
    }
