"""Demo 2 as tables: where the two feedback keys point, the share of the draw on stuck shapes, and why the stuck
shapes stay far from the roofline (notebook 06). Observations are computed, never typed in."""

from __future__ import annotations

from typing import Sequence

import pandas as pd

from toyhw import i18n
from toyhw.evolve.experiments import ablations, targeting
from toyhw.evolve.experiments.targeting import Targeting


BOUNDS = {
    "compute": i18n.N_("tables.bound.compute"),
    "latency": i18n.N_("tables.bound.latency"),
    "sm_load": i18n.N_("tables.bound.sm_load"),
    "dram": i18n.N_("tables.bound.dram"),
}
"""The cost model's bound (`GemmCost.bound`) as the table words it."""


def targeting_frame(t: Targeting, digits: int = 3) -> pd.DataFrame:
    """Return the top-5 shapes by vs_roofline next to the top-5 by vs_best, with whether each shape is stuck.

    Ratios are shown with `digits` decimals: with two, a vs_best of 0.9499 (not stuck) and 0.9519 (stuck) would both
    read 0.95, and the "stuck" column would seem to contradict the number next to it.
    """

    def stuck(r) -> str:
        return i18n.t("tables.yes") if r.vs_best > targeting.STUCK else i18n.t("tables.no")

    # The two halves repeat three headers; a trailing space tells the left half's apart (pandas needs distinct names).
    stuck_head = i18n.t("tables.targeting.stuck")
    rows = []
    for a, b in zip(t.top_roofline, t.top_best):
        rows.append(
            {
                i18n.t("tables.targeting.top_roofline"): a.shape.label(),
                "vs_roofline": f"{a.vs_roofline:.{digits}f}",
                "vs_best ": f"{a.vs_best:.{digits}f}",
                stuck_head + " ": stuck(a),
                i18n.t("tables.targeting.top_best"): b.shape.label(),
                "vs_roofline ": f"{b.vs_roofline:.{digits}f}",
                "vs_best": f"{b.vs_best:.{digits}f}",
                stuck_head: stuck(b),
            }
        )
    return pd.DataFrame(rows)


def stuck_share_frame(seeds: Sequence[int] = ablations.SEEDS, budgets: Sequence[int] = (300, 1000)) -> pd.DataFrame:
    """Return demo 2 for every seed and budget: stuck shapes, each weighting's share of the draw on them, the top 5s.

    One row per (budget, seed), from `targeting.targeting`: how many training shapes are stuck, the share of the target
    draw that roofline and best-seen weighting send to them, which share is larger, how many shapes the two top-5
    lists share and how many of roofline's top 5 are stuck.
    """
    budget_head, seed_head = i18n.t("tables.budget"), i18n.t("tables.seed")
    rows = []
    for budget in budgets:
        for seed in seeds:
            t = targeting.targeting(seed, budget)
            roof, best = t.share_on_stuck["roofline"], t.share_on_stuck["best"]
            larger = (
                i18n.t("tables.share.roofline")
                if roof > best
                else i18n.t("tables.share.best")
                if best > roof
                else i18n.t("tables.share.equal")
            )
            rows.append(
                {
                    budget_head: budget,
                    seed_head: seed,
                    i18n.t("tables.share.stuck"): i18n.t("tables.share.stuck_of", stuck=t.n_stuck, n=len(t.rows)),
                    i18n.t("tables.share.on_roofline"): f"{roof:.0%}",
                    i18n.t("tables.share.on_best"): f"{best:.0%}",
                    i18n.t("tables.share.larger"): larger,
                    i18n.t("tables.share.overlap"): t.overlap_top5,
                    i18n.t("tables.share.top_stuck"): sum(r.vs_best > targeting.STUCK for r in t.top_roofline),
                }
            )
    return pd.DataFrame(rows).set_index([budget_head, seed_head])


