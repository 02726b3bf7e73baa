"""The browser pages over HTTP (no browser): the pages are served with their landmarks, the ES
modules and the stylesheet with the right content types, the record's JSON form matches the
record step by step, and expert hints over the WebSocket go to the asking player only."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from support.server import basic_choice
from support.server import create
from support.server import hello
from support.server import join
from support.server import make_app
from thirtyone import Game
from thirtyone import Rules
from thirtyone.bots.basic import BasicBot
from thirtyone.record import GameRecord
from thirtyone.record import format_action
from thirtyone.server.pages import STATIC
from thirtyone.server.routes_records import record_json
from thirtyone.server.serialize import ACTION_KEYS
from thirtyone.server.serialize import action_json
from thirtyone.server.serialize import cards
from thirtyone.server.serialize import spectator_view_json


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(make_app(tmp_path / "t.db", messages_per_second=1000.0, message_burst=1000)) as test_client:
        yield test_client


# ---------------------------------------------------------------------------------------------- pages


def test_the_lobby_page_has_its_landmarks_and_form(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    text = page.text
    for landmark in (
        '<html lang="en">',
        '<main id="main"',
        'role="banner"',
        "<h1>",
        'role="alert"',
        "<h2",
        'id="code-form"',
    ):
        assert landmark in text
    assert 'name="viewport"' in text
    assert '<script type="module" src="/static/js/lobby.js">' in text
    assert 'id="create-form"' in text


def test_the_table_and_replay_pages_name_their_table(client: TestClient) -> None:
    code = create(client, ["human", "human"])["code"]
    for path, script in ((f"/t/{code}", "table.js"), (f"/r/{code}", "replay.js"), (f"/t/{code.lower()}", "table.js")):
        page = client.get(path)
        assert page.status_code == 200, path
        assert f"table {code}" in page.text
        assert "{{" not in page.text
        assert f'src="/static/js/{script}"' in page.text
        assert "<main" in page.text
    table = client.get(f"/t/{code}").text
    assert 'aria-live="polite"' in table
    assert 'role="alert"' in table
    assert 'id="hint"' in table
    assert 'aria-keyshortcuts="?"' in table
    for unknown in ("/t/ZZZZZZ", "/r/ZZZZZZ", "/t/%3Cscript%3E"):
        missing = client.get(unknown)
        assert missing.status_code == 404
        assert missing.json()["code"] == "not_found"
        browser = client.get(unknown, headers={"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"})
        assert browser.status_code == 404
        assert browser.headers["content-type"].startswith("text/html")
        assert "No table has the code" in browser.text
        assert '<a class="button primary" href="/">' in browser.text
        assert "<script" not in browser.text  # the code is escaped


def test_the_table_page_names_its_rules(client: TestClient) -> None:
    code = create(client, ["human", "human"], preset="widow")["code"]
    assert '<span id="describe">widow</span>' in client.get(f"/t/{code}").text


def test_the_modules_and_the_stylesheet_are_served_with_their_content_types(client: TestClient) -> None:
    modules = sorted(path.name for path in (STATIC / "js").glob("*.js"))
    assert modules == [
        "boot.js",  # a classic script before the modules: a page whose files fail says so (not a module)
        "cards.js",
        "chat.js",
        "common.js",
        "connection.js",
        "drag.js",
        "fairness.js",
        "felt.js",
        "flights.js",
        "hand.js",
        "happened.js",
        "howto.js",
        "i18n.js",
        "lobby.js",
        "middle.js",
        "motion.js",
        "notices.js",
        "over.js",
        "picks.js",
        "render.js",
        "replay.js",
        "result.js",
        "review.js",
        "seats.js",
        "showdown.js",
        "side.js",
        "socket.js",
        "sound.js",
        "state.js",
        "table.js",
        "verify.js",
        "words.js",
    ]
    for name in modules:
        response = client.get(f"/static/js/{name}")
        assert response.status_code == 200
        assert response.headers["content-type"].split(";")[0] in ("text/javascript", "application/javascript")
        for imported in re.findall(r'from "\./([\w-]+\.js)"', response.text):  # every import resolves
            assert client.get(f"/static/js/{imported}").status_code == 200, imported
        assert "http://" not in response.text.replace("http://www.w3.org/2000/svg", "")  # nothing third-party
    style = client.get("/static/style.css")
    assert style.headers["content-type"].startswith("text/css")
    assert "prefers-reduced-motion" in style.text
    assert client.get("/static/nothing.js").status_code == 404


def test_the_pages_install_with_the_package() -> None:
    assert {path.name for path in STATIC.iterdir()} >= {"index.html", "table.html", "replay.html", "style.css", "js"}


# ---------------------------------------------------------------------------------------------- record.json


def _play_out(client: TestClient, code: str, players: dict[int, Any]) -> None:
    """Both people play the basic bot's choices until the game is over."""
    seq = -1
    while True:
        states = {seat: player.settle(seq) for seat, player in players.items()}
        seq = states[0]["seq"]
        view = states[0]["view"]
        if view["phase"] == "over":
            return
        mover = players[view["current_seat"]]
        mover.act(basic_choice(mover.state, seed=seq))
        mover.until("ack")


