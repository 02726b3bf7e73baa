"""What friends expect of a table, on the server: names nobody can use to impersonate, the table
chat (plain text, limited, to everyone), the history a page that opens mid-game needs, private
tables, hints switched off, a seat given to a bot by the host, and the rematch that everyone at
the old table is offered. Every bad request is refused to its sender only and changes nothing."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from support.server import Player
from support.server import basic_choice
from support.server import card_texts
from support.server import create
from support.server import db_rows
from support.server import hello
from support.server import join
from support.server import make_app
from thirtyone.server import chat
from thirtyone.server.messages import round_history
from thirtyone.server.names import check_display_name
from thirtyone.server.names import skeleton


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "friends.db"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with TestClient(make_app(db, messages_per_second=1000.0, message_burst=1000)) as test_client:
        yield test_client


def refused(response: Any, status: int, code: str) -> str:
    assert response.status_code == status, response.text
    assert response.json()["code"] == code, response.json()
    return str(response.json()["error"])


def connect(client: TestClient, stack: ExitStack, code: str, token: str | None, seat: int | None) -> Player:
    return hello(stack.enter_context(client.websocket_connect(f"/ws/tables/{code}")), token, seat)


def play_out(players: dict[int, Player]) -> dict[str, Any]:
    """The people play the basic bot's choices until the game is over; returns the last state."""
    seq = -1
    while True:
        states = {seat: player.settle(seq) for seat, player in players.items()}
        state = next(iter(states.values()))
        seq = state["seq"]
        if state["view"]["phase"] == "over":
            return state
        if state["view"]["current_seat"] not in players:  # a seat given to a bot meanwhile: it plays
            seq = state["seq"] - 1
            next(iter(players.values())).next()
            continue
        mover = players[state["view"]["current_seat"]]
        mover.act(basic_choice(mover.state or {}, seed=seq))
        mover.until("ack")


# ---------------------------------------------------------------------------------------------- names


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("You", "name_reserved"),
        ("  yOU ", "name_reserved"),
        ("ＹＯＵ", "name_reserved"),  # fullwidth: NFKC
        ("Yоu", "name_mixed"),  # a Cyrillic о among Latin letters
        ("Seat 2", "name_reserved"),
        ("Bot 3", "name_reserved"),
        ("Host", "name_reserved"),
        ("Cy", "name_taken"),  # the bot of seat 2
        ("CY", "name_taken"),
        ("Аnn", "name_mixed"),  # Cyrillic А, Latin nn
        ("Ánn", "name_taken"),
        ("ANN", "name_taken"),
        ("A n n", "name_taken"),
        ("ΑΝΝ", "name_taken"),  # all Greek capitals: one script, and it reads as Ann
        ("\u3164", "name_blank"),  # a Hangul filler shows nothing
        ("Cy (medium)", "name_reserved"),  # reads as the bot's label
        ("<b>Ben</b>", "name_reserved"),  # markup
        ("Ben [hard]", "name_reserved"),
    ],
)
def test_a_name_that_impersonates_is_refused(client: TestClient, name: str, code: str) -> None:
    created = create(client, ["human", "human", "easy"], name="Ann")
    message = refused(client.post(f"/api/tables/{created['code']}/join", json={"name": name}), 422, code)
    assert name.strip() in message or "shows nothing" in message
    assert [s["taken"] for s in client.get(f"/api/tables/{created['code']}").json()["table"]["seats"]] == [
        True,
        False,
        True,
    ]
    assert join(client, created["code"], "Ben")["seat"] == 1  # a plain name still joins


def test_an_invisible_character_in_a_name_is_named(client: TestClient) -> None:
    created = create(client, ["human", "human"], name="Ann")
    message = refused(client.post(f"/api/tables/{created['code']}/join", json={"name": "Be\u200bn"}), 422, "bad_input")
    assert "invisible character" in message
    assert join(client, created["code"], "Ben")["seat"] == 1


