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
:class:`~thirtyone.server.randomness.Randomness` with a fresh salt and committed to alone
(:func:`new_deal`, :func:`thirtyone.record.deal_commitment`).

The table's game takes its chance steps explicitly (``Game(..., explicit_chance=True)``): for a
deal the table gives :func:`deal_for`'s deal (or the stored one), for a reshuffle
:func:`reshuffle_order`'s order; nothing is set on a chance object before an action.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from thirtyone.cards import Card
from thirtyone.chance import ChanceStep
from thirtyone.errors import ThirtyOneRuntimeError
from thirtyone.fairness import SaltChain
from thirtyone.fairness import deal_deck
from thirtyone.record import deal_commitment
from thirtyone.record import salted_reshuffle
from thirtyone.server.randomness import Randomness

__all__ = [
    "CHAIN_LENGTH",
    "CHAIN_SCHEME",
    "DEAL_SCHEME",
    "Deal",
    "new_deal",
    "new_chain",
    "deal_for",
    "reshuffle_order",
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


def deal_for(
    step: ChanceStep, seq: int, chain: SaltChain | None, seeds: Sequence[str | None], randomness: Randomness
) -> Deal:
    """The deal of a deal step (``step.kind == "deal"``: round ``step.round``'s deck, of
    ``step.cards``) after ``seq`` stored actions: from ``chain``'s salt of the round and the seats'
    ``seeds`` (``None`` or ``""`` for a seat without one); with no chain (an older table) a new
    deal shuffled by ``randomness`` (:func:`new_deal`).

    Raises:
        ChainUsedUpError: when the chain has no salt for the round.
    """
    if chain is None:
        return new_deal(step.cards, step.round, seq, randomness)
    if step.round > chain.length:
        raise ChainUsedUpError(
            f"round {step.round}: the table's salt chain deals {chain.length} rounds, and they are all dealt"
        )
    salt = chain.salt(step.round)
    deck = deal_deck(salt, step.round, [seed or None for seed in seeds], len(step.cards))
    return Deal(step.round, tuple(deck), salt, chain.commitment, seq)


def reshuffle_order(step: ChanceStep, deal: Deal) -> list[Card]:
    """The new stock of a reshuffle step (R4.3, ``step.kind == "reshuffle"``) of the round dealt
    as ``deal``: :func:`~thirtyone.record.salted_reshuffle` of its salt, top card first."""
    return salted_reshuffle(deal.salt, step.cards, step.number)
