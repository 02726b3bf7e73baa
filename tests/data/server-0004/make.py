"""How ``tables.db`` and ``expected.json`` were made: a database written by the server of commit
5b2124b (schema 0004), before the server stored its games from an explicit history, kept so that
tests/test_server_history.py can check that every stored table still resumes and every stored record
still replays, showing what it showed then.

Run with that commit's code first on the path, through the public HTTP and WebSocket API only::

    git worktree add /tmp/before 5b2124b
    PYTHONPATH=/tmp/before/src:/tmp/before/tests python tests/data/server-0004/make.py tests/data/server-0004

Its games are played by seeded choices over whatever deals that server drew (its chance could not be
set then); what they drew is in the database, and ``expected.json`` holds what that server showed of
each table after a restart: ``GET /api/tables/{code}``, ``/deals``, ``/record`` and
``/record.json`` where there is one, and the messages a WebSocket of each seat (and a spectator's)
got on its hello.
"""

from __future__ import annotations

import json
import random
import sqlite3
import sys
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from test_server_support import Player
from test_server_support import basic_choice
from test_server_support import create
from test_server_support import hello
from test_server_support import join
from test_server_support import make_app
from test_server_support import receive

SEEDS = ["0123456789abcdef" * 2, "fedcba9876543210" * 2, "00112233445566778899aabbccddeeff"]


def sockets(client: TestClient, code: str, tokens: dict[int, str]) -> tuple[list[Any], dict[int, Player]]:
    contexts = [client.websocket_connect(f"/ws/tables/{code}") for _ in tokens]
    players = {
        seat: hello(context.__enter__(), token, seat)
        for context, (seat, token) in zip(contexts, tokens.items(), strict=True)
    }
    return contexts, players


def play(
    client: TestClient,
    code: str,
    tokens: dict[int, str],
    choose: Any,
    moves: int,
    done: Any = None,
) -> None:
    """Play ``moves`` actions of the people at ``code`` (each chosen by ``choose(state)``), or
    until ``done(state)``; ends at a person's turn (or the game's end)."""
    contexts, players = sockets(client, code, tokens)
    try:
        state = None
        for player in players.values():
            state = player.settle()
        for _ in range(moves):
            assert state is not None
            if state["view"]["phase"] == "over" or state["table"]["status"] != "playing":
                break
            if done is not None and done(state):
                break
            seat = state["view"]["current_seat"]
            mover = players[seat]
            mover.settle(state["seq"] - 1)
            assert mover.state is not None
            mover.act(choose(mover.state))
            seq = state["seq"]
            for player in players.values():
                state = player.settle(seq)
    finally:
        for context in contexts:
            context.__exit__(None, None, None)


def draw_stock(state: dict[str, Any]) -> str:
    legal = state["view"]["legal_actions"]
    if "draw stock" in legal:
        return "draw stock"
    discards = [action for action in legal if action.startswith("discard")]
    return discards[-1] if discards else legal[0]


def reshuffled(state: dict[str, Any]) -> bool:
    return any(event["type"] == "reshuffled" for event in state["view"]["history"])


def seeded(seed: int) -> Any:
    rng = random.Random(seed)

    def choose(state: dict[str, Any]) -> str:
        legal = [action for action in state["view"]["legal_actions"] if action != "knock"] or ["knock"]
        return rng.choice(legal)

    return choose


def blitzed(state: dict[str, Any]) -> bool:
    result = state["view"]["last_result"]
    return result is not None and result["end"] in ("blitz", "dealt_blitz")


def capture(client: TestClient, code: str, tokens: dict[int, str]) -> dict[str, Any]:
    out: dict[str, Any] = {"tokens": {str(seat): token for seat, token in tokens.items()}}
    out["table"] = client.get(f"/api/tables/{code}").json()
    out["deals"] = client.get(f"/api/tables/{code}/deals").json()
    record = client.get(f"/api/tables/{code}/record")
    out["record"] = record.text if record.status_code == 200 else None
    out["record_json"] = client.get(f"/api/tables/{code}/record.json").json() if record.status_code == 200 else None
    out["hello"] = {}
    for seat, token in [*tokens.items(), (None, None)]:
        with client.websocket_connect(f"/ws/tables/{code}") as ws:
            ws.send_json({"type": "hello", "token": token} if token else {"type": "hello"})
            messages = []
            while True:
                try:
                    messages.append(receive(ws, 0.5))
                except TimeoutError:
                    break
            out["hello"][str(seat)] = messages
    return out