def test_the_creator_cannot_be_you_either(client: TestClient) -> None:
    body = {"preset": "scat", "seats": [{"type": "human"}, {"type": "bot", "level": "easy"}], "name": "you"}
    refused(client.post("/api/tables", json=body), 422, "name_reserved")


def test_skeletons_compare_what_names_look_like() -> None:
    assert skeleton("Аnn") == skeleton("Ann") == skeleton("ａｎｎ") == "ann"
    assert skeleton("Ivy") == skeleton("lvy")  # a capital I reads as an l
    assert skeleton("Mia") == skeleton("rnia")  # rn reads as m
    assert skeleton("🐱") == "🐱"
    with pytest.raises(ValueError, match="looks like 'Zoe'"):
        check_display_name("Zoë", ["Zoe"])
    assert check_display_name("Аня", ["Ann"]) == "Аня"  # Cyrillic alone is a name like any other
    assert check_display_name("Anna", ["Ann"]) == "Anna"


# ---------------------------------------------------------------------------------------------- chat


def test_chat_goes_to_everyone_as_plain_text_and_bad_lines_to_nobody(client: TestClient, db: Path) -> None:
    created = create(client, ["human", "human", "easy"], name="Ann")
    code = created["code"]
    ben_token = join(client, code, "Ben")["token"]
    with ExitStack() as stack:
        ann = connect(client, stack, code, created["token"], 0)
        ben = connect(client, stack, code, ben_token, 1)
        watcher = connect(client, stack, code, None, None)
        ann.ws.send_json({"type": "chat", "text": '  good luck, 5 < 6 & "quotes" 🙂  '})
        for player in (ann, ben, watcher):
            line = player.until("chat")
            assert (line["seat"], line["text"], line["reaction"]) == (0, 'good luck, 5 < 6 & "quotes" 🙂', None)
            assert isinstance(line["id"], int)
            assert isinstance(line["at"], float)
        ben.ws.send_json({"type": "chat", "reaction": "good_luck"})
        assert ann.until("chat")["reaction"] == "good_luck"
        bad: list[tuple[dict[str, Any], str]] = [
            ({"type": "chat", "text": ""}, "bad_chat"),
            ({"type": "chat", "text": "   "}, "bad_chat"),
            ({"type": "chat", "text": "x" * (chat.MAX_CHARS + 1)}, "bad_chat"),
            ({"type": "chat", "text": "two\nlines"}, "bad_chat"),
            ({"type": "chat", "text": "nul\x00byte"}, "bad_chat"),
            ({"type": "chat", "text": "\u202eevil"}, "bad_chat"),  # a bidi override
            ({"type": "chat", "text": "the \u2066isolate"}, "bad_chat"),  # a direction isolate
            ({"type": "chat", "text": 42}, "bad_chat"),
            ({"type": "chat", "text": "a", "reaction": "wow"}, "bad_chat"),
            ({"type": "chat"}, "bad_chat"),
            ({"type": "chat", "reaction": "<b>"}, "bad_chat"),
        ]
        for message, code_word in bad:
            ann.ws.send_json(message)
            error = ann.until("error")
            assert error["code"] == code_word, (message, error)
            assert "\n" not in error["message"]
        ann.ws.send_bytes(b'{"type": "chat", "text": "binary"}')
        assert ann.until("error")["code"] == "bad_input"
        watcher.ws.send_json({"type": "chat", "text": "I only watch"})
        assert watcher.until("error")["code"] == "spectator"
        ann.ws.send_json({"type": "ping"})
        ann.until("pong")
        for player in (ben, watcher):  # nobody else heard of any of it
            player.ws.send_json({"type": "ping"})
            player.until("pong")
            assert [m for m in player.messages if m["type"] == "chat"][-1]["reaction"] == "good_luck"
        assert db_rows(db, "SELECT seat, text, reaction FROM chat_lines WHERE table_code = ?", code) == [
            (0, 'good luck, 5 < 6 & "quotes" 🙂', None),
            (1, None, "good_luck"),
        ]


