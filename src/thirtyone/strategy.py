"""What the bots know about playing well, as numbers (STRATEGY.md, measured with this engine):
how hands grow with the turns, and the knock thresholds and tuning of the ``basic`` and
``heuristic`` policies. One place for them, read by the bots and by the compiled simulator
(:mod:`thirtyone.sim`), which plays the same policies and must never drift from them.

>>> from thirtyone.rules import Rules
>>> basic_knock_bar(0), basic_knock_bar(5)
(40, 54)
>>> style_for(Rules.preset("scat"), players=2).feed_cost
6.0
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import replace

from thirtyone.rules import Rules
from thirtyone.settlement import KNOCK_PENALTIES

__all__ = [
    "BASIC_GROWTH",
    "Style",
    "style_for",
    "growth",
    "knock_penalty_lives",
    "heuristic_knock_bar",
    "basic_knock_bar",
]

BASIC_GROWTH = (13.1, 17.1, 19.9, 22.0, 23.5, 24.6, 25.6, 26.3, 26.9, 27.4)
"""Mean hand value at a player's t-th turn with greedy play (STRATEGY.md), in points: ``basic``'s curve."""

# Mean hand value at a player's t-th turn with greedy play, measured with this engine's presets.
_GROWTH_52_DRAW = (13.1, 16.9, 19.5, 21.8, 23.4, 24.6, 25.5, 26.2, 26.8, 27.3)
_GROWTH_52_WIDOW = (13.1, 17.6, 21.0, 22.8, 24.1, 25.1, 25.9, 26.5, 27.0, 27.4)
_GROWTH_32 = (16.2, 23.3, 26.0, 27.4, 28.0, 28.4, 28.9, 29.0, 29.2, 29.4)


def basic_knock_bar(own_turn: int, margin: float = 4.0, floor: float = 20.0, cap: float = 27.0) -> int:
    """Half points ``basic`` needs to knock on its ``own_turn``-th turn (0 = first): the growth
    curve plus ``margin``, between ``floor`` and ``cap`` points."""
    expected = BASIC_GROWTH[min(own_turn, len(BASIC_GROWTH) - 1)]
    return round(2 * min(max(expected + margin, floor), cap))


@dataclass(frozen=True, slots=True)
class Style:
    """Tuning of the heuristic for one ruleset (points, unless said otherwise).

    ``margin`` is how far above the others' expected value after their last turn a hand must be
    to knock; ``floor`` the least value it ever knocks with; ``seat_step`` what each later seat
    adds; ``crowd_step`` what each player beyond two takes off; ``last_life`` what it adds when one
    more loss could put it out; ``feed_cost`` how much value it gives up rather than feed the next
    player; ``blind_widow`` the hand value under which it takes an unseen widow or second hand.
    """

    margin: float
    floor: float
    seat_step: float = 0.3
    crowd_step: float = 0.5
    last_life: float = 1.0
    feed_cost: float = 1.0
    blind_widow: float = 13.0


# Tuned with duplicate matches against ``basic`` (benchmarks/bench_strength.py).
_STYLES = {
    "scat": Style(margin=0.0, floor=20.0),
    "widow": Style(margin=3.0, floor=22.0),
    "namu": Style(margin=0.5, floor=19.0),
    "namu_risky": Style(margin=3.0, floor=22.0),
    "plain": Style(margin=0.0, floor=19.0),
}


def style_for(rules: Rules, players: int = 4) -> Style:
    """The heuristic's style for a ruleset and the number of players still in: by the knock
    penalty, with a 32-card deck's levels, and heads-up a higher price on feeding the one opponent."""
    style = _STYLES[rules.knock_penalty]
    if rules.deck == 32:
        style = replace(style, floor=max(style.floor, 24.0), blind_widow=16.0)
    if players == 2:
        style = replace(style, feed_cost=6.0)
    return style


def growth(rules: Rules) -> tuple[float, ...]:
    """The mean hand value at a player's t-th turn for this deck and mode (t = 0 … 9)."""
    if rules.deck == 32:
        return _GROWTH_32
    return _GROWTH_52_DRAW if rules.mode == "draw" else _GROWTH_52_WIDOW


def knock_penalty_lives(rules: Rules) -> int:
    """The most lives a knocker can lose at the showdown (R6.5): 2 or 1."""
    return KNOCK_PENALTIES[rules.knock_penalty].most


def heuristic_knock_bar(
    rules: Rules,
    turn: int,
    players: int,
    seat_offset: int,
    remaining: int,
    strong_opponents: int = 0,
) -> int:
    """Half points the heuristic's hand needs to knock.

    ``turn`` counts the round's completed turns, ``players`` the seats still in, ``seat_offset``
    this seat's place after the dealer (1 = first to play), ``remaining`` its remaining losses
    (R2.4), ``strong_opponents`` how many opponents are known to hold two cards of one suit.
    """
    style = style_for(rules, players)
    curve = growth(rules)
    own_turn = turn // players
    expected = curve[min(own_turn + 1, len(curve) - 1)]
    bar = expected + style.margin + style.seat_step * (seat_offset - 1) - style.crowd_step * (players - 2)
    if remaining <= knock_penalty_lives(rules):
        bar += style.last_life
    bar += 0.5 * strong_opponents
    return round(2 * max(bar, style.floor))