def test_the_record_as_json_matches_the_record_step_by_step(client: TestClient) -> None:
    created = create(client, ["human", "human", "easy"], name="Ann", lives=1)
    code = created["code"]
    with client.websocket_connect(f"/ws/tables/{code}") as ws0, client.websocket_connect(f"/ws/tables/{code}") as ws1:
        ann = hello(ws0, created["token"], 0)
        ben = hello(ws1, join(client, code, "Ben")["token"], 1)
        early = client.get(f"/api/tables/{code}/record.json")
        assert early.status_code == 409
        assert early.json()["code"] == "not_over"
        _play_out(client, code, {0: ann, 1: ben})
    record = GameRecord.loads(client.get(f"/api/tables/{code}/record").text)
    data = client.get(f"/api/tables/{code}/record.json").json()
    assert data["code"] == code
    assert data["seats"] == list(record.seats) == ["Ann", "Ben", "Cy"]
    assert data["winner"] == record.winner is not None
    assert data["places"] == list(record.places or ())
    assert data["rules"] == record.rules.options()
    assert [rnd["actions"] for rnd in data["rounds"]] == [
        [format_action(seat, action) for seat, action in rnd.actions] for rnd in record.rounds
    ]
    assert [rnd["commitment"] for rnd in data["rounds"]] == [rnd.commitment for rnd in record.rounds]
    assert all(rnd["salt"] for rnd in data["rounds"])
    steps = data["steps"]
    assert len(steps) == record.action_count + 1
    lines = [line for rnd in data["rounds"] for line in rnd["actions"]]
    assert [step["line"] for step in steps] == [None, *lines]
    moves = [action for rnd in record.rounds for _, action in rnd.actions]
    assert [{key: step[key] for key in ACTION_KEYS} for step in steps] == [
        action_json(None),
        *map(action_json, moves),
    ]  # each step's action as data, beside its notation (the replay page reads the data)
    ended = 0
    for step, game in zip(steps, record.replay_steps(), strict=True):
        assert step["hands"] == [cards(game.hand(seat)) for seat in range(game.players)]
        public = spectator_view_json(game)
        public["history"] = []
        assert step["view"] == public
        assert step["round"] == game.round
        assert step["ended"] == (step["results"][-1] if step["results"] else None)
        for result in step["results"]:  # a round ended by an action, then maybe a dealt 31 (R5.2)
            assert result["round"] == ended + 1
            assert result["losses"] == data["rounds"][ended]["result"]["losses"]
            ended += 1
    assert ended == len(record.rounds)
    assert steps[-1]["view"]["phase"] == "over"
    assert client.get("/api/tables/ZZZZZZ/record.json").status_code == 404


def test_an_action_that_ends_a_round_before_a_dealt_31_keeps_both_round_ends() -> None:
    """Regression: one action ended a round and the next deal was a 31 at once (R5.2); the step
    kept only the second result, so a round end was lost (seeded 3-player one-life games of basic
    bots show it about once in a hundred)."""
    found = None
    for seed in range(3000):
        game = Game(Rules.preset("scat", lives=1), 3, seed=seed)
        bots = [BasicBot(seed * 10 + seat) for seat in range(3)]
        while not game.is_over:
            ended = sum(1 for log in game.round_logs if log.result is not None)
            seat = game.current_seat
            assert seat is not None
            game.apply(bots[seat].choose(game.view(seat), game.legal_actions()))
            if sum(1 for log in game.round_logs if log.result is not None) - ended >= 2:
                found = game
        if found is not None:
            break
    assert found is not None, "no seed gave a round end followed by a dealt 31"
    record = GameRecord.from_game(found)
    data = record_json(record)
    results = [result for step in data["steps"] for result in step["results"]]
    assert [result["round"] for result in results] == [rnd.round for rnd in record.rounds]
    assert any(len(step["results"]) == 2 and step["results"][1]["end"] == "dealt_blitz" for step in data["steps"])


# ---------------------------------------------------------------------------------------------- hints


