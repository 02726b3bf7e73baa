"""The game engine: :class:`Game` plays one match under any :class:`~thirtyone.rules.Rules`.

A match is a series of rounds (deals) until one player is left (R2.5). The engine ends rounds by
itself (blitz, showdown, R5, R6): the move that ends a round settles it. Chance — the first dealer,
each deal, each reshuffle — is a step of its own between moves. By default the game's chance source
takes each step at once, so a caller only ever chooses among ``legal_actions()`` and calls
``apply``; with ``explicit_chance=True`` the game stops at each (``is_chance()``,
``chance_step``) until ``deal()`` is called, as OpenSpiel's chance nodes do.

>>> game = Game(Rules.preset("scat"), players=3, seed=7)
>>> game.round, game.phase.value, len(game.legal_actions()) > 0
(1, 'turn', True)
>>> while not game.is_over:
...     game.apply(game.legal_actions()[0])
>>> game.winner == game.standings[0].seat, game.standings[0].place
(True, 1)
>>> game = Game("scat", players=3, seed=7, explicit_chance=True)
>>> game.is_chance(), game.chance_step.kind
(True, 'dealer')
>>> game.deal(2)                      # the first dealer: seat 2 (R3.1)
>>> game.chance_step.kind, len(game.chance_step.cards)
('deal', 52)
>>> game.deal()                       # the deck order, from the game's own source
>>> game.is_chance(), game.dealer, game.current_seat
(False, 2, 0)
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from typing import TypeVar

from thirtyone.actions import DISCARDS
from thirtyone.actions import PILE
from thirtyone.actions import STOCK
from thirtyone.actions import Action
from thirtyone.actions import Discard
from thirtyone.actions import Draw
from thirtyone.actions import Exchange
from thirtyone.actions import ExchangeAll
from thirtyone.actions import Keep
from thirtyone.actions import Knock
from thirtyone.actions import Look
from thirtyone.actions import Pass
from thirtyone.actions import TakeWidow
from thirtyone.actions import ThrowDown
from thirtyone.actions import parse_action
from thirtyone.actions import two_card_exchanges
from thirtyone.cards import Card
from thirtyone.cards import full_deck
from thirtyone.chance import Chance
from thirtyone.chance import ChanceStep
from thirtyone.chance import SeededChance
from thirtyone.chance import check_permutation
from thirtyone.checks import whole_number
from thirtyone.errors import ActionError
from thirtyone.errors import ArgumentError
from thirtyone.errors import RulesError
from thirtyone.errors import SeatError
from thirtyone.events import Acted
from thirtyone.events import Event
from thirtyone.events import GameOver
from thirtyone.events import NewWidow
from thirtyone.events import Reshuffled
from thirtyone.events import RoundEnded
from thirtyone.events import RoundResult
from thirtyone.events import RoundStarted
from thirtyone.position import Position
from thirtyone.refusals import IllegalActionError
from thirtyone.refusals import RefusalCode
from thirtyone.rules import Rules
from thirtyone.scoring import BLITZ_HALF
from thirtyone.scoring import HAND_VALUES
from thirtyone.scoring import HandValue
from thirtyone.scoring import half_points
from thirtyone.scoring import value_from_half
from thirtyone.settlement import KNOCK_PENALTIES
from thirtyone.settlement import Loss
from thirtyone.settlement import RoundEnd
from thirtyone.settlement import blitz_losses
from thirtyone.settlement import charge
from thirtyone.settlement import dealt_blitz
from thirtyone.settlement import showdown_charges
from thirtyone.text import refusal
from thirtyone.views import Phase
from thirtyone.views import PlayerView
from thirtyone.views import PublicView
from thirtyone.views import SeatStatus
from thirtyone.views import Standing
from thirtyone.views import TableFields
from thirtyone.views import build_player_view

__all__ = ["Game", "RoundLog"]

_AB = 52 * 52
_V = TypeVar("_V")
# The phases as globals: under Python 3.11 each read of Phase.TURN goes through EnumType's __getattr__
# hook, four times the cost of a global, and the engine reads the phase many times a move.
_PHASE_LOOK, _PHASE_DEALER_CHOICE, _PHASE_TURN = Phase.LOOK, Phase.DEALER_CHOICE, Phase.TURN
_PHASE_DISCARD, _PHASE_CHANCE, _PHASE_OVER = Phase.DISCARD, Phase.CHANCE, Phase.OVER
_DRAW_STOCK = Draw(STOCK)
_DRAW_PILE = Draw(PILE)
_KNOCK = Knock()
_PASS = Pass()
_EXCHANGE_ALL = ExchangeAll()
_KEEP = Keep()
_TAKE_WIDOW = TakeWidow()
_LOOK = Look()
_THROW_DOWN = ThrowDown()
_DRAW_TURNS: tuple[tuple[Action, ...], ...] = tuple(
    tuple(action for action, on in ((_DRAW_STOCK, stock), (_DRAW_PILE, pile), (_KNOCK, knock)) if on)
    for stock in (False, True)
    for pile in (False, True)
    for knock in (False, True)
)  # a draw-mode turn's legal actions by stock * 4 + pile * 2 + knock
_SINGLE_EXCHANGES: tuple[Exchange | None, ...] = tuple(
    Exchange(Card(give), Card(take)) if give != take else None for give in range(52) for take in range(52)
)  # by give * 52 + take: legal_actions hands out these, built once
_ACTION_TYPES = (Draw, Discard, Knock, Exchange, ExchangeAll, Pass, Keep, TakeWidow, Look, ThrowDown)


@dataclass
class RoundLog:
    """One round as a record needs it (R3.5): dealer, deck order (top first), the order of each
    reshuffle, the actions as ``(seat, action)`` in order, and the result once it has ended."""

    round: int
    dealer: int
    deck: tuple[Card, ...]
    reshuffles: list[tuple[Card, ...]] = field(default_factory=list)
    actions: list[tuple[int, Action]] = field(default_factory=list)
    result: RoundResult | None = None


class _Memo(dict[tuple[int, Card], _V]):
    """``make(seat, card)`` for every key, made on first use and kept."""

    def __init__(self, make: Callable[[int, Card], _V]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: tuple[int, Card]) -> _V:
        value = self[key] = self.make(*key)
        return value


def _stock_draw(seat: int, card: Card) -> tuple[Acted, Acted]:
    event = Acted(seat, _DRAW_STOCK, (card,), private=True)
    return event, event.for_seat(-1)


# The events of draw mode's moves by seat and card, made once a process (events are values, and
# making one costs more than the rest of the move): a discard's, a pile draw's, a stock draw's with
# the form the others see
_DISCARDED = _Memo(lambda seat, card: Acted(seat, DISCARDS[card]))
_FROM_PILE = _Memo(lambda seat, card: Acted(seat, _DRAW_PILE, (card,)))
_FROM_STOCK = _Memo(_stock_draw)


@dataclass(slots=True)
class _Round:
    """The current round's state, in one place so that copying, positions and pickling each read
    it once. Fields are named as :class:`~thirtyone.position.Position`'s, but ``stock`` and
    ``discard_pile`` keep their top card last (a list pops there) and ``next`` is who plays after
    whom (R6.2: seats out are skipped)."""

    active: tuple[int, ...]
    next: tuple[int, ...]
    to_move: int
    hands: list[list[Card]]
    stock: list[Card]
    discard_pile: list[Card]
    widow: list[Card]
    widow_face_up: bool = False
    knocker: int | None = None
    final_turns: int = 0  # turns still owed after the knock (R6.2)
    turn: int = 0
    passes: int = 0
    taken_from_pile: Card | None = None
    looked: list[bool] = field(default_factory=list)
    known_cards: list[list[Card]] = field(default_factory=list)
    start: int = 0  # index of the round's first event in Game.events
    seen: list[list[Event]] = field(default_factory=list)  # each seat's history, as that seat may see it
    # caches, not state: the legal actions (dropped by every move and chance step) and the views'
    # seat statuses, each seat's (dropped when its lives, look or known cards change: a move changes
    # one seat's, and remaking only that one halves a view's cost) and their tuple
    legal: tuple[Action, ...] | None = field(default=None, compare=False, repr=False)
    seats: tuple[SeatStatus, ...] | None = field(default=None, compare=False, repr=False)
    statuses: list[SeatStatus | None] = field(default_factory=list, compare=False, repr=False)

    def copy(self) -> _Round:
        """An independent copy: the lists are copied, the cards and events shared (immutable)."""
        return _Round(
            self.active,
            self.next,
            self.to_move,
            [list(hand) for hand in self.hands],
            list(self.stock),
            list(self.discard_pile),
            list(self.widow),
            self.widow_face_up,
            self.knocker,
            self.final_turns,
            self.turn,
            self.passes,
            self.taken_from_pile,
            list(self.looked),
            [list(known) for known in self.known_cards],
            self.start,
            [list(seen) for seen in self.seen],
            self.legal,
            self.seats,
            list(self.statuses),
        )


class Game:
    """One match of Thirty-One: ``players`` seats (0 … players-1, clockwise), each starting with
    ``rules.lives`` lives, dealt and played until one is left. ``rules`` is a :class:`Rules` or a
    preset's name (default ``scat``).

    Chance comes from ``chance`` if given, otherwise from ``SeededChance(seed)``: the same seed
    and the same actions always give the same game. Each chance step (the first dealer, a deal, a
    reshuffle) is taken from that source as soon as it is due; with ``explicit_chance=True`` the
    game waits at each instead (:meth:`is_chance`, :attr:`chance_step`) until :meth:`deal` gives
    its outcome or asks the source for it.

    Raises:
        RulesError: when the rules cannot be dealt to ``players`` players (R2.1).
        ArgumentError: for a seed that is not a whole number.
        CardError: when a scripted chance gives a deck order that is not a permutation.
    """

    phase: Phase
    """What the game waits for (see :class:`~thirtyone.views.Phase`)."""

    _r: _Round
    """The current round's state (set by ``_deal`` or ``_load``)."""

    _active: tuple[int, ...]
    """The seats not out (set by ``_begin_round``, and by ``_end_round`` when it puts seats out)."""

    def __init__(
        self,
        rules: Rules | str | None = None,
        players: int = 4,
        *,
        seed: int | None = None,
        chance: Chance | None = None,
        explicit_chance: bool = False,
    ) -> None:
        if rules is None or isinstance(rules, str):
            rules = Rules.preset("scat" if rules is None else rules)
        elif not isinstance(rules, Rules):
            raise RulesError(f"rules must be a Rules or a preset name such as 'scat', not {rules!r}")
        players = rules.check_players(players)
        self._start_match(rules, players, _chance(seed, chance), explicit_chance)
        self.dealer = 0
        self._begin_round()  # round 0: nothing dealt yet
        self._due(ChanceStep("dealer", 1, seats=tuple(range(players))))  # R3.1
        self._take_chance()

    def _start_match(self, rules: Rules, players: int, chance: Chance, explicit_chance: bool = False) -> None:
        if not isinstance(explicit_chance, bool):
            raise ArgumentError(f"explicit_chance is True or False, not {explicit_chance!r}")
        self.rules = rules
        self.players = players
        self._chance = chance
        self._explicit = explicit_chance
        self._step: ChanceStep | None = None
        self._waiting: tuple[int, Phase] | None = None  # the drawer and its phase while a reshuffle is due
        self._trusted = getattr(chance, "trusted", False) is True
        self._rule_flags()
        self._remaining = [rules.lives + self._grace] * players
        self._out = [False] * players
        self._eliminations: list[tuple[int, ...]] = []
        self.events: list[Event] = []
        self.round_logs: list[RoundLog] = []
        self.winner: int | None = None
        self.last_result: RoundResult | None = None
        self._shown: tuple[RoundResult, ...] = ()  # last_result as each seat was shown it (R5.1), for the views
        self.round = 0
        self._stop_round: int | None = None
        self.phase = _PHASE_TURN  # until the first deal says otherwise

    @classmethod
    def from_position(
        cls,
        position: Position,
        *,
        seed: int | None = None,
        chance: Chance | None = None,
        rounds: int | None = None,
        explicit_chance: bool = False,
    ) -> Game:
        """A game that goes on from ``position``: the rest of its round, then new rounds dealt
        from ``chance`` (default ``SeededChance(seed)``), which also gives any reshuffle. The
        game's ``events`` start here; its first ``round_logs`` entry has no deck order, so it
        cannot be saved as a record. Seats already out share a place in the standings. With
        ``rounds`` (1 or more), the game stops (``is_over``, and no winner unless one player is
        left) after that many rounds: ``rounds=1`` plays out the position's round only, as
        searches do. ``explicit_chance`` as for :class:`Game`.

        Raises:
            PositionError: when no game can be in that position.
            ArgumentError: for ``rounds`` below 1 or a seed that is not a whole number.
        """
        if not isinstance(position, Position):
            raise ArgumentError(f"from_position needs a Position (game.position()), not {position!r}")
        position.check()
        count = whole_number(rounds)
        if rounds is not None and (count is None or count < 1):
            raise ArgumentError(
                f"rounds is a whole number of rounds, 1 or more (or None for the whole game), not {rounds!r}"
            )
        game = cls.__new__(cls)
        game._start_match(position.rules, position.players, _chance(seed, chance), explicit_chance)
        if count is not None:
            game._stop_round = position.round + count - 1
        game._load(position)
        return game

    def _load(self, position: Position) -> None:
        players = self.players
        self._remaining = list(position.remaining_losses())
        self._out = [left == 0 for left in self._remaining]
        out = tuple(seat for seat in range(players) if self._out[seat])
        if out:
            self._eliminations.append(out)  # their order is not in a position: they share a place
        self.dealer = position.dealer
        self.round = position.round
        r = self._begin_round()
        self.round_logs.append(RoundLog(self.round, self.dealer, ()))
        r.hands = [list(hand) for hand in position.hands]
        r.stock = list(position.stock[::-1])
        r.discard_pile = list(position.discard_pile)
        r.widow = list(position.widow)
        r.widow_face_up = position.widow_face_up
        r.known_cards = [list(cards) for cards in position.known_cards or ((),) * players]
        r.looked = list(position.looked) if position.looked is not None else [True] * players
        r.knocker = position.knocker
        if position.knocker is not None:
            seat, count = position.to_move, 0
            while seat != position.knocker:
                count += 1
                seat = r.next[seat]
            r.final_turns = count
        r.turn = position.turn
        r.passes = position.passes
        r.taken_from_pile = position.taken_from_pile
        r.to_move = position.to_move
        self.phase = position.phase

    def position(self) -> Position:
        """The current position (see :class:`~thirtyone.position.Position`).

        Raises:
            IllegalActionError: once the game is over (code ``game_over``), or while a chance step
                is due (``chance_due``).
        """
        if self.phase is _PHASE_OVER:
            raise refusal("game_over")
        if self._step is not None:
            raise refusal("chance_due")
        r = self._r
        return Position(
            rules=self.rules,
            dealer=self.dealer,
            to_move=r.to_move,
            phase=self.phase,
            hands=tuple(tuple(hand) for hand in r.hands),
            stock=tuple(r.stock[::-1]),
            discard_pile=tuple(r.discard_pile),
            widow=tuple(r.widow),
            widow_face_up=r.widow_face_up,
            remaining=tuple(self._remaining),
            knocker=r.knocker,
            turn=r.turn,
            passes=r.passes,
            taken_from_pile=r.taken_from_pile,
            looked=tuple(r.looked),
            known_cards=tuple(tuple(known) for known in r.known_cards),
            round=self.round,
        )

    # ------------------------------------------------------------------ public state

    @property
    def current_seat(self) -> int | None:
        """The seat to move, or ``None`` once the game is over or while a chance step is due."""
        return None if self.phase is _PHASE_OVER or self._step is not None else self._r.to_move

    def is_chance(self) -> bool:
        """True while a chance step is due (only with ``explicit_chance=True``: see :meth:`deal`)."""
        return self._step is not None

    @property
    def chance_step(self) -> ChanceStep | None:
        """The chance step the game waits for (:class:`~thirtyone.chance.ChanceStep`), or ``None``."""
        return self._step

    @property
    def is_over(self) -> bool:
        """True once one player is left (R2.5)."""
        return self.phase is _PHASE_OVER

    @property
    def knocker(self) -> int | None:
        """The seat that knocked this round (R6.1), or ``None``."""
        return self._r.knocker

    @property
    def turn(self) -> int:
        """Turns completed this round (R6.3, R6.7)."""
        return self._r.turn

    @property
    def stock_size(self) -> int:
        """Cards in the stock."""
        return len(self._r.stock)

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        """The discard pile, bottom first (draw mode), or the set-aside widows (widow mode, R7.3)."""
        return tuple(self._r.discard_pile)

    @property
    def widow(self) -> tuple[Card, ...]:
        """The widow (face up or not; widow mode), or ``()`` in draw mode."""
        return tuple(self._r.widow)

    @property
    def widow_face_up(self) -> bool:
        """True when the widow lies face up."""
        return self._r.widow_face_up

    @property
    def active_seats(self) -> tuple[int, ...]:
        """Seats still in the game, in seat order."""
        return self._active

    @property
    def taken_from_pile(self) -> Card | None:
        """The card the seat to move took from the discard pile this turn (R4.2), if any."""
        return self._r.taken_from_pile

    def hand(self, seat: int) -> tuple[Card, ...]:
        """Seat ``seat``'s cards (all-seeing: for tests, records and the table, not for players).

        Raises:
            SeatError: for a seat that is not in this game (so for every seat-taking method below).
        """
        seat = self._check_seat(seat)
        return tuple(self._r.hands[seat])

    def hand_value(self, seat: int) -> HandValue:
        """The value of seat ``seat``'s three cards in points (all-seeing).

        Raises:
            SeatError: for a seat that is not in this game, or one out of it (it holds no cards).
        """
        seat = self._check_seat(seat)
        hand = self._r.hands[seat]
        if len(hand) != 3:
            raise SeatError(f"seat {seat} holds {len(hand)} cards, not three: it has no hand value now")
        return value_from_half(self._value(hand))

    def next_seat(self, seat: int) -> int:
        """The seat still in the game that plays after ``seat`` (clockwise, R2.1, R6.2)."""
        seat = self._check_seat(seat)
        return self._r.next[seat]

    def known_cards(self, seat: int) -> tuple[Card, ...]:
        """Cards seat ``seat`` is publicly known to hold: taken face up and not given away since."""
        seat = self._check_seat(seat)
        return tuple(self._r.known_cards[seat])

    def unseen_by(self, seat: int) -> tuple[Card, ...]:
        """Cards seat ``seat`` has no sight of (the stock and others' hidden cards), in index order:
        not its own hand, the discard pile or set-aside widows (R4.4), the face-up widow, or cards
        others are known to hold."""
        seat = self._check_seat(seat)
        r = self._r
        seen = set(r.hands[seat]) | set(r.discard_pile)
        if r.widow_face_up:
            seen.update(r.widow)
        for known in r.known_cards:
            seen.update(known)
        return tuple(card for card in full_deck(self.rules.deck) if card not in seen)

    def remaining(self, seat: int) -> int:
        """Losses seat ``seat`` can still take before it is out (R2.4)."""
        seat = self._check_seat(seat)
        return self._remaining[seat]

    def lives(self, seat: int) -> int:
        """Lives shown for seat ``seat``: remaining losses without the grace life (R2.3)."""
        seat = self._check_seat(seat)
        return max(self._remaining[seat] - self._grace, 0)

    def on_grace(self, seat: int) -> bool:
        """True when seat ``seat`` has only the grace life left ("on the dole/bus", R2.3)."""
        seat = self._check_seat(seat)
        return self._grace == 1 and self._remaining[seat] == 1

    def is_out(self, seat: int) -> bool:
        """True when seat ``seat`` has been eliminated."""
        seat = self._check_seat(seat)
        return self._out[seat]

    @property
    def standings(self) -> tuple[Standing, ...]:
        """Every seat with its place, best first (R2.5): players still in by remaining losses,
        then the eliminated in reverse order of elimination; ties share a place and the next
        place skips as many numbers as were shared (1, 2, 2, 4)."""
        remaining, grace = self._remaining, self._grace
        order: list[list[int]] = []
        for seat in sorted(self.active_seats, key=lambda seat: -remaining[seat]):
            if order and remaining[order[-1][0]] == remaining[seat]:
                order[-1].append(seat)
            else:
                order.append([seat])
        order.extend(list(group) for group in reversed(self._eliminations))
        standings: list[Standing] = []
        place = 1
        for group in order:
            for seat in group:
                left = remaining[seat]
                standings.append(
                    Standing(seat, place, left, max(left - grace, 0), grace == 1 and left == 1, self._out[seat])
                )
            place += len(group)
        return tuple(standings)

    def round_events(self, number: int | None = None) -> tuple[Event, ...]:
        """Round ``number``'s events (default: this round's so far), all-seeing, from its
        ``RoundStarted``.

        Raises:
            ArgumentError: for a round this game has not dealt (numbers count from the game's
                first round, or from a position's round).
        """
        if number is None:
            return tuple(self.events[self._r.start :])
        first = self.round_logs[0].round if self.round_logs else 1
        if isinstance(number, bool) or not isinstance(number, int) or not first <= number <= self.round:
            dealt = f"rounds {first}-{self.round}" if self.round > first else f"round {self.round}"
            raise ArgumentError(f"round {number!r} is not a round of this game: it has dealt {dealt}")
        out: list[Event] = []
        inside = number == first and bool(self.events) and not isinstance(self.events[0], RoundStarted)
        for event in self.events:
            if isinstance(event, RoundStarted):
                if inside:
                    break
                inside = event.round == number
            if inside:
                out.append(event)
        return tuple(out)

    def events_for(self, seat: int) -> list[Event]:
        """The whole game's events as seat ``seat`` may see them."""
        seat = self._check_seat(seat)
        return [event.for_seat(seat) for event in self.events]

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self) -> tuple[Action, ...]:
        """The actions the current seat may take, in a fixed order; ``()`` once the game is over
        or while a chance step is due."""
        r = self._r
        if r.legal is None:  # asked again for the same state by a view and by apply's check
            r.legal = self._legal()
        return r.legal

    def _legal(self) -> tuple[Action, ...]:
        phase = self.phase
        r = self._r
        if phase is _PHASE_DISCARD:
            taken = r.taken_from_pile
            if taken is None:
                return tuple(map(DISCARDS.__getitem__, r.hands[r.to_move]))
            return tuple([DISCARDS[card] for card in r.hands[r.to_move] if card != taken])
        if phase is _PHASE_TURN:
            if self._draw:  # the eight possible answers are built once
                stock = bool(r.stock) or len(r.discard_pile) > 1
                knock = r.knocker is None and (not self._knock_limits or self._knock_refusal() is None)
                return _DRAW_TURNS[stock * 4 + bool(r.discard_pile) * 2 + knock]
            if not r.widow_face_up:
                actions: list[Action] = [_EXCHANGE_ALL, _PASS]
            else:
                actions = self._exchanges()
                actions += (_EXCHANGE_ALL, _PASS)
            if self._knock_refusal() is None:
                actions.append(_KNOCK)
            return tuple(actions)
        if phase is _PHASE_LOOK:
            return (_LOOK, _THROW_DOWN)
        if phase is _PHASE_DEALER_CHOICE:
            return (_KEEP, _TAKE_WIDOW)
        return ()  # OVER, CHANCE

    def _exchanges(self) -> list[Action]:
        r = self._r
        hand = r.hands[r.to_move]
        widow = r.widow
        actions: list[Action] = [_SINGLE_EXCHANGES[give * 52 + take] for give in hand for take in widow]  # type: ignore[misc]
        if self.rules.exchange == "any":
            actions += two_card_exchanges(hand, widow)
        return actions

    def is_legal(self, action: Action | str) -> bool:
        """True when ``apply(action)`` would be accepted now."""
        try:
            self._check(self._parse(action))
        except IllegalActionError:
            return False
        return True

    # ------------------------------------------------------------------ applying actions

    def apply(self, action: Action | str, *, seat: int | None = None) -> None:
        """Play ``action`` (an action or its notation, e.g. ``"discard Td"``) for the current seat.

        If ``seat`` is given it must be the current seat. The round ends by itself when the rules
        say so, settled by this move (``last_result``); then the next deal is due, taken at once
        from the game's chance source unless the game was made with ``explicit_chance=True``.
        So is a reshuffle (R4.3) when the seat draws from an empty stock: the draw is done once
        the reshuffle is dealt.

        Raises:
            ActionError: for text that is not an action.
            SeatError: for a ``seat`` that is not in this game.
            IllegalActionError: when the rules forbid it (or it is not ``seat``'s turn: code
                ``not_your_turn``; or a chance step is due: ``chance_due``); the error names the
                rule and holds the refusal as data, and the game is left exactly as it was.
            CardError: when the chance source gives a reshuffle that is not a permutation (the
                game is left as it was).
        """
        if not isinstance(action, _ACTION_TYPES):  # text, or refused
            action = self._parse(action)
        r = self._r
        if seat is not None:
            seat = self._check_seat(seat)
            if self.phase is _PHASE_OVER:
                raise refusal("game_over", seat=seat, action=action)
            if self._step is None and seat != r.to_move:
                raise refusal("not_your_turn", seat=seat, action=action, seats=(r.to_move,))
        if action not in self.legal_actions():
            self._check(action)  # raises: it refuses just what legal_actions() leaves out, naming the rule
        if not r.stock and isinstance(action, Draw) and action.source == STOCK:
            rest = tuple(r.discard_pile[:-1])
            step = ChanceStep("reshuffle", self.round, len(self.round_logs[-1].reshuffles) + 1, rest)  # R4.3
            if self._explicit:
                self._waiting = (r.to_move, self.phase)
                self._due(step)
                return
            self._reshuffle(self._chance_order(step, None))  # first, so that a bad order changes nothing
        self._act(r.to_move, action)
        if self._step is not None:
            self._take_chance()

    def _act(self, actor: int, action: Action) -> None:
        """Log ``action`` of ``actor`` (the seat to move) and play it; it has been checked."""
        self._r.legal = None
        self.round_logs[-1].actions.append((actor, action))
        if isinstance(action, Discard):
            self._do_discard(actor, action.card)
        elif isinstance(action, Draw):
            self._do_draw(actor, action)
        elif isinstance(action, Knock):
            self._do_knock(actor)
        elif isinstance(action, Exchange):
            self._do_exchange(actor, action)
        elif isinstance(action, ExchangeAll):
            self._do_exchange_all(actor)
        elif isinstance(action, Pass):
            self._do_pass(actor)
        elif isinstance(action, (Keep, TakeWidow)):
            self._do_dealer_choice(actor, action)
        else:
            self._do_blind(actor, action)

    # ------------------------------------------------------------------ chance steps

    def deal(self, outcome: Sequence[Card] | int | None = None) -> None:
        """Take the chance step that is due (:attr:`chance_step`) with ``outcome``: for the first
        dealer a seat (R3.1); for a deal the deck order, every card of the deck, top card first
        (R3.2); for a reshuffle the new stock, the discard pile's cards but its top, top first
        (R4.3). ``None`` asks the game's chance source for it. Then play goes on to the next move
        or chance step (a 31 on the deal, R5.2, ends that round at once: the next deal is due).

        Raises:
            IllegalActionError: when no chance step is due (code ``no_chance_due``).
            SeatError: for a first dealer that is not a seat.
            CardError: for an order that is not a permutation of ``chance_step.cards``.
            ArgumentError: for an outcome of the wrong kind (an order for the dealer, a seat for
                a deal).
            In each case the game is left exactly as it was.
        """
        step = self._step
        if step is None:
            raise refusal("no_chance_due", legal=self.legal_actions())
        if step.kind == "dealer":
            self._resolve_dealer(outcome)
        else:
            if outcome is not None and (isinstance(outcome, (int, str)) or not isinstance(outcome, Sequence)):
                raise ArgumentError(
                    f"a {step.kind} is an order of {len(step.cards)} cards (a list of Cards, top first), "
                    f"not {outcome!r}"
                )
            order = self._chance_order(step, outcome)
            self._step = None
            if step.kind == "deal":
                self._start_deal(order)
            else:
                assert self._waiting is not None
                actor, self.phase = self._waiting
                self._waiting = None
                self._reshuffle(order)
                self._act(actor, _DRAW_STOCK)
        self._take_chance()

    def _due(self, step: ChanceStep) -> None:
        self._step = step
        self.phase = _PHASE_CHANCE
        self._r.legal = None

    def _take_chance(self) -> None:
        """Without explicit chance, take every chance step due from the source (a loop: no run of
        dealt 31s can exhaust the stack)."""
        while self._step is not None and not self._explicit:
            step = self._step
            if step.kind == "dealer":
                self._resolve_dealer(None)
            else:
                order = self._chance_order(step, None)
                self._step = None
                self._start_deal(order)

    def _resolve_dealer(self, outcome: object) -> None:
        players = self.players
        if outcome is None:
            outcome = self._chance.first_dealer(players)
        seat = whole_number(outcome)
        if seat is None or not 0 <= seat < players:
            raise SeatError(
                f"the first dealer is a seat of this {players}-player game, 0-{players - 1}, not {outcome!r}"
            )
        self.dealer = seat
        self._step = ChanceStep("deal", 1, cards=full_deck(self.rules.deck))

    def _chance_order(self, step: ChanceStep, given: Sequence[Card] | None) -> list[Card]:
        """The order of ``step``'s cards: ``given``, or the source's; checked unless the source is
        trusted to shuffle only the cards it is given."""
        deal = step.kind == "deal"
        if given is None:
            if deal:
                order = self._chance.deal_order(step.cards, step.round)
            else:
                order = self._chance.reshuffle_order(step.cards, step.round, step.number)
            if self._trusted:  # every simulated deal: nothing to check or say
                return order
        else:
            order = list(given)
            if not all(isinstance(card, Card) for card in order):
                raise ArgumentError(f"an order is a list of Cards (parse_cards('As Td ...')), not {given!r}")
        what = f"round {step.round}: the deck order" if deal else f"round {step.round}: reshuffle {step.number}"
        check_permutation(order, step.cards, what)
        return order

    @staticmethod
    def _parse(action: Action | str) -> Action:
        if isinstance(action, str):
            return parse_action(action)
        if not isinstance(action, _ACTION_TYPES):
            raise ActionError(f"not an action: {action!r}; give an Action such as Draw('stock') or its text")
        return action

    def _check_seat(self, seat: object) -> int:
        """``seat`` as an ``int`` (numpy integers too).

        Raises:
            SeatError: unless it is a seat of this game.
        """
        number = whole_number(seat)
        if number is None or not 0 <= number < self.players:
            raise SeatError(f"seat {seat!r} is not in this {self.players}-player game: seats are 0-{self.players - 1}")
        return number

    def __getstate__(self) -> dict[str, object]:
        state = self.__dict__.copy()
        del state["_half"]  # the shared hand-value table: looked up again on unpickling
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self._rule_flags()

    def _rule_flags(self) -> None:
        """What every move reads of the rules, kept on the game (cheaper than through ``rules``):
        remade on unpickling, so a game pickled before a field was added still loads."""
        rules = self.rules
        self._half = half_points(rules)  # the shared hand-value table
        self._grace = 1 if rules.grace_life else 0
        # whether a knock may be refused for more than a knock before it (R6.3, R6.4): if not, the
        # legal actions need no _knock_refusal() call
        self._knock_limits = rules.knock_from_round == 2 or bool(rules.min_knock_value)
        self._draw = rules.mode == "draw"
        self._stock_showdown = rules.stock_exhausted == "showdown"  # R4.3
        self._max_turns = rules.max_turns  # R6.7

    def copy(self) -> Game:
        """An independent copy of the game in its current state, made cheaply: events and cards
        are immutable and shared, the lists are copied, and so is the random source, so both
        games go on alike."""
        twin = Game.__new__(Game)
        state = self.__dict__.copy()
        state["_r"] = self._r.copy()
        state["_remaining"] = list(self._remaining)
        state["_out"] = list(self._out)
        state["_eliminations"] = list(self._eliminations)
        state["events"] = list(self.events)
        state["round_logs"] = [
            dataclasses.replace(log, actions=list(log.actions), reshuffles=list(log.reshuffles))
            for log in self.round_logs
        ]
        state["_chance"] = copy.deepcopy(self._chance)
        twin.__dict__.update(state)
        return twin

    def _refuse(
        self,
        code: RefusalCode,
        action: Action,
        *,
        cards: tuple[Card, ...] = (),
        among: tuple[Card, ...] = (),
        seats: tuple[int, ...] = (),
        values: tuple[HandValue, ...] = (),
    ) -> IllegalActionError:
        """The refusal ``code`` of ``action`` by the seat to move, with the actions legal now."""
        return refusal(
            code,
            seat=self._r.to_move,
            action=action,
            cards=cards,
            among=among,
            seats=seats,
            values=values,
            legal=self.legal_actions(),
        )

    def _check(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` unless ``action`` is legal now; changes nothing."""
        phase = self.phase
        if phase is _PHASE_OVER:
            raise refusal("game_over", action=action)
        if phase is _PHASE_CHANCE:
            raise refusal("chance_due", action=action)
        if phase is not _PHASE_LOOK and isinstance(action, (Look, ThrowDown)):
            raise self._refuse("not_blind_phase", action)
        if phase is not _PHASE_DEALER_CHOICE and isinstance(action, (Keep, TakeWidow)):
            raise self._refuse("not_dealer_choice", action)
        if phase is _PHASE_DISCARD:
            self._check_discard(action)
        elif phase is _PHASE_TURN:
            if isinstance(action, Knock):
                refused = self._knock_refusal()
                if refused is not None:
                    code, seats, values = refused
                    raise self._refuse(code, action, seats=seats, values=values)
            elif self.rules.mode == "draw":
                self._check_draw(action)
            else:
                self._check_widow_turn(action)
        elif phase is _PHASE_LOOK:
            if not isinstance(action, (Look, ThrowDown)):
                raise self._refuse("must_look", action)
        elif not isinstance(action, (Keep, TakeWidow)):
            raise self._refuse("must_choose_hand", action)

    def _check_discard(self, action: Action) -> None:
        if not isinstance(action, Discard):
            raise self._refuse("must_discard", action)
        r = self._r
        hand = r.hands[r.to_move]
        if action.card not in hand:
            raise self._refuse("discard_not_in_hand", action, cards=(action.card,), among=tuple(hand))
        taken = r.taken_from_pile
        if taken is not None and action.card == taken:
            raise self._refuse("discard_taken_card", action, cards=(action.card,))

    def _check_draw(self, action: Action) -> None:
        r = self._r
        if isinstance(action, Draw):
            if action.source == PILE and not r.discard_pile:
                raise self._refuse("pile_empty", action)
            if action.source == STOCK and not r.stock and len(r.discard_pile) < 2:
                raise self._refuse("stock_empty", action)
            return
        if isinstance(action, Discard):
            raise self._refuse("draw_first", action)
        raise self._refuse("draw_or_knock", action)

    def _check_widow_turn(self, action: Action) -> None:
        if isinstance(action, (Pass, ExchangeAll)):
            return
        if not isinstance(action, Exchange):
            raise self._refuse("widow_turn", action)
        r = self._r
        if not r.widow_face_up:
            raise self._refuse("widow_face_down", action)
        if len(action.give) == 2 and self.rules.exchange != "any":
            raise self._refuse("exchange_two_needs_any", action)
        hand, widow = r.hands[r.to_move], r.widow
        for card in action.give:
            if card not in hand:
                raise self._refuse("exchange_not_in_hand", action, cards=(card,), among=tuple(hand))
        for card in action.take:
            if card not in widow:
                raise self._refuse("exchange_not_in_widow", action, cards=(card,), among=tuple(widow))

    def _knock_refusal(self) -> tuple[RefusalCode, tuple[int, ...], tuple[HandValue, ...]] | None:
        """Why the seat to move may not knock now (R6.1, R6.3, R6.4), with the refusal's seats and
        values, or ``None`` if it may."""
        r = self._r
        if r.knocker is not None:
            return "second_knock", (r.knocker,), ()
        if self.rules.knock_from_round == 2 and r.turn < len(r.active):
            return "knock_too_early", (), ()
        need = self.rules.min_knock_value
        if need:
            half = self._value(r.hands[r.to_move])
            if half < 2 * need:
                return "knock_too_low", (), (need, value_from_half(half))
        return None

    # ------------------------------------------------------------------ the moves

    def _do_draw(self, seat: int, action: Draw) -> None:
        r = self._r
        if action.source == PILE:
            card = r.discard_pile.pop()
            r.taken_from_pile = card
            r.known_cards[seat].append(card)
            r.seats = r.statuses[seat] = None
            self._emit_public(_FROM_PILE[seat, card])
        else:
            card = r.stock.pop()
            r.taken_from_pile = None
            event, hidden = _FROM_STOCK[seat, card]
            self._emit_private(event, hidden)
        r.hands[seat].append(card)
        self.phase = _PHASE_DISCARD

    def _reshuffle(self, order: list[Card]) -> None:
        """R4.3: the discard pile but its top card becomes the new stock, in ``order`` (top first)."""
        r = self._r
        self.round_logs[-1].reshuffles.append(tuple(order))
        r.stock = order[::-1]
        r.discard_pile = r.discard_pile[-1:]
        self._emit(Reshuffled(len(order)))

    def _do_discard(self, seat: int, card: Card) -> None:
        r = self._r
        hand = r.hands[seat]
        hand.remove(card)
        known = r.known_cards[seat]
        if card in known:
            known.remove(card)
            r.seats = r.statuses[seat] = None
        r.discard_pile.append(card)
        r.taken_from_pile = None
        self._emit_public(_DISCARDED[seat, card])
        if self._half[hand[0] * _AB + hand[1] * 52 + hand[2]] >= BLITZ_HALF:  # R5.4 (the hot path: inlined)
            self._end_round("blitz", r.knocker, (seat,), blitz_losses(r.active, seat, r.knocker is not None))
        else:
            self._finish_turn(seat)

    def _do_knock(self, seat: int) -> None:
        r = self._r
        r.knocker = seat
        r.final_turns = len(r.active) - 1  # R6.2
        revealed = self._turn_widow_up()  # R7.2: a knock in the opening turns the widow face up too
        self._emit(Acted(seat, _KNOCK, revealed=revealed))
        self._finish_turn(seat)

    def _turn_widow_up(self) -> tuple[Card, ...]:
        """R7.2: the widow lies face up from now on; the cards this turned face up (``()`` if none)."""
        r = self._r
        revealed = () if r.widow_face_up else tuple(r.widow)
        r.widow_face_up = True
        return revealed

    def _do_exchange(self, seat: int, action: Exchange) -> None:
        r = self._r
        hand, widow, known = r.hands[seat], r.widow, r.known_cards[seat]
        for give, take in zip(action.give, action.take, strict=True):
            hand[hand.index(give)] = take
            widow[widow.index(take)] = give
            if give in known:
                known.remove(give)
            known.append(take)
        r.seats = r.statuses[seat] = None
        r.passes = 0
        self._emit(Acted(seat, action, action.take))
        self._after_turn(seat)

    def _do_exchange_all(self, seat: int) -> None:
        r = self._r
        hand = r.hands[seat]
        taken = tuple(r.widow)
        face_down = not r.widow_face_up
        r.hands[seat], r.widow = list(taken), hand
        r.widow_face_up = True  # R7.2: the old hand goes face up
        r.known_cards[seat] = [] if face_down else list(taken)
        r.seats = r.statuses[seat] = None
        r.passes = 0
        self._emit(Acted(seat, _EXCHANGE_ALL, taken, private=face_down, revealed=tuple(hand)))
        self._after_turn(seat)

    def _after_turn(self, seat: int) -> None:
        """R5.4: a hand back to three cards is checked for a blitz; else the turn is over."""
        r = self._r
        if self._value(r.hands[seat]) >= BLITZ_HALF:
            self._end_round("blitz", r.knocker, (seat,), blitz_losses(r.active, seat, r.knocker is not None))
        else:
            self._finish_turn(seat)

    def _do_pass(self, seat: int) -> None:
        r = self._r
        self._emit(Acted(seat, _PASS, revealed=self._turn_widow_up()))  # R7.2: after the opening it lies face up
        if r.knocker is None:  # R7.4: passes after a knock do not count
            r.passes += 1
            if r.passes == len(r.active):  # R7.3
                if self.rules.all_pass == "new_widow" and len(r.stock) >= 3:
                    self._new_widow()
                else:
                    r.turn += 1
                    self._showdown("all_pass", None)
                    return
        self._finish_turn(seat)

    def _new_widow(self) -> None:
        r = self._r
        set_aside = tuple(r.widow)
        r.discard_pile.extend(set_aside)
        r.widow = [r.stock.pop() for _ in range(3)]
        r.widow_face_up = True
        r.passes = 0
        self._emit(NewWidow(set_aside, tuple(r.widow)))

    def _do_dealer_choice(self, seat: int, action: Keep | TakeWidow) -> None:
        r = self._r
        r.widow_face_up = True
        if isinstance(action, Keep):
            self._emit(Acted(seat, _KEEP, revealed=tuple(r.widow)))
        else:
            taken = tuple(r.widow)
            r.hands[seat], r.widow = list(taken), r.hands[seat]
            self._emit(Acted(seat, _TAKE_WIDOW, taken, private=True, revealed=tuple(r.widow)))
            if self._value(r.hands[seat]) >= BLITZ_HALF:  # R5.4
                self._end_round("blitz", None, (seat,), blitz_losses(r.active, seat, False))
                return
        self.phase = _PHASE_TURN
        r.to_move = r.next[self.dealer]

    def _do_blind(self, seat: int, action: Action) -> None:
        r = self._r
        r.seats = None  # who has looked
        if isinstance(action, ThrowDown):
            self._emit(Acted(seat, _THROW_DOWN))
            r.looked = [True] * self.players
            r.statuses = [None] * self.players
            self._showdown("throw_down", seat)  # R6.6: the caller counts as the knocker
            return
        r.looked[seat] = True
        r.statuses[seat] = None
        self._emit(Acted(seat, _LOOK))
        r.to_move = r.next[seat]
        if all(r.looked[s] for s in r.active):
            self.phase = _PHASE_TURN

    def _finish_turn(self, seat: int) -> None:
        """Close a completed turn: final turns after a knock (R6.2), an empty stock (R4.3), the
        turn limit (R6.7); otherwise the next seat plays."""
        r = self._r
        r.turn += 1
        if r.knocker is not None and seat != r.knocker:
            r.final_turns -= 1
            if r.final_turns == 0:
                self._showdown("knock", r.knocker)
                return
        if self._stock_showdown and not r.stock:
            self._showdown("stock_exhausted", None)  # R4.3: a knock still waiting is void
            return
        if r.turn >= self._max_turns:
            self._showdown("max_turns", None)
            return
        self.phase = _PHASE_TURN
        r.taken_from_pile = None
        r.to_move = r.next[seat]

    # ------------------------------------------------------------------ ending rounds

    def _showdown(self, end: RoundEnd, knocker: int | None) -> None:
        """R6.5: every hand is shown; the lowest loses, with the knocker rules of ``knock_penalty``."""
        hands = self._r.hands
        halves = {seat: self._value(hands[seat]) for seat in self._r.active}
        penalty = KNOCK_PENALTIES[self.rules.knock_penalty]
        self._end_round(end, knocker, (), showdown_charges(halves, knocker, penalty, end))

    def _end_round(
        self,
        end: RoundEnd,
        knocker: int | None,
        blitz: tuple[int, ...],
        losses: tuple[Loss, ...],
    ) -> None:
        """Settle the round (R2.4–R2.6) and report it; then the game is over, or the next deal is due."""
        r = self._r
        after, going, saved = charge(self._remaining, r.active, losses)
        for seat in going:
            self._out[seat] = True
        self._remaining = list(after)
        r.seats = None
        r.statuses = [None] * self.players
        if going:
            self._eliminations.append(going)
            self._active = tuple(seat for seat in self._active if seat not in going)
        hands = tuple(tuple(hand) if hand else None for hand in r.hands)  # a seat out holds no cards
        values = tuple(None if hand is None else HAND_VALUES[self._value(hand)] for hand in hands)
        result = RoundResult(
            round=self.round,
            dealer=self.dealer,
            end=end,
            knocker=knocker,
            blitz=blitz,
            hands=hands,
            values=values,
            losses=losses,
            remaining=after,
            eliminated=going,
            saved_by_r2_6=saved,
            turns=r.turn,
        )
        self.last_result = result
        self._shown = tuple(result.for_seat(seat) for seat in range(self.players))
        self.round_logs[-1].result = result
        self._emit(RoundEnded(result))
        still_in = self.active_seats
        if len(still_in) == 1:  # R2.5
            self.winner = still_in[0]
            self.phase = _PHASE_OVER
            self._emit(GameOver(still_in[0]))
            return
        if self._stop_round is not None and self.round >= self._stop_round:
            self.phase = _PHASE_OVER  # a search that asked for this round only
            return
        self._due(ChanceStep("deal", self.round + 1, cards=full_deck(self.rules.deck)))

    # ------------------------------------------------------------------ dealing

    def _start_deal(self, deck: list[Card]) -> None:
        """R3: deal ``deck`` (top first) three cards to each seat still in, from the dealer's left.
        The deal passes clockwise to the next player still in (R3.1), but for the first deal. A 31
        on the deal (R5.2) ends the round at once."""
        if self.round:
            dealer = (self.dealer + 1) % self.players
            while self._out[dealer]:
                dealer = (dealer + 1) % self.players
            self.dealer = dealer
        self.round += 1
        rules = self.rules
        r = self._begin_round()
        active = r.active
        self.round_logs.append(RoundLog(self.round, self.dealer, tuple(deck)))
        first = r.next[self.dealer]
        order = active[active.index(first) :] + active[: active.index(first)]
        at = 0
        for _ in range(3):
            for seat in order:
                r.hands[seat].append(deck[at])
                at += 1
        r.looked = [not rules.throw_down] * self.players
        if rules.mode == "draw":
            r.discard_pile = [deck[at]]  # R3.3
            r.stock = deck[at + 1 :][::-1]
        else:
            r.widow = list(deck[at : at + 3])  # R3.4
            r.stock = deck[at + 3 :][::-1]
        self._emit(RoundStarted(self.round, self.dealer, active, r.discard_pile[-1] if r.discard_pile else None))
        dealt = dealt_blitz({seat: self._value(r.hands[seat]) for seat in active})  # R5.2, R5.5
        if dealt is not None:
            self._end_round("dealt_blitz", None, dealt[0], dealt[1])
            return
        if rules.throw_down:
            self.phase = _PHASE_LOOK
            r.to_move = first
        elif rules.dealer_hand:
            self.phase = _PHASE_DEALER_CHOICE
            r.to_move = self.dealer
        else:
            self.phase = _PHASE_TURN
            r.to_move = first

    def _begin_round(self) -> _Round:
        """A new round's empty state: who is in and who plays after whom (R6.2: the out are skipped)."""
        players = self.players
        out = self._out
        nxt = []
        for seat in range(players):
            after = (seat + 1) % players
            while out[after]:
                after = (after + 1) % players
            nxt.append(after)
        # kept for active_seats, which a loop may ask every turn
        self._active = tuple(seat for seat in range(players) if not out[seat])
        self._r = _Round(
            active=self._active,
            next=tuple(nxt),
            to_move=0,
            hands=[[] for _ in range(players)],
            stock=[],
            discard_pile=[],
            widow=[],
            looked=[True] * players,
            known_cards=[[] for _ in range(players)],
            start=len(self.events),
            seen=[[] for _ in range(players)],
            statuses=[None] * players,
        )
        return self._r

    def _emit(self, event: Event) -> None:
        """Log an event, and each seat's form of it in that seat's history of the round."""
        if isinstance(event, Acted) and event.private:
            self._emit_private(event, event.for_seat(-1))
        elif isinstance(event, RoundEnded):  # each seat's form of the result, as _end_round made it just now
            self.events.append(event)
            for shown, history in zip(self._shown, self._r.seen, strict=True):
                history.append(event if shown is event.result else RoundEnded(shown))
        else:
            self._emit_public(event)

    def _emit_public(self, event: Event) -> None:
        """:meth:`_emit` for an event every seat sees alike: most moves'."""
        self.events.append(event)
        for history in self._r.seen:
            history.append(event)

    def _emit_private(self, event: Acted, hidden: Acted) -> None:
        """:meth:`_emit` for a private move's event: ``hidden`` is its form for the other seats."""
        self.events.append(event)
        seen = self._r.seen
        for history in seen:
            history.append(hidden)
        seen[event.seat][-1] = event  # the actor sees its own cards

    def _value(self, hand: list[Card] | tuple[Card, ...]) -> int:
        a, b, c = hand
        return self._half[a * _AB + b * 52 + c]

    # ------------------------------------------------------------------ views

    def _table(self) -> TableFields:
        """The fields a :class:`~thirtyone.views.PublicView` starts with (players … turn), in order."""
        r = self._r
        draw = self._draw
        seats = r.seats
        if seats is None:
            statuses, grace = r.statuses, self._grace
            for s, status in enumerate(statuses):
                if status is None:  # made as tuple.__new__ makes it: SeatStatus's own __new__ is Python's
                    left = self._remaining[s]
                    fields = (s, left, max(left - grace, 0), grace == 1 and left == 1, self._out[s], r.looked[s])
                    statuses[s] = tuple.__new__(SeatStatus, (*fields, tuple(r.known_cards[s])))
            seats = r.seats = tuple(statuses)  # type: ignore[arg-type]  # every one made now
        phase = self.phase
        return (
            self.players,
            self.rules,
            self.round,
            self.dealer,
            phase,
            None if phase is _PHASE_OVER or self._step is not None else r.to_move,  # current_seat
            r.discard_pile[-1] if r.discard_pile and draw else None,
            len(r.discard_pile) if draw else 0,
            tuple(r.widow) if not draw and r.widow_face_up else None,
            not draw and not r.widow_face_up,
            len(r.stock),
            seats,
            r.knocker,
            r.turn,
        )

    def view(self, seat: int) -> PlayerView:
        """What seat ``seat`` may know now (R4.4, R6.6); see :class:`~thirtyone.views.PlayerView`.

        Raises:
            SeatError: for a seat that is not in this game.
        """
        if type(seat) is not int or not 0 <= seat < self.players:  # a bot's seat: no checking call
            seat = self._check_seat(seat)
        r = self._r
        own = r.hands[seat]
        hand = value = None
        if own and r.looked[seat] and not self._out[seat] and self.phase is not _PHASE_OVER:
            hand = tuple(own)
            if len(own) == 3:
                a, b, c = own
                value = HAND_VALUES[self._half[a * _AB + b * 52 + c]]
        table = self._table()
        mine = table[5] == seat  # the current seat
        return build_player_view(
            table,
            tuple(r.seen[seat]),  # history
            self._shown[seat] if self._shown else None,
            seat,
            hand,
            value,
            r.taken_from_pile if mine else None,
            self.legal_actions() if mine else (),
        )

    def public_view(self) -> PublicView:
        """What anyone at the table may know now, a spectator too (R4.4): no player's hand, cards
        drawn unseen blanked, the last result as shown at the table (R5.1: after a 31 only the 31);
        see :class:`~thirtyone.views.PublicView`."""
        return PublicView(
            *self._table(),
            tuple(event.for_seat(-1) for event in self.events[self._r.start :]),  # history
            None if self.last_result is None else self.last_result.public(),
        )

    def __repr__(self) -> str:
        return (
            f"<Game {self.rules.describe()}, {self.players} players, round {self.round}, "
            f"{self.phase.value}, seat {self.current_seat} to move>"
        )


def _chance(seed: object, chance: Chance | None) -> Chance:
    """The game's chance: ``chance``, or ``SeededChance(seed)`` for a whole-number seed or ``None``.

    Raises:
        ArgumentError: for another seed, a chance that is not one, or both a seed and a chance.
    """
    if chance is not None:
        if seed is not None:
            raise ArgumentError("give a seed or a chance, not both: the chance decides every deal")
        if not all(callable(getattr(chance, name, None)) for name in ("first_dealer", "deal_order", "reshuffle_order")):
            raise ArgumentError(f"chance must be a Chance (such as SeededChance(7)), not {chance!r}")
        return chance
    number = whole_number(seed)
    if seed is not None and number is None:
        raise ArgumentError(f"seed is a whole number (or None for a random game), not {seed!r}")
    return SeededChance(number)
