"""The server's small parts — names, tokens, codes, the rate limiter, settings, committed deals,
the JSON of views, opening the database (the helpers the server tests share are in
tests/support/server.py)."""

from __future__ import annotations

import dataclasses
import json
import random
import re
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from support.server import SEED
from support.server import Dealt
from support.server import card_texts
from support.server import committed_game
from support.server import committed_record
from support.server import create
from support.server import db_rows
from support.server import hello
from support.server import join
from support.server import make_app
from support.server import view_from_json
from thirtyone import Game
from thirtyone import Rules
from thirtyone import parse_cards
from thirtyone.actions import Action
from thirtyone.cards import full_deck
from thirtyone.chance import ChanceStep
from thirtyone.errors import RecordError
from thirtyone.events import RoundResult
from thirtyone.fairness import deal_deck
from thirtyone.fairness import salt_matches
from thirtyone.record import GameRecord
from thirtyone.record import deal_commitment
from thirtyone.record import salted_reshuffle
from thirtyone.server import ServerSettings
from thirtyone.server import create_app
from thirtyone.server.autoplay import default_action
from thirtyone.server.errors import DatabaseError
from thirtyone.server.errors import InputError
from thirtyone.server.fair import ChainUsedUpError
from thirtyone.server.fair import deal_for
from thirtyone.server.fair import new_chain
from thirtyone.server.fair import new_deal
from thirtyone.server.fair import reshuffle_order
from thirtyone.server.limits import RateLimiter
from thirtyone.server.limits import check_name
from thirtyone.server.limits import hash_token
from thirtyone.server.limits import new_code
from thirtyone.server.limits import new_token
from thirtyone.server.limits import normalize_code
from thirtyone.server.limits import token_matches
from thirtyone.server.randomness import Randomness
from thirtyone.server.serialize import result_json
from thirtyone.server.serialize import spectator_view_json
from thirtyone.server.serialize import view_json

# ---------------------------------------------------------------------------------------------- limits


def test_names_are_1_to_20_printable_characters() -> None:
    assert check_name("  Ann  ") == "Ann"
    assert check_name("x" * 20) == "x" * 20
    assert check_name("Zoë 🂡") == "Zoë 🂡"
    assert check_name("👩\u200d💻") == "👩\u200d💻"  # an emoji joined by a zero-width joiner
    assert check_name("فرہاد\u200cعلی") == "فرہاد\u200cعلی"  # Urdu keeps its zero-width non-joiner
    for bad, words in (
        ("", "1 to 20"),
        ("   ", "1 to 20"),
        ("x" * 21, "at most 20"),
        ("A\nB", "printable"),
        ("a\x00", "printable"),
        ("An\u200bn", "invisible character"),
    ):
        with pytest.raises(InputError, match=words):
            check_name(bad)
    with pytest.raises(InputError, match="text"):
        check_name(7)


def test_tokens_are_random_hashed_and_compared_in_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    tokens = {new_token() for _ in range(50)}
    assert len(tokens) == 50
    assert all(len(token) >= 43 for token in tokens)
    token = next(iter(tokens))
    stored = hash_token(token)
    assert stored != token
    assert len(stored) == 64
    assert token not in stored
    assert token_matches(token, stored)
    assert not token_matches(token[:-1] + ("A" if token[-1] != "A" else "B"), stored)
    assert not token_matches(token, None)
    calls: list[tuple[str, str]] = []
    import secrets

    real = secrets.compare_digest
    monkeypatch.setattr(secrets, "compare_digest", lambda a, b: calls.append((a, b)) or real(a, b))
    assert token_matches(token, stored)
    assert calls == [(stored, stored)]


def test_codes_are_short_readable_and_normalized() -> None:
    randomness = Randomness()
    codes = {randomness.table_code() for _ in range(200)}
    assert len(codes) > 190
    assert all(len(code) == 6 and not set(code) & set("01ILO") for code in codes)
    assert normalize_code("ab-c2 3d") == "ABC23D"
    assert new_code(random.Random(5)) == new_code(random.Random(5))


