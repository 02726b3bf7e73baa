"""The showdown's pace: after a round ends, the bots and the turn timer wait until every person
who was connected when it ended has closed the showdown (``showdown_closed``), or
``showdown_timeout`` seconds have passed; a person who disconnects no longer counts, spectators
never do, and a close of another round, a second close or a spectator's changes nothing.
``TABLE.showdown`` says whose showdown is still being read.

Every game here is pinned: the salt chain (key ``00…00``), the first dealer (seat 1), the bot's
seed (0) and the people's moves (the basic bot's, seeded with the seq), so that it is the same
every run."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from support.server import Pinned
from support.server import Player
from support.server import basic_choice
from support.server import create
from support.server import hello
from support.server import join
from support.server import make_app
from support.server import nothing_more
from thirtyone.server import autoplay as autoplay_module

NOW = 1_700_000_000.0
"""The wall clock the deadlines are published with (``time.time`` in autoplay, stopped)."""


@pytest.fixture(autouse=True)
def pinned(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(autoplay_module, "time", SimpleNamespace(time=lambda: NOW))


def connect(client: TestClient, stack: ExitStack, code: str, token: str | None, seat: int | None) -> Player:
    return hello(stack.enter_context(client.websocket_connect(f"/ws/tables/{code}")), token, seat)


@pytest.fixture
def app_client(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[TestClient]:
    settings = getattr(request, "param", {})
    pinned = Pinned(key="00" * 32, first_dealer=1, bot_seed=0)  # seat 1 deals first (R3.1)
    options = {
        "messages_per_second": 1000.0,
        "message_burst": 1000,
        "showdown_timeout": 30.0,
        "randomness": pinned,
        **settings,
    }
    with TestClient(make_app(tmp_path / "showdown.db", **options)) as client:
        yield client


def until_a_showdown(players: dict[int, Player], reader: Player) -> dict[str, Any]:
    """The people play (each the basic bot's choice) until a round has ended and the state after it
    waits for a bot or the timer; returns that state (as ``reader`` got it)."""
    pending = [reader.state] if reader.state is not None else []  # the state it has, then what comes
    ended = False
    for _ in range(2000):
        message = pending.pop() if pending else reader.next()
        if message["type"] == "round_end":
            ended = True
        if message["type"] != "state" or message["view"] is None:
            continue
        assert message["view"]["phase"] != "over", "the pinned game should not end before its first showdown"
        if ended and message["table"]["showdown"] is not None:
            return message
        ended = False
        player = players.get(message["view"]["current_seat"])
        if player is not None:
            while player.state is None or player.state["seq"] != message["seq"]:
                player.next()
            player.act(basic_choice(player.state, seed=message["seq"]))
    raise AssertionError("no showdown came")


def test_the_bots_wait_until_the_person_has_closed_the_showdown(app_client: TestClient) -> None:
    created = create(app_client, ["human", "easy"], name="Ann")
    code = created["code"]
    with ExitStack() as stack:
        ann = connect(app_client, stack, code, created["token"], 0)
        watcher = connect(app_client, stack, code, None, None)
        state = until_a_showdown({0: ann}, ann)
        number = state["view"]["round"] - 1
        assert state["view"]["current_seat"] == 1  # the bot is to move, and waits
        assert state["table"]["showdown"] == {"round": number, "waiting": [0], "until": NOW + 30.0}
        nothing_more(ann.ws)  # the bot did not move by now
        watcher.ws.send_json({"type": "showdown_closed", "round": number})  # a spectator's counts for nothing
        assert watcher.until("error")["code"] == "spectator"
        for wrong in (number - 1, number + 1):  # another round: answered, nothing changes
            ann.ws.send_json({"type": "showdown_closed", "round": wrong})
            assert ann.next() == {"type": "showdown_closed", "round": wrong}
        ann.ws.send_json({"type": "showdown_closed", "round": "last"})
        assert ann.next()["code"] == "bad_message"
        nothing_more(ann.ws)
        ann.ws.send_json({"type": "showdown_closed", "round": number})
        assert ann.next() == {"type": "showdown_closed", "round": number}
        told = ann.until("table")["table"]
        assert told["showdown"] is None  # the wait is over
        moved = ann.until("state")
        assert moved["seq"] == state["seq"] + 1
        assert moved["last"]["seat"] == 1  # the bot played, once the showdown was closed
        ann.ws.send_json({"type": "showdown_closed", "round": number})  # twice: nothing changes
        answer = ann.next()
        while answer["type"] == "state":  # the bot's next moves may come first
            answer = ann.next()
        assert answer == {"type": "showdown_closed", "round": number}


@pytest.mark.parametrize("app_client", [{"showdown_timeout": 0.2}], indirect=True)
def test_the_wait_ends_at_the_showdown_timeout(app_client: TestClient) -> None:
    created = create(app_client, ["human", "easy"], name="Ann")
    with ExitStack() as stack:
        ann = connect(app_client, stack, created["code"], created["token"], 0)
        state = until_a_showdown({0: ann}, ann)
        assert state["table"]["showdown"]["until"] == NOW + 0.2
        told = ann.until("table")["table"]  # nobody closed it: the timeout ended the wait
        assert told["showdown"] is None
        assert ann.until("state")["last"]["seat"] == 1


def test_a_person_who_disconnects_no_longer_counts(app_client: TestClient) -> None:
    created = create(app_client, ["human", "easy"], name="Ann")
    code = created["code"]
    with ExitStack() as stack:
        watcher = connect(app_client, stack, code, None, None)
        with app_client.websocket_connect(f"/ws/tables/{code}") as socket:
            ann = hello(socket, created["token"], 0)
            state = until_a_showdown({0: ann}, ann)
            while watcher.state is None or watcher.state["seq"] != state["seq"]:
                watcher.next()
            assert watcher.state["table"]["showdown"]["waiting"] == [0]
        left = watcher.until("table")["table"]  # Ann left: nobody reads, the bot plays
        assert left["seats"][0]["connected"] is False
        while True:
            message = watcher.next()
            if message["type"] == "state":
                break
        assert message["seq"] == state["seq"] + 1
        assert message["last"]["seat"] == 1
        assert message["table"]["showdown"] is None


@pytest.mark.parametrize("app_client", [{"friends_turn_timer": 60.0}], indirect=True)
def test_the_turn_timer_starts_after_everyone_has_closed_the_showdown(app_client: TestClient) -> None:
    created = create(app_client, ["human", "human"], name="Ann")
    code = created["code"]
    with ExitStack() as stack:
        ann = connect(app_client, stack, code, created["token"], 0)
        ben = connect(app_client, stack, code, join(app_client, code, "Ben")["token"], 1)
        players = {0: ann, 1: ben}
        state = until_a_showdown(players, ann)
        number = state["view"]["round"] - 1
        table = state["table"]
        assert (table["turn_timer"], table["turn_deadline"]) == (60.0, None)  # no timer during the wait
        assert table["showdown"] == {"round": number, "waiting": [0, 1], "until": NOW + 30.0}
        ben.ws.send_json({"type": "showdown_closed", "round": number})
        assert ann.until("table")["table"]["showdown"]["waiting"] == [0]  # "waiting for Ann"
        ann.ws.send_json({"type": "showdown_closed", "round": number})
        told = ann.until("table")["table"]
        assert (told["showdown"], told["turn_deadline"]) == (None, NOW + 60.0)  # the timer runs from now


def test_a_persons_own_move_closes_their_showdown(app_client: TestClient) -> None:
    created = create(app_client, ["human", "human", "easy"], name="Ann")
    code = created["code"]
    with ExitStack() as stack:
        ann = connect(app_client, stack, code, created["token"], 0)
        ben = connect(app_client, stack, code, join(app_client, code, "Ben")["token"], 1)
        players = {0: ann, 1: ben}
        for _ in range(20):  # a showdown after which a person moves first and the bot after them
            state = until_a_showdown(players, ann)
            mover = state["view"]["current_seat"]
            if mover != 2:
                break
            for player in players.values():
                player.ws.send_json({"type": "showdown_closed", "round": state["view"]["round"] - 1})
        else:
            pytest.fail("no showdown with a person to move first")
        assert state["table"]["showdown"]["waiting"] == [0, 1]
        player = players[mover]
        while player.state is None or player.state["seq"] != state["seq"]:
            player.next()
        player.act(basic_choice(player.state, seed=state["seq"]))
        after = player.until("state")
        assert after["table"]["showdown"]["waiting"] == [1 - mover]  # the mover has read it; the other not yet
