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
    rows = [
        {
            "id": c.measurement.id,
            "gpu": c.measurement.gpu,
            "M": c.measurement.shape.M,
            "N": c.measurement.shape.N,
            "K": c.measurement.shape.K,
            "regime": c.measurement.regime,
            "timing": c.measurement.timing,
            "warm_l2": c.measurement.warm_l2,
            "measured_us": c.measurement.measured_us,
            "model_us": c.model_us,
            "ratio": c.ratio,
            "config": c.config.as_dict(),
            "schedule": c.schedule,
            "library": c.measurement.library,
            "source": c.measurement.source,
        }
        for c in found
    ]
    return {"summary": validate.summary(found), "rows": rows}


def render(result: dict) -> str:
    """Return one line per measurement, then the error per regime and GPU and the verdict against the targets
    (padded by display width; ids, GPU names, regimes and timing modes are the data's own names)."""
    from toyhw.i18n import t
    from toyhw.textwidth import column_width, pad

    s = result["summary"]
    heads = [
        t("validate.head.id"),
        t("validate.head.gpu"),
        t("validate.head.shape"),
        t("validate.head.timing"),
        t("validate.head.measured"),
        t("validate.head.model"),
        t("validate.head.ratio"),
    ]
    left = [column_width(least, [h]) for h, least in zip(heads[:4], (6, 6, 21, 12))]
    right = [column_width(least, [h]) for h, least in zip(heads[4:], (12, 10, 11))]
    lines = [
        "".join(pad(h, w) for h, w in zip(heads[:4], left))
        + "".join(pad(h, w, right=True) for h, w in zip(heads[4:], right))
    ]
    for r in result["rows"]:
        shape = f"{r['M']}x{r['N']}x{r['K']}"
        cells = [f"{r['measured_us']:.2f}", f"{r['model_us']:.2f}", f"{r['ratio']:.2f}"]
        lines.append(
            "".join(pad(c, w) for c, w in zip((r["id"], r["gpu"], shape, r["timing"]), left))
            + "".join(pad(c, w, right=True) for c, w in zip(cells, right))
        )
    lines.append("")
    lines.append(
        t(
            "validate.summary",
            error=s["geomean_error"],
            n=s["n"],
            worst=s["worst"]["id"],
            off_by=s["worst"]["off_by"],
            target_error=s["targets"]["geomean_error"],
            target_off_by=s["targets"]["worst_off_by"],
        )
    )
    sep = t("list.separator")
    for key, label in (("by_regime", t("validate.by_regime")), ("by_gpu", t("validate.by_gpu"))):
        groups = sep.join(t("validate.group", name=k, error=v["geomean_error"], n=v["n"]) for k, v in s[key].items())
        lines.append(t("validate.group_line", label=label, groups=groups))
    lines.append(
        t("validate.within")
        if s["within_targets"]
        else t("validate.misses") + (t("validate.missed", misses=sep.join(s["misses"])) if s["misses"] else "")
    )
    return "\n".join(lines)
