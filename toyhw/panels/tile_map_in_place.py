"""Notebook 03's tile map updated in place when the GPU, layer, M or a field other than the tile moved.

Why: drawing the map anew redraws the image, 25 cell texts, the unlaunchable cells' shades, a colorbar (which takes
its room from the Axes and has to be removed and made again), the ticks and a legend. Only the image's values, the texts, the shades and the title change: the same cells
from `toyhw.plots.gemm.tile_cells` as the plot function draws, set on the artists it made (tests/test_panels_live.py
compares the pixels with a new figure).
"""

from __future__ import annotations

from matplotlib.axes import Axes

from toyhw.gemm.shapes import Shape
from toyhw.gemm.time_table import TimeTable
from toyhw.plots import gemm as gemm_plots


def update_tile_map(
    ax: Axes, table: TimeTable, shape: Shape, block_k: int, num_warps: int, num_stages: int, split_k: int
) -> bool:
    """Show the tile map of these fields on the Axes `gemm_plots.tile_map` drew; return False, changing nothing, when
    `ax` does not hold one image and one text per cell (the caller then re-plots)."""
    speed, cells = gemm_plots.tile_cells(table, shape, block_k, num_warps, num_stages, split_k)
    if len(ax.images) != 1 or len(ax.texts) != len(cells):
        return False
    ax.images[0].set_data(speed)
    for patch in [p for p in ax.patches if p.get_gid() == gemm_plots.TILE_CELL]:
        patch.remove()
    for text, cell in zip(ax.texts, cells):
        text.set_text(cell.text)
        text.set_color(cell.color)
        text.set_fontsize(cell.fontsize)
        text.set_fontweight(cell.weight)
        if cell.shade is not None:
            ax.add_patch(gemm_plots.tile_cell_shade(cell.i, cell.j, cell.shade))
    ax.set_title(gemm_plots.tile_map_title(shape, block_k, num_warps, num_stages, split_k), fontsize="medium")
    return True
