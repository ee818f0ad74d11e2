"""vLLM's tuned Triton configs for the H100, read the way vLLM reads them, and where they rank in the model.

vLLM ships autotuned configs for its fused-MoE Triton kernel as JSON files named `E=<experts>,N=<n>,device_name=...`
(data/vllm_moe_configs.csv keeps one of them, with its provenance). Read as vLLM's own code reads them (v0.33.0,
`vllm/model_executor/layers/fused_moe/fused_moe.py`):

- the file name's N is the per-expert intermediate size after tensor parallelism (`E, _, N = w2_shape`), so the layer
  runs two GEMMs with the same config: gate/up, M x hidden -> 2N, and down, M x N -> hidden;
- the entry used for M tokens is the one whose key is nearest to M (`min(configs, key=lambda x: abs(x - M))`; a tie
  goes to the smaller key, first in the file): there is no 8192 key, so 8192 tokens use the 9216 entry;
- there is no split-K (the kernel forces SPLIT_K = 1), and GROUP_SIZE_M only reorders blocks for L2 reuse, which the
  model ignores: a rank here is weak evidence either way.

With one expert (E = 1) and top-1 routing every token goes to that expert, so the two GEMMs are dense. The file name
does not give the hidden size: vLLM used E = 1 files for Jamba's dense MLP layers, and N = 3072 matches
Jamba-1.5-Large at tensor-parallel 8 (hidden size 8192, arXiv 2408.12570) — an inference, stated as such.
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

from toyhw import data
from toyhw.gemm import cost as gemm_cost
from toyhw.gemm.config import GemmConfig
from toyhw.gemm.report import bound_name
from toyhw.gemm.shapes import Shape
from toyhw.gemm.time_table import TimeTable
from toyhw.i18n import t
from toyhw.textwidth import column_width, display_width, pad

FILE_N = 3072
"""The file name's N: the per-expert intermediate size after tensor parallelism."""
HIDDEN = 8192
"""The hidden size (gate/up's K, down's N): Jamba-1.5-Large's, inferred (see the module docstring)."""
DEFAULT_MS: tuple[int, ...] = (1, 16, 64, 256, 512, 2048, 5120, 8192)
"""Token counts to check: decode, mid and prefill, including 8192 (no such key: vLLM uses the 9216 entry)."""


def tuned_configs() -> dict[int, GemmConfig]:
    """Return vLLM's configs by M key, in file order (GROUP_SIZE_M dropped: the model has no such field)."""
    return {
        int(r["m_key"]): GemmConfig(
            int(r["block_m"]), int(r["block_n"]), int(r["block_k"]), int(r["num_warps"]), int(r["num_stages"]), 1
        )
        for r in data.vllm_config_rows()
    }


def chosen_key(M: int, keys: Sequence[int]) -> int:
    """Return the key vLLM uses for M tokens: the nearest one, the first in file order on a tie."""
    if isinstance(M, bool) or not isinstance(M, int) or M < 1:
        raise ValueError(f"M = {M!r} is not allowed; M must be an integer >= 1")
    return min(keys, key=lambda k: abs(k - M))


def layer_gemms(M: int) -> dict[str, Shape]:
    """Return the two GEMMs the config serves at M tokens: gate/up (M x hidden -> 2N) and down (M x N -> hidden)."""
    return {"gate/up": Shape("vLLM gate/up", M, 2 * FILE_N, HIDDEN), "down": Shape("vLLM down", M, HIDDEN, FILE_N)}


@dataclasses.dataclass(frozen=True)
class VllmRank:
    """Where one of vLLM's tuned configs lands in the model's ordering, on one of the two GEMMs it serves.

    Attributes:
        M: the token count; key: the file's entry vLLM uses for it; gemm: "gate/up" or "down".
        shape: the GEMM.
        config: vLLM's config (the entry's tile, warps and stages).
        time_us: its modelled time, microseconds.
        oracle: the model's best config; oracle_us: its time, microseconds.
        rank: 1 + configs strictly faster in the model; n_launchable: the length of the ordering.
        bound: what bounds vLLM's config in the model.
    """

    M: int
    key: int
    gemm: str
    shape: Shape
    config: GemmConfig
    time_us: float
    oracle: GemmConfig
    oracle_us: float
    rank: int
    n_launchable: int
    bound: str

    @property
    def top_share(self) -> float:
        """Return rank / n_launchable: the share of the ordering at or above vLLM's config."""
        return self.rank / self.n_launchable

    @property
    def slowdown(self) -> float:
        """Return vLLM's config's time over the model's best."""
        return self.time_us / self.oracle_us


