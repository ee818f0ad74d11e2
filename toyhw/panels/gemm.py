"""The widget panel of notebook 03: pick a GPU, a layer, M (log slider) and config fields; see the tile map and where
the time goes for the oracle, the expert and your config.

The figure is a chart description (toyhw.charts): the static figure is the SVG of the panel's starting state and the
page draws every other state. A state's numbers are the time table's (toyhw.gemm.time_table, computed once per GPU);
a description, made on a state's first visit, is kept for the next.
"""

from __future__ import annotations

import math

import ipywidgets as widgets
import matplotlib

from toyhw.charts import figure as cf
from toyhw.charts.widget import Chart
from toyhw.gemm import config as gemm_config, cost as gemm_cost, expert, report, shapes
from toyhw.gemm.config import GemmConfig
from toyhw.gemm.gpu import gpu_names
from toyhw.gemm.time_table import TimeTable, shared_table
from toyhw.i18n import N_, t
from toyhw.panels.common import ChartPanel, connect
from toyhw.plots import style
from toyhw.plots.gemm import REASON_HATCH, tile_cells
from toyhw.plots.style import YOURS

PANEL_LAYERS = list(shapes.LAYERS) + list(shapes.NEW_LAYERS)
SPEED_COLORS = [matplotlib.colors.to_hex(matplotlib.colormaps["viridis"](k / 63)) for k in range(64)]
"""viridis in 64 steps: a tile's colour is its speed (oracle time / time, 0 to 1), as the notebook's tile maps."""
TIME_PARTS = {
    "launch": N_("chart.part.launch"),
    "fill+drain": N_("chart.part.fill+drain"),
    "main": N_("chart.part.main"),
    "split-K reduce": N_("chart.part.split-K reduce"),
}
"""The terms of a config's time, in the order the breakdown stacks them -> their label's id."""
CONFIG_NAMES = {"oracle": N_("chart.oracle"), "expert": N_("chart.expert"), "yours": N_("chart.yours")}
"""The configs the breakdown shows side by side -> their label's id."""


def speed_color(speed: float) -> str:
    """Return the colour of a speed from 0 (slow) to 1 (as fast as the oracle)."""
    return SPEED_COLORS[min(63, max(0, round(speed * 63)))]


def tile_plot(table: TimeTable, shape: shapes.Shape, config: GemmConfig) -> list[cf.Plot]:
    """Return the tile map for `config`'s BK, warps, stages and split-K (your tile boxed in red) and its colour
    scale."""
    fields = (config.block_k, config.num_warps, config.num_stages, config.split_k)
    speed, cells = tile_cells(table, shape, *fields)
    bms, bns = gemm_config.FIELDS["block_m"], gemm_config.FIELDS["block_n"]
    marks = []
    for cell in cells:
        fill = cell.shade if cell.shade is not None else speed_color(speed[cell.i, cell.j])
        marks.append(cf.rect(cell.j - 0.5, cell.j + 0.5, cell.i - 0.5, cell.i + 0.5, fill=fill))
        marks.append(
            cf.text(
                cell.j,
                cell.i,
                cell.text,
                "middle",
                size=cell.fontsize + 2,
                color=style.NEUTRALS[cell.color],  # "white" or "black", as the notebook's tile maps letter them
                bold=cell.weight == "bold",
            )
        )
    i, j = bms.index(config.block_m), bns.index(config.block_n)
    marks.append(cf.rect(j - 0.5, j + 0.5, i - 0.5, i + 0.5, stroke=YOURS, width=3))
    legend = [
        cf.LegendItem(t("chart.cannot_launch", letter=letter, kind=report.problem_kind_name(kind)), shade, box=True)
        for kind, (letter, shade) in REASON_HATCH.items()
    ] + [cf.LegendItem(t("chart.yours_box"), YOURS)]
    tiles = cf.Plot(
        t(
            "chart.tile_title",
            shape=shape.label(),
            block_k=fields[0],
            warps=fields[1],
            stages=fields[2],
            split_k=fields[3],
        ),
        cf.axis((-0.5, len(bns) - 0.5), [(k, str(b)) for k, b in enumerate(bns)], t("chart.block_n")),
        cf.axis((-0.5, len(bms) - 0.5), [(k, str(b)) for k, b in enumerate(bms)], t("chart.block_m")),
        marks,
        legend,
        legend_columns=2,
    )
    steps = [cf.rect(0, 1, k / 20, (k + 1) / 20, fill=speed_color((k + 0.5) / 20)) for k in range(20)]
    scale = cf.Plot(
        "",
        cf.axis((0, 1), []),
        cf.axis((0, 1), []),
        steps,
        y2=cf.axis((0, 1), cf.nice_ticks(0, 1, 6), t("chart.speed_scale")),
    )
    return [tiles, scale]


