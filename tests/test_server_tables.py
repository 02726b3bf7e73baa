"""The server's HTTP side: creating tables (rules, seats, bots), joining by name, the lobby,
spectating, closing, and every bad request answered with a clear error that changes nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from support.server import SocketClosedError
from support.server import create
from support.server import db_rows
from support.server import hello
from support.server import join
from support.server import make_app
from support.server import receive
from thirtyone.server.limits import hash_token


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "tables.db"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with TestClient(make_app(db)) as client:
        yield client


def error(response: Any, status: int, code: str) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["code"] == code, body
    assert "\n" not in body["error"]
    return str(body["error"])


def test_health_and_presets(client: TestClient) -> None:
    assert client.get("/api/health").json()["ok"] is True
    data = client.get("/api/presets").json()
    assert set(data["presets"]) == {"scat", "widow", "namu", "schwimmen", "mini"}  # mini: a research deck (a7314fc)
    assert data["options"]["lives"]["low"] == 1
    assert (data["options"]["lives"]["only"], data["options"]["deck"]["only"]) == (None, [8, 32, 52])
    assert data["bot_levels"] == ["easy", "medium", "hard", "random"]
    assert data["limits"]["max_seats"] == 9


def test_create_a_table_with_rules_and_seats_then_join_and_start(client: TestClient, db: Path) -> None:
    created = create(client, ["human", "easy", "human"], preset="namu", lives=2, min_knock_value=20)
    code = created["code"]
    assert len(code) == 6
    assert created["share_url"] == f"/t/{code}"  # no public URL set: a path, never the request's Host
    table = created["table"]
    assert table["status"] == "open"
    assert table["describe"] == "namu, lives=2, min_knock_value=20"
    assert table["differs"] == {"lives": 2, "min_knock_value": 20}  # the same, as data for the pages' words
    assert [s["kind"] for s in table["seats"]] == ["human", "bot", "human"]
    assert table["seats"][1]["level"] == "easy"
    assert table["seats"][1]["name"] == "Bea"
    assert "token" not in created  # nobody seated yet
    first = join(client, code.lower(), "Ann")  # codes are read in any case
    assert first["seat"] == 0
    assert client.get(f"/api/tables/{code}").json()["table"]["status"] == "open"
    second = join(client, code, "  Ben ")
    assert second["seat"] == 2
    info = client.get(f"/api/tables/{code}").json()
    assert info["table"]["status"] == "playing"
    assert [s["name"] for s in info["table"]["seats"]] == ["Ann", "Bea", "Ben"]
    assert info["table"]["commitment"] is not None
    assert info["view"]["hand"] is None  # the public view
    # tokens are stored hashed, never in clear
    rows = db_rows(db, "SELECT seat, token_hash FROM seats WHERE table_code = ? ORDER BY seat", code)
    assert rows == [(0, hash_token(first["token"])), (1, None), (2, hash_token(second["token"]))]
    stored = " ".join(str(cell) for row in db_rows(db, "SELECT * FROM seats") for cell in row)
    assert first["token"] not in stored
    assert created["host_token"] not in " ".join(str(c) for r in db_rows(db, "SELECT * FROM game_tables") for c in r)


def test_the_creator_can_take_a_seat_at_once(client: TestClient) -> None:
    created = create(client, ["human", "easy"], name="Ann")
    assert created["seat"] == 0
    assert created["token"]
    assert created["table"]["status"] == "playing"  # the last human seat: the game starts


def test_join_a_chosen_seat(client: TestClient) -> None:
    code = create(client, ["human", "human", "human"])["code"]
    assert join(client, code, "Cy", seat=2)["seat"] == 2
    assert error(client.post(f"/api/tables/{code}/join", json={"name": "Dee", "seat": 2}), 409, "seat_taken")
    assert "free seats: 0, 1" in error(
        client.post(f"/api/tables/{code}/join", json={"name": "Dee", "seat": 2}), 409, "seat_taken"
    )
    assert error(client.post(f"/api/tables/{code}/join", json={"name": "Dee", "seat": 7}), 422, "bad_input")
    assert error(client.post(f"/api/tables/{code}/join", json={"name": "cy"}), 422, "name_taken")


def test_lobby_lists_open_tables_and_playing_ones_to_watch(client: TestClient) -> None:
    one = create(client, ["human", "human"], public=True)["code"]
    two = create(client, ["human", "easy"], public=True)["code"]
    private = create(client, ["human", "human"])  # the default: reached by its code or link only
    assert private["table"]["public"] is False
    lobby = client.get("/api/tables").json()["tables"]
    assert {table["code"] for table in lobby} == {one, two}
    assert next(t for t in lobby if t["code"] == one)["free_seats"] == [0, 1]
    assert next(t for t in lobby if t["code"] == one)["differs"] == {}  # the preset as it is: nothing to say
    join(client, two, "Ann")
    assert [t["code"] for t in client.get("/api/tables").json()["tables"]] == [one]
    assert [t["code"] for t in client.get("/api/tables?status=playing").json()["tables"]] == [two]
    assert error(client.get("/api/tables?status=everything"), 422, "bad_input")
    assert error(client.get("/api/tables?limit=0"), 422, "bad_input")


def test_spectators_see_public_information_only(client: TestClient) -> None:
    created = create(client, ["human", "human", "easy"], name="Ann")
    code = created["code"]
    join(client, code, "Ben")
    with client.websocket_connect(f"/ws/tables/{code}") as ws:
        watcher = hello(ws, None, None)
        state = watcher.state
        assert state is not None
        view = state["view"]
        assert view["seat"] is None
        assert view["hand"] is None
        assert view["legal_actions"] == []
        assert state["table"]["spectators"] == 1
        ws.send_json({"type": "action", "action": "knock", "seq": 0})
        assert watcher.until("error")["code"] == "spectator"


def test_full_and_closed_tables_refuse_to_seat_anyone(client: TestClient, db: Path) -> None:
    created = create(client, ["human", "easy"], name="Ann")
    code = created["code"]
    message = error(client.post(f"/api/tables/{code}/join", json={"name": "Ben"}), 409, "table_full")
    assert "full" in message
    open_table = create(client, ["human", "human"])
    other = open_table["code"]
    assert error(client.post(f"/api/tables/{other}/close"), 403, "bad_token")
    headers = {"Authorization": f"Bearer {created['host_token']}"}  # another table's host token
    assert error(client.post(f"/api/tables/{other}/close", headers=headers), 403, "bad_token")
    headers = {"Authorization": f"Bearer {open_table['host_token']}"}
    closed = client.post(f"/api/tables/{other}/close", headers=headers)
    assert closed.status_code == 200
    assert closed.json()["table"]["status"] == "closed"
    assert error(client.post(f"/api/tables/{other}/join", json={"name": "Ben"}), 409, "table_closed")
    assert error(client.post(f"/api/tables/{other}/close", headers=headers), 409, "table_closed")
    assert error(client.get(f"/api/tables/{other}/record"), 409, "no_record")
    assert db_rows(db, "SELECT count(*) FROM seats WHERE table_code = ? AND name IS NOT NULL", other) == [(0,)]


def test_closing_a_game_keeps_its_record_with_every_deal_revealed(client: TestClient) -> None:
    created = create(client, ["human", "easy"], name="Ann")
    code = created["code"]
    assert error(client.get(f"/api/tables/{code}/record"), 409, "not_over")
    deals = client.get(f"/api/tables/{code}/deals").json()["deals"]
    assert deals[-1]["revealed"] is False
    assert deals[-1]["deck"] is None
    assert deals[-1]["salt"] is None
    with client.websocket_connect(f"/ws/tables/{code}") as ws:
        player = hello(ws, created["token"], 0)
        player.settle()  # the bot's moves first: on a loaded machine its state could come after the close
        client.post(f"/api/tables/{code}/close", headers={"Authorization": f"Bearer {created['host_token']}"})
        state = player.until("state")
        assert state["table"]["status"] == "closed"
        assert state["table"]["record_path"] == f"/api/tables/{code}/record"
        player.act("knock")
        assert player.until("error")["code"] == "not_playing"
    record = client.get(f"/api/tables/{code}/record")
    assert record.status_code == 200
    assert "salt = " in record.text
    deals = client.get(f"/api/tables/{code}/deals").json()["deals"]
    assert all(deal["revealed"] and deal["salt"] for deal in deals)


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"preset": "bridge", "seats": [{"type": "human"}, {"type": "human"}]}, 422, "unknown preset"),
        ({"options": {"jokers": 2}, "seats": [{"type": "human"}, {"type": "human"}]}, 422, "unknown option"),
        ({"options": {"lives": 0}, "seats": [{"type": "human"}, {"type": "human"}]}, 422, "lives"),
        ({"options": {"lives": [1]}, "seats": [{"type": "human"}, {"type": "human"}]}, 422, "options.lives"),
        ({"options": {"all_pass": "showdown"}, "seats": [{"type": "human"}, {"type": "human"}]}, 422, "mode"),
        ({"seats": [{"type": "human"}]}, 422, "2 to 9 seats"),
        ({"seats": [{"type": "human"}] * 10}, 422, "2 to 9 seats"),
        ({"preset": "schwimmen", "seats": [{"type": "human"}] * 9}, 422, "R2.1"),
        ({"seats": [{"type": "bot"}, {"type": "bot"}]}, 422, "at least one human"),
        ({"seats": [{"type": "human"}, {"type": "bot", "level": "grandmaster"}]}, 422, "unknown bot level"),
        ({"seats": [{"type": "human"}, {"type": "dog"}]}, 422, "'human' or 'bot'"),
        ({"seats": [{"type": "human"}, {"type": "human", "level": "easy"}]}, 422, "no level"),
        ({"seats": [{"type": "human"}, {"type": "human"}], "name": "\x07"}, 422, "printable"),
        ({"seats": [{"type": "human"}, {"type": "human"}], "colour": "red"}, 422, "colour"),
        ({}, 422, "seats"),
    ],
)
def test_bad_tables_are_refused_with_a_clear_error(
    client: TestClient, body: dict[str, Any], status: int, words: str
) -> None:
    response = client.post("/api/tables", json=body)
    assert words in error(response, status, "bad_input")
    assert client.get("/api/tables").json()["tables"] == []


def test_bad_requests(client: TestClient) -> None:
    assert "not JSON" in error(
        client.post("/api/tables", content=b"{not json", headers={"content-type": "application/json"}), 422, "bad_input"
    )
    big = {"seats": [{"type": "human"}, {"type": "human"}], "name": "x" * 20_000}
    assert "too large" in error(client.post("/api/tables", json=big), 413, "too_large")
    assert error(client.get("/api/tables/ZZZZZZ"), 404, "not_found")
    assert error(client.get("/api/tables/not-a-code!"), 404, "not_found")
    assert error(client.post("/api/tables/ZZZZZZ/join", json={"name": "Ann"}), 404, "not_found")
    code = create(client, ["human", "human"])["code"]
    assert error(client.post(f"/api/tables/{code}/join", json={"name": ""}), 422, "bad_input")
    assert error(client.post(f"/api/tables/{code}/join", json={"name": "x" * 21}), 422, "bad_input")
    assert error(client.post(f"/api/tables/{code}/join", json={"name": 5}), 422, "bad_input")
    for seat in (True, "1", 1.0, 2.5, [1], {"seat": 1}):  # a seat number is an int, nothing else
        message = error(client.post(f"/api/tables/{code}/join", json={"name": "Ann", "seat": seat}), 422, "bad_input")
        assert message.startswith("seat: "), message
    assert [s["taken"] for s in client.get(f"/api/tables/{code}").json()["table"]["seats"]] == [False, False]


def test_the_share_link_names_the_table(client: TestClient) -> None:
    code = create(client, ["human", "human"])["code"]
    page = client.get(f"/t/{code}")
    assert page.status_code == 200
    assert code in page.text
    assert client.get("/t/ZZZZZZ").status_code == 404


def test_websocket_to_an_unknown_table_or_with_a_guessed_token(client: TestClient) -> None:
    with client.websocket_connect("/ws/tables/ZZZZZZ") as ws:
        ws.send_json({"type": "hello"})
        assert receive(ws)["code"] == "not_found"
        with pytest.raises(SocketClosedError) as closed:
            receive(ws)
        assert closed.value.code == 4404
    code = create(client, ["human", "human"], name="Ann")["code"]
    with client.websocket_connect(f"/ws/tables/{code}") as ws:
        ws.send_json({"type": "hello", "token": "guessed-" + "A" * 35})
        message = receive(ws)
        assert message["code"] == "bad_token"
        assert "opens no seat" in message["message"]
        with pytest.raises(SocketClosedError) as closed:
            receive(ws)
        assert closed.value.code == 4403


def test_the_last_join_names_the_new_player_before_the_deal(client: TestClient) -> None:
    created = create(client, ["human", "human"], name="Ann")
    code = created["code"]
    with client.websocket_connect(f"/ws/tables/{code}") as ws:
        ann = hello(ws, created["token"], 0)
        join(client, code, "Ben")
        first = ann.next()
        assert first["type"] == "table"
        assert [seat["name"] for seat in first["table"]["seats"]] == ["Ann", "Ben"]
        assert first["table"]["status"] == "playing"
        kinds = [ann.next()["type"]]
        while kinds[-1] != "state":
            kinds.append(ann.next()["type"])
        assert kinds[0] == "deal"  # then state (or a 31 on the deal: round_end, deal, state)


def test_the_openapi_description_is_served_and_no_viewer_that_needs_the_internet(client: TestClient) -> None:
    spec = client.get("/openapi.json")
    assert spec.status_code == 200
    assert "/api/tables" in spec.json()["paths"]
    for viewer in ("/docs", "/redoc"):
        assert error(client.get(viewer), 404, "not_found")


def test_presets_give_the_mode_an_option_needs(client: TestClient) -> None:
    options = client.get("/api/presets").json()["options"]
    assert options["throw_down"]["mode"] == "draw"  # R6.6: refused in widow mode, so the lobby hides it there
    assert options["all_pass"]["mode"] == "widow"
    assert options["grace_life"]["mode"] is None
    assert options["lives"]["mode"] is None


def test_an_unknown_page_is_html_for_a_browser_and_json_for_the_api(client: TestClient) -> None:
    page = client.get("/nothing/here", headers={"Accept": "text/html,application/xhtml+xml"})
    assert page.status_code == 404
    assert page.headers["content-type"].startswith("text/html")
    assert "No such page" in page.text
    assert 'href="/"' in page.text
    assert error(client.get("/nothing/here"), 404, "not_found") == "no such page: /nothing/here"
