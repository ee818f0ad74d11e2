"""Programs: render/parse round trip, safe parsing with clear errors, the static check by line, and simplify."""

import itertools

import pytest
from hypothesis import given, settings, strategies as st

from toyhw.gemm import expert
from toyhw.gemm.config import FIELDS, GemmConfig, config_space, launch_problem
from toyhw.gemm.gpu import get_gpu
from toyhw.evolve.programs import Program, Rule, branch_line, choose, choose_mnk, expert_program, render
from toyhw.evolve.simplify import simplify
from toyhw.evolve.source import ALLOWED, parse, static_check
from toyhw.gemm.shapes import Shape, all_shapes, new_shapes

H100 = get_gpu("H100")
configs = st.builds(GemmConfig, *(st.sampled_from(v) for v in FIELDS.values()))
bound = st.one_of(st.none(), st.integers(min_value=0, max_value=20_000))


@st.composite
def rules(draw):
    values = [draw(bound) for _ in range(6)]
    if all(v is None for v in values):
        values[draw(st.integers(0, 5))] = draw(st.integers(0, 20_000))
    return Rule(draw(configs), *values)


programs = st.builds(Program, st.lists(rules(), max_size=8).map(tuple), configs)
GOOD = GemmConfig(64, 128, 64, 4, 4, 1)
BAD_SMEM = GemmConfig(128, 256, 64, 8, 5, 1)  # 245,760 B of shared memory
BAD_WARPS = GemmConfig(16, 32, 64, 8, 3, 1)  # 8 warps cannot split a 16x32 tile


@settings(max_examples=300, deadline=None)
@given(programs)
def test_render_parse_round_trip(program):
    source = render(program)
    assert parse(source) == program
    assert render(parse(source)) == source


def test_rendered_source_reads_like_a_heuristic():
    program = Program((Rule(GOOD, m_max=48, k_min=4096), Rule(GOOD, m_min=32, m_max=96)), GOOD)
    lines = render(program).splitlines()
    assert lines[0] == "def choose(M, N, K):"
    assert lines[1] == "    if M <= 48 and K >= 4096:"
    assert lines[2].strip() == (
        "return Config(block_m=64, block_n=128, block_k=64, num_warps=4, num_stages=4, split_k=1)"
    )
    assert lines[3] == "    if 32 <= M <= 96:"


def test_hand_written_source_with_elif_else_and_strict_comparisons():
    source = '''def choose(M, N, K):
    """A student's heuristic."""
    if M < 16:  # decode
        return Config(16, 64, 256, 4, 5, 1)
    elif 512 >= M and N > 2048:
        return Config(block_m=64, block_n=128, block_k=64, num_warps=4, num_stages=4, split_k=1)
    else:
        return Config(128, 128, 64, 8, 3, 1)
'''
    program = parse(source)
    assert program.rules[0] == Rule(GemmConfig(16, 64, 256, 4, 5, 1), m_max=15)
    assert program.rules[1] == Rule(GOOD, m_max=512, n_min=2049)
    assert program.default == GemmConfig(128, 128, 64, 8, 3, 1)


FIELDS_LISTED = "block_m, block_n, block_k, num_warps, num_stages, split_k"


def _choose(*body: str) -> str:
    return "def choose(M, N, K):\n" + "".join(f"    {line}\n" for line in body)


