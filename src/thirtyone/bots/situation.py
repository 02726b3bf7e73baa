"""What the heuristic decides from: one small frozen record, :class:`Situation`, and the two thin
adapters that fill it — from a seat's :class:`~thirtyone.views.PlayerView` (the ``heuristic``
bot, :meth:`Situation.from_view`) and from a :class:`~thirtyone.engine.Game` (the expert's
rollouts, :meth:`Situation.from_game`). The policy itself is one pure function of the record,
:func:`thirtyone.bots.heuristic.heuristic_action`; the compiled simulator's copy of it
(``thirtyone.sim.kernels._heuristic``) is cross-checked against that function decision by decision.

Both adapters fill the same fields from the same facts, so for one decision of one game the two
records are equal — but for ``opponents_known``, which only the view's adapter fills: the bot
reads what the opponents are known to hold before it knocks, the rollouts (and the kernels) do
not. An adapter fills only what the phase reads (the rollouts are the expert's inner loop):

======================  ===========================================================
phase                   fields read (besides ``rules``, ``phase``, ``players_in``)
======================  ===========================================================
``look``                none
``dealer_choice``       ``hand``
``discard``             ``hand`` (four cards), ``taken_from_pile``, ``collector``
``turn``, draw mode     ``hand``, ``legal``, the knock fields, ``pile_top``, ``unseen``
``turn``, widow mode    ``hand``, ``legal``, the knock fields, ``widow``, ``collector``
======================  ===========================================================

(the knock fields: ``turn``, ``seat_offset``, ``remaining``, ``opponents_known``).

>>> from thirtyone import Game, Rules
>>> game = Game(Rules(), 3, seed=4)
>>> seat = game.current_seat
>>> view = game.view(seat)
>>> mine, its = Situation.from_view(view, view.legal_actions), Situation.from_game(game, seat, game.legal_actions())
>>> mine.phase.value, len(mine.hand), mine.players_in, len(mine.unseen)
('turn', 3, 3, 48)
>>> mine._replace(opponents_known=None, legal=()) == its._replace(legal=())
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from thirtyone.actions import Action
from thirtyone.bots.knowledge import Knowledge
from thirtyone.cards import Card
from thirtyone.engine import Game
from thirtyone.rules import Rules
from thirtyone.views import Phase
from thirtyone.views import PlayerView

__all__ = ["Situation"]

_LOOK, _DEALER_CHOICE, _DISCARD = Phase.LOOK, Phase.DEALER_CHOICE, Phase.DISCARD


class Situation(NamedTuple):
    """One decision of one seat, as the heuristic sees it: a frozen record (a named tuple: the
    rollouts make one a move, and a tuple is made several times faster than a frozen dataclass).

    - ``rules``, ``phase``: the game's rules and the phase of the round (R3–R7).
    - ``hand``: the seat's cards (three; four in the discard phase; ``()`` before it has looked).
    - ``legal``: the legal actions (the engine's, in its order).
    - ``players_in``: the seats still in the game (2–9).
    - ``taken_from_pile``: the card taken from the discard pile this turn, never discarded (R4.2).
    - ``collector``: the cards the next seat still in is known to hold (taken face up).
    - ``pile_top``: the discard pile's top card (draw mode; ``None`` for an empty pile).
    - ``unseen``: the cards the seat has no sight of, in index order (draw mode).
    - ``widow``: the face-up widow, or ``None`` while it lies face down (widow mode, R7.2).
    - ``turn``: the turns completed this round; ``seat_offset``: the seat's place after the
      dealer (1 = first to play); ``remaining``: the losses it can still take (R2.4).
    - ``opponents_known``: for each opponent still in, the cards it is known to hold; ``None``
      where the policy is not to read them (the rollouts and the kernels knock without).
    """

    rules: Rules
    phase: Phase
    hand: tuple[Card, ...]
    legal: Sequence[Action]
    players_in: int
    taken_from_pile: Card | None = None
    collector: tuple[Card, ...] = ()
    pile_top: Card | None = None
    unseen: tuple[Card, ...] = ()
    widow: tuple[Card, ...] | None = None
    turn: int = 0
    seat_offset: int = 0
    remaining: int = 0
    opponents_known: tuple[tuple[Card, ...], ...] | None = None

    @classmethod
    def from_view(cls, view: PlayerView, legal: Sequence[Action], knowledge: Knowledge | None = None) -> Situation:
        """The situation of ``view.seat`` read from its view (and its round history, through
        ``knowledge``, :meth:`Knowledge.from_view <thirtyone.bots.knowledge.Knowledge.from_view>`
        by default); ``legal`` is the legal actions it is offered."""
        phase = view.phase
        rules = view.rules
        seats = view.seats
        active = [status.seat for status in seats if not status.out]
        if phase is _LOOK:
            return cls(rules, phase, (), legal, len(active))
        hand = view.hand
        assert hand is not None, "a bot is asked to move only once it has looked"
        if phase is _DEALER_CHOICE:
            return cls(rules, phase, hand, legal, len(active))
        if knowledge is None:
            knowledge = Knowledge.from_view(view)
        nxt = (view.seat + 1) % view.players
        while seats[nxt].out:
            nxt = (nxt + 1) % view.players
        collector = knowledge.known[nxt]
        if phase is _DISCARD:
            return cls(rules, phase, hand, legal, len(active), view.taken_from_pile, collector)
        opponents = tuple(knowledge.known[seat] for seat in active if seat != view.seat)
        offset = (view.seat - view.dealer) % view.players
        remaining = seats[view.seat].remaining
        if rules.mode == "draw":  # (positional: a named tuple is made fastest so)
            return cls(
                rules, phase, hand, legal, len(active), None, collector, view.discard_top, knowledge.unseen, None,
                view.turn, offset, remaining, opponents,
            )  # fmt: skip
        return cls(
            rules, phase, hand, legal, len(active), None, collector, None, (), view.widow,
            view.turn, offset, remaining, opponents,
        )  # fmt: skip

    @classmethod
    def from_game(cls, game: Game, seat: int, legal: Sequence[Action]) -> Situation:
        """The situation of ``seat`` read from a (simulated) game: only what that seat may know
        (its hand, the piles, the known cards), without rebuilding it from a history, and without
        ``opponents_known`` (the rollouts' policy). ``legal`` is ``game.legal_actions()``."""
        phase = game.phase
        rules = game.rules
        players_in = len(game.active_seats)
        if phase is _LOOK:
            return cls(rules, phase, (), legal, players_in)
        hand = game.hand(seat)
        if phase is _DEALER_CHOICE:
            return cls(rules, phase, hand, legal, players_in)
        collector = game.known_cards(game.next_seat(seat))
        if phase is _DISCARD:
            return cls(rules, phase, hand, legal, players_in, game.taken_from_pile, collector)
        offset = (seat - game.dealer) % game.players
        if rules.mode == "draw":
            pile = game.discard_pile
            return cls(
                rules, phase, hand, legal, players_in, None, collector, pile[-1] if pile else None,
                game.unseen_by(seat), None, game.turn, offset, game.remaining(seat), None,
            )  # fmt: skip
        return cls(
            rules, phase, hand, legal, players_in, None, collector, None, (),
            game.widow if game.widow_face_up else None, game.turn, offset, game.remaining(seat), None,
        )  # fmt: skip
