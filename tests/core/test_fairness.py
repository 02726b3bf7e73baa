"""Deals no one can choose (thirtyone.fairness): the salt chain, client seeds, the deck every seat's
seed and the round's salt deal, the test vectors of docs/record-format.md, and records whose
``[fairness]`` any change of a card, salt or seed makes fail (R3.5)."""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from thirtyone import Game
from thirtyone import Rules
from thirtyone.cards import Card
from thirtyone.cards import format_cards
from thirtyone.cards import full_deck
from thirtyone.chance import SeededChance
from thirtyone.errors import CommitmentError
from thirtyone.errors import RecordError
from thirtyone.errors import SeedError
from thirtyone.fairness import SaltChain
from thirtyone.fairness import chain_link
from thirtyone.fairness import chain_salt
from thirtyone.fairness import deal_deck
from thirtyone.fairness import deck_numbers
from thirtyone.fairness import parse_seed
from thirtyone.fairness import salt_matches
from thirtyone.fairness import seeds_text
from thirtyone.record import Fairness
from thirtyone.record import GameRecord
from thirtyone.record import salted_reshuffle

KEY = "00" * 32
SEED = "00112233445566778899aabbccddeeff"

# ---------------------------------------------------------------------------------------------- test vectors


def test_the_documented_test_vectors() -> None:
    chain = SaltChain(KEY, 3)
    assert chain_link(KEY) == hashlib.sha256(f"thirtyone-chain/1 {KEY}".encode()).hexdigest()
    assert chain.commitment == "3771772a65f0f114797f23b5609f32debbe47a6ca0d113d8c302537f8976d6f7"
    assert chain.salt(1) == "917a45a6a5121a5ca78061e6faecaba79cba30264ac0d9b2bd5501fdd332bee8"
    assert chain.salt(2) == chain_link(KEY)
    assert chain.salt(3) == KEY
    first = hmac.new(bytes.fromhex(chain.salt(1)), f"thirtyone-deck/2 1 {SEED} - 0".encode(), hashlib.sha256)
    assert first.hexdigest() == "8692b4bf58a34f22f6789ef81fc58f58a8485cfb30b7705a41900bbb366c9b34"
    assert next(deck_numbers(chain.salt(1), 1, [SEED, None])) == int.from_bytes(first.digest()[:4], "big")
    deck = format_cards(deal_deck(chain.salt(1), 1, [SEED, None]))
    assert deck == (
        "9d Td Qc 5s 9h 7h Ks 5h Ts 5d 4h Jh Jd 8s 6c 2c 6s Tc 8h Ac 8d 2s 9s 4s Qd Th Kc Jc Qh 9c 5c Ad Ah 7c "
        "Kh Kd 3h 6d 4c 6h 4d 7s 2d Js 8c 3d 3c As 7d 2h 3s Qs"
    )
    assert format_cards(deal_deck(chain.salt(1), 1, [SEED, None], 32)) == (
        "7c Qc Kh Jc Kd Kc 7d 8h Th 9c Tc 9h Ts Js 8c Ad 9s Ks 7h Jh Ac 8d Qd Qs 9d 7s Ah 8s Jd Qh Td As"
    )


# ---------------------------------------------------------------------------------------------- the chain


@given(st.binary(min_size=32, max_size=32), st.integers(1, 40), st.data())
@settings(max_examples=40)
def test_every_salt_of_a_chain_checks_against_its_commitment_and_no_other_round(
    key: bytes, length: int, data: st.DataObject
) -> None:
    chain = SaltChain(key.hex(), length, step=data.draw(st.integers(1, 8)))
    number = data.draw(st.integers(1, length))
    salt = chain.salt(number)
    assert salt == chain_salt(key.hex(), length, number)
    assert salt_matches(chain.commitment, salt, number)
    assert not salt_matches(chain.commitment, salt, number + 1)
    if number > 1:
        assert not salt_matches(chain.commitment, salt, number - 1)
    assert chain_link(salt) == chain.salt(number - 1)  # a revealed salt tells the earlier ones, never a later one


def test_a_salt_chain_refuses_what_it_cannot_give() -> None:
    chain = SaltChain(KEY, 4)
    with pytest.raises(SeedError, match="outside the salt chain of 4 rounds"):
        chain.salt(5)
    with pytest.raises(SeedError, match="outside"):
        chain_salt(KEY, 4, -1)
    with pytest.raises(SeedError, match="64 lowercase hex"):
        SaltChain("ab", 4)
    assert SaltChain(KEY, 4, commitment="ff" * 32).commitment == "ff" * 32  # as stored: not worked out again
    assert not salt_matches(chain.commitment, "XY" * 32, 1)
    assert not salt_matches(chain.commitment, chain.salt(1), 0)