def test_chat_is_rate_limited_per_seat(client: TestClient) -> None:
    created = create(client, ["human", "human"], name="Ann")
    code = created["code"]
    ben_token = join(client, code, "Ben")["token"]
    with ExitStack() as stack:
        ann = connect(client, stack, code, created["token"], 0)
        ben = connect(client, stack, code, ben_token, 1)
        for i in range(chat.BURST + 2):
            ann.ws.send_json({"type": "chat", "text": f"line {i}"})
        said = [ann.until("chat")["text"] for _ in range(chat.BURST)]
        assert said == [f"line {i}" for i in range(chat.BURST)]
        for _ in range(2):
            error = ann.until("error")
            assert error["code"] == "chat_too_fast"
            assert "wait a moment" in error["message"]
        ben.ws.send_json({"type": "chat", "text": "my turn to talk"})  # another seat has its own limit
        assert ann.until("chat")["text"] == "my turn to talk"
        ben.ws.send_json({"type": "ping"})
        ben.until("pong")
        assert [m["text"] for m in ben.messages if m["type"] == "chat"] == [*said, "my turn to talk"]
        assert all(m["type"] != "error" for m in ben.messages)


# ---------------------------------------------------------------------------------------------- history


def test_a_page_that_opens_mid_game_gets_every_round_and_the_chat(client: TestClient) -> None:
    created = create(client, ["human", "human", "easy"], name="Ann", lives=3)
    code = created["code"]
    ben_token = join(client, code, "Ben")["token"]
    with ExitStack() as stack:
        players = {0: connect(client, stack, code, created["token"], 0), 1: connect(client, stack, code, ben_token, 1)}
        assert all(m["type"] != "history" for p in players.values() for m in p.messages)  # nothing to catch up on
        players[1].ws.send_json({"type": "chat", "text": "hello all"})
        players[0].until("chat")
        seq = -1
        while True:  # play into the second round
            state = {seat: player.settle(seq) for seat, player in players.items()}[0]
            seq = state["seq"]
            if state["view"]["round"] >= 2 or state["view"]["phase"] == "over":
                break
            mover = players[state["view"]["current_seat"]]
            mover.act(basic_choice(mover.state or {}, seed=seq))
            mover.until("ack")
        runner = client.app.state.service._runners[code]  # type: ignore[attr-defined]
        game = runner.game
        for seat, token in ((0, created["token"]), (None, None)):
            again = connect(client, stack, code, token, seat)
            history = again.until("history")
            assert [r["round"] for r in history["rounds"]] == list(range(1, game.round + 1))
            for rnd in history["rounds"]:
                assert rnd["events"] == round_history(game, rnd["round"], seat)
                acted = [e for e in rnd["events"] if e["type"] == "acted"]
                assert len(rnd["sources"]) == len(acted)
                assert set(rnd["sources"]) <= {"player", "bot"}
            assert [(line["seat"], line["text"]) for line in history["chat"]] == [(1, "hello all")]
            if seat is None:  # a spectator sees no card it may not know: nobody's stock draws
                for rnd in history["rounds"]:
                    for event in rnd["events"]:
                        if event["type"] == "acted" and event["action"] == "draw stock":
                            assert event["received"] is None


# ---------------------------------------------------------------------------------------------- private, hints


def test_hints_switched_off_by_the_host(client: TestClient) -> None:
    created = create(client, ["human", "easy"], name="Ann", hints=False)
    assert created["table"]["hints"] is False
    with ExitStack() as stack:
        ann = connect(client, stack, created["code"], created["token"], 0)
        ann.settle()
        ann.ws.send_json({"type": "hint"})
        error = ann.until("error")
        assert error["code"] == "hints_off"
        assert "turned hints off" in error["message"]
    body = {"seats": [{"type": "human"}, {"type": "human"}], "hints": "no"}
    refused(client.post("/api/tables", json=body), 422, "bad_input")
    refused(client.post("/api/tables", json={**body, "hints": True, "public": 1}), 422, "bad_input")


