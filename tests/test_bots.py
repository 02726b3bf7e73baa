"""The bots of the engine issue: random and basic (interface, legality, decisions, strength)."""

from __future__ import annotations

import random
import re

import pytest

from helpers import scripted_game
from thirtyone import Discard
from thirtyone import Draw
from thirtyone import Exchange
from thirtyone import ExchangeAll
from thirtyone import Keep
from thirtyone import Knock
from thirtyone import Look
from thirtyone import Pass
from thirtyone import Phase
from thirtyone import RoundEnded
from thirtyone import Rules
from thirtyone import TakeWidow
from thirtyone import full_deck
from thirtyone import hand_value
from thirtyone import parse_cards
from thirtyone.bots import BOTS
from thirtyone.bots import UnknownBotError
from thirtyone.bots import make_bot
from thirtyone.bots import parse_bot_list
from thirtyone.bots.base import SeededBot
from thirtyone.bots.base import table_refusal
from thirtyone.bots.basic import knock_threshold
from thirtyone.bots.hands import best_after_taking
from thirtyone.bots.hands import best_discard
from thirtyone.bots.levels import takes_budget
from thirtyone.bots.runner import BotError
from thirtyone.bots.runner import play_game
from thirtyone.bots.runner import simulate
from thirtyone.errors import ArgumentError


def basic_choice(game, seat=None):
    seat = game.current_seat if seat is None else seat
    view = game.view(seat)
    return make_bot("basic", 0).choose(view, view.legal_actions)


@pytest.mark.parametrize("bad", [None, 3])
def test_make_bot_refuses_non_text(bad):
    with pytest.raises(UnknownBotError):
        make_bot(bad)


@pytest.mark.parametrize("seed", [[1], "x", 1.5, True, b"1"])
@pytest.mark.parametrize("name", ["random", "basic", "expert:5"])
def test_make_bot_refuses_a_seed_that_is_not_a_whole_number(name, seed):
    with pytest.raises(
        ArgumentError, match=rf"^seed is a whole number \(or None for an unseeded bot\), not {re.escape(repr(seed))}$"
    ):
        make_bot(name, seed)


def test_a_seeded_bot_refuses_a_seed_that_is_not_a_whole_number_and_takes_numpy_integers():
    with pytest.raises(ArgumentError, match="seed is a whole number"):
        SeededBot(1.5)  # type: ignore[arg-type]
    numpy = pytest.importorskip("numpy")
    assert make_bot("random", numpy.int64(7)).rng.random() == make_bot("random", 7).rng.random()
    assert make_bot("basic", None).name == "basic"


def test_make_bot_and_unknown_names():
    assert {make_bot(name).name for name in BOTS} == set(BOTS)
    with pytest.raises(UnknownBotError, match="unknown bot 'ace'"):
        make_bot("ace")
    assert parse_bot_list("basic, random", 3) == ["basic", "random", "random"]
    with pytest.raises(UnknownBotError, match="unknown bot"):
        parse_bot_list("basic,chess", 3)
    with pytest.raises(UnknownBotError, match="no bot named"):
        parse_bot_list(" , ", 3)
    with pytest.raises(UnknownBotError, match="an empty bot name"):
        parse_bot_list("basic,,random", 3)
    with pytest.raises(UnknownBotError, match="3 bots named for 2 bot seats"):
        parse_bot_list("basic,basic,basic", 2)
    assert [make_bot(name).name for name in ("easy", "medium", "hard")] == ["basic", "heuristic", "expert"]
    assert make_bot("expert:0.25s").seconds == 0.25
    assert make_bot("hard:25").worlds == 25
    for bad in ("expert:0", "expert:-1s", "expert:lots", "basic:10"):
        with pytest.raises(UnknownBotError, match="budget"):
            make_bot(bad)


def test_best_discard_keeps_the_card_taken_from_the_pile():
    rules = Rules()
    cards = parse_cards("As Ks 2h Qs")
    assert best_discard(cards, rules) == (62, parse_cards("2h")[0])
    value, discard = best_discard(cards, rules, keep=parse_cards("2h")[0])
    assert discard != parse_cards("2h")[0]
    assert value == 2 * 21  # As Ks or As Qs with 2h kept: best is 21 (ace + king)


