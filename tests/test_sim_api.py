"""``thirtyone.sim``'s interface: bad input refused before any work, rules it does not cover refused by
name, streams that do not depend on their chunk size and keep memory flat, the counter generator
identical in Python and in the kernels, life without numba, and ``thirtyone bench``."""

from __future__ import annotations

import dataclasses
import json
import random
import subprocess
import sys
import textwrap
import tracemalloc
from pathlib import Path

import pytest

pytest.importorskip("numpy")
pytest.importorskip("numba")

import numpy as np

from helpers import deck_order
from thirtyone import Card
from thirtyone import Game
from thirtyone import Rules
from thirtyone import full_deck
from thirtyone import parse_cards
from thirtyone.actions import Discard
from thirtyone.actions import Exchange
from thirtyone.actions import Knock
from thirtyone.actions import Pass
from thirtyone.bots.runner import simulate
from thirtyone.cli import main
from thirtyone.errors import PositionError
from thirtyone.errors import RulesError
from thirtyone.errors import ThirtyOneError
from thirtyone.refusals import IllegalActionError
from thirtyone.sim import ENDS
from thirtyone.sim import RoundTotals
from thirtyone.sim import SimInputError
from thirtyone.sim import UnsupportedRulesError
from thirtyone.sim import add_batch
from thirtyone.sim import iter_games
from thirtyone.sim import iter_rounds
from thirtyone.sim import kernels
from thirtyone.sim import params
from thirtyone.sim import play_games
from thirtyone.sim import play_rounds
from thirtyone.sim import rollout
from thirtyone.sim.api import MAX_BATCH
from thirtyone.sim.api import MAX_STREAM
from thirtyone.sim.api import action_code
from thirtyone.sim.api import positions_to_states
from thirtyone.sim.rng import CounterChance
from thirtyone.sim.rng import counter_shuffle
from thirtyone.sim.rng import derive
from thirtyone.sim.rng import random_index
from thirtyone.sim.rng import splitmix64
from thirtyone.totals import GameTotals

ROOT = Path(__file__).resolve().parent.parent
SCAT = Rules.preset("scat")


# ---------------------------------------------------------------------------- the counter generator


def test_kernels_compute_the_same_words_as_python() -> None:
    rng = random.Random(3)
    keys = [0, 1, 2**64 - 1] + [rng.getrandbits(64) for _ in range(300)]
    counters = [0, 2**64 - 1, 5] + [rng.getrandbits(rng.choice((6, 40, 64))) for _ in range(300)]
    out = np.zeros(len(keys), dtype=np.uint64)
    kernels.rng_words(np.array(keys, dtype=np.uint64), np.array(counters, dtype=np.uint64), out)
    assert [int(word) for word in out] == [derive(key, counter) for key, counter in zip(keys, counters, strict=True)]
    assert splitmix64(0) == 0xE220A8397B1DCDAF  # SplitMix64's published first output for the seed 0


@pytest.mark.parametrize("size", [2, 5, 29, 32, 52])
def test_kernels_shuffle_as_python(size: int) -> None:
    for key in (0, 7, 2**63 + 11, 12345678901234567):
        work = np.zeros(kernels.N_W, dtype=np.int64)
        work[kernels.W_TMP : kernels.W_TMP + size] = np.arange(size)
        kernels.shuffle_words(work, size, np.uint64(key))
        assert work[kernels.W_TMP : kernels.W_TMP + size].tolist() == counter_shuffle(list(range(size)), key)


def test_counter_chance_is_a_chance_for_the_engine() -> None:
    chance = CounterChance(9)
    deck = chance.deal_order(full_deck(), 1)
    assert sorted(deck) == list(full_deck())
    assert deck == CounterChance(9).deal_order(full_deck(), 1)
    assert deck != chance.deal_order(full_deck(), 2)
    assert 0 <= chance.first_dealer(5) < 5
    first = chance.reshuffle_order(deck[:20], 1, 1)
    assert sorted(first) == sorted(deck[:20])
    assert first == chance.reshuffle_order(deck[:20], 1, 1)
    assert first != chance.reshuffle_order(deck[:20], 1, 2)
    counts = [0] * 3
    for decision in range(3000):
        counts[random_index(17, decision, 3)] += 1
    assert min(counts) > 900  # uniform enough to notice a broken generator