def stuck_frame(t: Targeting, table, limit: int = 6, max_m: int | None = None) -> pd.DataFrame:
    """Return why the stuck shapes farthest from their roofline stay there: the oracle config's time, broken down.

    For each stuck shape (vs_best > STUCK) with the lowest vs_roofline: the roofline, the best possible time (the
    oracle), and the parts of it the roofline ignores - the launch and pipeline fill/drain latencies, split-K's
    reduction, padding waste, and how many blocks there are for the 132 SMs. `max_m` keeps shapes with M <= max_m
    (16: the decode shapes).
    """
    from toyhw.gemm import cost as gemm_cost

    stuck = sorted(
        (r for r in t.rows if r.vs_best > targeting.STUCK and (max_m is None or r.shape.M <= max_m)),
        key=lambda r: r.vs_roofline,
    )[:limit]
    rows = []
    for r in stuck:
        config, best = table.oracle(r.shape)
        cost = gemm_cost.gemm_time(config, r.shape, table.gpu)
        roof = table.roofline(r.shape)
        rows.append(
            {
                i18n.t("tables.stuck.shape"): r.shape.label(),
                i18n.t("tables.stuck.now"): f"{r.vs_roofline:.2f}",
                i18n.t("tables.stuck.roofline"): f"{roof:.1f}",
                i18n.t("tables.stuck.oracle"): f"{best:.1f}",
                i18n.t("tables.stuck.oracle_ratio"): f"{roof / best:.2f}",
                i18n.t("tables.stuck.launch_fill"): f"{cost.launch_us + cost.fill_us:.1f}",
                i18n.t("tables.stuck.reduction"): f"{cost.reduction_us:.1f}",
                i18n.t("tables.stuck.bound"): i18n.t(BOUNDS[cost.bound]),
                i18n.t("tables.stuck.blocks"): cost.blocks,
                i18n.t("tables.stuck.padding"): f"{cost.padding_waste:.0%}",
                i18n.t("tables.stuck.config"): config.short(),
            }
        )
    return pd.DataFrame(rows)


def targeting_observations(t: Targeting, table) -> list[str]:
    """Return observations on demo 2, computed from the per-shape feedback and the cost model's breakdown."""
    from toyhw.gemm import cost as gemm_cost

    share = t.share_on_stuck
    n = len(t.rows)
    notes = [
        i18n.t(
            "tables.targeting.note.stuck",
            stuck=t.n_stuck,
            n=n,
            budget=t.budget,
            bar=targeting.STUCK,
            roofline=f"{share['roofline']:.0%}",
            best=f"{share['best']:.0%}",
        )
    ]
    stuck_top = [r for r in t.top_roofline if r.vs_best > targeting.STUCK]
    which = (
        i18n.t("tables.targeting.note.which", shapes=", ".join(r.shape.label() for r in stuck_top)) if stuck_top else ""
    )
    counts = {"overlap": t.overlap_top5, "stuck": len(stuck_top), "which": which}
    notes.append(
        i18n.t("tables.targeting.note.top_one", **counts)
        if len(stuck_top) == 1
        else i18n.t("tables.targeting.note.top", **counts)
    )
    gaps = []
    for r in sorted((r for r in t.rows if r.vs_best > targeting.STUCK), key=lambda r: r.vs_roofline)[:3]:
        config, best = table.oracle(r.shape)
        cost = gemm_cost.gemm_time(config, r.shape, table.gpu)
        fixed = cost.fixed_us
        gaps.append(
            i18n.t(
                "tables.targeting.note.gap",
                shape=r.shape.label(),
                reach=f"{table.roofline(r.shape) / best:.2f}",
                fixed=f"{fixed:.1f}",
                best=f"{best:.1f}",
                bound=i18n.t(BOUNDS[cost.bound]),
                blocks=cost.blocks,
                sms=table.gpu.sms,
            )
        )
    decode = [r for r in t.rows if r.shape.M <= 16]
    stuck_decode = [r for r in decode if r.vs_best > targeting.STUCK]
    if stuck_decode:
        fixed_share, reach, bounds, blocks = [], [], [], []
        for r in stuck_decode:
            config, best = table.oracle(r.shape)
            cost = gemm_cost.gemm_time(config, r.shape, table.gpu)
            fixed_share.append(cost.fixed_us / best)
            reach.append(table.roofline(r.shape) / best)
            bounds.append(cost.bound)
            blocks.append(cost.blocks)
        common = max(sorted(set(bounds)), key=bounds.count)
        notes.append(
            i18n.t(
                "tables.targeting.note.decode",
                stuck=len(stuck_decode),
                n=len(decode),
                low=f"{min(reach):.2f}",
                high=f"{max(reach):.2f}",
                fixed_low=f"{min(fixed_share):.0%}",
                fixed_high=f"{max(fixed_share):.0%}",
                common=bounds.count(common),
                bound=i18n.t(BOUNDS[common]),
                blocks_low=min(blocks),
                blocks_high=max(blocks),
                sms=table.gpu.sms,
            )
        )
    if gaps:
        notes.append(i18n.t("tables.targeting.note.why", gaps=i18n.t("scaling.separator").join(gaps)))
    return notes