def test_best_discard_is_the_best_three_of_four_with_its_ties_in_every_order():
    """Seed 11: 3,000 random four-card hands (and a kept card or none) of each scoring, against the
    rule written out: the most value kept, ties to discarding the fewest points, then the higher card."""
    rng = random.Random(11)
    for rules in (Rules(), Rules.preset("schwimmen"), Rules.preset("scat", straight_flush=True)):
        deck = full_deck(rules.deck)
        for _ in range(3000):
            cards = tuple(rng.sample(deck, 4))
            keep = rng.choice((None, *cards))
            options = [
                (hand_value([other for other in cards if other != card], rules), -card.points, card)
                for card in cards
                if card != keep
            ]
            value, _, card = max(options)
            assert best_discard(cards, rules, keep=keep) == (int(2 * value), card)  # half points
            assert best_discard(list(cards), rules, keep=keep) == (int(2 * value), card)


def test_best_after_taking_uses_the_new_card():
    assert best_after_taking(parse_cards("2c 3d 4h"), parse_cards("Ah")[0], Rules()) == 2 * 15


def test_basic_takes_the_pile_card_when_it_improves_the_hand():
    game = scripted_game(Rules(), 3, 0, {1: "Kh 9h 2c"}, upcard="Ah")
    assert basic_choice(game) == Draw("pile")


def test_basic_draws_from_the_stock_when_the_pile_does_not_help():
    game = scripted_game(Rules(), 3, 0, {1: "Kh 9h 2c"}, upcard="3d")
    assert basic_choice(game) == Draw("stock")


def test_basic_discards_to_the_best_hand_and_never_the_taken_card():
    game = scripted_game(Rules(), 3, 0, {1: "Kh 9h 2c"}, upcard="Ah")
    game.apply("draw pile")
    assert basic_choice(game) == Discard(parse_cards("2c")[0])


def test_basic_never_knocks_on_the_first_turn_with_a_weak_hand():
    game = scripted_game(Rules(), 3, 0, {1: "Kh 9h 2c"}, upcard="3d")
    assert Knock() in game.legal_actions()
    assert basic_choice(game) != Knock()
    assert knock_threshold(0) >= 40  # never below 20 points


def test_basic_knocks_with_a_strong_hand():
    game = scripted_game(Rules(), 3, 0, {1: "Kh Qh 9h"}, upcard="3d")  # 29
    assert basic_choice(game) == Knock()


def test_basic_widow_makes_the_best_exchange_or_passes():
    rules = Rules.preset("widow")
    game = scripted_game(rules, 3, 0, {1: "Kh 9h 2c", 2: "Ks 8s 3d"}, widow="Qs 4c 5d")
    game.apply("pass")  # the opening: the widow turns face up
    assert game.current_seat == 2
    assert basic_choice(game) == Exchange(parse_cards("3d")[0], parse_cards("Qs")[0])
    game = scripted_game(rules, 3, 0, {1: "Kh 9h 2c", 2: "Ks 9s 3d"}, widow="2h 4c 5c")
    game.apply("pass")
    assert basic_choice(game) == Pass()


def test_basic_takes_the_face_down_widow_only_with_a_poor_hand():
    rules = Rules.preset("widow")
    assert basic_choice(scripted_game(rules, 3, 0, {1: "2c 5d 9h"})) == ExchangeAll()
    assert basic_choice(scripted_game(rules, 3, 0, {1: "Kh 9h 2c"})) == Pass()


def test_basic_schwimmen_dealer_keeps_a_good_hand_and_swaps_a_poor_one():
    rules = Rules.preset("schwimmen")
    game = scripted_game(rules, 3, 0, {0: "Ah Kh 8c"})
    assert game.phase is Phase.DEALER_CHOICE
    assert basic_choice(game) == Keep()
    game = scripted_game(rules, 3, 0, {0: "7c 8d 9h"})
    assert basic_choice(game) == TakeWidow()


def test_basic_looks_in_the_blind_phase():
    game = scripted_game(Rules(throw_down=True), 3, 0, {})
    assert game.phase is Phase.LOOK
    assert basic_choice(game) == Look()


@pytest.mark.parametrize("preset", ["scat", "widow", "namu", "schwimmen"])
@pytest.mark.parametrize("name", sorted(BOTS))
def test_bots_play_only_legal_actions_in_every_preset(preset, name):
    searches = takes_budget(name)
    name = f"{name}:3" if searches else name  # a small search budget keeps the experts quick
    for seed in range(1 if searches else 3):
        options = {"throw_down": True} if preset == "scat" and seed == 1 else {}
        rules = Rules.preset(preset, **options)
        bots = [make_bot(name, seed * 10 + seat) for seat in range(4)]
        if table_refusal(bots[0], rules, 4) is not None:  # said before the game: only the judge, beyond its training
            assert name == "judge"
            assert (preset, options) in (("namu", {}), ("scat", {"throw_down": True}))
            continue
        game = play_game(rules, bots, seed=seed)
        assert game.is_over
        assert game.winner is not None


