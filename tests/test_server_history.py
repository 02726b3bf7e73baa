"""One history: a database written by an earlier server (tests/data/server-0004, schema 0004, made
by its ``make.py`` with the server of commit 5b2124b) still opens, every stored table resumes and
shows what that server showed of it after a restart (its table and view, its deals, every seat's
and a spectator's hello: welcome, state, history, reveal), and every stored record is served as it
was and still replays (``/record.json``, the replay page's data). New keys may have been added
since; nothing the earlier server said may be missing or different."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from support.server import make_app
from support.server import receive
from thirtyone.record import GameRecord

FIXTURE = Path(__file__).parent / "data" / "server-0004"
VOLATILE = {"turn_deadline", "until"}
"""Keys whose values are wall-clock times of the moment they were sent."""


def differences(old: Any, new: Any, where: str = "") -> list[str]:
    """Where ``new`` does not say what ``old`` said: a missing key, another value or another
    number of items (keys only ``new`` has are allowed; :data:`VOLATILE` ones are not compared)."""
    if isinstance(old, dict) and isinstance(new, dict):
        found = []
        for key, value in old.items():
            if key in VOLATILE:
                continue
            if key not in new:
                found.append(f"{where}/{key}: missing")
            else:
                found.extend(differences(value, new[key], f"{where}/{key}"))
        return found
    if isinstance(old, list) and isinstance(new, list):
        if len(old) != len(new):
            return [f"{where}: {len(old)} items before, {len(new)} now"]
        return [
            line
            for index, pair in enumerate(zip(old, new, strict=True))
            for line in differences(*pair, f"{where}[{index}]")
        ]
    return [] if old == new else [f"{where}: {str(old)[:80]!r} before, {str(new)[:80]!r} now"]


def hello_messages(client: TestClient, code: str, token: str | None) -> list[dict[str, Any]]:
    """Every message a new WebSocket of ``token``'s seat (``None``: a spectator) gets on its hello."""
    with client.websocket_connect(f"/ws/tables/{code}") as ws:
        ws.send_json({"type": "hello", "token": token} if token else {"type": "hello"})
        messages = []
        while True:
            try:
                messages.append(receive(ws, 0.5))
            except TimeoutError:
                return messages


@pytest.fixture(scope="module")
def expected() -> dict[str, Any]:
    return dict(json.loads((FIXTURE / "expected.json").read_text(encoding="utf-8")))


@pytest.fixture
def client(tmp_path: Path) -> Any:
    shutil.copy(FIXTURE / "tables.db", tmp_path / "tables.db")
    with TestClient(make_app(tmp_path / "tables.db")) as test_client:
        yield test_client


def test_every_table_of_an_earlier_database_resumes_as_it_was(client: TestClient, expected: dict[str, Any]) -> None:
    assert len(expected["tables"]) == 11
    for code, before in expected["tables"].items():
        now: dict[str, Any] = {
            "table": client.get(f"/api/tables/{code}").json(),
            "deals": client.get(f"/api/tables/{code}/deals").json(),
            "hello": {
                str(seat): hello_messages(client, code, token)
                for seat, token in [*before["tokens"].items(), ("None", None)]
            },
        }
        found = differences({key: before[key] for key in now}, now, code)
        assert not found, "\n".join(found[:20])


def test_every_record_of_an_earlier_database_is_served_as_it_was_and_replays(
    client: TestClient, expected: dict[str, Any]
) -> None:
    records = {code: before for code, before in expected["tables"].items() if before["record"] is not None}
    assert len(records) >= 3  # finished and closed games
    for code, before in records.items():
        response = client.get(f"/api/tables/{code}/record")
        assert response.status_code == 200, response.text
        assert response.text == before["record"]
        GameRecord.loads(response.text).replay()
        found = differences(before["record_json"], client.get(f"/api/tables/{code}/record.json").json(), code)
        assert not found, "\n".join(found[:20])


def test_the_tables_of_an_earlier_database_play_on(client: TestClient, expected: dict[str, Any]) -> None:
    """Each game being played takes its next move (the first legal one) and deals on as it began."""
    for code, before in expected["tables"].items():
        if before["table"]["table"]["status"] != "playing":
            continue
        seat = before["table"]["view"]["current_seat"]
        token = before["tokens"].get(str(seat))
        if token is None:  # a bot's move is waiting: it plays by itself
            continue
        with client.websocket_connect(f"/ws/tables/{code}") as ws:
            ws.send_json({"type": "hello", "token": token})
            state = next(message for message in iter(lambda: receive(ws), None) if message["type"] == "state")
            ws.send_json({"type": "action", "action": state["view"]["legal_actions"][0], "seq": state["seq"]})
            ack = next(message for message in iter(lambda: receive(ws), None) if message["type"] in ("ack", "error"))
            assert ack["type"] == "ack", ack
            assert ack["seq"] == state["seq"] + 1