# ---------------------------------------------------------------------------------------------- seeds


@pytest.mark.parametrize(
    ("text", "stored"),
    [
        (SEED, SEED),
        (SEED.upper(), SEED),
        (f"  {SEED}\n", SEED),
        ("ABEiM0RVZneImaq7zN3u_w", SEED),  # base64url, unpadded
        ("ABEiM0RVZneImaq7zN3u/w==", SEED),  # standard base64
        ("ab" * 64, "ab" * 64),  # 64 bytes: the longest
    ],
)
def test_a_seed_is_hex_or_base64_of_16_to_64_bytes(text: str, stored: str) -> None:
    assert parse_seed(text) == stored


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty"),
        ("ab" * 15, "15 bytes (30 hex digits); give 16 to 64"),
        ("ab" * 65, "65 bytes (130 hex digits)"),
        ("QUJD", "3 bytes; give 16 to 64"),
        ("not a seed at all!", "hex or base64"),
        ("é" * 40, "hex or base64"),
        ("A" * 300, "150 bytes (300 hex digits)"),
        ("Z" * 300, "hex or base64"),
        ("A" * 21 + "=", "not valid base64"),
        (12345, "not int"),
        (None, "not NoneType"),
    ],
)
def test_a_bad_seed_is_refused_saying_what_a_seed_is(text: object, words: str) -> None:
    with pytest.raises(SeedError, match=words.replace("(", r"\(").replace(")", r"\)")):
        parse_seed(text)


# ---------------------------------------------------------------------------------------------- the deck


def test_the_deck_depends_on_every_seed_the_salt_and_the_round() -> None:
    salt = SaltChain(KEY, 8).salt(1)
    base = deal_deck(salt, 1, [SEED, None, "ff" * 16])
    assert sorted(base) == sorted(full_deck(52))
    assert deal_deck(salt, 1, [SEED, None, "ff" * 16]) == base  # the same inputs deal the same deck
    assert deal_deck(salt, 1, [SEED, None, "fe" + "ff" * 15]) != base  # any seed changes it
    assert deal_deck(salt, 1, [None, SEED, "ff" * 16]) != base  # so does which seat gave it
    assert deal_deck(salt, 2, [SEED, None, "ff" * 16]) != base  # the round is the nonce: a seed serves the game
    assert deal_deck(SaltChain(KEY, 8).salt(2), 1, [SEED, None, "ff" * 16]) != base
    assert seeds_text([SEED, None, ""]) == f"{SEED} - -"
    with pytest.raises(SeedError, match="64 lowercase hex"):
        deal_deck("AB" * 32, 1, [])


def test_the_shuffle_is_uniform_for_the_first_card() -> None:
    counts = Counter(deal_deck(SaltChain(f"{index:064x}", 1).salt(1), 1, [])[0] for index in range(5200))
    assert set(counts) == set(full_deck(52))
    expected = 100
    chi2 = sum((count - expected) ** 2 / expected for count in counts.values())
    assert chi2 < 110  # 51 degrees of freedom: chance of a false alarm below 1e-5


def test_rejection_sampling_drops_numbers_that_would_bias(monkeypatch: pytest.MonkeyPatch) -> None:
    import thirtyone.fairness as fairness

    # 2**32 - 1 is not below the largest multiple of 52 under 2**32: dropped; 5 then swaps the last
    # card with the sixth, which later swaps (of lower positions) never move again
    numbers = iter([2**32 - 1, 5, *range(200)])
    monkeypatch.setattr(fairness, "deck_numbers", lambda salt, round, seeds: numbers)
    assert fairness.deal_deck(KEY, 1, [])[51] == full_deck(52)[5]


# ---------------------------------------------------------------------------------------------- records


class ChainChance(SeededChance):
    """Deals as a server does: from a salt chain and the seats' seeds; reshuffles from the salt."""

    def __init__(self, chain: SaltChain, seeds: list[str | None], seed: int) -> None:
        super().__init__(random.Random(seed))
        self.chain = chain
        self.seeds = seeds

    def deal_order(self, deck: object, round: int) -> list[Card]:
        return deal_deck(self.chain.salt(round), round, self.seeds, len(deck))  # type: ignore[arg-type]

    def reshuffle_order(self, cards: object, round: int, number: int) -> list[Card]:
        return salted_reshuffle(self.chain.salt(round), cards, number)  # type: ignore[arg-type]


