"""Lecture 14's results as pandas tables and observations computed from them (notebooks 04-07).

Every observation states only what the numbers show: a comparison is worded from the computed values ("above",
"below", "within the seed spread"), never typed in. "Within the seed spread of X" has one meaning everywhere
(`spread_position`): inside X's min-max over the seeds at the end, the range the table's "end min-max" column shows.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from toyhw.evolve import ablations, targeting
from toyhw.evolve.ablations import AblationStudy
from toyhw.evolve.branch_check import BranchRow
from toyhw.evolve.targeting import Targeting
from toyhw.evolve.loop import LineageStep


def seed_frame(study: AblationStudy) -> pd.DataFrame:
    """Return the seed's table: medians at 50/100/300/1000 programs, min-max at the end, test, runs, rules.

    Each median is followed by the share of the oracle's headroom it captures, (score - 1) / (oracle - 1).
    """
    frame = pd.DataFrame(ablations.seed_table(study)).set_index("variant")
    marks = [c for c in frame.columns if c.endswith("programs")]
    out = frame[marks].map(lambda v: f"{v:.3f} ({ablations.headroom_share(v, study.oracle_train):.0%})")
    out["end min-max"] = [f"{a:.3f}-{b:.3f}" for a, b in zip(frame["end min"], frame["end max"])]
    out["test shapes"] = frame["test"].map("{:.3f}".format)
    out["kernel runs"] = frame["kernel runs"].map("{:,}".format)
    out["rules (simplified)"] = frame["rules"].map("{:.0f}".format)
    return out


def oracle_line(study: AblationStudy) -> str:
    """Return the ceiling as one line."""
    return (f"Oracle (best launchable config per shape): train {study.oracle_train:.3f}, test {study.oracle_test:.3f}."
            " Headroom captured = (score - 1) / (oracle - 1) on the training shapes.")


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
    notes.append(f"Lowest at {study.budget} programs: {order[0]} ({med[order[0]]:.3f}, {share[order[0]]:.0%} of the "
                 f"headroom), then {order[1]} ({med[order[1]]:.3f}); highest: {order[-1]} ({med[order[-1]]:.3f}, "
                 f"{share[order[-1]]:.0%}).")
    if "full" in med:
        if "no_evolution" in med:
            notes.append(f"No evolution (every proposal edits the initial program) ends at {med['no_evolution']:.3f} "
                         f"against {med['full']:.3f} for the full method: one edit is one small step, and good "
                         "heuristics are built from many steps on top of each other.")
        if "small_llm" in med:
            overlap = _final(study, "small_llm").max() >= _final(study, "full").min()
            notes.append(f"Small LLM (single-field edits): {med['small_llm']:.3f}, "
                         f"{'overlapping' if overlap else 'with no seed overlapping'} the full method's range. Good "
                         "configs often differ from the current one in several fields at once.")
        feedback = [n for n in ("fb_roofline", "no_feedback", "fb_worst3") if n in med]
        if feedback:
            lo, hi = _final(study, "full").min(), _final(study, "full").max()
            parts = [f"{n} {med[n]:.3f} ({_spread_words(study, n)})" for n in feedback]
            notes.append(f"Feedback: full (weights on distance to the best seen) {med['full']:.3f}, its seed spread "
                         f"{lo:.3f}-{hi:.3f}; " + "; ".join(parts)
                         + ". Only best-seen feedback comes with a config to adopt; notebook 06 shows where each key "
                         "points.")
        plumbing = [n for n in ("no_borrow", "one_island", "no_cascade", "no_meta_prompt") if n in med]
        if plumbing:
            lo, hi = _final(study, "full").min(), _final(study, "full").max()
            inside = [n for n in plumbing if spread_position(study, n) == "within"]
            outside = [n for n in plumbing if n not in inside]
            text = (f"Medians within full's seed spread ({lo:.3f}-{hi:.3f}, its min-max over the seeds): "
                    f"{', '.join(inside) or 'none'}")
            def overlap(n: str) -> str:
                values = _final(study, n)
                return "ranges overlap" if values.max() >= lo and values.min() <= hi else "no seed overlaps"

            text += ("; outside it: " + ", ".join(f"{n} {med[n]:.3f} ({spread_position(study, n)}, "
                                                  f"{overlap(n)})" for n in outside) + "." if outside else ".")
            if any(spread_position(study, n) == "above" for n in outside):
                text += " A median above full's spread means the search did better without that part at this budget."
            notes.append(text + " Parts within the spread are hard to tell apart from seed noise at this size.")
        if "no_cascade" in med:
            runs = {n: float(np.median([r.bench_runs for r in study.runs[n]])) for n in ("full", "no_cascade")}
            notes.append(f"Runs with the cascade spent {1 - runs['full'] / runs['no_cascade']:.0%} fewer kernel runs than "
                         f"runs without it (medians {runs['full']:,.0f} against {runs['no_cascade']:,.0f}; different "
                         "runs, since the cascade changes which programs enter the database).")
    marks = [m for m in (100, study.budget) if m <= study.budget]
    if len(marks) == 2 and marks[0] < marks[1]:
        gaps = [max(study.median_at(n, m) for n in study.runs) - min(study.median_at(n, m) for n in study.runs)
                for m in marks]
        notes.append(f"Gap between the best and worst median: {gaps[0]:.3f} after 100 programs, {gaps[1]:.3f} after "
                     f"{study.budget}" + (" - compare search methods on curves, not at one budget." if gaps[1] > gaps[0]
                                          else "."))
    test = {n: float(np.median([r.test for r in study.runs[n]])) for n in study.runs}
    best_test = max(test, key=test.get)
    notes.append(f"On the held-out shapes the best median is {best_test} ({test[best_test]:.3f}; oracle "
                 f"{study.oracle_test:.3f})" + (f"; full gets {test['full']:.3f}" if "full" in test else "") +
                 ". Rules fitted to training shapes do not all carry over to the other half.")
    return notes


def lineage_frame(steps: Sequence[LineageStep], oracle: float) -> pd.DataFrame:
    """Return the best program's ancestors: proposal number, score, headroom captured, the LLM's description."""
    return pd.DataFrame({"proposal": [s.step for s in steps], "score": [f"{s.score:.3f}" for s in steps],
                         "headroom": [f"{ablations.headroom_share(s.score, oracle):.0%}" for s in steps],
                         "what the LLM said it changed": [s.description for s in steps]})


def targeting_frame(t: Targeting, digits: int = 3) -> pd.DataFrame:
    """Return the top-5 shapes by vs_roofline next to the top-5 by vs_best, with whether each shape is stuck.

    Ratios are shown with `digits` decimals: with two, a vs_best of 0.9499 (not stuck) and 0.9519 (stuck) would both
    read 0.95, and the "stuck" column would seem to contradict the number next to it.
    """
    def stuck(r) -> str:
        return "yes" if r.vs_best > targeting.STUCK else "no"

    rows = []
    for a, b in zip(t.top_roofline, t.top_best):
        rows.append({"most to gain by roofline": a.shape.label(), "vs_roofline": f"{a.vs_roofline:.{digits}f}",
                     "vs_best ": f"{a.vs_best:.{digits}f}", "stuck ": stuck(a),
                     "most to gain by best seen": b.shape.label(), "vs_roofline ": f"{b.vs_roofline:.{digits}f}",
                     "vs_best": f"{b.vs_best:.{digits}f}", "stuck": stuck(b)})
    return pd.DataFrame(rows)


def stuck_share_frame(seeds: Sequence[int] = ablations.SEEDS, budgets: Sequence[int] = (300, 1000)) -> pd.DataFrame:
    """Return demo 2 for every seed and budget: stuck shapes, each weighting's share of the draw on them, the top 5s.

    One row per (budget, seed), from `targeting.targeting`: how many training shapes are stuck, the share of the target
    draw that roofline and best-seen weighting send to them, which share is larger, how many shapes the two top-5
    lists share and how many of roofline's top 5 are stuck.
    """
    rows = []
    for budget in budgets:
        for seed in seeds:
            t = targeting.targeting(seed, budget)
            roof, best = t.share_on_stuck["roofline"], t.share_on_stuck["best"]
            rows.append({"budget": budget, "seed": seed, "stuck shapes": f"{t.n_stuck} of {len(t.rows)}",
                         "share on stuck, roofline": f"{roof:.0%}", "share on stuck, best seen": f"{best:.0%}",
                         "larger": "roofline" if roof > best else "best seen" if best > roof else "equal",
                         "top-5 lists share": t.overlap_top5,
                         "roofline's top 5 stuck": sum(r.vs_best > targeting.STUCK for r in t.top_roofline)})
    return pd.DataFrame(rows).set_index(["budget", "seed"])


def branches_frame(demo: dict[str, list[BranchRow]]) -> pd.DataFrame:
    """Return demo 3's table: one row per (branch check, seed)."""
    rows = []
    for key, label in (("checked", "on"), ("unchecked", "off")):
        for r in demo[key]:
            rows.append({"branch check": label, "seed": r.seed, "added to the database": r.added,
                         "of them with a bad branch": r.added_bad_branch, "final database": r.db_size,
                         "final, with a bad branch": r.db_bad_branch, "crash on the 100 new shapes": r.crash_new_shapes,
                         "best program has a bad branch": "yes" if r.best_has_bad_branch else "no"})
    return pd.DataFrame(rows)


