"""The turn timer of a table of friends: a table with more than one person has a generous timer by
default (``friends_turn_timer``), a table of one person and bots none; after ``timeouts_to_bot``
turns in a row that the timer played for a seat, the seat is away and the server plays it at the
bots' pace, until its person plays or says ``back``. TABLE says each seat's timeouts and whether
it is away.

The deadlines are read from a stopped wall clock (``time.time`` in autoplay); what is checked is
which deadline the server set (a whole timer, or the bots' pace), never how long anything took."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import ExitStack
from contextlib import contextmanager
from datetime import UTC
from datetime import datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import uvicorn
from fastapi.testclient import TestClient

from cli_helpers import cli_error_line
from support.server import Dealt
from support.server import Player
from support.server import basic_choice
from support.server import create
from support.server import hello
from support.server import history_of
from support.server import join
from support.server import make_app
from thirtyone.actions import Action
from thirtyone.actions import parse_action
from thirtyone.cli import main
from thirtyone.engine import Game
from thirtyone.fairness import SaltChain
from thirtyone.rules import Rules
from thirtyone.server import ServerSettings
from thirtyone.server import autoplay as autoplay_module
from thirtyone.server.autoplay import Autoplay
from thirtyone.server.autoplay import default_action
from thirtyone.server.autoplay import timeouts_in_a_row
from thirtyone.server.connections import Connections
from thirtyone.server.db_store import PLAYING
from thirtyone.server.db_store import SeatData
from thirtyone.server.db_store import TableData
from thirtyone.server.errors import InputError
from thirtyone.server.history import ActionData
from thirtyone.server.history import TableHistory

NOW = 1_700_000_000.0


@pytest.fixture(autouse=True)
def stopped_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(autoplay_module, "time", SimpleNamespace(time=lambda: NOW))


def connect(client: TestClient, stack: ExitStack, code: str, token: str | None, seat: int | None) -> Player:
    return hello(stack.enter_context(client.websocket_connect(f"/ws/tables/{code}")), token, seat)


@contextmanager
def table_of(tmp_path: Path, seats: list[str], **settings: Any) -> Iterator[tuple[TestClient, str, dict[str, Any]]]:
    options = {"messages_per_second": 1000.0, "message_burst": 1000, "showdown_timeout": 0.0, **settings}
    with TestClient(make_app(tmp_path / f"timer-{len(list(tmp_path.iterdir()))}.db", **options)) as client:
        created = create(client, seats, name="Ann")
        yield client, created["code"], created


def test_a_table_of_friends_has_a_turn_timer_by_default_and_one_person_with_bots_none(tmp_path: Path) -> None:
    assert ServerSettings().friends_turn_timer == 60.0
    assert ServerSettings().turn_timer is None
    with table_of(tmp_path, ["human", "human"]) as (client, code, created):
        ben = join(client, code, "Ben")
        table = ben["table"]
        assert (table["turn_timer"], table["turn_deadline"]) == (60.0, NOW + 60.0)
        assert [(seat["timeouts"], seat["away"]) for seat in table["seats"]] == [(0, False), (0, False)]
        assert table["timeouts_to_bot"] == 3
    with table_of(tmp_path, ["human", "easy"], bot_delay=30.0) as (client, code, created):
        table = created["table"]
        assert (table["turn_timer"], table["turn_deadline"]) == (None, None)
        with ExitStack() as stack:
            ann = connect(client, stack, code, created["token"], 0)
            assert ann.state is not None
            assert ann.state["table"]["turn_timer"] is None
    with table_of(tmp_path, ["human", "easy"], turn_timer=5.0) as (client, code, created):
        assert created["table"]["turn_timer"] == 5.0  # --turn-timer: every table, one person's too
    with table_of(tmp_path, ["human", "human"], friends_turn_timer=None) as (client, code, created):
        assert join(client, code, "Ben")["table"]["turn_timer"] is None


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"showdown_timeout": -1}, "showdown_timeout"),
        ({"showdown_timeout": 601}, "showdown_timeout"),
        ({"friends_turn_timer": 0.0}, "friends_turn_timer"),
        ({"timeouts_to_bot": 1.5}, "timeouts_to_bot"),
        ({"timeouts_to_bot": -1}, "timeouts_to_bot"),
    ],
)
def test_the_new_settings_are_checked(settings: dict[str, Any], words: str) -> None:
    with pytest.raises(InputError, match=words):
        ServerSettings(**settings)


def test_timeouts_in_a_row_count_the_turns_the_timer_began() -> None:
    def act(seq: int, seat: int, source: str, round: int = 1, action: str = "draw stock") -> ActionData:
        return ActionData(seq, round, seat, action, source)

    actions = [
        act(1, 1, "player"),
        act(2, 1, "player", action="discard 2c"),
        act(3, 0, "player"),
        act(4, 0, "player", action="discard 3c"),
        act(5, 1, "timer"),  # a turn the timer began
        act(6, 1, "timer", action="discard 4c"),  # ... and finished: one timeout
        act(7, 0, "player", action="knock"),
        act(8, 1, "timer", action="knock"),  # a whole turn: two
        act(9, 1, "timer", round=2),  # the next round, the same seat first: three
    ]
    assert timeouts_in_a_row(actions, 1) == 3
    assert timeouts_in_a_row(actions, 0) == 0
    assert timeouts_in_a_row(actions, 1, since=8) == 1  # the person said back at seq 8
    assert timeouts_in_a_row([*actions, act(10, 1, "player", round=2, action="discard 5c")], 1) == 0
    assert timeouts_in_a_row([], 0) == 0


def bens_turns(ann: Player, count: int) -> list[tuple[int, float | None, bool]]:
    """Ann plays her turns (the basic bot's choices) until Ben, who never moves, has had ``count``
    states to move in while away; returns each state's (Ben's timeouts, the deadline, whether away)
    on his moves."""
    seen: list[tuple[int, float | None, bool]] = []
    seq = -1
    while sum(1 for turn in seen if turn[2]) < count:
        message = ann.next()
        if message["type"] != "state" or message["seq"] <= seq:
            continue
        seq = message["seq"]
        assert message["view"]["phase"] != "over", "the game ended first"
        table = message["table"]
        if message["view"]["current_seat"] == 0:
            ann.act(basic_choice(message, seed=seq))
        else:
            seen.append((table["seats"][1]["timeouts"], table["turn_deadline"], table["seats"][1]["away"]))
    return seen


def test_after_repeated_timeouts_the_seat_is_away_until_its_person_is_back(tmp_path: Path) -> None:
    timer = 0.3
    settings = {"friends_turn_timer": timer, "timeouts_to_bot": 2, "bot_delay": 0.0}
    with table_of(tmp_path, ["human", "human"], **settings) as (client, code, created), ExitStack() as stack:
        ben_seat = join(client, code, "Ben")
        ann = connect(client, stack, code, created["token"], 0)
        ben = connect(client, stack, code, ben_seat["token"], 1)  # Ben is there, but never moves
        turns = bens_turns(ann, 2)
        whole = [turn for turn in turns if not turn[2]]
        away = [turn for turn in turns if turn[2]]
        assert whole  # his first turns: a whole timer each (a drawn turn's discard as long)
        assert all(turn[0] < 2 and turn[1] == NOW + timer for turn in whole)
        assert all(turn[0] >= 2 and turn[1] == NOW for turn in away)  # away: the bots' pace (0 s here)
        # Ben is back: his seat waits for him again
        ben.ws.send_json({"type": "back"})
        message = ben.next()
        while message["type"] != "back":
            message = ben.next()
        assert message == {"type": "back", "seat": 1}
        told = ben.until("table")["table"]
        assert (told["seats"][1]["timeouts"], told["seats"][1]["away"]) == (0, False)
        spectator = connect(client, stack, code, None, None)
        spectator.ws.send_json({"type": "back"})
        assert spectator.until("error")["code"] == "spectator"


def test_an_away_seat_with_nobody_connected_is_played_at_the_bots_pace(tmp_path: Path) -> None:
    """Regression: an away seat waited a whole timer each turn while no person was connected, so
    a table whose people never came (or came back after a restart) crawled at the timer's pace
    (README: "the server plays their seat at the bots' pace until they are back")."""
    timer = 0.3
    settings = {"friends_turn_timer": timer, "timeouts_to_bot": 1, "bot_delay": 0.05}
    with table_of(tmp_path, ["human", "human"], **settings) as (client, code, _), ExitStack() as stack:
        join(client, code, "Ben")
        watcher = connect(client, stack, code, None, None)  # a spectator is no person
        for _ in range(200):  # nobody plays: the timer does, and the seats go away
            state = watcher.until("state")
            assert state["view"]["phase"] != "over", "the game ended first"
            table = state["table"]
            if table["seats"][state["view"]["current_seat"]]["away"] and state["view"]["phase"] == "turn":
                break
        else:
            pytest.fail("no seat went away")
        assert table["turn_deadline"] == NOW + 0.05  # the bots' pace, though nobody is connected


# ---------------------------------------------------------------------------------------------- serve's flags


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Stand-in for uvicorn.run: records the settings of the app it was given."""
    calls: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: calls.append(app.state.settings))
    return calls


