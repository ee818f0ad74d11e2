"""`--lang en|zh` and TOYHW_LANG on every command: the zh fastp table is the lecture script's demo-2 table line for
line, tables align by display width, --json does not change with the language, an unknown language is one line."""

import json
import os
import pathlib
import subprocess
import sys

import pytest

from toyhw import cli, i18n
from toyhw.textwidth import display_width, pad

DATA = pathlib.Path(__file__).parent / "data"
SCRIPT_OUTPUT = DATA / "lecture10_script_stdout.txt"
"""The lecture-10 script's stdout (seed000_fastp_feedback.py run as it is): demo 1's lines, then demo 2's table."""


def script_table() -> list[str]:
    """Return demo 2's table as the script prints it: the head line ("反馈 ... 50 轮") and one line per mode."""
    lines = SCRIPT_OUTPUT.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("反馈 "))
    return lines[start : start + 5]


def run(capsys, *args) -> str:
    assert cli.main(list(args)) == 0
    return capsys.readouterr().out


def test_zh_fastp_table_is_the_scripts_line_for_line(capsys):
    table = script_table()
    assert len(table) == 5 and table[1].startswith("重复采样（不用反馈）")
    out = run(capsys, "fastp", "--lang", "zh").splitlines()
    assert out[-5:] == table


def test_the_environment_variable_gives_the_same_table(capsys, monkeypatch):
    monkeypatch.setenv(i18n.ENV_VAR, "zh")
    assert run(capsys, "fastp").splitlines()[-5:] == script_table()
    assert run(capsys, "fastp", "--lang", "en").splitlines()[-5].startswith("feedback ")


def test_english_fastp_table_is_unchanged(capsys, monkeypatch):
    monkeypatch.delenv(i18n.ENV_VAR, raising=False)
    out = run(capsys, "fastp").splitlines()
    assert out[0] == "One-shot kernels: compile error 27.0%, wrong 31.0%, correct 42.0%"
    assert out[-5] == "feedback" + " " * 4 + "".join(f"{r} rounds".rjust(16) for r in (5, 10, 20, 50))
    assert out[-2] == "explain          0.83 / 0.24     0.94 / 0.39     0.98 / 0.45     0.99 / 0.49"


def test_json_is_the_same_in_every_language(capsys):
    outputs = {
        lang: json.loads(run(capsys, "fastp", "--json", "--tasks", "30", "--lang", lang)) for lang in i18n.LANGUAGES
    }
    assert outputs["zh"] == outputs["en"]


def test_language_of_one_call_does_not_leak_into_the_next(capsys, monkeypatch):
    monkeypatch.delenv(i18n.ENV_VAR, raising=False)
    run(capsys, "fastp", "--lang", "zh", "--tasks", "10")
    assert i18n.language() == "en"


ALLOWED = "languages: en, zh (any spelling of them, e.g. ZH, zh_CN, zh-Hans, en_US.UTF-8)"


