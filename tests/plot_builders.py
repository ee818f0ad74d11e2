"""Real inputs for every public plot function and every panel figure, as the notebooks build them (smaller where the
notebooks' runs would take long). Shared by tests/test_plot_contract.py and by whoever wants to look at the figures:

    python tests/plot_builders.py /tmp/plots    # writes one PNG per plot function and panel figure

A new plot function needs an entry in BUILDERS: test_plot_contract fails, naming it, until it has one.
"""

from __future__ import annotations

import functools
import pathlib
import sys
from typing import Callable

from matplotlib.figure import Figure

from toyhw.evolve.experiments import ablations, branch_check, targeting
from toyhw.course import loop_tables, proposal_trace, prompt_view, scaling
from toyhw.evolve import variants
from toyhw.gemm import expert, gpu, shapes, validate
from toyhw.gemm.config import GemmConfig
from toyhw.gemm.time_table import shared_table
from toyhw.kernels import knobs, study
from toyhw.kernels.proposers import PROPOSERS
from toyhw.panels import fastp as fastp_panels
from toyhw.plots import evolution as evolution_plots, fastp as fastp_plots, gemm as gemm_plots
from toyhw.plots import lineage as lineage_plots, scaling as scaling_plots, validation as validation_plots

MODES = list(PROPOSERS.available())
P_GRID = fastp_panels.P_GRID
NB04_SHOWN = ["full", "fb_roofline", "no_feedback", "small_llm", "no_evolution"]
NB06_SHOWN = ["full", "fb_roofline", "no_feedback", "fb_worst3"]


def my_proposer(feedback, config, rng):
    """Notebook 02's student proposer: start over after a failure, else change one random knob."""
    if not feedback.ok:
        return knobs.KernelConfig()
    return knobs.mutate(config, rng)


@functools.lru_cache(maxsize=None)
def report() -> study.OneShotReport:
    return study.one_shot(study.LECTURE_TASK_SEED, study.LECTURE_N_TASKS)


@functools.lru_cache(maxsize=None)
def small_study() -> ablations.AblationStudy:
    """Every variant x seeds 0-1 x 200 programs: the ablation plot's inputs in a second."""
    return ablations.ablation_study(variants.available(), seeds=(0, 1), budget=200)


@functools.lru_cache(maxsize=None)
def table():
    return shared_table("H100")


def _decode() -> shapes.Shape:
    return shapes.layer_shape("70B/8 qkv", 16)


def _candidates() -> dict[str, GemmConfig]:
    shape = _decode()
    return {
        "oracle": table().oracle(shape)[0],
        "expert": expert.expert_config(shape),
        "narrow tile": GemmConfig(32, 16, 256, num_warps=2, num_stages=5),
        "split-K, shallow": GemmConfig(16, 64, 64, num_warps=4, num_stages=2, split_k=4),
    }


def _cost_points(kind: str) -> list[scaling.CostPoint]:
    if kind == "variants":
        return scaling.variant_costs(variants.LECTURE_VARIANTS[:4], seeds=[0], budget=20)
    return scaling.seed_costs([1, 2, 3], ["full"], budget=20)


