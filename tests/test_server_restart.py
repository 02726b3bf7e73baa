"""Nothing lost: the real server (``thirtyone serve`` in a subprocess) killed with SIGKILL in the middle
of a game resumes it exactly where it was — every acknowledged action stored, the same view for
every seat, the same deal commitments — and the game goes on to its end (the bot too) with a record
that verifies. A database that cannot be opened and a port in use are one-line errors (exit 2)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from collections.abc import AsyncIterator
from collections.abc import Callable
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect

from support.processes import Server
from support.processes import free_port
from support.processes import start_server
from support.server import basic_choice
from support.server import db_rows
from support.server import waits_for_person
from thirtyone.cli import main


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[Callable[[], Server]]:
    """Starts servers on one database (each on a new port); kills any still running at the end."""
    started: list[Server] = []
    db = tmp_path / "restart.db"

    def start() -> Server:
        started.append(start_server(db, free_port()))
        return started[-1]

    yield start
    for server in started:
        if server.process.poll() is None:
            server.kill()
        if server.process.stderr is not None:
            server.process.stderr.close()


@dataclass
class Seat:
    """One person's WebSocket: its latest state and every ack it got, as ``(seq, action)``."""

    ws: ClientConnection
    seat: int
    state: dict[str, Any] | None = None
    acks: list[tuple[int, str]] = field(default_factory=list)
    deals: dict[int, str] = field(default_factory=dict)

    async def next(self, timeout: float = 10.0) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        assert message["type"] != "error", message
        if message["type"] == "state":
            self.state = message
        elif message["type"] == "deal":
            self.deals[message["round"]] = message["commitment"]
        elif message["type"] == "ack":
            self.acks.append((message["seq"], message["action"]))
        return message

    async def settle(self, after: int) -> dict[str, Any]:
        """States until one past seq ``after`` that waits for a person (or the game is over)."""
        while True:
            state = self.state
            if state is not None and state["seq"] > after and state["view"] is not None and waits_for_person(state):
                return state
            await self.next()

    async def act(self, action: str) -> int:
        """Send ``action`` at the latest seq; returns the acknowledged seq."""
        assert self.state is not None
        count = len(self.acks)
        await self.ws.send(json.dumps({"type": "action", "action": action, "seq": self.state["seq"]}))
        while len(self.acks) == count:
            await self.next()
        return self.acks[-1][0]


@contextlib.asynccontextmanager
async def seated(server: Server, code: str, tokens: dict[int, str]) -> AsyncIterator[dict[int, Seat]]:
    """Each seat connected with its token, welcomed, holding its first state."""
    seats: dict[int, Seat] = {}
    try:
        for number, token in tokens.items():
            ws = await connect(f"{server.ws_url}/ws/tables/{code}", open_timeout=10, close_timeout=1)
            seat = seats[number] = Seat(ws, number)
            await ws.send(json.dumps({"type": "hello", "token": token}))
            welcome = await seat.next()
            assert welcome["type"] == "welcome", welcome
            assert welcome["seat"] == number
            assert (await seat.next())["type"] == "state"
        yield seats
    finally:
        for seat in seats.values():
            await seat.ws.close()


async def play(seats: dict[int, Seat], stop: Callable[[dict[str, Any]], bool], seq: int = -1) -> dict[int, Any]:
    """Play the basic bot's choices for every person until ``stop(state)`` or the game is over;
    returns each seat's state then (every seat at the same seq)."""
    while True:
        states = {number: await seat.settle(seq) for number, seat in seats.items()}
        seq = states[0]["seq"]
        assert {state["seq"] for state in states.values()} == {seq}
        view = states[0]["view"]
        if view["phase"] == "over" or stop(states[0]):
            return states
        mover = seats[view["current_seat"]]
        await mover.act(basic_choice(states[view["current_seat"]], seed=seq))


def knock_point(state: dict[str, Any]) -> bool:
    """Round 2 or later, seat 1 (a person) may knock, and the bot (seat 2) is in: after seat 1's
    knock the bot must take its last turn (R6), so it plays after the restart."""
    view = state["view"]
    return bool(
        state["table"]["round"] >= 2
        and view["current_seat"] == 1
        and view["knocker"] is None
        and not view["seats"][2]["out"]
        and not view["seats"][0]["out"]
    )


