"""The evolved program: an ordered list of rules mapping a GEMM shape (M, N, K) to a config, ending in a default.

Why a rule list and not free Python: a rule list renders to readable source (what an LLM would write, what a student
reads), parses back from that source without executing it (`toyhw.evolve.source`), and every branch can be checked
statically. Conditions are closed integer intervals on M, N and K (`None` = unbounded), which covers what tiling
heuristics really test (`if M <= 48 and K >= 4096`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from toyhw.gemm import expert
from toyhw.gemm.config import GemmConfig
from toyhw.gemm.shapes import MAX_DIM

Bound = Optional[int]
VARIABLES = ("M", "N", "K")
_FIELDS = ("block_m", "block_n", "block_k", "num_warps", "num_stages", "split_k")


def _cached_hash(obj: object, fields: tuple) -> int:
    """Return hash(fields), computed once per object (the value the dataclass's own __hash__ would give).

    Why: the database's membership sets hash whole programs, rule by rule, at every insertion; a child shares most
    rules (the same objects) with its parent, so caching makes that a lookup.
    """
    value = obj.__dict__.get("_hash")
    if value is None:
        value = hash(fields)
        object.__setattr__(obj, "_hash", value)
    return value


def _without_hash(obj: object) -> dict:
    """Return the pickled state without the cached hash (hash(None) may differ in another process before 3.12)."""
    state = dict(obj.__dict__)
    state.pop("_hash", None)
    return state


@dataclass(frozen=True)
class Rule:
    """One branch: `if <conditions>: return config`.

    Attributes:
        config: the config returned when the conditions hold.
        m_min, m_max, n_min, n_max, k_min, k_max: inclusive bounds on M, N, K (elements), integers from 0 to MAX_DIM;
            None = unbounded.
            At least one bound must be set (a rule without conditions would be the default).
    """

    config: GemmConfig
    m_min: Bound = None
    m_max: Bound = None
    n_min: Bound = None
    n_max: Bound = None
    k_min: Bound = None
    k_max: Bound = None

    def __post_init__(self) -> None:
        flat = (self.m_min, self.m_max, self.n_min, self.n_max, self.k_min, self.k_max)
        if flat.count(None) == 6:
            raise ValueError("a rule needs at least one condition on M, N or K; use the program's default instead")
        if all(b is None or (type(b) is int and 0 <= b <= MAX_DIM) for b in flat):
            return  # the common case, checked cheaply: the mock LLM builds a rule or two per proposal
        for name, (lo, hi) in zip(VARIABLES, self.bounds()):
            for b in (lo, hi):
                if b is not None and (not isinstance(b, int) or isinstance(b, bool) or not 0 <= b <= MAX_DIM):
                    raise ValueError(
                        f"bound {b!r} on {name} is not allowed; bounds are integers from 0 to "
                        f"{MAX_DIM:,} (MAX_DIM) or None"
                    )

    def __hash__(self) -> int:
        value = self.__dict__.get("_hash")  # inlined: a program's hash asks each of its rules
        if value is None:
            value = _cached_hash(
                self, (self.config, self.m_min, self.m_max, self.n_min, self.n_max, self.k_min, self.k_max)
            )
        return value

    def __getstate__(self) -> dict:
        return _without_hash(self)

    def bounds(self) -> tuple[tuple[Bound, Bound], tuple[Bound, Bound], tuple[Bound, Bound]]:
        """Return ((m_min, m_max), (n_min, n_max), (k_min, k_max))."""
        return (self.m_min, self.m_max), (self.n_min, self.n_max), (self.k_min, self.k_max)

    def matches(self, M: int, N: int, K: int) -> bool:
        """Return True when the rule's conditions hold for (M, N, K)."""
        # written out, not looped over bounds(): the mock LLM asks this for every rule of every parent it edits
        return not (
            (self.m_min is not None and M < self.m_min)
            or (self.m_max is not None and M > self.m_max)
            or (self.n_min is not None and N < self.n_min)
            or (self.n_max is not None and N > self.n_max)
            or (self.k_min is not None and K < self.k_min)
            or (self.k_max is not None and K > self.k_max)
        )

    def is_empty(self) -> bool:
        """Return True when some interval is empty, so the rule can never fire."""
        return any(lo is not None and hi is not None and lo > hi for lo, hi in self.bounds())

    def condition(self) -> str:
        """Return the condition as Python source, e.g. `32 <= M <= 96 and K >= 4096`."""
        parts = []
        for name, (lo, hi) in zip(VARIABLES, self.bounds()):
            if lo is not None and hi is not None:
                parts.append(f"{name} == {lo}" if lo == hi else f"{lo} <= {name} <= {hi}")
            elif hi is not None:
                parts.append(f"{name} <= {hi}")
            elif lo is not None:
                parts.append(f"{name} >= {lo}")
        return " and ".join(parts)

    def with_config(self, config: GemmConfig) -> "Rule":
        """Return this rule returning `config` instead."""
        # the constructor directly: dataclasses.replace inspects the fields on every call
        return Rule(config, self.m_min, self.m_max, self.n_min, self.n_max, self.k_min, self.k_max)


@dataclass(frozen=True)
class Program:
    """A tiling heuristic: the first rule whose conditions hold decides; otherwise the default.

    Attributes:
        rules: the branches, tried in order.
        default: the config returned when no rule fires.
    """

    rules: tuple[Rule, ...]
    default: GemmConfig

    def __post_init__(self) -> None:
        if not isinstance(self.rules, tuple):
            object.__setattr__(self, "rules", tuple(self.rules))

    def __hash__(self) -> int:
        return _cached_hash(self, (self.rules, self.default))

    def __getstate__(self) -> dict:
        return _without_hash(self)

    def n_rules(self) -> int:
        """Return the number of branches including the default (the expert's three-regime heuristic has 3)."""
        return len(self.rules) + 1

    def branches(self) -> tuple[GemmConfig, ...]:
        """Return every config the source can return, rules first, the default last."""
        return tuple(r.config for r in self.rules) + (self.default,)


def choose(program: Program, shape) -> GemmConfig:
    """Return the config `program` picks for `shape` (anything with M, N, K attributes)."""
    return choose_mnk(program, shape.M, shape.N, shape.K)


def choose_mnk(program: Program, M: int, N: int, K: int) -> GemmConfig:
    """Return the config `program` picks for (M, N, K)."""
    i = firing_rule(program, M, N, K)
    return program.rules[i].config if i < len(program.rules) else program.default


def firing_rule(program: Program, M: int, N: int, K: int) -> int:
    """Return the index of the rule that decides (M, N, K), or len(program.rules) when the default does."""
    for i, rule in enumerate(program.rules):
        if rule.matches(M, N, K):
            return i
    return len(program.rules)


def config_source(config: GemmConfig) -> str:
    """Return `Config(block_m=..., ...)`, the way a config is written in program source."""
    return "Config(" + ", ".join(f"{f}={getattr(config, f)}" for f in _FIELDS) + ")"


def render(program: Program) -> str:
    """Return the program as readable Python source (`def choose(M, N, K): ...`); `parse` reads it back exactly.

    Line numbers are fixed by the layout: rule i's `if` is on line 2 + 2i and its `return` on line 3 + 2i; the
    default's `return` is on line 2 + 2 * len(rules). The static check reports problems by these lines.
    """
    lines = ["def choose(M, N, K):"]
    for rule in program.rules:
        lines.append(f"    if {rule.condition()}:")
        lines.append(f"        return {config_source(rule.config)}")
    lines.append(f"    return {config_source(program.default)}")
    return "\n".join(lines) + "\n"


def branch_line(program: Program, index: int) -> int:
    """Return the source line of the `return` of rule `index` (len(rules) = the default) in `render(program)`."""
    return 3 + 2 * index if index < len(program.rules) else 2 + 2 * len(program.rules)


def expert_program() -> Program:
    """Return the expert heuristic (toyhw.gemm.expert) as the initial Program: one `M <= limit` rule per regime."""
    return Program(tuple(Rule(config, m_max=limit) for limit, config in expert.EXPERT_RULES), expert.EXPERT_DEFAULT)
