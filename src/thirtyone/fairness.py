"""Deals no one can choose: a server's committed salt chain and every seat's seed, mixed into the
deck order of each round (``thirtyone serve``'s provably fair shuffles; docs/record-format.md,
"Provably fair shuffles").

**The salts.** Before anyone has sent a seed, the server draws a secret key ``K`` (32 random bytes,
64 hex digits) and publishes the commitment ``C = link^N(K)``, where ``link(S)`` is the SHA-256,
as 64 lowercase hex digits, of the ASCII text ``"thirtyone-chain/1 S"`` (:func:`chain_link`). Round
``r`` (from 1) is dealt with the salt ``S_r = link^(N - r)(K)`` (:func:`chain_salt`), revealed when
the round ends. Anyone can check a revealed salt at once: ``link^r(S_r) = C``
(:func:`salt_matches`); and nobody can work out a later round's salt from the salts revealed so
far (that would invert SHA-256). So every round's salt was fixed by the commitment, before any seed
was seen.

**The seeds.** Each person at the table contributes a client seed of 16–64 random bytes
(:func:`parse_seed`: hex, or base64), fixed before the first deal; bots give none (the committed
salt covers them). The seeds of a deal are written in seat order, each as lowercase hex or ``-``
for a seat without one, separated by single spaces (:func:`seeds_text`).

**The deck.** Round ``r``'s deck order is the Fisher–Yates shuffle (Durstenfeld's: for ``i`` from
the last position down to 1, swap position ``i`` with a position ``j`` drawn uniformly from 0 to
``i``) of the deck in index order (:func:`thirtyone.cards.full_deck`: ``2c 2d 2h 2s 3c … As``),
drawing from a stream of 32-bit numbers: block ``b`` (0, 1, 2, …) of the stream is the
HMAC-SHA256 keyed with the salt's bytes of the ASCII text ``"thirtyone-deck/2 r SEEDS b"``, read as
eight big-endian 32-bit numbers. A number ``x`` draws ``j`` in ``0 … n - 1`` as ``x mod n`` unless
``x`` is at least the largest multiple of ``n`` not above 2^32 (then it is dropped and the next
number drawn: no bias). The round number is the nonce that makes each round's deck new, so a seed
serves a whole game (:func:`deal_deck`). Neither the server (its salts were fixed by the
commitment before it saw any seed) nor any player (who cannot know the secret salt) can choose the
deck; given the revealed salt and the seeds, everyone can recompute it.

Test vectors (also in docs/record-format.md): a chain of 3 rounds from the key of 32 zero bytes,
and round 1 dealt with one seat's seed and a bot:

>>> chain = SaltChain("00" * 32, 3)
>>> chain.commitment
'3771772a65f0f114797f23b5609f32debbe47a6ca0d113d8c302537f8976d6f7'
>>> chain.salt(1)
'917a45a6a5121a5ca78061e6faecaba79cba30264ac0d9b2bd5501fdd332bee8'
>>> chain_link(chain.salt(2)) == chain.salt(1), chain_link(chain.salt(1)) == chain.commitment
(True, True)
>>> salt_matches(chain.commitment, chain.salt(1), 1), salt_matches(chain.commitment, chain.salt(2), 1)
(True, False)
>>> from thirtyone.cards import format_cards
>>> format_cards(deal_deck(chain.salt(1), 1, ["00112233445566778899aabbccddeeff", None])[:12])
'9d Td Qc 5s 9h 7h Ks 5h Ts 5d 4h Jh'
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Sequence
from typing import Final

from thirtyone.cards import Card
from thirtyone.cards import format_cards
from thirtyone.cards import full_deck
from thirtyone.checks import shown
from thirtyone.errors import RecordError
from thirtyone.errors import SeedError

__all__ = [
    "check_salt",
    "deal_commitment",
    "salted_reshuffle",
    "DEAL_COMMITMENT_PREFIX",
    "RESHUFFLE_PREFIX",
    "CHAIN_PREFIX",
    "DECK_PREFIX",
    "MIN_SEED_BYTES",
    "MAX_SEED_BYTES",
    "chain_link",
    "chain_salt",
    "salt_matches",
    "parse_seed",
    "seeds_text",
    "deck_numbers",
    "deal_deck",
    "SaltChain",
]

CHAIN_PREFIX: Final = "thirtyone-chain/1"
"""The first word of the text each link of the salt chain hashes (:func:`chain_link`)."""
DECK_PREFIX: Final = "thirtyone-deck/2"
"""The first word of the text each block of a deck's number stream signs (:func:`deal_deck`)."""
MIN_SEED_BYTES: Final = 16
"""The shortest client seed, bytes (128 bits)."""
MAX_SEED_BYTES: Final = 64
"""The longest client seed, bytes (512 bits)."""