def chained_record(seed: int = 5, players: int = 3) -> GameRecord:
    chain = SaltChain(f"{seed:064x}", 64)
    seeds: list[str | None] = [SEED, None, "ab" * 32][:players]
    game = Game(Rules.preset("scat", lives=1), players, chance=ChainChance(chain, seeds, seed))
    policy = random.Random(seed)
    while not game.is_over:
        game.apply(policy.choice(game.legal_actions()))
    record = GameRecord.from_game(game)
    rounds = tuple(dataclasses.replace(rnd, salt=chain.salt(rnd.round)) for rnd in record.rounds)
    fairness = Fairness(chain.commitment, tuple(seed or "" for seed in seeds))
    return dataclasses.replace(record, rounds=rounds, fairness=fairness)


def test_a_chained_record_verifies_and_reads_back() -> None:
    record = chained_record()
    text = record.dumps()
    assert "[fairness]" in text
    assert GameRecord.loads(text) == record
    assert GameRecord.loads(text).check_commitments() == len(record.rounds)
    assert record.replay().is_over


@pytest.mark.parametrize("where", ["top card", "bottom card", "a middle card"])
def test_any_card_changed_fails_even_one_never_dealt(where: str) -> None:
    record = chained_record()
    rnd = record.rounds[0]
    deck = list(rnd.deck)
    at = {"top card": 0, "bottom card": len(deck) - 1, "a middle card": 20}[where]
    other = len(deck) - 2 if at == len(deck) - 1 else at + 1
    deck[at], deck[other] = deck[other], deck[at]
    forged = dataclasses.replace(record, rounds=(dataclasses.replace(rnd, deck=tuple(deck)), *record.rounds[1:]))
    with pytest.raises(
        RecordError,
        match=rf"round 1: the deck order is not the one the salt and the seats' seeds deal: card {min(at, other) + 1} ",
    ):
        forged.check_commitments()


def test_a_changed_salt_seed_or_commitment_fails() -> None:
    record = chained_record()
    assert record.fairness is not None
    rnd = record.rounds[1]
    other_salt = dataclasses.replace(rnd, salt="ab" * 32)
    with pytest.raises(RecordError, match=r"round 2: the salt (ab)+ is not round 2's salt of the chain"):
        dataclasses.replace(record, rounds=(record.rounds[0], other_salt, *record.rounds[2:])).check_commitments()
    seeds = ("", *record.fairness.seeds[1:])  # seat 0's seed left out
    with pytest.raises(RecordError, match="round 1: the deck order is not the one"):
        dataclasses.replace(record, fairness=Fairness(record.fairness.commitment, seeds)).check_commitments()
    with pytest.raises(
        CommitmentError, match=r"the commitment in \[fairness\] .* so the commitment was changed"
    ) as raised:
        dataclasses.replace(record, fairness=Fairness("cd" * 32, record.fairness.seeds)).check_commitments()
    assert (raised.value.recorded, raised.value.computed) == ("cd" * 32, record.fairness.commitment)
    unrevealed = dataclasses.replace(record.rounds[0], salt=None)
    with pytest.raises(RecordError, match="round 1: the salt is missing, though the round ended"):
        dataclasses.replace(record, rounds=(unrevealed, *record.rounds[1:])).check_commitments()


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda t: t.replace('seeds = ["', 'seeds = ["", "'), "fairness: seeds has 4 entries for 3 seats"),
        (lambda t: t.replace("[fairness]\n", "[fairness]\nsalt = 'x'\n"), "fairness: unknown key 'salt'"),
        (lambda t: t.replace(f'"{SEED}"', f'"{SEED.upper()}"'), "the seed of seat 0 must be lowercase hex"),
        (lambda t: t.replace(f'"{SEED}"', '"abc"'), "fairness: the seed of seat 0: the seed is 2 bytes"),
        (
            lambda t: t.replace(f'seeds = ["{SEED}"', "seeds = [7"),
            r"^fairness: seeds\[0\] must be text in quotes, not 7$",
        ),
        (lambda t: t.replace("commitment = ", "commitment = 'zz' #"), "fairness: commitment must be 64 lowercase hex"),
        (lambda t: t.replace("version = 3", "version = 2"), "unknown key 'fairness'"),
        (
            lambda t: t.replace("[[rounds]]\nround = 1\n", "[[rounds]]\nround = 1\ncommitment = '" + "a" * 64 + "'\n"),
            "round 1: a round of a record with \\[fairness\\] has no commitment of its own",
        ),
    ],
)
def test_a_bad_fairness_table_is_refused(change: object, words: str) -> None:
    text = change(chained_record().dumps())  # type: ignore[operator]
    with pytest.raises(RecordError, match=words):
        GameRecord.loads(text)