def test_rate_limiter_allows_a_burst_then_the_rate() -> None:
    now = [0.0]
    limiter = RateLimiter(rate=2.0, burst=3, clock=lambda: now[0])
    assert [limiter.allow() for _ in range(4)] == [True, True, True, False]
    now[0] += 0.5  # one token back
    assert [limiter.allow() for _ in range(2)] == [True, False]
    now[0] += 100.0  # never more than the burst
    assert sum(limiter.allow() for _ in range(10)) == 3


def test_settings_are_checked() -> None:
    for kwargs, words in (
        ({"bot_delay": -1}, "bot_delay"),
        ({"bot_delay": 61}, "bot_delay"),
        ({"turn_timer": 0}, "turn_timer"),
        ({"turn_timer": float("nan")}, "turn_timer"),
        ({"max_message_bytes": 10}, "max_message_bytes"),
        ({"database_url": " "}, "database_url"),
    ):
        with pytest.raises(InputError, match=words):
            ServerSettings(**kwargs)


# ---------------------------------------------------------------------------------------------- fair shuffles


def test_a_new_deal_commits_to_its_deck_and_a_secret_salt() -> None:
    deal = new_deal(full_deck(52), 1, 0, Randomness())
    assert sorted(deal.deck) == sorted(full_deck(52))
    assert re.fullmatch(r"[0-9a-f]{64}", deal.salt)
    assert re.fullmatch(r"[0-9a-f]{64}", deal.commitment)
    assert deal.commitment == deal_commitment(deal.salt, deal.deck)
    assert deal.commitment != deal_commitment(deal.salt, deal.deck[1:] + deal.deck[:1])
    assert new_deal(full_deck(52), 1, 0, Randomness()).salt != deal.salt


def test_a_game_dealt_from_stored_deals_is_the_same_game() -> None:
    dealt = Dealt()  # an older table's deals: each its own
    game = dealt.game(Rules.preset("scat"), 3, 1)
    first = dict(dealt.deals)
    assert list(first) == list(range(1, game.round + 1))
    assert all(deal.seq == 0 for deal in first.values())
    again = Dealt(deals=dict(first), randomness=Randomness(SEED + 1))  # another source: never asked
    replayed = again.game(Rules.preset("scat"), 3, 1)
    assert again.deals == first
    assert replayed.view(0) == game.view(0)
    step = ChanceStep("reshuffle", 1, 1, tuple(full_deck(32)))
    orders = [salted_reshuffle(first[1].salt, full_deck(32), 1), reshuffle_order(step, first[1])]
    assert orders[0] == orders[1] != list(full_deck(32))


def test_a_chain_deal_comes_from_the_committed_salt_and_every_seed() -> None:
    chain = new_chain(Randomness(), 8)
    seeds = ["ab" * 16, None, "cd" * 32]
    step = ChanceStep("deal", 1, cards=tuple(full_deck(52)))
    deal = deal_for(step, 0, chain, seeds, Randomness())
    assert deal.commitment == chain.commitment
    assert salt_matches(chain.commitment, deal.salt, 1)
    assert list(deal.deck) == deal_deck(deal.salt, 1, seeds)
    assert deal_for(step, 0, chain, seeds, Randomness()) == deal  # the chain and the seeds decide, nothing else
    other = deal_for(step, 0, chain, ["ab" * 16, None, "ce" * 32], Randomness())
    assert other.deck != deal.deck  # another seed, another deck
    later = ChanceStep("deal", 2, cards=tuple(full_deck(52)))
    assert deal_for(later, 17, chain, seeds, Randomness()).seq == 17
    with pytest.raises(ChainUsedUpError, match="salt chain deals 1 rounds"):
        deal_for(later, 17, new_chain(Randomness(), 1), seeds, Randomness())


def test_every_random_choice_of_the_server_comes_from_its_settings(tmp_path: Path) -> None:
    """Two servers with the same seed make the same tables: code, salt chain, first dealer, deck,
    the bots' moves; another seed, others. By default the choices are the system's (secure)."""
    assert ServerSettings().randomness.secure
    assert not Randomness(7).secure

    def made(name: str, seed: int) -> tuple[Any, ...]:
        with TestClient(make_app(tmp_path / name, randomness=Randomness(seed))) as client:
            created = create(client, ["human", "easy", "easy"])
            joined = join(client, created["code"], "Ann")
            with client.websocket_connect(f"/ws/tables/{created['code']}") as ws:
                state = hello(ws, joined["token"], 0).settle()
            return created["code"], created["table"]["commitment"], state["view"]["dealer"], state["view"]

    first = made("a.db", 7)
    assert made("b.db", 7) == first
    other = made("c.db", 8)
    assert other[0] != first[0]  # the code
    assert other[1] != first[1]  # the salt chain
    assert other[3]["hand"] != first[3]["hand"]  # the deal