_HEX: Final = re.compile(r"[0-9a-fA-F]+")
_BASE64: Final = re.compile(r"[A-Za-z0-9+/_-]+={0,2}")
_SALT: Final = re.compile(r"[0-9a-f]{64}")


def chain_link(salt: str) -> str:
    """One link of the salt chain: the SHA-256, as 64 lowercase hex digits, of the ASCII text
    ``"thirtyone-chain/1 SALT"``."""
    return hashlib.sha256(f"{CHAIN_PREFIX} {salt}".encode("ascii")).hexdigest()


def chain_salt(key: str, length: int, round: int) -> str:
    """Round ``round``'s salt of the chain of ``length`` links from ``key``: ``link`` applied
    ``length - round`` times (round 0 is the commitment itself, round ``length`` the key).

    Raises:
        SeedError: for a round outside 0 to ``length``.
    """
    if not 0 <= round <= length:
        raise SeedError(f"round {round} is outside the salt chain of {length} rounds")
    salt = key
    for _ in range(length - round):
        salt = chain_link(salt)
    return salt


def salt_matches(commitment: str, salt: str, round: int) -> bool:
    """Whether ``salt`` is round ``round``'s salt of the chain committed to by ``commitment``:
    ``link`` applied ``round`` times to ``salt`` gives the commitment. False for a salt that is not
    64 lowercase hex digits or a round below 1."""
    if not isinstance(salt, str) or not _SALT.fullmatch(salt) or round < 1:
        return False
    value = salt
    for _ in range(round):
        value = chain_link(value)
    return hmac.compare_digest(value, commitment)


def parse_seed(text: object) -> str:
    """A client seed as stored: 16–64 bytes as lowercase hex. ``text`` is hex (32–128 digits, an
    even number of them, any case; hex is tried first) or base64 (standard or URL-safe, padding
    optional) of 16–64 bytes.

    >>> parse_seed("00112233445566778899AABBCCDDEEFF")
    '00112233445566778899aabbccddeeff'
    >>> parse_seed("ABEiM0RVZneImaq7zN3u_w")
    '00112233445566778899aabbccddeeff'

    Raises:
        SeedError: for anything else (not text, too short, too long, neither hex nor base64).
    """
    if not isinstance(text, str):
        raise SeedError(f"a seed is text (hex or base64), not {type(text).__name__}")
    clean = text.strip()
    low, high = MIN_SEED_BYTES, MAX_SEED_BYTES
    if not clean:
        raise SeedError(f"the seed is empty: give {low} to {high} random bytes as hex or base64")
    if _HEX.fullmatch(clean) and len(clean) % 2 == 0:
        size = len(clean) // 2
        if not low <= size <= high:
            raise SeedError(f"the seed is {_bytes(size)} ({len(clean)} hex digits); give {low} to {high} bytes")
        return clean.lower()
    if len(clean) > 4 * high or not _BASE64.fullmatch(clean):
        raise SeedError(
            f"the seed must be hex or base64 text of {low} to {high} random bytes (e.g. 32 hex digits), "
            f"not {clean[:24]!r}{'…' if len(clean) > 24 else ''}"
        )
    raw = _base64_bytes(clean)
    if raw is None:
        raise SeedError("the seed is not valid base64 (nor hex): check its padding and characters")
    if not low <= len(raw) <= high:
        raise SeedError(f"the seed is {_bytes(len(raw))}; give {low} to {high} bytes")
    return raw.hex()