def branches_observations(demo: dict[str, list[BranchRow]]) -> list[str]:
    """Return observations on demo 3, computed from the rows."""
    off, on = demo["unchecked"], demo["checked"]
    n = len(off)
    notes = [f"Without the branch check, {sum(r.added_bad_branch for r in off)} programs with at least one branch that "
             f"cannot launch entered the database ({n} seeds together): no training shape reaches that branch, so the "
             f"score cannot see it. {sum(r.db_bad_branch for r in off)} are still in the final databases; in "
             f"{sum(r.best_has_bad_branch for r in off)} of {n} seeds the best program itself carries one.",
             f"{sum(r.crash_new_shapes for r in off)} programs of the final databases fail to launch on at least one "
             "of the 100 new shapes: the bug waits until an unseen shape walks into the branch.",
             f"With the check: {sum(r.added_bad_branch for r in on)} such programs added, "
             f"{sum(r.crash_new_shapes for r in on)} crashes on new shapes. The check is static and costs no kernel "
             "run."]
    return notes


def stuck_frame(t: Targeting, table, limit: int = 6, max_m: int | None = None) -> pd.DataFrame:
    """Return why the stuck shapes farthest from their roofline stay there: the oracle config's time, broken down.

    For each stuck shape (vs_best > STUCK) with the lowest vs_roofline: the roofline, the best possible time (the
    oracle), and the parts of it the roofline ignores - the launch and pipeline fill/drain latencies, split-K's
    reduction, padding waste, and how many blocks there are for the 132 SMs. `max_m` keeps shapes with M <= max_m
    (16: the decode shapes).
    """
    from toyhw.gemm import cost as gemm_cost

    stuck = sorted((r for r in t.rows if r.vs_best > targeting.STUCK and (max_m is None or r.shape.M <= max_m)),
                   key=lambda r: r.vs_roofline)[:limit]
    rows = []
    for r in stuck:
        config, best = table.oracle(r.shape)
        cost = gemm_cost.gemm_time(config, r.shape, table.gpu)
        roof = table.roofline(r.shape)
        rows.append({"shape": r.shape.label(), "vs_roofline now": f"{r.vs_roofline:.2f}",
                     "roofline (us)": f"{roof:.1f}", "oracle (us)": f"{best:.1f}",
                     "oracle vs_roofline": f"{roof / best:.2f}",
                     "launch + fill (us)": f"{cost.launch_us + cost.fill_us:.1f}",
                     "split-K reduction (us)": f"{cost.reduction_us:.1f}", "bound": cost.bound,
                     "blocks": cost.blocks, "padding waste": f"{cost.padding_waste:.0%}",
                     "oracle config": config.short()})
    return pd.DataFrame(rows)


