"""The server's hints. Where the judge may show its values (each test sets their measured error,
support.judging: the shipped weights change) its hint comes at once, every legal move valued, and
a seat may have one at every decision of its own (issue 43, item 2). Elsewhere (namu) the expert
searches, and its values are never a handful of deals' noise without a word: a search
that reached fewer than ``HINT_DEALS`` deals in ``HINT_SECONDS`` (a cold or busy hint worker) goes
on for that many, at most ``HINT_LONGEST`` seconds, and the ``hint`` message says how many deals it
weighed and whether that is still too few (``rough``), for the page to say so."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from support.judging import values_checked
from support.server import create
from support.server import hello
from support.server import make_app
from thirtyone import Game
from thirtyone import Rules
from thirtyone.bots.expert import ExpertBot
from thirtyone.bots.judge import JudgeBot
from thirtyone.bots.work import Hint
from thirtyone.bots.work import expert_hint
from thirtyone.bots.work import judge_hint
from thirtyone.server import hints as hints_module
from thirtyone.server.hints import HINT_DEALS
from thirtyone.server.hints import HINT_SECONDS


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(make_app(tmp_path / "t.db", messages_per_second=1000.0, message_burst=1000)) as test_client:
        yield test_client


def test_expert_hint_searches_on_until_it_has_weighed_enough_deals() -> None:
    game = Game(Rules(), 3, seed=1)
    view = game.view(game.current_seat)
    assert len(view.legal_actions) > 1
    hurried = expert_hint(view, 7, 1e-6)  # a search given (almost) no time: a deal or two
    assert hurried.deals is not None
    assert hurried.deals < 20
    hint = expert_hint(view, 7, 1e-6, deals=20, longest=60.0)
    assert hint.deals == 20
    assert {move for move, _ in hint.moves} == {str(action) for action in view.legal_actions}


def cold(deals: int, *, again: bool) -> Any:
    """An ExpertBot.analyse that, in the hint's own seconds, weighs only ``deals`` deals (a cold or
    busy worker), and with ``again`` as few when it searches on for more."""
    analyse = ExpertBot.analyse

    def analysing(self: ExpertBot, view: Any, legal: Any = None) -> Any:
        if self.seconds == HINT_SECONDS or again:
            self.worlds = deals
        return analyse(self, view, legal)

    return analysing


def asked(client: TestClient, preset: str = "namu") -> dict[str, Any]:
    """A hint for Ann's first decision with a choice at a new table of ``preset`` (namu: the
    judge's weights were not made for it, the expert searches)."""
    created = create(client, ["human", "easy", "easy"], preset=preset, name="Ann")
    with client.websocket_connect(f"/ws/tables/{created['code']}") as ws:
        ann = hello(ws, created["token"], 0)
        state = ann.settle()
        while len(state["view"]["legal_actions"]) < 2:  # a forced move: no search
            ann.act(state["view"]["legal_actions"][0])
            state = ann.settle(state["seq"])
        ann.ws.send_json({"type": "hint"})
        return ann.until("hint", timeout=30)


def test_a_cold_hint_waits_for_enough_deals(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue: on a fresh server the first hint's values were two to four deals' noise."""
    monkeypatch.setattr(ExpertBot, "analyse", cold(3, again=False))
    hint = asked(client)
    assert (hint["deals"], hint["rough"]) == (HINT_DEALS, False)


def test_a_hint_that_still_has_few_deals_says_it_is_rough(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ExpertBot, "analyse", cold(3, again=True))
    hint = asked(client)
    assert (hint["deals"], hint["rough"]) == (3, True)


def test_a_hint_without_a_search_has_no_deals_and_is_not_rough() -> None:
    game = Game(Rules(), 2, seed=1)
    view = game.view(game.current_seat)
    told = hints_module.hint_json(3, Hint([(str(view.legal_actions[0]), None)], []), view)
    assert (told["deals"], told["rough"]) == (None, False)


def searched(self: ExpertBot, view: Any, legal: Any = None) -> Any:
    raise AssertionError("the expert searched where the judge plays the table")


def test_where_the_judge_plays_the_table_it_hints_every_move_best_first_without_a_search(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    values_checked(monkeypatch)
    monkeypatch.setattr(ExpertBot, "analyse", searched)
    hint = asked(client, "scat")
    values = [move["value"] for move in hint["moves"]]
    assert all(isinstance(value, float) for value in values)
    assert values == sorted(values, reverse=True)
    assert hint["action"] == hint["moves"][0]["action"]
    assert (hint["deals"], hint["rough"]) == (None, False)  # the network's values: nothing sampled


def test_the_judges_hints_are_one_at_every_decision_not_counted_against_the_experts_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``hints_per_round`` bounds the expert's searches (0.3 s or more each); the judge's hint
    takes milliseconds, so a seat at a table the judge plays has one at every decision of its own."""
    judged: list[int] = []

    def judging(view: Any) -> Hint:
        judged.append(view.seat)
        return judge_hint(view)

    values_checked(monkeypatch)
    monkeypatch.setattr(hints_module, "judge_hint", judging)
    with TestClient(make_app(tmp_path / "t.db", messages_per_second=1000.0, hints_per_round=1)) as test_client:
        created = create(test_client, ["human", "easy"], name="Ann")
        with test_client.websocket_connect(f"/ws/tables/{created['code']}") as ws:
            ann = hello(ws, created["token"], 0)
            state = ann.settle()
            answered = 0
            while answered < 4 and state["view"]["phase"] != "over":
                if len(state["view"]["legal_actions"]) > 1:
                    ann.ws.send_json({"type": "hint"})
                    hint = ann.until("hint", timeout=30)
                    assert hint["seq"] == state["seq"]
                    answered += 1
                ann.act(state["view"]["legal_actions"][0])
                state = ann.settle(state["seq"])
                while not state["view"]["is_my_turn"] and state["view"]["phase"] != "over":
                    state = ann.settle(state["seq"])
    assert answered == 4
    assert judged == [0, 0, 0, 0]


def test_a_failing_judge_is_an_error_message_naming_the_judge(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(self: JudgeBot, view: Any) -> Any:
        raise ValueError("broken on purpose")

    values_checked(monkeypatch)
    monkeypatch.setattr(JudgeBot, "values", broken)
    created = create(client, ["human", "easy"], name="Ann")
    with client.websocket_connect(f"/ws/tables/{created['code']}") as ws:
        ann = hello(ws, created["token"], 0)
        state = ann.settle()
        assert len(state["view"]["legal_actions"]) > 1
        ann.ws.send_json({"type": "hint"})
        error = ann.until("error")
        assert error["code"] == "no_hint"
        assert "the judge could not weigh this position (broken on purpose)" in error["message"]


def judged(view: Any) -> Any:
    raise AssertionError("the judge's values were shown though not measured within the bar")


def test_where_the_judges_values_are_not_measured_within_the_bar_the_expert_hints(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The judge's values too far from the exact ones are never shown: the expert searches."""
    values_checked(monkeypatch, gap_rmse=0.5)
    monkeypatch.setattr(hints_module, "judge_hint", judged)
    monkeypatch.setattr(ExpertBot, "analyse", cold(3, again=False))
    hint = asked(client, "scat")
    assert (hint["deals"], hint["rough"]) == (HINT_DEALS, False)  # the expert's search
