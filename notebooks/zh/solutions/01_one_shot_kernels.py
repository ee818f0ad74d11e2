"""笔记本 01 练习的参考答案（01_one_shot_kernels.ipynb）。先自己做每道练习，再来对照。

每一节替换对应练习的初始代码单元格：它定义同样的名字，所以初始代码后面的检查单元格会显示 ✓。
每一节都自己导入要用的东西，可以单独运行。CI 会拿每一节去跑它的检查（tests/test_exercises.py）。
"""
# ruff: noqa: E402 （每一节都自己导入要用的东西，和它替换的单元格一样）

# %% Exercise 1
from collections.abc import Sequence

from toyhw import metrics


def correct_and_faster_share(speedups: Sequence[float], p: float = 1.0) -> float:
    """返回*正确的* kernel 里比 PyTorch 快 p 倍以上的比例（fast_p / fast_0）。

    失败 kernel 的加速比是 0.0，所以 fast_0 就是正确 kernel 的比例，fast_p / fast_0 是其中超过 p 的比例。
    没有正确的 kernel 时比例为 0.0（没有哪个是快的）。

    作为基准分数它比 fast_1 差：它无视失败。一个写手只交出它最快的那个 kernel、别的任务什么都不交，在这个
    指标上能得 1.0，而 fast_1 = 1 / 200；KernelBench 把每个任务都留在分母里，交得少就永远不会显得更好。
    """
    correct = metrics.fast_p(speedups, 0.0)
    return metrics.fast_p(speedups, p) / correct if correct else 0.0


# %% Exercise 2
import random

from toyhw.kernels import knobs


def calm_config(rng: random.Random) -> knobs.KernelConfig:
    """返回 `knobs.random_config` 的 kernel，但把分块 64 换成 32：抽取完全相同，所以只有分块不同。

    先调用心急的写手，之后再改它的分块，这样从 `rng` 的每一次抽取都和心急写手完全一样，逐个任务看，两个
    kernel 只差在分块上。编译 / 启动失败一个都不剩（只有分块 64 会让共享内存溢出），但那些还违反了别的规则的
    kernel 现在走到了测试这一步，结果不对；原来就正确的 kernel 变快了，因为没有哪个任务的最佳分块是 64。
    """
    config = knobs.random_config(rng)
    return config.replace(tile=32) if config.tile == 64 else config


# %% Exercise 3
import random

from toyhw.kernels import knobs, proposers, study


def one_explained_fix(report: study.OneShotReport, seed: int = 0) -> dict[str, int]:
    """返回一次有解释的修复（`proposers.fix_failure`）能让多少个失败的一次写出来的 kernel 变成正确的。

    键："failing"（修复前）、"correct after one fix"、"still failing"；共享内存那种修复要抛的硬币取自
    `random.Random(seed)`。修复去掉运行报出的那个原因；违反了第二条规则的 kernel 接着就报出那一条，所以仍然
    失败的 kernel 正是违反了两条或更多规则的那些。
    """
    rng = random.Random(seed)
    failing = [k for k in report.kernels if k.feedback.status != "ok"]
    fixed = sum(
        knobs.run_kernel(k.task, proposers.fix_failure(k.feedback, k.config, rng)).status == "ok" for k in failing
    )
    return {"failing": len(failing), "correct after one fix": fixed, "still failing": len(failing) - fixed}
