"""笔记本 03（GEMM 成本模型）练习的参考答案：请先自己做每一道练习，再来对照。

每个 `# %% Exercise K` 小节替换练习 K 的起点单元格，定义同样的名字；每个小节自己导入要用的东西，可以单独运行（所以导入
会出现在代码之后，这个文件关掉了 ruff 的 E402）。tests/gemm/test_solutions.py 和 tests/claims/nb03.py 检查笔记本对每个
结果的说法。
"""
# ruff: noqa: E402

# %% Exercise 1
from typing import Callable

from toyhw.gemm import expert, report
from toyhw.gemm.config import GemmConfig
from toyhw.gemm.shapes import Shape
from toyhw.gemm.time_table import TimeTable


def choose(M: int, N: int, K: int) -> GemmConfig:
    """按 M 分四个区间各给一个配置；层是窄层（N <= 2048）时，把 K 切成 4 份。

    窄层上的 split-K 解决了想一想 7 的第一组（70B/8 qkv 的块太少，喂不满 SM）；M = 256 和 512 时用 128x128 分块、
    8 个 warp，解决了第二组的大部分（M 刚过专家的 128 阈值，它的 128x256 分块给出的块太少）。用第 14 讲的规则语言来说，
    这是七条规则：带窄层判断的三个区间各占两条，再加默认的一条。
    """
    split = 4 if N <= 2048 else 1
    if M <= 16:
        return GemmConfig(16, 64, 256, num_warps=4, num_stages=5, split_k=split)
    if M <= 128:
        return GemmConfig(64, 64, 128, num_warps=4, num_stages=5, split_k=split)
    if M <= 512:
        return GemmConfig(128, 128, 64, num_warps=8, num_stages=4, split_k=split)
    return GemmConfig(256, 128, 32, num_warps=8, num_stages=4, split_k=1)


def speedup_over_expert(
    heuristic: Callable[[int, int, int], GemmConfig], shape_list: list[Shape], table: TimeTable
) -> float:
    """返回 `heuristic` 在 `shape_list` 上相对专家的几何平均加速比（第 14 讲的分数）。"""
    return report.geomean(
        [table.time(expert.expert_config(s), s) / table.time(heuristic(s.M, s.N, s.K), s) for s in shape_list]
    )


# %% Exercise 2
import numpy as np

from toyhw.gemm import shapes
from toyhw.gemm.time_table import shared_table


def oracle_block_m(gpu_name: str, layer: str = "8B gate_up", ms: tuple[int, ...] = (16, 24, 48, 64)) -> dict[int, int]:
    """返回 GPU `gpu_name` 上、`layer` 在 `ms` 的每个 M 处上限配置的 BLOCK_M。

    在 H100 上，M = 24 时上限配置从 16 行一下跳到 64 行（宁可补齐，也不用 32 行的分块）；在 A100 上它跟着 M 走。
    缺掉的效应是 wgmma：不到 64 行时，Hopper 的张量核心退回到更慢的 MMA，而 A100 没有这一层。
    """
    table = shared_table(gpu_name)
    return {m: table.oracle(shapes.layer_shape(layer, m))[0].block_m for m in ms}


def small_tile_penalty(gpu_name: str, layer: str = "8B gate_up", M: int = 48) -> float:
    """返回 BLOCK_M < 64 的最好时间与上限配置时间之比（小分块本身就是上限配置时为 1.0）。"""
    table = shared_table(gpu_name)
    shape = shapes.layer_shape(layer, M)
    small = np.array([c.block_m < 64 for c in table.configs])
    return float(table.row(shape)[small].min()) / table.oracle(shape)[1]


# %% Exercise 3
import dataclasses

from toyhw.gemm import gpu, vllm
from toyhw.gemm.time_table import TimeTable


def vllm_ranks_at(load_latency_s: float) -> list[vllm.VllmRank]:
    """返回模型在一块负载下访存延迟为 `load_latency_s` 的 H100 上给 vLLM 各配置排的名次。

    这里新建一个 TimeTable，而不用 `shared_table`：共享的那张表缓存的是按拟合延迟算出的行。
    """
    h100 = dataclasses.replace(gpu.get_gpu("H100"), load_latency_s=load_latency_s)
    return vllm.vllm_ranks(TimeTable(h100))


# %% Exercise 4
import math
from typing import Callable

from toyhw.gemm import validate


def error_without_timing(found: list[validate.Check]) -> dict[str, tuple[float, float]]:
    """按计时方式（再加上 "all"）返回：（模型预测的几何平均误差，只用 kernel 时间的误差）。

    只用 kernel 时间，就是模型不管每个基准是怎么测的时给出的值（`Check.kernel_us`）。误差是第 8 节的定义：
    max(模型 / 实测, 实测 / 模型) 的几何平均，再减一。
    """
    groups: dict[str, list[validate.Check]] = {"all": list(found)}
    for c in found:
        groups.setdefault(c.measurement.timing, []).append(c)

    def error(members: list[validate.Check], us: Callable[[validate.Check], float]) -> float:
        logs = [abs(math.log(us(c) / c.measurement.measured_us)) for c in members]
        return math.exp(sum(logs) / len(logs)) - 1.0

    return {
        name: (error(members, lambda c: c.model_us), error(members, lambda c: c.kernel_us))
        for name, members in groups.items()
    }
