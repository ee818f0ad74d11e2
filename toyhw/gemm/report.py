"""What notebook 03 reports about the GEMM model: per-shape distance to roofline with its reasons, the best config per
M and the oracle's headroom over the expert (vLLM's tuned configs are in toyhw.gemm.vllm).

Every observation the notebook prints is computed here from the model's breakdown, never typed in.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Callable

from toyhw.gemm import config as gemm_config, cost as gemm_cost, expert
from toyhw.gemm.config import GemmConfig
from toyhw.gemm.shapes import Shape, regime
from toyhw.gemm.time_table import TimeTable

FIXED_COST_SHARE = 0.15  # launch + pipeline fill above this share of the time is worth naming as a reason
PADDING_SHARE = 0.25  # padding waste above this share of the tensor-core work is worth naming


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
        reasons.append(f"launch+fill{'+reduce' if cost.reduction_us else ''} {fixed / cost.time_us:.0%} of time")
    dram_bound = cost.bound == "dram"
    if dram_bound:
        reasons.append(f"DRAM-bound ({cost.dram_us / cost.time_us:.0%} of time)")
    if cost.blocks < sms and not dram_bound:
        reasons.append(f"too few blocks ({cost.blocks} for {sms} SMs)")
    elif cost.blocks % sms and cost.waves <= 4 and not dram_bound:
        reasons.append(f"wave tail ({cost.blocks} blocks = {cost.blocks / sms:.2f} waves)")
    if cost.padding_waste >= PADDING_SHARE:
        hidden = " (hidden: DRAM-bound)" if dram_bound else ""
        reasons.append(f"padding {cost.padding_waste:.0%} of the math{hidden}")
    return "; ".join(reasons)


def shape_rows(table: TimeTable, shape_list: list[Shape]) -> list[ShapeRow]:
    """Return one ShapeRow per shape (in the given order)."""
    rows = []
    for shape in shape_list:
        best, t = table.oracle(shape)
        cost = gemm_cost.gemm_time(best, shape, table.gpu)
        roof = table.roofline(shape)
        rows.append(
            ShapeRow(
                shape,
                roof,
                best,
                t,
                table.time(expert.expert_config(shape), shape),
                roof / t,
                cost.bound,
                distance_reasons(cost, table.gpu.sms),
            )
        )
    return rows


def format_rows(rows: list[ShapeRow]) -> str:
    """Return the rows as a fixed-width text table."""
    lines = [
        f"{'shape':<22}{'roofline':>9}{'oracle':>9}{'expert':>9}{'roof/oracle':>12}  {'bound':<8} oracle config"
        f"{'':<13}why the oracle stays away",
        f"{'':<22}{'us':>9}{'us':>9}{'us':>9}",
    ]
    for r in rows:
        lines.append(
            f"{r.shape.label():<22}{r.roofline_us:>9.1f}{r.oracle_us:>9.1f}{r.expert_us:>9.1f}"
            f"{r.closeness:>12.0%}  {r.bound:<8} {r.oracle.short():<25} {r.reasons}"
        )
    return "\n".join(lines)


def row_cells(rows: list[ShapeRow]) -> list[dict[str, object]]:
    """Return the rows as table cells, one dict per shape (the notebook shows them as a DataFrame, whose HTML table
    wraps the long reasons within the page instead of a fixed-width line a projector would wrap)."""
    return [
        {
            "shape": r.shape.label(),
            "roofline us": round(r.roofline_us, 1),
            "oracle us": round(r.oracle_us, 1),
            "expert us": round(r.expert_us, 1),
            "roof/oracle": f"{r.closeness:.0%}",
            "bound": r.bound,
            "oracle config": r.oracle.short(),
            "why the oracle stays away": r.reasons,
        }
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

    Each row is a dict of table cells (shape, expert's config, its slowdown, the oracle's config, the problem).
    """
    rows: list[dict[str, object]] = []
    for s in shape_list:
        config = expert.expert_config(s)
        t_exp, (best, t_best) = table.time(config, s), table.oracle(s)
        if not math.isfinite(t_exp):
            rows.append(
                {
                    "shape": s.label(),
                    "expert": config.short(),
                    "slowdown": "-",
                    "oracle": best.short(),
                    "expert's problem": f"cannot launch: {gemm_config.launch_problem(config, table.gpu)}",
                }
            )
        elif t_exp > min_gain * t_best:
            cost = gemm_cost.gemm_time(config, s, table.gpu)
            why = distance_reasons(cost, table.gpu.sms) or f"{cost.bound}-bound"
            best_bytes = gemm_cost.gemm_time(best, s, table.gpu).dram_bytes
            if cost.dram_bytes > 1.05 * best_bytes:
                why = f"{cost.dram_bytes / best_bytes - 1:.0%} more DRAM traffic; " + why
            rows.append(
                {
                    "shape": s.label(),
                    "expert": config.short(),
                    "slowdown": f"{t_exp / t_best:4.2f}x",
                    "oracle": best.short(),
                    "expert's problem": why,
                }
            )
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
            t = table.time(config, shape)
            verdict = (
                f"{t / t_best:5.2f}x the oracle's time"
                if math.isfinite(t)
                else f"cannot launch ({gemm_config.problem_kind(gemm_config.launch_problem(config, table.gpu))})"
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
    decode = {s.name: table.roofline(s) / table.oracle(s)[1] for s in shape_list if s.M == min(x.M for x in shape_list)}
    far, near = min(decode, key=decode.get), max(decode, key=decode.get)
    return [
        f"oracle speedup over the expert: {oracle_speedup(shape_list, table):.3f}x on all {len(shape_list)} shapes "
        f"(train {oracle_speedup(train, table):.3f}x, test {oracle_speedup(test, table):.3f}x)",
        f"concentrated: {len(big)} of {len(shape_list)} shapes gain more than 5%; the top 5 ("
        + ", ".join(f"{label} {g:.2f}x" for g, label in big[:5])
        + f") carry {top5 / log_total:.0%} of the log-gain",
        "oracle time as a share of the roofline (geometric mean): "
        + ", ".join(f"{k} {v:.0%}" for k, v in by_regime.items()),
        f"at M={min(x.M for x in shape_list)} the oracle gets {decode[far]:.0%} of the roofline on {far} and "
        f"{decode[near]:.0%} on {near}",
    ]
