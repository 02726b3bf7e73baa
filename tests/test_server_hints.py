"""A hint's values are never a handful of deals' noise without a word: a search that reached fewer
than ``HINT_DEALS`` deals in ``HINT_SECONDS`` (a cold or busy hint worker) goes on for that many,
at most ``HINT_LONGEST`` seconds, and the ``hint`` message says how many deals it weighed and
whether that is still too few (``rough``), for the page to say so."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from support.server import create
from support.server import hello
from support.server import make_app
from thirtyone import Game
from thirtyone import Rules
from thirtyone.bots.expert import ExpertBot
from thirtyone.bots.work import Hint
from thirtyone.bots.work import expert_hint
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


def asked(client: TestClient) -> dict[str, Any]:
    created = create(client, ["human", "easy", "easy"], name="Ann")
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