@pytest.mark.parametrize(
    "source, error",
    [
        ("x = 1", "line 1: the source must be exactly one function `def choose(M, N, K):`"),
        (_choose("import os", "return Config()"), "line 2: statement `Import` is not allowed"),
        (
            _choose("if M < 3 or N > 2:", "    return Config()", "return Config()"),
            "line 2: `or` is not allowed (write two if-statements)",
        ),
        (
            _choose("return Config(block_m=17)"),
            "line 2: invalid Config: GemmConfig.block_m = 17 is not allowed; allowed values: [16, 32, 64, 128, 256]",
        ),
        (
            _choose("if M < X:", "    return Config()", "return Config()"),
            "line 2: the bound on M must be an integer literal from 0 to 2,147,483,647",
        ),
        (
            _choose("if X < M:", "    return Config()", "return Config()"),
            "line 2: the bound on M must be an integer literal from 0 to 2,147,483,647",
        ),
        (
            _choose("if M < 4:", "    return __import__('os').system('echo hi')", "return Config()"),
            "line 3: a branch must return `Config(...)`",
        ),
        (
            _choose("if M < 4:", "    return Config()"),
            "line 1: the function must end with `return Config(...)` (the default)",
        ),
        (_choose("return Config()", "return Config()"), "line 3: nothing may follow the final `return`"),
        (_choose("return"), "line 2: the final statement must be `return Config(...)`"),
        (
            "def choose(M, N):\n    return Config()",
            "line 1: the function must be declared exactly as `def choose(M, N, K):`",
        ),
        (
            "@cache\n" + _choose("return Config()"),
            "line 2: the function must be declared exactly as `def choose(M, N, K):`",
        ),
        (
            "def choose(M, N, K, *args):\n    return Config()",
            "line 1: the function must be declared exactly as `def choose(M, N, K):`",
        ),
        (
            "def choose(M, N, K, **kw):\n    return Config()",
            "line 1: the function must be declared exactly as `def choose(M, N, K):`",
        ),
        (
            "def choose(M, N, K, *, x):\n    return Config()",
            "line 1: the function must be declared exactly as `def choose(M, N, K):`",
        ),
        (
            "def choose(A, /, M, N, K):\n    return Config()",
            "line 1: the function must be declared exactly as `def choose(M, N, K):`",
        ),
        (
            "def choose(M, N, K=1):\n    return Config()",
            "line 1: the function must be declared exactly as `def choose(M, N, K):`",
        ),
        ("def choose(M, N, K):\n    if M <\n", "line 2: syntax error: invalid syntax"),
        (_choose("return Config(warps=4)"), f"line 2: Config has no field 'warps' (fields: {FIELDS_LISTED})"),
        (_choose("return Config(16, 16, 32, 2, 2, 1, 7)"), f"line 2: Config takes at most 6 values ({FIELDS_LISTED})"),
        (_choose("return Config(16, block_m=32)"), "line 2: Config field 'block_m' is given twice"),
        (
            _choose("return Config(block_m=16.0)"),
            "line 2: Config field 'block_m' must be an integer literal from 0 to 2,147,483,647",
        ),
        (
            _choose("if M:", "    return Config()", "return Config()"),
            "line 2: a condition must compare M, N or K with an integer",
        ),
        (_choose("if M != 3:", "    return Config()", "return Config()"), "line 2: comparison NotEq is not allowed"),
        (_choose("if M is 3:", "    return Config()", "return Config()"), "line 2: comparison Is is not allowed"),
        (
            _choose("if M < 0:", "    return Config()", "return Config()"),
            "line 2: bound -1 on M is not allowed; bounds are integers from 0 to 2,147,483,647 (MAX_DIM) or None",
        ),
        (
            _choose("if 3 < 4:", "    return Config()", "return Config()"),
            "line 2: each comparison must have M, N or K on one side and an integer literal on the other",
        ),
    ],
)
def test_malformed_source_names_the_line_and_what_is_allowed(source, error):
    with pytest.raises(ValueError) as err:
        parse(source)
    assert str(err.value) == f"{error}; {ALLOWED}"


