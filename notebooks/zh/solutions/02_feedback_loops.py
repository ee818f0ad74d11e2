"""笔记本 02（反馈循环）练习的参考答案：请先自己做每一道练习，再来对照。

每个 `# %% Exercise K` 小节替换对应练习的起点单元格，定义同样的名字，所以它后面的检查单元格能通过；每个小节自己导入
要用的东西，可以单独运行。CI 会让每个小节过一遍它的检查（tests/test_exercises.py），tests/claims/nb02.py 则用这些函数
重新算出笔记本里引用的数字。
"""
# 每个小节自己导入要用的东西（它必须能单独运行），所以导入会重复，也会出现在代码之后：
# ruff: noqa: E402, F811

# %% Exercise 1
import random

from toyhw.kernels import knobs, proposers
from toyhw.kernels.knobs import KernelConfig, RunFeedback


def directed_proposer(feedback: RunFeedback, config: KernelConfig, rng: random.Random) -> KernelConfig:
    """失败时返回修复；否则（80% 的时候）朝瓶颈指的方向迈一步；再否则随便改一个旋钮。

    和 `suggest` 不同，它让每个旋钮朝有帮助的方向走（访存密集时打开融合、共享内存或换更宽的向量；计算密集时把 tile
    往 16/32 挪，或者多展开一些），并且保留 20% 不定向的步子，这样建议永远不会变成命令。针对失败原因修复（而不是
    从默认 kernel 重新开始），能保住失败 kernel 里那些好的选择。
    """
    if not feedback.ok:
        return proposers.fix_failure(feedback, config, rng)
    if feedback.bottleneck == "memory":
        moves = [{"fuse": 1}] if not config.fuse else []
        moves += [{"shared": 1}] if not config.shared and config.tile < 64 else []
        moves += [{"vec": config.vec * 2}] if config.vec < 4 else []
    else:
        moves = [{"tile": t} for t in (16, 32) if t != config.tile]
        moves += [{"unroll": config.unroll * 2}] if config.unroll < 4 and config.tile != 64 else []
    if moves and rng.random() < 0.8:
        return config.replace(**rng.choice(moves))
    return knobs.mutate(config, rng)


# 练习的检查读的是这个名字；在笔记本里，`your_proposers["my_proposer"] = my_proposer`
# 再把它放进第 5 节面板的比赛。
my_proposer = directed_proposer


# %% Exercise 2
import random
from collections.abc import Sequence

from toyhw import metrics
from toyhw.kernels import knobs, optimize, proposers, study
from toyhw.kernels.knobs import KernelConfig, RunFeedback
from toyhw.kernels.optimize import Proposer


def adviser(q: float) -> Proposer:
    """返回顾问版的 `suggest`：成功之后以概率 q 跟着瓶颈走，否则随便改一个旋钮。

    q = 0 正是 `explain`，q = 1 正是 `suggest`（两端不多抽随机数，所以随机数流对得上）。
    """

    def follow_with_probability_q(feedback: RunFeedback, config: KernelConfig, rng: random.Random) -> KernelConfig:
        if not feedback.ok:
            return proposers.fix_failure(feedback, config, rng)
        if q >= 1 or (q > 0 and rng.random() < q):
            return proposers.suggest(feedback, config, rng)
        return knobs.mutate(config, rng)

    return follow_with_probability_q


def advice_sweep(
    qs: Sequence[float] = (0.0, 0.25, 0.5, 0.75, 1.0),
    rounds: int = 50,
    p: float = 1.5,
    task_seed: int = study.LECTURE_TASK_SEED,
    n_tasks: int = study.LECTURE_N_TASKS,
) -> dict[float, float]:
    """对每个 q，返回 `adviser(q)` 跑 `rounds` 轮后的 fast_p（用讲义的任务和随机数流）。

    q 小于 1 时都和 `explain` 很接近：留一点不听建议的自由，就能跳出想一想 3 里的陷阱。
    用 matplotlib 画图：`sweep = advice_sweep(); plt.plot(list(sweep), list(sweep.values()))`。
    """
    tasks = list(study.tasks(task_seed, n_tasks))
    return {q: metrics.fast_p(optimize.speedups_after(tasks, rounds, adviser(q)), p) for q in qs}


