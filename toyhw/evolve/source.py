"""Program source: parse `def choose(M, N, K): ...` back into a Program, and check every branch statically.

Why `ast` and never exec/eval: the source comes from a (mock) LLM or a student, and a heuristic that is executed can do
anything; a heuristic that is parsed into rules can only be what the rule language allows, and each branch can be
checked for launchability before any kernel runs (AlphaEvolve's evaluators verify, they do not trust).

Allowed language: one `def choose(M, N, K):` with an optional docstring, then `if <condition>: return Config(...)`
statements (an `elif`/`else` chain is fine), ending in `return Config(...)`. A condition is comparisons of M, N or K
with integer literals (`<`, `<=`, `>`, `>=`, `==`, chained like `32 <= M <= 96`) joined by `and`.
"""

from __future__ import annotations

import ast
import collections
import io
import tokenize
from dataclasses import dataclass
from typing import Optional, Union

from toyhw.checks import MAX_BRANCHES, MAX_LINE_TOKENS, MAX_NESTING, MAX_SOURCE_CHARS
from toyhw.gemm import config as gemm_config, gpu as gpu_lib
from toyhw.gemm.shapes import MAX_DIM
from toyhw.i18n import t
from toyhw.evolve.programs import VARIABLES, Program, Rule, branch_line, config_source, render

ALLOWED = (
    "allowed: `def choose(M, N, K):`, then `if <cond>: return Config(...)` statements (elif/else allowed), ending in "
    "`return Config(...)`; <cond> compares M, N or K with integer literals (<, <=, >, >=, ==, chains) joined by `and`"
)
_FIELD_NAMES = tuple(gemm_config.FIELDS)


@dataclass(frozen=True)
class BranchProblem:
    """A branch of a program that cannot launch.

    Attributes:
        line: the source line of the branch's `return` (1-based, as in `render(program)` or the given source).
        branch: the branch's condition as source, or "default".
        config: the config the branch returns, as source.
        reason: why it cannot launch (from `gemm_config.launch_problem`).
    """

    line: int
    branch: str
    config: str
    reason: str

    def message(self) -> str:
        """Return `line L (if COND): Config(...) cannot launch: REASON` in the reader's language (the reason stays
        worded like Triton's launch error)."""
        where = t("source.default_branch") if self.branch == "default" else f"if {self.branch}"
        return t("source.cannot_launch", line=self.line, where=where, config=self.config, reason=self.reason)


class SourceError(ValueError):
    """Program source outside the rule language, malformed, or beyond the size limits; the message names the line
    (when there is one) and what is allowed. The only error `parse` and `static_check` raise for any source."""


def _fail(node: Optional[ast.AST], what: str) -> SourceError:
    line = getattr(node, "lineno", None)
    return SourceError(f"{'line ' + str(line) + ': ' if line else ''}{what}; {ALLOWED}")


def _config(node: ast.AST) -> gemm_config.GemmConfig:
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Config"):
        raise _fail(node, "a branch must return `Config(...)`")
    if len(node.args) > len(_FIELD_NAMES):
        raise _fail(node, f"Config takes at most {len(_FIELD_NAMES)} values ({', '.join(_FIELD_NAMES)})")
    values = {}
    for name, arg in list(zip(_FIELD_NAMES, node.args)) + [(kw.arg, kw.value) for kw in node.keywords]:
        if name not in _FIELD_NAMES:
            raise _fail(node, f"Config has no field {name!r} (fields: {', '.join(_FIELD_NAMES)})")
        if name in values:
            raise _fail(node, f"Config field {name!r} is given twice")
        values[name] = _int(arg, f"Config field {name!r}")
    try:
        return gemm_config.GemmConfig(**values)
    except (TypeError, ValueError) as err:
        raise _fail(node, f"invalid Config: {err}") from None


def _int(node: ast.AST, what: str) -> int:
    if isinstance(node, ast.Constant) and type(node.value) is int and 0 <= node.value <= MAX_DIM:
        return node.value
    raise _fail(node, f"{what} must be an integer literal from 0 to {MAX_DIM:,}")


def _return_config(body: list[ast.stmt], owner: ast.AST) -> gemm_config.GemmConfig:
    if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
        raise _fail(body[0] if body else owner, "each branch must be exactly one `return Config(...)`")
    return _config(body[0].value)


