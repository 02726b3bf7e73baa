"""Deals no one can choose, at the server: a table commits to its salt chain when it is created
(before any seed), each person gives a client seed (with the join, or ``seed`` once seated) before
the first deal, the seeds are fixed when the game starts, every round's deck is the one the salt
and every seat's seed deal (bots give none), and the record holds it all for ``thirtyone verify``,
also against what a page saw (``--seen``). Bad seeds, seeds sent twice or too late are one clear
error each and change nothing; a table of an older server goes on as it began; a game that uses
up its chain is closed with its record."""

from __future__ import annotations

import json
import random
import sqlite3
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cli_helpers import cli_error_line
from support.server import Player
from support.server import basic_choice
from support.server import committed_game
from support.server import create
from support.server import hello
from support.server import history_of
from support.server import join
from support.server import make_app
from thirtyone.cli import main
from thirtyone.errors import RecordError
from thirtyone.fairness import SaltChain
from thirtyone.fairness import deal_deck
from thirtyone.fairness import salt_matches
from thirtyone.record import Fairness
from thirtyone.record import GameRecord
from thirtyone.rules import Rules
from thirtyone.server import fair
from thirtyone.server.history import ended_rounds
from thirtyone.server.history import round_result

SEED_A = "a1" * 32
SEED_B = "b2" * 16


def connect(client: TestClient, stack: ExitStack, code: str, token: str | None, seat: int | None) -> Player:
    return hello(stack.enter_context(client.websocket_connect(f"/ws/tables/{code}")), token, seat)


def play_out(players: dict[int, Player]) -> None:
    seq = -1
    while True:
        states = {seat: player.settle(seq) for seat, player in players.items()}
        state = next(iter(states.values()))
        seq = state["seq"]
        if state["view"]["phase"] == "over" or state["table"]["status"] != "playing":
            return
        mover = players[state["view"]["current_seat"]]
        mover.act(basic_choice(mover.state or {}, seed=seq))
        mover.until("ack")


def seen_by(player: Player, code: str, seat: int | None, seed: str | None) -> dict[str, Any]:
    """The --seen file a page would offer, from what this player received."""
    commitment = None
    rounds = []
    for message in player.messages:
        if message["type"] == "state" and commitment is None:
            commitment = message["table"]["commitment"]
        for shown in message["rounds"] if message["type"] == "reveal" else [message]:
            if message["type"] in ("round_end", "reveal") and shown["salt"] is not None:  # R5.7: some at the end
                rounds.append(
                    {"round": shown["round"], "salt": shown["salt"], "deck": shown["deck"], "seeds": shown["seeds"]}
                )
    rounds.sort(key=lambda entry: entry["round"])  # as the page keeps them
    return {
        "format": "thirtyone-seen",
        "version": 1,
        "table": code,
        "scheme": "thirtyone-chain/1",
        "commitment": commitment,
        "seat": seat,
        "seed": seed,
        "rounds": rounds,
    }


@pytest.fixture
def client(tmp_path: Path) -> Any:
    with TestClient(make_app(tmp_path / "fair.db", messages_per_second=1000.0, message_burst=1000)) as test_client:
        yield test_client