@pytest.mark.parametrize(
    "condition, bounds",
    [
        ("M <= 96 and M <= 48", dict(m_max=48)),
        ("M <= 30 and M <= 50", dict(m_max=30)),
        ("M < 50 and M < 40", dict(m_max=39)),
        ("M < 40 and M < 50", dict(m_max=39)),
        ("M >= 10 and M >= 20", dict(m_min=20)),
        ("M >= 20 and M >= 10", dict(m_min=20)),
        ("M > 10 and M > 20", dict(m_min=21)),
        ("M > 20 and M > 10", dict(m_min=21)),
        ("48 >= M and 2 < M", dict(m_min=3, m_max=48)),
        ("M >= 3 and M == 5", dict(m_min=5, m_max=5)),
        ("M == 5 and M >= 3 and M <= 9", dict(m_min=5, m_max=5)),
        ("M >= 7 and M == 5", dict(m_min=7, m_max=5)),
        ("M == 5 and M == 7", dict(m_min=7, m_max=5)),
        ("K <= 4 and K == 5", dict(k_min=5, k_max=4)),
        ("N > 10 and 30 > N and N < 20", dict(n_min=11, n_max=19)),
    ],
)
def test_several_bounds_on_one_variable_intersect(condition, bounds):
    program = parse(f"def choose(M, N, K):\n    if {condition}:\n        return Config()\n    return Config()\n")
    assert program.rules == (Rule(GemmConfig(), **bounds),)


@pytest.mark.parametrize(
    "body, line",
    [
        ("        pass\n", 3),
        ("        return\n", 3),
        ("        x = 1\n", 3),
        ("        return Config()\n        return Config()\n", 3),
        ("        x = 1\n        return Config()\n", 3),
    ],
)
def test_a_branch_must_be_exactly_one_return_of_a_config(body, line):
    source = f"def choose(M, N, K):\n    if M < 4:\n{body}    return Config()\n"
    with pytest.raises(ValueError) as err:
        parse(source)
    assert str(err.value).startswith(f"line {line}: each branch must be exactly one `return Config(...)`")


@pytest.mark.parametrize("source, kind", [(None, "NoneType"), (b"def choose(M, N, K): ...", "bytes")])
def test_source_must_be_a_string(source, kind):
    with pytest.raises(ValueError, match=f"^program source must be a string, not {kind}$"):
        parse(source)


@pytest.mark.parametrize("source", ["", "# only a comment\n"])
def test_source_without_any_statement_is_refused_without_a_line(source):
    with pytest.raises(ValueError, match="^the source must be exactly one function `def choose"):
        parse(source)


def test_parse_never_executes_the_source(tmp_path):
    marker = tmp_path / "ran"
    source = f"def choose(M, N, K):\n    open({str(marker)!r}, 'w')\n    return Config()"
    with pytest.raises(ValueError):
        parse(source)
    assert not marker.exists()


def test_static_check_reports_every_bad_branch_by_line():
    program = Program((Rule(GOOD, m_max=16), Rule(BAD_SMEM, m_min=5000, m_max=6000), Rule(BAD_WARPS, n_max=10)), GOOD)
    ok, problems = static_check(render(program))
    assert not ok
    assert [p.line for p in problems] == [5, 7]
    assert "shared memory, Required: 245760" in problems[0].message()
    assert problems[0].message().startswith("line 5 (if 5000 <= M <= 6000): Config(block_m=128")
    assert "warp tiling" in problems[1].reason
    assert static_check(program) == (ok, problems)


@settings(max_examples=200, deadline=None)
@given(programs)
def test_static_check_finds_exactly_the_unlaunchable_branches(program):
    ok, problems = static_check(program)
    expected = [branch_line(program, i) for i, c in enumerate(program.branches()) if launch_problem(c, H100)]
    assert [p.line for p in problems] == expected and ok == (not expected)
    assert [p.line for p in static_check(render(program))[1]] == expected


def test_a_bad_default_is_reported_as_the_default_branch():
    ok, (problem,) = static_check(Program((Rule(GOOD, m_max=16),), BAD_SMEM))
    assert not ok and (problem.line, problem.branch) == (4, "default")
    assert problem.message().startswith(
        "line 4 (default): Config(block_m=128, block_n=256, block_k=64, num_warps=8, "
        "num_stages=5, split_k=1) cannot launch: out of resource: shared memory"
    )