def _bytes(count: int) -> str:
    """``count`` bytes in words: ``1 byte``, ``15 bytes``."""
    return f"{count} byte{'s' if count != 1 else ''}"


def _base64_bytes(text: str) -> bytes | None:
    import base64  # only for base64 seeds
    import binascii

    body = text.rstrip("=").replace("-", "+").replace("_", "/")
    if len(body) % 4 == 1:
        return None
    try:
        return base64.b64decode(body + "=" * (-len(body) % 4), validate=True)
    except (binascii.Error, ValueError):
        return None


def seeds_text(seeds: Sequence[str | None]) -> str:
    """The seeds of a deal as the deck's stream signs them: in seat order, each lowercase hex or
    ``-`` for a seat without one (a bot), separated by single spaces.

    >>> seeds_text(["ab" * 16, None, ""])
    'abababababababababababababababab - -'
    """
    return " ".join(seed if seed else "-" for seed in seeds)


def deck_numbers(salt: str, round: int, seeds: Sequence[str | None]) -> Iterator[int]:
    """The stream of 32-bit numbers round ``round``'s deck is shuffled with: block ``b`` is
    HMAC-SHA256(key = the salt's bytes, text = ``"thirtyone-deck/2 ROUND SEEDS b"``) read as eight
    big-endian 32-bit numbers."""
    key = bytes.fromhex(salt)
    prefix = f"{DECK_PREFIX} {round} {seeds_text(seeds)} "
    block = 0
    while True:
        digest = hmac.new(key, f"{prefix}{block}".encode("ascii"), hashlib.sha256).digest()
        for at in range(0, 32, 4):
            yield int.from_bytes(digest[at : at + 4], "big")
        block += 1


def deal_deck(salt: str, round: int, seeds: Sequence[str | None], size: int = 52) -> list[Card]:
    """Round ``round``'s deck order (top card first) from its ``salt`` (64 hex digits) and the
    seats' ``seeds``: the deck of ``size`` cards in index order, shuffled by Fisher–Yates with
    :func:`deck_numbers` (see the module docstring).

    >>> from thirtyone.cards import format_cards
    >>> format_cards(deal_deck("00" * 32, 1, ["11" * 16, None], 32)[:6])
    'Qd Ks Jc 8c 8h 8d'

    Raises:
        SeedError: for a salt that is not 64 lowercase hex digits.
        CardError: for a deck size other than 52 or 32.
    """
    if not isinstance(salt, str) or not _SALT.fullmatch(salt):
        raise SeedError(f"a salt is 64 lowercase hex digits, not {salt!r:.40}")
    cards = list(full_deck(size))
    numbers = deck_numbers(salt, round, seeds)
    for i in range(len(cards) - 1, 0, -1):
        span = i + 1
        limit = (1 << 32) - (1 << 32) % span
        while True:
            number = next(numbers)
            if number < limit:
                break
        j = number % span
        cards[i], cards[j] = cards[j], cards[i]
    return cards


