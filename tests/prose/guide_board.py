"""The lecturer's guide's class leaderboard (section 3, both languages): the fixed rows' scores on the training and
the held-out shapes, recomputed from toyhw.course.board (the board's own scoring), and the held-out set's size.

`phrases()` are the English guide's, `zh_phrases()` the zh guide's; tests/test_guide.py checks the English ones with
the rest of the guide's numbers, tests/board/test_board_guide.py both.
"""

from __future__ import annotations

import functools

from prose.phrasing import holds as _holds
from toyhw.course.board import scoring, shapes as board_shapes
from toyhw.evolve.experiments.ablations import headroom_share

PARAMETERS = [
    "(10 minutes, after notebook 07's Think! 1)",
    "port 8765",
    "`http://127.0.0.1:8765`",
    "once every 10 seconds",
    "every 2 seconds",
    "It listens on 127.0.0.1 only",
]
NOT_RESULTS = [  # how a hub is laid out, what to say in a case, definitions and advice: no computed comparison
    "On a hub of one machine (TLJH), every student's kernel runs on that machine",
    "When a student beats the evolved program",
    "If it is not, the student wrote a program that generalizes better",
    "Every row is the same score on two sets of shapes.",
    "The remedy is AlphaEvolve's: score on shapes the search never sees",
    "Ask the student to read the program aloud",
]
QUOTED: list[str] = []


@functools.lru_cache(maxsize=None)
def _values() -> dict[str, float]:
    rows = dict(scoring.fixed_rows())
    e, o, v = rows["expert"], rows["oracle"], rows["evolved"]
    return {
        "expert_train": e.train,
        "expert_held": e.held_out,
        "oracle_train": o.train,
        "oracle_held": o.held_out,
        "evolved_train": v.train,
        "evolved_held": v.held_out,
        "keep": (v.held_out - 1) / (v.train - 1),
        "share_train": headroom_share(v.train, o.train),
        "share_held": headroom_share(v.held_out, o.held_out),
        "shapes": len(board_shapes.held_out_shapes()),
        "layers": len(board_shapes.held_out_layers()),
    }


def phrases() -> dict[str, str]:
    x = _values()
    return {
        "expert": f"| expert | {x['expert_train']:.3f} | {x['expert_held']:.3f} |",
        "oracle": f"| oracle (the best launchable config on every shape) | {x['oracle_train']:.3f} | {x['oracle_held']:.3f} |",
        "evolved": (
            f"| the mini AlphaEvolve's best program (`full`, seed 0, 1000 programs) | {x['evolved_train']:.3f} | "
            f"{x['evolved_held']:.3f} |"
        ),
        "shapes": f"on {x['shapes']} held-out shapes: {x['layers']} Llama-3 layers that no notebook scores",
        "keep": _holds(
            x["keep"] < 0.5 and x["evolved_held"] > 1,
            f"kept {x['keep']:.0%} of its training gain on the held-out shapes",
        ),
        "share": _holds(
            x["share_held"] < x["share_train"],
            f"captures {x['share_train']:.0%} of the oracle's headroom on the training shapes and "
            f"{x['share_held']:.0%} on the held-out ones",
        ),
    }


def zh_phrases() -> dict[str, str]:
    x = _values()
    return {
        "expert": f"| 专家 | {x['expert_train']:.3f} | {x['expert_held']:.3f} |",
        "oracle": f"| 上限（逐形状最优） | {x['oracle_train']:.3f} | {x['oracle_held']:.3f} |",
        "evolved": (
            f"| 迷你 AlphaEvolve 的最好程序（`full`，种子 0，1000 个程序） | {x['evolved_train']:.3f} | "
            f"{x['evolved_held']:.3f} |"
        ),
        "shapes": f"{x['shapes']} 个测试形状上算。测试形状来自 {x['layers']} 个没有哪个笔记本打过分的 Llama-3 层",
        "keep": f"只保留了训练增益的 {x['keep']:.0%}",
        "share": f"在训练形状上拿到上限余量的 {x['share_train']:.0%}，在测试形状上只有 {x['share_held']:.0%}",
    }


def quotes() -> list[str]:
    return list(phrases().values())
