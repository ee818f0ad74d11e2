# ruff: noqa: E402, F811  （每个练习段自己导入要用的东西，这样它可以单独运行）
"""notebook 06 练习的参考答案（反馈怎么用）：每道练习先自己做，再来对照。

每个 `# %% Exercise K` 段替换那道练习的空白单元格，定义同样的名字，所以后面的检查单元格能通过；每段自己导入要用的东西，
可以单独运行。CI 用每道练习的检查来跑对应的段（tests/test_exercises.py），tests/claims/nb06.py 用这些函数重算 notebook 里引用的数字。
它们给出的每个数字都是一次确定性运行里的模型时间、计数或份额：在任何机器上都一样。
"""

# %% Exercise 1
from typing import Sequence

import pandas as pd

from toyhw.evolve import variants
from toyhw.evolve.evaluator import Evaluator
from toyhw.evolve.experiments import ablations, targeting
from toyhw.evolve.llm import peek_target
from toyhw.evolve.loop import StepRecord, evolve


def stuck_target_share(name: str, seed: int = 0, budget: int = 300) -> float:
    """返回 `name` 这次运行的提议里，瞄准父程序没有已知改进的形状的比例。

    观察者用 mock 自己的 `peek_target` 读出每一步的目标，用的是循环放在这一步记录里的随机状态拷贝，
    所以这次运行抽到的随机数和没有观察者时完全一样：这些就是 notebook 04 曲线背后的提议。每次提议按它自己父程序的反馈来抽，
    所以"没有已知改进"是对照那个父程序的 `vs_best` 判断的，而不是这次运行的最优程序的。
    """
    spec = variants.get(name)
    stuck = []

    def note(step: StepRecord) -> None:
        index = peek_target(spec.llm, step.feedback, step.rng)
        stuck.append(not targeting.known_improvement(float(step.feedback.vs_best[index])))

    ctx = ablations.context()
    evolve(Evaluator(ctx.train, ctx.table), budget, seed=seed, llm=spec.llm, config=spec.config, observer=note)
    return sum(stuck) / len(stuck)


def stuck_target_shares(
    names: Sequence[str] = ("full", "fb_roofline", "fb_worst3", "no_feedback"),
    seeds: Sequence[int] = ablations.SEEDS,
    budget: int = 300,
) -> pd.DataFrame:
    """按变体（行）和种子（列）返回提议里瞄准对父程序来说没有已知改进的形状的比例。

    在种子 0-4 的前 300 次提议上，每个种子的顺序都一样：fb_worst3 低于 full 低于 fb_roofline 低于 no_feedback。
    用 budget=1000 时，不管怎么加权，后期的父程序在大多数形状上都没有已知改进。
    """
    rows = {name: [stuck_target_share(name, seed, budget) for seed in seeds] for name in names}
    return pd.DataFrame.from_dict(rows, orient="index", columns=[f"seed {s}" for s in seeds])


# %% Exercise 2
from typing import Sequence

import pandas as pd

from toyhw.evolve.experiments import targeting


def stuck_share_by_budget(seed: int = 0, budgets: Sequence[int] = (100, 200, 300, 500, 700, 1000)) -> pd.DataFrame:
    """返回每个预算之后：没有已知改进的训练形状个数，以及每种加权方式放在它们上面的目标抽样份额。

    每个预算看的是它自己那次运行的最优程序；最优程序按几何平均胜出，可能在一个形状上让一点，换来别的形状上更多的提升，
    所以没有已知改进的形状个数不一定随预算增长。两种份额用 DataFrame 的 `plot(y=["roofline", "best seen"])` 画出来。
    """
    rows = []
    for budget in budgets:
        t = targeting.targeting(seed, budget)
        rows.append(
            {
                "budget": budget,
                "stuck shapes": t.n_stuck,
                "roofline": t.share_on_stuck["roofline"],
                "best seen": t.share_on_stuck["best"],
            }
        )
    return pd.DataFrame(rows).set_index("budget")


# %% Exercise 3
import pandas as pd

from toyhw.evolve.experiments import ablations
from toyhw.gemm import cost as gemm_cost, report as gemm_report


def far_from_roofline(threshold: float = 0.6) -> pd.DataFrame:
    """返回最优配置（上限，逐形状最优）达不到 roofline 的 `threshold` 的训练形状。

    附带上限占 roofline 的比例、它的主要时间受什么限制，以及从代价模型的分解读出的 notebook 03 的原因
    （`gemm_report.distance_reasons`）。对这些形状，没有哪个启发式能接近 roofline，一直指向这里的反馈只会浪费提议。
    """
    ctx = ablations.context()
    table = ctx.table
    rows = []
    for shape in ctx.train:
        config, best = table.oracle(shape)
        reach = table.roofline(shape) / best
        if reach < threshold:
            cost = gemm_cost.gemm_time(config, shape, table.gpu)
            rows.append(
                {
                    "shape": shape.label(),
                    "oracle vs_roofline": round(reach, 2),
                    "bound": cost.bound,
                    "why": gemm_report.distance_reasons(cost, table.gpu.sms),
                }
            )
    return pd.DataFrame(rows).sort_values("oracle vs_roofline").reset_index(drop=True)


# %% Exercise 4
from typing import Sequence

import pandas as pd

from toyhw.evolve.experiments import targeting
from toyhw.gemm import cost as gemm_cost
from toyhw.gemm.time_table import shared_table


def decode_reach_by_gpu(gpus: Sequence[str] = ("H100", "B200"), seed: int = 0, budget: int = 300) -> pd.DataFrame:
    """对演示 2 里没有已知改进的 decode 形状（M <= 16），按 GPU 返回最优配置离 roofline 有多近。

    每块 GPU：上限的 vs_roofline，以及它的时间里启动开销（启动、流水线的填充和排空、split-K 的归约）所占的比例——
    这是更快的内存系统缩小不了的部分。在 B200 上启动、填充和 DRAM 项都缩小了，但 roofline 缩小得更多，
    因为它假设的是数据手册上的带宽。
    """
    t = targeting.targeting(seed, budget)
    stuck = sorted(
        (r.shape for r in t.rows if r.shape.M <= 16 and r.vs_best > targeting.STUCK), key=lambda s: (s.name, s.M)
    )
    rows = []
    for shape in stuck:
        row = {"shape": shape.label()}
        for gpu in gpus:
            table = shared_table(gpu)
            config, best = table.oracle(shape)
            cost = gemm_cost.gemm_time(config, shape, table.gpu)
            row[f"{gpu} vs_roofline"] = round(table.roofline(shape) / best, 2)
            row[f"{gpu} fixed share"] = round(cost.fixed_us / best, 2)
        rows.append(row)
    return pd.DataFrame(rows)