def test_a_private_table_is_joined_by_its_code_only(client: TestClient) -> None:
    private = create(client, ["human", "human"])
    listed = create(client, ["human", "human"], public=True)
    assert [t["code"] for t in client.get("/api/tables").json()["tables"]] == [listed["code"]]
    assert client.get(f"/api/tables/{private['code'].lower()}").json()["table"]["public"] is False
    assert join(client, private["code"], "Ann")["seat"] == 0


# ---------------------------------------------------------------------------------------------- a seat to a bot


def test_the_host_gives_the_seat_of_someone_who_left_to_a_bot(client: TestClient) -> None:
    created = create(client, ["human", "human", "easy"], name="Ann")
    code = created["code"]
    ben = join(client, code, "Ben")
    host = {"Authorization": f"Bearer {created['host_token']}"}
    with ExitStack() as stack:
        ann = connect(client, stack, code, created["token"], 0)
        with client.websocket_connect(f"/ws/tables/{code}") as ws:
            hello(ws, ben["token"], 1)
            refused(client.post(f"/api/tables/{code}/seats/1/bot", headers=host), 409, "seat_taken")  # Ben is here
        refused(client.post(f"/api/tables/{code}/seats/1/bot"), 403, "bad_token")
        ben_host = {"Authorization": f"Bearer {ben['token']}"}
        refused(client.post(f"/api/tables/{code}/seats/1/bot", headers=ben_host), 403, "bad_token")
        refused(client.post(f"/api/tables/{code}/seats/2/bot", headers=host), 409, "seat_taken")  # a bot's
        refused(client.post(f"/api/tables/{code}/seats/7/bot", headers=host), 422, "bad_input")
        refused(client.post(f"/api/tables/{code}/seats/1/bot", headers=host, json={"level": "grand"}), 422, "bad_input")
        answer = client.post(f"/api/tables/{code}/seats/1/bot", headers=host, json={"level": "easy"})
        assert answer.status_code == 200, answer.text
        seat = answer.json()["table"]["seats"][1]
        assert (seat["kind"], seat["level"], seat["name"]) == ("bot", "easy", "Ben")
        while ann.until("table")["table"]["seats"][1]["kind"] != "bot":  # Ben came and went first
            pass
        with client.websocket_connect(f"/ws/tables/{code}") as ws:  # Ben's token opens no seat now
            ws.send_json({"type": "hello", "token": ben["token"]})
            assert ws.receive_json()["code"] == "bad_token"
        final = play_out({0: ann})  # Ben's bot plays on
        assert final["table"]["status"] == "finished"
        refused(client.post(f"/api/tables/{code}/seats/0/bot", headers=host), 409, "table_closed")


def test_a_free_seat_given_to_a_bot_starts_the_game(client: TestClient) -> None:
    created = create(client, ["human", "human", "human"], name="Ann")
    code = created["code"]
    host = {"Authorization": f"Bearer {created['host_token']}"}
    assert client.post(f"/api/tables/{code}/seats/1/bot", headers=host).json()["table"]["status"] == "open"
    table = client.post(f"/api/tables/{code}/seats/2/bot", headers=host).json()["table"]
    assert table["status"] == "playing"
    assert [(s["kind"], s["name"]) for s in table["seats"]] == [("human", "Ann"), ("bot", "Bea"), ("bot", "Cy")]


# ---------------------------------------------------------------------------------------------- rematch


