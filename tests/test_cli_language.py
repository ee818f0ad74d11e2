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


@pytest.mark.parametrize("command", cli.COMMANDS)
def test_unknown_lang_is_one_line_naming_the_value_and_the_languages(command):
    proc = subprocess.run([sys.executable, "-m", "toyhw", command, "--lang", "fr"], capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == (f"python -m toyhw {command}: error: --lang = 'fr' is not allowed; languages: en, zh\n")


def test_unknown_environment_language_is_one_line_naming_the_variable():
    env = {**os.environ, i18n.ENV_VAR: "de"}
    proc = subprocess.run(
        [sys.executable, "-m", "toyhw", "fastp", "--tasks", "5"], capture_output=True, text=True, env=env
    )
    assert proc.returncode == 2
    assert proc.stderr == "python -m toyhw fastp: error: TOYHW_LANG = 'de' is not allowed; languages: en, zh\n"


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