def test_static_check_on_another_gpu_by_name_or_spec():
    """The expert's 5-stage decode config needs more shared memory than an A100 gives one block."""
    by_name, by_spec = static_check(expert_program(), "A100"), static_check(expert_program(), get_gpu("A100"))
    assert by_name == by_spec and not by_name[0]
    assert [p.branch for p in by_name[1]] == ["M <= 16"]


def test_static_check_passes_the_expert_and_uses_the_lines_of_hand_written_source():
    assert static_check(expert_program()) == (True, ())
    source = (
        "def choose(M, N, K):\n\n    if M <= 4:\n\n        return Config(128, 256, 64, 8, 5, 1)\n    return Config()"
    )
    assert [p.line for p in static_check(source)[1]] == [5]


def test_expert_program_matches_the_expert_heuristic():
    program = expert_program()
    assert program.n_rules() == 3
    for shape in all_shapes() + new_shapes():
        assert choose(program, shape) == expert.expert_config(shape)


PROBES = [
    Shape("probe", m, n, k)
    for m, n, k in itertools.product(
        (1, 2, 3, 15, 16, 17, 48, 49, 95, 96, 97, 512, 513, 4095, 4096, 9000),
        (16, 1280, 4096, 8192, 30000),
        (512, 1024, 4096, 8192, 16384),
    )
]


@settings(max_examples=200, deadline=None)
@given(programs)
def test_simplify_keeps_behaviour_everywhere_and_never_adds_rules(program):
    simple = simplify(program)
    assert simple.n_rules() <= program.n_rules()
    bounds = sorted({b for r in program.rules for pair in r.bounds() for b in pair if b is not None})
    probes = PROBES + [Shape("edge", v + d, v + d, v + d) for v in bounds for d in (-1, 0, 1) if v + d >= 1]
    for shape in probes + all_shapes() + new_shapes():
        assert choose(simple, shape) == choose(program, shape)


def _cell_points(program):
    """One (M, N, K) per cell of the grid that the rules' bounds cut [0, inf)^3 into (every condition is constant on
    a cell)."""
    axes = []
    for axis in range(3):
        cuts = {0}
        for rule in program.rules:
            lo, hi = rule.bounds()[axis]
            cuts |= {lo} if lo is not None else set()
            cuts |= {hi + 1} if hi is not None else set()
        axes.append(sorted(cuts))
    return list(itertools.product(*axes))


@settings(max_examples=150, deadline=None)
@given(programs)
def test_simplify_leaves_no_rule_that_could_go(program):
    """Minimal, not only safe: dropping any rule that simplify kept changes the choice somewhere."""
    simple = simplify(program)
    points = _cell_points(program)
    for i in range(len(simple.rules)):
        fewer = Program(simple.rules[:i] + simple.rules[i + 1 :], simple.default)
        assert any(choose_mnk(fewer, *p) != choose_mnk(simple, *p) for p in points)


def test_simplify_keeps_a_rule_that_decides_one_value_just_past_another_rule():
    """Rule 2 decides M = 11 alone (rule 1 takes M <= 10): the cell right after a bound must be looked at."""
    program = Program((Rule(GOOD, m_max=10), Rule(BAD_WARPS, m_max=11)), GemmConfig())
    assert simplify(program) == program


def test_simplify_drops_a_rule_whose_points_a_later_rule_decides_the_same_way():
    """Without rule 2, M = 11..20 falls to rule 3, which returns the same config: rule 2 goes, rules 1 and 3 stay."""
    first, second, third = Rule(GOOD, m_max=10), Rule(BAD_WARPS, m_max=20), Rule(BAD_WARPS, m_min=5)
    assert simplify(Program((first, second, third), GemmConfig())) == Program((first, third), GemmConfig())


