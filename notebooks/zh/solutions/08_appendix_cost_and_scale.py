"""笔记本 08 练习的参考答案（08_appendix_cost_and_scale.ipynb）：每个练习先自己做，再来对照。

每个练习一节；每一节替换该练习的待填单元格，定义同样的名字，并导入它用到的东西，所以每一节都能单独运行。
之后笔记本里的检查单元格（`checks.exercise_K(...)`）会显示 ✓。这些函数返回的数都是跑内核次数：在任何机器上都一样。
"""
# 每一节都导入自己用到的东西，这样它能单独运行：写在文件中间、重复出现的 import 是有意的。
# ruff: noqa: E402, F811

# %% Exercise 1
from typing import Sequence

import pandas as pd

from toyhw.evolve.experiments import ablations


def cascade_savings(budget: int = ablations.BUDGET, seeds: Sequence[int] = ablations.SEEDS) -> pd.DataFrame:
    """按种子返回完整方法和 no_cascade 在预算 `budget` 下的跑内核次数，以及省下的比例。

    被级联第一阶段拦下的程序能省下它四分之三的运行，但大多数提案都通过了第一阶段，然后要为每个训练形状付费，
    所以省下的比例远低于四分之三。
    """
    rows = []
    for seed in seeds:
        full = ablations.run_one("full", seed, budget).kernel_runs
        every = ablations.run_one("no_cascade", seed, budget).kernel_runs
        rows.append({"seed": seed, "full": full, "no_cascade": every, "saved": 1 - full / every})
    return pd.DataFrame(rows).set_index("seed")


# %% Exercise 2
import concurrent.futures
from typing import Sequence

from toyhw.evolve.experiments import ablations, sweep


def serial_and_parallel_agree(
    names: Sequence[str] = ("full", "small_llm"), seeds: Sequence[int] = (0, 1), budget: int = 100, workers: int = 2
) -> dict[str, object]:
    """返回一个网格串行跑和在 `workers` 个本地进程上跑的结果：跑内核次数，以及是否全部一致。

    只比较和机器无关的结果：运行的历史、最好程序和跑内核次数（从不比较秒数）。每次串行运行都是从头跑的
    （`ablations.run_fresh`），不是缓存的结果，所以两种设置都真的在算。
    """
    jobs = sweep.grid(names, seeds, [budget])
    serial = [ablations.run_fresh(j.variant, j.seed, j.budget) for j in jobs]
    with concurrent.futures.ProcessPoolExecutor(workers) as pool:
        parallel = sweep.run_grid(jobs, executor=pool)
    same = all(
        a.history == b.history and a.best == b.best and a.kernel_runs == b.kernel_runs for a, b in zip(serial, parallel)
    )
    return {
        "runs": len(jobs),
        "kernel runs, serial": sum(r.kernel_runs for r in serial),
        "kernel runs, parallel": sum(r.kernel_runs for r in parallel),
        "identical": same,
    }
