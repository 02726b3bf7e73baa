"""The engine side of the cross-checks: the same deals, chance and choices as :mod:`thirtyone.sim`,
played by :class:`thirtyone.engine.Game` with the real bots (tests/test_sim_crosscheck.py compares
them)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from thirtyone import Card
from thirtyone import Game
from thirtyone import Rules
from thirtyone import full_deck
from thirtyone.actions import Action
from thirtyone.actions import Knock
from thirtyone.bots.basic import BasicBot
from thirtyone.bots.heuristic import rollout_action
from thirtyone.chance import Chance
from thirtyone.chance import ChanceStep
from thirtyone.events import Acted
from thirtyone.events import NewWidow
from thirtyone.events import RoundEnded
from thirtyone.events import RoundResult
from thirtyone.events import RoundStarted
from thirtyone.position import Position
from thirtyone.sim.codes import LOSS_NAMES
from thirtyone.sim.rng import TAG_DEAL
from thirtyone.sim.rng import TAG_POLICY
from thirtyone.sim.rng import RoundChance
from thirtyone.sim.rng import counter_shuffle
from thirtyone.sim.rng import derive
from thirtyone.sim.rng import random_index
from thirtyone.sim.rng import round_key

_BASIC = BasicBot(0)


def seeded_deck(rules: Rules, seed: int, row: int) -> list[Card]:
    """The deck order ``play_rounds(..., rounds=n, seed=seed)`` deals row ``row``."""
    return counter_shuffle(full_deck(rules.deck), derive(round_key(seed, row), TAG_DEAL))


def choose(game: Game, policy: str, policy_key: int) -> Action:
    """The move of ``policy`` for the seat to move: the real bots, or the counter-based random pick."""
    seat = game.current_seat
    assert seat is not None
    legal = game.legal_actions()
    if policy == "basic":
        return _BASIC.choose(game.view(seat), legal)
    if policy == "heuristic":
        return rollout_action(game, seat, legal)
    assert policy == "random"
    return legal[random_index(policy_key, len(game.round_logs[-1].actions), len(legal))]


@dataclass(frozen=True)
class EngineRound:
    """One round as the engine played it, in the simulator's terms."""

    result: RoundResult
    actions: int
    reshuffles: int
    new_widows: int
    knocked: int
    first_action: Action | None

    def summary(self, players: int) -> dict[str, object]:
        """Everything the simulator reports about the round, comparable with :func:`sim_summary`."""
        result = self.result
        losses = {loss.seat: (loss.lives, loss.kind) for loss in result.losses}
        return {
            "end": result.end,
            "knocker": -1 if result.knocker is None else result.knocker,
            "knocked": self.knocked,
            "turns": result.turns,
            "losses": losses,
            "remaining": tuple(result.remaining),
            "eliminated": tuple(sorted(result.eliminated)),
            "saved": result.saved_by_r2_6,
            "blitz": tuple(sorted(result.blitz)),
            "values": tuple(-1 if value is None else int(2 * value) for value in result.values),
            "reshuffles": self.reshuffles,
            "new_widows": self.new_widows,
            "actions": self.actions,
        }


def sim_summary(batch: object, row: int) -> dict[str, object]:
    """Row ``row`` of a :class:`thirtyone.sim.RoundBatch` in the terms of :meth:`EngineRound.summary`."""
    from thirtyone.sim import ENDS

    b = batch  # type: ignore[assignment]
    players = b.players  # type: ignore[attr-defined]
    losses = {}
    for seat in range(players):
        lives = int(b.lost[row, seat])  # type: ignore[attr-defined]
        if lives:
            losses[seat] = (lives, LOSS_NAMES[int(b.rule[row, seat])])  # type: ignore[attr-defined]
    return {
        "end": ENDS[int(b.end[row])],  # type: ignore[attr-defined]
        "knocker": int(b.knocker[row]),  # type: ignore[attr-defined]
        "knocked": int(b.knocked[row]),  # type: ignore[attr-defined]
        "turns": int(b.turns[row]),  # type: ignore[attr-defined]
        "losses": losses,
        "remaining": tuple(int(x) for x in b.remaining[row]),  # type: ignore[attr-defined]
        "eliminated": tuple(s for s in range(players) if b.eliminated[row, s]),  # type: ignore[attr-defined]
        "saved": bool(b.saved[row]),  # type: ignore[attr-defined]
        "blitz": tuple(s for s in range(players) if b.blitz[row, s]),  # type: ignore[attr-defined]
        "values": tuple(int(x) for x in b.values[row]),  # type: ignore[attr-defined]
        "reshuffles": int(b.reshuffles[row]),  # type: ignore[attr-defined]
        "new_widows": int(b.new_widows[row]),  # type: ignore[attr-defined]
        "actions": int(b.actions[row]),  # type: ignore[attr-defined]
    }


def _round_of(game: Game, policies: Sequence[str], key: int) -> EngineRound:
    log = game.round_logs[0]
    policy_key = derive(key, TAG_POLICY)
    while log.result is None:
        seat = game.current_seat
        assert seat is not None
        game.apply(choose(game, policies[seat], policy_key))
    new_widows = 0
    knocked = -1
    for event in game.events:
        if isinstance(event, NewWidow):
            new_widows += 1
        elif isinstance(event, Acted) and isinstance(event.action, Knock):
            knocked = event.seat
        elif isinstance(event, RoundEnded):
            break
    first = log.actions[0][1] if log.actions else None
    return EngineRound(log.result, len(log.actions), len(log.reshuffles), new_widows, knocked, first)


