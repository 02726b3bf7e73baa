"""Provably fair shuffles: deals no one can choose, committed to before anyone sends a seed.

When a table is created the server draws a secret key for a salt chain
(:class:`~thirtyone.fairness.SaltChain`, :data:`CHAIN_LENGTH` rounds) and publishes its
commitment at once, before any seed is seen. Each person sends a client seed (with the join, or
``{"type": "seed"}`` once seated) before the first deal; when the game starts the seeds are fixed.
Round ``r``'s deck order is :func:`thirtyone.fairness.deal_deck` of the chain's ``r``-th salt and
every seat's seed (bots give none: the committed salt covers them), so neither the server nor any
player can choose it; a reshuffle (R4.3) takes the order :func:`thirtyone.record.salted_reshuffle`
gives, fixed by the same salt. Each round's salt is revealed when the round ends and checks
against the commitment on its own (``link^r(salt) = commitment``); the game record keeps the
commitment, the seeds and every salt, and ``thirtyone verify RECORD`` checks them offline.

A table of an older server (no chain) goes on as it began: each deal shuffled by the server's
:class:`~thirtyone.server.randomness.Randomness` with a fresh salt and committed to alone (:func:`new_deal`,
:func:`thirtyone.record.deal_commitment`).

:class:`CommittedChance` is the engine's :class:`~thirtyone.chance.Chance` for a table: it replays
the stored deals, and makes and keeps aside (``take_new()``) each new one, which the table stores
with the action that led to it before anything is sent.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from thirtyone.cards import Card
from thirtyone.errors import ThirtyOneRuntimeError
from thirtyone.fairness import SaltChain, deal_deck
from thirtyone.record import deal_commitment, salted_reshuffle
from thirtyone.server.randomness import Randomness

__all__ = [
    "CHAIN_LENGTH",
    "CHAIN_SCHEME",
    "DEAL_SCHEME",
    "Deal",
    "new_deal",
    "new_chain",
    "CommittedChance",
    "ChainUsedUpError",
]

CHAIN_LENGTH = 2048
"""Rounds a table's salt chain can deal. No real game comes near (9 players of 20 lives lose at
most 189 lives, one a round or more); a game that does is closed, its record kept."""
CHAIN_SCHEME = "thirtyone-chain/1"
"""The fairness scheme of a table with a salt chain and client seeds (``scheme`` in the messages)."""
DEAL_SCHEME = "thirtyone-deal/1"
"""The scheme of an older table: each deal committed to alone."""


class ChainUsedUpError(ThirtyOneRuntimeError):
    """The table's salt chain has no salt for the next round (:data:`CHAIN_LENGTH` rounds dealt)."""


@dataclass(frozen=True)
class Deal:
    """One round's deal: ``round`` (from 1), ``deck`` (top card first), ``salt`` (64 hex digits),
    ``commitment`` (64 hex digits: the table's chain commitment, or for an older table this deal's
    own SHA-256) and ``seq``, the number of actions the table had stored when it was dealt (0 for
    the deals at the start)."""

    round: int
    deck: tuple[Card, ...]
    salt: str
    commitment: str
    seq: int = 0


def new_deal(deck: Sequence[Card], round: int, seq: int, randomness: Randomness) -> Deal:
    """An older table's new deal of ``deck``'s cards for round ``round``: shuffled by
    ``randomness``, with a fresh secret salt from it and its own commitment."""
    order = randomness.shuffle(deck)
    salt = randomness.salt()
    return Deal(round, tuple(order), salt, deal_commitment(salt, order), seq)


def new_chain(randomness: Randomness, length: int | None = None) -> SaltChain:
    """A new table's salt chain: a secret key of 32 random bytes from ``randomness``, ``length``
    rounds (default :data:`CHAIN_LENGTH`), its commitment worked out (2,048 hashes: call it on a
    thread)."""
    return SaltChain(randomness.chain_key(), CHAIN_LENGTH if length is None else length)


class CommittedChance:
    """The chance of a table's game (the :class:`~thirtyone.chance.Chance` protocol): the stored
    first dealer and deals; new deals from the table's salt ``chain`` and the seats' ``seeds``
    (``None`` or ``""`` for a seat without one), or with no chain drawn by :func:`new_deal`;
    reshuffles from each round's salt.

    ``seq`` is the number of actions stored so far (set by the table before each action), written
    into new deals. New deals wait in :meth:`take_new` until the table has stored them.

    Raises (from ``deal_order``):
        ChainUsedUpError: when the chain has no salt for the round.
    """

    def __init__(
        self,
        first_dealer: int,
        deals: Mapping[int, Deal],
        seq: int = 0,
        chain: SaltChain | None = None,
        seeds: Sequence[str | None] = (),
        randomness: Randomness | None = None,
    ) -> None:
        self._first_dealer = first_dealer
        self.deals: dict[int, Deal] = dict(deals)
        self.seq = seq
        self.chain = chain
        self.seeds = tuple(seed or None for seed in seeds)
        self._new: list[Deal] = []
        self._randomness = randomness or Randomness()

    def __deepcopy__(self, memo: dict[int, object]) -> CommittedChance:
        twin = CommittedChance(self._first_dealer, self.deals, self.seq, self.chain, self.seeds, self._randomness)
        twin._new = list(self._new)
        return twin

    def first_dealer(self, players: int) -> int:
        return self._first_dealer

    def deal_order(self, deck: Sequence[Card], round: int) -> list[Card]:
        deal = self.deals.get(round)
        if deal is None:
            deal = self._new_deal(deck, round)
            self.deals[round] = deal
            self._new.append(deal)
        return list(deal.deck)

    def _new_deal(self, deck: Sequence[Card], round: int) -> Deal:
        chain = self.chain
        if chain is None:
            return new_deal(deck, round, self.seq, self._randomness)
        if round > chain.length:
            raise ChainUsedUpError(
                f"round {round}: the table's salt chain deals {chain.length} rounds, and they are all dealt"
            )
        salt = chain.salt(round)
        return Deal(round, tuple(deal_deck(salt, round, self.seeds, len(deck))), salt, chain.commitment, self.seq)

    def reshuffle_order(self, cards: Sequence[Card], round: int, number: int) -> list[Card]:
        return salted_reshuffle(self.deals[round].salt, cards, number)

    def take_new(self) -> list[Deal]:
        """The deals made since the last call, in order (and forget them)."""
        new, self._new = self._new, []
        return new

    def forget_new(self) -> None:
        """Drop the deals made since the last :meth:`take_new` (they were not stored)."""
        for deal in self._new:
            self.deals.pop(deal.round, None)
        self._new = []