def vllm_ranks(table: TimeTable, ms: Sequence[int] = DEFAULT_MS) -> list[VllmRank]:
    """Return the model's verdict on the config vLLM picks at each M, on both GEMMs it serves."""
    configs = tuned_configs()
    out = []
    for M in ms:
        key = chosen_key(M, list(configs))
        config = configs[key]
        for gemm, shape in layer_gemms(M).items():
            best, t_best = table.oracle(shape)
            cost = gemm_cost.gemm_time(config, shape, table.gpu)
            out.append(
                VllmRank(
                    M,
                    key,
                    gemm,
                    shape,
                    config,
                    cost.time_us,
                    best,
                    t_best,
                    table.rank(config, shape),
                    int(table.launchable.sum()),
                    cost.bound,
                )
            )
    return out


def format_vllm(ranks: list[VllmRank]) -> str:
    """Return the vLLM comparison as a fixed-width text table (padded by display width: a CJK character takes two
    columns; M, GEMM names and configs are as they are)."""
    key_h, config_h, time_h, rank_h = (
        t("gemmview.vllm.key"),
        t("gemmview.vllm.config"),
        t("gemmview.vllm.model_us"),
        t("gemmview.vllm.rank"),
    )
    top_h, vs_h, bound_h = t("gemmview.vllm.top"), t("gemmview.vllm.vs_best"), t("gemmview.vllm.bound")
    key_w, time_w, rank_w = (max(least, display_width(h)) for least, h in ((4, key_h), (8, time_h), (11, rank_h)))
    top_w, vs_w, config_w = max(5, display_width(top_h)), max(7, display_width(vs_h)), column_width(20, [config_h])
    bounds = [bound_name(r.bound) for r in ranks]
    bound_w = column_width(8, [bound_h, *bounds])
    right = " ".join(pad(h, w, right=True) for h, w in ((rank_h, rank_w), (top_h, top_w), (vs_h, vs_w)))
    lines = [
        f"{'M':>4} {pad(key_h, key_w, right=True)} {'GEMM':<8}{pad(config_h, config_w)}"
        f"{pad(time_h, time_w, right=True)} {right} {pad(bound_h, bound_w)}{t('gemmview.vllm.best')}"
    ]
    for r, bound in zip(ranks, bounds):
        rank = f"{r.rank:>4} / {r.n_launchable:<4}"
        lines.append(
            f"{r.M:>4} {pad(r.key, key_w, right=True)} {r.gemm:<8}{pad(r.config.short(), config_w)}"
            f"{pad(f'{r.time_us:.1f}', time_w, right=True)} {pad(rank, rank_w, right=True)}"
            f" {pad(f'{r.top_share:.1%}', top_w, right=True)} {pad(f'{r.slowdown:.2f}x', vs_w, right=True)}"
            f" {pad(bound, bound_w)}{r.oracle.short()}"
        )
    return "\n".join(lines)


def vllm_notes(ranks: list[VllmRank], table: TimeTable, near: float = 1.05) -> list[str]:
    """Return one computed sentence per (M, GEMM): where vLLM's config ranks and, when far, the model's reason."""
    notes = []
    for r in ranks:
        head = (
            f"M={r.M} ({r.key} entry), {r.gemm}: vLLM's {r.config.short()} ranks {r.rank} of {r.n_launchable} "
            f"({r.slowdown:.2f}x the model's best)"
        )
        if r.slowdown <= near:
            notes.append(head + ": the model agrees it is (near) optimal")
            continue
        mine = gemm_cost.gemm_time(r.config, r.shape, table.gpu)
        best = gemm_cost.gemm_time(r.oracle, r.shape, table.gpu)
        notes.append(
            head + f": in the model it is {mine.bound}-bound with {mine.blocks} blocks for "
            f"{table.gpu.sms} SMs; the model prefers {r.oracle.short()} ({best.blocks} blocks"
            + (f", split-K {r.oracle.split_k}, which vLLM's kernel cannot do" if r.oracle.split_k > 1 else "")
            + f", {best.bound}-bound)"
        )
    return notes
