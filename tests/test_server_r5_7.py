"""R5.7 at the server: after a 31 only the 31 hands are shown, and nothing that would let anyone work
out the others' hands — the round's deck and salt — is sent before the game ends: not in
``round_end``, not by ``GET /deals``, not to a spectator or a page that opens mid-game. The salts
are a hash chain (round r's salt is the link of round r+1's), so on a chain table every later
round waits too; rounds before the 31 stay revealed. At the game's end ``reveal`` brings every
round that waited, and each checks against the commitment."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import ExitStack
from datetime import UTC
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from support.server import Dealt
from support.server import Pinned
from support.server import Player
from support.server import basic_choice
from support.server import create
from support.server import hello
from support.server import join
from support.server import make_app
from thirtyone.engine import Game
from thirtyone.fairness import SaltChain
from thirtyone.fairness import chain_link
from thirtyone.fairness import deal_deck
from thirtyone.fairness import salt_matches
from thirtyone.record import GameRecord
from thirtyone.rules import Rules
from thirtyone.server import messages
from thirtyone.server.db_store import CLOSED
from thirtyone.server.db_store import FINISHED
from thirtyone.server.db_store import PLAYING
from thirtyone.server.db_store import SeatData
from thirtyone.server.db_store import TableData

BLITZ_KEY = f"{548:064x}"
"""A chain key whose round 1 deals a 31 to one of two players without seeds, whoever deals (R5.2),
the other hand hidden (R5.1)."""


def connect(client: TestClient, stack: ExitStack, code: str, token: str | None, seat: int | None) -> Player:
    return hello(stack.enter_context(client.websocket_connect(f"/ws/tables/{code}")), token, seat)


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    pinned = Pinned(key=BLITZ_KEY, first_dealer=0)  # seat 0 deals first: the game is the same every run
    with TestClient(
        make_app(tmp_path / "r5_7.db", messages_per_second=1000.0, message_burst=1000, randomness=pinned)
    ) as test_client:
        yield test_client


def ends(player: Player) -> list[dict[str, Any]]:
    return [message for message in player.messages if message["type"] == "round_end"]


def test_r5_7_a_31_rounds_deck_and_salt_and_every_later_rounds_wait_for_the_games_end(client: TestClient) -> None:
    created = create(client, ["human", "human"], name="Ann", lives=2, grace_life=False)
    code = created["code"]
    commitment = created["table"]["commitment"]
    with ExitStack() as stack:
        ann = connect(client, stack, code, created["token"], 0)
        watcher = connect(client, stack, code, None, None)
        ben_seat = join(client, code, "Ben")  # the game starts: round 1 deals a 31 (R5.2)
        players = {0: ann, 1: connect(client, stack, code, ben_seat["token"], 1)}
        mid_game: dict[str, Any] | None = None
        seq = -1
        while True:
            states = {seat: player.settle(seq) for seat, player in players.items()}
            state = states[0]
            seq = state["seq"]
            if state["view"]["phase"] == "over":
                break
            if mid_game is None and state["view"]["round"] >= 2:
                mid_game = client.get(f"/api/tables/{code}/deals").json()  # round 1 has ended: a 31
                late = connect(client, stack, code, None, None)  # a page that opens mid-game
                assert not [m for m in late.messages if m["type"] in ("round_end", "reveal")]
            mover = players[state["view"]["current_seat"]]
            mover.act(basic_choice(mover.state or {}, seed=seq))
            mover.until("ack")
        watcher.settle(seq - 1)  # the last state, as the players got it
        assert watcher.state is not None
        assert watcher.state["table"]["status"] == FINISHED

    everyone = [*players.values(), watcher]
    first = ends(watcher)[0]  # Ben joined after it: he never saw round 1 end
    assert first["round"] == 1
    assert first["result"]["end"] == "dealt_blitz"
    assert None in first["result"]["hands"]  # R5.1: only the 31 is shown
    *during, last = ends(watcher)
    assert during, "the game should last more than the round of the 31"
    for player in everyone:
        for message in ends(player)[:-1]:  # the 31's round, and every round after it on the chain
            assert (message["revealed"], message["deck"], message["salt"]) == (False, None, None), message["round"]
        assert ends(player)[-1]["revealed"] is True  # the game is over: nothing is hidden any more
    assert mid_game is not None
    deal = mid_game["deals"][0]
    assert (deal["round"], deal["revealed"], deal["deck"], deal["salt"]) == (1, False, None, None)

    # the end: the last round_end, then reveal with every round that waited, then the state
    for player in everyone:
        kinds = [m["type"] for m in player.messages]
        at = kinds.index("reveal")
        assert kinds[at - 1] == "round_end"
        assert player.messages[at - 1]["round"] == last["round"]
        assert "state" in kinds[at + 1 :]
    reveal = next(m for m in watcher.messages if m["type"] == "reveal")
    assert [entry["round"] for entry in reveal["rounds"]] == [m["round"] for m in during]
    salts = {}
    for entry in reveal["rounds"]:
        assert entry["commitment"] == commitment
        assert entry["scheme"] == "thirtyone-chain/1"
        assert salt_matches(commitment, entry["salt"], entry["round"])
        assert " ".join(map(str, deal_deck(entry["salt"], entry["round"], entry["seeds"]))) == entry["deck"]
        salts[entry["round"]] = entry["salt"]
    salts[last["round"]] = last["salt"]
    # why every later round waited: its salt gives the 31 round's at once
    assert chain_link(salts[2]) == salts[1]

    record = GameRecord.loads(client.get(f"/api/tables/{code}/record").text)
    assert [rnd.salt for rnd in record.rounds] == [salts[number] for number in sorted(salts)]
    deals = client.get(f"/api/tables/{code}/deals").json()["deals"]
    assert all(deal["revealed"] and deal["salt"] == salts[deal["round"]] for deal in deals)
    with ExitStack() as stack:  # a page that opens after the end gets what waited, and the last round
        late = connect(client, stack, code, None, None)
        again = late.until("reveal")["rounds"]
        assert again[:-1] == reveal["rounds"]
        assert (again[-1]["round"], again[-1]["salt"]) == (last["round"], last["salt"])


def test_r5_7_closing_the_table_reveals_what_waited(client: TestClient) -> None:
    created = create(client, ["human", "human"], name="Ann", lives=3)
    code = created["code"]
    ben_seat = join(client, code, "Ben")
    with ExitStack() as stack:
        ann = connect(client, stack, code, created["token"], 0)
        connect(client, stack, code, ben_seat["token"], 1)
        assert ann.state is not None
        assert ann.state["view"]["round"] == 2  # round 1 ended at the deal, with a 31
        answer = client.post(f"/api/tables/{code}/close", headers={"authorization": f"Bearer {created['host_token']}"})
        assert answer.status_code == 200, answer.text
        reveal = ann.until("reveal")
        assert [entry["round"] for entry in reveal["rounds"]] == [1]
        entry = reveal["rounds"][0]
        assert salt_matches(created["table"]["commitment"], entry["salt"], 1)
        assert ann.until("state")["table"]["status"] == CLOSED


# ------------------------------------------------------------------------------------ the rule, over plain values

LATE_BLITZ = ("00" * 31 + "03", 20)
"""A chain key and a policy seed (random legal moves, 2 players, first dealer seat 0) whose game's
first 31 comes in a later round, not the first, with rounds after it."""


def table_of(dealt: Dealt, status: str, chained: bool = True) -> TableData:
    return TableData(
        code="ABCDEF",
        status=status,
        preset="scat",
        options={},
        players=2,
        host_token_hash="",
        seats=[SeatData(0, "human", None, "Ann"), SeatData(1, "human", None, "Ben")],
        created_at=datetime.now(UTC),
        first_dealer=0,
        commitment=dealt.chain.commitment if chained and dealt.chain is not None else None,
    )


def hides(game: Game, number: int) -> bool:
    result = game.round_logs[number - 1].result
    return result is not None and result.public().hands != result.hands


def test_r5_7_rounds_before_the_31_stay_revealed_and_every_later_one_waits() -> None:
    key, seed = LATE_BLITZ
    policy = random.Random(seed)
    dealt = Dealt(SaltChain(key, 64), [None, None])
    game = dealt.game(Rules(lives=3), 2, 0)
    seen_waiting = False
    while True:
        ended = [log.round for log in game.round_logs if log.result is not None]
        waiting = messages.waiting_rounds(game, table_of(dealt, PLAYING))
        hidden = [number for number in ended if hides(game, number)]
        expected = {number for number in ended if hidden and number >= hidden[0]}
        assert waiting == expected
        old = messages.waiting_rounds(game, table_of(dealt, PLAYING, chained=False))
        assert old == set(hidden)  # an older table's deals are not linked: only the 31 rounds wait
        seen_waiting = seen_waiting or bool(hidden and hidden[0] > 1 and any(n > hidden[0] for n in ended))
        if game.is_over:
            break
        dealt.apply(game, policy.choice(game.legal_actions()))
    assert seen_waiting, "the pinned game should have a first 31 after round 1 and rounds after it"
    over = table_of(dealt, FINISHED)
    assert messages.withheld_rounds(game, over) == set()  # the game is over: nothing waits
    assert messages.waiting_rounds(game, over)  # but the reveal names what did


# ---------------------------------------------------------------------------------------------- the page's check

_PAGE = """
globalThis.localStorage = { kept: {}, getItem(key) { return this.kept[key] ?? null; },
  setItem(key, value) { this.kept[key] = String(value); } };