def _tighten(bounds: dict[str, list], name: str, op: ast.cmpop, value: int, node: ast.AST) -> None:
    lo, hi = bounds[name]
    if isinstance(op, ast.LtE):
        hi = value if hi is None else min(hi, value)
    elif isinstance(op, ast.Lt):
        hi = value - 1 if hi is None else min(hi, value - 1)
    elif isinstance(op, ast.GtE):
        lo = value if lo is None else max(lo, value)
    elif isinstance(op, ast.Gt):
        lo = value + 1 if lo is None else max(lo, value + 1)
    elif isinstance(op, ast.Eq):
        lo = value if lo is None else max(lo, value)
        hi = value if hi is None else min(hi, value)
    else:
        raise _fail(node, f"comparison {type(op).__name__} is not allowed")
    bounds[name] = [lo, hi]


_FLIP = {ast.Lt: ast.Gt, ast.LtE: ast.GtE, ast.Gt: ast.Lt, ast.GtE: ast.LtE, ast.Eq: ast.Eq}


def _terms(node: ast.expr) -> list[ast.expr]:
    """Return the terms joined by `and`, however they are grouped (`(a and b) and c` is `a and b and c`)."""
    stack, terms = [node], []
    while stack:
        term = stack.pop()
        if isinstance(term, ast.BoolOp) and isinstance(term.op, ast.And):
            stack.extend(reversed(term.values))
        else:
            terms.append(term)
    return terms


def _condition(node: ast.expr) -> dict[str, list]:
    bounds: dict[str, list] = {name: [None, None] for name in VARIABLES}
    for term in _terms(node):
        if isinstance(term, ast.BoolOp):
            raise _fail(term, "`or` is not allowed (write two if-statements)")
        if not isinstance(term, ast.Compare):
            raise _fail(term, "a condition must compare M, N or K with an integer")
        operands = [term.left] + list(term.comparators)
        for left, op, right in zip(operands, term.ops, operands[1:]):
            if type(op) not in _FLIP:
                raise _fail(term, f"comparison {type(op).__name__} is not allowed")
            if isinstance(left, ast.Name) and left.id in VARIABLES:
                _tighten(bounds, left.id, op, _int(right, f"the bound on {left.id}"), term)
            elif isinstance(right, ast.Name) and right.id in VARIABLES:
                _tighten(bounds, right.id, _FLIP[type(op)](), _int(left, f"the bound on {right.id}"), term)
            else:
                raise _fail(term, "each comparison must have M, N or K on one side and an integer literal on the other")
    return bounds


def _check_size(source: str) -> None:
    """Refuse source beyond the limits before Python's parser sees it, quickly and in bounded memory.

    Python's own parser recurses on nesting (brackets, `elif` chains, long operator chains) and fails with a
    RecursionError or MemoryError, or takes seconds and gigabytes on megabytes of source. One pass of the tokenizer
    (streaming, no recursion) bounds the size, the nesting, the branches and the tokens per line first, so that the
    parser is only ever given what it handles in milliseconds. A tokenizer error is left for the parser to report.
    """
    if len(source) > MAX_SOURCE_CHARS:
        raise SourceError(
            f"the source has {len(source):,} characters; at most {MAX_SOURCE_CHARS:,} are allowed (MAX_SOURCE_CHARS)"
        )
    depth = indent = branches = line_tokens = 0
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    while True:
        try:
            token = next(tokens)
        except StopIteration:
            return
        except (tokenize.TokenError, SyntaxError, ValueError):
            return  # malformed: the parser says where and why
        line = token.start[0]
        if token.type == tokenize.OP and token.string in "([{":
            depth += 1
        elif token.type == tokenize.OP and token.string in ")]}":
            depth -= 1
        elif token.type == tokenize.INDENT:
            indent += 1
        elif token.type == tokenize.DEDENT:
            indent -= 1
        elif token.type == tokenize.NAME and token.string in ("if", "elif"):
            branches += 1
        line_tokens = 0 if token.type == tokenize.NEWLINE else line_tokens + 1
        if max(depth, indent) > MAX_NESTING:
            raise SourceError(f"line {line}: nested more than {MAX_NESTING} levels deep (MAX_NESTING); {ALLOWED}")
        if branches > MAX_BRANCHES:
            raise SourceError(f"line {line}: more than {MAX_BRANCHES} if/elif branches (MAX_BRANCHES); {ALLOWED}")
        if line_tokens > MAX_LINE_TOKENS:
            raise SourceError(
                f"line {line}: a statement of more than {MAX_LINE_TOKENS:,} tokens (MAX_LINE_TOKENS); {ALLOWED}"
            )