@pytest.mark.parametrize("command", cli.COMMANDS)
def test_unknown_lang_is_one_line_naming_the_value_and_the_languages(command):
    proc = subprocess.run([sys.executable, "-m", "toyhw", command, "--lang", "fr"], capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == f"python -m toyhw {command}: error: --lang = 'fr' is not allowed; {ALLOWED}\n"


def test_unknown_environment_language_is_one_warning_and_the_english_table():
    """As a shell does with a locale it lacks: one line naming the variable, then the command in English."""
    env = {**os.environ, i18n.ENV_VAR: "de"}
    proc = subprocess.run(
        [sys.executable, "-m", "toyhw", "fastp", "--tasks", "5"], capture_output=True, text=True, env=env
    )
    assert proc.returncode == 0 and proc.stdout.startswith("One-shot kernels: ")
    assert proc.stderr == f"toyhw: TOYHW_LANG = 'de' is not allowed; {ALLOWED}; showing en\n"


@pytest.mark.parametrize("spelling", ["ZH", "zh_CN", "zh-Hans", "zh_CN.UTF-8"])
def test_a_language_in_another_spelling_selects_it_by_option_and_variable(spelling, capsys, monkeypatch):
    monkeypatch.delenv(i18n.ENV_VAR, raising=False)
    assert run(capsys, "fastp", "--lang", spelling).splitlines()[-5:] == script_table()
    monkeypatch.setenv(i18n.ENV_VAR, spelling)
    assert run(capsys, "fastp").splitlines()[-5:] == script_table()
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("encoding", ["ascii", "latin-1", "cp1252"])
@pytest.mark.parametrize("command", ["fastp", "branches", "validate"])
def test_chinese_on_a_terminal_that_cannot_show_it_is_one_line_before_any_work(command, encoding):
    """Not a UnicodeEncodeError traceback after the run: refused at once, in English (the terminal cannot show
    Chinese), with the ways out; --json (ASCII) and English still work there."""
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    proc = subprocess.run(
        [sys.executable, "-m", "toyhw", command, "--lang", "zh"], capture_output=True, text=True, env=env
    )
    assert proc.returncode == 2 and proc.stdout == "" and "Traceback" not in proc.stderr
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith(f"python -m toyhw {command}: error: --lang zh: ")
    assert "cannot show the language's text" in proc.stderr and "PYTHONIOENCODING=utf-8" in proc.stderr
    env_zh = {**env, i18n.ENV_VAR: "zh"}
    proc = subprocess.run([sys.executable, "-m", "toyhw", command], capture_output=True, text=True, env=env_zh)
    assert proc.returncode == 2 and proc.stderr.startswith(f"python -m toyhw {command}: error: TOYHW_LANG=zh: ")
    quick = {"fastp": ["--tasks", "5"], "branches": ["--seeds", "0", "--budget", "20"], "validate": []}[command]
    proc = subprocess.run(
        [sys.executable, "-m", "toyhw", command, *quick, "--lang", "zh", "--json"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert proc.returncode == 0 and json.loads(proc.stdout) and proc.stderr == ""
    proc = subprocess.run([sys.executable, "-m", "toyhw", command, *quick], capture_output=True, text=True, env=env)
    assert proc.returncode == 0 and proc.stderr == ""


def test_the_c_locale_gets_output_it_can_show_or_one_line():
    """LANG=C: Python reads it as UTF-8 (PEP 538/540), so the table prints; never a traceback."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONIOENCODING", "PYTHONUTF8")}
    env.update(LANG="C", LC_ALL="C")
    proc = subprocess.run(
        [sys.executable, "-m", "toyhw", "fastp", "--tasks", "5", "--lang", "zh"], capture_output=True, env=env
    )
    assert "Traceback" not in proc.stderr.decode(errors="replace")
    assert (proc.returncode, proc.stderr) == (0, b"") or (proc.returncode == 2 and proc.stderr.count(b"\n") == 1)


def test_an_english_character_the_terminal_lacks_is_shown_as_a_question_mark(monkeypatch, capsys):
    import io

    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="ascii")
    monkeypatch.setattr(sys, "stdout", out)
    assert cli._write("branches", "bad branches — none") == 0
    assert raw.getvalue() == b"bad branches ? none\n"


def test_pad_counts_a_wide_character_as_two_columns():
    assert display_width("只有标量反馈") == 12 and display_width("（）") == 4 and display_width("é×") == 2
    assert pad("反馈", 6) == "反馈  " and pad("5 轮", 6, right=True) == "  5 轮"
    assert pad("toolong", 3) == "toolong"


TABLES = {  # command and small arguments -> (first table line's index, number of table lines)
    ("fastp", "--tasks", "20", "--rounds", "5,10"): (4, 5),
    ("branches", "--seeds", "0,1", "--budget", "40"): (0, 5),
    ("ablations", "--seeds", "0", "--budget", "40"): (1, 10),
    ("validate",): (0, 54),
}


@pytest.mark.parametrize("args", list(TABLES), ids=lambda a: a[0])
@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_every_table_line_has_its_heads_display_width(capsys, args, language):
    """Right-aligned cells end where their heads end: every line of a table is as wide as its head line."""
    start, count = TABLES[args]
    lines = run(capsys, *args, "--lang", language).splitlines()[start : start + count]
    assert len(lines) == count
    assert {display_width(line) for line in lines} == {display_width(lines[0])}, "\n".join(lines)


def test_zh_tables_have_the_catalogues_heads(capsys):
    assert run(capsys, "branches", "--seeds", "0", "--budget", "20", "--lang", "zh").startswith("检查  ")
    lines = run(capsys, "ablations", "--seeds", "0", "--budget", "20", "--lang", "zh").splitlines()
    assert lines[1].startswith("变体 ")


def test_gemm_times_line_up_in_every_language(capsys):
    for language in i18n.LANGUAGES:
        lines = run(capsys, "gemm", "--lang", language).splitlines()[1:4]
        ends = {display_width(line[: line.index(" us") + 3]) for line in lines}
        assert len(ends) == 1, "\n".join(lines)


def test_prompt_keeps_the_models_text_and_says_the_rest_in_chinese(capsys):
    english = run(capsys, "prompt", "--lang", "en")
    chinese = run(capsys, "prompt", "--lang", "zh")
    assert english.split("\n---")[0] == chinese.split("\n---")[0]  # the prompt the model reads
    assert "--- full，种子 0，第 100 步：" in chinese and "--- full, seed 0, step 100: " in english
