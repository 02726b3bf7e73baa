"""The figures of docs/strategy.md that ``thirtyone analyze`` does not give: what a choice is worth,
measured by playing the same position both ways.

    python examples/strategy_figures.py knock --preset scat --players 4 --positions 30000 --seed 1
    python examples/strategy_figures.py last-turn --preset scat --players 4 --positions 8000 --seed 1
    python examples/strategy_figures.py last-discard --preset scat --players 2 --positions 1000 --seed 1
    python examples/strategy_figures.py discard --preset scat --players 4 --positions 12000 --seed 1
    python examples/strategy_figures.py stock-draw --preset scat

Every simulated figure is the heuristic's policy measured (docs/bots.md): positions of its play in
the first rounds of games (every seat at full lives, on the engine, dealt by
:class:`~thirtyone.sim.CounterChance` from the seed), each played to the round's end after each of
two moves by the compiled simulator (:func:`thirtyone.sim.rollout`), the heuristic in every seat,
in :data:`~thirtyone.arena.odds_play.WORLDS` shuffled stock orders (the same stock for both moves).
What a move saves is the lives the seat loses this round after the other move less after it
(positive: the move is better), and its *value* gain is the same in the review's value (the others'
average loss minus the seat's, docs/RULES.md R6.5 and R5.1 decide who loses). Intervals are 95%
normal intervals over the positions.

- ``knock``: at every turn before anyone knocked where the seat may knock (R6.1, R6.3), knocking
  now against the heuristic's move had it not knocked (it plays on, and may knock later): by the
  seat's own turn of the round and its hand's value. What *waiting* costs, not which knocks lost.
- ``last-turn``: at a last turn after a knock (R6.2), the discard pile's top card against a stock
  draw, by the points the pile card adds and whether it makes 31 (R5.3).
- ``last-discard``: discarding on a last turn with four cards that keep a 31: the best hand below
  31 against the 31, by that hand's value (heads-up a 31 costs the knocker one life where being
  beaten costs the knocker two, R6.5).
- ``discard``: at a discard before anyone knocked, the discard that keeps the most points (ties:
  the card of fewest points, :func:`~thirtyone.bots.hands.best_discard`) against each other
  discard, by the points the other gives up.
- ``stock-draw`` (exact): a dealt hand's value, and its value after one card drawn from the other
  cards of the deck (the best three of four kept), over every hand the deck deals.

``--json`` prints every figure with its interval. A run of the sizes above took half a minute to two
minutes on one core of a shared machine (``nice`` it; docs/strategy.md names each run's time), but
the last-discard one: its positions are rare (a 31 in four cards on a last turn), and 1,000 of them
took six minutes.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations
from itertools import islice
from typing import Any

import numpy as np
import numpy.typing as npt

from thirtyone.actions import PILE
from thirtyone.actions import STOCK
from thirtyone.actions import Action
from thirtyone.actions import Discard
from thirtyone.actions import Draw
from thirtyone.actions import Knock
from thirtyone.arena.odds_measures import Mean
from thirtyone.arena.odds_play import WORLDS
from thirtyone.arena.odds_play import play_both
from thirtyone.bots.hands import best_discard
from thirtyone.bots.hands import best_with
from thirtyone.bots.hands import half_value
from thirtyone.bots.hands import stock_draw_value
from thirtyone.bots.heuristic import rollout_action
from thirtyone.cards import full_deck
from thirtyone.engine import Game
from thirtyone.position import Position
from thirtyone.rules import Rules
from thirtyone.scoring import BLITZ_HALF
from thirtyone.scoring import half_points
from thirtyone.views import Phase

FloatArray = npt.NDArray[np.float64]
Key = tuple[int, ...]

LAST_TURN = 5
"""The knock table's last column: the seat's 5th turn of the round or later."""
BINS = (14, 16, 18, 20, 22, 24, 26, 28, 30)
"""The knock table's rows: hands from each of these values (points) to the next (below 14 a knock
is not measured: it cost over a life in scat at four players, a trial run of 2,000 positions)."""
MIN_CELL = 30
"""Fewest positions a cell of the knock table needs to be printed."""

_CHUNK = 256  # pairs played out in one call of the simulator
_EMPTY_GAMES = 2000  # games in a row without a position after which a search stops (the rules never offer it)


@dataclass(frozen=True)
class Pair:
    """One position played both ways: ``seat`` to move, ``move`` (the move measured) and ``other``
    (the move it is measured against), and the ``key`` it is counted under."""

    position: Position
    seat: int
    move: Action
    other: Action
    key: Key


Pick = Callable[[Game, int, tuple[Action, ...], Action], Iterable[Pair]]
"""The pairs a position of the heuristic's play gives: ``(game, seat, legal, the heuristic's move)``."""


def pairs_of_play(rules: Rules, players: int, seed: int, pick: Pick) -> Iterator[Pair]:
    """The pairs ``pick`` finds in the first rounds of games of the heuristic, one game a seed drawn
    from ``seed``; stops after :data:`_EMPTY_GAMES` games in a row without one."""
    from thirtyone.sim import CounterChance

    seeds = random.Random(f"{seed}/positions")
    empty = 0
    while empty < _EMPTY_GAMES:
        game = Game(rules, players, chance=CounterChance(seeds.getrandbits(63)))
        log = game.round_logs[0]
        found = False
        while log.result is None:
            seat = game.current_seat
            assert seat is not None  # chance steps are the game's own
            legal = game.legal_actions()
            action = rollout_action(game, seat, legal)
            for pair in pick(game, seat, legal, action):
                found = True
                yield pair
            game.apply(action)
        empty = 0 if found else empty + 1


def play_out(pairs: list[Pair], seed: int) -> tuple[FloatArray, FloatArray]:
    """Each pair played out both ways in :data:`WORLDS` stock orders (:func:`odds_play.play_both
    <thirtyone.arena.odds_play.play_both>`): ``(saved, value)``, one mean a pair: the lives the seat
    loses after ``other`` less after ``move``, and the gain in value (the others' average loss minus
    the seat's) of ``move`` over ``other``."""
    lost = play_both([(pair.position, pair.move, pair.other) for pair in pairs], seed).astype(np.float64)
    seats = np.array([pair.seat for pair in pairs], dtype=np.int64)
    own = lost[np.arange(len(pairs)), :, :, seats]  # [pairs, WORLDS, 2]
    others = (lost.sum(axis=3) - own) / (lost.shape[3] - 1)
    value = (others - own).mean(axis=1)
    own = own.mean(axis=1)
    return own[:, 1] - own[:, 0], value[:, 0] - value[:, 1]


@dataclass
class Measured:
    """The pairs played out, by key: ``saved`` and ``value`` (:func:`play_out`), and ``took``
    (whether the heuristic itself played the move measured) as a mean of 0 and 1."""

    saved: dict[Key, Mean]
    value: dict[Key, Mean]
    pairs: int = 0
    seconds: float = 0.0

    def rows(self, names: tuple[str, ...]) -> list[dict[str, Any]]:
        """Plain data, one row a key (``names`` name its parts), with 95% intervals."""
        return [
            {
                **dict(zip(names, key, strict=True)),
                "lives_saved": self.saved[key].to_dict(),
                "value_gained": self.value[key].to_dict(),
            }
            for key in sorted(self.saved)
        ]


def measure(rules: Rules, players: int, positions: int, seed: int, pick: Pick) -> Measured:
    """Play ``positions`` pairs of ``pick`` out both ways (:func:`pairs_of_play`, :func:`play_out`)."""
    start = time.perf_counter()
    found = pairs_of_play(rules, players, seed, pick)
    rollout_seeds = random.Random(f"{seed}/rollouts")
    saved: dict[Key, Mean] = defaultdict(Mean)
    value: dict[Key, Mean] = defaultdict(Mean)
    done = 0
    while done < positions:
        chunk = list(islice(found, min(positions - done, _CHUNK)))
        if not chunk:
            break
        lives, gained = play_out(chunk, rollout_seeds.getrandbits(63))
        for pair, one, two in zip(chunk, lives, gained, strict=True):
            saved[pair.key] += Mean.of([one])
            value[pair.key] += Mean.of([two])
        done += len(chunk)
    return Measured(dict(saved), dict(value), done, time.perf_counter() - start)


# --- the positions of each figure --------------------------------------------------------------


def knock_pairs(game: Game, seat: int, legal: tuple[Action, ...], action: Action) -> Iterable[Pair]:
    """Knock now against the heuristic's move without the knock, at a turn before anyone knocked,
    with a hand of at least ``BINS[0]`` points; key ``(own turn from 1 to LAST_TURN, hand value in
    whole points)``."""
    if game.phase is not Phase.TURN or game.knocker is not None or Knock() not in legal:
        return
    value = half_value(game.hand(seat), game.rules) // 2
    if value < BINS[0]:
        return
    wait = rollout_action(game, seat, tuple(move for move in legal if move != Knock()))
    own_turn = min(game.turn // game.players + 1, LAST_TURN)
    yield Pair(game.position(), seat, Knock(), wait, (own_turn, value))


def last_turn_pairs(game: Game, seat: int, legal: tuple[Action, ...], action: Action) -> Iterable[Pair]:
    """The pile card against a stock draw on a last turn (draw mode); key ``(points the pile card
    adds, 1 when it makes 31)``."""
    if game.phase is not Phase.TURN or game.knocker is None or Draw(PILE) not in legal or Draw(STOCK) not in legal:
        return
    table = half_points(game.rules)
    hand = game.hand(seat)
    best = best_with(hand, game.discard_pile[-1], table)
    gain = (best - half_value(hand, game.rules)) // 2
    yield Pair(game.position(), seat, Draw(PILE), Draw(STOCK), (gain, int(best >= BLITZ_HALF)))


def last_discard_pairs(game: Game, seat: int, legal: tuple[Action, ...], action: Action) -> Iterable[Pair]:
    """On a last turn with four cards that keep a 31: the best discard that keeps less against the
    one that keeps the 31; key ``(points of the best hand below 31,)``."""
    if game.phase is not Phase.DISCARD or game.knocker is None:
        return
    kept = _discards(game, legal)
    blitz = [move for move, value in kept.items() if value >= BLITZ_HALF]
    below = {move: value for move, value in kept.items() if value < BLITZ_HALF}
    if blitz and below:
        move = max(below, key=lambda one: below[one])
        yield Pair(game.position(), seat, move, blitz[0], (below[move] // 2,))


def discard_pairs(game: Game, seat: int, legal: tuple[Action, ...], action: Action) -> Iterable[Pair]:
    """The discard that keeps the most points against each other discard, before anyone knocked;
    key ``(points the other gives up,)`` (0: the same value kept, a card of more points thrown)."""
    if game.phase is not Phase.DISCARD or game.knocker is not None:
        return
    hand = game.hand(seat)
    best, card = best_discard(hand, game.rules, game.taken_from_pile)
    for move, value in _discards(game, legal).items():
        if move != Discard(card):
            yield Pair(game.position(), seat, Discard(card), move, ((best - value) // 2,))


def _discards(game: Game, legal: tuple[Action, ...]) -> dict[Action, int]:
    """Each legal discard of the seat to move and the half points of the three cards it keeps."""
    hand = game.hand(game.current_seat or 0)
    return {
        move: half_value([card for card in hand if card != move.card], game.rules)
        for move in legal
        if isinstance(move, Discard)
    }


# --- exact ------------------------------------------------------------------------------------


def stock_draw(rules: Rules) -> dict[str, Any]:
    """Over every hand of three the deck deals: its mean value in points, the mean after one card
    drawn at random from the other cards of the deck (the best three of four kept:
    :func:`~thirtyone.bots.hands.stock_draw_value`), and the share of those draws that raise it.

    >>> figures = stock_draw(Rules.preset("scat"))
    >>> round(figures["before"], 2), round(figures["after"], 2), round(figures["improves"], 3)
    (13.09, 15.88, 0.478)
    """
    table = half_points(rules)
    deck = full_deck(rules.deck)
    hands = before = improved = draws = 0
    after = 0.0
    for hand in combinations(deck, 3):
        value = half_value(hand, rules)
        unseen = [card for card in deck if card not in hand]
        hands += 1
        before += value
        after += stock_draw_value(hand, unseen, table)
        improved += sum(1 for card in unseen if best_with(hand, card, table) > value)
        draws += len(unseen)
    return {
        "method": "exact",
        "hands": hands,
        "before": before / hands / 2,
        "after": after / hands / 2,
        "improves": improved / draws,
    }


# --- the command ------------------------------------------------------------------------------

FIGURES: dict[str, tuple[Pick, tuple[str, ...]]] = {
    "knock": (knock_pairs, ("turn", "value")),
    "last-turn": (last_turn_pairs, ("gain", "blitz")),
    "last-discard": (last_discard_pairs, ("value",)),
    "discard": (discard_pairs, ("given_up",)),
}


def _cell(mean: Mean) -> str:
    half = mean.half_width
    return f"{mean.mean:+.3f} ±{half:.3f} ({mean.count})" if mean.count > 1 else f"{mean.mean:+.3f} ({mean.count})"


def report(figure: str, measured: Measured, names: tuple[str, ...]) -> str:
    """The figures as text, one line a key: lives saved and value gained, each ±95% (positions);
    for ``knock`` the knock table after them (:func:`knock_table`)."""
    lines = [f"{'  '.join(names)}  lives saved  value gained"]
    for key in sorted(measured.saved):
        lines.append(f"{key}  {_cell(measured.saved[key])}  {_cell(measured.value[key])}")
    if figure == "knock":
        lines += ["", *knock_table(measured)]
    return "\n".join(lines)


def knock_bins(measured: Measured) -> dict[tuple[int, int], Mean]:
    """The lives a knock saves against waiting, by ``(own turn, the lowest value of its row of
    BINS)``."""
    cells: dict[tuple[int, int], Mean] = defaultdict(Mean)
    for (turn, value), mean in measured.saved.items():
        low = max(edge for edge in BINS if edge <= value)
        cells[turn, low] += mean
    return dict(cells)


def knock_from(measured: Measured) -> dict[int, int | None]:
    """By own turn: the least value (points, a row of BINS) whose knocks save lives against waiting
    on average, with no row above it where knocking surely costs (its whole 95% interval below 0);
    rows of fewer than MIN_CELL positions do not count (``None``: no such row)."""
    cells = knock_bins(measured)
    least: dict[int, int | None] = {}
    for turn in range(1, LAST_TURN + 1):
        rows = sorted(low for (one, low), mean in cells.items() if one == turn and mean.count >= MIN_CELL)
        least[turn] = next(
            (
                low
                for at, low in enumerate(rows)
                if cells[turn, low].mean > 0
                and all(cells[turn, above].mean + cells[turn, above].half_width >= 0 for above in rows[at + 1 :])
            ),
            None,
        )
    return least


def knock_table(measured: Measured) -> list[str]:
    """The knock table as Markdown: lives saved by knocking now rather than waiting, by hand (rows)
    and own turn (columns), ±95% and positions; then the least value to knock with by turn."""
    cells = knock_bins(measured)
    turns = [f"turn {turn}" for turn in range(1, LAST_TURN)] + [f"turn {LAST_TURN}+"]
    lines = [f"| hand | {' | '.join(turns)} |", "|---" * (LAST_TURN + 1) + "|"]
    for low, high in zip(BINS, [*BINS[1:], 34], strict=True):
        row = []
        for turn in range(1, LAST_TURN + 1):
            mean = cells.get((turn, low), Mean())
            row.append(f"{mean.mean:+.3f} ±{mean.half_width:.3f} ({mean.count})" if mean.count >= MIN_CELL else "")
        name = f"{low}-{high - 1}"
        lines.append(f"| {name} | {' | '.join(row)} |")
    least = knock_from(measured)
    lines.append("knock from: " + ", ".join(f"turn {turn}: {value}" for turn, value in least.items()))
    return lines


def arguments() -> argparse.ArgumentParser:
    """The command line: a figure, ``--preset``, ``--players``, ``--positions``, ``--seed``, ``--json``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("figure", choices=[*FIGURES, "stock-draw"])
    parser.add_argument("--preset", default="scat")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--positions", type=int, default=4000, help="pairs played out (default 4,000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="every figure with its 95%% interval, as JSON")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = arguments().parse_args(argv)
    rules = Rules.preset(args.preset)
    command = f"python examples/strategy_figures.py {args.figure} --preset {args.preset}"
    if args.figure == "stock-draw":
        data: dict[str, Any] = {"command": command, **stock_draw(rules)}
        print(json.dumps(data, indent=2) if args.json else data)
        return 0
    pick, names = FIGURES[args.figure]
    measured = measure(rules, args.players, args.positions, args.seed, pick)
    command += f" --players {args.players} --positions {args.positions} --seed {args.seed}"
    if args.json:
        data = {
            "command": command,
            "policy": "heuristic",
            "worlds": WORLDS,
            "pairs": measured.pairs,
            "seconds": round(measured.seconds, 1),
            "rows": measured.rows(names),
        }
        if args.figure == "knock":
            data["knock_from"] = knock_from(measured)
            data["table"] = [
                {"turn": turn, "from": low, **mean.to_dict()}
                for (turn, low), mean in sorted(knock_bins(measured).items())
            ]
        print(json.dumps(data, indent=2))
    else:
        print(f"{command}: {measured.pairs} positions, {measured.seconds:.0f} s")
        print(report(args.figure, measured, names))
    return 0


if __name__ == "__main__":
    sys.exit(main())
