"""Inside the loop as tables: the target-shape draw, what the edits do, the prompt's parts and one run proposal by
proposal (notebook 05)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from toyhw.evolve.experiments import ablations
from toyhw.evolve.llm import target_shares
from toyhw.i18n import N_, t

STATUS_LABELS = {
    "ok": N_("loopview.status.ok"),
    "bad branch": N_("loopview.status.bad_branch"),
    "crash": N_("loopview.status.crash"),
    "cascade": N_("loopview.status.cascade"),
    "invalid": N_("loopview.status.invalid"),
}
"""The evaluator's verdict (a machine-readable status, the key of `EvolveResult.statuses`) -> its label in tables and
sentences."""

OPERATOR_LABELS = {
    "retune": N_("loopview.operator.retune"),
    "specialize": N_("loopview.operator.specialize"),
    "generalize": N_("loopview.operator.generalize"),
    "borrow": N_("loopview.operator.borrow"),
}
"""The mock LLM's edit kinds (`Proposal.operator`, the names the prompt asks for) -> their labels in tables (the names
themselves in English, the notebook's words in Chinese)."""

PROPOSAL_LABELS = {
    "faster config known": N_("loopview.proposal.known"),
    "adopted": N_("loopview.proposal.adopted"),
    "fields changed": N_("loopview.proposal.fields"),
    "can launch": N_("loopview.proposal.launch"),
    "faster there": N_("loopview.proposal.faster"),
}
"""The columns of `proposal_frame` that `knowledge_frame` compares -> their labels."""


def status_label(status: str) -> str:
    """Return the label of an evaluator's verdict ("ok", "bad branch", "crash", "cascade", "invalid")."""
    return t(STATUS_LABELS[status])


def statuses_line(statuses) -> str:
    """Return how many proposals of a run got each verdict (`statuses`: `EvolveResult.statuses`) as one line."""
    return t("list.separator").join(
        t("nb05.status_count", status=status_label(s), count=statuses.get(s, 0)) for s in STATUS_LABELS
    )


def target_frame(feedback, top: int = 8) -> pd.DataFrame:
    """Return the chance that each training shape is the target, under each way the mock LLM picks one.

    `feedback` is a toyhw.evolve.llm.Feedback. Columns: vs_best, vs_roofline, and the chance of being drawn when the
    weights are 1/ratio - 1 + 0.05 on vs_best (full) or on vs_roofline (fb_roofline), uniformly (no_feedback), or
    uniformly among the 3 lowest vs_best (fb_worst3). The `top` shapes most likely under vs_best come first.
    """
    vs_best, vs_roofline = np.asarray(feedback.vs_best), np.asarray(feedback.vs_roofline)
    n = len(vs_best)

    worst3 = np.zeros(n)
    worst3[np.argsort(vs_best, kind="stable")[:3]] = 1 / 3
    frame = pd.DataFrame(
        {
            t("loopview.target.shape"): [s.label() for s in feedback.shapes],
            "vs_best": vs_best,
            "vs_roofline": vs_roofline,
            t("loopview.target.weighted_best"): target_shares(vs_best),
            t("loopview.target.weighted_roofline"): target_shares(vs_roofline),
            t("loopview.target.uniform"): np.full(n, 1 / n),
            t("loopview.target.worst3"): worst3,
        }
    ).set_index(t("loopview.target.shape"))
    return frame.sort_values(t("loopview.target.weighted_best"), ascending=False, kind="stable").head(top).round(3)


def proposal_frame(llm, parent, inspirations, feedback, evaluator, n: int = 2000, seed: int = 0) -> pd.DataFrame:
    """Return `n` proposals of `llm` for the same parent, inspirations and feedback, one row each.

    Columns: target (the shape's label), operator, faster config known (the best config seen for the target differs
    from the parent's config there: only then can the LLM adopt one), adopted (the LLM adopted the best config seen
    for the target), fields changed (of the config at the target, 0-6), can launch (every branch of the child can launch),
    faster there (the child's config at the target is faster than the parent's), description. Draws come from
    `random.Random(seed)`; `evaluator` (an Evaluator on the same shapes) only reads its table, no run is counted.
    """
    import random

    from toyhw.evolve.llm import peek_target
    from toyhw.evolve.programs import choose
    from toyhw.gemm.config import FIELDS

    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        target = peek_target(llm, feedback, rng)
        proposal = llm(parent, inspirations, feedback, rng)
        shape = feedback.shapes[target]
        old, new = choose(parent.program, shape), choose(proposal.program, shape)
        rows.append(
            {
                "target": shape.label(),
                "operator": proposal.operator,
                "faster config known": feedback.best_configs[target] != old,
                "adopted": "fastest config seen" in proposal.description,
                "fields changed": sum(getattr(old, f) != getattr(new, f) for f in FIELDS),
                "can launch": not evaluator.has_bad_branch(proposal.program),
                "faster there": bool(evaluator.table.time(new, shape) < evaluator.table.time(old, shape)),
                "description": proposal.description,
            }
        )
    return pd.DataFrame(rows)


def prompt_frame(views) -> pd.DataFrame:
    """Return, per prompt view (toyhw.course.prompt_view.PromptView), the characters of each part (0 when the
    variant leaves it out), the total characters and estimated tokens, and what the mock did at that step.

    The part columns are named by the prompt's part names (toyhw.evolve.bridge.prompt.PART_NAMES, the keys
    `Prompt.part` takes, in every language); the other headers are the reader's language."""
    from toyhw.evolve.bridge.prompt import PART_NAMES

    rows = []
    for view in views:
        parts = dict(view.prompt.parts)
        rows.append(
            {
                t("tables.variant"): view.variant,
                **{name: len(parts.get(name, "")) for name in PART_NAMES},  # the prompt's part names stay as keys
                t("loopview.prompt.characters"): view.chars,
                t("loopview.prompt.tokens"): view.tokens,
                t("loopview.prompt.change"): view.description,
            }
        )
    return pd.DataFrame(rows).set_index(t("tables.variant"))


