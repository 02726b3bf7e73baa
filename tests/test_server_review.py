"""The expert's review of a finished game over HTTP (``GET /api/tables/{code}/review``, issue 32
item 2): made on the review worker, never on the event loop, once, kept with the game (a second
request and a restarted server read it back), served as the review's data with each move's data
for the page; ``pending`` (202) while it is made; the neighbouring endpoints' errors for an
unknown code or a game not over; a failed review is said once and tried again."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from support.server import FAST
from support.server import create
from support.server import db_rows
from support.server import finished_game
from support.server import make_app
from thirtyone.bots.review import BATCHES
from thirtyone.bots.review import MARKS
from thirtyone.bots.review import THRESHOLDS
from thirtyone.bots.review import mark_of
from thirtyone.bots.review import review_record
from thirtyone.errors import RecordError
from thirtyone.record import GameRecord
from thirtyone.server import kept_reviews
from thirtyone.server.serialize import ACTION_KEYS

WORLDS = 8
"""Deals a decision in these tests: the review's shape, not its quality, is tested here."""


def ready(client: TestClient, code: str, seconds: float = 60.0) -> dict[str, Any]:
    """The review of ``code`` once it is made (asking again while it is pending, as the page does)."""
    deadline = time.monotonic() + seconds
    while True:
        answer = client.get(f"/api/tables/{code}/review")
        if answer.status_code == 200:
            return dict(answer.json())
        assert answer.status_code == 202, answer.text
        assert answer.json() == {"code": code, "status": "pending", "retry_after": kept_reviews.RETRY_SECONDS}
        assert answer.headers["Retry-After"] == str(kept_reviews.RETRY_SECONDS)
        assert time.monotonic() < deadline, "the review was never made"
        time.sleep(0.05)


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, bool]]:
    """Each review made: the thread it was made on and whether an event loop ran there (at
    :data:`WORLDS` deals a decision)."""
    calls: list[tuple[str, bool]] = []
    real = kept_reviews.make_review

    def counted(record: str, worlds: int = kept_reviews.WORLDS) -> str:
        try:
            asyncio.get_running_loop()
            on_loop = True
        except RuntimeError:
            on_loop = False
        calls.append((threading.current_thread().name, on_loop))
        return real(record, WORLDS)

    monkeypatch.setattr(kept_reviews, "make_review", counted)
    return calls


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(make_app(tmp_path / "t.db", **FAST)) as test_client:
        yield test_client


def test_the_review_is_made_once_off_the_event_loop_and_kept_with_the_game(
    tmp_path: Path, made: list[tuple[str, bool]]
) -> None:
    path = tmp_path / "r.db"
    with TestClient(make_app(path, **FAST)) as client:
        code = finished_game(client)
        first = client.get(f"/api/tables/{code}/review")
        assert first.status_code == 202  # asked first: being made
        review = ready(client, code)
        assert len(made) == 1
        thread, on_loop = made[0]
        assert thread.startswith("thirtyone-review")
        assert not on_loop
        assert client.get(f"/api/tables/{code}/review").json() == review  # kept: not made again
        assert client.get(f"/api/tables/{code.lower()}/review").json() == review
        assert len(made) == 1
    stored = db_rows(path, "SELECT review FROM game_tables WHERE code = ?", code)
    assert json.loads(stored[0][0]) == review["review"]
    with TestClient(make_app(path, **FAST)) as restarted:  # kept with the game: a new server reads it back
        assert restarted.get(f"/api/tables/{code}/review").json() == review
    assert len(made) == 1


def test_requests_while_it_is_made_wait_for_the_one_review(
    client: TestClient, made: list[tuple[str, bool]], monkeypatch: pytest.MonkeyPatch
) -> None:
    code = finished_game(client)
    gate = threading.Event()
    counted = kept_reviews.make_review

    def held(record: str, worlds: int = kept_reviews.WORLDS) -> str:
        assert gate.wait(30)
        return counted(record, worlds)

    monkeypatch.setattr(kept_reviews, "make_review", held)
    for _ in range(5):
        assert client.get(f"/api/tables/{code}/review").status_code == 202
    gate.set()
    ready(client, code)
    assert len(made) == 1


