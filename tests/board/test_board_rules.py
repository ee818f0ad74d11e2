"""The leaderboard's rules without a server process: the held-out shapes, the scores, the rate limit, one entry per
student replaced only with the class code, the client's one-line answers in the notebook's language, and the page."""

from __future__ import annotations

import hashlib
import json

import pytest

from toyhw import i18n
from toyhw.course.board import client, protocol, scoring, shapes as board_shapes
from toyhw.course.board.board import Board, ranked
from toyhw.course.board.server import Listening
from toyhw.course.board.store import Store, name_key
from toyhw.evolve.experiments import ablations
from toyhw.evolve.programs import expert_program, render
from toyhw.gemm import shapes as shapes_lib

EXPERT = render(expert_program())
BETTER = EXPERT.replace("if M <= 128:", "if M <= 96:")


def test_the_held_out_shapes_are_none_the_notebooks_show_and_the_same_everywhere():
    held = board_shapes.held_out_shapes()
    ctx = ablations.context()
    shown = {(s.M, s.N, s.K) for s in ctx.train + ctx.test + ctx.new}
    assert len(held) == 60 and len(set(held)) == 60
    assert not shown & {(s.M, s.N, s.K) for s in held}
    assert not {s.M for s in held} & (set(shapes_lib.LECTURE_M) | set(shapes_lib.NEW_M))
    assert not {s.name for s in held} & (set(shapes_lib.LECTURE_LAYERS) | set(shapes_lib.NEW_LAYERS))
    for layer in board_shapes.held_out_layers():
        regimes = sorted(shapes_lib.regime(s.M) for s in held if s.name == layer)
        assert regimes == ["decode", "mid", "mid", "prefill"], layer
    # integers from SHA-256 only: the same list on every platform and Python (a changed draw is a changed board)
    digest = hashlib.sha256(repr([(s.name, s.M, s.N, s.K) for s in held]).encode()).hexdigest()[:16]
    assert digest == "971ad8fd964ae13a"


def test_the_fixed_rows_are_the_packages_own_scores():
    rows = dict(scoring.fixed_rows())
    assert rows["expert"] == scoring.Scores(1.0, 1.0)
    ctx = ablations.context()
    assert rows["oracle"].train == ctx.oracle_train
    best = ablations.run_one(*scoring.EVOLVED_RUN)
    assert rows["evolved"].train == pytest.approx(best.final, rel=1e-12)
    assert 1.0 < rows["evolved"].held_out < rows["evolved"].train < rows["oracle"].train


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def board(tmp_path):
    store = Store(tmp_path / "b.sqlite3")
    clock = Clock()
    yield Board(store, wait=10, clock=clock), clock
    store.close()


def _body(source: str, name: str, code: str) -> bytes:
    return protocol.submission_body(source, name, code)


def test_one_entry_per_student_replaced_only_with_the_code_and_rate_limited(board):
    board, clock = board
    status, first = board.submit(_body(EXPERT, "Ada", board.code))
    assert status == 200 and first["kind"] == "accepted"
    status, again = board.submit(_body(BETTER, "ADA", board.code))
    assert status == 429 and again["kind"] == "rate" and "wait 10 s" in again["message"]
    status, stranger = board.submit(_body(BETTER, "Ada", "WRONG-CODE"))
    assert status == 403 and stranger["kind"] == "code"
    clock.now += 10
    status, replaced = board.submit(_body(BETTER, "ａｄａ", board.code.lower().replace("-", "")))
    assert status == 200 and replaced["kind"] == "replaced", replaced
    students = [r for r in board.table()["rows"] if r["kind"] == "student"]
    assert len(students) == 1 and students[0]["name"] == "ａｄａ"
    assert students[0]["held_out"] == scoring.program_scores(scoring.check_source(BETTER)).held_out
    assert name_key("ＡＤＡ") == name_key("ada")


def test_a_refused_program_keeps_the_earlier_entry_and_still_counts_for_the_rate(board):
    board, clock = board
    board.submit(_body(EXPERT, "Bob", board.code))
    clock.now += 10
    status, bad = board.submit(_body("def choose(M, N, K):\n    return 1\n", "Bob", board.code))
    assert status == 400 and bad["kind"] == "source" and bad["message"].startswith("refused: line 2: ")
    assert board.submit(_body(EXPERT, "Bob", board.code))[1]["kind"] == "rate"
    assert [r["name"] for r in board.table()["rows"] if r["kind"] == "student"] == ["Bob"]


def test_the_ranking_puts_the_best_held_out_score_first_and_a_fixed_row_before_an_equal_student():
    rows = ranked([])
    assert [r["kind"] for r in rows] == ["oracle", "evolved", "expert"]
    assert [r["rank"] for r in rows] == [1, 2, 3]


def test_the_client_checks_locally_without_a_url_and_says_so_in_one_line():
    verdict = client.submit(EXPERT, name="Ada")
    assert verdict.ok and "training score 1.000" in str(verdict) and "not sent" in str(verdict)
    bad = client.submit(EXPERT.replace("num_stages=3", "num_stages=5"), name="Ada")
    assert not bad.ok and "cannot launch" in str(bad) and "\n" not in str(bad)
    assert not client.submit(b"def choose", name="Ada", url="http://127.0.0.1:9").ok


def test_the_client_answers_in_the_notebooks_language_and_names_an_absent_board(tmp_path):
    with Listening(Board(Store(tmp_path / "b.sqlite3"), wait=0), "127.0.0.1", 0) as served:
        with i18n.using("zh"):
            verdict = client.submit(EXPERT, name="李华", url=served.url, code=served.board.code)
            assert verdict.ok and str(verdict).startswith("✓ 李华：第 ") and "测试形状" in str(verdict)
            refused = client.submit(EXPERT, name="李华", url=served.url, code="no")
            assert str(refused) == "✗ 拒收：班级口令不对（老师的屏幕上有）"
        page = __import__("urllib.request").request.urlopen(served.url + "/", timeout=10)
        assert "script-src 'self'" in page.headers["Content-Security-Policy"]
        url = served.url
    gone = client.submit(EXPERT, name="Ada", url=url, code="x")
    assert not gone.ok and str(gone).startswith(f"✗ no board answers at {url} (")


def test_every_refusal_kind_has_a_line_and_a_status():
    params = {
        "too_big": {"size": "1", "limit": "2"},
        "not_utf8": {"position": 3},
        "name_long": {"length": 41, "limit": 40},
        "rate": {"name": "a", "seconds": 3},
        "source": {"message": "m"},
        "branch": {"line": 3, "branch": "M <= 3", "config": "Config()", "reason": "r"},
        "full": {"limit": 1},
        "not_found": {"path": "/x"},
    }
    for kind in protocol.REFUSALS:
        refusal = protocol.Refusal(kind, params.get(kind, {}))
        assert refusal.line().startswith("refused: ") and "\n" not in refusal.line()
        assert 400 <= refusal.status < 600
    assert json.loads(protocol.submission_body("s", "n", "c")) == {"source": "s", "name": "n", "code": "c"}
