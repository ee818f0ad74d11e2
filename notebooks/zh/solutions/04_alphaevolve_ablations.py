"""笔记本 04 练习的参考答案（04_alphaevolve_ablations.ipynb）：先自己做每个练习，再来对照。

下面每一节替换对应练习的空白单元格（定义同样的名字），并自己导入用到的东西，所以在新内核里也能单独运行；之后笔记本的
检查单元格就会通过。CI 拿每一节去跑它的检查（tests/test_exercises.py），tests/evolve/test_solutions_04.py 检查笔记本
对这些结果的说法。每一节都自己导入、独立成段，所以导入跟在代码后面，还会重复（这个文件关掉了 ruff 的 E402 和 F811）。
"""
# ruff: noqa: E402, F811

# %% Exercise 1
from collections.abc import Sequence

import pandas as pd

from toyhw.evolve.experiments import ablations


def ablation_gap(
    variants: Sequence[str] = ("full", "small_llm"),
    seeds: Sequence[int] = range(10, 15),
    budget: int = 2000,
    marks: Sequence[int] = (100, 300, 1000, 2000),
) -> pd.DataFrame:
    """返回两个变体在每个标记点（新种子、更大的预算）的最好分数中位数，以及两者的差距。"""
    study = ablations.ablation_study(list(variants), tuple(seeds), budget)
    frame = pd.DataFrame(
        {v: [study.median_at(v, m) for m in marks] for v in variants}, index=pd.Index(list(marks), name="programs")
    )
    frame["gap"] = frame[variants[0]] - frame[variants[1]]
    return frame.round(4)


# 差距变大（100 个程序后 0.024，2000 个后 0.081）：完整方法一直往上爬，而 `small_llm` 的单字段修改趋于平缓，
# 因为每一步都得单独见效。
gap_grows = True

# %% Exercise 2
from collections.abc import Sequence

import pandas as pd

from toyhw.evolve.evaluator import Evaluator
from toyhw.evolve.experiments import ablations
from toyhw.evolve.llm import MockLLM
from toyhw.evolve.loop import evolve


def adoption_sweep(
    p_adopts: Sequence[float] = (0.1, 0.5, 0.9), seeds: Sequence[int] = ablations.SEEDS, budget: int = 1000
) -> pd.DataFrame:
    """返回完整方法用 `MockLLM(p_adopt=p)` 时的最终训练分数：每个种子一个，再加上它们的中位数。"""
    ctx = ablations.context()
    scores = {
        p: [evolve(Evaluator(ctx.train, ctx.table), budget, seed=s, llm=MockLLM(p_adopt=p)).history[-1] for s in seeds]
        for p in p_adopts
    }
    frame = pd.DataFrame(scores, index=pd.Index(list(seeds), name="seed")).T
    frame.index.name = "p_adopt"
    frame["median"] = frame.median(axis=1)
    return frame.round(4)


# 中位数 1.107、1.123 和 1.128：更常采用见过的最好配置有帮助。和第 10 讲的 `suggest`（指出该拧哪一类旋钮）不同，
# 见过的最好配置是在目标形状上实际测出来的，采用它在那里一定有收益。
adopting_helps = True

# %% Exercise 3
from collections import Counter
from collections.abc import Sequence

import numpy as np
import pandas as pd

from toyhw.course import proposal_trace
from toyhw.evolve.experiments import ablations


def focus_report(
    variants: Sequence[str] = ("full", "fb_worst3"), seeds: Sequence[int] = ablations.SEEDS, budget: int = 1000
) -> pd.DataFrame:
    """按变体和种子返回：一次运行怎样把提案分布到各个训练形状上，以及这些提案的结果。

    各列：整个运行中和最后四分之一里的目标形状个数；以下几类提案所占的比例——目标形状见过更快的配置（见过的最好配置
    和父程序的不同，差多少都算：LLM 可以采用的配置）、目标形状有已知改进（`targeting.known_improvement`：见过的最快
    快 5% 以上）、采用了一个配置、子程序超过了父程序；最终的训练分数。
    """
    rows = []
    for variant in variants:
        for seed in seeds:
            run = proposal_trace.trace(variant, seed, budget)
            steps = run.steps
            rows.append(
                {
                    "variant": variant,
                    "seed": seed,
                    "shapes targeted": len(Counter(s.target for s in steps)),
                    "in the last quarter": len({s.target for s in steps if s.step > budget * 3 // 4}),
                    "faster config known": np.mean([s.best_differs for s in steps]),
                    "known improvement": np.mean([s.known_improvement for s in steps]),
                    "adopted it": np.mean(["fastest config seen" in s.description for s in steps]),
                    "child beat its parent": np.mean([s.score is not None and s.score > s.parent_score for s in steps]),
                    "final score": run.result.history[-1],
                }
            )
    return pd.DataFrame(rows).set_index(["variant", "seed"]).round(3)


# %% Exercise 4
import numpy as np
import pandas as pd

from toyhw.evolve.evaluator import geomean_speedup
from toyhw.evolve.experiments import ablations
from toyhw.evolve.experiments.ablations import AblationStudy


def new_shape_scores(study: AblationStudy) -> pd.DataFrame:
    """返回每个变体的最好程序在 100 个新形状上的分数（各种子的中位数、最小值和最大值），旁边是它们在测试形状上的
    中位数，按新形状上的中位数从高到低排列。"""
    ctx = ablations.context()
    rows = {}
    for name, runs in study.runs.items():
        new = [geomean_speedup(r.best, ctx.new, ctx.table) for r in runs]
        rows[name] = {
            "new shapes (median)": float(np.median(new)),
            "min": min(new),
            "max": max(new),
            "test shapes (median)": float(np.median([r.test for r in runs])),
        }
    frame = pd.DataFrame(rows).T.sort_values("new shapes (median)", ascending=False)
    frame.index.name = "variant"
    return frame.round(4)


# 新形状上中位数最好的是 `no_meta_prompt`（1.064），`full` 第二（1.061），`no_cascade` 垫底。
best_on_new_shapes = "no_meta_prompt"

# %% Exercise 5
from toyhw.evolve.evaluator import geomean_speedup
from toyhw.evolve.experiments import ablations
from toyhw.evolve.programs import Program, Rule


def best_m_only_program() -> Program:
    """返回只看 M 的最好启发式：对训练形状的每个 M，取在 M 等于它的那些训练形状上相对专家几何平均加速比最好的那一个
    配置，写成 `if M <= m` 规则。

    为什么每个 M 的配置可以单独挑：只看 M 的规则列表把 M 相同的形状都送到同一个配置，而所有训练形状上的几何平均
    是每个 M 一个因子的乘积，所以每个因子可以分别取最大。`Program((), config)` 是没有规则的规则列表：每个形状都用
    `config`。
    """
    ctx = ablations.context()
    token_counts = sorted({shape.M for shape in ctx.train})
    configs = []
    for m in token_counts:
        shapes = [shape for shape in ctx.train if shape.M == m]
        configs.append(max(ctx.table.configs, key=lambda c: geomean_speedup(Program((), c), shapes, ctx.table)))
    rules = tuple(Rule(config, m_max=m) for m, config in zip(token_counts[:-1], configs[:-1]))
    return Program(rules, configs[-1])  # 最大的 M 用默认配置：最后一条规则以上的所有形状
