"""A seeded soak: the real server (``thirtyone serve --seed`` in a subprocess, HTTP and WebSocket)
plays many random games of several rule sets, bots and scripted people together — the people
choosing among their legal actions, by id or by notation, with a seeded policy — and every state
each person was acknowledged is checked against a reference engine game fed the same deals (the
decks and salts the server revealed) and the same actions: seq by seq, the view the seat got is
the reference's. Each game's record must verify and replay to the same end.

Its deals come from the server's seed and the people's fixed client seeds: the run is the same
every time, and a failure names the seed and the table."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect

from support.processes import Server
from support.processes import free_port
from support.processes import start_server
from thirtyone.cards import parse_cards
from thirtyone.engine import Game
from thirtyone.fairness import salted_reshuffle
from thirtyone.record import GameRecord
from thirtyone.server.serialize import spectator_view_json
from thirtyone.server.serialize import view_json

SOAK_SEED = 3031
"""The server's seed (``--seed``) and the people's policies' (each table's ``SOAK_SEED + index``)."""
GAMES: Sequence[tuple[str, dict[str, Any], list[str]]] = (
    ("scat", {"lives": 2}, ["human", "easy", "human"]),
    ("scat", {"lives": 2, "deck": 32, "max_turns": 80}, ["human", "human"]),
    ("schwimmen", {"lives": 2, "exchange": "any"}, ["human", "random", "human"]),
    ("scat", {"lives": 2, "throw_down": True}, ["human", "medium", "human", "easy"]),
)
"""The tables of the soak: a preset, its options and its seats. The people never knock, so the
two-person table's rounds end on a 31 or at its turn limit (R6.7), reshuffling the stock on the way
(R4.3): its ``max_turns`` of 80 reaches both in rounds of 160 actions (the default 200 made rounds of
400, and each state holds its round's history: most of the soak's time)."""
WAIT = 20.0
"""Seconds any one message may take."""


@dataclass
class Person:
    """A scripted person's WebSocket: every state it got by seq, every ack, and the revealed deals."""

    ws: ClientConnection
    seat: int
    where: str
    states: dict[int, dict[str, Any]] = field(default_factory=dict)
    latest: dict[str, Any] | None = None
    acks: dict[int, str] = field(default_factory=dict)
    decks: dict[int, tuple[str, str]] = field(default_factory=dict)

    async def next(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), WAIT))
        assert message["type"] != "error", f"{self.where}: {message}"
        kind = message["type"]
        if kind == "state":
            self.latest = self.states[message["seq"]] = message
        elif kind == "ack":
            self.acks[message["seq"]] = message["action"]
        for shown in message["rounds"] if kind == "reveal" else [message] if kind == "round_end" else []:
            if shown["deck"] is not None:
                self.decks[shown["round"]] = (shown["deck"], shown["salt"])
        return message

    async def settle(self, after: int) -> dict[str, Any]:
        """States past seq ``after`` until a person is to move or the game is over (bots play at once)."""
        while True:
            state = self.latest
            if state is not None and state["seq"] > after and state["view"] is not None:
                view, table = state["view"], state["table"]
                if view["phase"] == "over" or table["status"] != "playing":
                    return state
                if table["seats"][view["current_seat"]]["kind"] == "human":
                    return state
            await self.next()