BUILDERS: dict[str, Callable[[], object]] = {
    "outcome_breakdown": lambda: fastp_plots.outcome_breakdown(report()),
    "fastp_vs_p": lambda: fastp_plots.fastp_vs_p({"one-shot": report().speedups()}, P_GRID, mark_p=1.0),
    "fastp_vs_rounds": lambda: fastp_plots.fastp_vs_rounds(
        study.fastp_curves(MODES, p=1.5, max_rounds=20), 1.5, ceiling=0.49
    ),
    "score_vs_programs": lambda: evolution_plots.score_vs_programs(small_study(), NB04_SHOWN),
    "lineage": lambda: lineage_plots.lineage(ablations.run_one("full", 0, 1000).lineage, 1000),
    "feedback_bars": lambda: evolution_plots.feedback_bars(targeting.targeting(0, 300).rows),
    "target_weights": lambda: evolution_plots.target_weights(targeting.targeting(0, 300).rows),
    "branch_counts": lambda: evolution_plots.branch_counts(
        *(branch_check.branches(seeds=(0, 1), budget=300)[k] for k in ("checked", "unchecked"))
    ),
    "branch_compare": lambda: evolution_plots.branch_compare(
        branch_check.branch_row(0, 1000, False), branch_check.branch_row(0, 1000, True)
    ),
    "cascade_stage1": lambda: evolution_plots.cascade_stage1(proposal_trace.trace("full", 0, 1000).steps),
    "prompt_parts": lambda: evolution_plots.prompt_parts(
        loop_tables.prompt_frame(
            [prompt_view.prompt_at(v, 0, 100) for v in ["full", "fb_roofline", "no_feedback", "small_llm"]]
        )
    ),
    "roofline_chart": lambda: gemm_plots.roofline_chart(table(), shapes.all_shapes()),
    "tile_map": lambda: gemm_plots.tile_map(
        table(), shapes.layer_shape("8B gate_up", 2048), block_k=64, num_warps=8, num_stages=4, split_k=1
    ),
    "wave_plot": lambda: gemm_plots.wave_plot(
        table(), GemmConfig(128, 128, 64, num_warps=8, num_stages=4), M=512, K=8192
    ),
    "padding_plot": lambda: gemm_plots.padding_plot([1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256]),
    "best_config_map": lambda: gemm_plots.best_config_map(
        table(), list(shapes.LAYERS), shapes.LECTURE_M, shapes.layer_shape
    ),
    "breakdown_bars": lambda: gemm_plots.breakdown_bars(table(), _decode(), _candidates()),
    "launchability_bars": lambda: gemm_plots.launchability_bars([gpu.get_gpu(n) for n in gpu.gpu_names()]),
    "bandwidth_plot": lambda: gemm_plots.bandwidth_plot(table(), _decode()),
    "wave_schedules_plot": lambda: gemm_plots.wave_schedules_plot(
        table(), GemmConfig(128, 128, 64, num_warps=8, num_stages=4), M=512, K=8192
    ),
    "validation_scatter": lambda: validation_plots.validation_scatter(validate.checks()),
    "cost_plot": lambda: scaling_plots.cost_plot(_cost_points("seeds"), "seeds", "full x n seeds x 20 programs"),
}
"""Plot function name -> a call that draws it from real inputs and returns its Axes."""

MORE: dict[str, Callable[[], object]] = {
    "cost_plot, variants": lambda: scaling_plots.cost_plot(
        _cost_points("variants"), "variants (in the lecture script's order)", "k variants x 1 seed x 20 programs"
    ),
    "score_vs_programs, notebook 06": lambda: evolution_plots.score_vs_programs(small_study(), NB06_SHOWN),
    "score_vs_programs, reversed": lambda: evolution_plots.score_vs_programs(small_study(), NB04_SHOWN[::-1]),
    "score_vs_programs, one seed": lambda: evolution_plots.score_vs_programs(
        small_study(), ["no_feedback"], budget=50, n_seeds=1
    ),
    "fastp_vs_rounds, reversed": lambda: fastp_plots.fastp_vs_rounds(
        study.fastp_curves(MODES[::-1], p=1.0, max_rounds=5), 1.0
    ),
    "fastp_vs_p, modes": lambda: fastp_plots.fastp_vs_p(
        {"suggest": [0.5, 1.2, 2.0], "resample": [0.9, 1.1, 1.3], "my_proposer": [1.0, 1.5, 0.0]}, P_GRID
    ),
}
"""Other inputs of the same functions: other subsets and orders of variants and modes, a labelled x axis."""


def figure_of(built: object) -> Figure:
    """Return the Figure of what a builder returned (an Axes or a Figure)."""
    return built if isinstance(built, Figure) else built.figure


if __name__ == "__main__":
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/plots")
    out.mkdir(parents=True, exist_ok=True)
    only = sys.argv[2:]
    for name, build in {**BUILDERS, **MORE}.items():
        if only and not any(o in name for o in only):
            continue
        fig = figure_of(build())
        fig.savefig(out / (name.replace(", ", "_").replace(" ", "_").replace(".", "_") + ".png"))
        plt.close(fig)
        print(name)
