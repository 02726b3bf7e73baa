"""A bot level ``serve --bot`` added plays on the bot workers, never on the event loop: its bot's
time a move is unknown to the server (the judge counts a last turn exactly in 7-13 ms), and a
stall of the event loop is every table's (issue 44)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient

from thirtyone.server import ServerSettings
from thirtyone.server import create_app
from thirtyone.server.autoplay import BOT_LEVELS
from thirtyone.server.autoplay import thinks
from thirtyone.server.randomness import Randomness
from thirtyone.server.service import LEVEL_NAMES


def _next(ws: Any, timeout: float = 30.0) -> dict[str, Any]:
    """The next message on a test WebSocket, failing after ``timeout`` seconds instead of hanging."""

    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    message = ws.portal.call(get)
    assert message["type"] == "websocket.send", message
    return dict(json.loads(message["text"]))


def _my_turn(ws: Any) -> dict[str, Any]:
    """Read on to the state that asks the person to move (the bots before have moved)."""
    while True:
        message = _next(ws)
        if message["type"] == "state" and message["view"] and message["view"]["is_my_turn"]:
            return message


@pytest.fixture
def added_level(monkeypatch: pytest.MonkeyPatch) -> str:
    """The level ``sure``, played by the ``basic`` bot, as ``serve --bot sure=basic`` adds it."""
    monkeypatch.setitem(BOT_LEVELS, "sure", "basic")
    monkeypatch.setitem(LEVEL_NAMES, "sure", "sure")
    return "sure"


def test_an_added_level_thinks_apart(added_level: str) -> None:
    assert thinks(added_level)
    assert (thinks("medium"), thinks("hard"), thinks("easy"), thinks("random")) == (True, True, False, False)


def test_an_added_levels_moves_are_played_on_the_bot_workers(tmp_path: Path, added_level: str) -> None:
    settings = ServerSettings(
        database_url=f"sqlite:///{tmp_path}/t.db",
        bot_delay=0.0,
        showdown_timeout=0.0,
        worker_kind="thread",
        freeze_gc=False,
        randomness=Randomness(7),
    )
    app = create_app(settings=settings)
    pool = app.state.service.bots
    played: list[str] = []
    run = pool.run

    async def recording(function: Callable[..., Any], *args: Any) -> Any:
        played.append(args[0])  # bot_move(spec, seed, view)
        return await run(function, *args)

    pool.run = recording
    seats = [{"type": "human"}] + [{"type": "bot", "level": added_level}] * 3
    with TestClient(app) as client:
        made = client.post("/api/tables", json={"preset": "scat", "seats": seats, "name": "Ann"}).json()
        with client.websocket_connect(f"/ws/tables/{made['code']}") as ws:
            ws.send_json({"type": "hello", "token": made["token"]})
            state = _my_turn(ws)
            if not played:  # Ann moves first: her turn, then the bots'
                ws.send_json({"type": "action", "action": state["view"]["legal_actions"][0], "seq": state["seq"]})
                state = _my_turn(ws)
                if state["view"]["phase"] == "discard":  # she drew: her discard ends the turn
                    ws.send_json({"type": "action", "action": state["view"]["legal_actions"][0], "seq": state["seq"]})
                    _my_turn(ws)
    assert played
    assert set(played) == {"basic"}