def targeting_observations(t: Targeting, table) -> list[str]:
    """Return observations on demo 2, computed from the per-shape feedback and the cost model's breakdown."""
    from toyhw.gemm import cost as gemm_cost

    share = t.share_on_stuck
    n = len(t.rows)
    notes = [f"{t.n_stuck} of {n} training shapes have no known improvement after {t.budget} programs (vs_best > "
             f"{targeting.STUCK}). Drawing targets with weights 1/ratio - 1 + 0.05, roofline weighting sends "
             f"{share['roofline']:.0%} of the proposals to them, best-seen weighting {share['best']:.0%}."]
    stuck_top = [r for r in t.top_roofline if r.vs_best > targeting.STUCK]
    notes.append(f"The two top-5 lists share {t.overlap_top5} shape(s). Of roofline's top 5, {len(stuck_top)} "
                 + ("are" if len(stuck_top) != 1 else "is") + " already at the best config seen"
                 + (f" ({', '.join(r.shape.label() for r in stuck_top)})" if stuck_top else "") + ".")
    gaps = []
    for r in sorted((r for r in t.rows if r.vs_best > targeting.STUCK), key=lambda r: r.vs_roofline)[:3]:
        config, best = table.oracle(r.shape)
        cost = gemm_cost.gemm_time(config, r.shape, table.gpu)
        fixed = cost.launch_us + cost.fill_us + cost.reduction_us
        gaps.append(f"{r.shape.label()}: even the oracle reaches only {table.roofline(r.shape) / best:.2f} of the "
                    f"roofline; launch, pipeline fill/drain and split-K reduction take {fixed:.1f} of its "
                    f"{best:.1f} us, and it is {cost.bound}-bound with {cost.blocks} blocks for "
                    f"{table.gpu.sms} SMs")
    decode = [r for r in t.rows if r.shape.M <= 16]
    stuck_decode = [r for r in decode if r.vs_best > targeting.STUCK]
    if stuck_decode:
        fixed_share, reach, bounds, blocks = [], [], [], []
        for r in stuck_decode:
            config, best = table.oracle(r.shape)
            cost = gemm_cost.gemm_time(config, r.shape, table.gpu)
            fixed_share.append((cost.launch_us + cost.fill_us + cost.reduction_us) / best)
            reach.append(table.roofline(r.shape) / best)
            bounds.append(cost.bound)
            blocks.append(cost.blocks)
        common = max(sorted(set(bounds)), key=bounds.count)
        notes.append(f"{len(stuck_decode)} of the {len(decode)} decode shapes (M <= 16) are stuck. The best config "
                     f"reaches {min(reach):.2f}-{max(reach):.2f} of their roofline: the fixed costs (launch, pipeline "
                     f"fill/drain, split-K reduction) are {min(fixed_share):.0%}-{max(fixed_share):.0%} of the best "
                     f"time; {bounds.count(common)} of them are {common}-bound, with {min(blocks)}-{max(blocks)} "
                     f"blocks for {table.gpu.sms} SMs.")
    if gaps:
        notes.append("Why the stuck shapes farthest from the roofline stay there (the cost model's breakdown of the "
                     "best config): " + "; ".join(gaps)
                     + ". Distance to the roofline is not distance to a better config.")
    return notes


