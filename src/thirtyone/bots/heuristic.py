"""``heuristic``: a card-counting player with a knock threshold that reads the table.

- **Memory.** Every public card: the discard pile's contents, the widows set aside, the cards each
  opponent took face up (:class:`~thirtyone.bots.knowledge.Knowledge`). The rest are *unseen*.
- **Drawing** (draw mode). The exact expected value of a stock draw — the mean, over the unseen
  cards, of the best three of four — against the known value of taking the discard pile's top card.
- **Discarding.** Keep the best value; among equal discards, never feed the next player a card of
  a suit it is known to collect (above all one that would make its 31), then throw the lowest.
- **Widow mode.** Exchange one, exchange all, or pass, judged the same way: the value kept now,
  minus what the widow left behind offers the next player.
- **Knocking.** When the hand beats what the others can expect to hold after one more turn (the
  growth curve of this deck and mode, STRATEGY.md) by a margin that depends on the preset's knock
  penalty, the number of players left, the seat (later seats need more), its own lives and the
  opponents' known cards; never below a floor, never on a first turn with a weak hand.

The same policy drives the expert's rollouts, through :func:`rollout_action`, which reads the
simulated :class:`~thirtyone.engine.Game` directly instead of a view.
"""

from __future__ import annotations

from collections.abc import Sequence

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
)
from thirtyone.bots.base import SeededBot
from thirtyone.bots.knowledge import Knowledge
from thirtyone.cards import Card
from thirtyone.engine import Game
from thirtyone.scoring import half_points
from thirtyone.settlement import KNOCK_PENALTIES
from thirtyone.strategy import Style, style_for
from thirtyone.strategy import heuristic_knock_bar as knock_bar
from thirtyone.views import Phase, PlayerView

__all__ = ["HeuristicBot", "Style", "style_for", "knock_bar", "rollout_action", "stock_draw_value"]

_AB = 52 * 52
_DRAW_STOCK, _DRAW_PILE, _KNOCK, _PASS = Draw(STOCK), Draw(PILE), Knock(), Pass()


def stock_draw_value(hand: Sequence[Card], unseen: Sequence[Card], table: Sequence[int]) -> float:
    """Expected half points after drawing one of ``unseen`` at random and discarding the best card."""
    a, b, c = hand
    base = table[a * _AB + b * 52 + c]
    ab = a * _AB + b * 52
    ac = a * _AB + c * 52
    bc = b * _AB + c * 52
    total = 0
    for d in unseen:
        best = base
        x = table[ab + d]
        if x > best:
            best = x
        x = table[ac + d]
        if x > best:
            best = x
        x = table[bc + d]
        if x > best:
            best = x
        total += best
    return total / len(unseen) if unseen else float(base)


def _best_with(hand: Sequence[Card], card: Card, table: Sequence[int]) -> int:
    """Best half points of three from ``hand`` plus ``card``, keeping ``card``."""
    a, b, c = hand
    return max(table[a * _AB + b * 52 + card], table[a * _AB + c * 52 + card], table[b * _AB + c * 52 + card])


def _feed(card: Card, collector: Sequence[Card]) -> int:
    """Half points ``card`` adds to what ``collector`` (known cards of the next player) shows of its suit."""
    same = [other for other in collector if other.suit == card.suit]
    if not same:
        return 0
    return 2 * (card.points + sum(other.points for other in same))


class HeuristicBot(SeededBot):
    """The card-counting heuristic player; see the module docstring."""

    name = "heuristic"

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        phase = view.phase
        if phase is Phase.LOOK:
            return Look()
        hand = view.hand
        assert hand is not None, "a bot is asked to move only once it has looked"
        rules = view.rules
        table = half_points(rules)
        style = style_for(rules, len(view.active_seats))
        if phase is Phase.DEALER_CHOICE:
            return Keep() if table[_index(hand)] >= 2 * style.blind_widow else TakeWidow()
        knowledge = Knowledge.from_view(view)
        nxt = _next_player(view)
        if phase is Phase.DISCARD:
            return Discard(_discard(hand, view.taken_from_pile, knowledge.known[nxt], table, style))
        value = table[_index(hand)]
        if _KNOCK in legal and value >= self._bar(view, knowledge) and not _surely_lowest(view, knowledge, value):
            return _KNOCK
        if rules.mode == "draw":
            top = view.discard_top
            if _DRAW_STOCK not in legal:
                return _DRAW_PILE
            if top is None or _DRAW_PILE not in legal:
                return _DRAW_STOCK
            taking = _best_with(hand, top, table)
            return _DRAW_PILE if taking >= stock_draw_value(hand, knowledge.unseen, table) else _DRAW_STOCK
        return _widow_choice(hand, view.widow, legal, knowledge.known[nxt], table, style)

    def _bar(self, view: PlayerView, knowledge: Knowledge) -> int:
        active = view.active_seats
        offset = (view.seat - view.dealer) % view.players
        strong = sum(
            1
            for seat in active
            if seat != view.seat and len({card.suit for card in knowledge.known[seat]}) < len(knowledge.known[seat])
        )
        return knock_bar(view.rules, view.turn, len(active), offset, view.seats[view.seat].remaining, strong)