async def test_a_killed_server_resumes_every_table_where_it_was(
    servers: Callable[[], Server], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server = servers()
    async with httpx.AsyncClient(base_url=server.url, timeout=10) as http:
        body = {"preset": "scat", "seats": [{"type": "human"}, {"type": "human"}, {"type": "bot"}], "name": "Ann"}
        created = (await http.post("/api/tables", json=body)).json()
        code = created["code"]
        ben = (await http.post(f"/api/tables/{code}/join", json={"name": "Ben"})).json()
    tokens = {0: created["token"], 1: ben["token"]}

    async with seated(server, code, tokens) as seats:
        before = await play(seats, lambda state: knock_point(state) and bool(seats[0].acks))
        assert knock_point(before[0]), "the game ended before round 2 came to seat 1"
        async with httpx.AsyncClient(base_url=server.url, timeout=10) as http:
            deals_before = (await http.get(f"/api/tables/{code}/deals")).json()["deals"]
        server.kill()  # right after seat 0's ack and the states it led to
    killed_at = before[0]["seq"]
    acks = sorted(seats[0].acks + seats[1].acks)
    assert acks
    assert acks[-1][0] <= killed_at

    stored = db_rows(server.db, "SELECT seq, action FROM actions WHERE table_code = ? ORDER BY seq", code)
    assert [seq for seq, _ in stored] == list(range(1, killed_at + 1))
    assert set(acks) <= set(stored)  # every acknowledged action, as acknowledged
    assert db_rows(server.db, "SELECT seq FROM game_tables WHERE code = ?", code) == [(killed_at,)]
    assert len(deals_before) >= 2
    # the deal messages seat 0 got (from round 2: round 1 was dealt before it connected) hold the same commitments
    assert {deal["round"]: deal["commitment"] for deal in deals_before if deal["round"] >= 2} == seats[0].deals

    server = servers()
    async with seated(server, code, tokens) as seats:
        for number, seat in seats.items():
            assert seat.state is not None
            assert seat.state["seq"] == killed_at
            assert seat.state["view"] == before[number]["view"]  # hand, discard, history, legal actions: all
            assert seat.state["view"]["hand"] == before[number]["view"]["hand"]
        async with httpx.AsyncClient(base_url=server.url, timeout=10) as http:
            assert (await http.get(f"/api/tables/{code}/deals")).json()["deals"] == deals_before
        await seats[1].act("knock")
        final = await play(seats, lambda state: False, killed_at + 1)
        assert final[0]["view"]["phase"] == "over"
        async with httpx.AsyncClient(base_url=server.url, timeout=10) as http:
            response = await http.get(f"/api/tables/{code}/record")
            assert response.status_code == 200, response.text
            deals_after = (await http.get(f"/api/tables/{code}/deals")).json()["deals"]
    assert [deal["commitment"] for deal in deals_after[: len(deals_before)]] == [
        deal["commitment"] for deal in deals_before
    ]
    sources = db_rows(server.db, "SELECT source FROM actions WHERE table_code = ? AND seq > ?", code, killed_at + 1)
    assert sources[0] == ("bot",)  # the bot took its last turn after seat 1's knock
    record = tmp_path / "record.toml"
    record.write_bytes(response.content)
    capsys.readouterr()
    assert main(["verify", str(record)]) == 0
    assert capsys.readouterr().out.startswith(f"verified: {len(deals_after)} rounds")


def serve_error(capsys: pytest.CaptureFixture[str], args: list[str]) -> str:
    assert main(["serve", *args]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().split("\n")
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("thirtyone: error: ")
    return lines[0]


def test_a_database_that_cannot_be_opened_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    line = serve_error(capsys, ["--port", str(free_port()), "--database-url", "sqlite:////nonexistent/dir/x.db"])
    assert "cannot open the database sqlite:////nonexistent/dir/x.db" in line
    assert "does not exist" in line


def test_a_port_in_use_is_a_one_line_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        line = serve_error(capsys, ["--port", str(port), "--database-url", f"sqlite:///{tmp_path}/x.db"])
    assert f"cannot listen on 127.0.0.1:{port}" in line
    assert "choose another --port" in line


@pytest.mark.parametrize(
    ("flag", "value", "words"),
    [
        ("--message-burst", "1.5", "--message-burst '1.5': give a whole number"),
        ("--message-burst", "0", "--message-burst must be from 1 to 10000"),
        ("--messages-per-second", "fast", "--messages-per-second 'fast': give a number"),
        ("--messages-per-second", "inf", "give a finite number"),
        ("--messages-per-second", "5000", "--messages-per-second must be from 0.1 to 1000"),
    ],
)
def test_rate_limit_flags_are_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flag: str, value: str, words: str
) -> None:
    database = f"sqlite:///{tmp_path}/x.db"
    line = serve_error(capsys, ["--port", str(free_port()), "--database-url", database, flag, value])
    assert words in line, line