@pytest.mark.parametrize("chained", [True, False], ids=["chain", "older-table"])
def test_committed_games_give_records_that_verify(chained: bool) -> None:
    chain, seeds = (new_chain(Randomness(SEED), 64), ["12" * 16, None]) if chained else (None, [])
    game, chance = committed_game(
        Rules.preset("scat", lives=1), 2, random.Random(3), force_reshuffle=True, chain=chain, seeds=seeds
    )
    record = GameRecord.loads(committed_record(game, chance).dumps())
    assert any(rnd.reshuffles for rnd in record.rounds)
    assert record.check_commitments() == len(record.rounds)
    assert record.replay().events == game.events
    with pytest.raises(RecordError, match="no commitment"):
        GameRecord.from_game(game).check_commitments()


# ---------------------------------------------------------------------------------------------- JSON


def test_views_as_json_hold_what_the_seat_may_know_and_read_back() -> None:
    game = Game(Rules.preset("scat"), 3, seed=11)
    game.apply("draw stock")
    seat = game.current_seat
    assert seat is not None
    data = json.loads(json.dumps(view_json(game.view(seat))))
    assert data["hand"] == [str(card) for card in game.hand(seat)]
    assert data["phase"] == "discard"
    assert data["legal_actions"][0].startswith("discard")
    drawn = data["history"][-1]
    assert drawn == {
        "type": "acted",
        "seat": seat,
        "action": "draw stock",
        **dict.fromkeys(("card", "give", "take")),
        "kind": "draw",
        "source": "stock",
        "received": [drawn["received"][0]],
        "private": True,
        "revealed": [],
        "said": [  # the narrator's phrase for this seat: its own draw, the card named (thirtyone.narration)
            {
                "key": "acted.draw_stock_seen_you",
                "values": {"cards": {"cards": drawn["received"]}, "who": {"seats": [seat]}},
            }
        ],
    }
    other = json.loads(json.dumps(view_json(game.view((seat + 1) % 3))))
    assert other["history"][-1]["received"] is None  # another's stock draw is hidden
    assert drawn["received"][0] not in json.dumps(other["history"][-1]["said"])  # and not said
    assert other["legal_actions"] == []
    assert other["hand"] == [str(card) for card in game.hand((seat + 1) % 3)]
    assert view_from_json(data, game.rules) == dataclasses.replace(game.view(seat), history=(), last_result=None)
    public = spectator_view_json(game)
    assert public["hand"] is None
    assert public["legal_actions"] == []
    assert public["history"][-1]["received"] is None
    assert not set(card_texts(public)) & {str(card) for s in range(3) for card in game.hand(s)}


def test_half_points_and_hidden_blitz_hands_in_results() -> None:
    result = RoundResult(
        round=2, dealer=0, end="blitz", knocker=None, blitz=(1,),
        hands=(parse_cards("7h 7s 7d"), parse_cards("As Ks Qs"), parse_cards("2c 3d 4h")),
        values=(__import__("fractions").Fraction(61, 2), 31, 4),
        losses=(), remaining=(2, 3, 2), eliminated=(), saved_by_r2_6=False, turns=4,
    )  # fmt: skip
    assert result_json(result)["values"] == [30.5, 31, 4]
    public = result_json(result.public())
    assert public["hands"] == [None, ["As", "Ks", "Qs"], None]  # R5.1: only the 31 is shown
    assert result_json(result.for_seat(0))["hands"][0] == ["7h", "7s", "7d"]


def test_the_timer_default_is_legal_and_never_the_card_taken_from_the_pile() -> None:
    for seed in range(30):
        game = Game(Rules.preset("scat"), 3, seed=seed)
        game.apply("draw pile")
        seat = game.current_seat
        assert seat is not None
        view = game.view(seat)
        action: Action = default_action(view)
        assert action in view.legal_actions
        assert str(action) != f"discard {view.taken_from_pile}"
        game.apply(action)