def _known_floor(cards: Sequence[Card]) -> int:
    """Half points a hand holding ``cards`` is worth at least (its best suit among them)."""
    suits = [0, 0, 0, 0]
    for card in cards:
        suits[card.suit] += card.points
    return 2 * max(suits)


def _surely_lowest(view: PlayerView, knowledge: Knowledge, value: int) -> bool:
    """True when every opponent is known to hold more than ``value`` (as much, where a tie does not
    save the knocker, R6.5): a knock would lose."""
    tie_saves = KNOCK_PENALTIES[view.rules.knock_penalty].tie_saves
    floors = [_known_floor(knowledge.known[seat]) for seat in view.active_seats if seat != view.seat]
    return all(floor > value or (floor == value and not tie_saves) for floor in floors)


def _index(hand: Sequence[Card]) -> int:
    a, b, c = hand
    return a * _AB + b * 52 + c


def _next_player(view: PlayerView) -> int:
    seat = (view.seat + 1) % view.players
    while view.seats[seat].out:
        seat = (seat + 1) % view.players
    return seat


def _discard(
    hand: Sequence[Card], taken: Card | None, collector: Sequence[Card], table: Sequence[int], style: Style
) -> Card:
    """The card to throw from four: best value kept, less the cost of feeding the next player."""
    best: tuple[float, int, Card] | None = None
    for i, card in enumerate(hand):
        if card == taken:
            continue
        a, b, c = (other for j, other in enumerate(hand) if j != i)
        kept = table[a * _AB + b * 52 + c]
        fed = _feed(card, collector)
        score = kept - (1000 if fed >= 62 else 2 * style.feed_cost * (fed > 0))
        key = (score, -card.points, card)
        if best is None or key > best:
            best = key
    assert best is not None
    return best[2]


def _widow_choice(
    hand: Sequence[Card],
    widow: Sequence[Card] | None,
    legal: Sequence[Action],
    collector: Sequence[Card],
    table: Sequence[int],
    style: Style,
) -> Action:
    value = table[_index(hand)]
    if widow is None:  # R7.2: the face-down widow is worth a blind average hand
        return ExchangeAll() if value < 2 * style.blind_widow and ExchangeAll() in legal else _PASS
    best: tuple[float, Action] = (value - _leftover(widow, collector, table, style), _PASS)
    for action in legal:
        if isinstance(action, Exchange):
            kept = [card for card in hand if card not in action.give] + list(action.take)
            left = [card for card in widow if card not in action.take] + list(action.give)
        elif isinstance(action, ExchangeAll):
            kept, left = list(widow), list(hand)
        else:
            continue
        score = table[_index(kept)] - _leftover(left, collector, table, style)
        if score > best[0]:
            best = (score, action)
    return best[1]


def _leftover(widow: Sequence[Card], collector: Sequence[Card], table: Sequence[int], style: Style) -> float:
    """How much the widow left behind would help the next player: a 31 in it is a disaster."""
    whole = table[_index(widow)]
    if whole >= 62:
        return 1000.0
    fed = max((_feed(card, collector) for card in widow), default=0)
    return 2 * style.feed_cost if fed >= 50 else 0.0


def rollout_action(game: Game, seat: int, legal: Sequence[Action]) -> Action:
    """The heuristic's move for ``seat`` in a simulated game, read from the game itself (the
    same decisions as :class:`HeuristicBot`, with the discard pile and the known cards taken
    from the game rather than rebuilt from a history)."""
    phase = game.phase
    rules = game.rules
    table = half_points(rules)
    style = style_for(rules, len(game.active_seats))
    if phase is Phase.LOOK:
        return Look()
    hand = game.hand(seat)
    if phase is Phase.DEALER_CHOICE:
        return Keep() if table[_index(hand)] >= 2 * style.blind_widow else TakeWidow()
    nxt = game.next_seat(seat)
    collector = game.known_cards(nxt)
    if phase is Phase.DISCARD:
        return Discard(_discard(hand, game.taken_from_pile, collector, table, style))
    value = table[_index(hand)]
    if _KNOCK in legal:
        active = game.active_seats
        bar = knock_bar(rules, game.turn, len(active), (seat - game.dealer) % game.players, game.remaining(seat))
        if value >= bar:
            return _KNOCK
    if rules.mode == "draw":
        pile = game.discard_pile
        if _DRAW_STOCK not in legal:
            return _DRAW_PILE
        if not pile or _DRAW_PILE not in legal:
            return _DRAW_STOCK
        top = pile[-1]
        unseen = game.unseen_by(seat)
        return _DRAW_PILE if _best_with(hand, top, table) >= stock_draw_value(hand, unseen, table) else _DRAW_STOCK
    widow = game.widow if game.widow_face_up else None
    return _widow_choice(hand, widow, legal, collector, table, style)
