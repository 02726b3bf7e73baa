"""Never a second truth: :mod:`thirtyone.sim` against the engine, round by round and game by game,
and the heuristic's three players against its one policy, decision by decision.

Every test plays the same deck orders, the same reshuffles (:class:`thirtyone.sim.RoundChance`,
:class:`thirtyone.sim.CounterChance`) and the same deterministic choices (the real ``BasicBot`` and
``rollout_action``, or the counter-based random pick) through :class:`thirtyone.engine.Game` and
through the kernels, and requires identical results for every round: how it ended
(``RoundResult.end``), the knocker, who lost how many lives by which rule (``Loss.rule``, and the
engine's reason for R6.5), the turns (``RoundResult.turns``), the remaining losses, eliminations,
R2.6, the blitz seats, every final hand value, the reshuffles, new widows and actions.
The deterministic tests also check that they met what they are meant to meet (reshuffles, dealt
blitzes, knocks on the first turn, throw-downs, all-pass rounds, …).

The heuristic is written once (:func:`thirtyone.bots.heuristic.heuristic_action` of a
:class:`~thirtyone.bots.situation.Situation`) and played three ways: ``HeuristicBot.choose`` on a
view, ``rollout_action`` on a game, and the kernels' compiled ``_heuristic``; at every decision of
many games all three are asked, with the policy on each adapter's situation (section "one policy").
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

pytest.importorskip("numba")

from helpers import deck_order
from support.sim import EngineRound
from support.sim import engine_game
from support.sim import engine_rollout
from support.sim import engine_round
from support.sim import seeded_deck
from support.sim import sim_game
from support.sim import sim_summary
from thirtyone import Game
from thirtyone import Rules
from thirtyone import full_deck
from thirtyone.actions import Action
from thirtyone.actions import Knock
from thirtyone.bots import heuristic
from thirtyone.bots.basic import knock_threshold
from thirtyone.bots.heuristic import HeuristicBot
from thirtyone.bots.heuristic import heuristic_action
from thirtyone.bots.heuristic import rollout_action
from thirtyone.bots.situation import Situation
from thirtyone.rules import PRESETS as EVERY_PRESET
from thirtyone.settlement import KNOCK_PENALTIES
from thirtyone.settlement import LOSS_RULES
from thirtyone.sim import api
from thirtyone.sim import kernels
from thirtyone.sim import params
from thirtyone.sim import play_games
from thirtyone.sim import play_rounds
from thirtyone.sim import rollout
from thirtyone.sim.rng import round_key

POLICIES = ("random", "basic", "heuristic")
PRESETS = {name: rules for name, rules in EVERY_PRESET.items() if params.COVERED["deck"](rules.deck)}
"""The presets the kernels play (not mini's 8-card deck: it falls back to the engine)."""
FAST = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def most_players(rules: Rules) -> int:
    return min(9, (rules.deck - 6) // 3)


def check_rounds(
    rules: Rules,
    players: int,
    policies: Sequence[str],
    seed: int,
    dealers: Sequence[int],
    lives: Sequence[int] | None = None,
    decks: Sequence[Sequence[int]] | None = None,
    rows: Sequence[int] | None = None,
) -> list[EngineRound]:
    """Play one round per dealer through the simulator (deck orders ``decks``, or dealt from the
    seed) and the rows ``rows`` of them (default: all) through the engine; require identical
    summaries. Returns the engine's rounds."""
    batch = play_rounds(
        rules,
        players,
        decks=decks,
        dealers=list(dealers),
        policy=list(policies),
        seed=seed,
        lives=lives,
        rounds=None if decks is not None else len(dealers),
    )
    played = []
    for row in range(len(dealers)) if rows is None else rows:
        deck = [full_deck()[card] for card in decks[row]] if decks is not None else seeded_deck(rules, seed, row)
        engine = engine_round(rules, players, deck, dealers[row], policies, round_key(seed, row), lives)
        got = sim_summary(batch, row)
        assert got == engine.summary(players), (
            f"{rules.describe()}, {players} players, {list(policies)}, seed {seed}, row {row}"
        )
        played.append(engine)
    return played


# ---------------------------------------------------------------------------- every preset, every policy


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("preset", list(PRESETS))
def test_rounds_match_engine_for_each_preset_and_policy(preset: str, policy: str) -> None:
    rules = Rules.preset(preset)
    ends: Counter[str] = Counter()
    for players in range(2, 7):
        rng = random.Random(f"{preset}/{policy}/{players}")
        dealers = [rng.randrange(players) for _ in range(200)]
        for played in check_rounds(rules, players, [policy] * players, rng.getrandbits(64), dealers):
            ends[played.result.end] += 1
    assert sum(ends.values()) == 1000
    assert ends["knock"] > 0
    assert ends["blitz"] + ends["dealt_blitz"] > 0


# ---------------------------------------------------------------------------- situations that must be met


SITUATIONS = [
    # (name, preset, overrides, players, policies, lives, what the rounds must include)
    ("reshuffles", "scat", {"min_knock_value": 30}, 2, ("random",) * 2, None, {"reshuffle", "max_turns"}),
    ("reshuffles, basic", "scat", {"min_knock_value": 30}, 2, ("random", "basic"), None, {"reshuffle"}),
    ("reshuffles, heuristic", "namu", {"min_knock_value": 30}, 2, ("heuristic",) * 2, None, {"reshuffle"}),
    ("basic knocks", "scat", {}, 4, ("basic",) * 4, None, {"first_knock", "R6.5 scat", "R6.5 saved", "R5.3"}),
    ("heuristic knocks", "namu", {}, 3, ("heuristic",) * 3, None, {"first_knock", "R5.3", "R6.5 saved"}),
    ("random play", "scat", {}, 3, ("random",) * 3, None, {"R5.3", "R5.1", "R5.2", "first_knock", "R6.5 scat"}),
    ("throw-downs", "scat", {"throw_down": True}, 4, ("random",) * 4, None, {"throw_down"}),
    ("bots look", "scat", {"throw_down": True}, 3, ("basic", "heuristic", "random"), None, {"knock", "throw_down"}),
    ("all-pass showdowns", "widow", {}, 4, ("basic",) * 4, None, {"all_pass", "R6.5 widow", "first_knock"}),
    ("new widows", "schwimmen", {}, 3, ("basic", "heuristic", "random"), None, {"new_widow", "R5.2"}),
    ("exchange any", "widow", {"exchange": "any"}, 3, ("random", "basic", "heuristic"), None, {"all_pass", "R5.3"}),
    (
        "stock runs out",
        "scat",
        {"stock_exhausted": "showdown", "min_knock_value": 28},
        2,
        ("random",) * 2,
        None,
        {"stock_exhausted"},
    ),
    (
        "turn limit",
        "namu",
        {"max_turns": 7},
        5,
        ("random", "basic", "heuristic", "basic", "random"),
        None,
        {"max_turns"},
    ),
    ("namu_risky", "namu", {"knock_penalty": "namu_risky"}, 4, ("random",) * 4, None, {"R6.5 risky"}),
    ("32 cards, draw", "scat", {"deck": 32, "knock_penalty": "plain"}, 4, ("basic", "random") * 2, None, {"knock"}),
    (
        "specials",
        "scat",
        {"three_of_a_kind": "30", "straight_flush": True, "three_aces": True},
        6,
        ("heuristic",) * 6,
        None,
        {"knock", "R5.2"},
    ),
    ("knock from round 2", "widow", {"knock_from_round": 2, "dealer_hand": True}, 4, ("random",) * 4, None, {"knock"}),
    ("last lives, R2.6", "scat", {"max_turns": 1}, 3, ("random",) * 3, (1, 1, 1), {"saved", "eliminated"}),
    (
        "seats out",
        "widow",
        {},
        5,
        ("heuristic", "basic", "random", "basic", "heuristic"),
        (0, 2, 1, 0, 3),
        {"eliminated"},
    ),
]


def _sim_columns(batch: object) -> dict[str, list[Any]]:
    """The RoundBatch's outputs that :func:`_sim_features` reads, one Python value per row (read
    out of numpy once: indexing its arrays row by row cost a third of the test's time)."""
    b = batch  # type: ignore[assignment]
    rows = len(b)  # type: ignore[arg-type]
    return {
        "end": b.end.tolist(),  # type: ignore[attr-defined]
        "nact": (b.values.reshape(rows, -1) >= 0).sum(axis=1).tolist(),  # type: ignore[attr-defined]
        "turns": b.turns.tolist(),  # type: ignore[attr-defined]
        "reshuffles": b.reshuffles.tolist(),  # type: ignore[attr-defined]
        "new_widows": b.new_widows.tolist(),  # type: ignore[attr-defined]
        "saved": b.saved.tolist(),  # type: ignore[attr-defined]
        "eliminated": b.eliminated.reshape(rows, -1).any(axis=1).tolist(),  # type: ignore[attr-defined]
        "rule": b.rule.tolist(),  # type: ignore[attr-defined]
    }


def _sim_features(columns: dict[str, list[Any]], row: int) -> set[str]:
    """What row ``row`` of a RoundBatch met, from the simulator's own outputs (:func:`_sim_columns`)."""
    from thirtyone.sim import ENDS
    from thirtyone.sim import LOSS_NAMES

    found = {ENDS[int(columns["end"][row])]}
    nact = int(columns["nact"][row])
    if found == {"knock"} and int(columns["turns"][row]) == nact:
        found.add("first_knock")  # a knock on the round's first turn ends after exactly one turn each
    if columns["reshuffles"][row]:
        found.add("reshuffle")
    if columns["new_widows"][row]:
        found.add("new_widow")
    if columns["saved"][row]:
        found.add("saved")
    if columns["eliminated"][row]:
        found.add("eliminated")
    for code in columns["rule"][row]:
        if code:
            found |= _kind_features(LOSS_NAMES[int(code)])
    return found


_KIND_TAGS = {
    "knocker_alone_lowest": "R6.5 scat",
    "lowest_knocker_saved": "R6.5 saved",
    "knocker_among_lowest": "R6.5 widow",
    "knocker_not_highest": "R6.5 risky",
}


def _kind_features(kind: str) -> set[str]:
    """A loss kind's rule, and its tag for the knock penalties' special cases."""
    found = {LOSS_RULES[kind]}  # type: ignore[index]
    if kind in _KIND_TAGS:
        found.add(_KIND_TAGS[kind])
    return found


def _engine_features(played: EngineRound) -> set[str]:
    """What an engine round met, from its result and log."""
    result = played.result
    found = {result.end}
    if result.end == "knock" and isinstance(played.first_action, Knock):
        found.add("first_knock")
    if played.reshuffles:
        found.add("reshuffle")
    if played.new_widows:
        found.add("new_widow")
    if result.saved_by_r2_6:
        found.add("saved")
    if result.eliminated:
        found.add("eliminated")
    for loss in result.losses:
        found |= _kind_features(loss.kind)
    return found


@pytest.mark.parametrize(("name", "preset", "overrides", "players", "policies", "lives", "needs"), SITUATIONS)
def test_situations_match_engine(
    name: str,
    preset: str,
    overrides: dict[str, object],
    players: int,
    policies: tuple[str, ...],
    lives: tuple[int, ...] | None,
    needs: set[str],
) -> None:
    """The simulator plays 20,000 rounds; the engine replays up to 12 of them for each situation
    needed (found by the simulator's outputs) and 150 others, and must agree on every one of them
    and meet every situation itself."""
    rules = Rules.preset(preset, **overrides)
    rng = random.Random(name)
    active = [seat for seat in range(players) if lives is None or lives[seat] > 0]
    dealers = [rng.choice(active) for _ in range(20_000)]
    seed = rng.getrandbits(64)
    batch = play_rounds(rules, players, dealers=dealers, policy=list(policies), seed=seed, lives=lives, rounds=20_000)
    wanted: dict[str, list[int]] = {need: [] for need in needs}
    columns = _sim_columns(batch)
    for row in range(len(batch)):
        for feature in _sim_features(columns, row) & needs:
            if len(wanted[feature]) < 12:
                wanted[feature].append(row)
    rows = sorted({row for found in wanted.values() for row in found} | set(rng.sample(range(20_000), 150)))
    seen: set[str] = set()
    for played in check_rounds(rules, players, policies, seed, dealers, lives, rows=rows):
        seen |= _engine_features(played)
    assert needs <= seen, f"{name}: never met {needs - seen}"


# ---------------------------------------------------------------------------- random setups (hypothesis)


OVERRIDES = {
    "draw": [
        {},
        {"three_of_a_kind": "30"},
        {"three_of_a_kind": "30.5", "three_aces": True},
        {"straight_flush": True},
        {"knock_penalty": "namu_risky"},
        {"knock_penalty": "widow", "grace_life": False},
        {"knock_penalty": "plain", "knock_from_round": 2},
        {"min_knock_value": 21},
        {"throw_down": True},
        {"stock_exhausted": "showdown"},
        {"max_turns": 12, "lives": 1},
        {"deck": 32},
    ],
    "widow": [
        {},
        {"all_pass": "new_widow"},
        {"exchange": "any"},
        {"dealer_hand": True},
        {"knock_penalty": "scat", "three_of_a_kind": "30"},
        {"knock_penalty": "namu", "straight_flush": True},
        {"deck": 52, "three_aces": True},
        {"max_turns": 9, "min_knock_value": 18},
    ],
}


@st.composite
def setups(draw: st.DrawFn) -> tuple[Rules, int, list[str], int, list[int], tuple[int, ...] | None]:
    preset = draw(st.sampled_from(list(PRESETS)))
    mode = PRESETS[preset].mode
    rules = Rules.preset(preset, **draw(st.sampled_from(OVERRIDES[mode])))
    players = draw(st.integers(2, most_players(rules)))
    policies = draw(st.lists(st.sampled_from(POLICIES), min_size=players, max_size=players))
    seed = draw(st.integers(0, 2**64 - 1))
    lives = None
    if draw(st.booleans()):
        lives = tuple(draw(st.lists(st.integers(0, 3), min_size=players, max_size=players)))
        if sum(1 for left in lives if left > 0) < 2:
            lives = None
    active = [seat for seat in range(players) if lives is None or lives[seat] > 0]
    dealers = draw(st.lists(st.sampled_from(active), min_size=12, max_size=12))
    return rules, players, policies, seed, dealers, lives


@FAST
@given(setups())
def test_random_setups_match_engine(
    setup: tuple[Rules, int, list[str], int, list[int], tuple[int, ...] | None],
) -> None:
    rules, players, policies, seed, dealers, lives = setup
    check_rounds(rules, players, policies, seed, dealers, lives)


@st.composite
def rigged_deals(draw: st.DrawFn) -> tuple[Rules, int, int, list[int], list[str]]:
    """Deck orders that deal 31s (and three aces in Schwimmen) to chosen seats: blitzes on the deal,
    several at once, three aces beating a 31 (R5.2, R5.5)."""
    preset = draw(st.sampled_from(list(PRESETS)))
    rules = Rules.preset(preset)
    players = draw(st.integers(2, 5))
    dealer = draw(st.integers(0, players - 1))
    winners = draw(st.lists(st.integers(0, players - 1), min_size=1, max_size=3, unique=True))
    suits = draw(st.permutations("cdhs"))
    hands = {}
    for seat, suit in zip(winners, suits, strict=False):
        hands[seat] = f"A{suit} K{suit} Q{suit}"
    if rules.three_aces and draw(st.booleans()):
        aces = draw(st.sampled_from([s for s in range(players) if s not in winners] or [winners[0]]))
        hands = {seat: hand for seat, hand in hands.items() if seat != aces}
        taken = {hand.split()[0][1] for hand in hands.values()}
        free = [suit for suit in "cdhs" if suit not in taken]
        if len(free) >= 3:
            hands[aces] = " ".join(f"A{suit}" for suit in free[:3])
            for seat in list(hands):
                if seat != aces:
                    suit = hands[seat].split()[0][1]
                    hands[seat] = f"J{suit} K{suit} Q{suit}" if suit in free[:3] else hands[seat]
    deck = deck_order(rules, players, dealer, hands)
    policies = draw(st.lists(st.sampled_from(POLICIES), min_size=players, max_size=players))
    return rules, players, dealer, [int(card) for card in deck], policies


@FAST
@given(rigged_deals(), st.integers(0, 2**64 - 1))
def test_dealt_blitzes_match_engine(deal: tuple[Rules, int, int, list[int], list[str]], seed: int) -> None:
    rules, players, dealer, deck, policies = deal
    (played,) = check_rounds(rules, players, policies, seed, [dealer], None, [deck])
    assert played.result.end in ("dealt_blitz", "blitz", "knock", "all_pass", "throw_down")


def test_three_aces_beat_a_dealt_31() -> None:
    """R5.5: three aces dealt with a 31 in the same deal; both dealt 31s of a tie are saved (R5.2)."""
    rules = Rules.preset("schwimmen")
    deals = [
        (3, 0, {0: "Ac Ad Ah", 2: "Ks Qs As"}),
        (4, 1, {3: "As Ac Ad", 1: "Kh Qh Ah"}),
        (2, 1, {0: "As Qs Ks", 1: "Ah Kh Qh"}),
    ]
    for players, dealer, hands in deals:
        deck = [int(card) for card in deck_order(rules, players, dealer, hands)]
        (played,) = check_rounds(rules, players, ["basic"] * players, 7, [dealer], None, [deck])
        result = played.result
        assert result.end == "dealt_blitz"
        assert set(result.blitz) == ({3} if players == 4 else {0} if players == 3 else {0, 1})
        rules_hit = {loss.seat: loss.rule for loss in result.losses}
        if players == 3:
            assert rules_hit == {1: "R5.2", 2: "R5.5"}
        elif players == 4:
            assert rules_hit == {0: "R5.2", 1: "R5.5", 2: "R5.2"}
        else:
            assert rules_hit == {}


def test_r5_1_heuristic_takes_a_pile_card_that_makes_31_rather_than_knock() -> None:
    """2♥ Q♣ A♣ with 10♣ on the pile, seat 1 first to play: the kernels' heuristic takes the
    card and shows 31, as the engine's does (both used to knock past it, issue 41)."""
    rules = Rules.preset("scat")
    for players in (2, 3, 4):
        deck = [int(card) for card in deck_order(rules, players, 0, {1: "2h Qc Ac"}, upcard="Tc")]
        (played,) = check_rounds(rules, players, ["heuristic"] * players, 5, [0], None, [deck])
        assert (played.result.end, played.result.blitz) == ("blitz", (1,))


def test_r5_1_heuristic_takes_a_widow_card_that_makes_31_rather_than_knock() -> None:
    """A♣ K♣ 9♣ with Q♣ in the widow the others passed on: the kernels' heuristic exchanges for the
    31, as the engine's does (both used to knock, issue 41)."""
    rules = Rules.preset("widow")
    for players in (2, 3):
        hands = {0: "Ac Kc 9c", 1: "8h 7h 2d", 2: "Ts 8s 3h"} if players == 3 else {0: "Ac Kc 9c", 1: "8h 7h 2d"}
        deck = [int(card) for card in deck_order(rules, players, 0, hands, widow="Qc 9d 7s")]
        (played,) = check_rounds(rules, players, ["heuristic"] * players, 5, [0], None, [deck])
        assert (played.result.end, played.result.blitz) == ("blitz", (0,))


@FAST
@given(st.permutations(list(range(52))), st.integers(2, 6), st.sampled_from(POLICIES), st.integers(0, 2**64 - 1))
def test_any_permutation_matches_engine(deck: list[int], players: int, policy: str, seed: int) -> None:
    check_rounds(Rules.preset("scat"), players, [policy] * players, seed, [seed % players], None, [deck])


# ---------------------------------------------------------------------------- whole games


@st.composite
def game_setups(draw: st.DrawFn) -> tuple[Rules, list[str], list[int]]:
    preset = draw(st.sampled_from(list(PRESETS)))
    mode = PRESETS[preset].mode
    rules = Rules.preset(preset, **draw(st.sampled_from(OVERRIDES[mode])))
    if rules.lives > 2:
        rules = rules.replace(lives=draw(st.integers(1, 3)))
    players = draw(st.integers(2, min(6, most_players(rules))))
    policies = draw(st.lists(st.sampled_from(POLICIES), min_size=players, max_size=players))
    seeds = draw(st.lists(st.integers(0, 2**64 - 1), min_size=3, max_size=3))
    return rules, policies, seeds


@FAST
@given(game_setups())
def test_whole_games_match_engine(setup: tuple[Rules, list[str], list[int]]) -> None:
    rules, policies, seeds = setup
    batch = play_games(rules, len(policies), policies, seeds)
    for row, seed in enumerate(seeds):
        assert sim_game(batch, row) == engine_game(rules, policies, seed), f"{rules.describe()} {policies} {seed}"


def test_games_of_every_preset_match_engine() -> None:
    rng = random.Random(5)
    places: Counter[int] = Counter()
    for preset in PRESETS:
        for players in (2, 4):
            policies = [rng.choice(POLICIES) for _ in range(players)]
            seeds = [rng.getrandbits(64) for _ in range(12)]
            batch = play_games(Rules.preset(preset), players, policies, seeds)
            for row, seed in enumerate(seeds):
                expected = engine_game(Rules.preset(preset), policies, seed)
                assert sim_game(batch, row) == expected, f"{preset} {policies} {seed}"
                places.update(expected["places"])  # type: ignore[arg-type]
    assert places[1] == 4 * 2 * 12  # one winner a game


# ---------------------------------------------------------------------------- rollouts from positions


def _positions(rules: Rules, rng: random.Random, count: int) -> list[tuple[object, object]]:
    rows = []
    while len(rows) < count:
        players = rng.randrange(2, min(6, most_players(rules)) + 1)
        game = Game(rules, players, seed=rng.getrandbits(32))
        for _ in range(0 if rng.random() < 0.15 else rng.randrange(1, 40)):  # some at the deal
            if game.is_over:
                break
            legal = game.legal_actions()
            knock = Knock() in legal and rng.random() < 0.2  # positions during final turns too
            game.apply(Knock() if knock else legal[rng.randrange(len(legal))])
        if game.is_over:
            continue
        position = game.position()
        rows.extend((position, action) for action in game.legal_actions())
    return rows


@pytest.mark.parametrize(
    ("rules", "phases"),
    [
        (Rules.preset("scat"), {"turn", "discard"}),
        (Rules.preset("widow", exchange="any"), {"turn"}),
        (Rules.preset("namu", throw_down=True), {"look", "turn", "discard"}),
        (Rules.preset("schwimmen"), {"dealer_choice", "turn"}),
    ],
    ids=["scat", "widow-any", "namu-throw-down", "schwimmen"],
)
def test_rollouts_match_engine(rules: Rules, phases: set[str]) -> None:
    """Positions taken from engine games at random moments (any phase, before or after a knock),
    every legal first action, then the round played out by both; rows of one world share chance."""
    rng = random.Random(rules.describe())
    by_players: dict[int, list[tuple[object, object]]] = {}
    seen: set[str] = set()
    knocked = 0
    for position, action in _positions(rules, rng, 150):
        by_players.setdefault(position.players, []).append((position, action))  # type: ignore[attr-defined]
        seen.add(position.phase.value)  # type: ignore[attr-defined]
        knocked += position.knocker is not None  # type: ignore[attr-defined]
    assert phases <= seen
    assert knocked > 0
    for players, rows in by_players.items():
        positions = [position for position, _ in rows]
        actions = [action for _, action in rows]
        worlds = [row // 3 for row in range(len(rows))]
        policy = ["heuristic"] * players if players % 2 else [POLICIES[(2 + seat) % 3] for seat in range(players)]
        batch = rollout(positions, actions, seed=99, policy=policy, worlds=worlds)  # type: ignore[arg-type]
        for row, (position, action) in enumerate(rows):
            expected = engine_rollout(position, action, policy, round_key(99, worlds[row]))  # type: ignore[arg-type]
            assert sim_summary(batch, row) == expected.summary(players), f"row {row}: {action} in {position}"


# ---------------------------------------------------------------------------- the copied constants


def test_heuristic_tables_are_the_bots() -> None:
    """The heuristic's constants the simulator copies (it never imports the bots) are the bots'."""
    for preset in PRESETS:
        for overrides in ({}, {"deck": 32}, {"knock_penalty": "namu_risky"}, {"knock_penalty": "namu"}):
            rules = Rules.preset(preset, **overrides)
            feed = params.float_params(rules)
            blind = params.heuristic_blind(rules)
            for active in range(2, 10):
                style = heuristic.style_for(rules, active)
                assert feed[params.F_FEED2 + active] == 2 * style.feed_cost
                assert all((value < blind[active]) == (value < 2 * style.blind_widow) for value in range(67))
            for players in (2, 5, 9):
                bars = params.heuristic_bars(rules, players)
                for active in range(2, players + 1):
                    for turn in range(0, 12 * active, 1 + active // 2):
                        for offset in range(players):
                            for remaining in (1, 2, 3, 4):
                                low = remaining <= KNOCK_PENALTIES[rules.knock_penalty].most
                                expected = heuristic.knock_bar(rules, turn, active, offset, remaining)
                                assert bars[min(turn // active, 9), active, offset, int(low)] == expected
    assert [int(bar) for bar in params.basic_bars()] == [knock_threshold(turn) for turn in range(10)]


# ---------------------------------------------------------------------------- one policy, every decision


def kernel_heuristic(game: Game) -> Action:
    """The compiled heuristic's move (``kernels._heuristic``) for the seat to move in ``game``,
    from the kernels' own state of the game's position."""
    position = game.position()
    prepared = api._prepared(position.rules, position.players, "heuristic")
    work = prepared.work()
    kernels._load(work, api.positions_to_states([position]), 0, position.players)
    code = kernels._heuristic(prepared.const, prepared.floats, prepared.table, work)
    (action,) = [action for action in game.legal_actions() if api.action_code(position, action) == code]
    return action


ONE_POLICY_RULES = [
    ("scat", {}),
    ("scat", {"deck": 32, "knock_penalty": "plain"}),
    ("scat", {"throw_down": True, "three_of_a_kind": "30", "lives": 2}),
    ("namu", {"knock_penalty": "namu_risky", "straight_flush": True}),
    ("namu", {"min_knock_value": 21, "stock_exhausted": "showdown"}),
    ("widow", {}),
    ("widow", {"exchange": "any", "all_pass": "new_widow"}),
    ("widow", {"dealer_hand": True, "knock_from_round": 2}),
    ("schwimmen", {}),
]


@pytest.mark.parametrize(("preset", "overrides"), ONE_POLICY_RULES)
def test_the_bot_the_rollouts_and_the_kernel_play_the_one_heuristic_policy(
    preset: str, overrides: dict[str, object]
) -> None:
    """Seeded games of 2-6 players; at every decision the heuristic is asked four ways. The bot's
    move (``HeuristicBot.choose`` on the view) is the policy's on the view's situation;
    ``rollout_action``'s and the kernel's are the policy's on the game's situation; the two
    situations are equal but for ``opponents_known``, which only the bot reads (before knocking),
    and without it the bot's situation gives the rollouts' move. The games go on with the bot's,
    the rollouts' or a random move (and knocks out of turn), so that they meet every phase, final
    turns, seats put out and the bot's reading of the opponents."""
    rules = Rules.preset(preset, **overrides)
    rng = random.Random(f"one policy: {rules.describe()}")
    met: Counter[str] = Counter()
    for _ in range(24):
        players = rng.randrange(2, min(6, most_players(rules)) + 1)
        game = Game(rules, players, seed=rng.getrandbits(32))
        bots = [HeuristicBot(rng.getrandbits(32)) for _ in range(players)]
        while not game.is_over:
            seat = game.current_seat
            assert seat is not None
            view = game.view(seat)
            legal = game.legal_actions()
            mine = Situation.from_view(view, view.legal_actions)
            its = Situation.from_game(game, seat, legal)
            bot = bots[seat].choose(view, view.legal_actions)
            rolled = rollout_action(game, seat, legal)
            assert bot == heuristic_action(mine)
            assert rolled == heuristic_action(its) == kernel_heuristic(game), f"{its}"
            assert mine._replace(opponents_known=None, legal=()) == its._replace(legal=()), f"{mine} / {its}"
            assert heuristic_action(mine._replace(opponents_known=None)) == rolled
            met[game.phase.value] += 1
            met["the bot read the opponents"] += bot != rolled
            met["knock"] += rolled == Knock()
            choice = rng.random()
            if Knock() in legal and choice < 0.04:
                action = Knock()
            elif choice < 0.45:
                action = bot
            elif choice < 0.9:
                action = rolled
            else:
                action = legal[rng.randrange(len(legal))]
            game.apply(action)
    phases = {"turn", "discard"} if rules.mode == "draw" else {"turn"}
    if rules.throw_down:
        phases.add("look")
    if rules.dealer_hand:
        phases.add("dealer_choice")
    assert phases <= set(met), f"never met {phases - set(met)}"
    assert met["knock"] > 0
    assert sum(met.values()) > 1000


def test_the_bot_reads_the_opponents_where_the_rollouts_do_not() -> None:
    """Where they differ at all, the bot and the rollouts differ by the bot's reading of what the
    opponents are known to hold before it knocks: over many decisions that happens, and only on a
    knock (one plays it, the other does not)."""
    rng = random.Random(3)
    differ = 0
    for number in range(40):
        game = Game(Rules.preset("scat" if number % 2 else "widow"), 2 + number % 3, seed=number)
        bot = HeuristicBot(number)
        while not game.is_over:
            seat = game.current_seat
            assert seat is not None
            view = game.view(seat)
            legal = game.legal_actions()
            mine, rolled = bot.choose(view, view.legal_actions), rollout_action(game, seat, legal)
            if mine != rolled:
                differ += 1
                assert Knock() in (mine, rolled)
            game.apply(mine if rng.random() < 0.5 else rolled)
    assert differ > 0


# ---------------------------------------------------------------------------- the kernels' disk cache


def _dispatchers(module: Any) -> dict[str, Any]:
    """The kernels compiled in ``module``: its numba dispatchers defined there."""
    return {
        name: value
        for name, value in vars(module).items()
        if getattr(getattr(value, "py_func", None), "__module__", None) == module.__name__
    }


def test_every_kernel_is_cached_on_every_source_the_kernels_are_compiled_from() -> None:
    """numba's own cache trusts a kernel's entry while the kernel's file is unchanged: the step
    kernels of sim/steps.py kept the compiled ``_heuristic`` of kernels.py from before b499836 (the
    widow's 31 taken rather than knocked past), and the vector env's heuristic seats played the old
    policy (test_agents_vector's widow and schwimmen seats failed only where that cache was)."""
    from thirtyone.sim import steps

    compiled = {**_dispatchers(kernels), **{f"steps.{k}": v for k, v in _dispatchers(steps).items()}}
    assert {"_heuristic", "steps._policy_code", "steps.step_kernel", "play_games_kernel"} <= set(compiled)
    for name, dispatcher in compiled.items():
        assert isinstance(dispatcher._cache, kernels._SourcesCache), name


def test_a_change_to_kernels_py_misses_the_step_kernels_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    from thirtyone.sim import steps

    cache = steps._policy_code._cache  # calls kernels._heuristic, compiled into it
    codegen = steps._policy_code.targetctx.codegen()
    before = cache._index_key((), codegen)
    assert before[-1] == kernels._sources_digest()
    monkeypatch.setattr(kernels, "_sources_digest", lambda: "kernels.py changed")
    assert cache._index_key((), codegen) != before


def test_the_cached_sources_are_every_module_the_kernels_import_from() -> None:
    """kernels._SOURCES names sim/kernels.py, sim/steps.py and every module of the package they take
    names from (each constant they read is compiled into them), and action_ids, which the action
    codes are made from."""
    import ast
    from pathlib import Path

    package = Path(kernels.__file__).resolve().parent.parent
    needed = {"sim/kernels.py", "sim/steps.py", "action_ids.py"}
    for source in ("sim/kernels.py", "sim/steps.py"):
        for node in ast.walk(ast.parse((package / source).read_text(encoding="utf-8"))):
            module = (node.module or "") if isinstance(node, ast.ImportFrom) else ""
            if module.startswith("thirtyone."):
                needed.add(str(Path(*module.split(".")[1:]).with_suffix(".py")))
    assert needed == set(kernels._SOURCES)
    assert all((package / name).is_file() for name in kernels._SOURCES)