# ---------------------------------------------------------------------------- results


def test_round_batch_shapes_and_words() -> None:
    batch = play_rounds(SCAT, 3, rounds=500, policy=["basic", "random", "heuristic"], seed=4, dealers=2)
    assert len(batch) == 500
    assert batch.lost.shape == (500, 3)
    assert batch.policies == ("basic", "random", "heuristic")
    assert set(batch.end.tolist()) <= set(range(len(ENDS)))
    row = int(np.flatnonzero(batch.end == ENDS.index("knock"))[0])
    assert batch.end_name(row) == "knock"
    assert batch.losses(row)
    assert all(rule == "R6.5" for _, _, rule, _ in batch.losses(row))
    assert (batch.lost.sum(axis=1) >= 1).all()  # every round costs someone a life (R5, R6.5)
    assert ((batch.values >= 0) & (batch.values <= 62)).all()


def test_given_decks_play_as_dealt() -> None:
    rules = Rules.preset("widow")
    deck = deck_order(rules, 2, 1, {0: "As Ks Qs"})
    assert [deck[0], deck[2], deck[4]] == list(parse_cards("As Ks Qs"))  # one card at a time from the left
    batch = play_rounds(rules, 2, decks=[[int(card) for card in deck]], dealers=1, policy="basic")
    assert batch.end_name(0) == "dealt_blitz"
    assert batch.blitz[0].tolist() == [1, 0]
    assert batch.losses(0) == ((1, 1, "R5.2", "dealt_blitz"),)


def test_streams_do_not_depend_on_the_chunk_size() -> None:
    whole = play_rounds(SCAT, 4, rounds=5000, policy="random", seed=8)
    for chunk in (999, 4096):
        parts = list(iter_rounds(SCAT, 4, 5000, "random", seed=8, chunk=chunk))
        assert [part.first_row for part in parts] == list(range(0, 5000, chunk))
        for name in ("end", "turns", "actions", "knocker", "reshuffles"):
            assert np.concatenate([getattr(part, name) for part in parts]).tolist() == getattr(whole, name).tolist()
        assert np.concatenate([part.lost for part in parts]).tolist() == whole.lost.tolist()
    games = play_games(SCAT, 3, "basic", range(300))
    streamed = list(iter_games(SCAT, 3, "basic", range(300), chunk=128))
    assert np.concatenate([part.places for part in streamed]).tolist() == games.places.tolist()


def test_totals_add_up() -> None:
    totals = RoundTotals(4)
    for chunk in iter_rounds(SCAT, 4, 20_000, "basic", seed=1, chunk=3000):
        totals.add(chunk)
    assert totals.rounds == 20_000
    assert sum(totals.ends.values()) == 20_000
    assert sum(totals.lives_by_rule.values()) == sum(totals.seat_lives_lost)
    assert totals.knocks == sum(totals.seat_knocks)
    assert totals.actions > totals.turns > 0
    games = GameTotals(SCAT, ("basic", "random", "heuristic"))
    for chunk in iter_games(SCAT, 3, ["basic", "random", "heuristic"], range(500), chunk=200):
        add_batch(games, chunk)
    report = games.to_dict()
    assert report["games"] == 500
    assert sum(seat["wins"] for seat in report["seats"]) == 500
    assert sum(sum(seat["places"].values()) for seat in report["seats"]) == 1500
    engine = simulate(SCAT, ["basic", "random", "heuristic"], games=2, seed=1).to_dict()
    assert set(report) == set(engine)
    assert set(report["seats"][0]) == set(engine["seats"][0])
    assert set(report["bots"][0]) == set(engine["bots"][0])
    assert report["seats"][2]["wins"] > report["seats"][1]["wins"]  # the heuristic beats random play