def test_a_rematch_is_offered_to_everyone_and_accepted_by_all(client: TestClient, db: Path) -> None:
    created = create(client, ["human", "easy", "human"], name="Ann", lives=1, hints=False)
    code = created["code"]
    ben = join(client, code, "Ben")
    with ExitStack() as stack:
        ann = connect(client, stack, code, created["token"], 0)
        ben_player = connect(client, stack, code, ben["token"], 2)
        watcher = connect(client, stack, code, None, None)
        early = client.post(f"/api/tables/{code}/rematch", headers={"Authorization": f"Bearer {ben['token']}"})
        refused(early, 409, "not_over")
        final = play_out({0: ann, 2: ben_player})
        assert final["table"]["rematch"] is None
        refused(client.post(f"/api/tables/{code}/rematch"), 403, "bad_token")
        stranger = {"Authorization": f"Bearer {created['host_token']}"}  # the host token opens no seat
        refused(client.post(f"/api/tables/{code}/rematch", headers=stranger), 403, "bad_token")
        made = client.post(f"/api/tables/{code}/rematch", headers={"Authorization": f"Bearer {ben['token']}"})
        assert made.status_code == 200, made.text
        new = made.json()
        assert new["code"] != code
        assert new["seat"] == 2
        assert new["host_token"]
        assert new["share_url"].endswith(f"/t/{new['code']}")
        table = new["table"]
        assert table["rematch_of"] == code
        assert (table["status"], table["rules"], table["hints"], table["public"]) == (
            "open",
            final["table"]["rules"],
            False,
            False,
        )
        assert [(s["kind"], s["level"], s["name"], s["taken"], s["reserved"]) for s in table["seats"]] == [
            ("human", None, "Ann", False, True),
            ("bot", "easy", "Bea", True, False),
            ("human", None, "Ben", True, False),
        ]
        for player in (ann, ben_player, watcher):
            offer = player.until("rematch")
            assert offer == {"type": "rematch", "code": new["code"], "share_path": f"/t/{new['code']}"}
            assert not list(card_texts(offer))
        assert client.get(f"/api/tables/{code}").json()["table"]["rematch"] == new["code"]
        # Ann's seat waits for her: nobody else takes it, and she cannot join twice
        refused(client.post(f"/api/tables/{new['code']}/join", json={"name": "Eve"}), 409, "table_full")
        refused(client.post(f"/api/tables/{new['code']}/join", json={"name": "Eve", "seat": 0}), 409, "seat_reserved")
        again = client.post(f"/api/tables/{code}/rematch", headers={"Authorization": f"Bearer {ben['token']}"})
        refused(again, 409, "seat_taken")
        accepted = client.post(f"/api/tables/{code}/rematch", headers={"Authorization": f"Bearer {created['token']}"})
        assert accepted.status_code == 200, accepted.text
        assert (accepted.json()["code"], accepted.json()["seat"]) == (new["code"], 0)
        assert "host_token" not in accepted.json()
        assert accepted.json()["table"]["status"] == "playing"
        with client.websocket_connect(f"/ws/tables/{new['code']}") as ws:
            hello(ws, accepted.json()["token"], 0)
    assert db_rows(db, "SELECT rematch FROM game_tables WHERE code = ?", code) == [(new["code"],)]


def test_a_rematch_of_a_closed_game_and_the_host_seats_a_bot_for_who_stays_away(client: TestClient) -> None:
    created = create(client, ["human", "human"], name="Ann")
    code = created["code"]
    ben = join(client, code, "Ben")
    closed = client.post(f"/api/tables/{code}/close", headers={"Authorization": f"Bearer {created['host_token']}"})
    assert closed.status_code == 200
    made = client.post(f"/api/tables/{code}/rematch", headers={"Authorization": f"Bearer {created['token']}"}).json()
    host = {"Authorization": f"Bearer {made['host_token']}"}
    table = client.post(f"/api/tables/{made['code']}/seats/1/bot", headers=host, json={"level": "medium"}).json()
    assert table["table"]["status"] == "playing"
    assert table["table"]["seats"][1] == {**table["table"]["seats"][1], "kind": "bot", "name": "Ben"}
    refused(
        client.post(f"/api/tables/{code}/rematch", headers={"Authorization": f"Bearer {ben['token']}"}),
        409,
        "seat_taken",
    )
    with ExitStack() as stack:
        ann = connect(client, stack, made["code"], made["token"], 0)
        assert ann.settle()["view"]["seats"][1]["out"] is False
    last = create(client, ["human", "easy"])
    host = {"Authorization": f"Bearer {last['host_token']}"}
    refused(client.post(f"/api/tables/{last['code']}/seats/0/bot", headers=host), 409, "last_person")
