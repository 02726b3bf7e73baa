"""``basic``: a sound, simple player.

Draw mode: takes the discard pile's top card when it improves the hand, otherwise draws from the
stock; discards to keep the best value. Widow mode: makes the exchange that improves the hand
most, otherwise passes; takes the face-down widow in the opening only with a poor hand. Knocks
when its hand beats the usual value at this point of the round (STRATEGY.md's growth curve) by
a margin, and never below 20 points, so never on a first turn with a weak hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from thirtyone.actions import DISCARDS
from thirtyone.actions import PILE
from thirtyone.actions import STOCK
from thirtyone.actions import Action
from thirtyone.actions import Draw
from thirtyone.actions import Exchange
from thirtyone.actions import ExchangeAll
from thirtyone.actions import Keep
from thirtyone.actions import Knock
from thirtyone.actions import Look
from thirtyone.actions import Pass
from thirtyone.actions import TakeWidow
from thirtyone.bots.base import SeededBot
from thirtyone.bots.hands import best_discard
from thirtyone.bots.hands import best_with
from thirtyone.bots.hands import half_points
from thirtyone.bots.hands import half_value
from thirtyone.bots.hands import hand_index
from thirtyone.cards import Card
from thirtyone.strategy import BASIC_GROWTH
from thirtyone.strategy import basic_knock_bar
from thirtyone.views import Phase
from thirtyone.views import PlayerView

__all__ = ["BasicBot", "knock_threshold", "after_exchange"]

_DRAW_STOCK, _DRAW_PILE, _KNOCK, _PASS = Draw(STOCK), Draw(PILE), Knock(), Pass()
_LOOK, _KEEP, _TAKE_WIDOW, _EXCHANGE_ALL = Look(), Keep(), TakeWidow(), ExchangeAll()

# globals: under Python 3.11 each read of Phase.LOOK costs four times as much (EnumType.__getattr__)
_PHASE_LOOK, _PHASE_DEALER_CHOICE, _PHASE_DISCARD = Phase.LOOK, Phase.DEALER_CHOICE, Phase.DISCARD
knock_threshold = basic_knock_bar
"""Half points ``basic`` needs to knock on its t-th turn (:func:`thirtyone.strategy.basic_knock_bar`)."""
_KNOCK_BARS = tuple(knock_threshold(turn) for turn in range(len(BASIC_GROWTH)))  # the curve ends there
assert list(_KNOCK_BARS) == sorted(_KNOCK_BARS), "choose skips a hand below the first bar"
_LAST_BAR = len(_KNOCK_BARS) - 1


class BasicBot(SeededBot):
    """Greedy improvement and a growth-curve knock threshold; see the module docstring."""

    name = "basic"

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        phase = view.phase
        if phase is _PHASE_LOOK:
            return _LOOK
        hand = view.hand
        assert hand is not None, "a bot is asked to move only once it has looked"
        rules = view.rules
        if phase is _PHASE_DISCARD:
            return DISCARDS[best_discard(hand, rules, keep=view.taken_from_pile)[1]]
        table = half_points(rules)
        value = table[hand_index(hand)]
        if phase is _PHASE_DEALER_CHOICE:
            return _KEEP if value >= 32 else _TAKE_WIDOW
        # the bars only rise: below the first one (most hands) the seats need not be counted
        if value >= _KNOCK_BARS[0] and _KNOCK in legal and value >= _knock_bar(view):
            return _KNOCK
        if rules.mode == "draw":
            top = view.discard_top
            if _DRAW_PILE in legal and top is not None and best_with(hand, top, table) > value:
                return _DRAW_PILE
            return _DRAW_STOCK if _DRAW_STOCK in legal else _DRAW_PILE
        if view.widow is None:  # R7.2: the face-down widow, worth a blind 13 on average
            return _EXCHANGE_ALL if value < 26 else _PASS
        best: tuple[int, Action] = (value, _PASS)
        for action in legal:
            if isinstance(action, (Exchange, ExchangeAll)):
                after = half_value(after_exchange(hand, view.widow, action), rules)
                if after > best[0]:
                    best = (after, action)
        return best[1]


def _knock_bar(view: PlayerView) -> int:
    """The half points ``basic`` knocks with now: the bar of the seat's turn in the round."""
    return _KNOCK_BARS[min(view.turn // len(view.active_seats), _LAST_BAR)]


def after_exchange(hand: Sequence[Card], widow: Sequence[Card], action: Exchange | ExchangeAll) -> tuple[Card, ...]:
    """The seat's three cards after ``action`` with ``widow`` on the table (R7.1)."""
    if isinstance(action, ExchangeAll):
        return tuple(widow)
    return tuple(card for card in hand if card not in action.give) + action.take