def test_bots_are_deterministic_for_a_seed():
    def events(seed):
        bots = [make_bot("random", seed + 1), make_bot("basic", seed + 2), make_bot("random", seed + 3)]
        return play_game(Rules(), bots, seed=seed).events

    assert events(5) == events(5)
    assert events(5) != events(6)


def test_basic_beats_random_clearly():
    stats = simulate(Rules(), ["basic", "random", "random", "random"], games=60, seed=11)
    assert stats.seats[0].wins >= 45  # fair share would be 15


class _Illegal:
    name = "cheat"

    def choose(self, view, legal):
        return Knock() if Knock() not in legal else Pass()


class _Raises:
    name = "broken"

    def choose(self, view, legal):
        raise RuntimeError("boom")


def test_play_game_reports_a_bot_that_breaks_the_rules():
    with pytest.raises(BotError, match=r"bot cheat in seat \d chose"):
        play_game(Rules(), [_Illegal(), _Illegal()], seed=1)
    with pytest.raises(BotError, match=r"bot broken in seat \d raised RuntimeError: boom"):
        play_game(Rules(), [_Raises(), _Raises()], seed=1)


def test_play_game_refuses_bot_names_and_says_to_make_bots():
    with pytest.raises(
        ArgumentError, match=r"^bots\[0\] is the name 'basic', not a bot: pass make_bot\('basic'\) instead$"
    ):
        play_game(Rules.preset("scat"), ["basic", "basic"], seed=1)
    with pytest.raises(ArgumentError, match=r"^bots is a list of bots, one a seat"):
        play_game(Rules.preset("scat"), "basic", seed=1)
    with pytest.raises(ArgumentError, match=r"^bots\[1\] is 3, not a bot \(a name and a choose method\)"):
        play_game(Rules.preset("scat"), [make_bot("basic", 1), 3], seed=1)
    with pytest.raises(ArgumentError, match="seed is a whole number"):
        play_game(Rules.preset("scat"), [make_bot("basic", 1), make_bot("basic", 2)], seed=1.5)


def test_simulate_totals_add_up_and_repeat():
    stats = simulate(Rules.preset("namu"), ["basic", "random", "basic"], games=20, seed=3)
    assert stats.games == 20
    assert sum(seat.wins for seat in stats.seats) == 20
    assert all(sum(seat.places.values()) == 20 for seat in stats.seats)
    assert sum(stats.ends.values()) == stats.rounds
    assert sum(seat.lives_lost for seat in stats.seats) == sum(stats.lives_by_rule.values())
    assert simulate(Rules.preset("namu"), ["basic", "random", "basic"], games=20, seed=3).to_dict() == stats.to_dict()
    by_bot = stats.by_bot()
    assert by_bot["basic"].wins + by_bot["random"].wins == 20


# ---------------------------------------------------------------------------- R9: bots swapping forever

WIDOW = Rules.preset("widow")
SCHWIMMEN = Rules.preset("schwimmen")


@pytest.mark.parametrize(
    "rules",
    [
        WIDOW,
        WIDOW.replace(all_pass="new_widow", exchange="any"),
        WIDOW.replace(knock_from_round=2, min_knock_value=25),
        SCHWIMMEN,
    ],
    ids=["widow", "new_widow_any", "late_knock", "schwimmen"],
)
def test_r9_bots_do_not_swap_the_same_cards_forever(rules):
    rounds = 0
    longest = 0
    at_limit = 0
    for seed in range(40):
        players = 2 + seed % 5
        bots = [make_bot("basic", 1000 * seed + seat) for seat in range(players)]
        game = play_game(rules, bots, seed=seed)
        assert game.is_over
        for event in game.events:
            if isinstance(event, RoundEnded):
                rounds += 1
                longest = max(longest, event.result.turns)
                at_limit += event.result.end == "max_turns"
    assert rounds > 100
    assert at_limit == 0
    assert longest <= rules.max_turns // 2


def test_item14_thirtyone_bots_lists_ismcts_as_installed_only_with_openspiel(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import sys

    from thirtyone.cli import main

    monkeypatch.setitem(sys.modules, "pyspiel", None)  # as without the openspiel extra: the import fails
    monkeypatch.delitem(sys.modules, "thirtyone.agents.ismcts", raising=False)
    assert main(["bots"]) == 0
    out = capsys.readouterr().out
    installed, _, apart = out.partition("registered, but not usable here:")
    assert "ismcts" not in installed
    assert "policy               thirtyone.agents.policy:make_bot" in installed
    assert "ismcts               thirtyone.agents.ismcts:make_bot  does not load:" in apart
    assert "pip install 'thirtyone[openspiel]'" in apart
    assert main(["bots", "--check"]) == 1
