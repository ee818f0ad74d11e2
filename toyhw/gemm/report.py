"""What notebook 03 reports about the GEMM model: per-shape distance to roofline with its reasons, the best config per
M and the oracle's headroom over the expert (vLLM's tuned configs are in toyhw.gemm.vllm).

Every observation the notebook prints is computed here from the model's breakdown, never typed in, and worded by the
catalogue (toyhw.i18n): the table cells' keys are their column heads in the reader's language, the bound and regime
names are the table words of notebook 06's tables, config names and shape labels stay as they are.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Callable

from toyhw.gemm import config as gemm_config, cost as gemm_cost, expert
from toyhw.gemm.config import GemmConfig
from toyhw.gemm.gpu import GPU
from toyhw.gemm.shapes import Shape, regime
from toyhw.gemm.time_table import TimeTable
from toyhw.i18n import N_, t

FIXED_COST_SHARE = 0.15  # launch + pipeline fill above this share of the time is worth naming as a reason
PADDING_SHARE = 0.25  # padding waste above this share of the tensor-core work is worth naming

BOUNDS = {
    "compute": N_("tables.bound.compute"),
    "latency": N_("tables.bound.latency"),
    "sm_load": N_("tables.bound.sm_load"),
    "dram": N_("tables.bound.dram"),
}
"""The cost model's bound (`GemmCost.bound`) as a table words it (the English words are the bound names)."""

REGIMES = {
    "decode": N_("gemmview.regime.decode"),
    "mid": N_("gemmview.regime.mid"),
    "prefill": N_("gemmview.regime.prefill"),
}
"""The regimes (`shapes.regime`) as a sentence words them (the English words are the regime names)."""


def regime_name(regime: str) -> str:
    """Return regime `regime` ("decode", "mid", "prefill") as a sentence or a table words it."""
    return t(REGIMES[regime])


PROBLEM_KINDS = {
    "shared memory": N_("gemmview.kind.shared_memory"),
    "registers": N_("gemmview.kind.registers"),
    "warp tiling": N_("gemmview.kind.warp_tiling"),
    "other": N_("gemmview.kind.other"),
}
"""The kinds of launch problem (`gemm_config.problem_kind`) as a sentence words them (English: the kind itself)."""


def problem_kind_name(kind: str) -> str:
    """Return a launch problem's kind (a key of PROBLEM_KINDS) in the reader's language (an unknown one as it is)."""
    return t(PROBLEM_KINDS[kind]) if kind in PROBLEM_KINDS else kind


def bound_name(bound: str) -> str:
    """Return a bound ("compute", "latency", "sm_load", "dram") in the reader's language (an unknown one as it is)."""
    return t(BOUNDS[bound]) if bound in BOUNDS else bound


def cannot_launch(config: GemmConfig, gpu: GPU) -> str:
    """Return "cannot launch (<kind>)" for a config that cannot launch on `gpu`, in the reader's language."""
    kind = gemm_config.problem_kind(gemm_config.launch_problem(config, gpu))
    return t("gemmview.cannot_launch_kind", kind=problem_kind_name(kind))


@dataclasses.dataclass(frozen=True)
class ShapeRow:
    """One shape's line of the roofline / oracle / expert table.

    Attributes:
        shape: the GEMM shape.
        roofline_us: the roofline bound, microseconds.
        oracle: the fastest launchable config.
        oracle_us: its time, microseconds.
        expert_us: the expert's time, microseconds (math.inf if the expert's config cannot launch).
        closeness: roofline_us / oracle_us (1 = on the roofline).
        bound: what bounds the oracle's main time ("compute", "latency", "sm_load", "dram").
        reasons: why the oracle stays away from the roofline, from its breakdown ("" when nothing stands out).
    """

    shape: Shape
    roofline_us: float
    oracle: GemmConfig
    oracle_us: float
    expert_us: float
    closeness: float
    bound: str
    reasons: str


