"""The widget panel of notebook 03: pick a GPU, a layer, M (log slider) and config fields; see the tile map and where
the time goes for the oracle, the expert and your config.

The figure is a view (toyhw.panels.live): the static figure and the live panel share its code. The tile map depends on
neither BLOCK_M nor BLOCK_N, so moving those only moves the red box there and re-plots the breakdown.
"""

from __future__ import annotations

import ipywidgets as widgets
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from toyhw.i18n import t
from toyhw.gemm import config as gemm_config, expert, shapes
from toyhw.gemm.config import GemmConfig
from toyhw.gemm.gpu import gpu_names
from toyhw.panels.common import connect, output_area
from toyhw.panels.common import redraw
from toyhw.panels.live import LiveFigure, Slot, new_figure, static_figure
from toyhw.panels.tile_map_in_place import update_tile_map
from toyhw.plots import gemm as gemm_plots
from toyhw.plots.style import YOURS
from toyhw.gemm.time_table import shared_table

PANEL_LAYERS = list(shapes.LAYERS) + list(shapes.NEW_LAYERS)


class ExplorerView:
    """The tile map with your tile boxed in red (left) and where the time goes for three configs (right)."""

    FIGSIZE, DPI = (11.0, 5.0), 96

    def __init__(self, live: bool) -> None:
        self.figure = new_figure(self.FIGSIZE, live, self.DPI)
        left, right = self.figure.subplots(1, 2, gridspec_kw={"width_ratios": [1.1, 1]})
        self.left, self.right = Slot(left), Slot(right)
        self.box: Rectangle | None = None

    def show(self, gpu: str, layer: str, M: int, config: GemmConfig) -> None:
        """Draw `config` on `layer` at M tokens on `gpu`."""
        table = shared_table(gpu)
        shape = shapes.layer_shape(layer, M)
        tile = (gpu, layer, M, config.block_k, config.num_warps, config.num_stages, config.split_k)
        fields = (config.block_k, config.num_warps, config.num_stages, config.split_k)
        self.left.plot(
            tile,
            lambda ax: gemm_plots.tile_map(table, shape, *fields, ax=ax),
            lambda ax: update_tile_map(ax, table, shape, *fields),
        )
        if self.box is None or self.box not in self.left.ax.patches:  # a new or re-plotted map: box it again
            self.box = self.left.ax.add_patch(Rectangle((0, 0), 1, 1, fill=False, edgecolor=YOURS, lw=2.5, zorder=4))
        i = gemm_config.FIELDS["block_m"].index(config.block_m)
        j = gemm_config.FIELDS["block_n"].index(config.block_n)
        self.box.set_xy((j - 0.5, i - 0.5))
        self.right.plot(
            (gpu, layer, M, config),
            lambda ax: gemm_plots.breakdown_bars(
                table,
                shape,
                {"oracle": table.oracle(shape)[0], "expert": expert.expert_config(shape), "yours (red box)": config},
                ax=ax,
            ),
        )


def explorer_figure(gpu: str, layer: str, M: int, config: GemmConfig) -> Figure:
    """Return the tile map for `config`'s BK, warps, stages and split-K (left) and the time breakdown (right)."""
    return static_figure(ExplorerView(live=False), lambda view: view.show(gpu, layer, M, config))


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
    out = output_area("545px")
    live = LiveFigure(ExplorerView)

    def update() -> None:
        chosen = GemmConfig(**{name: box.value for name, box in fields.items()})
        redraw(
            out,
            lambda: live.output(
                lambda view: view.show(gpu_box.value, layer_box.value, max(1, round(m_slider.value)), chosen)
            ),
        )

    connect([gpu_box, layer_box, m_slider, *fields.values()], update)
    update()
    boxes = list(fields.values())
    return widgets.VBox(
        [widgets.HBox([gpu_box, layer_box, m_slider]), widgets.HBox(boxes[:3]), widgets.HBox(boxes[3:]), out]
    )