async def play_table(server: Server, index: int) -> tuple[int, str]:
    """Play table ``index`` of :data:`GAMES` to its end; returns its actions and its code."""
    preset, options, seats = GAMES[index]
    where = f"soak seed {SOAK_SEED}, table {index} ({preset} {options})"
    policy = random.Random(SOAK_SEED + index)
    body = {
        "preset": preset,
        "options": options,
        "seats": [{"type": "human"} if kind == "human" else {"type": "bot", "level": kind} for kind in seats],
    }
    async with httpx.AsyncClient(base_url=server.url, timeout=WAIT) as http:
        code = (await http.post("/api/tables", json=body)).json()["code"]
        tokens = {}
        for seat, kind in enumerate(seats):
            if kind == "human":
                joined = await http.post(
                    f"/api/tables/{code}/join", json={"name": f"P{seat}", "seat": seat, "seed": f"{seat + 1:02x}" * 16}
                )
                assert joined.status_code == 200, f"{where}: {joined.text}"
                tokens[seat] = joined.json()["token"]
    people: dict[int, Person] = {}
    try:
        for seat, token in tokens.items():
            ws = await connect(f"{server.ws_url}/ws/tables/{code}", open_timeout=WAIT, close_timeout=1)
            person = people[seat] = Person(ws, seat, where)
            await ws.send(json.dumps({"type": "hello", "token": token}))
            while person.latest is None:
                await person.next()
        seq = -1
        while True:
            states = [await person.settle(seq) for person in people.values()]
            state = states[0]
            assert {other["seq"] for other in states} == {state["seq"]}, where
            view = state["view"]
            if view["phase"] == "over" or state["table"]["status"] != "playing":
                break
            mover = people[view["current_seat"]]
            mine = mover.latest
            assert mine is not None
            assert mine["seq"] == state["seq"], where
            legal = mine["view"]["legal"]
            choice = policy.choice([move for move in legal if move["text"] != "knock"] or legal)
            message = {"type": "action", "seq": mine["seq"]}
            message.update({"id": choice["id"]} if policy.random() < 0.5 else {"action": choice["text"]})
            await mover.ws.send(json.dumps(message))
            while mine["seq"] + 1 not in mover.acks:
                await mover.next()
            assert mover.acks[mine["seq"] + 1] == choice["text"], where
            seq = mine["seq"]
        for person in people.values():  # the reveal after the last round_end
            while person.latest is None or person.latest["view"]["phase"] != "over":
                await person.next()
        async with httpx.AsyncClient(base_url=server.url, timeout=WAIT) as http:
            text = (await http.get(f"/api/tables/{code}/record")).text
        check(people, GameRecord.loads(text), where)
    finally:
        for person in people.values():
            await person.ws.close()
    return sum(len(rnd.actions) for rnd in GameRecord.loads(text).rounds), code


def check(people: dict[int, Person], record: GameRecord, where: str) -> None:
    """Every state each person got is the reference game's view of its seat at that seq: the
    reference is dealt the decks the server revealed (each reshuffle from its round's salt) and
    plays the record's actions; the record verifies."""
    assert record.check_commitments() == len(record.rounds), where
    revealed = people[min(people)].decks
    assert sorted(revealed) == [rnd.round for rnd in record.rounds], where
    game = Game(record.rules, record.players, explicit_chance=True)
    game.deal(record.first_dealer)
    salts = {number: salt for number, (_, salt) in revealed.items()}

    def deal() -> None:
        while game.is_chance():
            step = game.chance_step
            assert step is not None
            if step.kind == "deal":
                game.deal(parse_cards(revealed[step.round][0]))
            else:
                game.deal(salted_reshuffle(salts[step.round], step.cards, step.number))

    def compare(seq: int) -> None:
        for seat, person in people.items():
            if seq in person.states:
                got = person.states[seq]["view"]
                expected = json.loads(json.dumps(view_json(game.view(seat))))
                assert got == expected, f"{where}: seat {seat} at seq {seq}"
                assert [move["text"] for move in got["legal"]] == got["legal_actions"], where
        assert spectator_view_json(game)["round"] == game.round, where

    deal()
    compare(0)
    seq = 0
    for rnd in record.rounds:
        for seat, action in rnd.actions:
            seq += 1
            for person in people.values():
                if seq in person.acks:
                    assert person.acks[seq] == str(action), f"{where}: ack of seq {seq}"
            game.apply(action, seat=seat)
            deal()
            compare(seq)
    assert game.is_over, where
    assert record.replay().events == game.events, where


async def soak(folder: Path) -> int:
    server = start_server(folder / "soak.db", free_port(), "--seed", str(SOAK_SEED))
    try:
        played = [await play_table(server, index) for index in range(len(GAMES))]
    finally:
        server.kill()
    return sum(count for count, _ in played)


def test_many_random_games_through_the_real_server_match_the_engine(tmp_path: Path) -> None:
    actions = asyncio.run(soak(tmp_path))
    assert actions >= 300, f"soak seed {SOAK_SEED}: only {actions} actions"


def test_the_soak_is_seeded(tmp_path: Path) -> None:
    """The people's policies, the bot's moves and the server's deals are fixed by the seed: the
    first table plays the same game twice."""

    async def first_table(name: str) -> str:
        server = start_server(tmp_path / name, free_port(), "--seed", str(SOAK_SEED))
        try:
            _, code = await play_table(server, 0)
            async with httpx.AsyncClient(base_url=server.url, timeout=WAIT) as http:
                record = GameRecord.loads((await http.get(f"/api/tables/{code}/record")).text)
            return str([rnd.actions for rnd in record.rounds]) + str([rnd.deck for rnd in record.rounds])
        finally:
            server.kill()

    assert asyncio.run(first_table("a.db")) == asyncio.run(first_table("b.db")), f"soak seed {SOAK_SEED}"
