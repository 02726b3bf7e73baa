"""Provably fair shuffles: every deal is drawn from :class:`secrets.SystemRandom`, committed to
before it is dealt, and revealed after its round.

A deal's commitment is :func:`thirtyone.record.deal_commitment` (SHA-256 over
``"thirtyone-deal/1 SALT DECK"``) of a fresh secret salt (32 random bytes, 64 hex digits) and the
deck order. The server stores deck, salt and commitment, publishes the commitment before anyone
sees a card of the deal, and reveals deck and salt when the round ends; a reshuffle (R4.3) takes
the order :func:`thirtyone.record.salted_reshuffle` gives, fixed by the committed salt. The game
record keeps all three, and ``thirtyone verify RECORD`` checks them offline.

:class:`CommittedChance` is the engine's :class:`~thirtyone.chance.Chance` for a table: it replays
the stored deals, and draws, commits to and keeps aside (``take_new()``) each new one, which the
table stores with the action that led to it before anything is sent.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from thirtyone.cards import Card
from thirtyone.record import deal_commitment, salted_reshuffle

__all__ = ["Deal", "new_deal", "CommittedChance"]


@dataclass(frozen=True)
class Deal:
    """One round's deal: ``round`` (from 1), ``deck`` (top card first), ``salt`` (64 hex digits),
    ``commitment`` (SHA-256, 64 hex digits) and ``seq``, the number of actions the table had
    stored when it was dealt (0 for the deals at the start)."""

    round: int
    deck: tuple[Card, ...]
    salt: str
    commitment: str
    seq: int = 0


def new_deal(deck: Sequence[Card], round: int, seq: int, rng: random.Random | None = None) -> Deal:
    """A new deal of ``deck``'s cards for round ``round``: shuffled by ``rng`` (default
    :class:`secrets.SystemRandom`), with a fresh secret salt and its commitment."""
    order = list(deck)
    (rng or secrets.SystemRandom()).shuffle(order)
    salt = secrets.token_hex(32)
    return Deal(round, tuple(order), salt, deal_commitment(salt, order), seq)


class CommittedChance:
    """The chance of a table's game (the :class:`~thirtyone.chance.Chance` protocol): the stored
    first dealer and deals, new deals drawn with :func:`new_deal`, reshuffles from each round's salt.

    ``seq`` is the number of actions stored so far (set by the table before each action), written
    into new deals. New deals wait in :meth:`take_new` until the table has stored them.
    """

    def __init__(self, first_dealer: int, deals: Mapping[int, Deal], seq: int = 0) -> None:
        self._first_dealer = first_dealer
        self.deals: dict[int, Deal] = dict(deals)
        self.seq = seq
        self._new: list[Deal] = []
        self._rng = secrets.SystemRandom()

    def __deepcopy__(self, memo: dict[int, object]) -> CommittedChance:
        twin = CommittedChance(self._first_dealer, self.deals, self.seq)
        twin._new = list(self._new)
        return twin

    def first_dealer(self, players: int) -> int:
        return self._first_dealer

    def deal_order(self, deck: Sequence[Card], round: int) -> list[Card]:
        deal = self.deals.get(round)
        if deal is None:
            deal = new_deal(deck, round, self.seq, self._rng)
            self.deals[round] = deal
            self._new.append(deal)
        return list(deal.deck)

    def reshuffle_order(self, cards: Sequence[Card], round: int, number: int) -> list[Card]:
        return salted_reshuffle(self.deals[round].salt, cards, number)

    def take_new(self) -> list[Deal]:
        """The deals drawn since the last call, in order (and forget them)."""
        new, self._new = self._new, []
        return new

    def forget_new(self) -> None:
        """Drop the deals drawn since the last :meth:`take_new` (they were not stored)."""
        for deal in self._new:
            self.deals.pop(deal.round, None)
        self._new = []
