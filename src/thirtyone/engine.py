"""The game engine: :class:`Game` plays one match under any :class:`~thirtyone.rules.Rules`.

A match is a series of rounds (deals) until one player is left (R2.5). The engine deals by
itself, ends rounds by itself (blitz, showdown, R5, R6) and deals the next one, so a caller
only ever chooses among ``legal_actions()`` and calls ``apply``.

>>> game = Game(Rules.preset("scat"), players=3, seed=7)
>>> game.round, game.phase.value, len(game.legal_actions()) > 0
(1, 'turn', True)
>>> while not game.is_over:
...     game.apply(game.legal_actions()[0])
>>> game.winner == game.standings[0].seat, game.standings[0].place
(True, 1)
"""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass, field

from thirtyone.actions import (
    PILE,
    STOCK,
    Action,
    Discard,
    Draw,
    Exchange,
    ExchangeAll,
    Keep,
    Knock,
    Look,
    Pass,
    TakeWidow,
    ThrowDown,
    parse_action,
)
from thirtyone.cards import Card, format_cards, full_deck
from thirtyone.chance import Chance, SeededChance, check_permutation
from thirtyone.errors import ActionError, IllegalActionError, RulesError, SeatError
from thirtyone.events import (
    Acted,
    Event,
    GameOver,
    Loss,
    NewWidow,
    Reshuffled,
    RoundEnd,
    RoundEnded,
    RoundResult,
    RoundStarted,
)
from thirtyone.position import Position
from thirtyone.rules import Rules
from thirtyone.scoring import BLITZ_HALF, HandValue, half_points, value_from_half
from thirtyone.views import Phase, PlayerView, SeatStatus, Standing

__all__ = ["Game", "RoundLog"]

_AB = 52 * 52
_DRAW_STOCK = Draw(STOCK)
_DRAW_PILE = Draw(PILE)
_KNOCK = Knock()
_PASS = Pass()
_EXCHANGE_ALL = ExchangeAll()
_KEEP = Keep()
_TAKE_WIDOW = TakeWidow()
_LOOK = Look()
_THROW_DOWN = ThrowDown()
_DISCARDS = tuple(Discard(Card(i)) for i in range(52))
_ACTION_TYPES = (Draw, Discard, Knock, Exchange, ExchangeAll, Pass, Keep, TakeWidow, Look, ThrowDown)
_NO_KNOCK_SHOWDOWN = {  # why a showdown without a knocker came
    "all_pass": "everyone passed, R7.3",
    "max_turns": "the turn limit, R6.7",
    "stock_exhausted": "the stock ran out, R4.3",
}


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