def rank_frame(study: AblationStudy) -> pd.DataFrame:
    """Return each variant's median final score on the training shapes and on the held-out shapes, with its rank on
    each (1 = highest), sorted by the training rank; the medians to 4 decimals so that close ranks can be read."""
    train = pd.Series({n: float(np.median(_final(study, n))) for n in study.runs})
    test = pd.Series({n: float(np.median([r.test for r in runs])) for n, runs in study.runs.items()})
    frame = pd.DataFrame({"training (median)": train, "training rank": train.rank(ascending=False, method="min"),
                          "test shapes (median)": test, "test rank": test.rank(ascending=False, method="min"),
                          "test min-max": [f"{min(r.test for r in study.runs[n]):.3f}-"
                                           f"{max(r.test for r in study.runs[n]):.3f}" for n in study.runs]})
    frame = frame.sort_values("training rank")
    frame.index.name = "variant"
    return frame.astype({"training rank": int, "test rank": int}).round({"training (median)": 4,
                                                                          "test shapes (median)": 4})


# ----- inside the loop (notebook 05)


def target_frame(feedback, top: int = 8) -> pd.DataFrame:
    """Return the chance that each training shape is the target, under each way the mock LLM picks one.

    `feedback` is a toyhw.evolve.llm.Feedback. Columns: vs_best, vs_roofline, and the chance of being drawn when the
    weights are 1/ratio - 1 + 0.05 on vs_best (full) or on vs_roofline (fb_roofline), uniformly (no_feedback), or
    uniformly among the 3 lowest vs_best (fb_worst3). The `top` shapes most likely under vs_best come first.
    """
    vs_best, vs_roofline = np.asarray(feedback.vs_best), np.asarray(feedback.vs_roofline)
    n = len(vs_best)

    def weighted(ratio: np.ndarray) -> np.ndarray:
        w = 1.0 / ratio - 1.0 + 0.05
        return w / w.sum()

    worst3 = np.zeros(n)
    worst3[np.argsort(vs_best, kind="stable")[:3]] = 1 / 3
    frame = pd.DataFrame({"shape": [s.label() for s in feedback.shapes], "vs_best": vs_best,
                          "vs_roofline": vs_roofline, "weighted vs_best": weighted(vs_best),
                          "weighted vs_roofline": weighted(vs_roofline), "uniform": np.full(n, 1 / n),
                          "worst 3": worst3}).set_index("shape")
    return frame.sort_values("weighted vs_best", ascending=False, kind="stable").head(top).round(3)