# ---------------------------------------------------------------------------------------------- the database


def test_a_database_that_cannot_be_opened_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(DatabaseError, match="does not exist"):
        create_app(f"sqlite:///{tmp_path}/missing/t.db")
    with pytest.raises(DatabaseError, match="in-memory"):
        create_app("sqlite://")
    with pytest.raises(DatabaseError, match="cannot read the database URL"):
        create_app("not a url")
    with pytest.raises(DatabaseError, match=r"in SQLite \(sqlite:///PATH\) or PostgreSQL .*, not mysql$"):
        create_app("mysql://u@h/d")
    with pytest.raises(DatabaseError, match=r"driver is not installed"):
        create_app("postgresql+nosuchdriver://u@h/d")
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE notes (text TEXT)")
    with pytest.raises(DatabaseError, match="tables of something else"):
        create_app(f"sqlite:///{other}")
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"this is not a database" * 100)
    with pytest.raises(DatabaseError, match="cannot open the database"):
        create_app(f"sqlite:///{garbage}")


def test_failures_of_the_environment_are_runtime_errors_and_bad_input_value_errors(tmp_path: Path) -> None:
    from thirtyone import errors as core_errors
    from thirtyone.server import errors
    from thirtyone.server.workers import PoolBrokenError
    from thirtyone.server.workers import PoolBusyError
    from thirtyone.sim import SimUnavailableError

    environment = [errors.DatabaseError, errors.UnavailableError, SimUnavailableError, PoolBrokenError, PoolBusyError]
    environment += [ChainUsedUpError]
    for failure in environment:
        assert issubclass(failure, core_errors.ThirtyOneRuntimeError), failure
        assert issubclass(failure, RuntimeError), failure
        assert not issubclass(failure, ValueError), failure
    refusals = [errors.InputError, errors.NotFoundError, errors.ConflictError, errors.RefusedError, errors.AuthError]
    refusals += [errors.TooLargeError, errors.LimitError, errors.SettingError]
    for refusal in refusals:
        assert issubclass(refusal, ValueError), refusal
        assert not issubclass(refusal, RuntimeError), refusal
    with pytest.raises(RuntimeError, match="does not exist"):
        create_app(f"sqlite:///{tmp_path}/missing/t.db")


def test_the_schema_is_made_by_the_migration_and_is_idempotent(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    make_app(path)
    make_app(path)  # a second start migrates nothing
    tables = {row[0] for row in db_rows(path, "SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"game_tables", "seats", "actions", "deals", "alembic_version"} <= tables
    assert db_rows(path, "SELECT version_num FROM alembic_version") == [("0005",)]
    assert db_rows(path, "PRAGMA journal_mode") == [("wal",)]


def test_the_core_imports_none_of_the_server_libraries() -> None:
    core = ["cards", "rules", "scoring", "actions", "events", "chance", "engine", "views", "record", "errors"]
    code = (
        "import sys\n"
        + "".join(f"import thirtyone.{name}\n" for name in core)
        + "import thirtyone.cli\n"
        + "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'fastapi', 'sqlalchemy', 'alembic', 'uvicorn', "
        "'starlette', 'pydantic', 'httpx'})\n" + "print(','.join(bad))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""


def test_a_table_with_a_hard_bot_loads_the_simulator_once_in_the_background(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from thirtyone import sim
    from thirtyone.bots import prepare

    loads: list[str] = []
    monkeypatch.setattr(prepare, "_warmed", False)
    monkeypatch.setattr(sim, "available", lambda: True)
    monkeypatch.setattr(prepare, "load_simulator", lambda rules=None: loads.append(threading.current_thread().name))
    with TestClient(make_app(tmp_path / "w.db", worker_kind="thread")) as client:
        create(client, ["human", "easy"])
        assert loads == []  # no hard bot: nothing to load
        create(client, ["human", "hard"])
        create(client, ["human", "hard"])
    for thread in threading.enumerate():
        if thread.name == prepare.WARM_UP_THREAD:
            thread.join(10)
    assert loads == [prepare.WARM_UP_THREAD]  # once, on its own thread

    def broken(rules: Rules | None = None) -> None:
        raise RuntimeError("no kernels")

    monkeypatch.setattr(prepare, "load_simulator", broken)
    prepare._warm_up()  # logged; the server goes on