def _tree(source: str) -> ast.Module:
    """Return the source's syntax tree, or raise SourceError (size limits, then Python's syntax)."""
    if not isinstance(source, str):
        raise SourceError(f"program source must be a string, not {type(source).__name__}")
    _check_size(source)
    try:
        return ast.parse(source)
    except SyntaxError as err:
        where = f"line {err.lineno}: " if err.lineno else ""
        raise SourceError(f"{where}syntax error: {err.msg}; {ALLOWED}") from None
    except (ValueError, RecursionError, MemoryError) as err:  # null bytes, huge literals; the parser's stack guard
        why = str(err)[:80] or "nested too deeply"
        raise SourceError(f"the source cannot be parsed ({type(err).__name__}: {why}); {ALLOWED}") from None


def _parse(source: str) -> tuple[Program, list[int]]:
    """Return the Program written in `source` and the line of every branch's `return` (rules, then the default)."""
    tree = _tree(source)
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.FunctionDef):
        raise _fail(
            tree.body[0] if tree.body else None, "the source must be exactly one function `def choose(M, N, K):`"
        )
    func = tree.body[0]
    args = func.args
    if (
        func.name != "choose"
        or [a.arg for a in args.args] != list(VARIABLES)
        or func.decorator_list
        or args.vararg
        or args.kwarg
        or args.kwonlyargs
        or args.posonlyargs
        or args.defaults
        or func.returns is not None
        or any(a.annotation is not None for a in args.args)
    ):
        raise _fail(func, "the function must be declared exactly as `def choose(M, N, K):`")
    body = collections.deque(func.body)
    if (
        body
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        body.popleft()  # a docstring
    rules: list[Rule] = []
    lines: list[int] = []
    while body:
        stmt = body.popleft()
        if isinstance(stmt, ast.Return):
            if body:
                raise _fail(body[0], "nothing may follow the final `return`")
            if stmt.value is None:
                raise _fail(stmt, "the final statement must be `return Config(...)`")
            return Program(tuple(rules), _config(stmt.value)), lines + [stmt.lineno]
        if not isinstance(stmt, ast.If):
            raise _fail(stmt, f"statement `{type(stmt).__name__}` is not allowed")
        bounds = _condition(stmt.test)
        config = _return_config(stmt.body, stmt)
        try:
            rules.append(Rule(config, *(b for name in VARIABLES for b in bounds[name])))
        except ValueError as err:
            raise _fail(stmt, str(err)) from None
        lines.append(stmt.body[0].lineno)
        body.extendleft(reversed(stmt.orelse))  # elif / else: the else-part comes next
    raise _fail(func, "the function must end with `return Config(...)` (the default)")


def parse(source: str) -> Program:
    """Return the Program written in `source`, reading it with `ast` only (never executing it).

    Raises SourceError (a ValueError) naming the line and what is allowed when the source is malformed, uses anything
    outside the rule language (calls other than Config, loops, other variables, `or`, ...), or is beyond the limits of
    toyhw.checks (MAX_SOURCE_CHARS, MAX_NESTING, MAX_BRANCHES, MAX_LINE_TOKENS).
    """
    return _parse(source)[0]


def static_check(source_or_program: Union[str, Program], gpu: str = "H100") -> tuple[bool, tuple[BranchProblem, ...]]:
    """Return (ok, problems): every branch's config checked for launchability, with the line of its `return`.

    Every branch is checked, including branches that no shape reaches (that is the point: a branch the tests never
    reach is still deployed). A source string is parsed first (a malformed one raises ValueError).
    """
    if isinstance(source_or_program, Program):
        program, lines = source_or_program, None
    else:
        program, lines = _parse(source_or_program)
    device = gpu if isinstance(gpu, gpu_lib.GPU) else gpu_lib.get_gpu(gpu)
    problems = []
    for index, config in enumerate(program.branches()):
        reason = gemm_config.launch_problem(config, device)
        if reason is not None:
            line = lines[index] if lines is not None else branch_line(program, index)
            branch = program.rules[index].condition() if index < len(program.rules) else "default"
            problems.append(BranchProblem(line, branch, config_source(config), reason))
    return not problems, tuple(problems)


__all__ = ["ALLOWED", "BranchProblem", "SourceError", "parse", "render", "static_check"]
