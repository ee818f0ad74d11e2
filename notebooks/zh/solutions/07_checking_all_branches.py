"""笔记本 07 练习的参考答案（07_checking_all_branches.ipynb）：每个练习先自己做，再来对照。

每个练习一节；每一节替换该练习的待填单元格，定义同样的名字，并导入它用到的东西，所以每一节都能单独运行。
之后笔记本里的检查单元格（`checks.exercise_K(...)`）会显示 ✓。
"""
# 每一节都导入自己用到的东西，这样它能单独运行：写在文件中间、重复出现的 import 是有意的。
# ruff: noqa: E402, F811

# %% Exercise 1
# 起点启发式里 256x256 的分支不能启动（每个线程要 296 个寄存器，换哪个 warp 数都不行）：这里把它删掉了，
# 预填充（prefill）仍然用 128x256。新加的思路是 kernel 工程师一眼就会写下来的：70B/8 qkv 这一层的输出分块很少
# （N = 1280），所以每个 M 区间都给 N <= 2048 加一条沿 K 切分（split-K）的规则，把 SM 占满。它的分数，以及和搜索出的
# 最好程序相比如何，见笔记本里这个练习的答案。
my_source = """
def choose(M, N, K):
    if M <= 16 and N <= 2048:
        return Config(block_m=16, block_n=64, block_k=256, num_warps=4, num_stages=5, split_k=4)
    if M <= 16:
        return Config(block_m=16, block_n=64, block_k=256, num_warps=4, num_stages=5, split_k=1)
    if M <= 128 and N <= 2048:
        return Config(block_m=64, block_n=64, block_k=128, num_warps=4, num_stages=5, split_k=4)
    if M <= 128:
        return Config(block_m=64, block_n=64, block_k=128, num_warps=4, num_stages=4, split_k=1)
    if M <= 512 and N <= 2048:
        return Config(block_m=128, block_n=128, block_k=64, num_warps=8, num_stages=4, split_k=4)
    if M <= 512:
        return Config(block_m=128, block_n=128, block_k=64, num_warps=8, num_stages=4, split_k=1)
    if N <= 2048:
        return Config(block_m=128, block_n=128, block_k=64, num_warps=8, num_stages=4, split_k=2)
    return Config(block_m=128, block_n=256, block_k=64, num_warps=8, num_stages=3, split_k=1)
"""

# %% Exercise 2
from toyhw.evolve.evaluator import Evaluator
from toyhw.evolve.experiments import ablations
from toyhw.evolve.programs import Program, Rule, expert_program
from toyhw.gemm.config import GemmConfig


def bad_branch_on_a_training_shape(m_min: int = 2000, m_max: int = 4000) -> dict[str, tuple[str, int]]:
    """对每种评估器设置，返回"专家 + 一个管 m_min <= M <= m_max 的不合法分支"这个程序的 (status, 跑内核次数)。

    这个分支返回第 1 节那个 5 级流水线的 128x256x64 配置（共享内存太多）；用默认区间时，它覆盖了 M = 2048 的训练形状，
    所以一运行程序就能发现问题："crash"。
    """
    expert = expert_program()
    program = Program(
        (Rule(GemmConfig(128, 256, 64, 8, 5, 1), m_min=m_min, m_max=m_max),) + expert.rules, expert.default
    )
    ctx = ablations.context()
    out = {}
    for label, check, cascade in (
        ("no check, cascade", False, True),
        ("no check, no cascade", False, False),
        ("check", True, True),
    ):
        result = Evaluator(ctx.train, ctx.table, check_all_branches=check, cascade=cascade).evaluate(program)
        out[label] = (result.status, result.runs)
    return out


# %% Exercise 3
import collections
from typing import Sequence

from toyhw.evolve.evaluator import Evaluator
from toyhw.evolve.experiments import ablations, branch_check
from toyhw.evolve.loop import evolve
from toyhw.gemm import shapes as shapes_lib


def new_shape_crashes(
    seeds: Sequence[int] = ablations.SEEDS,
    budget: int = ablations.BUDGET,
    new_layers: Sequence[str] = shapes_lib.NEW_LAYERS,
) -> dict[str, object]:
    """返回最终数据库里的程序（不做分支检查的运行）在演示 3 那类新形状上是怎样失败的。

    新形状是讲义的层和 `new_layers`，每层取演示 3 的十个新 token 数。键："crashing"（在某个新形状上失败的程序数），
    "only on the new layers"（其中失败的形状全都属于 `new_layers` 的程序数），"per layer"（层 -> 在这一层上失败的
    崩溃程序数）。
    """
    ctx = ablations.context()
    names = list(shapes_lib.LAYERS) + list(new_layers)
    shapes = [shapes_lib.layer_shape(name, m) for name in names for m in shapes_lib.NEW_M]
    crashing, only_new, per_layer = 0, 0, collections.Counter()
    for seed in seeds:
        out = evolve(Evaluator(ctx.train, ctx.table, check_all_branches=False), budget, seed=seed)
        for program in out.db.programs():
            layers = {crash.shape.name for crash in branch_check.crashes(program, shapes)}
            if layers:
                crashing += 1
                only_new += layers <= set(new_layers)
                per_layer.update(layers)
    return {"crashing": crashing, "only on the new layers": only_new, "per layer": dict(per_layer)}


# %% Exercise 4
from typing import Sequence

from toyhw.evolve.programs import Program, branch_line, firing_rule
from toyhw.gemm.shapes import Shape


def untested_branches(program: Program, shapes: Sequence[Shape]) -> list[int]:
    """返回 `shapes` 里没有任何形状走到的那些分支在 `render(program)` 里的源码行号。

    没有训练形状走到的分支，评估器从来不会运行它：关于它，只有静态检查说得出点什么。
    默认的 `return` 也算一个分支（分支编号是 len(program.rules)）。
    """
    reached = {firing_rule(program, s.M, s.N, s.K) for s in shapes}
    return [branch_line(program, i) for i in range(len(program.rules) + 1) if i not in reached]
