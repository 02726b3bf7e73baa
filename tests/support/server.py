"""A test server and its clients: the app on a temp SQLite file with bots that play at once and
seeded randomness, WebSocket clients that time out instead of hanging, views read back from JSON, the
seeded choices of a basic bot, and games dealt from committed deals with their records."""

from __future__ import annotations

import dataclasses
import json
import random
import re
import sqlite3
from collections.abc import Iterator
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from datetime import UTC
from datetime import datetime
from pathlib import Path
from typing import Any

import anyio
import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient

from thirtyone import Card
from thirtyone import Game
from thirtyone import Rules
from thirtyone.actions import Action
from thirtyone.actions import parse_action
from thirtyone.bots.basic import BasicBot
from thirtyone.fairness import SaltChain
from thirtyone.record import Fairness
from thirtyone.record import GameRecord
from thirtyone.server import ServerSettings
from thirtyone.server import create_app
from thirtyone.server.db_store import OPEN
from thirtyone.server.db_store import SeatData
from thirtyone.server.db_store import Store
from thirtyone.server.db_store import TableData
from thirtyone.server.fair import Deal
from thirtyone.server.fair import deal_for
from thirtyone.server.fair import reshuffle_order
from thirtyone.server.history import ActionData
from thirtyone.server.history import TableHistory
from thirtyone.server.randomness import Randomness
from thirtyone.views import Phase
from thirtyone.views import PlayerView
from thirtyone.views import SeatStatus

CARD = re.compile(r"^(?:[2-9TJQKA][cdhs])$")


SEED = 31
"""The seed of every test server's randomness (:func:`make_app`): its table codes, salt chains, first
dealers and bots' seeds, and so the deals of tables whose people give fixed client seeds, are the
same every run."""


class Pinned(Randomness):
    """A test server's randomness with some choices pinned: every table's salt chain from ``key``
    (64 hex digits), seat ``first_dealer`` dealing round 1 (R3.1), every bot's and hint's seed
    ``bot_seed``; the other choices (and those not given) seeded by ``seed``."""

    def __init__(
        self, key: str | None = None, first_dealer: int | None = None, bot_seed: int | None = None, seed: int = SEED
    ) -> None:
        super().__init__(seed)
        self.key, self.dealer, self.bot_seed = key, first_dealer, bot_seed

    def chain_key(self) -> str:
        return super().chain_key() if self.key is None else self.key

    def first_dealer(self, players: int) -> int:
        return super().first_dealer(players) if self.dealer is None else self.dealer

    def seed_for_bot(self) -> int:
        return super().seed_for_bot() if self.bot_seed is None else self.bot_seed


UNLIMITED: dict[str, Any] = {
    "requests_per_second": 1e6,
    "tables_per_minute": 1e6,
    "table_burst": 1_000_000,
    "connections_per_second": 1e6,
}
"""Limits the tests raise unless they test them: one test client (one address) makes many tables."""
FAST = {"messages_per_second": 1000.0, "message_burst": 1000}
"""The WebSocket message limits raised: a test's client plays a whole game at once."""


def make_app(path: Path, **settings: Any) -> FastAPI:
    """An app on the SQLite file ``path`` with bots that play at once and do not wait for the
    showdown to be read (tests/test_server_showdown.py does), the bots and hints on threads of this
    process (so that a test can patch them), the per-address limits on requests and new tables
    raised, and its randomness seeded with :data:`SEED` (unless told otherwise)."""
    settings.setdefault("randomness", Randomness(SEED))
    settings.setdefault("bot_delay", 0.0)
    settings.setdefault("showdown_timeout", 0.0)
    settings.setdefault("worker_kind", "thread")
    settings.setdefault("freeze_gc", False)
    for name, value in UNLIMITED.items():
        settings.setdefault(name, value)
    return create_app(settings=ServerSettings(database_url=f"sqlite:///{path}", **settings))


class SocketClosedError(Exception):
    """The server closed the WebSocket (``code``)."""

    def __init__(self, code: int) -> None:
        super().__init__(f"closed with code {code}")
        self.code = code


