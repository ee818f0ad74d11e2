"""`python -m toyhw gemm`: one GEMM shape on one GPU: roofline, the expert's config and the oracle's."""
from __future__ import annotations

import argparse
import math

from toyhw.gemm import cost as gemm_cost, expert, shapes
from toyhw.gemm.gpu import gpu_names
from toyhw.gemm.time_table import TimeTable

HELP = "roofline, expert and oracle configs of one GEMM shape on one GPU (the lecture-13 cost model)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the GPU, the layer and the token count M."""
    parser.add_argument("--gpu", default="H100", help=f"GPU name (default H100; known: {', '.join(gpu_names())})")
    parser.add_argument("--layer", default="70B/8 qkv",
                        help='layer name from data/llm_layers.csv (default "70B/8 qkv")')
    parser.add_argument("--m", type=int, default=16, help="tokens M (default 16)")


def _entry(table: TimeTable, config, shape) -> dict:
    time_us = table.time(config, shape)
    entry = {"config": config.as_dict(), "time_us": time_us if math.isfinite(time_us) else None}
    if not math.isfinite(time_us):
        entry["reason"] = gemm_cost.gemm_time(config, shape, table.gpu).reason
    return entry


def run(args: argparse.Namespace) -> dict:
    """Return {"shape", "roofline_us", "expert": {"config", "time_us"}, "oracle": {...}, "n_configs", "n_launchable"}.

    An expert config that cannot launch on the chosen GPU gets "time_us": null and a "reason".
    """
    table = TimeTable(args.gpu)
    shape = shapes.layer_shape(args.layer, args.m)
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
    return (f"{config['block_m']}x{config['block_n']}x{config['block_k']} warps {config['num_warps']} "
            f"stages {config['num_stages']} split_k {config['split_k']}")


def render(result: dict) -> str:
    """Return a short readable report."""
    s = result["shape"]
    lines = [f"{s['name']} M={s['M']} (N={s['N']}, K={s['K']}) on {result['gpu']}: "
             f"{result['n_launchable']} of {result['n_configs']} configs launch",
             f"  roofline  {result['roofline_us']:10.2f} us"]
    for who in ("oracle", "expert"):
        entry = result[who]
        t = entry["time_us"]
        timing = f"{t:10.2f} us  ({result['roofline_us'] / t:.0%} of roofline)" if t is not None else (
            f"{'cannot launch':>13}: {entry['reason']}")
        lines.append(f"  {who:<8}  {timing}  {_config_text(entry['config'])}")
    if result["expert"]["time_us"] is not None:
        speedup = result["expert"]["time_us"] / result["oracle"]["time_us"]
        lines.append(f"  oracle speedup over the expert: {speedup:.2f}x")
    return "\n".join(lines)
