"""Lecture 14's results as pandas tables and observations computed from them (notebooks 04-07).

Every observation states only what the numbers show: a comparison is worded from the computed values ("above",
"below", "within the seed spread"), never typed in.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from toyhw.evolve import ablations
from toyhw.evolve.ablations import AblationStudy, BranchRow, Targeting
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


def _compare(a: float, b: float, spread: float) -> str:
    if abs(a - b) <= spread:
        return "within the seed spread of"
    return "above" if a > b else "below"


def ablation_observations(study: AblationStudy) -> list[str]:
    """Return observations on demo 1, each computed from `study` (only comparisons that hold are stated)."""
    med = {n: float(np.median(_final(study, n))) for n in study.runs}
    spread = {n: float(np.ptp(_final(study, n))) for n in study.runs}
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
            parts = [f"{n} {med[n]:.3f} ({_compare(med[n], med['full'], max(spread['full'], spread[n]) / 2)} full)"
                     for n in feedback]
            notes.append(f"Feedback: full (weights on distance to the best seen) {med['full']:.3f}; " + "; ".join(parts)
                         + ". Only best-seen feedback comes with a config to adopt; demo 2 shows where each key "
                         "points.")
        plumbing = [n for n in ("no_borrow", "one_island", "no_cascade", "no_meta_prompt") if n in med]
        if plumbing:
            lo, hi = _final(study, "full").min(), _final(study, "full").max()
            inside = [n for n in plumbing if lo <= med[n] <= hi]
            outside = [n for n in plumbing if n not in inside]
            text = f"Medians inside the full method's min-max range ({lo:.3f}-{hi:.3f}): {', '.join(inside) or 'none'}"
            text += f"; outside: {', '.join(f'{n} {med[n]:.3f}' for n in outside)}." if outside else "."
            notes.append(text + " At this size these parts are hard to tell apart from seed noise.")
        if "no_cascade" in med:
            runs = {n: float(np.median([r.bench_runs for r in study.runs[n]])) for n in ("full", "no_cascade")}
            notes.append(f"The cascade saved {1 - runs['full'] / runs['no_cascade']:.0%} of the kernel runs "
                         f"({runs['full']:,.0f} against {runs['no_cascade']:,.0f}).")
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
        return "yes" if r.vs_best > ablations.STUCK else "no"

    rows = []
    for a, b in zip(t.top_roofline, t.top_best):
        rows.append({"most to gain by roofline": a.shape.label(), "vs_roofline": f"{a.vs_roofline:.{digits}f}",
                     "vs_best ": f"{a.vs_best:.{digits}f}", "stuck ": stuck(a),
                     "most to gain by best seen": b.shape.label(), "vs_roofline ": f"{b.vs_roofline:.{digits}f}",
                     "vs_best": f"{b.vs_best:.{digits}f}", "stuck": stuck(b)})
    return pd.DataFrame(rows)


def stuck_share_frame(seeds: Sequence[int] = ablations.SEEDS, budgets: Sequence[int] = (300, 1000)) -> pd.DataFrame:
    """Return demo 2 for every seed and budget: stuck shapes, each weighting's share of the draw on them, the top 5s.

    One row per (budget, seed), from `ablations.targeting`: how many training shapes are stuck, the share of the target
    draw that roofline and best-seen weighting send to them, which share is larger, how many shapes the two top-5
    lists share and how many of roofline's top 5 are stuck.
    """
    rows = []
    for budget in budgets:
        for seed in seeds:
            t = ablations.targeting(seed, budget)
            roof, best = t.share_on_stuck["roofline"], t.share_on_stuck["best"]
            rows.append({"budget": budget, "seed": seed, "stuck shapes": f"{t.n_stuck} of {len(t.rows)}",
                         "share on stuck, roofline": f"{roof:.0%}", "share on stuck, best seen": f"{best:.0%}",
                         "larger": "roofline" if roof > best else "best seen" if best > roof else "equal",
                         "top-5 lists share": t.overlap_top5,
                         "roofline's top 5 stuck": sum(r.vs_best > ablations.STUCK for r in t.top_roofline)})
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

    stuck = sorted((r for r in t.rows if r.vs_best > ablations.STUCK and (max_m is None or r.shape.M <= max_m)),
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
             f"{ablations.STUCK}). Drawing targets with weights 1/ratio - 1 + 0.05, roofline weighting sends "
             f"{share['roofline']:.0%} of the proposals to them, best-seen weighting {share['best']:.0%}."]
    stuck_top = [r for r in t.top_roofline if r.vs_best > ablations.STUCK]
    notes.append(f"The two top-5 lists share {t.overlap_top5} shape(s). Of roofline's top 5, {len(stuck_top)} "
                 + ("are" if len(stuck_top) != 1 else "is") + " already at the best config seen"
                 + (f" ({', '.join(r.shape.label() for r in stuck_top)})" if stuck_top else "") + ".")
    gaps = []
    for r in sorted((r for r in t.rows if r.vs_best > ablations.STUCK), key=lambda r: r.vs_roofline)[:3]:
        config, best = table.oracle(r.shape)
        cost = gemm_cost.gemm_time(config, r.shape, table.gpu)
        fixed = cost.launch_us + cost.fill_us + cost.reduction_us
        gaps.append(f"{r.shape.label()}: even the oracle reaches only {table.roofline(r.shape) / best:.2f} of the "
                    f"roofline; launch, pipeline fill/drain and split-K reduction take {fixed:.1f} of its "
                    f"{best:.1f} us, and it is {cost.bound}-bound with {cost.blocks} blocks for "
                    f"{table.gpu.sms} SMs")
    decode = [r for r in t.rows if r.shape.M <= 16]
    stuck_decode = [r for r in decode if r.vs_best > ablations.STUCK]
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
