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

from toyhw.course.loop_tables import status_label
from toyhw.evolve import variants
from toyhw.evolve.experiments import ablations
from toyhw.evolve.experiments.ablations import AblationStudy
from toyhw.evolve.experiments.branch_check import BranchRow
from toyhw.evolve.loop import LineageStep
from toyhw.i18n import N_, t


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


def variants_frame() -> pd.DataFrame:
    """Return every variant (the lecture script's nine first) with what it changes and where it comes from: the
    lecture script, or an analogue of one of AlphaEvolve's own ablations."""
    return pd.DataFrame(
        [(n, variants.summary(n), variants.origin(n)) for n in variants.available()],
        columns=[t("tables.variant"), t("nb04.variants.what"), t("nb04.variants.from")],
    ).set_index(t("tables.variant"))


def static_check_line(result) -> str:
    """Return the static check's answer for a program (`toyhw.evolve.source.static_check`'s (ok, problems)) as one
    line: that every branch can launch, or how many cannot."""
    ok, problems = result
    return t("nb04.static_check_ok") if ok else t("nb04.static_check_problems", n=len(problems))


def best_program_line(run) -> str:
    """Return a run's best program's training score, held-out score and rule count as one line (`run`: what
    `ablations.run_one` returns)."""
    return t("nb04.best", final=run.final, test=run.test, rules=run.rules)


def oracle_lines(study: AblationStudy) -> str:
    """Return the ceiling and what the headroom share means, a sentence a line (one line would not fit a projector's
    110 columns in either language)."""
    return t("tables.oracle_lines", train=f"{study.oracle_train:.3f}", test=f"{study.oracle_test:.3f}")


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


SPREAD_WORDS = {
    "above": N_("nb04.spread.above"),
    "below": N_("nb04.spread.below"),
    "within": N_("nb04.spread.within"),
}
"""`spread_position`'s answer -> the words the observations use for it ("within full's seed spread")."""

POSITIONS = {"above": N_("nb04.position.above"), "below": N_("nb04.position.below")}
"""An outside median's `spread_position` -> its one word in the observations."""


def _spread_words(study: AblationStudy, name: str, reference: str = "full") -> str:
    return t(SPREAD_WORDS[spread_position(study, name, reference)], reference=reference)


