"""Live play over WebSockets: a whole game of two people and a bot; every message one seat gets
holds no card it may not know; deals are committed to before they are dealt and verify; bad
actions and bad messages get an error naming the rule, to that client only, and change nothing."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError

from support.server import Player
from support.server import SocketClosedError
from support.server import basic_choice
from support.server import card_texts
from support.server import create
from support.server import db_rows
from support.server import hello
from support.server import join
from support.server import make_app
from support.server import nothing_more
from support.server import receive
from thirtyone.action_ids import action_id
from thirtyone.actions import Action
from thirtyone.actions import Discard
from thirtyone.actions import Draw
from thirtyone.actions import Exchange
from thirtyone.actions import ExchangeAll
from thirtyone.actions import Keep
from thirtyone.actions import Knock
from thirtyone.actions import Look
from thirtyone.actions import Pass
from thirtyone.actions import TakeWidow
from thirtyone.actions import ThrowDown
from thirtyone.actions import parse_action
from thirtyone.cards import Card
from thirtyone.cards import full_deck
from thirtyone.engine import Game
from thirtyone.fairness import deal_deck
from thirtyone.fairness import salt_matches
from thirtyone.record import GameRecord
from thirtyone.rules import Rules
from thirtyone.server import autoplay as autoplay_module
from thirtyone.server.autoplay import TIMER_FOLLOW_UP
from thirtyone.server.db_store import Store
from thirtyone.server.serialize import event_json
from thirtyone.server.serialize import legal_json
from thirtyone.server.serialize import result_json
from thirtyone.server.serialize import spectator_view_json
from thirtyone.server.serialize import view_json

# ---------------------------------------------------------------------------------------------- a whole game


@dataclass
class Played:
    code: str
    players: dict[int, Player]
    watcher: Player
    record: GameRecord
    actions: int
    late: dict[int | None, Player]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    """Two people (seats 0 and 1, played by the basic bot's choices from their views) and an easy
    bot (seat 2), lives=1, played to the end; a spectator watches."""
    db = tmp_path_factory.mktemp("game") / "game.db"
    with TestClient(make_app(db, messages_per_second=1000.0, message_burst=1000)) as client, ExitStack() as stack:
        created = create(client, ["human", "human", "easy"], name="Ann", lives=1)
        code = created["code"]
        with (
            client.websocket_connect(f"/ws/tables/{code}") as ws0,
            client.websocket_connect(f"/ws/tables/{code}") as ws1,
            client.websocket_connect(f"/ws/tables/{code}") as wsw,
        ):
            ann = hello(ws0, created["token"], 0)
            assert ann.state is not None
            assert ann.state["view"] is None  # not started: nothing to see yet
            watcher = hello(wsw, None, None)
            ben_seat = join(client, code, "Ben")
            ben = hello(ws1, ben_seat["token"], 1)
            players = {0: ann, 1: ben}
            late: dict[int | None, Player] = {}  # a seat and a spectator that open mid-game (a reload)
            seq, actions = -1, 0
            while True:
                states = {seat: player.settle(seq) for seat, player in players.items()}
                watched = watcher.settle(seq)
                seq = states[0]["seq"]
                assert states[1]["seq"] == seq == watched["seq"]
                if states[0]["view"]["phase"] == "over":
                    break
                if actions == 2:  # chat and a reaction go to everyone (and hold no card)
                    ann.ws.send_json({"type": "chat", "text": "good luck, and 5 < 6"})
                    ben.ws.send_json({"type": "chat", "reaction": "good_luck"})
                    for player in (ann, ben, watcher):
                        player.until("chat")
                        player.until("chat")
                if not late and states[0]["view"]["round"] >= 2:
                    for seat, token in ((1, ben_seat["token"]), (None, None)):
                        ws = stack.enter_context(client.websocket_connect(f"/ws/tables/{code}"))
                        late[seat] = hello(ws, token, seat)
                        late[seat].until("history")
                mover = players[states[0]["view"]["current_seat"]]
                mover.act(basic_choice(mover.state or {}, seed=seq))
                ack = mover.until("ack")
                assert ack["seq"] == seq + 1
                actions += 1
                assert actions < 2000
            assert states[0]["table"]["status"] == "finished"
            offer = client.post(f"/api/tables/{code}/rematch", headers={"Authorization": f"Bearer {created['token']}"})
            assert offer.status_code == 200, offer.text
            for player in (*players.values(), watcher, *late.values()):
                player.until("rematch")
            response = client.get(f"/api/tables/{code}/record")
            assert response.status_code == 200
            assert response.headers["content-disposition"] == f'attachment; filename="thirtyone-{code}.toml"'
            record = GameRecord.loads(response.text)
            assert db_rows(db, "SELECT count(*), max(seq) FROM actions WHERE table_code = ?", code) == [
                (record.action_count, record.action_count)
            ]
            yield Played(code, players, watcher, record, actions, late)


def test_a_whole_game_of_two_people_and_a_bot(played: Played) -> None:
    record = played.record
    assert record.is_finished
    game = record.replay()  # every action legal, every result as the record says
    assert game.is_over
    final = played.players[0].state
    assert final is not None
    assert final["view"]["phase"] == "over"
    assert final["table"]["winner"] == game.winner
    assert final["table"]["record_path"] == f"/api/tables/{played.code}/record"
    assert record.seats == ("Ann", "Ben", "Cy")
    bot_actions = sum(1 for rnd in record.rounds for seat, _ in rnd.actions if seat == 2)
    assert bot_actions > 0
    assert played.actions + bot_actions == record.action_count
    assert len(record.rounds) >= 2


def seat_views(record: GameRecord, seat: int | None) -> dict[int, tuple[dict[str, Any], set[str], Game]]:
    """For each seq: the view the seat must get, the cards it may not know, and the game (a copy)."""
    views: dict[int, tuple[dict[str, Any], set[str], Game]] = {}
    for seq, game in enumerate(record.replay_steps()):
        if seat is None:
            view = spectator_view_json(game)
            public = set(game.discard_pile) | (set(game.widow) if game.widow_face_up else set())
            for other in range(game.players):
                public |= set(game.known_cards(other))
            hidden = {str(card) for card in full_deck(game.rules.deck) if card not in public}
        else:
            view = view_json(game.view(seat))
            hidden = {str(card) for card in game.unseen_by(seat)}
        views[seq] = (json.loads(json.dumps(view)), hidden, game.copy())
    return views


def leaks(messages: list[dict[str, Any]], expected: dict[int, tuple[dict[str, Any], set[str], Game]]) -> list[str]:
    """Every card in ``messages`` its receiver may not know (results of ended rounds and the reveals
    of their decks aside, which are checked against what the rules show), and every view that is
    not exactly the engine's view for that seq."""
    found: list[str] = []
    pending: list[dict[str, Any]] = []
    for message in messages:
        if message["type"] in ("ack", "history"):  # the sender's own action echoed back; history: below
            continue
        if message["type"] in ("chat", "rematch"):  # what people said, and the next table: never a card
            found.extend(f"{message['type']} shows {card}" for card in card_texts(message))
            continue
        if message["type"] != "state":
            pending.append(message)
            continue
        seq = message["seq"]
        if message["view"] is None:
            assert not pending or all(not list(card_texts(m)) for m in pending)
            pending = []
            continue
        view, hidden, game = expected[seq]
        if message["view"] != view:
            found.append(f"seq {seq}: the view is not the engine's view for this seat")
        current = dict(message["view"])
        current.pop("last_result")  # the previous round's, checked by the equality above
        current["history"] = [event for event in current["history"] if event["type"] != "round_ended"]
        for card in set(card_texts(current)) & hidden:
            found.append(f"seq {seq}: state shows {card}")
        for card in set(card_texts(message["table"])):
            found.append(f"seq {seq}: table shows {card}")
        for earlier in pending:
            if earlier["type"] == "reveal":  # decks that waited for the game's end (R5.7)
                if not game.is_over and message["table"]["status"] == "playing":
                    found.append(f"seq {seq}: reveal before the game's end")
            elif earlier["type"] == "round_end":
                number = earlier["round"]
                result = game.round_logs[number - 1].result
                if result is None:
                    found.append(f"seq {seq}: round {number}'s deck revealed before it ended")
                elif earlier["result"] != json.loads(json.dumps(result_json(result.public()))):
                    found.append(f"seq {seq}: round {number}'s result is not the public one")
            else:
                found.extend(f"seq {seq}: {earlier['type']} shows {card}" for card in card_texts(earlier))
        pending = []
    return found


def history_leaks(messages: list[dict[str, Any]], seat: int | None, record: GameRecord) -> list[str]:
    """Every ``history`` message (the catch-up of a page that opens mid-game) that is not exactly
    every round so far as the engine shows it to ``seat`` (each event ``for_seat``): the rounds
    of the game at the seq of the state before it."""
    games = [game.copy() for game in record.replay_steps()]  # each step: the game is one object, moved on
    found: list[str] = []
    seq = None
    for message in messages:
        if message["type"] == "state":
            seq = message["seq"]
        elif message["type"] == "history":
            assert seq is not None
            game = games[seq]
            viewer = -1 if seat is None else seat
            for rnd in message["rounds"]:
                events = game.round_events(rnd["round"])
                engine = [
                    json.loads(json.dumps(event_json(event.for_seat(viewer), game.rules, viewer))) for event in events
                ]
                if rnd["events"] != engine:
                    found.append(f"history at seq {seq}: round {rnd['round']} is not as the engine shows it")
            if [rnd["round"] for rnd in message["rounds"]] != list(range(1, game.round + 1)):
                found.append(f"history at seq {seq}: not every round")
            found.extend(f"history's chat shows {card}" for card in card_texts(message["chat"]))
    return found


def test_no_message_to_a_seat_holds_a_card_it_may_not_know(played: Played) -> None:
    for seat in (0, 1):
        messages = played.players[seat].messages
        assert sum(1 for m in messages if m["type"] == "state") > played.record.action_count // 2
        expected = seat_views(played.record, seat)
        assert leaks(messages, expected) == []
        assert {"chat", "rematch"} <= {m["type"] for m in messages}
    for seat, late in played.late.items():  # a page opened mid-game: its catch-up, then live
        assert any(m["type"] == "history" for m in late.messages)
        assert history_leaks(late.messages, seat, played.record) == []
        assert leaks(late.messages, seat_views(played.record, seat)) == []
    # the check finds a card planted in a catch-up, and one in a chat line
    messages = played.late[1].messages
    at = next(i for i, m in enumerate(messages) if m["type"] == "history")
    planted = json.loads(json.dumps(messages[at]))
    planted["rounds"][0]["events"].append({"type": "acted", "seat": 0, "action": "draw stock", "received": ["2c"]})
    assert history_leaks([*messages[:at], planted], 1, played.record)
    assert leaks([{"type": "chat", "seat": 0, "text": "I hold Ah", "reaction": None}], {}) == ["chat shows Ah"]
    # the check itself finds a planted card: seat 1's hand in a message to seat 0
    expected = seat_views(played.record, 0)
    state = next(m for m in played.players[0].messages if m["type"] == "state" and m["view"] and m["seq"] > 3)
    game = expected[state["seq"]][2]
    other = str(game.hand(1)[0])
    planted = json.loads(json.dumps(state))
    planted["view"]["history"].append({"type": "acted", "seat": 1, "action": "draw stock", "received": [other]})
    assert leaks([planted], expected)
    planted = json.loads(json.dumps(state))
    planted["view"]["seats"][1]["known_cards"] = [other]
    assert any(other in line for line in leaks([planted], expected))


def test_a_spectator_sees_public_information_only(played: Played) -> None:
    messages = played.watcher.messages
    expected = seat_views(played.record, None)
    assert leaks(messages, expected) == []
    assert all(m["view"]["hand"] is None for m in messages if m["type"] == "state" and m["view"])


def test_every_deal_is_committed_before_it_is_dealt_and_verifies(played: Played) -> None:
    record = played.record
    assert record.check_commitments() == len(record.rounds)
    for player in [*played.players.values(), played.watcher]:
        published: dict[int, str] = {}
        waited: set[int] = set()
        checked: set[int] = set()
        for message in player.messages:
            if message["type"] == "deal":
                published[message["round"]] = message["commitment"]
                assert not list(card_texts(message))
            elif message["type"] in ("round_end", "reveal"):
                for shown in message["rounds"] if message["type"] == "reveal" else [message]:
                    number = shown["round"]
                    assert shown["commitment"] == published[number]
                    assert shown["scheme"] == "thirtyone-chain/1"
                    if message["type"] == "round_end" and not message["revealed"]:  # R5.7: at the game's end
                        assert (shown["deck"], shown["salt"]) == (None, None)
                        waited.add(number)
                        continue
                    assert salt_matches(published[number], shown["salt"], number)
                    deck = deal_deck(shown["salt"], number, shown["seeds"])
                    assert deck == list(record.rounds[number - 1].deck)
                    assert shown["deck"] == " ".join(map(str, deck))
                    checked.add(number)
            elif message["type"] == "state" and message["view"] is not None:
                if message["view"]["round"] not in published:  # connected after the deal: it comes along
                    assert message["table"]["commitment"] is not None, "a deal shown before its commitment"
                    published[message["view"]["round"]] = message["table"]["commitment"]
                if message["view"]["phase"] != "over":
                    assert message["table"]["commitment"] == published[message["view"]["round"]]
        assert record.fairness is not None
        assert published == {rnd.round: record.fairness.commitment for rnd in record.rounds}
        assert waited <= checked  # every round that waited was revealed at the end


# ---------------------------------------------------------------------------------------------- bad input


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "play.db"


def connect(client: TestClient, stack: ExitStack, code: str, token: str | None, seat: int | None) -> Player:
    ws = stack.enter_context(client.websocket_connect(f"/ws/tables/{code}"))
    return hello(ws, token, seat)


@contextlib.contextmanager
def two_at_a_table(db: Path, **settings: Any) -> Iterator[tuple[str, Player, Player, str]]:
    """A table of two people, Ann (seat 0) and Ben (seat 1), both connected, on an app with
    ``settings``: yields the code, Ann, Ben and Ann's seat token."""
    with TestClient(make_app(db, **settings)) as client, ExitStack() as stack:
        created = create(client, ["human", "human"], name="Ann")
        code = created["code"]
        second = join(client, code, "Ben")
        ann = connect(client, stack, code, created["token"], 0)
        ben = connect(client, stack, code, second["token"], 1)
        yield code, ann, ben, created["token"]


def test_illegal_and_out_of_turn_actions_change_nothing(db: Path) -> None:
    with two_at_a_table(db) as (code, ann, ben, ann_token):
        ann.until("table")  # Ben connected
        state = ann.state
        assert state is not None
        mover, waiter = (ann, ben) if state["view"]["current_seat"] == 0 else (ben, ann)
        before = mover.state
        assert before is not None
        seq = before["seq"]

        def refused(player: Player, payload: dict[str, Any] | str, code_word: str) -> dict[str, Any]:
            if isinstance(payload, str):
                player.ws.send_text(payload)
            else:
                player.ws.send_json(payload)
            message = player.next()
            assert message["type"] == "error", message
            assert message["code"] == code_word, message
            return message

        out_of_turn = refused(waiter, {"type": "action", "action": "draw stock", "seq": seq}, "not_your_turn")
        assert out_of_turn["message"].startswith("R2.1: it is ")
        other = refused(
            waiter, {"type": "action", "action": "draw stock", "seq": seq, "seat": mover.seat}, "not_your_seat"
        )
        assert "cannot act for seat" in other["message"]
        long = refused(
            waiter, {"type": "action", "action": "draw stock", "seq": seq, "seat": "x" * 3000}, "not_your_seat"
        )
        assert len(long["message"]) < 120  # the seat it asked for, cut short: not echoed whole
        assert refused(mover, {"type": "action", "action": "fly away", "seq": seq}, "bad_action")["message"].startswith(
            "cannot read action"
        )
        assert refused(mover, {"type": "action", "action": "pass", "seq": seq}, "illegal_action")["message"].startswith(
            "R4.1"
        )
        stale = refused(mover, {"type": "action", "action": "draw stock", "seq": seq - 1}, "stale")
        assert f"table {code} is at seq {seq}" in stale["message"]
        assert mover.next()["type"] == "state"  # the current state comes with it
        refused(mover, {"type": "action", "action": "draw stock"}, "bad_message")
        refused(mover, {"type": "action", "action": 7, "seq": seq}, "bad_message")
        refused(mover, {"type": "action", "action": "draw stock", "seq": True}, "bad_message")
        assert refused(mover, "not json", "bad_input")["message"].startswith("malformed message: not JSON;")
        deep = refused(mover, "[" * 2000 + "]" * 2000, "bad_input")  # JSON, but past what Python's parser reads
        assert deep["message"].startswith("malformed message: JSON nested too deeply for the server to read;")
        refused(mover, "[1, 2]", "bad_input")
        refused(mover, "{}", "bad_input")
        refused(mover, {"type": "dance"}, "bad_message")
        refused(mover, {"type": "hello", "token": ann_token}, "bad_message")
        mover.ws.send_bytes(b"\x00\x01")
        assert mover.next()["code"] == "bad_input"
        refused(mover, {"type": "ping", "padding": "x" * 5000}, "too_large")
        # R4.2: take the pile's top card, then try to discard it
        mover.act("draw pile")
        assert mover.until("ack")["seq"] == seq + 1
        taken = mover.until("state")["view"]["taken_from_pile"]
        illegal = refused(mover, {"type": "action", "action": f"discard {taken}", "seq": seq + 1}, "illegal_action")
        assert illegal["message"].startswith("R4.2: cannot discard the card just taken from the discard pile")
        mover.ws.send_json({"type": "sync"})
        after = mover.until("state")
        assert after["seq"] == seq + 1
        assert after["view"]["taken_from_pile"] == taken
        assert after["view"]["hand"] == mover.messages[-1]["view"]["hand"]
        mover.ws.send_json({"type": "ping"})
        assert mover.next() == {"type": "pong"}
        # the other client heard of none of it: just the one action's state
        heard = waiter.next()
        assert (heard["type"], heard["seq"]) == ("state", seq + 1)
        nothing_more(waiter.ws)
        assert db_rows(db, "SELECT seq, action FROM actions WHERE table_code = ?", code) == [(seq + 1, "draw pile")]


def test_an_action_is_sent_as_its_id_and_each_legal_action_comes_with_its_id(db: Path) -> None:
    with two_at_a_table(db) as (code, ann, ben, _ann_token):
        ann.until("table")  # Ben connected
        state = ann.state
        assert state is not None
        mover, waiter = (ann, ben) if state["view"]["current_seat"] == 0 else (ben, ann)
        view = (mover.state or {})["view"]
        bare = dict.fromkeys(("card", "source", "give", "take"))
        assert view["legal"] == [
            {"id": 52, "text": "draw stock", **bare, "kind": "draw", "source": "stock"},
            {"id": 53, "text": "draw pile", **bare, "kind": "draw", "source": "pile"},
        ] + ([{"id": 54, "text": "knock", "kind": "knock", **bare}] if "knock" in view["legal_actions"] else [])
        assert [move["text"] for move in view["legal"]] == view["legal_actions"]  # the notation stays
        assert (waiter.state or {})["view"]["legal"] == []
        seq = state["seq"]
        for payload, word in (
            ({"id": "52"}, "bad_message"),
            ({"id": True}, "bad_message"),
            ({"id": 79}, "bad_action"),  # no such id
            ({"id": 61}, "bad_action"),  # an exchange: no widow in draw mode
            ({"id": 52, "action": "draw pile"}, "bad_action"),  # the notation beside it names another action
            ({"id": 0}, "illegal_action"),  # discard 2c: draw first (R4.1)
        ):
            mover.ws.send_json({"type": "action", "seq": seq, **payload})
            refused = mover.next()
            assert (refused["type"], refused["code"]) == ("error", word), (payload, refused)
        mover.ws.send_json({"type": "action", "id": 53, "action": "draw pile", "seq": seq})
        ack = mover.until("ack")
        assert (ack["seq"], ack["action"], ack["id"]) == (seq + 1, "draw pile", 53)
        drawn = mover.until("state")["view"]
        discard = next(move for move in drawn["legal"] if move["kind"] == "discard")
        assert discard["id"] == int(Card.parse(discard["card"]))  # a discard's id is its card's
        mover.ws.send_json({"type": "action", "id": discard["id"], "seq": seq + 1})
        assert mover.until("ack")["action"] == discard["text"]
        rows = db_rows(db, "SELECT seq, action FROM actions WHERE table_code = ? ORDER BY seq", code)
        assert rows == [(seq + 1, "draw pile"), (seq + 2, discard["text"])]  # the notation is what is stored


# ---------------------------------------------------------------------------------------------- actions as data

DATA_KEYS = {"draw": {"source"}, "discard": {"card"}, "exchange": {"give", "take"}}
"""The data keys each kind of action fills (docs/server-protocol.md, "Actions as data"); the others are null."""
BARE: dict[str, Action] = {
    "knock": Knock(),
    "exchange_all": ExchangeAll(),
    "pass": Pass(),
    "keep": Keep(),
    "take_widow": TakeWidow(),
    "look": Look(),
    "throw_down": ThrowDown(),
}


def action_from_data(data: dict[str, Any]) -> Action:
    """The action that an action's data on the wire says, read from the data alone (as a client
    does: never from the notation), after checking that the keys its kind does not use are null."""
    kind = data["kind"]
    assert {key for key in ("card", "source", "give", "take") if data[key] is not None} == DATA_KEYS.get(kind, set())
    if kind == "draw":
        return Draw(data["source"])
    if kind == "discard":
        return Discard(Card.parse(data["card"]))
    if kind == "exchange":
        return Exchange([Card.parse(card) for card in data["give"]], [Card.parse(card) for card in data["take"]])
    return BARE[kind]


def actions_sent(message: dict[str, Any]) -> Iterator[tuple[dict[str, Any], str]]:
    """Every action a message holds (a view's legal moves, the acted events of its history, of a
    round_end's or of a history message), each as its data and its notation."""
    view = message.get("view") if message["type"] == "state" else None
    events = list(view["history"]) if view else []
    if message["type"] == "round_end":
        events += message["history"]
    if message["type"] == "history":
        events += [event for rnd in message["rounds"] for event in rnd["events"]]
    for move in view["legal"] if view else []:
        yield move, move["text"]
    for event in events:
        if event["type"] == "acted":
            yield event, event["action"]


def test_every_action_a_seat_is_sent_carries_its_data_beside_its_notation(played: Played) -> None:
    kinds: Counter[str] = Counter()
    for player in [*played.players.values(), played.watcher, *played.late.values()]:
        for message in player.messages:
            for data, text in actions_sent(message):
                assert action_from_data(data) == parse_action(text), (data, text)
                kinds[data["kind"]] += 1
    assert {"draw", "discard"} <= set(kinds), kinds


SEED = 20261203
"""The seed of the random games below (their deals and their moves)."""


@pytest.mark.parametrize(
    ("rules", "kinds"),
    [
        (Rules.preset("widow"), {"exchange", "exchange_all", "pass", "knock"}),
        (Rules.preset("widow", exchange="any"), {"exchange", "exchange_all", "pass", "knock"}),
        (Rules.preset("schwimmen"), {"keep", "take_widow", "exchange", "exchange_all", "pass", "knock"}),
        (Rules.preset("scat", throw_down=True), {"look", "throw_down", "draw", "discard", "knock"}),
    ],
    ids=["widow", "exchange-any", "schwimmen", "throw-down"],
)
def test_every_kind_of_action_has_its_data_in_legal_and_in_the_history(rules: Rules, kinds: set[str]) -> None:
    chooser = random.Random(SEED)
    game = Game(rules, 3, seed=SEED)
    offered: set[str] = set()
    for _ in range(400):
        if game.is_over:
            break
        seat = game.current_seat
        assert seat is not None
        view = game.view(seat)
        for move in legal_json(view):
            assert action_from_data(move) == parse_action(move["text"]), f"seed {SEED}: {move}"
            assert move["id"] == action_id(view, parse_action(move["text"]))
            offered.add(move["kind"])
        number = game.round
        game.apply(chooser.choice(game.legal_actions()))
        for viewer in (seat, (seat + 1) % 3, -1):  # the mover, another seat, a spectator
            for event in game.round_events(number):
                data = event_json(event.for_seat(viewer), game.rules, viewer)
                if data["type"] == "acted":
                    assert action_from_data(data) == parse_action(data["action"]), f"seed {SEED}: {data}"
    assert kinds <= offered, f"seed {SEED}: {offered}"


def test_an_exchange_is_sent_with_its_cards_from_the_hand_and_the_widow() -> None:
    game = Game(Rules.preset("widow"), 3, seed=3)
    game.apply("pass")
    seat = game.current_seat
    assert seat is not None
    view = game.view(seat)
    exchange = parse_action("exchange 9c for 4h")
    assert legal_json(view)[0] == {
        "id": action_id(view, exchange),
        "text": "exchange 9c for 4h",
        "kind": "exchange",
        "card": None,
        "source": None,
        "give": ["9c"],
        "take": ["4h"],
    }
    game.apply(exchange)
    seen = event_json(game.round_events(game.round)[-1].for_seat(-1), game.rules)
    assert (seen["action"], seen["kind"], seen["give"], seen["take"]) == (
        "exchange 9c for 4h",
        "exchange",
        ["9c"],
        ["4h"],
    )


def test_rate_limit_per_connection(db: Path) -> None:
    with two_at_a_table(db, messages_per_second=0.5, message_burst=5) as (_code, ann, ben, _ann_token):
        ann.until("table")
        for _ in range(12):
            ann.ws.send_json({"type": "ping"})
        replies = [ann.next() for _ in range(4)]  # hello took one token of the burst
        assert replies == [{"type": "pong"}] * 4
        limited = ann.next()
        assert limited["code"] == "rate_limited"
        assert "at most 0.5 a second" in limited["message"]
        nothing_more(ann.ws)  # one error a second at most; the rest are dropped quietly
        ben.ws.send_json({"type": "ping"})
        assert ben.next() == {"type": "pong"}  # the others are served as ever


@pytest.mark.parametrize(("timeout", "words"), [(0.2, "no hello within 0.2 seconds"), (1, "no hello within 1 second")])
def test_a_silent_connection_is_closed(db: Path, timeout: float, words: str) -> None:
    with TestClient(make_app(db, hello_timeout=timeout)) as client:
        code = create(client, ["human", "human"])["code"]
        with client.websocket_connect(f"/ws/tables/{code}") as ws:
            ws.send_json({"type": "ping"})
            assert receive(ws)["code"] == "no_hello"
            timed_out = receive(ws)
            assert timed_out["code"] == "hello_timeout"
            assert timed_out["message"] == words
            with pytest.raises(SocketClosedError) as closed:
                receive(ws)
            assert closed.value.code == 4408


def test_an_action_is_acknowledged_only_once_it_is_in_the_database(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = Store.append_batch

    def slow_append(self: Store, *args: Any, **kwargs: Any) -> Any:
        time.sleep(0.3)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Store, "append_batch", slow_append)
    with two_at_a_table(db) as (code, ann, ben, _ann_token):
        for step in range(4):
            state = ann.settle(step - 1)
            mover = ann if state["view"]["current_seat"] == 0 else ben
            mover.settle(step - 1)
            mover.act(basic_choice(mover.state or {}))
            ack = mover.until("ack")
            rows = db_rows(db, "SELECT action FROM actions WHERE table_code = ? AND seq = ?", code, ack["seq"])
            assert rows == [(ack["action"],)]


def test_a_failed_write_is_an_error_to_that_client_and_changes_nothing(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = Store.append_batch
    failures = [1]

    def flaky(self: Store, *args: Any, **kwargs: Any) -> Any:
        if failures:
            failures.pop()
            raise OperationalError("INSERT", {}, Exception("disk I/O error"))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Store, "append_batch", flaky)
    with two_at_a_table(db) as (_code, ann, ben, _ann_token):
        ann.until("table")
        state = ann.state
        assert state is not None
        mover, waiter = (ann, ben) if state["view"]["current_seat"] == 0 else (ben, ann)
        before = mover.state
        assert before is not None
        mover.act("draw stock")
        failed = mover.next()
        assert failed["type"] == "error"
        assert failed["code"] == "database"
        assert "disk I/O error" in failed["message"]
        assert "nothing was changed" in failed["message"]
        mover.ws.send_json({"type": "sync"})
        again = mover.until("state")
        assert again["seq"] == before["seq"]
        assert again["view"] == before["view"]
        nothing_more(waiter.ws)
        mover.act("draw stock")  # the database is back
        assert mover.until("ack")["seq"] == before["seq"] + 1
        assert db_rows(db, "SELECT count(*) FROM actions") == [(1,)]


def test_a_failed_write_leaves_the_table_as_it_was_with_nothing_replayed(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An action is worked out on a copy of the table's game and stored before the copy becomes
    the table's: when the write fails, the table still holds the very game it had, and no game is
    built again from what is stored (no replay)."""
    real = Store.append_batch
    failures = [1]

    def flaky(self: Store, *args: Any, **kwargs: Any) -> Any:
        if failures:
            failures.pop()
            raise OperationalError("INSERT", {}, Exception("disk I/O error"))
        return real(self, *args, **kwargs)

    built: list[int] = []
    made = Game.__init__

    def counted(self: Game, *args: Any, **kwargs: Any) -> None:
        built.append(1)
        made(self, *args, **kwargs)

    monkeypatch.setattr(Store, "append_batch", flaky)
    with TestClient(make_app(db)) as client, ExitStack() as stack:
        created = create(client, ["human", "human"], name="Ann")
        code = created["code"]
        second = join(client, code, "Ben")
        ann = connect(client, stack, code, created["token"], 0)
        ben = connect(client, stack, code, second["token"], 1)
        ann.until("table")
        state = ann.state
        assert state is not None
        runner = client.app.state.service._runners[code]  # type: ignore[attr-defined]
        game, seq = runner.game, runner.data.seq
        monkeypatch.setattr(Game, "__init__", counted)
        mover = ann if state["view"]["current_seat"] == 0 else ben
        mover.act("draw stock")
        assert mover.until("error")["code"] == "database"
        assert runner.game is game  # the same game: nothing to undo
        assert runner.data.seq == seq
        assert runner.history.actions == []
        assert built == []  # nothing built again from the database
        mover.act("draw stock")
        assert mover.until("ack")["seq"] == seq + 1
        assert runner.game is not game  # the copy the stored action was played on
        assert built == []


# ---------------------------------------------------------------------------------------------- bots and the timer


class FixedClock:
    """The turn timer's wall clock (``time.time``, for the turn deadlines it publishes) stopped at NOW."""

    NOW = 1_700_000_000.0

    @staticmethod
    def time() -> float:
        return FixedClock.NOW


def test_the_turn_timer_plays_a_legal_default_for_an_absent_player(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(autoplay_module, "time", FixedClock)
    # the timer runs from Ben's join, before both connect: 2 s for that and the draw below (a loaded
    # machine took 0.3 s), else the timer plays that first move itself
    with two_at_a_table(db, turn_timer=2.0) as (code, ann, ben, _ann_token):
        ann.until("table")
        state = ann.state
        assert state is not None
        assert state["table"]["turn_timer"] == 2.0
        assert state["table"]["turn_deadline"] == FixedClock.NOW + 2.0
        mover = ann if state["view"]["current_seat"] == 0 else ben
        mover.act("draw pile")
        assert mover.until("ack")["seq"] == 1
        taken = mover.until("state")["view"]["taken_from_pile"]
        timed = mover.until("state", timeout=5)  # nobody acts: the timer discards for them
        assert timed["seq"] == 2
        played = timed["view"]["history"][-1]
        assert played["seat"] == mover.seat
        assert played["action"].startswith("discard ")
        assert played["action"] != f"discard {taken}"  # R4.2
        assert db_rows(db, "SELECT seq, source FROM actions WHERE table_code = ? ORDER BY seq", code) == [
            (1, "player"),
            (2, "timer"),
        ]
        assert timed["last"] == {"seq": 2, "seat": mover.seat, "source": "timer"}  # the page can say so


def test_a_turn_the_timer_began_is_finished_without_a_whole_timer_again(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(autoplay_module, "time", FixedClock)
    with two_at_a_table(db, turn_timer=1.5) as (_code, ann, _, _ann_token):
        ann.until("table")
        for _ in range(10):  # nobody acts: the timer plays; find a turn where it drew (a knock is a whole turn)
            drawn = ann.until("state", timeout=5)
            if drawn["view"]["phase"] == "discard":
                break
        assert drawn["last"]["source"] == "timer"
        assert drawn["view"]["phase"] == "discard"
        assert drawn["table"]["turn_deadline"] == FixedClock.NOW + TIMER_FOLLOW_UP  # not another 1.5 s
        discarded = ann.until("state", timeout=5)
        assert discarded["seq"] == drawn["seq"] + 1
        assert discarded["last"] == {
            "seq": drawn["seq"] + 1,
            "seat": drawn["last"]["seat"],
            "source": "timer",
        }


def test_bots_are_paced(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot's turn waits out ``bot_delay`` (what it asks to sleep, not how long a run took)."""
    asked: list[float] = []
    real_sleep = asyncio.sleep

    async def sleep(seconds: float, *args: Any) -> Any:
        asked.append(seconds)
        return await real_sleep(seconds, *args)

    monkeypatch.setattr(autoplay_module.asyncio, "sleep", sleep)
    with TestClient(make_app(db, bot_delay=0.3)) as client, ExitStack() as stack:
        created = create(client, ["human", "easy"], name="Ann")
        ann = connect(client, stack, created["code"], created["token"], 0)
        seq = -1
        for _ in range(3):
            state = ann.settle(seq)
            seq = state["seq"]
            if state["view"]["phase"] == "over":
                break
            mark = len(asked)
            ann.act(basic_choice(state))
            ann.until("ack")
            nxt = ann.until("state")
            if nxt["view"]["current_seat"] == 1 and nxt["view"]["phase"] == "turn":
                bot_state = ann.until("state")
                assert bot_state["view"]["history"][-1]["seat"] == 1
                assert any(0.2 < seconds <= 0.3 for seconds in asked[mark:]), asked  # the rest of the 0.3 s


def test_a_round_end_carries_the_rounds_history_with_its_last_move(played: Played) -> None:
    game = played.record.replay()
    for seat, player in [*played.players.items(), (None, played.watcher)]:
        ends = [m for m in player.messages if m["type"] == "round_end"]
        assert len(ends) == len(played.record.rounds)
        for message in ends:
            number = message["round"]
            viewer = -1 if seat is None else seat
            events = [event_json(event.for_seat(viewer), game.rules, viewer) for event in game.round_events(number)]
            assert message["history"] == json.loads(json.dumps(events))
            moves = [e for e in message["history"] if e["type"] == "acted"]
            recorded = played.record.rounds[number - 1].actions
            if recorded:  # the move that ended the round is there (no state shows it: the next is a new round's)
                assert (moves[-1]["seat"], moves[-1]["action"]) == (recorded[-1][0], str(recorded[-1][1]))
