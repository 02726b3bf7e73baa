"""Every expensive thing has a budget: each flood hits its limit and is refused cleanly (an error
to that client, nothing changed), while a reference table plays on exactly as before. Hints (one
in flight per seat, a few a round, their own workers, ``busy`` rather than queued), connections
(per seat, table, address, in all; spectators), cheap messages (``sync``), HTTP requests, table
creation (per address, a cap on tables), idle tables (expired, abandoned), the lobby's pages, and
the security headers. No timing is asserted: the floods are counted, never timed."""

from __future__ import annotations

import contextlib
import re
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack
from datetime import UTC
from datetime import datetime
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from support.server import Player
from support.server import SocketClosedError
from support.server import basic_choice
from support.server import create
from support.server import db_rows
from support.server import hello
from support.server import join
from support.server import make_app
from support.server import nothing_more
from support.server import receive
from thirtyone.bots.work import Hint
from thirtyone.fairness import SaltChain
from thirtyone.record import GameRecord
from thirtyone.server import fair
from thirtyone.server import hints as hints_module
from thirtyone.server import messages as messages_module
from thirtyone.server import service as service_module
from thirtyone.server.app import CONTENT_SECURITY_POLICY
from thirtyone.server.app import LIMIT_CLOSE
from thirtyone.server.db_store import Store
from thirtyone.server.limits import Admission
from thirtyone.server.limits import Buckets
from thirtyone.server.limits import address_key
from thirtyone.server.pages import STATIC
from thirtyone.server.randomness import Randomness
from thirtyone.server.service import TableService

# ---------------------------------------------------------------------------------------------- helpers


def connect(client: TestClient, stack: ExitStack, code: str, token: str | None, seat: int | None) -> Player:
    return hello(stack.enter_context(client.websocket_connect(f"/ws/tables/{code}")), token, seat)


def refused_at_hello(client: TestClient, code: str, token: str | None) -> dict[str, Any]:
    """Connect, say hello, and expect the error and the close of a connection over a limit."""
    with client.websocket_connect(f"/ws/tables/{code}") as ws:
        ws.send_json({"type": "hello", "token": token} if token else {"type": "hello"})
        error = receive(ws)
        assert error["type"] == "error", error
        with pytest.raises(SocketClosedError) as closed:
            receive(ws)
        assert closed.value.code == LIMIT_CLOSE
        return error


def _closed(player: Player) -> int:
    """Read until the server closes the connection; its close code."""
    while True:
        try:
            player.next()
        except SocketClosedError as closed:
            return closed.code


class Reference:
    """A reference table of two people who play the basic bot's moves: it must play on exactly as
    without any flood (every action acknowledged, every state the next seq, nothing else)."""

    def __init__(self, client: TestClient, stack: ExitStack) -> None:
        created = create(client, ["human", "human"], name="Ann")
        self.code = created["code"]
        ben = join(client, self.code, "Ben")
        self.tokens = {0: str(created["token"]), 1: str(ben["token"])}
        self.players = {
            0: connect(client, stack, self.code, created["token"], 0),
            1: connect(client, stack, self.code, ben["token"], 1),
        }
        self.seq = -1

    def play(self, moves: int = 2) -> None:
        for _ in range(moves):
            states = {seat: player.settle(self.seq) for seat, player in self.players.items()}
            state = states[0]
            if state["view"]["phase"] == "over":
                return
            mover = self.players[state["view"]["current_seat"]]
            mover.act(basic_choice(mover.state or {}, seed=state["seq"]))
            ack = mover.until("ack")
            assert ack["seq"] == state["seq"] + 1
            self.seq = state["seq"]
        for player in self.players.values():
            assert all(message["type"] != "error" for message in player.messages), player.messages


@contextlib.contextmanager
def served(tmp_path: Path, **settings: Any) -> Iterator[tuple[TestClient, ExitStack]]:
    with TestClient(make_app(tmp_path / "limits.db", **settings)) as client, ExitStack() as stack:
        yield client, stack


# ---------------------------------------------------------------------------------------------- hints


class Gate:
    """Stands in for the expert: each hint waits until the gate opens, and is counted."""

    def __init__(self) -> None:
        self.open = threading.Event()
        self.calls = 0

    def __call__(self, view: Any, seed: int, seconds: float, **search: Any) -> Hint:
        self.calls += 1
        assert self.open.wait(20)
        return Hint([(str(action), 0.5 - index) for index, action in enumerate(view.legal_actions)], [])