def distance_reasons(cost: gemm_cost.GemmCost, sms: int) -> str:
    """Return why a config's time exceeds the roofline, read from its breakdown, most important first.

    Fixed costs (launch, pipeline fill and drain, split-K reduction) always count. Too few blocks and padding only cost
    time when the kernel is not DRAM-bound (then the bytes, not the SMs or the math, set the pace), so they are named
    as reasons only in that case, and as "hidden" otherwise.
    """
    reasons = []
    fixed = cost.fixed_us
    if fixed >= FIXED_COST_SHARE * cost.time_us:
        share = fixed / cost.time_us
        reasons.append(
            t("gemmview.reason.fixed_reduce", share=share)
            if cost.reduction_us
            else t("gemmview.reason.fixed", share=share)
        )
    dram_bound = cost.bound == "dram"
    if dram_bound:
        reasons.append(t("gemmview.reason.dram", share=cost.dram_us / cost.time_us))
    if cost.blocks < sms and not dram_bound:
        reasons.append(t("gemmview.reason.few_blocks", blocks=cost.blocks, sms=sms))
    elif cost.blocks % sms and cost.waves <= 4 and not dram_bound:
        reasons.append(t("gemmview.reason.wave_tail", blocks=cost.blocks, waves=cost.blocks / sms))
    if cost.padding_waste >= PADDING_SHARE:
        reasons.append(
            t("gemmview.reason.padding_hidden", share=cost.padding_waste)
            if dram_bound
            else t("gemmview.reason.padding", share=cost.padding_waste)
        )
    return t("gemmview.reason.separator").join(reasons)


def shape_rows(table: TimeTable, shape_list: list[Shape]) -> list[ShapeRow]:
    """Return one ShapeRow per shape (in the given order)."""
    rows = []
    for shape in shape_list:
        best, best_us = table.oracle(shape)
        cost = gemm_cost.gemm_time(best, shape, table.gpu)
        roof = table.roofline(shape)
        rows.append(
            ShapeRow(
                shape,
                roof,
                best,
                best_us,
                table.time(expert.expert_config(shape), shape),
                roof / best_us,
                cost.bound,
                distance_reasons(cost, table.gpu.sms),
            )
        )
    return rows


def row_cells(rows: list[ShapeRow]) -> list[dict[str, object]]:
    """Return the rows as table cells, one dict per shape (the notebook shows them as a DataFrame, whose HTML table
    wraps the long reasons within the page instead of a fixed-width line a projector would wrap). The keys are the
    column heads, in the reader's language."""
    heads = [
        t("gemmview.head.shape"),
        t("gemmview.head.roofline_us"),
        t("gemmview.head.oracle_us"),
        t("gemmview.head.expert_us"),
        t("gemmview.head.roof_oracle"),
        t("gemmview.head.bound"),
        t("gemmview.head.oracle_config"),
        t("gemmview.head.why"),
    ]
    return [
        dict(
            zip(
                heads,
                (
                    r.shape.label(),
                    round(r.roofline_us, 1),
                    round(r.oracle_us, 1),
                    round(r.expert_us, 1),
                    f"{r.closeness:.0%}",
                    bound_name(r.bound),
                    r.oracle.short(),
                    r.reasons,
                ),
            )
        )
        for r in rows
    ]


def geomean(values: list[float]) -> float:
    """Return the geometric mean of positive values (ValueError for none: a mean over nothing is not a number)."""
    if not values:
        raise ValueError("values is empty; a geometric mean needs at least one value (are the shapes empty?)")
    try:
        return math.exp(sum(math.log(v) for v in values) / len(values))
    except (ValueError, TypeError):  # math.log(0): say which value, not "math domain error"
        bad = next((i for i, v in enumerate(values) if not isinstance(v, (int, float)) or not v > 0), None)
        if bad is None:
            raise
        raise ValueError(
            f"values[{bad}] = {values[bad]!r} is not allowed; a geometric mean needs positive values "
            "(a speedup of 0 is a config that cannot launch on that shape: its time is infinite)"
        ) from None


def oracle_speedup(shape_list: list[Shape], table: TimeTable) -> float:
    """Return the geometric-mean speedup of the oracle over the expert on `shape_list`."""
    return geomean([table.time(expert.expert_config(s), s) / table.oracle(s)[1] for s in shape_list])


def closeness_by_regime(table: TimeTable, shape_list: list[Shape]) -> dict[str, float]:
    """Return the geometric mean of roofline / oracle time per regime (decode, mid, prefill)."""
    groups: dict[str, list[float]] = {}
    for s in shape_list:
        groups.setdefault(regime(s.M), []).append(table.roofline(s) / table.oracle(s)[1])
    return {k: geomean(v) for k, v in groups.items()}


