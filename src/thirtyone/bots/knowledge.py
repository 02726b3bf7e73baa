"""What a player can know from a view: the discard pile's cards (R4.4: every discard and every
card taken from the pile is public), the cards set aside with old widows, the cards each opponent
is known to hold, and the cards not seen anywhere (in the stock or in hidden hands)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from thirtyone.actions import PILE
from thirtyone.actions import Discard
from thirtyone.actions import Draw
from thirtyone.actions import Exchange
from thirtyone.actions import ExchangeAll
from thirtyone.actions import TakeWidow
from thirtyone.cards import Card
from thirtyone.cards import full_deck
from thirtyone.events import Acted
from thirtyone.events import NewWidow
from thirtyone.events import Reshuffled
from thirtyone.events import RoundStarted
from thirtyone.views import PlayerView

__all__ = ["Knowledge", "RoundCards", "round_cards"]


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


@dataclass(frozen=True, slots=True)
class Knowledge:
    """``pile`` is the discard pile, bottom first; ``set_aside`` the widows set aside (R7.3);
    ``known[seat]`` the cards seat ``seat`` is known to hold (for this seat: its own hand);
    ``unseen`` every card this seat has no sight of, in index order; ``discarded[seat]`` the cards
    that seat discarded or gave to the widow this round (a sign of suits it does not collect)."""

    pile: tuple[Card, ...]
    set_aside: tuple[Card, ...]
    known: tuple[tuple[Card, ...], ...]
    unseen: tuple[Card, ...]
    discarded: tuple[tuple[Card, ...], ...]

    @classmethod
    def from_view(cls, view: PlayerView) -> Knowledge:
        """Read everything public from ``view`` and its round history."""
        pile, set_aside, discarded, _ = round_cards(view)
        own = view.hand or ()
        known = tuple(own if status.seat == view.seat else status.known_cards for status in view.seats)
        seen = set(pile) | set(set_aside) | set(view.widow or ())
        for cards in known:
            seen.update(cards)
        unseen = tuple(card for card in full_deck(view.rules.deck) if card not in seen)
        return cls(tuple(pile), tuple(set_aside), known, unseen, tuple(tuple(cards) for cards in discarded))