def gated_expert(monkeypatch: pytest.MonkeyPatch, gate: Gate) -> None:
    """The expert answers the hints (as where the judge does not play the table), held at ``gate``."""
    monkeypatch.setattr(hints_module, "judge_refuses", lambda rules, players: "the expert hints in these tests")
    monkeypatch.setattr(hints_module, "expert_hint", gate)


def test_a_hint_flood_is_worked_out_once_refused_busy_and_never_delays_an_action(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = Gate()
    gated_expert(monkeypatch, gate)
    with served(tmp_path, hint_workers=1, hint_queue=0, hints_per_round=2, max_connections_per_seat=8) as (
        client,
        stack,
    ):
        created = create(client, ["human", "human"], name="Ann")
        code = created["code"]
        ben = join(client, code, "Ben")
        tokens = {0: created["token"], 1: ben["token"]}
        players = {seat: connect(client, stack, code, tokens[seat], seat) for seat in (0, 1)}
        state = players[0].settle()
        mover_seat = state["view"]["current_seat"]
        tabs = [players[mover_seat], *(connect(client, stack, code, tokens[mover_seat], mover_seat) for _ in range(5))]
        for tab in tabs:  # six tabs of the seat to move ask at once
            tab.ws.send_json({"type": "hint"})
        other = Reference(client, stack)  # meanwhile another table plays, with the only worker held
        other.play(2)
        gate.open.set()
        answers = [tab.until("hint") for tab in tabs]
        assert gate.calls == 1  # one seat, one hint being worked out: every tab shares it
        assert len({str(answer) for answer in answers}) == 1
        assert answers[0]["seq"] == state["seq"]
        tabs[0].ws.send_json({"type": "hint"})  # again at the same position: the kept answer, no work
        assert tabs[0].until("hint") == answers[0]
        assert gate.calls == 1
        # the seat to move takes a draw; a new position: a second hint of the round
        tabs[0].act("draw stock")
        tabs[0].until("ack")
        tabs[0].settle(state["seq"])
        tabs[0].ws.send_json({"type": "hint"})
        tabs[0].until("hint")
        assert gate.calls == 2
        # the budget of 2 a round is spent: the third position of the round is refused
        discard = tabs[0].state
        assert discard is not None
        tabs[0].act(discard["view"]["legal_actions"][0])
        tabs[0].until("ack")
        after = {seat: player.settle(discard["seq"]) for seat, player in players.items()}
        next_seat = after[0]["view"]["current_seat"]
        if after[0]["view"]["round"] == state["view"]["round"] and next_seat == mover_seat:
            pytest.skip("the round ended on the same seat")  # pragma: no cover - not with 2 seats
        players[next_seat].ws.send_json({"type": "hint"})
        players[next_seat].until("hint")  # the other seat's own budget
        assert gate.calls == 3


def test_a_hint_is_busy_when_the_workers_are_taken(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gate = Gate()
    gated_expert(monkeypatch, gate)
    with served(tmp_path, hint_workers=1, hint_queue=0) as (client, stack):
        first, second = Reference(client, stack), Reference(client, stack)
        for table in (first, second):
            table.players[0].settle()
        asker = {}
        for table in (first, second):
            state = table.players[0].state
            assert state is not None
            asker[table.code] = table.players[state["view"]["current_seat"]]
        asker[first.code].ws.send_json({"type": "hint"})
        while gate.calls == 0:  # the first hint has the only worker
            threading.Event().wait(0.01)
        asker[second.code].ws.send_json({"type": "hint"})
        busy = asker[second.code].until("error")
        assert busy["code"] == "busy"
        assert "ask again in a moment" in busy["message"]
        gate.open.set()
        asker[first.code].until("hint")
        asker[second.code].ws.send_json({"type": "hint"})
        asker[second.code].until("hint")  # free again


def test_a_hint_that_outlasts_the_hint_wait_is_answered_busy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gate = Gate()
    gated_expert(monkeypatch, gate)
    with served(tmp_path, hint_wait=1.0) as (client, stack):
        table = Reference(client, stack)
        state = table.players[0].settle()
        mover = table.players[state["view"]["current_seat"]]
        mover.ws.send_json({"type": "hint"})
        busy = mover.until("error")  # the expert is held at the gate past the second allowed
        assert busy["code"] == "busy"
        assert gate.calls == 1
        gate.open.set()


def test_hints_per_round_are_counted_per_seat(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gate = Gate()
    gate.open.set()
    gated_expert(monkeypatch, gate)
    with served(tmp_path, hints_per_round=1) as (client, stack):
        table = Reference(client, stack)
        state = table.players[0].settle()
        mover = table.players[state["view"]["current_seat"]]
        mover.ws.send_json({"type": "hint"})
        mover.until("hint")
        mover.act("draw stock")
        mover.until("ack")
        mover.settle(state["seq"])
        mover.ws.send_json({"type": "hint"})
        refused = mover.until("error")
        assert refused["code"] == "hint_budget"
        assert "1 hint this round" in refused["message"]
        assert gate.calls == 1


# ---------------------------------------------------------------------------------------------- connections


def test_connections_are_capped_per_seat_table_spectators_address_and_in_all(tmp_path: Path) -> None:
    settings = {"max_connections_per_seat": 2, "max_spectators": 2, "max_connections_per_table": 5}
    with served(tmp_path, **settings, max_connections_per_address=9, max_connections=10) as (client, stack):
        reference = Reference(client, stack)  # 2 connections
        code = reference.code
        with client.websocket_connect(f"/ws/tables/{code}") as ws:  # a second tab of seat 0: allowed
            hello(ws, reference.tokens[0], 0)
            error = refused_at_hello(client, code, reference.tokens[0])  # a third is not
            assert error["code"] == "too_many_connections"
            assert "seat 0" in error["message"]
        spectators = [connect(client, stack, code, None, None) for _ in range(2)]
        assert refused_at_hello(client, code, None)["code"] == "too_many_spectators"
        other = Reference(client, stack)  # 2 more: 6 in all from this address
        tab = connect(client, stack, other.code, other.tokens[1], 1)
        assert tab.state is not None
        # the table of 5 connections at most: 2 players + 2 spectators + 1 more tab fills it
        connect(client, stack, code, reference.tokens[1], 1)
        assert refused_at_hello(client, code, reference.tokens[0])["message"].startswith(f"table {code} has 5")
        connect(client, stack, other.code, None, None)  # 9 from this address now
        with client.websocket_connect(f"/ws/tables/{other.code}") as ws:  # refused before its hello
            error = receive(ws)
            assert error["code"] == "too_many_connections"
            assert "9 connections from your address" in error["message"]
            with pytest.raises(SocketClosedError):
                receive(ws)
        assert len(spectators) == 2
        reference.play(2)
        other.play(2)
    with served(tmp_path, max_connections=2, max_connections_per_address=100) as (client, stack):
        reference = Reference(client, stack)
        with client.websocket_connect(f"/ws/tables/{reference.code}") as ws:
            error = receive(ws)
            assert error["code"] == "too_many_connections"
            assert "the server has 2 connections" in error["message"]
        reference.play(2)


def test_the_admission_counts_go_back_when_connections_leave() -> None:
    admission = Admission(total=3, per_address=2, per_table=2, per_seat=1, spectators=1)
    first = admission.enter("a")
    admission.attach(first, "T", 0)
    second = admission.enter("a")
    with pytest.raises(Exception, match="2 connections from your address"):
        admission.enter("a")
    admission.attach(second, "T", None)
    admission.leave(first)
    admission.leave(first)  # once only
    third = admission.enter("a")
    admission.attach(third, "T", 0)
    assert admission.count == 2
    for ticket in (second, third):
        admission.leave(ticket)
    assert admission.count == 0
    assert admission._addresses == admission._tables == admission._seats == {}


def test_client_addresses_are_counted_by_host_and_ipv6_by_its_64() -> None:
    assert address_key("2001:db8::1") == address_key("2001:db8::ffff") == "2001:db8::/64"
    assert address_key("2001:db8:0:1::1") != address_key("2001:db8::1")
    assert address_key(None) == "unknown"
    clock = [0.0]
    buckets = Buckets(1.0, 2, clock=lambda: clock[0])
    assert [buckets.allow("a") for _ in range(3)] == [True, True, False]
    assert buckets.allow("b")
    clock[0] = 1.0
    assert buckets.allow("a")


# ---------------------------------------------------------------------------------------------- cheap messages


def test_a_sync_flood_is_rate_limited_told_once_and_the_others_play_on(tmp_path: Path) -> None:
    with served(tmp_path, syncs_per_second=0.01, messages_per_second=1000.0, message_burst=1000) as (client, stack):
        reference = Reference(client, stack)
        spectator = connect(client, stack, reference.code, None, None)
        for _ in range(40):
            spectator.ws.send_json({"type": "sync"})
        states = [spectator.next() for _ in range(6)]
        assert [message["type"] for message in states] == ["state"] * 5 + ["error"]  # a burst of 5, then told
        assert states[-1]["code"] == "rate_limited"
        assert "sync" in states[-1]["message"]
        nothing_more(spectator.ws)  # the rest dropped quietly
        reference.play(3)
        for _ in range(100):  # refused in a row: the connection is closed
            spectator.ws.send_json({"type": "ping"})
        assert _closed(spectator) == 1008
        reference.play(2)


def test_spectators_coming_again_and_again_share_one_history_built_once_a_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A spectator's cost is bounded: what one that opens mid-game is sent to catch up (history)
    is built once for each change of the table, not once for each spectator, however long the
    game; after a move the next spectator gets the new one."""
    built: Counter[int | None] = Counter()
    original = messages_module.history_message

    def counted(game: Any, data: Any, seat: int | None, chat: Any) -> Any:
        built[seat] += 1
        return original(game, data, seat, chat)

    monkeypatch.setattr(messages_module, "history_message", counted)
    with served(tmp_path) as (client, stack):
        reference = Reference(client, stack)
        reference.players[0].ws.send_json({"type": "chat", "text": "hello"})  # chat: a newcomer needs history
        reference.players[1].until("chat")
        seen = []
        for _ in range(6):
            with client.websocket_connect(f"/ws/tables/{reference.code}") as ws:
                watcher = hello(ws, None, None)
                seen.append(watcher.until("history"))
        assert built[None] == 1
        assert all(history == seen[0] for history in seen)
        assert seen[0]["chat"][0]["text"] == "hello"
        reference.play(1)
        with client.websocket_connect(f"/ws/tables/{reference.code}") as ws:
            later = hello(ws, None, None).until("history")
        assert built[None] == 2
        assert len(later["rounds"][-1]["events"]) > len(seen[0]["rounds"][-1]["events"])


def test_all_the_connections_of_an_address_share_a_message_rate(tmp_path: Path) -> None:
    with served(tmp_path, address_messages_per_second=1.0, message_burst=1000, messages_per_second=1000.0) as (
        client,
        stack,
    ):
        created = create(client, ["human", "human"], name="Ann")
        watchers = [connect(client, stack, created["code"], None, None) for _ in range(2)]
        # the burst of 2 for the address is spent by the hellos; the next message is refused
        watchers[0].ws.send_json({"type": "ping"})
        refused = watchers[0].next()
        assert refused["code"] == "rate_limited"
        assert "from your address" in refused["message"]


# ---------------------------------------------------------------------------------------------- HTTP and tables


def test_an_http_flood_from_one_address_is_answered_429(tmp_path: Path) -> None:
    with served(tmp_path, requests_per_second=1.0) as (client, _):
        answers = [client.get("/api/health").status_code for _ in range(15)]
        assert answers[:10] == [200] * 10  # a burst of 10 at least
        assert 429 in answers
        refused = client.get("/api/health")
        assert refused.status_code == 429
        assert refused.json()["code"] == "rate_limited"
        assert refused.headers["retry-after"] == "1"


def test_the_pages_files_are_never_counted_by_the_request_budget(tmp_path: Path) -> None:
    """A table page loads about 35 files at once; a family opens it from one address."""
    with served(tmp_path, requests_per_second=1.0) as (client, _):
        files = ["/static/js/table.js", "/static/style.css", "/i18n/de.json"]
        assert {client.get(files[n % 3]).status_code for n in range(60)} == {200}
        answers = [client.get("/api/health").status_code for _ in range(15)]
        assert 429 in answers  # the API's budget is whole: the files took none of it
        assert answers[:10] == [200] * 10


def test_a_table_creation_flood_is_refused_and_buries_no_real_table(tmp_path: Path) -> None:
    with served(tmp_path, table_burst=3, tables_per_minute=0.01) as (client, _):
        real = create(client, ["human", "human"], name="Ann", public=True)
        body = {"seats": [{"type": "human"}, {"type": "bot"}], "public": True}  # listed, as a flood would ask
        flood = [client.post("/api/tables", json=body) for _ in range(20)]
        assert [answer.status_code for answer in flood].count(201) == 2
        refused = flood[-1]
        assert refused.status_code == 429
        assert refused.json()["code"] == "rate_limited"
        assert "at most 3 at once" in refused.json()["error"]
        lobby = client.get("/api/tables?status=open").json()
        assert lobby["tables"][0]["code"] == real["code"]  # the fullest first: a person sits there
    (tmp_path / "cap").mkdir()
    with served(tmp_path / "cap", max_tables=2) as (client, _):
        create(client, ["human", "human"])
        create(client, ["human", "human"])
        capped = client.post("/api/tables", json={"seats": [{"type": "human"}, {"type": "bot"}]})
        assert capped.status_code == 429
        assert capped.json()["code"] == "too_many_tables"


def test_a_creation_flood_reads_the_count_once_loads_no_table_and_hashes_off_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a table creation costs the event loop is small and bounded: the tables open are
    counted once for a burst (not once a creation), a new table is served from what was stored
    (never read back), and its salt chain is hashed on another thread."""
    reads: Counter[str] = Counter()
    hashed_on: set[str] = set()
    for method in ("count", "load"):
        original = getattr(Store, method)

        def counted(self: Store, *args: Any, _original: Any = original, _name: str = method) -> Any:
            reads[_name] += 1
            return _original(self, *args)

        monkeypatch.setattr(Store, method, counted)

    def chain(randomness: Randomness) -> SaltChain:
        hashed_on.add(threading.current_thread().name)
        return fair.new_chain(randomness, 8)

    monkeypatch.setattr(service_module, "new_chain", chain)
    monkeypatch.setattr(
        service_module, "COUNT_SECONDS", 3600.0, raising=False
    )  # one burst: one count, however slow the machine
    with served(tmp_path, table_burst=21, tables_per_minute=0.01) as (client, _):
        loop = client.portal.call(lambda: threading.current_thread().name)
        reads.clear()
        created = [create(client, ["human", "easy"]) for _ in range(20)]
        assert reads == {"count": 1}
        assert hashed_on
        assert loop not in hashed_on
        for made in created[:3]:
            assert client.get(f"/api/tables/{made['code']}").json()["table"] == made["table"]
        joined = create(client, ["human", "human"], name="Ann")
        assert joined["table"]["seats"][0]["name"] == "Ann"
        assert reads == {"count": 1}
        refused = client.post("/api/tables", json={"seats": [{"type": "human"}, {"type": "bot"}]})
        assert refused.json()["code"] == "rate_limited"
    (tmp_path / "cap").mkdir()
    with served(tmp_path / "cap", max_tables=3) as (client, _):  # the creations since the count are counted too
        for _ in range(3):
            create(client, ["human", "human"])
        capped = client.post("/api/tables", json={"seats": [{"type": "human"}, {"type": "bot"}]})
        assert capped.json()["code"] == "too_many_tables"


def test_the_lobby_is_paged_fullest_then_newest_first(tmp_path: Path) -> None:
    with served(tmp_path) as (client, _):
        empty = [create(client, ["human", "human", "human"], public=True)["code"] for _ in range(3)]
        one = create(client, ["human", "human", "human"], name="Ann", public=True)["code"]
        two = create(client, ["human", "human", "human"], name="Bo", public=True)["code"]
        create(client, ["human", "human", "human"], name="Di")  # private: never listed
        join(client, two, "Cy")
        first = client.get("/api/tables?status=open&limit=2").json()
        assert [table["code"] for table in first["tables"]] == [two, one]
        assert first["next"] == 2
        rest = client.get(f"/api/tables?status=open&limit=2&offset={first['next']}").json()
        last = client.get(f"/api/tables?status=open&limit=2&offset={rest['next']}").json()
        assert [table["code"] for table in rest["tables"] + last["tables"]] == empty[::-1]  # newest first
        assert last["next"] is None
        assert client.get("/api/tables?limit=101").status_code == 422
        assert client.get("/api/tables?offset=-1").status_code == 422


def test_idle_tables_expire_and_abandoned_games_close_with_their_records(tmp_path: Path) -> None:
    with served(tmp_path, open_table_expiry=60, idle_game_expiry=600) as (client, stack):
        service: TableService = client.app.state.service  # type: ignore[attr-defined]
        waiting = create(client, ["human", "human"])["code"]
        watched = create(client, ["human", "human"])["code"]
        connect(client, stack, watched, None, None)
        left = create(client, ["human", "human"], name="Ann")
        join(client, left["code"], "Ben")  # a game nobody connects to
        playing = Reference(client, stack)
        later = datetime.now(UTC) + timedelta(seconds=120)
        client.portal.call(service.sweep, later)
        status = {code: client.get(f"/api/tables/{code}").json()["table"] for code in (waiting, watched)}
        assert status[waiting]["status"] == "closed"
        assert status[waiting]["close_reason"] == "expired"
        assert status[watched]["status"] == "open"  # someone is there
        much_later = datetime.now(UTC) + timedelta(seconds=1200)
        client.portal.call(service.sweep, much_later)
        gone = client.get(f"/api/tables/{left['code']}").json()["table"]
        assert (gone["status"], gone["close_reason"]) == ("closed", "abandoned")
        record = GameRecord.loads(client.get(f"/api/tables/{left['code']}/record").text)
        assert record.check_commitments() == len(record.rounds)  # kept, every deal revealed
        assert client.get(f"/api/tables/{playing.code}").json()["table"]["status"] == "playing"
        playing.play(2)
        seen = db_rows(tmp_path / "limits.db", "SELECT seen_at FROM game_tables WHERE code = ?", playing.code)
        assert seen[0][0] is not None


# ---------------------------------------------------------------------------------------------- headers


def test_every_answer_carries_the_security_headers(tmp_path: Path) -> None:
    with served(tmp_path) as (client, _):
        code = create(client, ["human", "human"])["code"]
        for path in ("/", f"/t/{code}", f"/r/{code}", "/api/health", "/static/js/table.js", "/nothing"):
            headers = client.get(path).headers
            assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY
            assert headers["x-content-type-options"] == "nosniff"
            assert headers["referrer-policy"] == "no-referrer"
            assert headers["x-frame-options"] == "DENY"
        policy = dict(part.strip().split(" ", 1) for part in CONTENT_SECURITY_POLICY.split(";"))
        assert policy["script-src"] == "'self'"
        assert policy["frame-ancestors"] == "'none'"
        assert "unsafe-inline" not in CONTENT_SECURITY_POLICY
        assert "unsafe-eval" not in CONTENT_SECURITY_POLICY


def test_no_page_has_an_inline_script_or_event_handler() -> None:
    from thirtyone.server.pages import _NOT_FOUND

    for text in [*(path.read_text(encoding="utf-8") for path in STATIC.glob("*.html")), _NOT_FOUND]:
        for script, body in re.findall(r"(<script\b[^>]*>)(.*?)</script>", text, flags=re.DOTALL):
            assert "src=" in script, script
            assert not body.strip(), body
        assert not re.search(r"\son[a-z]+\s*=", text), "an inline event handler"
        assert "style=" not in text


def test_a_storm_of_new_connections_from_one_address_is_refused_at_the_handshake(tmp_path: Path) -> None:
    """Refused with HTTP 429 and its reason, before any WebSocket (the app's own check, with no door
    in front: the test client, or another ASGI server)."""
    from starlette.testclient import WebSocketDenialResponse

    with served(tmp_path, connections_per_second=0.1) as (client, stack):
        code = create(client, ["human", "human"])["code"]
        for _ in range(10):  # a burst of 10 at least
            connect(client, stack, code, None, None)
        with pytest.raises(WebSocketDenialResponse) as refused, client.websocket_connect(f"/ws/tables/{code}"):
            pass
        assert refused.value.status_code == 429
        assert refused.value.headers["retry-after"] == "1"
        assert refused.value.json()["code"] == "rate_limited"
        assert refused.value.headers["content-security-policy"] == CONTENT_SECURITY_POLICY


@pytest.mark.parametrize(("proxies", "refused"), [("127.0.0.1,::1", False), ("none", True)])
def test_x_forwarded_for_counts_only_from_a_trusted_proxy(tmp_path: Path, proxies: str, refused: bool) -> None:
    """A local process that writes a new X-Forwarded-For on each request poses as many addresses
    where loopback is a trusted proxy (the default: a proxy on this machine); with
    ``--trusted-proxies none`` the header is ignored and its requests count as its own address's."""
    import httpx

    from support.processes import free_port
    from support.processes import start_server

    server = start_server(
        tmp_path / "proxies.db", free_port(), "--requests-per-second", "1", "--trusted-proxies", proxies
    )
    try:
        with httpx.Client(timeout=5.0) as http:
            answers = [
                http.get(f"{server.url}/api/health", headers={"X-Forwarded-For": f"203.0.113.{n}"}).status_code
                for n in range(1, 41)
            ]
    finally:
        server.kill()
        if server.process.stderr is not None:
            server.process.stderr.close()
    assert (429 in answers) == refused, answers
