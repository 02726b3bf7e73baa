"""``greedy``: an example bot of another package for ``thirtyone``.

It plays the move that leaves its hand worth the most right now: it takes the discard pile's card
when that improves its hand, discards to its best three, takes the best exchange in widow mode,
and knocks once its hand is worth ``knock_at`` points or more (27 unless the name says otherwise:
``greedy:29``). It sees only its :class:`~thirtyone.views.PlayerView`, as every bot does.
"""

from __future__ import annotations

from collections.abc import Sequence

from thirtyone import hand_value
from thirtyone.actions import Action
from thirtyone.actions import Discard
from thirtyone.actions import Draw
from thirtyone.actions import Exchange
from thirtyone.actions import ExchangeAll
from thirtyone.actions import Keep
from thirtyone.actions import Knock
from thirtyone.actions import Look
from thirtyone.actions import Pass
from thirtyone.actions import TakeWidow
from thirtyone.views import PlayerView

__all__ = ["GreedyBot", "make_bot"]


class GreedyBot:
    """Greedy play (see the module); ``knock_at`` in points."""

    name = "greedy"

    def __init__(self, knock_at: float = 27) -> None:
        self.knock_at = knock_at

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        if Look() in legal:
            return Look()
        if Keep() in legal:
            return Keep() if view.hand_value is not None and view.hand_value >= 20 else TakeWidow()
        hand = view.hand or ()
        if Knock() in legal and view.hand_value is not None and view.hand_value >= self.knock_at:
            return Knock()
        discards = [action for action in legal if isinstance(action, Discard)]
        if discards:
            return max(discards, key=lambda action: self._value([c for c in hand if c != action.card], view))
        if Draw("pile") in legal and view.discard_top is not None and len(hand) == 3:
            now = self._value(list(hand), view)
            best = max(self._value([*kept, view.discard_top], view) for kept in _pairs(hand))
            return Draw("pile") if best > now else Draw("stock")
        if Draw("stock") in legal:
            return Draw("stock")
        return max(
            (action for action in legal if isinstance(action, Exchange | ExchangeAll | Pass)),
            key=lambda action: self._after(action, view),
        )

    def _after(self, action: Action, view: PlayerView) -> float:
        hand = list(view.hand or ())
        widow = list(view.widow or ())
        if isinstance(action, Exchange):
            kept = [card for card in hand if card not in action.give] + list(action.take)
            return self._value(kept, view)
        if isinstance(action, ExchangeAll) and len(widow) == 3:
            return self._value(widow, view)
        return self._value(hand, view) + 0.01  # pass keeps the hand: prefer it on a tie

    @staticmethod
    def _value(cards: list, view: PlayerView) -> float:  # type: ignore[type-arg]
        return float(hand_value(cards, view.rules)) if len(cards) == 3 else 0.0


def _pairs(hand: Sequence) -> list[list]:  # type: ignore[type-arg]
    return [[card for k, card in enumerate(hand) if k != i] for i in range(len(hand))]


def make_bot(seed: int | None = None, argument: str | None = None) -> GreedyBot:
    """The factory thirtyone calls: ``greedy`` or ``greedy:29`` (knock at 29 points)."""
    if argument is None:
        return GreedyBot()
    try:
        return GreedyBot(float(argument))
    except ValueError:
        raise ValueError(f"greedy takes the points it knocks at, such as greedy:29, not {argument!r}") from None