def main(folder: Path) -> None:
    path = folder / "tables.db"
    path.unlink(missing_ok=True)
    tables: dict[str, dict[int, str]] = {}
    names: dict[str, str] = {}
    with TestClient(make_app(path, turn_timer=1.0)) as client:  # moves the turn timer played
        made = create(client, ["human", "easy"], lives=5)
        ann = join(client, made["code"], "Ann")
        names["timer"], tables[made["code"]] = made["code"], {0: ann["token"]}
        with client.websocket_connect(f"/ws/tables/{made['code']}") as ws:
            player = hello(ws, ann["token"], 0)
            while player.state is None or player.state["seq"] < 4 or not player.state["view"]["is_my_turn"]:
                player.next()
    with TestClient(make_app(path, messages_per_second=1000, message_burst=1000)) as client:
        made = create(client, ["human", "human", "easy"], public=True)
        ann = join(client, made["code"], "Ann")
        names["open"], tables[made["code"]] = made["code"], {ann["seat"]: ann["token"]}
        with client.websocket_connect(f"/ws/tables/{made['code']}") as ws:
            hello(ws, ann["token"], ann["seat"])
            ws.send_json({"type": "seed", "seed": SEEDS[0]})
            ws.send_json({"type": "chat", "text": "hello, who plays?"})
            receive(ws)
            receive(ws)

        made = create(client, ["human", "easy", "easy"], lives=3)
        ann = client.post(f"/api/tables/{made['code']}/join", json={"name": "Ann", "seed": SEEDS[0]}).json()
        names["bots"], tables[made["code"]] = made["code"], {0: ann["token"]}
        play(client, made["code"], {0: ann["token"]}, lambda state: basic_choice(state, 1), 40)

        made = create(client, ["human", "human"], deck=32, lives=5)
        ann = client.post(f"/api/tables/{made['code']}/join", json={"name": "Ann", "seed": SEEDS[0]}).json()
        bob = client.post(f"/api/tables/{made['code']}/join", json={"name": "Bob", "seed": SEEDS[1]}).json()
        names["reshuffle"], tables[made["code"]] = made["code"], {0: ann["token"], 1: bob["token"]}
        both = {0: ann["token"], 1: bob["token"]}
        play(client, made["code"], both, draw_stock, 400, reshuffled)
        play(client, made["code"], both, draw_stock, 3)

        made = create(client, ["human", "easy"], lives=1)
        ann = join(client, made["code"], "Ann")
        names["finished"], tables[made["code"]] = made["code"], {0: ann["token"]}
        play(client, made["code"], {0: ann["token"]}, lambda state: basic_choice(state, 2), 400)
        again = client.post(
            f"/api/tables/{made['code']}/rematch", headers={"Authorization": f"Bearer {ann['token']}"}
        ).json()
        names["rematch"], tables[again["code"]] = again["code"], {again["seat"]: again["token"]}

        made = create(client, ["human", "human"])
        ann = join(client, made["code"], "Ann")
        bob = join(client, made["code"], "Bob")
        names["closed"], tables[made["code"]] = made["code"], {0: ann["token"], 1: bob["token"]}
        play(client, made["code"], {0: ann["token"], 1: bob["token"]}, seeded(3), 12)
        closed = client.post(
            f"/api/tables/{made['code']}/close", headers={"Authorization": f"Bearer {made['host_token']}"}
        )
        assert closed.status_code == 200, closed.text

        made = create(client, ["human", "human", "easy"], preset="schwimmen")
        ann = join(client, made["code"], "Ann")
        bob = join(client, made["code"], "Bob")
        names["widow"], tables[made["code"]] = made["code"], {0: ann["token"], 1: bob["token"]}
        play(client, made["code"], {0: ann["token"], 1: bob["token"]}, seeded(4), 30)

        made = create(client, ["human", "easy"], throw_down=True)
        ann = join(client, made["code"], "Ann")
        names["throw_down"], tables[made["code"]] = made["code"], {0: ann["token"]}
        play(client, made["code"], {0: ann["token"]}, seeded(5), 8)

        made = create(client, ["human", "easy"], lives=4)
        with sqlite3.connect(path) as connection:  # as a table of a server before salt chains
            connection.execute(
                "UPDATE game_tables SET commitment = NULL, chain_key = NULL, chain_length = NULL WHERE code = ?",
                (made["code"],),
            )
        ann = join(client, made["code"], "Ann")
        names["older"], tables[made["code"]] = made["code"], {0: ann["token"]}
        play(client, made["code"], {0: ann["token"]}, lambda state: basic_choice(state, 6), 25)

        for _ in range(40):  # a game played on after a 31 (R5.7: its deck waits for the game's end)
            made = create(client, ["human", "easy", "easy"], lives=5)
            ann = join(client, made["code"], "Ann")
            play(client, made["code"], {0: ann["token"]}, lambda state: basic_choice(state, 7), 300, blitzed)
            state = client.get(f"/api/tables/{made['code']}").json()
            if state["table"]["status"] == "playing" and blitzed(state):
                play(client, made["code"], {0: ann["token"]}, lambda state: basic_choice(state, 8), 4)
                names["after_31"], tables[made["code"]] = made["code"], {0: ann["token"]}
                break
    expected: dict[str, Any] = {"names": names, "tables": {}}
    with TestClient(make_app(path)) as client:  # as it resumes after a restart
        for code, tokens in tables.items():
            expected["tables"][code] = capture(client, code, tokens)
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        connection.execute("VACUUM")
    (folder / "expected.json").write_text(
        json.dumps(expected, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    main(Path(sys.argv[1]))
