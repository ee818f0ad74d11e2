"""`python -m toyhw gemm`: one GEMM shape on one GPU: roofline, the expert's config and the oracle's.

The shape is a layer of data/llm_layers.csv at M tokens (`--layer`, `--m`) or any MxNxK (`--shape`, named "custom").
The GPU name is checked when the command runs (the error lists the known ones): building the parser reads no data.
"""

from __future__ import annotations

import argparse
import math

from toyhw.commands import options

HELP = "roofline, expert and oracle configs of one GEMM shape on one GPU (the lecture-13 cost model)"
DEFAULT_LAYER = "70B/8 qkv"
DEFAULT_M = 16


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the GPU, and the shape: a layer and the token count M, or --shape MxNxK."""
    from toyhw.gemm.shapes import MAX_DIM  # reads no data: layer tables are read on first use

    parser.add_argument("--gpu", default="H100", help="GPU name or model (default H100; see data/gpus.csv)")
    parser.add_argument("--layer", help=f'layer name from data/llm_layers.csv (default "{DEFAULT_LAYER}")')
    parser.add_argument("--m", type=options.integer("--m", None, "16"), help=f"tokens M (default {DEFAULT_M})")
    parser.add_argument(
        "--shape",
        type=options.gemm_shape("--shape", MAX_DIM),
        help='any GEMM shape MxNxK, e.g. 16x4096x4096 (named "custom"; instead of --layer and --m)',
    )


def _entry(table, config, shape) -> dict:
    from toyhw.gemm import cost as gemm_cost

    time_us = table.time(config, shape)
    entry = {"config": config.as_dict(), "time_us": time_us if math.isfinite(time_us) else None}
    if not math.isfinite(time_us):
        entry["reason"] = gemm_cost.gemm_time(config, shape, table.gpu).reason
    return entry


def run(args: argparse.Namespace) -> dict:
    """Return {"shape", "roofline_us", "expert": {"config", "time_us"}, "oracle": {...}, "n_configs", "n_launchable"}.

    An expert config that cannot launch on the chosen GPU gets "time_us": null and a "reason".
    """
    from toyhw.gemm import expert, shapes
    from toyhw.gemm.time_table import TimeTable

    if args.shape is not None and (args.layer is not None or args.m is not None):
        raise ValueError(
            "--shape cannot be combined with --layer or --m; give either --shape MxNxK or --layer NAME --m M"
        )
    if args.shape is not None:
        shape = shapes.Shape("custom", *args.shape)
    else:
        shape = shapes.layer_shape(
            DEFAULT_LAYER if args.layer is None else args.layer, DEFAULT_M if args.m is None else args.m
        )
    table = TimeTable(args.gpu)
    best, _ = table.oracle(shape)
    return {
        "gpu": table.gpu.name,
        "shape": {"name": shape.name, "M": shape.M, "N": shape.N, "K": shape.K},
        "roofline_us": table.roofline(shape),
        "expert": _entry(table, expert.expert_config(shape), shape),
        "oracle": _entry(table, best, shape),
        "n_configs": len(table.configs),
        "n_launchable": int(table.launchable.sum()),
    }


def _config_text(config: dict) -> str:
    from toyhw.i18n import t

    return t(
        "gemm.config",
        block_m=config["block_m"],
        block_n=config["block_n"],
        block_k=config["block_k"],
        warps=config["num_warps"],
        stages=config["num_stages"],
        split_k=config["split_k"],
    )


def render(result: dict) -> str:
    """Return a short readable report (padded by display width)."""
    from toyhw.i18n import t
    from toyhw.textwidth import column_width, pad

    s = result["shape"]
    names = {"roofline": t("gemm.roofline"), "oracle": t("gemm.oracle"), "expert": t("gemm.expert")}
    width = column_width(8, names.values()) - 1
    lines = [
        t(
            "gemm.head",
            name=s["name"],
            M=s["M"],
            N=s["N"],
            K=s["K"],
            gpu=result["gpu"],
            launchable=result["n_launchable"],
            configs=result["n_configs"],
        ),
        f"  {pad(names['roofline'], width + 2)}{result['roofline_us']:10.2f} us",
    ]
    for who in ("oracle", "expert"):
        entry = result[who]
        t_us = entry["time_us"]
        timing = (
            t("gemm.timing", time=t_us, share=result["roofline_us"] / t_us)
            if t_us is not None
            else pad(t("gemm.cannot_launch"), 13, right=True) + t("gemm.reason", reason=entry["reason"])
        )
        lines.append(f"  {pad(names[who], width)}  {timing}  {_config_text(entry['config'])}")
    if result["expert"]["time_us"] is not None:
        speedup = result["expert"]["time_us"] / result["oracle"]["time_us"]
        lines.append(t("gemm.speedup", speedup=speedup))
    return "\n".join(lines)