def trace_frame(trace) -> pd.DataFrame:
    """Return a run's proposals (toyhw.evolve.experiments.ablations.trace) as a table, one row per proposal, indexed by step.

    Columns: island, parent (entry id), target (the shape's label), operator, status, score, beat its parent,
    could adopt (a faster config was known for the target and the edit was not a borrow), adopted, kernel runs,
    stage 1 and bar (the cascade's score and the score it had to reach; empty when not run), description.
    """
    train = ablations.context().train
    rows = [
        {
            "step": s.step,
            "island": s.island,
            "parent": s.parent_id,
            "target": train[s.target].label(),
            "operator": s.operator,
            "status": s.status,
            "score": s.score,
            "beat its parent": s.score is not None and s.score > s.parent_score,
            "could adopt": s.best_differs and s.operator != "borrow",
            "adopted": "fastest config seen" in s.description,
            "kernel runs": s.runs,
            "stage 1": s.stage1,
            "bar": s.bar,
            "description": s.description,
        }
        for s in trace.steps
    ]
    return pd.DataFrame(rows).set_index("step")


def knowledge_frame(full: pd.DataFrame, small: pd.DataFrame) -> pd.DataFrame:
    """Return the mean of each effect column of two `proposal_frame`s side by side: the full method's mock (kernel
    knowledge) and small_llm's (single-field edits), one row per effect (faster config known, adopted, fields
    changed, can launch, faster there)."""
    columns = list(PROPOSAL_LABELS)
    frame = pd.DataFrame(
        {t("loopview.knowledge.full"): full[columns].mean(), t("loopview.knowledge.small"): small[columns].mean()}
    )
    return frame.rename(index={c: t(PROPOSAL_LABELS[c]) for c in columns})


def operator_frame(steps: pd.DataFrame) -> pd.DataFrame:
    """Return, per edit kind of a `trace_frame`, how many of its proposals ended with each status, and the share
    whose child beat its parent (to 3 decimals)."""
    kinds = pd.crosstab(steps["operator"], steps["status"])
    kinds["beat its parent"] = steps.groupby("operator")["beat its parent"].mean().round(3)
    kinds = kinds.rename(
        index={k: t(OPERATOR_LABELS[k]) for k in OPERATOR_LABELS},
        columns={**{k: status_label(k) for k in STATUS_LABELS}, "beat its parent": t("loopview.beat")},
    )
    kinds.columns.name, kinds.index.name = t("loopview.head.status"), t("loopview.head.operator")
    return kinds


def parts_frame(view) -> pd.DataFrame:
    """Return the characters and estimated tokens of each part of a prompt view's prompt (toyhw.course.prompt_view),
    indexed by the part's name (toyhw.evolve.bridge.prompt.estimate_tokens counts the tokens)."""
    from toyhw.evolve.bridge.prompt import estimate_tokens

    return pd.DataFrame(
        [(name, len(text), estimate_tokens(text)) for name, text in view.prompt.parts],
        columns=[t("loopview.prompt.part"), t("loopview.prompt.characters"), t("loopview.prompt.tokens")],
    ).set_index(t("loopview.prompt.part"))


def entry_line(entry) -> str:
    """Return a database entry's id and training score as one line."""
    return t("nb05.entry", id=entry.id, score=entry.score)


def at_best_line(stuck) -> str:
    """Return how many training shapes are at vs_best = 1 (`stuck`: one bool per shape)."""
    return t("nb05.at_best", stuck=int(np.sum(stuck)), n=len(stuck))


def at_best_share_line(stuck, weights) -> str:
    """Return the share of the target draws that the shapes at vs_best = 1 get (`weights`: each shape's weight)."""
    weights = np.asarray(weights, dtype=float)
    return t("nb05.at_best_share", stuck=int(np.sum(stuck)), share=weights[stuck].sum() / weights.sum())


def adopted_line(proposals: pd.DataFrame, could: pd.DataFrame) -> str:
    """Return the share of `proposals` (a `proposal_frame`) that adopted the best config seen, and the share of
    `could` (its rows that could adopt one)."""
    return t("nb05.adopted", share=proposals["adopted"].mean(), could_share=could["adopted"].mean(), could=len(could))


def cascade_line(step) -> str:
    """Return a traced proposal's stage-1 score, the bar it faced, its status and its kernel runs
    (toyhw.course.proposal_trace.Proposed)."""
    return t(
        "nb05.cascade",
        step=step.step,
        stage1=step.stage1,
        bar=step.bar,
        status=status_label(step.status),
        runs=step.runs,
    )


def kernel_runs_line(spent: int, saved: int) -> str:
    """Return the kernel runs a run spent and those its cascade saved."""
    return t("nb05.kernel_runs", spent=spent, saved=saved)


def prompt_size_line(view) -> str:
    """Return a prompt view's characters and estimated tokens as one line."""
    return t("nb05.prompt_size", chars=view.chars, tokens=view.tokens)


def child_line(view) -> str:
    """Return a prompt view's parent and child scores and the edit kind as one line."""
    return t("nb05.child", parent=view.parent_score, child=view.child_score, operator=view.operator)