@pytest.mark.parametrize(
    ("preset", "bots"),
    [("scat", ("basic", "random", "basic")), ("widow", ("random", "basic")), ("schwimmen", ("basic", "random") * 2)],
)
def test_totals_of_the_same_games_are_equal_from_the_engine_and_the_simulator(preset, bots) -> None:
    from thirtyone.bots.runner import game_seeds
    from thirtyone.cli.simulate import play_game

    rules, seeds = Rules.preset(preset), game_seeds(4, 60)
    engine = GameTotals(rules, bots)
    for seed in seeds:
        engine.add_game(play_game(rules, bots, seed))
    simulator = GameTotals(rules, bots)
    for half in (seeds[:25], seeds[25:]):
        add_batch(simulator, play_games(rules, len(bots), list(bots), half))
    assert simulator == engine  # every count, the actions and each seat's rounds played included
    assert simulator.to_dict() == engine.to_dict()
    assert engine.games == 60
    assert engine.actions > engine.turns > 0
    assert sum(seat.rounds_played for seat in engine.seats) >= engine.rounds


def test_add_batch_refuses_games_of_other_tables() -> None:
    batch = play_games(SCAT, 3, "basic", range(4))
    with pytest.raises(ValueError, match=r"with 3 players added to totals of .* with 4"):
        add_batch(GameTotals(SCAT, ("basic",) * 4), batch)
    with pytest.raises(ValueError, match="add_batch: games of"):
        add_batch(GameTotals(Rules.preset("widow"), ("basic",) * 3), batch)


def test_places_are_the_reverse_order_of_elimination() -> None:
    batch = play_games(Rules.preset("namu", lives=1), 5, "random", range(400))
    for row in range(len(batch)):
        places = batch.places[row].tolist()
        assert places.count(1) == 1
        assert places[int(batch.winner[row])] == 1
        for seat, place in enumerate(places):  # a shared place is the best of its group
            assert place == 1 + sum(1 for other in places if other < place), (row, seat)


def test_memory_stays_flat_while_streaming() -> None:
    peaks = []
    for rounds in (40_000, 400_000):
        tracemalloc.start()
        totals = RoundTotals(4)
        for chunk in iter_rounds(SCAT, 4, rounds, "basic", seed=3, chunk=8192):
            totals.add(chunk)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    assert peaks[1] < 1.25 * peaks[0], peaks


# ---------------------------------------------------------------------------- rollouts


def test_rollout_keeps_one_world_for_every_candidate_action() -> None:
    game = Game(SCAT, 3, seed=11)
    position = game.position()
    legal = list(game.legal_actions())
    batch = rollout([position] * (2 * len(legal)), legal * 2, seed=5, worlds=[0] * len(legal) + [1] * len(legal))
    assert len(batch) == 2 * len(legal)
    assert batch.lost.shape == (2 * len(legal), 3)
    again = rollout([position] * len(legal), legal, seed=5, worlds=[0] * len(legal))
    assert again.lost.tolist() == batch.lost[: len(legal)].tolist()
    knock = legal.index(Knock())
    assert batch.knocked[knock] == position.to_move == batch.knocker[knock]


def test_action_codes_name_cards_by_place() -> None:
    game = Game(Rules.preset("widow", exchange="any"), 2, seed=3)
    game.apply(Pass())
    position = game.position()
    hand, widow = position.hands[position.to_move], position.widow
    assert action_code(position, Exchange(hand[2], widow[0])) == 128 + 6
    assert action_code(position, Exchange((hand[0], hand[1]), (widow[1], widow[2]))) == 144 + 3 * 2 + 0
    assert action_code(position, Discard(Card(5))) == 64 + 5
    with pytest.raises(IllegalActionError, match=r"R7\.1"):
        action_code(position, Exchange(widow[0], hand[0]))


# ---------------------------------------------------------------------------- bad input, before any work