def test_simplify_drops_dead_and_redundant_rules():
    program = Program(
        (Rule(GOOD, m_max=16), Rule(BAD_SMEM, m_max=8), Rule(GOOD, m_min=10, m_max=5), Rule(GemmConfig(), m_min=100)),
        GemmConfig(),
    )
    assert simplify(program) == Program((Rule(GOOD, m_max=16),), GemmConfig())
    assert simplify(program).n_rules() == 2


def test_a_rule_is_empty_when_some_interval_is_empty():
    assert Rule(GOOD, m_min=10, m_max=5).is_empty() and Rule(GOOD, n_min=2, k_min=8, k_max=7).is_empty()
    assert not Rule(GOOD, m_min=5, m_max=5).is_empty() and not Rule(GOOD, m_min=5).is_empty()
    assert not Rule(GOOD, m_max=5, n_min=9).is_empty()


def test_hashes_are_the_dataclass_hash_of_the_fields_and_are_not_pickled():
    """The cached hash is the value the dataclass's own hash would give; a pickle carries no cached hash (string
    hashes differ between processes) and unpickles to an equal program with the same hash here."""
    import pickle

    rule = Rule(GOOD, m_min=32, m_max=96, k_min=4096)
    program = Program((rule, Rule(BAD_WARPS, n_max=10)), GOOD)
    assert hash(rule) == hash((GOOD, 32, 96, None, None, 4096, None))
    assert hash(program) == hash((program.rules, GOOD))
    assert (rule.__dict__["_hash"], program.__dict__["_hash"]) == (hash(rule), hash(program))  # cached once
    assert "_hash" not in rule.__getstate__() and "_hash" not in program.__getstate__()
    assert rule.__getstate__() == {k: v for k, v in rule.__dict__.items() if k != "_hash"}
    copy = pickle.loads(pickle.dumps(program))
    assert copy == program and hash(copy) == hash(program) and "_hash" not in copy.rules[0].__getstate__()


def test_rule_without_conditions_is_refused():
    with pytest.raises(ValueError, match="^a rule needs at least one condition on M, N or K; use the program's"):
        Rule(GOOD)


@pytest.mark.parametrize(
    "bounds, message",
    [
        (dict(m_min=-1), "bound -1 on M is not allowed"),
        (dict(n_max=True), "bound True on N is not allowed"),
        (dict(k_min=2.0), "bound 2.0 on K is not allowed"),
        (dict(m_max=5, k_max=-3), "bound -3 on K is not allowed"),
    ],
)
def test_rule_bounds_must_be_integers_at_least_zero(bounds, message):
    bounds_allowed = r"bounds are integers from 0 to 2,147,483,647 \(MAX_DIM\) or None"
    with pytest.raises(ValueError, match=rf"^{message}; {bounds_allowed}$"):
        Rule(GOOD, **bounds)


def test_a_zero_bound_is_allowed_and_the_refusal_names_the_bad_bound():
    assert Rule(GOOD, m_min=0).m_min == 0
    with pytest.raises(ValueError, match="^bound -1 on N is not allowed"):
        Rule(GOOD, m_min=0, n_max=-1)


def test_an_exact_bound_renders_as_equality_and_an_unhashed_program_pickles():
    import pickle

    program = Program((Rule(GOOD, m_min=5, m_max=5),), GOOD)
    assert render(program).splitlines()[1] == "    if M == 5:"
    assert pickle.loads(pickle.dumps(program)) == program  # never hashed: no cached hash to leave out


def test_with_config_keeps_every_bound_and_a_program_keeps_its_rules_as_a_tuple():
    rule = Rule(GOOD, 1, 2, 3, 4, 5, 6)
    assert rule.with_config(BAD_SMEM) == Rule(BAD_SMEM, 1, 2, 3, 4, 5, 6)
    program = Program([rule], GOOD)
    assert program.rules == (rule,) and hash(program) == hash(Program((rule,), GOOD))


def test_every_config_of_the_space_renders_and_parses():
    for config in config_space()[::97]:
        program = Program((Rule(config, m_max=1),), config)
        assert parse(render(program)) == program