def engine_round(
    rules: Rules,
    players: int,
    deck: Sequence[Card],
    dealer: int,
    policies: Sequence[str],
    key: int,
    remaining: Sequence[int] | None = None,
) -> EngineRound:
    """Deal ``deck`` and play the round through the engine: reshuffles and random choices from the
    round key ``key``. With ``remaining``, the seats start the round with those remaining losses
    (a game built as ``Game.__init__`` builds one, with other lives: the engine has no public way)."""
    chance: Chance = RoundChance(dealer, deck, key)
    if remaining is None:
        game = Game(rules, players, chance=chance)
    else:
        game = Game.__new__(Game)
        game._start_match(rules, players, chance)
        game._remaining = list(remaining)
        game._out = [left == 0 for left in remaining]
        game.dealer = dealer
        game._begin_round()  # as Game.__init__ does, with the dealer given: the first deal is due
        game._due(ChanceStep("deal", 1, cards=full_deck(rules.deck)))
        game._take_chance()
    return _round_of(game, policies, key)


def engine_rollout(position: Position, action: Action, policies: Sequence[str], key: int) -> EngineRound:
    """``Game.from_position(position, rounds=1)``, ``apply(action)``, then the round played out."""
    game = Game.from_position(
        position, chance=RoundChance(position.dealer, full_deck(position.rules.deck), key), rounds=1
    )
    game.apply(action)
    return _round_of(game, policies, key)


def engine_game(rules: Rules, policies: Sequence[str], seed: int) -> dict[str, object]:
    """A whole game through the engine as ``play_games`` deals it (``CounterChance(seed)``), summed
    as a row of a :class:`thirtyone.sim.GameBatch` (see :func:`sim_game`)."""
    from collections import Counter

    from thirtyone.sim.rng import CounterChance
    from thirtyone.sim.rng import game_round_key

    players = len(policies)
    game = Game(rules, players, chance=CounterChance(seed))
    while not game.is_over:
        key = game_round_key(seed, game.round)
        seat = game.current_seat
        assert seat is not None
        game.apply(choose(game, policies[seat], derive(key, TAG_POLICY)))
    knocks = [0] * players
    knocks_lost = [0] * players
    lost = [0] * players
    by_rule: Counter[str] = Counter()
    ends: Counter[str] = Counter()
    turns = blitzes = 0
    for event in game.events:
        if isinstance(event, Acted) and isinstance(event.action, Knock):
            knocks[event.seat] += 1
        elif isinstance(event, RoundEnded):
            result = event.result
            ends[result.end] += 1
            turns += result.turns
            blitzes += result.end in ("blitz", "dealt_blitz")
            for loss in result.losses:
                lost[loss.seat] += loss.lives
                by_rule[loss.kind] += loss.lives
                if loss.seat == result.knocker and result.end in ("knock", "blitz"):  # R6.5, R5.3
                    knocks_lost[loss.seat] += 1
    places = [0] * players
    for standing in game.standings:
        places[standing.seat] = standing.place
    return {
        "winner": game.winner,
        "rounds": game.round,
        "places": places,
        "knocks": knocks,
        "knocks_lost": knocks_lost,
        "lost": lost,
        "by_rule": dict(by_rule),
        "ends": dict(ends),
        "turns": turns,
        "blitzes": blitzes,
        "actions": sum(len(log.actions) for log in game.round_logs),
        "reshuffles": sum(len(log.reshuffles) for log in game.round_logs),
        "rounds_played": [
            sum(1 for event in game.events if isinstance(event, RoundStarted) and seat in event.seats)
            for seat in range(players)
        ],
    }


def sim_game(batch: object, row: int) -> dict[str, object]:
    """Row ``row`` of a :class:`thirtyone.sim.GameBatch` in the terms of :func:`engine_game`."""
    from thirtyone.sim import ENDS

    b = batch  # type: ignore[assignment]
    return {
        "winner": int(b.winner[row]),  # type: ignore[attr-defined]
        "rounds": int(b.rounds[row]),  # type: ignore[attr-defined]
        "places": [int(x) for x in b.places[row]],  # type: ignore[attr-defined]
        "knocks": [int(x) for x in b.knocks[row]],  # type: ignore[attr-defined]
        "knocks_lost": [int(x) for x in b.knocks_lost[row]],  # type: ignore[attr-defined]
        "lost": [int(x) for x in b.lost[row]],  # type: ignore[attr-defined]
        "by_rule": {
            LOSS_NAMES[code]: int(lives)
            for code, lives in enumerate(b.lives_by_rule[row])  # type: ignore[attr-defined]
            if code and lives
        },
        "ends": {ENDS[code]: int(count) for code, count in enumerate(b.ends[row]) if count},  # type: ignore[attr-defined]
        "turns": int(b.turns[row]),  # type: ignore[attr-defined]
        "blitzes": int(b.blitzes[row]),  # type: ignore[attr-defined]
        "actions": int(b.actions[row]),  # type: ignore[attr-defined]
        "reshuffles": int(b.reshuffles[row]),  # type: ignore[attr-defined]
        "rounds_played": [int(x) for x in b.rounds_played[row]],  # type: ignore[attr-defined]
    }