def best_configs(
    table: TimeTable, layers: list[str], ms: tuple[int, ...], lookup: Callable[[str, int], Shape]
) -> dict[str, list[GemmConfig]]:
    """Return layer -> the oracle config at each M of `ms` (`lookup(name, M)` builds the Shape)."""
    return {name: [table.oracle(lookup(name, m))[0] for m in ms] for name in layers}


def expert_losses(table: TimeTable, shape_list: list[Shape], min_gain: float = 1.05) -> list[dict[str, object]]:
    """Return one row per shape where the oracle beats the expert by over `min_gain`, with the expert's problem.

    Each row is a dict of table cells (shape, expert's config, its slowdown, the oracle's config, the problem), keyed
    by the column heads in the reader's language.
    """
    heads = [
        t("gemmview.head.shape"),
        t("gemmview.head.expert"),
        t("gemmview.head.slowdown"),
        t("gemmview.head.oracle"),
        t("gemmview.head.problem"),
    ]
    rows: list[dict[str, object]] = []
    for s in shape_list:
        config = expert.expert_config(s)
        t_exp, (best, t_best) = table.time(config, s), table.oracle(s)
        if not math.isfinite(t_exp):
            why = t("gemmview.loss.cannot_launch", reason=gemm_config.launch_problem(config, table.gpu))
            rows.append(dict(zip(heads, (s.label(), config.short(), "-", best.short(), why))))
        elif t_exp > min_gain * t_best:
            cost = gemm_cost.gemm_time(config, s, table.gpu)
            why = distance_reasons(cost, table.gpu.sms) or t("gemmview.loss.bound", bound=bound_name(cost.bound))
            best_bytes = gemm_cost.gemm_time(best, s, table.gpu).dram_bytes
            if cost.dram_bytes > 1.05 * best_bytes:
                why = t("gemmview.loss.traffic", extra=cost.dram_bytes / best_bytes - 1, reasons=why)
            rows.append(dict(zip(heads, (s.label(), config.short(), f"{t_exp / t_best:4.2f}x", best.short(), why))))
    return rows


def neighbours(table: TimeTable, shape: Shape) -> list[str]:
    """Return one line per one-field change of the oracle config on `shape`: its time ratio or why it cannot launch."""
    best, t_best = table.oracle(shape)
    lines = []
    for field, values in gemm_config.FIELDS.items():
        for value in values:
            if value == getattr(best, field):
                continue
            config = dataclasses.replace(best, **{field: value})
            time = table.time(config, shape)
            verdict = (
                t("gemmview.neighbour.ratio", ratio=time / t_best)
                if math.isfinite(time)
                else cannot_launch(config, table.gpu)
            )
            lines.append(f"{field:>10} = {value:<4} {verdict}")
    return lines


def headline(table: TimeTable, shape_list: list[Shape], train: list[Shape], test: list[Shape]) -> list[str]:
    """Return the notebook's observations on the oracle's headroom and the distance to the roofline (computed)."""
    gains = {s: table.time(expert.expert_config(s), s) / table.oracle(s)[1] for s in shape_list}
    big = sorted((g, s.label()) for s, g in gains.items() if g > 1.05)[::-1]
    log_total = sum(math.log(g) for g in gains.values())
    top5 = sum(math.log(g) for g, _ in big[:5])
    by_regime = closeness_by_regime(table, shape_list)
    decode_m = min(x.M for x in shape_list)
    decode = {s.name: table.roofline(s) / table.oracle(s)[1] for s in shape_list if s.M == decode_m}
    far, near = min(decode, key=decode.get), max(decode, key=decode.get)
    sep = t("list.separator")
    return [
        t(
            "gemmview.headline.speedup",
            speedup=oracle_speedup(shape_list, table),
            n=len(shape_list),
            train=oracle_speedup(train, table),
            test=oracle_speedup(test, table),
        ),
        t(
            "gemmview.headline.concentrated",
            big=len(big),
            n=len(shape_list),
            top=sep.join(f"{label} {g:.2f}x" for g, label in big[:5]),
            share=top5 / log_total,
        ),
        t(
            "gemmview.headline.closeness",
            regimes=sep.join(
                t("gemmview.headline.regime", regime=t(REGIMES[k]) if k in REGIMES else k, share=v)
                for k, v in by_regime.items()
            ),
        ),
        t("gemmview.headline.decode", M=decode_m, far=decode[far], far_layer=far, near=decode[near], near_layer=near),
    ]
