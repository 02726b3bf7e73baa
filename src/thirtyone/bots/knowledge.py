"""What a player can know from a view: the discard pile's cards (R4.4: every discard and every
card taken from the pile is public), the cards set aside with old widows, the cards each opponent
is known to hold, and the cards not seen anywhere (in the stock or in hidden hands)."""

from __future__ import annotations

from dataclasses import dataclass

from thirtyone.cards import Card
from thirtyone.cards import full_deck
from thirtyone.judge.seen import RoundCards
from thirtyone.judge.seen import round_cards
from thirtyone.views import PlayerView

__all__ = ["Knowledge", "RoundCards", "round_cards"]


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