def _bad_deck(kind: str) -> list[list[int]]:
    deck = list(range(52))
    if kind == "repeat":
        deck[5] = deck[6]
    elif kind == "foreign":
        deck[0] = 60
    elif kind == "short":
        deck = deck[:51]
    return [list(range(52)), deck]


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: play_rounds(SCAT, 4, rounds=0), SimInputError, "rounds must be from 1"),
        (lambda: play_rounds(SCAT, 4, rounds=MAX_BATCH + 1), SimInputError, "16,777,216"),
        (lambda: play_rounds(SCAT, 4, rounds=2.5), SimInputError, "whole number"),  # type: ignore[arg-type]
        (lambda: play_rounds(SCAT, 4), SimInputError, "rounds=n"),
        (lambda: play_rounds(SCAT, 4, decks=np.zeros((0, 52), dtype=int)), SimInputError, "from 1"),
        (
            lambda: play_rounds(SCAT, 4, decks=_bad_deck("repeat")),
            SimInputError,
            "deck order 1 is not a permutation of the 52-card deck: missing 3d, repeated 3h$",
        ),
        (
            lambda: play_rounds(SCAT, 4, decks=_bad_deck("repeat")[1:] * 3),
            SimInputError,
            r"deck order 0 \(and 2 more\) is not a permutation",
        ),
        (
            lambda: play_rounds(SCAT, 4, decks=_bad_deck("foreign")),
            SimInputError,
            "deck order 1 is not a permutation of the 52-card deck: missing 2c, not in the deck 60$",
        ),
        (lambda: play_rounds(SCAT, 4, decks=_bad_deck("short")), SimInputError, "decks must"),
        (lambda: play_rounds(SCAT, 4, decks=[list(range(52))] * 2, rounds=3), SimInputError, "rounds=3"),
        (lambda: play_rounds(SCAT, 4, decks=[[float(c) for c in range(52)]]), SimInputError, "card indexes"),
        (lambda: play_rounds(Rules.preset("schwimmen"), 4, decks=[list(range(32))]), SimInputError, "32-card"),
        (lambda: play_rounds(SCAT, 4, rounds=5, dealers=4), SimInputError, "seat from 0 to 3"),
        (lambda: play_rounds(SCAT, 4, rounds=5, dealers=[0, 1]), SimInputError, "one per round"),
        (lambda: play_rounds(SCAT, 3, rounds=5, lives=[0, 0, 2]), SimInputError, "two seats"),
        (lambda: play_rounds(SCAT, 3, rounds=5, lives=[0, 2, 2], dealers=0), SimInputError, "still in"),
        (lambda: play_rounds(SCAT, 3, rounds=5, lives=[-1, 2, 2]), SimInputError, "0 to 100"),
        (lambda: play_rounds(SCAT, 3, rounds=5, lives=[1, 2]), SimInputError, "3 columns"),
        (lambda: play_rounds(SCAT, 3, rounds=5, policy="expert"), SimInputError, "random, basic, heuristic"),
        (lambda: play_rounds(SCAT, 3, rounds=5, policy=["basic"] * 2), SimInputError, "one per seat"),
        (lambda: play_rounds(SCAT, 3, rounds=5, seed=-1), SimInputError, "2\\*\\*64"),
        (lambda: play_rounds(SCAT, 3, rounds=5, seed=2**64), SimInputError, "2\\*\\*64"),
        (lambda: play_rounds(SCAT, 1, rounds=5), RulesError, "R2.1"),
        (lambda: play_rounds(Rules.preset("schwimmen"), 9, rounds=5), RulesError, "R2.1"),
        (lambda: play_rounds("scat", 4, rounds=5), SimInputError, "thirtyone.Rules"),  # type: ignore[arg-type]
        (lambda: iter_rounds(SCAT, 4, MAX_STREAM + 1), SimInputError, "rounds must be from 1"),
        (lambda: iter_rounds(SCAT, 4, 10, chunk=0), SimInputError, "chunk"),
        (lambda: iter_rounds(SCAT, 4, 10, lives=[[3] * 4] * 2), SimInputError, "lives"),
        (lambda: play_games(SCAT, 4, "basic", []), SimInputError, "number of games"),
        (lambda: play_games(SCAT, 4, "basic", [1, -5]), SimInputError, "seed"),
        (lambda: play_games(SCAT, 4, "basic", range(MAX_BATCH + 1)), SimInputError, "16,777,216"),
        (lambda: play_games(SCAT, 4, ["basic", "nobody"] * 2, [1]), SimInputError, "unknown policy 'nobody'"),
        (lambda: rollout([], []), SimInputError, "number of positions"),
        (lambda: rollout([Game(SCAT, 2, seed=1).position()], []), SimInputError, "first actions"),
        (
            lambda: rollout(["x"], [Knock()]),
            SimInputError,
            r"position 0 must be a thirtyone.position.Position \(game.position\(\) gives one\), not 'x'",
        ),
        (
            lambda: rollout([Game(SCAT, 2, seed=1).position(), 7], [Knock()] * 2),
            SimInputError,
            "position 1 must be .* not 7",
        ),
        (lambda: rollout([Game(SCAT, 2, seed=1).position()], [Pass()]), IllegalActionError, "row 0"),
    ],
)
def test_bad_input_is_refused_with_a_clear_error(call: object, error: type[Exception], words: str) -> None:
    with pytest.raises(error, match=words):
        call()  # type: ignore[operator]
    with pytest.raises(ThirtyOneError):
        call()  # type: ignore[operator]