def receive(ws: Any, timeout: float = 10.0) -> dict[str, Any]:
    """The next message on a test WebSocket, failing after ``timeout`` seconds instead of hanging."""

    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    message = ws.portal.call(get)
    if message["type"] == "websocket.close":
        raise SocketClosedError(message.get("code", 1000))
    return json.loads(message["text"])


def nothing_more(ws: Any, wait: float = 0.2) -> None:
    """Check that no message is waiting (or arrives within ``wait`` seconds)."""
    with pytest.raises(TimeoutError):
        receive(ws, wait)


def table_body(
    seats: list[str],
    *,
    preset: str = "scat",
    name: str | None = None,
    public: bool | None = None,
    hints: bool | None = None,
    **options: Any,
) -> dict[str, Any]:
    """The body of ``POST /api/tables`` for a table with seats given as ``"human"`` or bot levels
    (``"easy"``), the rule ``options`` over the preset's; ``name``, ``public`` and ``hints`` only
    when given."""
    body: dict[str, Any] = {
        "preset": preset,
        "options": options,
        "seats": [{"type": "human"} if seat == "human" else {"type": "bot", "level": seat} for seat in seats],
    }
    for key, value in (("name", name), ("public", public), ("hints", hints)):
        if value is not None:
            body[key] = value
    return body


def create(client: TestClient, seats: list[str], **settings: Any) -> dict[str, Any]:
    """Create a table (``settings`` as :func:`table_body` takes them); returns the answer."""
    response = client.post("/api/tables", json=table_body(seats, **settings))
    assert response.status_code == 201, response.text
    return dict(response.json())


def join(client: TestClient, code: str, name: str, seat: int | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"name": name}
    if seat is not None:
        body["seat"] = seat
    response = client.post(f"/api/tables/{code}/join", json=body)
    assert response.status_code == 200, response.text
    return dict(response.json())


@dataclass
class Player:
    """A test client's WebSocket with everything it received, and its latest state."""

    ws: Any
    seat: int | None
    messages: list[dict[str, Any]] = field(default_factory=list)
    state: dict[str, Any] | None = None

    def next(self, timeout: float = 10.0) -> dict[str, Any]:
        message = receive(self.ws, timeout)
        self.messages.append(message)
        if message["type"] == "state":
            self.state = message
        return message

    def until(self, kind: str, timeout: float = 10.0) -> dict[str, Any]:
        """Messages until one of ``kind`` (returned); an unexpected error fails at once."""
        while True:
            message = self.next(timeout)
            if message["type"] == kind:
                return message
            assert message["type"] != "error", message

    def settle(self, after: int = -1, timeout: float = 10.0) -> dict[str, Any]:
        """States until one past seq ``after`` in which the game waits for a person (bots play at
        once) or is over; returns it."""
        while True:
            state = self.state
            if state is not None and state["seq"] > after and state["view"] is not None and waits_for_person(state):
                return state
            self.next(timeout)

    def act(self, action: str, seq: int | None = None, **extra: Any) -> None:
        assert self.state is not None
        self.ws.send_json(
            {"type": "action", "action": action, "seq": self.state["seq"] if seq is None else seq, **extra}
        )


def waits_for_person(state: dict[str, Any]) -> bool:
    view = state["view"]
    if view["phase"] == "over" or state["table"]["status"] != "playing":
        return True
    return bool(state["table"]["seats"][view["current_seat"]]["kind"] == "human")


def hello(ws: Any, token: str | None, seat: int | None) -> Player:
    """Say hello on ``ws`` and read the welcome and the first state."""
    ws.send_json({"type": "hello", "token": token} if token is not None else {"type": "hello"})
    player = Player(ws, seat)
    welcome = player.next()
    assert welcome["type"] == "welcome", welcome
    assert welcome["seat"] == seat
    assert player.next()["type"] == "state"
    return player


