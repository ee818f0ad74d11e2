"""What a check's verdict says in its own words, for the tests that hold the zh verdicts to Chinese
(tests/course/test_check_language_nb01_04.py and nb05_08.py): code spans, a student's values, the text of an error as
raised and the Triton-worded launch errors are not the check's words and may stay English."""

from __future__ import annotations

import re

CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
ENGLISH_RUN = re.compile(r"(?:\b[A-Za-z][A-Za-z'’-]+\b[\s,;:.()/&-]*){6,}")
"""Six English words in a row: a sentence left untranslated (a word with `_` or a digit in it is an identifier)."""
NOT_PROSE = [
    re.compile(r"`[^`]*`"),  # code spans
    re.compile(r"'[^']*'|\"[^\"]*\""),  # the reprs of a student's values, keys and column names
    re.compile(r"抛出了 \w+：.*$"),  # the error's own text, as Python (or the student's code) raised it
    re.compile(r"不能启动：.*$"),  # the launch error, worded like Triton's (toyhw.gemm.config.launch_problem)
]


def english_left(reason: str) -> list[str]:
    """Runs of six or more English words in a verdict's reason, outside code, values and raised errors' texts."""
    for pattern in NOT_PROSE:
        reason = pattern.sub(" ", reason)
    return [m.group(0).strip() for m in ENGLISH_RUN.finditer(reason)]
