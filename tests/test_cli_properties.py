"""Property: whatever arguments `python -m toyhw` is given, it prints a result (exit 0) or one error line (exit 2) —
never a traceback. The commands run in this process (their results cached), with small sizes among the values so
that the valid argument lists stay quick."""

from __future__ import annotations

import contextlib
import io

from hypothesis import event, given, settings, strategies as st

from toyhw import cli

OWN = {  # each command's options, with values that are valid and small (so that a valid list runs quickly)
    "fastp": {"--seed": ["0", "3", "230"], "--tasks": ["3", "7"], "--rounds": ["5", "1,3"]},
    "ablations": {
        "--seeds": ["0", "1,0"],
        "--budget": ["7", "12"],
        "--variants": ["full", "small_llm,full"],
        "--workers": ["1"],
    },
    "targeting": {"--seed": ["0", "4"], "--budget": ["7", "20"]},
    "branches": {"--seeds": ["0", "2"], "--budget": ["7", "12"]},
    "gemm": {
        "--gpu": ["H100", "a100", "L40S"],
        "--layer": ["8B qkv", "70B/8 o"],
        "--m": ["1", "16"],
        "--shape": ["16x64x64", "2x3x5"],
    },
}
OPTIONS = sorted({option for options in OWN.values() for option in options} | {"--json", "--bogus", "-h"})
BAD = [
    "-3",
    "-0",
    "",
    " ",
    ",",
    "0,0",
    "5,5",
    "full,full",
    "1000000000",
    "9" * 30,
    "1e3",
    "0x10",
    "1_000",
    "٣",
    "abc",
    "nan",
    "V100",
    "9B qkv",
    "12x0x5",
    "axbxc",
    "--json",
    "-",
    "None",
    "0,-1",
    "\x1b[2J",
]
token = st.one_of(
    st.sampled_from(BAD + [v for options in OWN.values() for vs in options.values() for v in vs]), st.text(max_size=6)
)


@st.composite
def argument_lists(draw) -> list[str]:
    """A command (or a wrong one), then options — mostly its own, with mostly valid values — and now and then junk,
    a missing value or another command's option."""
    command = draw(st.sampled_from(cli.COMMANDS + cli.COMMANDS + ("", "fast", "-x")))
    own = OWN.get(command, {})
    argv = [command]
    for _ in range(draw(st.integers(0, 4))):
        option = (
            draw(st.sampled_from(sorted(own))) if own and draw(st.integers(0, 4)) else draw(st.sampled_from(OPTIONS))
        )
        argv.append(option)
        kind = draw(st.integers(0, 9))
        if option in own and kind < 6:
            argv.append(draw(st.sampled_from(own[option])))
        elif kind < 9:
            argv.append(draw(token))
    if command in ("ablations", "branches", "targeting") and "--budget" not in argv:
        argv += ["--budget", "7"]  # the default 1000-program runs are valid but would take the test's time budget
    if command == "ablations" and "--seeds" not in argv:
        argv += ["--seeds", "0"]
    return argv


def _run(argv: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(argv)
        except SystemExit as exit_:  # argparse's errors and --help
            code = exit_.code
    return code, err.getvalue()


@settings(max_examples=200)
@given(argument_lists())
def test_any_argument_list_gives_a_result_or_one_error_line(argv):
    code, err = _run(argv)
    event(f"{argv[0] or 'no command'}: exit {code}")
    assert code in (0, 2), (argv, code, err)
    assert "Traceback" not in err
    if code == 2:
        assert err.rstrip("\n").split("\n")[-1].startswith("python -m toyhw"), err  # one line (not splitlines:
        # a control character of the input may be echoed, and splitlines cuts at some)


@settings(max_examples=150)
@given(st.lists(token, max_size=5))
def test_random_words_give_a_result_or_one_error_line(argv):
    if argv and argv[0] in ("ablations", "branches", "targeting"):
        argv = argv + ["--budget", "7"]
    code, err = _run(argv)
    assert code in (0, 2) and "Traceback" not in err, (argv, code, err)