def breakdown_plot(table: TimeTable, shape: shapes.Shape, configs: dict[str, GemmConfig]) -> cf.Plot:
    """Return the time terms of a few configs side by side (fixed costs, the main term, reduction) and the roofline."""
    marks, longest = [], 0.0
    roofline = table.roofline(shape)
    notes = []
    for y, name in enumerate(configs):
        cost = gemm_cost.gemm_time(configs[name], shape, table.gpu)
        if not math.isfinite(cost.time_us):
            notes.append(cf.text(0, y, report.cannot_launch(configs[name], table.gpu), dx=6))
            continue
        left = 0.0
        parts = (cost.launch_us, cost.fill_us, cost.time_us - cost.fixed_us, cost.reduction_us)
        for part, value in zip(TIME_PARTS, parts):
            marks.append(cf.rect(left, left + value, y - 0.3, y + 0.3, fill=style.TIME_PART_COLORS[part]))
            left += value
        longest = max(longest, left)
        notes.append(
            cf.text(
                left,
                y,
                t("chart.bar_note", time=cost.time_us, blocks=cost.blocks, bound=report.bound_name(cost.bound)),
                dx=6,
            )
        )
    top = 1.7 * max(longest, roofline)
    marks.append(cf.rule(roofline, style.ROOFLINE, across="x", dash="5 4"))
    legend = [cf.LegendItem(t(TIME_PARTS[part]), style.TIME_PART_COLORS[part], box=True) for part in TIME_PARTS]
    legend.append(cf.LegendItem(t("chart.roofline"), style.ROOFLINE, dash="5 4"))
    names = [f"{t(CONFIG_NAMES[name])}\n{configs[name].short()}" for name in configs]
    return cf.Plot(
        t("chart.breakdown_title", shape=shape.label(), gpu=table.gpu.name),
        cf.axis((0, top), cf.nice_ticks(0, top, 6), t("chart.time_us")),
        cf.categories(names, t("chart.config")),
        marks + notes,
        legend,
        legend_columns=3,
    )


def explorer_spec(gpu: str, layer: str, M: int, config: GemmConfig) -> dict:
    """Return the explorer's description: `config` on `layer` at M tokens on `gpu`."""
    table = shared_table(gpu)
    shape = shapes.layer_shape(layer, M)
    configs = {"oracle": table.oracle(shape)[0], "expert": expert.expert_config(shape), "yours": config}
    tiles, scale = tile_plot(table, shape, config)
    return cf.figure(
        [tiles, scale, breakdown_plot(table, shape, configs)], width=1040, height=520, ratios=(1.0, 0.16, 1.1)
    )


def explorer_figure(gpu: str, layer: str, M: int, config: GemmConfig) -> Chart:
    """Return the tile map for `config`'s BK, warps, stages and split-K (left) and the time breakdown (right)."""
    return Chart(explorer_spec(gpu, layer, M, config))


def _choice(field: str, value: int, description: str) -> widgets.Dropdown:
    return widgets.Dropdown(
        options=list(gemm_config.FIELDS[field]),
        value=value,
        description=description,
        layout=widgets.Layout(width="170px"),
    )


def gemm_panel(
    gpu: str = "H100", layer: str = "70B/8 qkv", M: int = 16, config: GemmConfig = GemmConfig(16, 64, 128, 4, 3, 1)
) -> widgets.Widget:
    """Return the explorer: GPU, layer, M on a log slider and the six config fields above the figure."""
    gpu_box = widgets.Dropdown(options=gpu_names(), value=gpu, description="GPU", layout=widgets.Layout(width="170px"))
    layer_box = widgets.Dropdown(
        options=PANEL_LAYERS, value=layer, description=t("panel.layer"), layout=widgets.Layout(width="230px")
    )
    m_slider = widgets.FloatLogSlider(
        value=M,
        base=2,
        min=0,
        max=14,
        step=0.25,
        description=t("panel.m_tokens"),
        readout_format=".0f",
        continuous_update=False,
    )
    fields = {
        "block_m": _choice("block_m", config.block_m, "BLOCK_M"),
        "block_n": _choice("block_n", config.block_n, "BLOCK_N"),
        "block_k": _choice("block_k", config.block_k, "BLOCK_K"),
        "num_warps": _choice("num_warps", config.num_warps, t("panel.warps")),
        "num_stages": _choice("num_stages", config.num_stages, t("panel.stages")),
        "split_k": _choice("split_k", config.split_k, "split_k"),
    }
    for name in gpu_names():  # every GPU's time table (some 10 ms each), so that switching the GPU is a lookup too
        shared_table(name)
    panel = ChartPanel(explorer_spec)

    def update() -> None:
        chosen = GemmConfig(**{name: box.value for name, box in fields.items()})
        panel.show((gpu_box.value, layer_box.value, max(1, round(m_slider.value)), chosen))

    connect([gpu_box, layer_box, m_slider, *fields.values()], update)
    update()
    boxes = list(fields.values())
    return widgets.VBox(
        [
            widgets.HBox([gpu_box, layer_box, m_slider]),
            widgets.HBox(boxes[:3]),
            widgets.HBox(boxes[3:]),
            *panel.widgets(),
        ]
    )