def view_from_json(data: dict[str, Any], rules: Rules) -> PlayerView:
    """A :class:`PlayerView` read back from its JSON (history and last result left out)."""

    def cards(items: list[str] | None) -> tuple[Card, ...] | None:
        return None if items is None else tuple(Card.parse(text) for text in items)

    def card(text: str | None) -> Card | None:
        return None if text is None else Card.parse(text)

    return PlayerView(
        seat=data["seat"],
        players=data["players"],
        rules=rules,
        round=data["round"],
        dealer=data["dealer"],
        phase=Phase(data["phase"]),
        current_seat=data["current_seat"],
        hand=cards(data["hand"]),
        hand_value=data["hand_value"],
        discard_top=card(data["discard_top"]),
        discard_size=data["discard_size"],
        widow=cards(data["widow"]),
        widow_face_down=data["widow_face_down"],
        stock_size=data["stock_size"],
        seats=tuple(
            SeatStatus(
                s["seat"],
                s["remaining"],
                s["lives"],
                s["on_grace"],
                s["out"],
                s["has_looked"],
                cards(s["known_cards"]) or (),
            )
            for s in data["seats"]
        ),
        knocker=data["knocker"],
        turn=data["turn"],
        taken_from_pile=card(data["taken_from_pile"]),
        history=(),
        last_result=None,
        legal_actions=tuple(parse_action(text) for text in data["legal_actions"]),
    )


def basic_choice(state: dict[str, Any], seed: int = 0) -> str:
    """What the ``basic`` bot plays from a received state (the view as JSON)."""
    rules = Rules(**state["table"]["rules"])
    view = view_from_json(state["view"], rules)
    return str(BasicBot(seed).choose(view, view.legal_actions))


def db_rows(path: Path, query: str, *args: Any) -> list[tuple[Any, ...]]:
    """Rows of ``query`` on the SQLite file, read with the standard library's sqlite3."""
    with sqlite3.connect(path) as connection:
        return list(connection.execute(query, args))


def card_texts(value: Any) -> Iterator[str]:
    """Every card text anywhere in a JSON value (in strings of cards or actions)."""
    if isinstance(value, str):
        for word in value.split():
            if CARD.match(word):
                yield word
    elif isinstance(value, dict):
        for item in value.values():
            yield from card_texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from card_texts(item)


@dataclass
class Dealt:
    """How a game is dealt as a table deals it: from the salt ``chain`` and the seats' ``seeds``
    (no chain: each deal committed to alone, shuffled by ``randomness``), each reshuffle from its
    round's salt; ``deals`` holds every round's deal by round (given ones are dealt as they are)."""

    chain: SaltChain | None = None
    seeds: Sequence[str | None] = ()
    deals: dict[int, Deal] = field(default_factory=dict)
    randomness: Randomness = field(default_factory=lambda: Randomness(SEED))

    def settle(self, game: Game) -> None:
        """Take every chance step ``game`` (explicit chance) waits for, as a table does
        (:func:`~thirtyone.server.fair.deal_for`, :func:`~thirtyone.server.fair.reshuffle_order`)."""
        while game.is_chance():
            step = game.chance_step
            assert step is not None
            if step.kind == "deal":
                deal = self.deals.get(step.round) or deal_for(step, 0, self.chain, self.seeds, self.randomness)
                self.deals[step.round] = deal
                game.deal(deal.deck)
            else:
                game.deal(reshuffle_order(step, self.deals[step.round]))

    def game(self, rules: Rules, players: int, first_dealer: int) -> Game:
        """A new game of ``players`` whose seat ``first_dealer`` deals first, dealt (R3.1)."""
        game = Game(rules, players, explicit_chance=True)
        game.deal(first_dealer)
        self.settle(game)
        return game

    def apply(self, game: Game, action: Action | str, seat: int | None = None) -> None:
        """Play ``action`` on ``game`` and deal what it leads to."""
        game.apply(action, seat=seat)
        self.settle(game)


def history_of(game: Game, dealt: Dealt, source: str = "player") -> TableHistory:
    """The history a table keeps of ``game`` (dealt by ``dealt``): its deals, each action of ``source``."""
    history = TableHistory()
    seq = 0
    for log in game.round_logs:
        history.add(None, [dealt.deals[log.round]])
        for seat, action in log.actions:
            seq += 1
            history.add(ActionData(seq, log.round, seat, str(action), source), [])
    return history


