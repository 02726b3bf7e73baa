"""Building exact deals for rule tests (the core's helpers: they import the core only, so the
core's tests run with nothing but pytest and hypothesis installed).

``deck_order`` turns "seat 1 holds As Kd Td, the upcard is 9h, the stock starts 2c 3c" into the
full deck order the engine deals from (top card first, one card at a time clockwise from the
dealer's left). Seats whose hands are not given get dull hands (three suits, three ranks, no
specials); other cards follow in index order. ``scripted_game`` plays given deals, then random
ones; ``event_cards`` are the cards an event names, ``as_version`` a record as an older thirtyone wrote it.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Mapping
from collections.abc import Sequence

from thirtyone import Acted
from thirtyone import Card
from thirtyone import Discard
from thirtyone import Event
from thirtyone import Exchange
from thirtyone import Game
from thirtyone import NewWidow
from thirtyone import RoundEnded
from thirtyone import RoundStarted
from thirtyone import Rules
from thirtyone import full_deck
from thirtyone import parse_cards
from thirtyone.chance import SeededChance


def deck_order(
    rules: Rules,
    players: int,
    dealer: int,
    hands: Mapping[int, str],
    *,
    upcard: str | None = None,
    widow: str | None = None,
    stock: str = "",
    active: Sequence[int] | None = None,
) -> list[Card]:
    """The deck order (top first) that deals ``hands`` (seat → card text) and then, in draw mode,
    ``upcard`` and the ``stock`` (top first); in widow mode the ``widow`` (the dealer's second
    hand in Schwimmen) and the stock."""
    seats = list(active) if active is not None else list(range(players))
    at = seats.index(dealer)
    order = seats[at + 1 :] + seats[: at + 1]
    given = {seat: list(parse_cards(text)) for seat, text in hands.items()}
    table = list(parse_cards(upcard or "")) + list(parse_cards(widow or ""))
    top_of_stock = list(parse_cards(stock))
    used = [card for cards in given.values() for card in cards] + table + top_of_stock
    if len(set(used)) != len(used):
        raise ValueError(f"a card is given twice: {used}")
    free = [card for card in full_deck(rules.deck) if card not in used]
    for seat in order:
        if seat in given:
            continue
        hand: list[Card] = []
        for card in list(free):
            if len(hand) == 3:
                break
            if all(card.suit != other.suit and card.rank != other.rank for other in hand) and not (
                hand and card.rank in (hand[0].rank + 1, hand[0].rank - 1)
            ):
                hand.append(card)
                free.remove(card)
        given[seat] = hand
    deck: list[Card] = []
    for i in range(3):
        deck.extend(given[seat][i] for seat in order)
    if rules.mode == "draw":
        if not table:
            table = [free.pop(0)]
    else:
        while len(table) < 3:
            table.append(free.pop(0))
    deck += table + top_of_stock + free
    assert sorted(deck) == sorted(full_deck(rules.deck)), "deck_order built a bad deck"
    return deck


class FallbackChance(SeededChance):
    """Scripted outcomes first (dealer, deck orders, reshuffles), then seeded random ones."""

    trusted = False  # the scripted orders are checked by the engine

    def __init__(
        self,
        first_dealer: int,
        decks: Sequence[Sequence[Card]],
        reshuffles: Sequence[Sequence[Card]] = (),
        seed: int = 0,
    ) -> None:
        super().__init__(random.Random(seed))
        self._dealer = first_dealer
        self._decks = [list(deck) for deck in decks]
        self._reshuffles = [list(order) for order in reshuffles]

    def first_dealer(self, players: int) -> int:
        return self._dealer

    def deal_order(self, deck: Sequence[Card], round: int) -> list[Card]:
        if round <= len(self._decks):
            return list(self._decks[round - 1])
        return super().deal_order(deck, round)

    def reshuffle_order(self, cards: Sequence[Card], round: int, number: int) -> list[Card]:
        if self._reshuffles:
            return self._reshuffles.pop(0)
        return super().reshuffle_order(cards, round, number)


def scripted_game(
    rules: Rules,
    players: int,
    dealer: int,
    hands: Mapping[int, str],
    *,
    upcard: str | None = None,
    widow: str | None = None,
    stock: str = "",
    reshuffles: Sequence[str] = (),
    seed: int = 0,
) -> Game:
    """A game whose first round deals exactly what is given (see :func:`deck_order`)."""
    deck = deck_order(rules, players, dealer, hands, upcard=upcard, widow=widow, stock=stock)
    orders = [list(parse_cards(text)) for text in reshuffles]
    return Game(rules, players, chance=FallbackChance(dealer, [deck], orders, seed))


def cards(text: str) -> tuple[Card, ...]:
    """Cards from text, sorted: for comparing hands whatever their order."""
    return tuple(sorted(parse_cards(text)))


def losses(game: Game) -> list[tuple[int, int, str]]:
    """The last round's losses as sorted ``(seat, lives, rule)``."""
    assert game.last_result is not None
    return sorted((loss.seat, loss.lives, loss.rule) for loss in game.last_result.losses)


def snapshot(game: Game) -> tuple[object, ...]:
    """Everything observable about a game, for "a refused action leaves the game exactly as it was"."""
    return (
        game.round,
        game.phase,
        game.chance_step,
        game.current_seat,
        game.knocker,
        game.turn,
        game.dealer,
        tuple(game.hand(seat) for seat in range(game.players)),
        tuple(game.remaining(seat) for seat in range(game.players)),
        game.discard_pile,
        game.widow,
        game.widow_face_up,
        game.stock_size,
        game.legal_actions(),
        tuple(game.events),
        copy.deepcopy(game.round_logs),
        tuple(game.view(seat) for seat in range(game.players)),
        tuple(game.view(seat).history for seat in range(game.players)),
    )


def event_cards(event: Event) -> set[Card]:
    """Every card an event names (as the seat it was told to sees it): the upcard dealt, the cards
    received, discarded or exchanged, a new widow and the cards set aside, the hands shown at a
    round's end."""
    found: set[Card] = set()
    if isinstance(event, RoundStarted):
        if event.upcard is not None:
            found.add(event.upcard)
    elif isinstance(event, Acted):
        found.update(event.received or ())
        action = event.action
        if isinstance(action, Discard):
            found.add(action.card)
        elif isinstance(action, Exchange):
            found.update(action.give + action.take)
    elif isinstance(event, NewWidow):
        found.update(event.set_aside + event.widow)
    elif isinstance(event, RoundEnded):
        for hand in event.result.hands:
            found.update(hand or ())
    return found


def as_version(text: str, version: int) -> str:
    """A version-3 record as an older thirtyone wrote it: losses without their kind and seats."""
    text = re.sub(r"kind = \"[a-z_]+\", (seats = \[[0-9, ]*\], )?", "", text)
    return text.replace("version = 3\n", f"version = {version}\n")
