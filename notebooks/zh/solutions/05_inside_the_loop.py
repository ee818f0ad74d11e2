"""笔记本 05 练习的参考答案（05_inside_the_loop.ipynb）：先自己做每个练习，再来对照。

下面每一节替换对应练习的待填单元格，定义同样的名字；然后它的检查单元格会显示 ✓。
每一节自己导入要用的东西，可以单独运行（所以导入跟在代码后面：这个文件关掉了 ruff 的 E402）。
"""
# ruff: noqa: E402

# %% Exercise 1
import random

from toyhw.evolve.database import Database, Entry
from toyhw.evolve.programs import Program, Rule, expert_program


def best_share(k: int, island: int = 25, draws: int = 20000, seed: int = 0) -> float:
    """返回 `Database.sample` 用大小为 `k` 的锦标赛抽出的 `draws` 个父程序中，是这个装满 `island` 个程序的岛上
    最好程序的比例。

    岛上有 `island` 个不同的程序（程序 i 只有一条规则 `m_max=i`，所以两两不同，数据库每个都接纳），分数各不相同：
    1.000、1.001……最后一个最好。用来对照的公式：除非 k 次（有放回的）抽取全都没抽中它，最好的程序就会被选中，
    1 - (1 - 1/n)^k。
    """
    expert = expert_program()
    entries = [
        Entry(
            i, Program((Rule(expert.default, m_max=i),), expert.default), 1.0 + i / 1000, None, None, f"program {i}", i
        )
        for i in range(island)
    ]
    db = Database(entries[0], n_islands=1, capacity=island, tournament=k)
    for entry in entries[1:]:
        db.add(entry, 0)
    rng = random.Random(seed)
    best = sum(db.sample(0, rng)[0] is entries[-1] for _ in range(draws))
    return best / draws


# %% Exercise 2
from toyhw.course import proposal_trace
from toyhw.evolve.evaluator import geomean_speedup
from toyhw.evolve.experiments import ablations

ctx = ablations.context()
trace = proposal_trace.trace("full", 0, 1000)  # 笔记本里追踪的那次运行（有缓存：是同一个对象）
cut_programs = [s for s in trace.steps if s.status == "cascade"]
# 每个被拦下的程序在全部 44 个训练形状上的分数，在运行之外从时间表里读（不计入跑内核次数），以及这次运行在它之前
# 的最好分数：history[i] 是第 i + 1 个提案之后的最好分数，专家是 1.0。
full_scores = [geomean_speedup(s.program, ctx.train, ctx.table) for s in cut_programs]
best_before = [trace.result.history[s.step - 2] if s.step > 1 else 1.0 for s in cut_programs]
beat_parent = sum(score > s.parent_score for score, s in zip(full_scores, cut_programs))
beat_best = sum(score > best for score, best in zip(full_scores, best_before))
# 有几个被拦下的程序以很小的幅度超过了父程序；没有一个本来会成为新的最好，其中最好的（max(full_scores)）也低于
# 这次运行当时的最好分数：换来省下的跑内核次数，代价很小。


# %% Exercise 3
import pandas as pd

from toyhw.course import prompt_view


def prompt_growth(variant: str = "full", seed: int = 0, steps: tuple[int, ...] = (1, 10, 100, 1000)) -> pd.DataFrame:
    """返回一次运行中几个步骤上提示词的大小：父程序的分支数、每一部分的字符数、总字符数和估算的 token 数
    （每个步骤一行）。"""
    rows = []
    for step in steps:
        view = prompt_view.prompt_at(variant, seed, step)
        rows.append(
            {
                "step": step,
                "parent branches": view.parent_source.count("return "),
                **{name: len(text) for name, text in view.prompt.parts},
                "characters": view.chars,
                "tokens (est.)": view.tokens,
            }
        )
    return pd.DataFrame(rows).set_index("step").fillna(0).astype(int)


growth = prompt_growth()
tokens = {int(step): int(n) for step, n in growth["tokens (est.)"].items()}
# 固定的部分（任务、语言、常识、回答格式）不会变长，反馈表不管程序是什么都是每个训练形状一行；变长的是代码：
# 父程序的分支，以及参考程序（好几个程序）。
parts = growth.drop(columns=["parent branches", "characters", "tokens (est.)"])
grows_most = str((parts.iloc[-1] - parts.iloc[0]).idxmax())