def ablation_observations(study: AblationStudy) -> list[str]:
    """Return observations on demo 1, each computed from `study` (only comparisons that hold are stated)."""
    med = {n: float(np.median(_final(study, n))) for n in study.runs}
    share = {n: ablations.headroom_share(v, study.oracle_train) for n, v in med.items()}
    notes = []
    order = sorted(med, key=med.get)
    notes.append(
        t(
            "nb04.obs.lowest",
            budget=study.budget,
            low=order[0],
            low_value=med[order[0]],
            low_share=share[order[0]],
            second=order[1],
            second_value=med[order[1]],
            high=order[-1],
            high_value=med[order[-1]],
            high_share=share[order[-1]],
        )
    )
    sep = t("list.separator")
    if "full" in med:
        if "no_evolution" in med:
            notes.append(t("nb04.obs.no_evolution", no_evolution=med["no_evolution"], full=med["full"]))
        if "small_llm" in med:
            overlap = _final(study, "small_llm").max() >= _final(study, "full").min()
            small = med["small_llm"]
            notes.append(
                t("nb04.obs.small_llm", small=small) if overlap else t("nb04.obs.small_llm_apart", small=small)
            )
        feedback = [n for n in ("fb_roofline", "no_feedback", "fb_worst3") if n in med]
        if feedback:
            lo, hi = _final(study, "full").min(), _final(study, "full").max()
            parts = [t("nb04.obs.feedback_part", name=n, value=med[n], where=_spread_words(study, n)) for n in feedback]
            notes.append(
                t("nb04.obs.feedback", full=med["full"], lo=lo, hi=hi, parts=t("nb04.obs.separator").join(parts))
            )
        plumbing = [n for n in ("no_borrow", "one_island", "no_cascade", "no_meta_prompt") if n in med]
        if plumbing:
            lo, hi = _final(study, "full").min(), _final(study, "full").max()
            inside = [n for n in plumbing if spread_position(study, n) == "within"]
            outside = [n for n in plumbing if n not in inside]
            text = t("nb04.obs.plumbing", lo=lo, hi=hi, inside=sep.join(inside) or t("nb04.obs.none"))

            def overlap(n: str) -> str:
                values = _final(study, n)
                return t("nb04.obs.overlap") if values.max() >= lo and values.min() <= hi else t("nb04.obs.no_overlap")

            text += (
                t(
                    "nb04.obs.outside",
                    outside=sep.join(
                        t(
                            "nb04.obs.outside_part",
                            name=n,
                            value=med[n],
                            position=t(POSITIONS[spread_position(study, n)]),
                            overlap=overlap(n),
                        )
                        for n in outside
                    ),
                )
                if outside
                else t("nb04.obs.end")
            )
            if any(spread_position(study, n) == "above" for n in outside):
                text += t("nb04.obs.above")
            notes.append(text + t("nb04.obs.noise"))
        if "no_cascade" in med:
            runs = {n: float(np.median([r.kernel_runs for r in study.runs[n]])) for n in ("full", "no_cascade")}
            notes.append(
                t(
                    "nb04.obs.cascade",
                    fewer=1 - runs["full"] / runs["no_cascade"],
                    full=runs["full"],
                    no_cascade=runs["no_cascade"],
                )
            )
    marks = [m for m in (100, study.budget) if m <= study.budget]
    if len(marks) == 2 and marks[0] < marks[1]:
        gaps = [
            max(study.median_at(n, m) for n in study.runs) - min(study.median_at(n, m) for n in study.runs)
            for m in marks
        ]
        values = {"first": marks[0], "early": gaps[0], "late": gaps[1], "budget": study.budget}
        notes.append(t("nb04.obs.gap_grows", **values) if gaps[1] > gaps[0] else t("nb04.obs.gap", **values))
    test = {n: float(np.median([r.test for r in study.runs[n]])) for n in study.runs}
    best_test = max(test, key=test.get)
    notes.append(
        t("nb04.obs.test", best=best_test, value=test[best_test], oracle=study.oracle_test)
        + (t("nb04.obs.test_full", full=test["full"]) if "full" in test else "")
        + t("nb04.obs.test_end")
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


SHAPE_SETS = {"train": N_("nb07.set.train"), "test": N_("nb07.set.test"), "new": N_("nb07.set.new")}
"""The shape sets a score is reported on (`ablations.context()`'s train, test and new) -> their labels."""


def check_lines(unchecked, checked) -> str:
    """Return what one program's evaluation did without and with the branch check, one line each (`unchecked`,
    `checked`: the two evaluators' EvalResult for it)."""
    return "\n".join(
        (
            t("nb07.without_check", status=status_label(unchecked.status), score=unchecked.score, runs=unchecked.runs),
            t("nb07.with_check", status=status_label(checked.status), runs=checked.runs),
        )
    )


def crash_line(crash, n_shapes: int) -> str:
    """Return on how many of `n_shapes` new shapes a program fails to launch, with the first such shape and the line
    that decides it (`crash`: `branch_check.crashes`'s list, not empty)."""
    first = crash[0]
    return t(
        "nb07.crash",
        crashes=len(crash),
        n=n_shapes,
        shape=first.shape.label(),
        N=first.shape.N,
        K=first.shape.K,
        line=first.line,
    )


def unseen_line(score: float) -> str:
    """Return the training score of a program with a latent bad branch, saying the evaluator never saw it."""
    return t("nb07.unseen", score=score)


def launch_score_line(shapes: str, score: float) -> str:
    """Return a program's score on one shape set ("train", "test" or "new"), saying what a score of 0 means."""
    return t("nb07.set_score", shapes=t(SHAPE_SETS[shapes]), score=score)


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


def database_counts(result) -> pd.DataFrame:
    """Return what a run's final database holds (`result`: an EvolveResult) next to what its capacity says, one
    labelled count a row (one column).

    Rows (their English labels): islands; capacity per island (`Database.per_island` = capacity // islands); entries
    held (island by island); distinct entries (an entry migrated to another island is held twice); migration copies;
    distinct programs (two entries can hold the same program, proposed separately on two islands); added over the run
    (every admission, most of them evicted later).
    """
    db = result.db
    entries = db.entries()
    ids = {e.id for e in entries}
    counts = {
        t("nb04.db.islands"): len(db.islands),
        t("nb04.db.per_island"): db.per_island,
        t("nb04.db.held"): len(entries),
        t("nb04.db.distinct_entries"): len(ids),
        t("nb04.db.copies"): len(entries) - len(ids),
        t("nb04.db.distinct_programs"): len(db.programs()),
        t("nb04.db.added"): result.n_added,
    }
    frame = pd.DataFrame({t("nb04.db.count"): counts})
    frame.index.name = t("nb04.db.what")
    return frame