def serve(tmp_path: Path, *args: str) -> list[str]:
    return ["serve", "--port", "48031", "--database-url", f"sqlite:///{tmp_path}/t.db", *args]


def test_serve_takes_the_friends_timer_the_timeouts_and_the_showdown_timeout(
    tmp_path: Path, started: list[Any], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(serve(tmp_path)) == 0
    settings = started[-1]
    assert (settings.friends_turn_timer, settings.timeouts_to_bot, settings.showdown_timeout) == (60.0, 3, 20.0)
    assert "turn timer 60 s with more than one person" in capsys.readouterr().err
    flags = ("--friends-turn-timer", "off", "--timeouts-to-bot", "0", "--showdown-timeout", "0")
    assert main(serve(tmp_path, *flags)) == 0
    settings = started[-1]
    assert (settings.friends_turn_timer, settings.timeouts_to_bot, settings.showdown_timeout) == (None, 0, 0.0)
    assert main(serve(tmp_path, "--friends-turn-timer", "90", "--showdown-timeout", "2.5")) == 0
    assert (started[-1].friends_turn_timer, started[-1].showdown_timeout) == (90.0, 2.5)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--showdown-timeout", "700"), "--showdown-timeout must be from 0 to 600 seconds (0: no wait), not 700"),
        (("--showdown-timeout", "soon"), "--showdown-timeout 'soon': give seconds as a number"),
        (("--friends-turn-timer", "0.01"), "--friends-turn-timer must be from 0.1"),
        (("--timeouts-to-bot", "2.5"), "--timeouts-to-bot '2.5': give a whole number"),
        (("--timeouts-to-bot", "-1"), "--timeouts-to-bot must be from 0 to 1000 turns (0: never), not -1"),
    ],
)
def test_serve_refuses_bad_values_in_one_line(
    tmp_path: Path, started: list[Any], capsys: pytest.CaptureFixture[str], args: tuple[str, ...], words: str
) -> None:
    assert words in cli_error_line(capsys, serve(tmp_path, *args))
    assert started == []