def proposal_frame(llm, parent, inspirations, feedback, evaluator, n: int = 2000, seed: int = 0) -> pd.DataFrame:
    """Return `n` proposals of `llm` for the same parent, inspirations and feedback, one row each.

    Columns: target (the shape's label), operator, faster config known (the best config seen for the target differs
    from the parent's config there: only then can the LLM adopt one), adopted (the LLM adopted the best config seen
    for the target), fields changed (of the config at the target, 0-6), can launch (every branch of the child can launch),
    faster there (the child's config at the target is faster than the parent's), description. Draws come from
    `random.Random(seed)`; `evaluator` (an Evaluator on the same shapes) only reads its table, no run is counted.
    """
    import random

    from toyhw.evolve.programs import choose
    from toyhw.gemm.config import FIELDS

    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        state = rng.getstate()
        target = llm.target(feedback, rng)  # the mock's first draw; put back so that the call draws the same
        rng.setstate(state)
        proposal = llm(parent, inspirations, feedback, rng)
        shape = feedback.shapes[target]
        old, new = choose(parent.program, shape), choose(proposal.program, shape)
        rows.append({"target": shape.label(), "operator": proposal.operator,
                     "faster config known": feedback.best_configs[target] != old,
                     "adopted": "fastest config seen" in proposal.description,
                     "fields changed": sum(getattr(old, f) != getattr(new, f) for f in FIELDS),
                     "can launch": not evaluator.has_bad_branch(proposal.program),
                     "faster there": bool(evaluator.table.time(new, shape) < evaluator.table.time(old, shape)),
                     "description": proposal.description})
    return pd.DataFrame(rows)


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
    return {"islands": len(db.islands), "capacity per island": db.per_island, "entries held": len(entries),
            "distinct entries": len(ids), "migration copies": len(entries) - len(ids),
            "distinct programs": len(db.programs()), "added over the run": result.n_added}


def prompt_frame(views) -> pd.DataFrame:
    """Return, per prompt view (toyhw.evolve.prompt_view.PromptView), the characters of each part (0 when the
    variant leaves it out), the total characters and estimated tokens, and what the mock did at that step."""
    from toyhw.evolve.prompt import PART_NAMES

    rows = []
    for view in views:
        parts = dict(view.prompt.parts)
        rows.append({"variant": view.variant, **{name: len(parts.get(name, "")) for name in PART_NAMES},
                     "characters": view.chars, "tokens (est.)": view.tokens, "the mock's change": view.description})
    return pd.DataFrame(rows).set_index("variant")


def trace_frame(trace) -> pd.DataFrame:
    """Return a run's proposals (toyhw.evolve.ablations.trace) as a table, one row per proposal, indexed by step.

    Columns: island, parent (entry id), target (the shape's label), operator, status, score, beat its parent,
    could adopt (a faster config was known for the target and the edit was not a borrow), adopted, kernel runs,
    stage 1 and bar (the cascade's score and the score it had to reach; empty when not run), description.
    """
    train = ablations.context().train
    rows = [{"step": s.step, "island": s.island, "parent": s.parent_id, "target": train[s.target].label(),
             "operator": s.operator, "status": s.status, "score": s.score,
             "beat its parent": s.score is not None and s.score > s.parent_score,
             "could adopt": s.best_differs and s.operator != "borrow",
             "adopted": "fastest config seen" in s.description, "kernel runs": s.runs, "stage 1": s.stage1,
             "bar": s.bar, "description": s.description} for s in trace.steps]
    return pd.DataFrame(rows).set_index("step")
