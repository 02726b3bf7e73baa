"""A game paused in the middle of a round, complete enough to go on: :class:`Position`.

``game.position()`` takes one; ``Game.from_position(position)`` resumes from one (the rest of the
round, then new rounds from its own chance). Search bots build positions from what a player
knows plus sampled hidden cards; tests and puzzles set up exact situations with them.

>>> from thirtyone import Game, Rules, parse_cards
>>> game = Game(Rules.preset("scat"), players=3, seed=2)
>>> position = game.position()
>>> again = Game.from_position(position, seed=9)
>>> again.legal_actions() == game.legal_actions(), again.hand(1) == game.hand(1)
(True, True)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from thirtyone.cards import Card
from thirtyone.cards import format_cards
from thirtyone.cards import full_deck
from thirtyone.checks import whole_number
from thirtyone.errors import PositionError
from thirtyone.rules import Rules
from thirtyone.views import Phase

__all__ = ["Position"]


@dataclass(frozen=True)
class Position:
    """Everything about one moment of a round.

    ``hands`` has one entry per seat (``()`` for a seat out of the game), three cards each, four
    for the seat to move in :attr:`Phase.DISCARD`. ``stock`` is top card first; ``discard_pile``
    bottom first (in widow mode: the widows set aside, R7.3). ``remaining`` is each seat's
    remaining losses (R2.4; 0 = out). ``turn`` counts completed turns this round, ``passes`` the
    passes in a row (R7.3), ``taken_from_pile`` the card the seat to move took this turn (R4.2),
    ``looked`` who has looked at their cards (R6.6), ``known_cards`` the cards each seat is
    publicly known to hold. Every card of the deck must be in exactly one place.

    Raises (from :meth:`check`, which ``Game.from_position`` calls):
        PositionError: naming what is inconsistent.
    """

    rules: Rules
    dealer: int
    to_move: int
    phase: Phase
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    discard_pile: tuple[Card, ...] = ()
    widow: tuple[Card, ...] = ()
    widow_face_up: bool = False
    remaining: tuple[int, ...] | None = None
    knocker: int | None = None
    turn: int = 0
    passes: int = 0
    taken_from_pile: Card | None = None
    looked: tuple[bool, ...] | None = None
    known_cards: tuple[tuple[Card, ...], ...] | None = None
    round: int = 1

    @property
    def players(self) -> int:
        """Seats at the table."""
        return len(self.hands)

    def remaining_losses(self) -> tuple[int, ...]:
        """``remaining``, or every seat's full count (``lives`` plus the grace life) when not given."""
        if self.remaining is not None:
            return self.remaining
        return (self.rules.lives + (1 if self.rules.grace_life else 0),) * self.players

    def check(self) -> None:
        """Check that a game can be in this position.

        Raises:
            PositionError: naming what is wrong.
        """
        self._check_types()
        rules, players = self.rules, self.players
        try:
            rules.check_players(players)
        except ValueError as error:
            raise PositionError(str(error)) from None
        remaining = self.remaining_losses()
        most = rules.lives + (1 if rules.grace_life else 0)
        if len(remaining) != players:
            raise PositionError(
                f"hands gives {players} seats but remaining {len(remaining)}: give one entry per seat in each"
            )
        if any(not 0 <= left <= most for left in remaining):
            raise PositionError(
                f"remaining needs {players} counts from 0 to {most} (lives plus the grace life, R2.4), not {remaining}"
            )
        active = [seat for seat in range(players) if remaining[seat] > 0]
        if len(active) < 2:
            raise PositionError("a round needs at least two seats still in (remaining > 0)")
        for seat in (self.dealer, self.to_move):
            if seat not in active:
                raise PositionError(f"seat {seat} (dealer or to move) is not in the game")
        if self.phase is Phase.OVER:
            raise PositionError("a position is inside a round; a finished game has none")
        for seat, hand in enumerate(self.hands):
            size = 0 if seat not in active else 4 if seat == self.to_move and self.phase is Phase.DISCARD else 3
            if len(hand) != size:
                raise PositionError(f"seat {seat} holds {len(hand)} cards ({format_cards(hand)}), not {size}")
        if self.phase is Phase.DISCARD and rules.mode != "draw":
            raise PositionError("the discard phase belongs to draw mode")
        if rules.mode == "draw" and self.widow:
            raise PositionError("draw mode has no widow")
        if rules.mode == "widow" and len(self.widow) != 3:
            raise PositionError(f"the widow holds 3 cards, not {len(self.widow)}")
        cards = [card for hand in self.hands for card in hand]
        cards += list(self.stock) + list(self.discard_pile) + list(self.widow)
        if sorted(cards) != sorted(full_deck(rules.deck)):
            twice = sorted(card for card, count in Counter(cards).items() if count > 1)
            twice += sorted(set(cards) - set(full_deck(rules.deck)))
            missing = sorted(set(full_deck(rules.deck)) - set(cards))
            wrong = [f"missing {format_cards(missing)}"] if missing else []
            wrong += [f"twice or not of the deck {format_cards(twice)}"] if twice else []
            raise PositionError(
                f"every card of the {rules.deck}-card deck must be in one place (hands, stock, discard pile, "
                f"widow): {'; '.join(wrong)}"
            )
        if self.knocker is not None and (self.knocker not in active or self.knocker == self.to_move):
            raise PositionError(f"knocker {self.knocker} must be another seat still in the game")
        taken = self.taken_from_pile
        if taken is not None and (self.phase is not Phase.DISCARD or taken not in self.hands[self.to_move]):
            raise PositionError("taken_from_pile is a card the seat to move holds in the discard phase")
        for name, value in (("looked", self.looked), ("known_cards", self.known_cards)):
            if value is not None and len(value) != players:
                raise PositionError(f"{name} needs one entry per seat ({players})")
        if self.known_cards is not None:
            for seat, known in enumerate(self.known_cards):
                if not set(known) <= set(self.hands[seat]):
                    raise PositionError(f"seat {seat}'s known cards {format_cards(known)} are not all in its hand")
        if self.round < 1:
            raise PositionError(f"round counts from 1, not {self.round}")
        if not 0 <= self.turn < rules.max_turns:
            raise PositionError(
                f"turn counts the turns completed: 0 to {rules.max_turns - 1} (max_turns), not {self.turn}"
            )
        most_passes = len(active) - 1 if rules.mode == "widow" else 0
        if not 0 <= self.passes <= most_passes:
            raise PositionError(
                f"passes counts the passes in a row (R7.3): 0 to {most_passes} in {rules.mode} mode with "
                f"{len(active)} seats in, not {self.passes}"
            )

    def _check_types(self) -> None:
        """Each field has its type: a wrong one is a PositionError naming the field."""

        def whole(value: object) -> bool:
            return whole_number(value) is not None

        def cards(value: object) -> bool:
            return isinstance(value, tuple | list) and all(isinstance(card, Card) for card in value)

        def each(value: object, test: Callable[[object], bool]) -> bool:
            return isinstance(value, tuple | list) and all(test(item) for item in value)

        checks: tuple[tuple[str, bool, str], ...] = (
            ("rules", isinstance(self.rules, Rules), "a Rules"),
            ("phase", isinstance(self.phase, Phase), "a Phase"),
            ("dealer", whole(self.dealer), "a seat number"),
            ("to_move", whole(self.to_move), "a seat number"),
            ("hands", each(self.hands, cards), "a tuple of hands, each a tuple of Cards"),
            ("stock", cards(self.stock), "a tuple of Cards"),
            ("discard_pile", cards(self.discard_pile), "a tuple of Cards"),
            ("widow", cards(self.widow), "a tuple of Cards"),
            ("widow_face_up", isinstance(self.widow_face_up, bool), "True or False"),
            ("remaining", self.remaining is None or each(self.remaining, whole), "None or a count per seat"),
            ("knocker", self.knocker is None or whole(self.knocker), "None or a seat number"),
            ("turn", whole(self.turn), "a whole number"),
            ("passes", whole(self.passes), "a whole number"),
            (
                "taken_from_pile",
                self.taken_from_pile is None or isinstance(self.taken_from_pile, Card),
                "None or a Card",
            ),
            (
                "looked",
                self.looked is None or each(self.looked, lambda v: isinstance(v, bool)),
                "None or a bool per seat",
            ),
            ("known_cards", self.known_cards is None or each(self.known_cards, cards), "None or Cards per seat"),
            ("round", whole(self.round), "a whole number from 1"),
        )
        for name, ok, wanted in checks:
            if not ok:
                raise PositionError(f"Position.{name} is {wanted}, not {getattr(self, name)!r}")