# -------------------------------------------------------------------------------------------- a new round's first turn


class StillTable:
    """A table for :class:`Autoplay` alone: its stored data and game, nobody connected, the lease held."""

    def __init__(self, data: TableData, history: TableHistory, game: Game) -> None:
        self.code = data.code
        self.data = data
        self.history = history
        self.game = game
        self.lock = asyncio.Lock()
        self.stopped = False
        self.leased = True
        self.claim = None
        self.connections = Connections()

    async def act(self, seat: int, action: Action | str | int, seq: int, source: str = "player") -> int:
        raise AssertionError("nothing plays here")

    def tell_table(self) -> None:
        pass


def test_a_new_rounds_first_turn_gets_a_whole_timer_after_the_timer_ended_the_last() -> None:
    """Regression: the follow-up second of a turn the timer began was carried across rounds, so a
    seat whose last-turn discard the timer played got one second for its whole first turn of the
    next round (seat 0 ends round 1 and opens round 2 at two players)."""
    dealt = Dealt(SaltChain("00" * 32, 16), [None, None])
    game = dealt.game(Rules(), 2, 0)
    for text in ["knock", "draw stock", "discard 2c"]:  # seat 1 knocks, seat 0's last turn (R6.1)
        dealt.apply(game, parse_action(text))
    assert (game.round, game.current_seat) == (2, 0)
    deadline, _ = _first_deadline(game, dealt, ServerSettings(friends_turn_timer=30.0, showdown_timeout=0.0))
    assert deadline == NOW + 30.0  # a whole timer, not TIMER_FOLLOW_UP


def test_after_a_restart_an_away_seat_is_played_at_the_bots_pace_with_nobody_connected() -> None:
    """Issue: after a restart a seat the timer had played three turns in a row for (read from the
    stored moves) waited a whole timer (60 s) each turn, as nobody had connected yet."""
    dealt = Dealt(SaltChain("44" * 32, 16), [None, None])
    game = dealt.game(Rules(), 2, 0)
    for _ in range(12):  # the timer's default moves: three turns each, all in round 1
        dealt.apply(game, default_action(game.view(game.current_seat)))
    assert game.round == 1
    settings = ServerSettings(friends_turn_timer=60.0, bot_delay=0.25, showdown_timeout=0.0)
    deadline, away = _first_deadline(game, dealt, settings)
    assert away
    assert game.view(game.current_seat).phase.value == "turn"
    assert deadline == NOW + 0.25  # the bots' pace, not a whole timer


def _first_deadline(game: Game, dealt: Dealt, settings: ServerSettings) -> tuple[float | None, bool]:
    """A stored two-person table of ``game`` (every move the timer's): the deadline its autoplay sets
    for the seat to move, and whether it counts that seat as away."""
    history = history_of(game, dealt, "timer")
    data = TableData(
        code="ABCDEF",
        status=PLAYING,
        preset="scat",
        options={},
        players=2,
        host_token_hash="",
        seats=[SeatData(0, "human", None, "Ann", "x"), SeatData(1, "human", None, "Ben", "y")],
        created_at=datetime.now(UTC),
        first_dealer=0,
        seq=len(history.actions),
    )

    async def deadline() -> tuple[float | None, bool]:
        autoplay = Autoplay(StillTable(data, history, game), settings)
        autoplay.schedule()
        try:
            return autoplay.deadline, autoplay.away(game.current_seat)
        finally:
            await autoplay.stop()

    return asyncio.run(deadline())