class SaltChain:
    """The server's side of a salt chain: its secret ``key`` and ``length`` (rounds it can deal),
    its public :attr:`commitment` (worked out unless given, as when it was stored), and each round's
    salt (:meth:`salt`) without hashing the whole chain every time: every ``step``-th link from the
    key is kept once worked out (on the first call).

    Raises:
        SeedError: for a key that is not 64 lowercase hex digits, or a length or step below 1.

    >>> chain = SaltChain("00" * 32, 8, step=4)
    >>> chain.salt(3) == chain_salt("00" * 32, 8, 3), salt_matches(chain.commitment, chain.salt(3), 3)
    (True, True)
    """

    def __init__(self, key: str, length: int, step: int = 32, commitment: str | None = None) -> None:
        if not isinstance(key, str) or not _SALT.fullmatch(key) or length < 1 or step < 1:
            raise SeedError("a salt chain needs a key of 64 lowercase hex digits and a length of at least 1")
        self.key = key
        self.length = length
        self.step = step
        self._marks: list[str] | None = None
        self.commitment = self.salt(0) if commitment is None else commitment

    def salt(self, round: int) -> str:
        """Round ``round``'s salt (0: the commitment).

        Raises:
            SeedError: for a round outside 0 to ``length``.
        """
        if not 0 <= round <= self.length:
            raise SeedError(f"round {round} is outside the salt chain of {self.length} rounds")
        if self._marks is None:
            marks = [self.key]
            value = self.key
            for position in range(1, self.length + 1):
                value = chain_link(value)
                if position % self.step == 0:
                    marks.append(value)
            self._marks = marks
        links = self.length - round
        value = self._marks[links // self.step]
        for _ in range(links % self.step):
            value = chain_link(value)
        return value


# ---------------------------------------------------------------------------------------------- one deal's commitment
# A round dealt with a commitment of its own (records of version 2, and the reshuffles of every
# committed round): the hash of its salt and deck, published before the deal.

DEAL_COMMITMENT_PREFIX: Final = "thirtyone-deal/1"
"""The first word of the canonical text a deal's commitment hashes (see :func:`deal_commitment`)."""
RESHUFFLE_PREFIX: Final = "thirtyone-reshuffle/1"
"""The first word of the text whose hash orders a salted reshuffle (see :func:`salted_reshuffle`)."""
_DEAL_SALT: Final = re.compile(r"[0-9a-f]{32,128}")


def check_salt(salt: str) -> None:
    """Check that ``salt`` is 32–128 lowercase hex digits (16–64 random bytes).

    Raises:
        RecordError: for anything else.
    """
    if not isinstance(salt, str) or not _DEAL_SALT.fullmatch(salt):
        raise RecordError(f"salt must be 32 to 128 lowercase hex digits, not {shown(salt)}")


def deal_commitment(salt: str, deck: Sequence[Card]) -> str:
    """The commitment to a deal: the SHA-256, as 64 lowercase hex digits, of the UTF-8 (here plain
    ASCII) text ``"thirtyone-deal/1 SALT DECK"``, where SALT is the salt's hex digits and DECK the
    deck order, top card first, each card as its two-character text (rank ``23456789TJQKA``, suit
    ``cdhs``) and single spaces between them, as :func:`~thirtyone.cards.format_cards` writes it.

    >>> from thirtyone.cards import full_deck
    >>> deal_commitment("00" * 16, full_deck(32))[:16]
    '28ff418ec319017b'

    Raises:
        RecordError: for a salt that is not 32–128 lowercase hex digits.
    """
    check_salt(salt)
    text = f"{DEAL_COMMITMENT_PREFIX} {salt} {format_cards(deck)}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def salted_reshuffle(salt: str, cards: Iterable[Card], number: int) -> list[Card]:
    """The new stock of reshuffle ``number`` (from 1) of a round dealt with ``salt`` (R4.3), top
    card first: ``cards`` sorted by the SHA-256 digest of ``"thirtyone-reshuffle/1 SALT NUMBER
    CARD"`` (the card as two-character text). The order is fixed by the salt, which was committed
    to before the deal and stays secret until the round ends, so nobody can foresee it or choose
    it; the order the cards come in does not matter.

    >>> from thirtyone.cards import parse_cards
    >>> order = salted_reshuffle("ab" * 16, parse_cards("As Kd 2c"), 1)
    >>> order == salted_reshuffle("ab" * 16, parse_cards("2c As Kd"), 1), len(order)
    (True, 3)

    Raises:
        RecordError: for a salt that is not 32–128 lowercase hex digits.
    """
    check_salt(salt)
    prefix = f"{RESHUFFLE_PREFIX} {salt} {number} "
    return sorted(cards, key=lambda card: hashlib.sha256(f"{prefix}{card}".encode()).digest())