def test_a_request_that_read_before_the_review_was_kept_does_not_make_it_again(
    client: TestClient, made: list[tuple[str, bool]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression (seen once in a loaded run: 2 reviews made): a request read that no review was
    kept, the review was made and kept meanwhile, and the request then started making it again."""
    code = finished_game(client)
    reviews = client.app.state.service.reviews  # type: ignore[attr-defined]
    began, gate = threading.Event(), threading.Event()
    counted = kept_reviews.make_review

    def held(record: str, worlds: int = kept_reviews.WORLDS) -> str:
        began.set()
        assert gate.wait(30)
        return counted(record, worlds)

    real_read = reviews.db.read

    async def read(function: Callable[..., Any], *args: Any) -> Any:
        """The next read of the kept review answers as it would have before the review was made,
        after the making is over."""
        answer = await real_read(function, *args)
        if not gate.is_set() and function == reviews.store.review:
            gate.set()
            for _ in range(3000):
                if not reviews.making(code):
                    break
                await asyncio.sleep(0.01)
        return answer

    monkeypatch.setattr(kept_reviews, "make_review", held)
    assert client.get(f"/api/tables/{code}/review").status_code == 202
    assert began.wait(30)  # the making is under way, held
    monkeypatch.setattr(reviews.db, "read", read)
    assert client.get(f"/api/tables/{code}/review").status_code == 202  # read nothing kept; made meanwhile
    ready(client, code)
    assert len(made) == 1


def test_the_review_is_every_seats_decisions_with_the_data_the_page_reads(
    client: TestClient, made: list[tuple[str, bool]]
) -> None:
    code = finished_game(client, lives=2)
    answer = ready(client, code)
    assert answer["code"] == code
    assert answer["status"] == "ready"
    data = answer["review"]
    record = GameRecord.loads(client.get(f"/api/tables/{code}/record").text)
    expected = review_record(record, worlds=WORLDS, seed=kept_reviews.SEED)
    assert data == json.loads(json.dumps(kept_reviews.review_data(expected)))
    assert data["seats"] == [0, 1]
    assert data["names"] == list(record.seats)
    assert data["finished"]
    assert not data["partial"]
    assert data["budget"] == {"worlds": WORLDS, "seconds": None, "seed": kept_reviews.SEED, "batches": BATCHES}
    assert data["thresholds"] == THRESHOLDS
    steps = client.get(f"/api/tables/{code}/record.json").json()["steps"]
    assert {decision["seat"] for decision in data["decisions"]} == {0, 1}
    for decision in data["decisions"]:
        assert decision["mark"] == mark_of(min([decision["given"], *decision["batches"]]))  # held by every batch
        assert steps[decision["step"] + 1]["seat"] == decision["seat"]  # the step after it is its move
        chosen = [move for move in decision["moves"] if move["chosen"]]
        assert len(chosen) == 1
        assert {key: chosen[0][key] for key in ACTION_KEYS} == decision["played_move"]
        assert {key: steps[decision["step"] + 1][key] for key in ACTION_KEYS} == decision["played_move"]
        assert all(move["kind"] is not None for move in decision["moves"])
    for summary in data["summaries"]:
        mine = [d for d in data["decisions"] if d["seat"] == summary["seat"]]
        assert summary["decisions"] == len(mine)
        assert summary["marks"] == {mark: sum(d["mark"] == mark for d in mine) for mark in MARKS}
        for costly in summary["costliest"]:
            assert costly["played"]["kind"] is not None
            assert costly["best"]["kind"] is not None


def test_the_neighbouring_endpoints_errors_for_no_table_and_no_game_over(
    client: TestClient, made: list[tuple[str, bool]]
) -> None:
    unknown = client.get("/api/tables/ZZZZZZ/review")
    assert unknown.status_code == 404
    assert unknown.json()["code"] == "not_found"
    bad = client.get("/api/tables/nope!/review")
    assert bad.status_code == 404
    assert bad.json()["code"] == "not_found"
    waiting = create(client, ["human", "human"], name="Ann")["code"]
    playing = create(client, ["human", "easy"], name="Ann")["code"]
    for code in (waiting, playing):
        answer = client.get(f"/api/tables/{code}/review")
        assert answer.status_code == 409
        assert answer.json()["code"] == "not_over"
        assert answer.json()["code"] == client.get(f"/api/tables/{code}/record").json()["code"]
    closed = create(client, ["human", "easy", "human"], name="Ann")
    headers = {"Authorization": f"Bearer {closed['host_token']}"}
    assert client.post(f"/api/tables/{closed['code']}/close", headers=headers).status_code == 200
    answer = client.get(f"/api/tables/{closed['code']}/review")
    assert answer.status_code == 409
    assert answer.json()["code"] == "no_record"
    assert made == []  # nothing was reviewed


@pytest.mark.parametrize(
    ("failure", "code"),
    [(RecordError("round 1: a card that is not there"), "damaged"), (ValueError("a bug"), "busy")],
)
def test_a_review_that_fails_is_said_once_then_tried_again(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, failure: Exception, code: str
) -> None:
    table = finished_game(client)
    tries: list[int] = []
    real: Callable[..., str] = kept_reviews.make_review

    def failing(record: str, worlds: int = kept_reviews.WORLDS) -> str:
        tries.append(1)
        if len(tries) == 1:
            raise failure
        return real(record, WORLDS)

    monkeypatch.setattr(kept_reviews, "make_review", failing)
    assert client.get(f"/api/tables/{table}/review").status_code == 202
    deadline = time.monotonic() + 30
    while (answer := client.get(f"/api/tables/{table}/review")).status_code == 202:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert answer.status_code == 503
    assert answer.json()["code"] == code
    assert ready(client, table)["status"] == "ready"  # the next request tried again
    assert len(tries) == 2


def test_a_full_review_queue_answers_pending_and_the_next_request_tries_again(
    client: TestClient, made: list[tuple[str, bool]]
) -> None:
    code = finished_game(client)
    pool = client.app.state.service.reviews.pool  # type: ignore[attr-defined]
    pool.running = pool.capacity  # every worker busy, the queue full
    assert client.get(f"/api/tables/{code}/review").status_code == 202
    time.sleep(0.2)
    assert made == []
    pool.running = 0
    ready(client, code)
    assert len(made) == 1