def test_a_position_no_game_can_be_in_is_refused() -> None:
    position = Game(SCAT, 3, seed=2).position()
    broken = dataclasses.replace(position, stock=position.stock[1:])
    with pytest.raises(PositionError, match="position 1: every card"):
        rollout([position, broken], [Knock(), Knock()])
    other = Game(Rules.preset("namu"), 3, seed=2).position()
    with pytest.raises(SimInputError, match="other rules"):
        rollout([position, other], [Knock(), Knock()])


def test_positions_known_valid_skip_the_check_after_the_first_and_convert_the_same() -> None:
    """``check=False`` (the expert's worlds of one decision) checks the first position only."""
    positions = [Game(SCAT, 3, seed=seed).position() for seed in range(4)]
    assert (positions_to_states(positions, check=False) == positions_to_states(positions)).all()
    broken = dataclasses.replace(positions[0], stock=positions[0].stock[1:])
    with pytest.raises(PositionError, match="position 0: every card"):
        rollout([broken, positions[1]], [Knock(), Knock()], check=False)
    positions_to_states([positions[0], broken], check=False)  # not checked: the caller vouches for it
    with pytest.raises(PositionError, match="position 1"):
        positions_to_states([positions[0], broken])


def test_rules_it_does_not_cover_are_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every option of today's Rules is covered; an option (or value) the kernels do not know, as a
    new option of tomorrow's rules would be, is refused before anything is played."""
    for rules in (Rules.preset(name) for name in ("scat", "widow", "namu", "schwimmen")):
        params.check_covered(rules)
    monkeypatch.setitem(params.COVERED, "exchange", lambda value: value in (None, "one_or_all"))
    with pytest.raises(UnsupportedRulesError, match="option exchange=any; play these rules with the engine"):
        play_rounds(Rules.preset("widow", exchange="any"), 3, rounds=10)
    monkeypatch.delitem(params.COVERED, "throw_down")
    with pytest.raises(UnsupportedRulesError, match="throw_down=off"):
        play_games(SCAT, 3, "basic", [1])
    assert issubclass(UnsupportedRulesError, ThirtyOneError)


def test_one_table_maps_the_cores_action_ids_to_the_kernels_codes_and_back() -> None:
    from thirtyone.action_ids import ACTION_NAMES
    from thirtyone.action_ids import NUM_ACTIONS
    from thirtyone.sim import codes
    from thirtyone.sim.steps import ACTION_TABLE

    assert len(codes.ID_CODES) == NUM_ACTIONS
    assert all(codes.CODE_IDS[code] == number for number, code in enumerate(codes.ID_CODES))
    assert sorted(number for number in codes.CODE_IDS if number >= 0) == list(range(NUM_ACTIONS))
    assert list(ACTION_TABLE) == [*codes.ID_CODES, *codes.CODE_IDS]
    assert ACTION_NAMES[codes.CODE_IDS[codes.A_KNOCK]] == "knock"
    assert ACTION_NAMES[codes.CODE_IDS[codes.A_DISCARD + 51]] == "discard As"


def test_one_function_says_whether_and_why_not_the_simulator_plays_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    from thirtyone import sim

    for name in ("scat", "widow", "namu", "schwimmen"):
        assert sim.cannot_play(Rules.preset(name)) == ""
        sim.check_playable(Rules.preset(name))
    monkeypatch.setitem(params.COVERED, "exchange", lambda value: value in (None, "one_or_all"))
    uncovered = Rules.preset("widow", exchange="any")
    assert "option exchange=any" in sim.cannot_play(uncovered)
    with pytest.raises(UnsupportedRulesError, match="exchange=any"):
        sim.check_playable(uncovered)