# %% Exercise 3
import random

from toyhw.kernels import proposers
from toyhw.kernels.knobs import KernelConfig, RunFeedback


def vec_one_proposer(feedback: RunFeedback, config: KernelConfig, rng: random.Random) -> KernelConfig:
    """返回 `explain` 的下一个配置，只是向量化宽度错误改用 vec = 1 修复（vec = 1 总是合法的）。

    只有 n = 1002 能区分两种修复（宽度 2 能整除它，4 不能）；其他规模下最宽的合法宽度要么是 4 要么是 1。后面只改一个
    旋钮的改动反正会找到更宽的宽度，所以到 50 轮时差别就消失了。
    """
    if feedback.cause == "vector_width_indivisible":
        return config.replace(vec=1)
    return proposers.explain(feedback, config, rng)


# %% Exercise 4
import numpy as np
import pandas as pd

from toyhw.kernels import knobs, study


def ceiling_by_trait(
    p: float = 1.5, task_seed: int = study.LECTURE_TASK_SEED, n_tasks: int = study.LECTURE_N_TASKS
) -> pd.DataFrame:
    """按 (能否融合, 最宽的合法向量化宽度) 分组，返回每组里有多少任务能被某种配置加速到 p 倍以上。

    同时给出能过 p 的任务里访存密集的程度最小的那个，以及过不了的任务里最大的那个：这些隐藏的特性决定了可达上限。
    不能融合、也没有宽向量时，访存项缩不了那么多；其他各组则由访存密集的程度和任务的最优 tile 共同决定。
    """
    best = study.best_possible_speedups(task_seed, n_tasks)
    rows = []
    for i, task in enumerate(study.tasks(task_seed, n_tasks)):
        widest = max(v for v in knobs.KNOBS["vec"] if task.n % v == 0)
        rows.append(
            {
                "fusable": task.fusable,
                "widest vec": widest,
                "memory-bound": task.memory_bound,
                "clears": bool(best[i] > p),
            }
        )
    frame = pd.DataFrame(rows)
    groups = frame.groupby(["fusable", "widest vec"])
    return pd.DataFrame(
        {
            "tasks": groups.size(),
            f"clear {p:g}x": groups["clears"].sum(),
            "least memory-bound that clears": groups.apply(
                lambda g: round(g.loc[g["clears"], "memory-bound"].min(), 2) if g["clears"].any() else np.nan,
                include_groups=False,
            ),
            "most memory-bound that does not": groups.apply(
                lambda g: round(g.loc[~g["clears"], "memory-bound"].max(), 2) if (~g["clears"]).any() else np.nan,
                include_groups=False,
            ),
        }
    )


# 无论用什么配置都没有任务能过 1.5x 的那些组：练习的检查读的就是这个答案。
frame = ceiling_by_trait()
hopeless = {(bool(fusable), int(widest)) for (fusable, widest), clear in frame["clear 1.5x"].items() if clear == 0}


# %% Exercise 5
import random

from toyhw.kernels import knobs, proposers
from toyhw.kernels.knobs import KernelConfig, RunFeedback


def misreading_explain(feedback: RunFeedback, config: KernelConfig, rng: random.Random) -> KernelConfig:
    """返回 `explain` 的下一个配置，但有一半的错误信息会读错（读错后随机改一个旋钮）。

    它读对的那些错误仍然一步就能修好，所以它仍高于 `scalar` 和 `resample`。
    """
    if not feedback.ok and rng.random() < 0.5:
        return knobs.mutate(config, rng)
    return proposers.explain(feedback, config, rng)