class Game:
    """One match of Thirty-One: ``players`` seats (0 … players-1, clockwise), each starting with
    ``rules.lives`` lives, dealt and played until one is left. ``rules`` is a :class:`Rules` or a
    preset's name (default ``scat``).

    Chance comes from ``chance`` if given, otherwise from ``SeededChance(seed)``: the same seed
    and the same actions always give the same game.

    Raises:
        RulesError: when the rules cannot be dealt to ``players`` players (R2.1).
        CardError: when a scripted chance gives a deck order that is not a permutation.
    """

    phase: Phase
    """What the game waits for (see :class:`~thirtyone.views.Phase`)."""

    # The current round's state, set by _deal.
    _active: tuple[int, ...]
    _next: list[int]
    _hands: list[list[Card]]
    _known: list[list[Card]]
    _looked: list[bool]
    _stock: list[Card]  # top card last
    _pile: list[Card]  # top card last
    _widow: list[Card]
    _widow_up: bool
    _knocker: int | None
    _final_turns: int
    _turns: int
    _passes: int
    _taken: Card | None
    _seat: int
    _round_start: int
    _seen: list[list[Event]]  # each seat's history of the round, as that seat may see it

    def __init__(
        self,
        rules: Rules | str | None = None,
        players: int = 4,
        *,
        seed: int | None = None,
        chance: Chance | None = None,
    ) -> None:
        if rules is None or isinstance(rules, str):
            rules = Rules.preset("scat" if rules is None else rules)
        elif not isinstance(rules, Rules):
            raise RulesError(f"rules must be a Rules or a preset name such as 'scat', not {rules!r}")
        rules.check_players(players)
        self._start_match(rules, players, chance if chance is not None else SeededChance(seed))
        self.dealer = self._chance.first_dealer(players)  # R3.1
        if not self._deal() and self.phase is not Phase.OVER:
            self._next_deal()

    def _start_match(self, rules: Rules, players: int, chance: Chance) -> None:
        self.rules = rules
        self.players = players
        self._chance = chance
        self._half = half_points(rules)
        self._grace = 1 if rules.grace_life else 0
        self._remaining = [rules.lives + self._grace] * players
        self._out = [False] * players
        self._eliminations: list[tuple[int, ...]] = []
        self.events: list[Event] = []
        self.round_logs: list[RoundLog] = []
        self.winner: int | None = None
        self.last_result: RoundResult | None = None
        self.round = 0
        self._stop_round: int | None = None
        self.phase = Phase.TURN  # until the first deal says otherwise

    @classmethod
    def from_position(
        cls, position: Position, *, seed: int | None = None, chance: Chance | None = None, rounds: int | None = None
    ) -> Game:
        """A game that goes on from ``position``: the rest of its round, then new rounds dealt
        from ``chance`` (default ``SeededChance(seed)``), which also gives any reshuffle. The
        game's ``events`` start here; its first ``round_logs`` entry has no deck order, so it
        cannot be saved as a record. Seats already out share a place in the standings. With
        ``rounds``, the game stops (``is_over``, and no winner unless one player is left) after
        that many rounds: ``rounds=1`` plays out the position's round only, as searches do.

        Raises:
            PositionError: when no game can be in that position.
        """
        position.check()
        game = cls.__new__(cls)
        game._start_match(position.rules, position.players, chance if chance is not None else SeededChance(seed))
        if rounds is not None:
            game._stop_round = position.round + rounds - 1
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
        self._begin_round()
        self.round_logs.append(RoundLog(self.round, self.dealer, ()))
        self._hands = [list(hand) for hand in position.hands]
        self._stock = list(position.stock[::-1])
        self._pile = list(position.discard_pile)
        self._widow = list(position.widow)
        self._widow_up = position.widow_face_up
        known = position.known_cards or ((),) * players
        self._known = [list(cards) for cards in known]
        self._looked = list(position.looked) if position.looked is not None else [True] * players
        self._knocker = position.knocker
        if position.knocker is not None:
            seat, count = position.to_move, 0
            while seat != position.knocker:
                count += 1
                seat = self._next[seat]
            self._final_turns = count
        self._turns = position.turn
        self._passes = position.passes
        self._taken = position.taken_from_pile
        self.phase = position.phase
        self._seat = position.to_move

    def position(self) -> Position:
        """The current position (see :class:`~thirtyone.position.Position`).

        Raises:
            IllegalActionError: once the game is over.
        """
        if self.phase is Phase.OVER:
            raise IllegalActionError("the game is over; it has no position")
        return Position(
            rules=self.rules,
            dealer=self.dealer,
            to_move=self._seat,
            phase=self.phase,
            hands=tuple(tuple(hand) for hand in self._hands),
            stock=tuple(self._stock[::-1]),
            discard_pile=tuple(self._pile),
            widow=tuple(self._widow),
            widow_face_up=self._widow_up,
            remaining=tuple(self._remaining),
            knocker=self._knocker,
            turn=self._turns,
            passes=self._passes,
            taken_from_pile=self._taken,
            looked=tuple(self._looked),
            known_cards=tuple(tuple(known) for known in self._known),
            round=self.round,
        )

    # ------------------------------------------------------------------ public state

    @property
    def current_seat(self) -> int | None:
        """The seat to move, or ``None`` once the game is over."""
        return None if self.phase is Phase.OVER else self._seat

    @property
    def is_over(self) -> bool:
        """True once one player is left (R2.5)."""
        return self.phase is Phase.OVER

    @property
    def knocker(self) -> int | None:
        """The seat that knocked this round (R6.1), or ``None``."""
        return self._knocker

    @property
    def turn(self) -> int:
        """Turns completed this round (R6.3, R6.7)."""
        return self._turns

    @property
    def stock_size(self) -> int:
        """Cards in the stock."""
        return len(self._stock)

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        """The discard pile, bottom first (draw mode), or the set-aside widows (widow mode, R7.3)."""
        return tuple(self._pile)

    @property
    def widow(self) -> tuple[Card, ...]:
        """The widow (face up or not; widow mode), or ``()`` in draw mode."""
        return tuple(self._widow)

    @property
    def widow_face_up(self) -> bool:
        """True when the widow lies face up."""
        return self._widow_up

    @property
    def active_seats(self) -> tuple[int, ...]:
        """Seats still in the game, in seat order."""
        return tuple(seat for seat in range(self.players) if not self._out[seat])

    def hand(self, seat: int) -> tuple[Card, ...]:
        """Seat ``seat``'s cards (all-seeing: for tests, records and the table, not for players)."""
        return tuple(self._hands[seat])

    def hand_value(self, seat: int) -> HandValue:
        """The value of seat ``seat``'s three cards (all-seeing)."""
        return value_from_half(self._value(self._hands[seat]))

    def next_seat(self, seat: int) -> int:
        """The seat still in the game that plays after ``seat`` (clockwise, R2.1, R6.2)."""
        return self._next[seat]

    def known_cards(self, seat: int) -> tuple[Card, ...]:
        """Cards seat ``seat`` is publicly known to hold: taken face up and not given away since."""
        return tuple(self._known[seat])

    @property
    def taken_from_pile(self) -> Card | None:
        """The card the seat to move took from the discard pile this turn (R4.2), if any."""
        return self._taken

    def unseen_by(self, seat: int) -> tuple[Card, ...]:
        """Cards seat ``seat`` has no sight of (the stock and others' hidden cards), in index order:
        not its own hand, the discard pile or set-aside widows (R4.4), the face-up widow, or cards
        others are known to hold."""
        seen = set(self._hands[seat]) | set(self._pile)
        if self._widow_up:
            seen.update(self._widow)
        for known in self._known:
            seen.update(known)
        return tuple(card for card in full_deck(self.rules.deck) if card not in seen)

    def remaining(self, seat: int) -> int:
        """Losses seat ``seat`` can still take before it is out (R2.4)."""
        return self._remaining[seat]

    def lives(self, seat: int) -> int:
        """Lives shown for seat ``seat``: remaining losses without the grace life (R2.3)."""
        return max(self._remaining[seat] - self._grace, 0)

    def on_grace(self, seat: int) -> bool:
        """True when seat ``seat`` has only the grace life left ("on the dole/bus", R2.3)."""
        return self._grace == 1 and self._remaining[seat] == 1

    def is_out(self, seat: int) -> bool:
        """True when seat ``seat`` has been eliminated."""
        return self._out[seat]

    @property
    def standings(self) -> tuple[Standing, ...]:
        """Every seat with its place, best first (R2.5): players still in by remaining losses,
        then the eliminated in reverse order of elimination; ties share a place."""
        order: list[list[int]] = []
        active = sorted(self.active_seats, key=lambda seat: -self._remaining[seat])
        for seat in active:
            if order and self._remaining[order[-1][0]] == self._remaining[seat]:
                order[-1].append(seat)
            else:
                order.append([seat])
        order.extend(list(group) for group in reversed(self._eliminations))
        standings: list[Standing] = []
        place = 1
        for group in order:
            for seat in group:
                standings.append(
                    Standing(seat, place, self._remaining[seat], self.lives(seat), self.on_grace(seat), self._out[seat])
                )
            place += len(group)
        return tuple(standings)

    def round_events(self, number: int | None = None) -> tuple[Event, ...]:
        """Round ``number``'s events (default: this round's so far), all-seeing, from its
        ``RoundStarted``; ``()`` for a round not dealt."""
        if number is None:
            return tuple(self.events[self._round_start :])
        out: list[Event] = []
        inside = False
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
        return [event.for_seat(seat) for event in self.events]

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self) -> tuple[Action, ...]:
        """The actions the current seat may take, in a fixed order; ``()`` once the game is over."""
        phase = self.phase
        if phase is Phase.DISCARD:
            taken = self._taken
            return tuple(_DISCARDS[card] for card in self._hands[self._seat] if card is not taken)
        if phase is Phase.TURN:
            if self.rules.mode == "draw":
                actions: list[Action] = []
                if self._stock or len(self._pile) > 1:
                    actions.append(_DRAW_STOCK)
                if self._pile:
                    actions.append(_DRAW_PILE)
            elif not self._widow_up:
                actions = [_EXCHANGE_ALL, _PASS]
            else:
                actions = self._exchanges()
                actions += (_EXCHANGE_ALL, _PASS)
            if self._knock_refusal() is None:
                actions.append(_KNOCK)
            return tuple(actions)
        if phase is Phase.LOOK:
            return (_LOOK, _THROW_DOWN)
        if phase is Phase.DEALER_CHOICE:
            return (_KEEP, _TAKE_WIDOW)
        return ()

    def _exchanges(self) -> list[Action]:
        hand = self._hands[self._seat]
        widow = self._widow
        actions: list[Action] = [Exchange(give, take) for give in hand for take in widow]
        if self.rules.exchange == "any":
            for i in range(3):
                for j in range(3):
                    give = tuple(card for k, card in enumerate(hand) if k != i)
                    take = tuple(card for k, card in enumerate(widow) if k != j)
                    actions.append(Exchange(give, take))
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
        say so, and the next one is dealt.

        Raises:
            ActionError: for text that is not an action.
            IllegalActionError: when the rules forbid it; the message names the rule, and the
                game is left exactly as it was.
        """
        action = self._parse(action)
        if seat is not None:
            self._check_seat(seat)
        if seat is not None and seat != self.current_seat:
            raise IllegalActionError(self._not_your_turn(seat))
        self._check(action)
        if isinstance(action, Draw) and action.source == STOCK and not self._stock:
            self._reshuffle()  # R4.3; first, so that a bad scripted order changes nothing
        actor = self._seat
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

    @staticmethod
    def _parse(action: Action | str) -> Action:
        if isinstance(action, str):
            return parse_action(action)
        if not isinstance(action, _ACTION_TYPES):
            raise ActionError(f"not an action: {action!r}; give an Action such as Draw('stock') or its text")
        return action

    def _check_seat(self, seat: object) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise SeatError(f"seat {seat!r} is not in this {self.players}-player game: seats are 0-{self.players - 1}")

    def __getstate__(self) -> dict[str, object]:
        state = self.__dict__.copy()
        del state["_half"]  # the shared hand-value table: looked up again on unpickling
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self._half = half_points(self.rules)

    def copy(self) -> Game:
        """An independent copy of the game in its current state, made cheaply: events and cards
        are immutable and shared, the lists are copied, and so is the random source, so both
        games go on alike."""
        twin = Game.__new__(Game)
        state = self.__dict__.copy()
        for name in ("_remaining", "_out", "_eliminations", "events", "_next", "_looked", "_stock", "_pile", "_widow"):
            state[name] = list(getattr(self, name))
        state["_hands"] = [list(hand) for hand in self._hands]
        state["_known"] = [list(known) for known in self._known]
        state["_seen"] = [list(seen) for seen in self._seen]
        state["round_logs"] = [
            dataclasses.replace(log, actions=list(log.actions), reshuffles=list(log.reshuffles))
            for log in self.round_logs
        ]
        state["_chance"] = copy.deepcopy(self._chance)
        twin.__dict__.update(state)
        return twin

    def _not_your_turn(self, seat: int) -> str:
        if self.phase is Phase.OVER:
            return "the game is over; start a new game"
        return f"it is seat {self._seat}'s turn, not seat {seat}'s"

    def _check(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` unless ``action`` is legal now; changes nothing."""
        phase = self.phase
        if phase is Phase.OVER:
            raise IllegalActionError("the game is over; start a new game")
        if phase is not Phase.LOOK and isinstance(action, (Look, ThrowDown)):
            raise IllegalActionError(
                f"R6.6: {action} belongs to the blind phase before anyone plays ({self._options()})"
            )
        if phase is not Phase.DEALER_CHOICE and isinstance(action, (Keep, TakeWidow)):
            raise IllegalActionError(
                f"R7.6: {action} is the Schwimmen dealer's choice after the deal ({self._options()})"
            )
        if phase is Phase.DISCARD:
            self._check_discard(action)
        elif phase is Phase.TURN:
            if isinstance(action, Knock):
                refusal = self._knock_refusal()
                if refusal is not None:
                    raise IllegalActionError(refusal)
            elif self.rules.mode == "draw":
                self._check_draw(action)
            else:
                self._check_widow_turn(action)
        elif phase is Phase.LOOK:
            if not isinstance(action, (Look, ThrowDown)):
                raise IllegalActionError(
                    f"R6.6: seat {self._seat} has not looked yet: look at your cards or throw down"
                )
        elif not isinstance(action, (Keep, TakeWidow)):
            raise IllegalActionError(
                "R7.6: the dealer first keeps the first hand (keep) or takes the second unseen (take widow)"
            )

    def _check_discard(self, action: Action) -> None:
        if not isinstance(action, Discard):
            raise IllegalActionError(f"R4.1: you hold four cards; discard one to end your turn ({self._options()})")
        hand = self._hands[self._seat]
        if action.card not in hand:
            raise IllegalActionError(
                f"R4.1: {action.card} is not in your hand ({format_cards(hand)}); discard one of your cards"
            )
        if action.card is self._taken:
            raise IllegalActionError(
                f"R4.2: cannot discard the card just taken from the discard pile ({action.card}); discard another"
            )

    def _check_draw(self, action: Action) -> None:
        if isinstance(action, Draw):
            if action.source == PILE and not self._pile:
                raise IllegalActionError("R4.1: the discard pile is empty; draw from the stock")
            if action.source == STOCK and not self._stock and len(self._pile) < 2:
                raise IllegalActionError(
                    "R4.3: the stock is empty and the discard pile has no cards to reshuffle; draw from the pile"
                )
            return
        if isinstance(action, Discard):
            raise IllegalActionError(f"R4.1: draw a card before you discard ({self._options()})")
        raise IllegalActionError(f"R4.1: in draw mode a turn is to draw or to knock ({self._options()})")

    def _check_widow_turn(self, action: Action) -> None:
        if isinstance(action, Pass):
            return
        if isinstance(action, ExchangeAll):
            return
        if isinstance(action, Exchange):
            if not self._widow_up:
                raise IllegalActionError("R7.2: the widow is face down; take all of it (exchange all), pass or knock")
            if len(action.give) == 2 and self.rules.exchange != "any":
                raise IllegalActionError(
                    "R7.5: exchange one card or all three (exchange=one_or_all); two needs exchange=any"
                )
            hand, widow = self._hands[self._seat], self._widow
            for card in action.give:
                if card not in hand:
                    raise IllegalActionError(f"R7.1: {card} is not in your hand ({format_cards(hand)})")
            for card in action.take:
                if card not in widow:
                    raise IllegalActionError(f"R7.1: {card} is not in the widow ({format_cards(widow)})")
            return
        raise IllegalActionError(f"R7.1: in widow mode a turn is to exchange, pass or knock ({self._options()})")

    def _knock_refusal(self) -> str | None:
        """Why the current seat may not knock now (R6.1, R6.3, R6.4), or ``None`` if it may."""
        if self._knocker is not None:
            return f"R6.1: seat {self._knocker} has already knocked; only one knock per round"
        if self.rules.knock_from_round == 2 and self._turns < len(self._active):
            return "R6.3: knocking is allowed only after every player has had a turn (knock_from_round=2)"
        need = self.rules.min_knock_value
        if need:
            half = self._value(self._hands[self._seat])
            if half < 2 * need:
                return f"R6.4: knocking needs a hand worth at least {need} (yours is {value_from_half(half)})"
        return None

    def _options(self) -> str:
        return "legal now: " + ", ".join(str(action) for action in self.legal_actions())

    # ------------------------------------------------------------------ the moves

    def _do_draw(self, seat: int, action: Draw) -> None:
        if action.source == PILE:
            card = self._pile.pop()
            self._taken = card
            self._known[seat].append(card)
            self._emit(Acted(seat, action, (card,)))
        else:
            card = self._stock.pop()
            self._taken = None
            self._emit(Acted(seat, action, (card,), private=True))
        self._hands[seat].append(card)
        self.phase = Phase.DISCARD

    def _reshuffle(self) -> None:
        """R4.3: the discard pile but its top card becomes the new stock, shuffled."""
        rest = self._pile[:-1]
        order = self._chance.reshuffle_order(rest, self.round)
        if not self._trusted_chance():
            number = len(self.round_logs[-1].reshuffles) + 1
            check_permutation(order, rest, f"round {self.round}: reshuffle {number}")
        self.round_logs[-1].reshuffles.append(tuple(order))
        self._stock = order[::-1]
        self._pile = self._pile[-1:]
        self._emit(Reshuffled(len(order)))

    def _do_discard(self, seat: int, card: Card) -> None:
        hand = self._hands[seat]
        hand.remove(card)
        known = self._known[seat]
        if card in known:
            known.remove(card)
        self._pile.append(card)
        self._taken = None
        self._emit(Acted(seat, _DISCARDS[card]))
        if self._value(hand) >= BLITZ_HALF:  # R5.4
            self._end_blitz(seat)
            return
        self._finish_turn(seat)

    def _do_knock(self, seat: int) -> None:
        self._knocker = seat
        self._final_turns = len(self._active) - 1  # R6.2
        self._widow_up = True  # R7.2: a knock in the opening turns the widow face up too
        self._emit(Acted(seat, _KNOCK))
        self._finish_turn(seat)

    def _do_exchange(self, seat: int, action: Exchange) -> None:
        hand, widow, known = self._hands[seat], self._widow, self._known[seat]
        for give, take in zip(action.give, action.take, strict=True):
            hand[hand.index(give)] = take
            widow[widow.index(take)] = give
            if give in known:
                known.remove(give)
            known.append(take)
        self._passes = 0
        self._emit(Acted(seat, action, action.take))
        self._after_exchange(seat)

    def _do_exchange_all(self, seat: int) -> None:
        hand = self._hands[seat]
        taken = tuple(self._widow)
        face_down = not self._widow_up
        self._hands[seat], self._widow = list(taken), hand
        self._widow_up = True  # R7.2: the old hand goes face up
        self._known[seat] = [] if face_down else list(taken)
        self._passes = 0
        self._emit(Acted(seat, _EXCHANGE_ALL, taken, private=face_down))
        self._after_exchange(seat)

    def _after_exchange(self, seat: int) -> None:
        if self._value(self._hands[seat]) >= BLITZ_HALF:  # R5.4
            self._end_blitz(seat)
        else:
            self._finish_turn(seat)

    def _do_pass(self, seat: int) -> None:
        self._emit(Acted(seat, _PASS))
        self._widow_up = True  # R7.2: after the opening the widow lies face up
        if self._knocker is None:  # R7.4: passes after a knock do not count
            self._passes += 1
            if self._passes == len(self._active):  # R7.3
                if self.rules.all_pass == "new_widow" and len(self._stock) >= 3:
                    self._new_widow()
                else:
                    self._turns += 1
                    self._showdown("all_pass", None)
                    return
        self._finish_turn(seat)

    def _new_widow(self) -> None:
        set_aside = tuple(self._widow)
        self._pile.extend(set_aside)
        self._widow = [self._stock.pop() for _ in range(3)]
        self._widow_up = True
        self._passes = 0
        self._emit(NewWidow(set_aside, tuple(self._widow)))

    def _do_dealer_choice(self, seat: int, action: Keep | TakeWidow) -> None:
        self._widow_up = True
        if isinstance(action, Keep):
            self._emit(Acted(seat, _KEEP))
        else:
            taken = tuple(self._widow)
            self._hands[seat], self._widow = list(taken), self._hands[seat]
            self._emit(Acted(seat, _TAKE_WIDOW, taken, private=True))
            if self._value(self._hands[seat]) >= BLITZ_HALF:  # R5.4
                self._end_blitz(seat)
                return
        self.phase = Phase.TURN
        self._seat = self._next[self.dealer]

    def _do_blind(self, seat: int, action: Action) -> None:
        if isinstance(action, ThrowDown):
            self._emit(Acted(seat, _THROW_DOWN))
            self._looked = [True] * self.players
            self._showdown("throw_down", seat)  # R6.6: the caller counts as the knocker
            return
        self._looked[seat] = True
        self._emit(Acted(seat, _LOOK))
        self._seat = self._next[seat]
        if all(self._looked[s] for s in self._active):
            self.phase = Phase.TURN

    def _finish_turn(self, seat: int) -> None:
        """Close a completed turn: final turns after a knock (R6.2), an empty stock (R4.3), the
        turn limit (R6.7); otherwise the next seat plays."""
        self._turns += 1
        if self._knocker is not None and seat != self._knocker:
            self._final_turns -= 1
            if self._final_turns == 0:
                self._showdown("knock", self._knocker)
                return
        if self.rules.stock_exhausted == "showdown" and not self._stock:
            self._showdown("stock_exhausted", None)
            return
        if self._turns >= self.rules.max_turns:
            self._showdown("max_turns", None)
            return
        self.phase = Phase.TURN
        self._taken = None
        self._seat = self._next[seat]

    # ------------------------------------------------------------------ ending rounds

    def _end_blitz(self, seat: int) -> None:
        """R5.1, R5.3: a 31 ends the round at once; everyone else loses one life."""
        rule = "R5.1" if self._knocker is None else "R5.3"
        reason = f"seat {seat} showed {self._shown(seat)}"
        losses = [Loss(other, 1, rule, reason) for other in self._active if other != seat]
        self._end_round("blitz", self._knocker, (seat,), losses)

    def _shown(self, seat: int) -> str:
        half = self._value(self._hands[seat])
        return "three aces (33)" if half == 66 else f"{value_from_half(half)}"

    def _showdown(self, end: RoundEnd, knocker: int | None) -> None:
        """R6.5: the lowest hand loses, with the knocker rules of ``knock_penalty``."""
        values = {seat: self._value(self._hands[seat]) for seat in self._active}
        low = min(values.values())
        lowest = [seat for seat, half in values.items() if half == low]
        penalty = self.rules.knock_penalty
        losses: list[Loss] = []
        if knocker is None:
            losses = [
                Loss(seat, 1, "R6.5", f"lowest hand ({_NO_KNOCK_SHOWDOWN.get(end, 'showdown')})") for seat in lowest
            ]
        elif penalty == "plain" or knocker not in lowest:
            losses = [Loss(seat, 1, "R6.5", "lowest hand") for seat in lowest]
        elif penalty == "scat":
            if len(lowest) == 1:
                losses = [Loss(knocker, 2, "R6.5", "knocker alone lowest (knock_penalty=scat)")]
            else:
                losses = [
                    Loss(seat, 1, "R6.5", "lowest hand; the knocker tied and is saved")
                    for seat in lowest
                    if seat != knocker
                ]
        elif penalty in ("namu", "namu_risky"):
            if len(lowest) == 1:
                losses = [Loss(knocker, 1, "R6.5", "lowest hand")]
            else:
                losses = [
                    Loss(seat, 1, "R6.5", "lowest hand; the knocker tied and is saved")
                    for seat in lowest
                    if seat != knocker
                ]
        else:  # widow
            losses = [
                Loss(seat, 2, "R6.5", "knocker among the lowest (knock_penalty=widow)")
                if seat == knocker
                else Loss(seat, 1, "R6.5", "lowest hand")
                for seat in lowest
            ]
        if knocker is not None and penalty == "namu_risky" and values[knocker] < max(values.values()):
            losses = [loss for loss in losses if loss.seat != knocker]
            losses.append(Loss(knocker, 2, "R6.5", "knocker without the highest hand (knock_penalty=namu_risky)"))
        self._end_round(end, knocker, (), losses)

    def _end_round(
        self, end: RoundEnd, knocker: int | None, blitz: tuple[int, ...], losses: list[Loss], then_deal: bool = True
    ) -> None:
        after = list(self._remaining)
        for loss in losses:
            after[loss.seat] -= loss.lives
        going = [seat for seat in self._active if after[seat] <= 0]
        saved = len(going) == len(self._active)
        if saved:  # R2.6: nobody is eliminated by a result that would eliminate everyone
            for seat in going:
                after[seat] = 1
            going = []
        for seat in going:
            after[seat] = 0
            self._out[seat] = True
        self._remaining = after
        if going:
            self._eliminations.append(tuple(going))
        hands = tuple(tuple(self._hands[seat]) if seat in self._active else None for seat in range(self.players))
        values = tuple(None if hand is None else value_from_half(self._value(list(hand))) for hand in hands)
        result = RoundResult(
            round=self.round,
            dealer=self.dealer,
            end=end,
            knocker=knocker,
            blitz=blitz,
            hands=hands,
            values=values,
            losses=tuple(losses),
            remaining=tuple(after),
            eliminated=tuple(going),
            saved_by_r2_6=saved,
            turns=self._turns,
        )
        self.last_result = result
        self.round_logs[-1].result = result
        self._emit(RoundEnded(result))
        active = self.active_seats
        if len(active) == 1:  # R2.5
            self.winner = active[0]
            self.phase = Phase.OVER
            self._emit(GameOver(active[0]))
            return
        if self._stop_round is not None and self.round >= self._stop_round:
            self.phase = Phase.OVER  # a search that asked for this round only
            return
        if then_deal:
            self._next_deal()

    def _next_deal(self) -> None:
        """R3.1: the deal passes clockwise to the next player still in. A 31 on the deal (R5.2) ends
        that round at once and the deal passes again: a loop, so that no run of such deals can
        exhaust the stack."""
        while True:
            dealer = (self.dealer + 1) % self.players
            while self._out[dealer]:
                dealer = (dealer + 1) % self.players
            self.dealer = dealer
            if self._deal() or self.phase is Phase.OVER:
                return

    # ------------------------------------------------------------------ dealing

    def _deal(self) -> bool:
        """R3: shuffle and deal three cards to each seat still in, from the dealer's left. False when
        a 31 on the deal ended the round at once (R5.2)."""
        self.round += 1
        rules = self.rules
        players = self.players
        self._begin_round()
        active, nxt = self._active, self._next
        deck = self._chance.deal_order(full_deck(rules.deck), self.round)
        if not self._trusted_chance():
            check_permutation(deck, full_deck(rules.deck), f"round {self.round}: the deck order")
        self.round_logs.append(RoundLog(self.round, self.dealer, tuple(deck)))
        first = nxt[self.dealer]
        order = active[active.index(first) :] + active[: active.index(first)]
        hands: list[list[Card]] = [[] for _ in range(players)]
        at = 0
        for _ in range(3):
            for seat in order:
                hands[seat].append(deck[at])
                at += 1
        self._hands = hands
        self._known = [[] for _ in range(players)]
        self._looked = [not rules.throw_down] * players
        if rules.mode == "draw":
            self._pile = [deck[at]]  # R3.3
            self._stock = deck[at + 1 :][::-1]
            self._widow = []
            self._widow_up = False
        else:
            self._pile = []
            self._widow = list(deck[at : at + 3])  # R3.4
            self._stock = deck[at + 3 :][::-1]
            self._widow_up = False
        self._emit(RoundStarted(self.round, self.dealer, active, self._pile[-1] if self._pile else None))
        if self._dealt_blitz():
            return False
        if rules.throw_down:
            self.phase = Phase.LOOK
            self._seat = first
        elif rules.dealer_hand:
            self.phase = Phase.DEALER_CHOICE
            self._seat = self.dealer
        else:
            self.phase = Phase.TURN
            self._seat = first
        return True

    def _begin_round(self) -> None:
        """Reset the round's counters and work out who plays after whom (R6.2: the out are skipped)."""
        players = self.players
        active = self.active_seats
        self._active = active
        nxt = [0] * players
        for seat in range(players):
            after = (seat + 1) % players
            while self._out[after]:
                after = (after + 1) % players
            nxt[seat] = after
        self._next = nxt
        self._knocker = None
        self._final_turns = 0
        self._turns = 0
        self._passes = 0
        self._taken = None
        self._round_start = len(self.events)
        self._seen = [[] for _ in range(players)]

    def _trusted_chance(self) -> bool:
        return type(self._chance) is SeededChance

    def _dealt_blitz(self) -> bool:
        """R5.2, R5.5: blitz hands on the deal are shown at once; the best of them win."""
        halves = {seat: self._value(self._hands[seat]) for seat in self._active}
        best = max(halves.values())
        if best < BLITZ_HALF:
            return False
        winners = tuple(seat for seat, half in halves.items() if half == best)
        shown = "three aces (33)" if best == 66 else "31"
        verb = "was" if len(winners) == 1 else "were"
        reason = ", ".join(f"seat {seat}" for seat in winners) + f" {verb} dealt {shown}"
        losses = [
            Loss(seat, 1, "R5.5" if halves[seat] >= BLITZ_HALF else "R5.2", reason)
            for seat in self._active
            if seat not in winners
        ]
        self._end_round("dealt_blitz", None, winners, losses, then_deal=False)
        return True

    def _emit(self, event: Event) -> None:
        """Log an event, and each seat's form of it in that seat's history of the round."""
        self.events.append(event)
        if isinstance(event, Acted) and event.private:
            hidden = event.for_seat(-1)
            for seat, seen in enumerate(self._seen):
                seen.append(event if seat == event.seat else hidden)
        elif isinstance(event, RoundEnded):
            for seat, seen in enumerate(self._seen):
                seen.append(event.for_seat(seat))
        else:
            for seen in self._seen:
                seen.append(event)

    def _value(self, hand: list[Card]) -> int:
        a, b, c = hand
        return self._half[a * _AB + b * 52 + c]

    # ------------------------------------------------------------------ views

    def view(self, seat: int) -> PlayerView:
        """What seat ``seat`` may know now (R4.4, R6.6); see :class:`~thirtyone.views.PlayerView`.

        Raises:
            SeatError: for a seat that is not in this game.
        """
        self._check_seat(seat)
        own = self._hands[seat]
        sees_hand = self._looked[seat] and not self._out[seat] and self.phase is not Phase.OVER
        hand = tuple(own) if sees_hand else None
        value = value_from_half(self._value(own)) if hand is not None and len(own) == 3 else None
        grace = self._grace
        seats = tuple(
            SeatStatus(s, left, max(left - grace, 0), grace == 1 and left == 1, out, looked, tuple(known))
            for s, (left, out, looked, known) in enumerate(
                zip(self._remaining, self._out, self._looked, self._known, strict=True)
            )
        )
        my_move = self.phase is not Phase.OVER and self._seat == seat
        widow_up = self.rules.mode == "widow" and self._widow_up
        return PlayerView(
            seat=seat,
            players=self.players,
            rules=self.rules,
            round=self.round,
            dealer=self.dealer,
            phase=self.phase,
            current_seat=self.current_seat,
            hand=hand,
            hand_value=value,
            discard_top=self._pile[-1] if self._pile and self.rules.mode == "draw" else None,
            discard_size=len(self._pile) if self.rules.mode == "draw" else 0,
            widow=tuple(self._widow) if widow_up else None,
            widow_face_down=self.rules.mode == "widow" and not self._widow_up,
            stock_size=len(self._stock),
            seats=seats,
            knocker=self._knocker,
            turn=self._turns,
            taken_from_pile=self._taken if my_move else None,
            history=tuple(self._seen[seat]),
            last_result=None if self.last_result is None else self.last_result.for_seat(seat),
            legal_actions=self.legal_actions() if my_move else (),
        )

    def __repr__(self) -> str:
        return (
            f"<Game {self.rules.describe()}, {self.players} players, round {self.round}, "
            f"{self.phase.value}, seat {self.current_seat} to move>"
        )
