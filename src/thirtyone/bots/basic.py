"""``basic``: a sound, simple player.

Draw mode: takes the discard pile's top card when it improves the hand, otherwise draws from the
stock; discards to keep the best value. Widow mode: makes the exchange that improves the hand
most, otherwise passes; takes the face-down widow in the opening only with a poor hand. Knocks
when its hand beats the usual value at this point of the round (STRATEGY.md's growth curve) by
a margin, and never below 20 points, so never on a first turn with a weak hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from thirtyone.actions import (
    PILE,
    STOCK,
    Action,
    Discard,
    Draw,
    Exchange,
    ExchangeAll,
    Keep,
    Knock,
    Look,
    Pass,
    TakeWidow,
)
from thirtyone.bots.base import SeededBot
from thirtyone.bots.hands import best_after_taking, best_discard, half_value
from thirtyone.cards import Card
from thirtyone.strategy import basic_knock_bar
from thirtyone.views import Phase, PlayerView

__all__ = ["BasicBot", "knock_threshold"]

_DRAW_STOCK, _DRAW_PILE = Draw(STOCK), Draw(PILE)

knock_threshold = basic_knock_bar
"""Half points ``basic`` needs to knock on its t-th turn (:func:`thirtyone.strategy.basic_knock_bar`)."""


class BasicBot(SeededBot):
    """Greedy improvement and a growth-curve knock threshold; see the module docstring."""

    name = "basic"

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        phase = view.phase
        if phase is Phase.LOOK:
            return Look()
        hand = view.hand
        assert hand is not None, "a bot is asked to move only once it has looked"
        rules = view.rules
        if phase is Phase.DISCARD:
            return Discard(best_discard(hand, rules, keep=view.taken_from_pile)[1])
        value = half_value(hand, rules)
        if phase is Phase.DEALER_CHOICE:
            return Keep() if value >= 32 else TakeWidow()
        if Knock() in legal and value >= knock_threshold(view.turn // len(view.active_seats)):
            return Knock()
        if rules.mode == "draw":
            top = view.discard_top
            if _DRAW_PILE in legal and top is not None and best_after_taking(hand, top, rules) > value:
                return _DRAW_PILE
            return _DRAW_STOCK if _DRAW_STOCK in legal else _DRAW_PILE
        if view.widow is None:  # R7.2: the face-down widow, worth a blind 13 on average
            return ExchangeAll() if value < 26 else Pass()
        best: tuple[int, Action] = (value, Pass())
        for action in legal:
            if isinstance(action, (Exchange, ExchangeAll)):
                after = _after_exchange(hand, view.widow, action)
                if half_value(after, rules) > best[0]:
                    best = (half_value(after, rules), action)
        return best[1]


def _after_exchange(hand: Sequence[Card], widow: Sequence[Card], action: Exchange | ExchangeAll) -> tuple[Card, ...]:
    if isinstance(action, ExchangeAll):
        return tuple(widow)
    return tuple(card for card in hand if card not in action.give) + action.take
