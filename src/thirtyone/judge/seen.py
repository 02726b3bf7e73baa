"""The cards laid face up this round, as a player who watched the table remembers them (R4.4:
every discard and every card taken from the pile is public): read by the observation, the exact
last turn and the bots' knowledge. The standard library only, so that ``import thirtyone.bots``
loads no numpy."""

from __future__ import annotations

from typing import NamedTuple

from thirtyone.actions import PILE
from thirtyone.actions import Discard
from thirtyone.actions import Draw
from thirtyone.actions import Exchange
from thirtyone.actions import ExchangeAll
from thirtyone.actions import TakeWidow
from thirtyone.cards import Card
from thirtyone.events import Acted
from thirtyone.events import NewWidow
from thirtyone.events import Reshuffled
from thirtyone.events import RoundStarted
from thirtyone.views import PlayerView

__all__ = ["RoundCards", "round_cards"]


class RoundCards(NamedTuple):
    """The cards laid face up this round, as :func:`round_cards` reads them from a view's history."""

    pile: list[Card]
    """The discard pile, bottom first (draw mode)."""
    set_aside: list[Card]
    """The cards of the widows set aside (R7.3), in order."""
    given: list[list[Card]]
    """Per seat: the cards it discarded or gave to the widow (an exchange's), in order."""
    laid_down: list[list[Card]]
    """Per seat: the hand it laid face up (exchange all, take widow: the action's revealed cards)."""


def round_cards(view: PlayerView) -> RoundCards:
    """Every card laid face up this round, from ``view``'s round history (R4.4: every discard and
    every card taken from the pile is public), as a player who watched the table remembers them."""
    pile: list[Card] = []
    set_aside: list[Card] = []
    given: list[list[Card]] = [[] for _ in range(view.players)]
    laid_down: list[list[Card]] = [[] for _ in range(view.players)]
    for event in view.history:
        if isinstance(event, Acted):
            action = event.action
            if isinstance(action, Discard):
                pile.append(action.card)
                given[event.seat].append(action.card)
            elif isinstance(action, Draw):
                if action.source == PILE:
                    pile.pop()
            elif isinstance(action, Exchange):  # the cards given go face up into the widow
                given[event.seat].extend(action.give)
            elif isinstance(action, ExchangeAll | TakeWidow):
                laid_down[event.seat].extend(event.revealed)
        elif isinstance(event, RoundStarted):
            pile = [] if event.upcard is None else [event.upcard]
        elif isinstance(event, Reshuffled):
            pile = pile[-1:]
        elif isinstance(event, NewWidow):
            set_aside.extend(event.set_aside)
    return RoundCards(pile, set_aside, given, laid_down)
