"""Verifying a record's provably fair shuffles: each round's salt and deck against the commitment
published before the game (or before the deal), and each reshuffle against its salt."""

from __future__ import annotations

from thirtyone.errors import CommitmentError
from thirtyone.errors import RecordError
from thirtyone.fairness import chain_link
from thirtyone.fairness import deal_commitment
from thirtyone.fairness import deal_deck
from thirtyone.fairness import salt_matches
from thirtyone.fairness import salted_reshuffle
from thirtyone.record.shapes import RecordBody

__all__ = ["check_commitments"]


def check_commitments(record: RecordBody) -> int:
    """:meth:`GameRecord.check_commitments <thirtyone.record.GameRecord.check_commitments>` (see
    there) of ``record``."""
    fairness = record.fairness
    for rnd in record.rounds:
        where = f"round {rnd.round}"
        if fairness is None and rnd.commitment is None:
            raise RecordError(
                f"{where}: no commitment: this round was not dealt with a published commitment, "
                "so its shuffle cannot be verified"
            )
        if rnd.salt is None:
            if rnd.result is not None:
                raise RecordError(f"{where}: the salt is missing, though the round ended and revealed it")
            raise RecordError(f"{where}: the salt is not revealed (the round was still being played)")
        if fairness is not None:
            if not salt_matches(fairness.commitment, rnd.salt, rnd.round):
                _check_chain_commitment(record)
                raise RecordError(
                    f"{where}: the salt {rnd.salt} is not round {rnd.round}'s salt of the chain committed to "
                    f"before the game ({fairness.commitment}): SHA-256 of 'thirtyone-chain/1 SALT' taken "
                    f"{rnd.round} time(s) does not give the commitment; the salt was changed"
                )
            dealt = deal_deck(rnd.salt, rnd.round, fairness.seeds, record.rules.deck)
            if list(rnd.deck) != dealt:
                at = next(i for i, (a, b) in enumerate(zip(rnd.deck, dealt, strict=True)) if a != b)
                raise RecordError(
                    f"{where}: the deck order is not the one the salt and the seats' seeds deal: card "
                    f"{at + 1} from the top is {rnd.deck[at]} in the record, {dealt[at]} dealt "
                    "(docs/record-format.md); the deck was changed"
                )
        else:
            computed = deal_commitment(rnd.salt, rnd.deck)
            if computed != rnd.commitment:
                raise CommitmentError(
                    f"{where}: the commitment does not match the deck order and the salt: the commitment, the "
                    "deck order or the salt was changed (one hash cannot tell which): "
                    f"{_hash_difference(rnd.commitment or '', computed)}",
                    recorded=rnd.commitment or "",
                    computed=computed,
                )
        for number, order in enumerate(rnd.reshuffles, 1):
            if list(order) != salted_reshuffle(rnd.salt, order, number):
                raise RecordError(
                    f"{where}: reshuffle {number} is not the order the round's salt gives (R4.3, docs/record-format.md)"
                )
    return len(record.rounds)


def _check_chain_commitment(record: RecordBody) -> None:
    """Raise :class:`CommitmentError` when every round's salt leads (``link`` applied
    ``round`` times) to one and the same other commitment and deals its round's recorded
    deck: the salts, seeds and decks agree, so the commitment in ``[fairness]`` was changed.
    Otherwise return (a salt was changed, as the caller says)."""
    fairness = record.fairness
    assert fairness is not None
    tops: set[str] = set()
    for rnd in record.rounds:
        if rnd.salt is None:
            return  # the caller's error (salts are checked for their shape on loading)
        tops.add(_chain_top(rnd.salt, rnd.round))
        if list(rnd.deck) != deal_deck(rnd.salt, rnd.round, fairness.seeds, record.rules.deck):
            return
    if len(tops) != 1:
        return
    computed = tops.pop()
    raise CommitmentError(
        f"the commitment in [fairness] is not the one the salts were committed to: every round's salt leads "
        f"to one other commitment and deals the recorded deck, so the commitment was changed: "
        f"{_hash_difference(fairness.commitment, computed)}",
        recorded=fairness.commitment,
        computed=computed,
    )


def _chain_top(salt: str, round: int) -> str:
    """What round ``round``'s ``salt`` commits to: ``link`` applied ``round`` times."""
    value = salt
    for _ in range(round):
        value = chain_link(value)
    return value


def _hash_difference(published: str, computed: str) -> str:
    """Two hashes in full, with where they first differ (a change at the end shows too).

    >>> _hash_difference("ab12", "ab32")
    'published ab12, computed ab32 (they first differ at hex digit 3 of 4: 1 against 3)'
    """
    where = next((index for index, (a, b) in enumerate(zip(published, computed, strict=False)) if a != b), None)
    if where is None:
        where, detail = (
            min(len(published), len(computed)),
            f"one is {len(published)} digits long, the other {len(computed)}",
        )
    else:
        detail = f"{published[where]} against {computed[where]}"
    length = max(len(published), len(computed))
    return (
        f"published {published}, computed {computed} (they first differ at hex digit {where + 1} of {length}: {detail})"
    )