const given = JSON.parse(process.argv[2]);
localStorage.setItem("thirtyone.fair.T", JSON.stringify({ seed: given.seed, commitment: null, scheme: null,
  seat: null, deals: {}, rounds: {} }));  // as a page kept it before this change: no "waiting"
const fairness = await import("./fairness.js");
fairness.noteCommitment("T", { commitment: given.commitment, scheme: "thirtyone-chain/1" });
fairness.noteSeat("T", 0);
const out = { first: await fairness.checkRound("T", given.first), waits: await fairness.checkRound("T", given.waits) };
out.waiting = fairness.waitingRounds("T");
out.reveal = await fairness.checkReveal("T", given.reveal);
out.after = fairness.waitingRounds("T");
out.forged = await fairness.checkReveal("T", given.forged);
out.seen = JSON.parse(fairness.seenFile("T"));
console.log(JSON.stringify(out));
"""


def test_r5_7_the_page_checks_the_rounds_that_waited_at_the_games_end(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    web = Path(__file__).resolve().parents[1] / "src" / "thirtyone" / "web" / "js"
    shutil.copy(web / "fairness.js", tmp_path / "fairness.js")
    (tmp_path / "i18n.js").write_text(  # the page's words, as keys: what is checked here is data
        "export const t = (key, args) => `${key} ${JSON.stringify(args || {})}`;\nexport const num = String;\n"
    )
    (tmp_path / "page.mjs").write_text(_PAGE)
    chain = SaltChain("00" * 32, 3)
    seed = "ab" * 16
    seeds = [seed, None]

    def deal(number: int) -> dict[str, Any]:
        deck = " ".join(map(str, deal_deck(chain.salt(number), number, seeds)))
        fair_part = {"commitment": chain.commitment, "scheme": "thirtyone-chain/1", "seeds": seeds}
        return {"round": number, "deck": deck, "salt": chain.salt(number), **fair_part}

    first = {"type": "round_end", "revealed": True, **deal(1)}
    waits = {"type": "round_end", **deal(2), "revealed": False, "deck": None, "salt": None}
    forged = deal(2)
    cards = forged["deck"].split()
    forged["deck"] = " ".join([cards[1], cards[0], *cards[2:]])
    given = {
        "seed": seed,
        "commitment": chain.commitment,
        "first": first,
        "waits": waits,
        "reveal": {"type": "reveal", "rounds": [deal(2)]},
        "forged": {"type": "reveal", "rounds": [forged]},
    }
    run = subprocess.run(
        [node, str(tmp_path / "page.mjs"), json.dumps(given)], capture_output=True, text=True, check=False, timeout=60
    )
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["first"] | {"text": None} == {
        "round": 1,
        "state": "verified",
        "ok": True,
        "scheme": "thirtyone-chain/1",
        "commitment": chain.commitment,
        "mine": True,
        "problems": [],
        "text": None,
    }
    assert out["first"]["text"].startswith("fair.ok_mine ")
    assert (out["waits"]["state"], out["waits"]["ok"], out["waits"]["text"]) == ("waits", None, None)
    assert out["waiting"] == [2]
    assert (out["reveal"]["state"], out["reveal"]["ok"], out["reveal"]["verified"], out["reveal"]["failed"]) == (
        "verified",
        True,
        [2],
        [],
    )
    assert out["reveal"]["rounds"][0]["state"] == "verified"
    assert out["after"] == []
    assert (out["forged"]["state"], out["forged"]["failed"]) == ("failed", [2])
    assert out["forged"]["rounds"][0]["problems"] == ["deck"]
    assert [entry["round"] for entry in out["seen"]["rounds"]] == [1, 2]  # what `verify --seen` reads
