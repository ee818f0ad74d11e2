# ruff: noqa: E402, F811  (each exercise section imports what it uses, so that it runs on its own)
"""Solutions of notebook 06's exercises (using feedback): try each exercise first, then compare.

Each `# %% Exercise K` section replaces that exercise's stub cell and defines the same names, so the check cell after
it passes; each section imports what it uses and runs on its own. CI runs every section against its check
(tests/test_exercises.py), and tests/claims/nb06.py recomputes from these functions the numbers the notebook quotes.
Every number they give is a modelled time, a count or a share of a deterministic run: the same on any machine.
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
    """Return the share of the proposals of `name`'s run aimed at a shape where the parent was stuck.

    The observer reads each step's target with the mock's own `peek_target`, on the copy of the random state the loop
    hands it in the step's record, so the run draws exactly the numbers it draws without the observer: these are the
    proposals behind notebook 04's curves. Each proposal draws from its own parent's feedback, so "stuck" is judged
    against that parent's `vs_best`, not the run's best program's.
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
    """Return, per variant (rows) and seed (columns), the share of the proposals aimed at a shape stuck for the parent.

    Over the first 300 proposals of seeds 0-4 the order is the same on every seed: fb_worst3 below full below
    fb_roofline below no_feedback. With budget=1000 late parents are stuck on most shapes whatever the weighting.
    """
    rows = {name: [stuck_target_share(name, seed, budget) for seed in seeds] for name in names}
    return pd.DataFrame.from_dict(rows, orient="index", columns=[f"seed {s}" for s in seeds])


# %% Exercise 2
from typing import Sequence

import pandas as pd

from toyhw.evolve.experiments import targeting


def stuck_share_by_budget(seed: int = 0, budgets: Sequence[int] = (100, 200, 300, 500, 700, 1000)) -> pd.DataFrame:
    """Return, after each budget: stuck training shapes, and each weighting's share of the target draw on them.

    Each budget is its own run's best program; a best program wins on the geometric mean and may give up a little on
    one shape to gain more on others, so the number of stuck shapes need not grow with the budget. Plot the two
    shares with the frame's `plot(y=["roofline", "best seen"])`.
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
    """Return the training shapes whose best config (the oracle) reaches less than `threshold` of the roofline.

    With the oracle's share of the roofline, what bounds its main time, and notebook 03's reasons read from the cost
    model's breakdown (`gemm_report.distance_reasons`). For these shapes no heuristic gets anywhere near the
    roofline, and feedback that keeps pointing there wastes proposals.
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
    """Return, for the stuck decode shapes (M <= 16) of demo 2, how close the best config gets to the roofline per GPU.

    Per GPU: the oracle's vs_roofline and the share of its time that is fixed cost (launch, pipeline fill and drain,
    split-K reduction) - the part a faster memory system does not shrink. On the B200 the launch, the fill and the
    DRAM term all shrink, but the roofline shrinks more, because it assumes the datasheet's bandwidth.
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