# ---------------------------------------------------------------------------- without numba

_NO_NUMBA = textwrap.dedent(
    """
    import sys
    from importlib.abc import MetaPathFinder

    class NoNumba(MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name.split(".")[0] == "numba":
                raise ImportError("No module named 'numba'")
            return None

    sys.meta_path.insert(0, NoNumba())
    """
)


def test_without_numba_everything_else_works_and_sim_says_so_in_one_line() -> None:
    code = _NO_NUMBA + textwrap.dedent(
        """
        from thirtyone import Rules, Game, sim
        from thirtyone.sim.rng import CounterChance
        assert not sim.available()
        game = Game(Rules(), 3, chance=CounterChance(4))
        while not game.is_over:
            game.apply(game.legal_actions()[0])
        try:
            sim.play_rounds(Rules(), 4, rounds=10)
        except sim.SimUnavailableError as error:
            print(error)
        else:
            raise SystemExit("no error")
        try:
            sim.RoundBatch
        except sim.SimUnavailableError:
            print("batch refused")
        assert sim.cannot_play(Rules()) == str(sim.SimUnavailableError(sim.unavailable_reason()))
        try:
            sim.check_playable(Rules())
        except sim.SimUnavailableError:
            pass
        else:
            raise SystemExit("check_playable passed without numba")
        """
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 2
    assert lines[1] == "batch refused"
    assert "pip install 'thirtyone[fast]'" in lines[0]
    assert "No module named 'numba'" in lines[0]


def test_bench_without_numba_measures_the_engine_with_a_notice() -> None:
    code = _NO_NUMBA + "from thirtyone.cli import main\nraise SystemExit(main(['bench', '--seconds', '0.2']))\n"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False)
    assert result.returncode == 0, result.stderr
    notices = [line for line in result.stdout.splitlines() if line.startswith("notice:")]
    assert len(notices) == 1
    assert "thirtyone[fast]" in notices[0]
    assert "engine, whole games:" in result.stdout
    assert "sim, whole games" not in result.stdout


def test_the_core_does_not_import_numba_or_numpy() -> None:
    code = "import sys, thirtyone, thirtyone.bots, thirtyone.cli.bench\n"
    code += "print(sorted({'numba', 'numpy'} & set(sys.modules)))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert result.stdout.strip() == "[]"


# ---------------------------------------------------------------------------- thirtyone bench


def test_bench_prints_engine_and_sim_side_by_side(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["bench", "--seconds", "0.2", "--rounds", "20000", "--no-memory", "--players", "3", "--preset", "widow"]
    assert main([*args, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["rules"] == "widow"
    assert report["policy"] == "basic"
    assert report["engine"]["rounds_per_s"] > 0
    assert report["sim_rounds"]["rounds"] == 20000
    assert report["ratio"] == pytest.approx(report["sim_games"]["rounds_per_s"] / report["engine"]["rounds_per_s"])
    assert main([*args, "--policy", "random"]) == 0
    out = capsys.readouterr().out
    for words in ("engine, whole games:", "sim, whole games:", "sim / engine:", "rounds/s", "actions/s", "peak"):
        assert words in out


def test_bench_measures_memory_while_streaming(capsys: pytest.CaptureFixture[str]) -> None:
    from thirtyone.cli import bench

    peaks = [bench._traced_peak_mb(SCAT, 4, "random", count) for count in (70_000, 300_000)]  # chunks of 65,536
    assert peaks[1] < 1.25 * peaks[0]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--policy", "expert"], "--policy expert: choose one of random, basic, heuristic"),
        (["--rounds", "0"], "--rounds 0"),
        (["--seconds", "0"], "--seconds 0"),
        (["--players", "1"], "R2.1"),
    ],
)
def test_bench_refuses_bad_arguments(args: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("thirtyone: error:")
    assert words in err
    assert len(err.strip().splitlines()) == 1