def test_a_hint_goes_to_the_player_to_move_only(client: TestClient) -> None:
    created = create(client, ["human", "human"], name="Ann")
    code = created["code"]
    with client.websocket_connect(f"/ws/tables/{code}") as ws0, client.websocket_connect(f"/ws/tables/{code}") as wsw:
        ann = hello(ws0, created["token"], 0)
        watcher = hello(wsw, None, None)
        ann.ws.send_json({"type": "hint"})
        assert ann.until("error")["code"] == "not_playing"  # Ben has not joined yet
        token = join(client, code, "Ben")["token"]
        with client.websocket_connect(f"/ws/tables/{code}") as ws1:
            players = {0: ann, 1: hello(ws1, token, 1)}
            states = {seat: player.settle() for seat, player in players.items()}
            mover_seat = states[0]["view"]["current_seat"]
            mover, other = players[mover_seat], players[1 - mover_seat]
            state = states[mover_seat]
            mover.ws.send_json({"type": "hint"})
            hint = mover.until("hint", timeout=20)
            assert hint["seq"] == state["seq"]
            assert hint["action"] in state["view"]["legal_actions"]
            assert set(hint) == {"type", "seq", "action", "id", "moves", "reads", "deals", "rough"}  # data only
            for read in hint["reads"]:  # what the expert believes of the opponent, when it is half sure
                assert read["seat"] == 1 - mover_seat
                assert read["suit"] in "cdhs"
                assert 0.5 <= read["probability"] <= 1
            assert {move["action"] for move in hint["moves"]} == set(state["view"]["legal_actions"])
            assert hint["moves"][0]["action"] == hint["action"]
            legal = {move["text"]: move["id"] for move in state["view"]["legal"]}
            assert all(move["id"] == legal[move["action"]] for move in hint["moves"])  # each move's id too
            data = {move["text"]: {key: move[key] for key in ACTION_KEYS} for move in state["view"]["legal"]}
            assert all({key: move[key] for key in ACTION_KEYS} == data[move["action"]] for move in hint["moves"])
            assert all(isinstance(move["value"], float) for move in hint["moves"])
            other.ws.send_json({"type": "hint"})
            refused = other.until("error")
            assert all(message["type"] != "hint" for message in other.messages)  # the hint is the asker's alone
            assert refused["code"] == "not_your_turn"
            assert refused["message"].startswith("R2.1")
            watcher.ws.send_json({"type": "hint"})
            assert watcher.until("error")["code"] == "spectator"
            mover.act("draw stock")  # after a draw: discard, still a choice among four
            mover.until("ack")
            discard_state = mover.settle(state["seq"])
            mover.ws.send_json({"type": "hint"})
            hint = mover.until("hint", timeout=20)
            assert hint["seq"] == discard_state["seq"]
            assert hint["action"].startswith("discard ")
            assert hint["action"] in discard_state["view"]["legal_actions"]
            watcher.ws.send_json({"type": "ping"})
            watcher.until("pong")
            assert all(message["type"] != "hint" for message in watcher.messages)


def test_a_hint_says_what_the_expert_believes_of_the_opponents(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 15, item 5: the hint's ``reads``, the opponents the expert is at least half sure of."""
    import dataclasses

    from thirtyone.bots.belief import OpponentRead
    from thirtyone.bots.expert import ExpertBot

    analyse = ExpertBot.analyse

    def reading(self: ExpertBot, view: Any, legal: Any = None) -> Any:
        reads = (OpponentRead(1, 2, 0.716), OpponentRead(2, 3, 0.3))  # sure of Ben's hearts, not of Cy
        return dataclasses.replace(analyse(self, view, legal), reads=reads)

    monkeypatch.setattr(ExpertBot, "analyse", reading)
    created = create(client, ["human", "easy", "easy"], preset="namu", name="Ann")  # the expert hints namu
    with client.websocket_connect(f"/ws/tables/{created['code']}") as ws:
        ann = hello(ws, created["token"], 0)
        state = ann.settle()
        while len(state["view"]["legal_actions"]) < 2:  # a forced move: no search, no reads
            ann.act(state["view"]["legal_actions"][0])
            state = ann.settle(state["seq"])
        ann.ws.send_json({"type": "hint"})
        hint = ann.until("hint", timeout=20)
        assert hint["reads"] == [{"seat": 1, "suit": "h", "probability": 0.72}]


def test_a_failing_expert_is_an_error_message_not_a_dropped_connection(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from thirtyone.bots.expert import ExpertBot

    def broken(self: ExpertBot, view: Any, legal: Any = None) -> Any:
        raise ValueError("broken on purpose")

    monkeypatch.setattr(ExpertBot, "analyse", broken)
    created = create(client, ["human", "easy"], preset="namu", name="Ann")  # the expert hints namu
    with client.websocket_connect(f"/ws/tables/{created['code']}") as ws:
        ann = hello(ws, created["token"], 0)
        state = ann.settle()
        assert state["view"]["current_seat"] == 0
        ann.ws.send_json({"type": "hint"})
        error = ann.until("error")
        assert error["code"] == "no_hint"
        assert "broken on purpose" in error["message"]
        ann.act(state["view"]["legal_actions"][0])  # the connection still plays
        assert ann.until("ack")["seq"] == state["seq"] + 1