def test_a_game_is_dealt_from_the_committed_chain_and_every_seed(client: TestClient, tmp_path: Path) -> None:
    created = client.post(
        "/api/tables", json={"seats": [{"type": "human"}, {"type": "human"}, {"type": "bot"}], "options": {"lives": 1}}
    ).json()
    code, table = created["code"], created["table"]
    commitment = table["commitment"]
    assert table["status"] == "open"
    assert table["scheme"] == "thirtyone-chain/1"  # committed before anyone sent a seed
    assert [seat["seeded"] for seat in table["seats"]] == [False, False, False]
    ann = join(client, code, "Ann")
    with ExitStack() as stack:
        first = connect(client, stack, code, ann["token"], 0)
        first.ws.send_json({"type": "seed", "seed": SEED_A})
        seeded = first.until("seeded")
        assert seeded == {"type": "seeded", "seat": 0, "seed": SEED_A}
        first.ws.send_json({"type": "seed", "seed": SEED_A})
        again = first.until("error")
        assert again["code"] == "seed_given"
        assert "given once" in again["message"]
        joined = client.post(f"/api/tables/{code}/join", json={"name": "Ben", "seed": SEED_B.upper()}).json()
        assert joined["table"]["seats"][1]["seeded"] is True
        second = connect(client, stack, code, joined["token"], 1)
        second.ws.send_json({"type": "seed", "seed": SEED_B})
        late = second.until("error")
        assert late["code"] == "seeds_fixed"  # the game has started: the seeds are fixed
        watcher = connect(client, stack, code, None, None)
        watcher.ws.send_json({"type": "seed", "seed": SEED_B})
        assert watcher.until("error")["code"] == "spectator"
        play_out({0: first, 1: second})
        deals = [message for message in first.messages if message["type"] == "deal"]
        ends = [message for message in first.messages if message["type"] == "round_end"]
        assert ends
        for message in deals + ends:
            assert message["seeds"] == [SEED_A, SEED_B, None]  # the bot gives none
            assert message["commitment"] == commitment
        reveals = [entry for message in first.messages if message["type"] == "reveal" for entry in message["rounds"]]
        for end in [end for end in ends if end["revealed"]] + reveals:  # after a 31, at the game's end (R5.7)
            assert salt_matches(commitment, end["salt"], end["round"])
            assert " ".join(map(str, deal_deck(end["salt"], end["round"], end["seeds"]))) == end["deck"]
        text = client.get(f"/api/tables/{code}/record").text
        record = GameRecord.loads(text)
        assert record.fairness is not None
        assert record.fairness.seeds == (SEED_A, SEED_B, "")
        assert record.fairness.commitment == commitment
        assert record.check_commitments() == len(record.rounds)
        deals_json = client.get(f"/api/tables/{code}/deals").json()
        assert deals_json["commitment"] == commitment
        assert deals_json["seeds"] == [SEED_A, SEED_B, None]
        path = tmp_path / "record.toml"
        path.write_text(text, encoding="utf-8")
        seen = tmp_path / "seen.json"
        seen.write_text(json.dumps(seen_by(first, code, 0, SEED_A)), encoding="utf-8")
        assert main(["verify", str(path), "--seen", str(seen)]) == 0