def committed_game(
    rules: Rules,
    players: int,
    policy: random.Random,
    *,
    force_reshuffle: bool = False,
    chain: SaltChain | None = None,
    seeds: Sequence[str | None] = (),
) -> tuple[Game, Dealt]:
    """A whole game dealt as a table deals (from a salt ``chain`` and the seats' ``seeds``, or
    without a chain each deal committed to alone; salted reshuffles), played by ``policy`` at
    random (with ``force_reshuffle``, drawing from the stock and never knocking until the stock has
    been reshuffled once)."""
    dealt = Dealt(chain, seeds, randomness=Randomness(policy.getrandbits(32)))
    game = dealt.game(rules, players, policy.randrange(players))
    while not game.is_over:
        legal = game.legal_actions()
        if force_reshuffle and not any(log.reshuffles for log in game.round_logs):
            preferred = [
                action for action in legal if str(action) in ("draw stock",) or str(action).startswith("discard")
            ]
            dealt.apply(game, preferred[0] if preferred else legal[0])
        else:
            dealt.apply(game, policy.choice(legal))
    return game, dealt


def committed_record(game: Game, chance: Dealt) -> GameRecord:
    """The record of a committed game: with a chain its commitment and seeds and every round's
    salt, else every deal's own commitment and salt."""
    record = GameRecord.from_game(game)
    if chance.chain is not None:
        rounds = tuple(dataclasses.replace(rnd, salt=chance.deals[rnd.round].salt) for rnd in record.rounds)
        fairness = Fairness(chance.chain.commitment, tuple(seed or "" for seed in chance.seeds))
        return dataclasses.replace(record, rounds=rounds, fairness=fairness)
    rounds = tuple(
        dataclasses.replace(rnd, salt=chance.deals[rnd.round].salt, commitment=chance.deals[rnd.round].commitment)
        for rnd in record.rounds
    )
    return dataclasses.replace(record, rounds=rounds)


def finished_game(client: TestClient, lives: int = 1) -> str:
    """A game of Ann and an easy bot played to its end (Ann plays the basic bot's choices); its code."""
    created = create(client, ["human", "easy"], name="Ann", lives=lives)
    code = created["code"]
    with client.websocket_connect(f"/ws/tables/{code}") as ws:
        ann = hello(ws, created["token"], 0)
        seq = -1
        while True:
            state = ann.settle(seq)
            seq = state["seq"]
            if state["view"]["phase"] == "over":
                return code
            ann.act(basic_choice(state, seed=seq))
            ann.until("ack")


@pytest.fixture(name="started")
def uvicorn_stand_in(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The fixture ``started``, a stand-in for uvicorn.run: records the app's settings and Uvicorn's
    options (a test module imports it to use it)."""
    calls: list[dict[str, Any]] = []

    def run(app: Any, **options: Any) -> None:
        calls.append({"settings": app.state.settings, "door": app.state.door, **options})

    monkeypatch.setattr(uvicorn, "run", run)
    return calls


def serve(tmp_path: Path, *args: str) -> list[str]:
    """The arguments of ``thirtyone serve`` on port 48031 and an SQLite file in ``tmp_path``, and ``args``."""
    return ["serve", "--port", "48031", "--database-url", f"sqlite:///{tmp_path}/t.db", *args]


def playing_tables(store: Store, count: int, last_first: bool = False) -> list[str]:
    """``count`` tables of two people being played, T00000 on; made in that order, or the last first."""
    codes = []
    for index in reversed(range(count)) if last_first else range(count):
        code = f"T{index:05d}"
        seats = [SeatData(0, "human", None, None), SeatData(1, "human", None, None)]
        store.create(TableData(code, OPEN, "scat", {}, 2, "0" * 64, seats, datetime.now(UTC)))
        store.join(code, 0, "Ann", "1" * 64)
        store.join(code, 1, "Ben", "2" * 64, (0, [], [None, None]))
        codes.append(code)
    return sorted(codes)
