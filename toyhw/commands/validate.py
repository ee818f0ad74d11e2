"""`python -m toyhw validate`: the GEMM model against published measurements of real GEMMs (lecture 13)."""
from __future__ import annotations

import argparse

from toyhw.gemm import validate

HELP = "the GEMM cost model against published measurements: error per row, per regime and per GPU (lecture 13)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """This command has no options besides --json."""


def run(args: argparse.Namespace) -> dict:
    """Return {"summary": {...}, "rows": [{"id", "gpu", "M", "N", "K", "timing", "measured_us", "model_us", ...}]}."""
    found = validate.checks()
    rows = [{"id": c.measurement.id, "gpu": c.measurement.gpu, "M": c.measurement.shape.M, "N": c.measurement.shape.N,
             "K": c.measurement.shape.K, "regime": c.measurement.regime, "timing": c.measurement.timing,
             "warm_l2": c.measurement.warm_l2, "measured_us": c.measurement.measured_us, "model_us": c.model_us,
             "ratio": c.ratio, "config": c.config.as_dict(), "schedule": c.schedule, "library": c.measurement.library,
             "source": c.measurement.source} for c in found]
    return {"summary": validate.summary(found), "rows": rows}


def render(result: dict) -> str:
    """Return one line per measurement, then the error per regime and GPU and the verdict against the targets."""
    s = result["summary"]
    lines = [f"{'id':<5} {'gpu':<5} {'M x N x K':<20} {'timing':<12} {'measured us':>11} {'model us':>9} "
             f"{'model/meas':>10}"]
    for r in result["rows"]:
        shape = f"{r['M']}x{r['N']}x{r['K']}"
        lines.append(f"{r['id']:<5} {r['gpu']:<5} {shape:<20} {r['timing']:<12} {r['measured_us']:>11.2f} "
                     f"{r['model_us']:>9.2f} {r['ratio']:>10.2f}")
    lines.append("")
    lines.append(f"geometric-mean error {s['geomean_error']:.1%} over {s['n']} measurements; worst {s['worst']['id']} "
                 f"off by {s['worst']['off_by']:.2f}x (targets: {s['targets']['geomean_error']:.0%}, "
                 f"{s['targets']['worst_off_by']:.2f}x)")
    for key in ("by_regime", "by_gpu"):
        lines.append(f"  {key[3:]}: " + ", ".join(f"{k} {v['geomean_error']:.1%} ({v['n']})" for k, v in s[key].items()))
    lines.append("within the targets" if s["within_targets"] else
                 "misses the targets" + (f": {', '.join(s['misses'])}" if s["misses"] else ""))
    return "\n".join(lines)