def test_verify_seen_refuses_a_record_that_is_not_what_the_page_saw(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records, seen = [], []
    for number in range(2):
        code = client.post("/api/tables", json={"seats": [{"type": "human"}, {"type": "bot"}], "options": {"lives": 1}})
        code = code.json()["code"]
        with ExitStack() as stack:
            joined = client.post(f"/api/tables/{code}/join", json={"name": "Ann", "seed": SEED_A}).json()
            ann = connect(client, stack, code, joined["token"], 0)
            play_out({0: ann})
            path = tmp_path / f"record{number}.toml"
            path.write_text(client.get(f"/api/tables/{code}/record").text, encoding="utf-8")
            records.append(path)
            file = tmp_path / f"seen{number}.json"
            file.write_text(json.dumps(seen_by(ann, code, 0, SEED_A)), encoding="utf-8")
            seen.append(file)
    line = cli_error_line(capsys, ["verify", str(records[0]), "--seen", str(seen[1])])
    assert line.startswith(f"thirtyone: error: {seen[1]}: does not belong to this record: the page (table")
    assert "saw the commitment" in line
    data = json.loads(seen[0].read_text())
    data["seed"] = SEED_B
    other = tmp_path / "other-seed.json"
    other.write_text(json.dumps(data))
    assert "your seed at seat 0 was" in cli_error_line(capsys, ["verify", str(records[0]), "--seen", str(other)])
    data = json.loads(seen[0].read_text())
    data["rounds"][0]["salt"] = "cd" * 32
    other.write_text(json.dumps(data))
    # the first round the page saw (a dealt blitz may end round 1 before the page connects)
    first = data["rounds"][0]["round"]
    assert f"round {first}'s salt was" in cli_error_line(capsys, ["verify", str(records[0]), "--seen", str(other)])
    other.write_text("[1, 2")
    assert "not JSON" in cli_error_line(capsys, ["verify", str(records[0]), "--seen", str(other)])
    other.write_text(json.dumps({"format": "something"}))
    assert "not what a table page saw" in cli_error_line(capsys, ["verify", str(records[0]), "--seen", str(other)])
    line = cli_error_line(capsys, ["verify", str(records[0]), "--seen", str(tmp_path / "missing.json")])
    assert "no such file" in line
    # a forged record (its bottom card, never dealt, swapped) fails even though it checks as TOML
    text = records[0].read_text()
    record = GameRecord.loads(text)
    deck = " ".join(map(str, record.rounds[0].deck))
    cards = deck.split()
    forged_deck = " ".join([*cards[:-2], cards[-1], cards[-2]])
    forged = tmp_path / "forged.toml"
    forged.write_text(text.replace(deck, forged_deck, 1))
    line = cli_error_line(capsys, ["verify", str(forged)])
    assert "round 1: the deck order is not the one the salt and the seats' seeds deal: card 51" in line


@pytest.mark.parametrize(
    ("seed", "code", "words"),
    [
        ("abc", "bad_seed", "seed: the seed is 2 bytes"),
        ("!?" * 16, "bad_seed", "hex or base64"),
        ("ab" * 8, "bad_seed", "8 bytes (16 hex digits); give 16 to 64"),
        ("ab" * 100, "bad_seed", "100 bytes"),
        ("AA", "bad_seed", "seed: the seed is 1 byte (2 hex digits); give 16 to 64 bytes"),
        ("QQ==", "bad_seed", "seed: the seed is 1 byte; give 16 to 64 bytes"),
    ],
)
def test_a_bad_seed_with_the_join_is_refused_and_the_seat_stays_free(
    client: TestClient, seed: str, code: str, words: str
) -> None:
    created = create(client, ["human", "human"])
    answer = client.post(f"/api/tables/{created['code']}/join", json={"name": "Ann", "seed": seed})
    assert answer.status_code == 422
    assert answer.json()["code"] == code
    assert words in answer.json()["error"]
    table = client.get(f"/api/tables/{created['code']}").json()["table"]
    assert [seat["taken"] for seat in table["seats"]] == [False, False]


def test_bad_seed_messages_are_one_error_each_and_change_nothing(client: TestClient) -> None:
    created = create(client, ["human", "human"], name="Ann")
    with ExitStack() as stack:
        ann = connect(client, stack, created["code"], created["token"], 0)
        for message, code in (
            ({"type": "seed"}, "bad_message"),
            ({"type": "seed", "seed": 12}, "bad_seed"),
            ({"type": "seed", "seed": "short"}, "bad_seed"),
            ({"type": "seed", "seed": "é" * 40}, "bad_seed"),
        ):
            ann.ws.send_json(message)
            assert ann.until("error")["code"] == code
        table = client.get(f"/api/tables/{created['code']}").json()["table"]
        assert table["seats"][0]["seeded"] is False
        ann.ws.send_json({"type": "seed", "seed": SEED_A})
        assert ann.until("seeded")["seed"] == SEED_A
    refused = client.post("/api/tables", json={"seats": [{"type": "human"}, {"type": "bot"}], "seed": SEED_A})
    assert refused.status_code == 422
    assert "give your seed when you join" in refused.json()["error"]


def test_a_table_of_an_older_server_goes_on_committing_each_deal(client: TestClient, tmp_path: Path) -> None:
    created = create(client, ["human", "human"], name="Ann")
    code = created["code"]
    with sqlite3.connect(tmp_path / "fair.db") as db:  # as a table created before the salt chains
        db.execute(
            "UPDATE game_tables SET commitment = NULL, chain_key = NULL, chain_length = NULL WHERE code = ?", (code,)
        )
    client.app.state.service._runners.clear()  # type: ignore[attr-defined]
    ben = join(client, code, "Ben")
    with ExitStack() as stack:
        players = {
            0: connect(client, stack, code, created["token"], 0),
            1: connect(client, stack, code, ben["token"], 1),
        }
        play_out(players)
    record = GameRecord.loads(client.get(f"/api/tables/{code}/record").text)
    assert record.fairness is None
    assert all(rnd.commitment for rnd in record.rounds)
    assert record.check_commitments() == len(record.rounds)
    end = next(message for message in players[0].messages if message["type"] == "round_end")
    assert end["scheme"] == "thirtyone-deal/1"
    assert end["seeds"] is None


def test_a_game_that_uses_up_its_chain_is_closed_with_its_record(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fair, "CHAIN_LENGTH", 1)
    # a chain whose one deal holds no 31 (for Ann's and Ben's seeds, whoever deals): with a random one, a
    # dealt 31 (R5.2, one game in 450) ends round 1 at the start, with no action to close the table
    monkeypatch.setattr(client.app.state.settings.randomness, "chain_key", lambda: "00" * 32)  # type: ignore[attr-defined]
    created = client.post("/api/tables", json={"seats": [{"type": "human"}, {"type": "human"}]}).json()
    code = created["code"]
    with ExitStack() as stack:
        ann = client.post(f"/api/tables/{code}/join", json={"name": "Ann", "seed": SEED_A}).json()
        ben = client.post(f"/api/tables/{code}/join", json={"name": "Ben", "seed": SEED_B}).json()
        players = {0: connect(client, stack, code, ann["token"], 0), 1: connect(client, stack, code, ben["token"], 1)}
        seq = -1
        while True:  # play round 1 out: the action that would deal round 2 closes the table instead
            state = {seat: player.settle(seq) for seat, player in players.items()}[0]
            seq = state["seq"]
            if state["table"]["status"] != "playing":
                break
            mover = players[state["view"]["current_seat"]]
            mover.act(basic_choice(mover.state or {}, seed=seq))
            answer = mover.next()
            while answer["type"] not in ("ack", "error"):
                answer = mover.next()
            if answer["type"] == "error":
                assert answer["code"] == "table_closed"
                break
        while players[0].state is None or players[0].state["table"]["status"] == "playing":
            players[0].next()
        last = players[0].state
        assert last is not None
        assert last["table"]["status"] == "closed"
        assert last["table"]["close_reason"] == "used_up"
        errors = [m for player in players.values() for m in player.messages if m["type"] == "error"]
        assert [error["code"] for error in errors] == ["table_closed"]
        assert "salt chain deals 1 rounds" in errors[0]["message"]
    record = GameRecord.loads(client.get(f"/api/tables/{code}/record").text)
    assert len(record.rounds) == 1
    assert record.check_commitments() == 1


def test_a_game_that_a_31_on_the_first_deal_ends_is_finished_with_its_record(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a chain whose first deal holds a 31 whoever deals (no seeds): one life, no grace, two players
    monkeypatch.setattr(client.app.state.settings.randomness, "chain_key", lambda: f"{548:064x}")  # type: ignore[attr-defined]
    seats = [{"type": "human"}, {"type": "human"}]
    created = client.post("/api/tables", json={"seats": seats, "options": {"lives": 1, "grace_life": False}}).json()
    code = created["code"]
    client.post(f"/api/tables/{code}/join", json={"name": "Ann"}).raise_for_status()
    client.post(f"/api/tables/{code}/join", json={"name": "Ben"}).raise_for_status()
    table = client.get(f"/api/tables/{code}").json()["table"]
    assert table["status"] == "finished", table["status"]  # R5.2: the deal ended the game
    assert table["winner"] in (0, 1)
    answer = client.get(f"/api/tables/{code}/record")
    assert answer.status_code == 200, answer.text
    record = GameRecord.loads(answer.text)
    assert [(len(r.actions), r.result and r.result.end) for r in record.rounds] == [(0, "dealt_blitz")]
    assert record.check_commitments() == 1


@pytest.mark.parametrize("chained", [True, False])
def test_a_tables_record_is_its_games_record_with_the_salts(chained: bool) -> None:
    """One history: a table stores its deals and actions beside the game, and its record is the
    game's own record (GameRecord.from_game, no replay) with each ended round's salt; an older
    table's rounds each keep their own commitment. The rounds ended and their results are the game's."""
    chain = SaltChain("ab" * 32, 64) if chained else None
    game, dealt = committed_game(
        Rules(lives=2), 3, random.Random(31), force_reshuffle=True, chain=chain, seeds=[None] * 3
    )
    assert any(log.reshuffles for log in game.round_logs)
    history = history_of(game, dealt)
    fairness = Fairness(chain.commitment, ("", "", "")) if chain is not None else None
    record = history.record(game, ["Ann", "Ben", "Cy"], event="test", date="2026-12-05", fairness=fairness)
    plain = GameRecord.from_game(game, ["Ann", "Ben", "Cy"], event="test", date="2026-12-05")
    assert [replace(rnd, salt=None, commitment=None) for rnd in record.rounds] == list(plain.rounds)
    assert [rnd.salt for rnd in record.rounds] == [dealt.deals[rnd.round].salt for rnd in record.rounds]
    assert (record.winner, record.places, record.fairness) == (plain.winner, plain.places, fairness)
    assert record.check_commitments() == game.round
    assert GameRecord.loads(record.dumps()).replay().winner == game.winner
    assert ended_rounds(game) == list(range(1, game.round + 1))
    assert [round_result(game, number) for number in ended_rounds(game)] == [log.result for log in game.round_logs]
    assert (round_result(game, 0), round_result(game, game.round + 1), round_result(None, 1)) == (None, None, None)
    assert ended_rounds(None) == []
    for number in range(game.round + 2):
        assert history.round_actions(number) == [stored for stored in history.actions if stored.round == number]
    history.deals.pop()  # a database changed by hand: a round of the game has no deal
    with pytest.raises(RecordError, match="are not its game's"):
        history.record(game, ["Ann", "Ben", "Cy"], event="test", date="2026-12-05", fairness=fairness)
