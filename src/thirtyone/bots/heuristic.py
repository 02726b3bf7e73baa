"""``heuristic``: a card-counting player with a knock threshold that reads the table.

- **Memory.** Every public card: the discard pile's contents, the widows set aside, the cards each
  opponent took face up (:class:`~thirtyone.bots.knowledge.Knowledge`). The rest are *unseen*.
- **Drawing** (draw mode). The exact expected value of a stock draw — the mean, over the unseen
  cards, of the best three of four — against the known value of taking the discard pile's top card.
- **Discarding.** Keep the best value; among equal discards, never feed the next player a card of
  a suit it is known to collect (above all one that would make its 31), then throw the lowest.
- **Widow mode.** Exchange one, exchange all, or pass, judged the same way: the value kept now,
  minus what the widow left behind offers the next player.
- **A 31 on the table.** A discard pile's top card, or an exchange with the face-up widow, that
  makes 31 (or any blitz, R5.1) is taken rather than knocked past: the pile card before anything
  else is weighed, the widow's by the widow choice below, with the knock left out.
- **Knocking.** When the hand beats what the others can expect to hold after one more turn (the
  growth curve of this deck and mode, STRATEGY.md) by a margin that depends on the preset's knock
  penalty, the number of players left, the seat (later seats need more), its own lives and the
  opponents' known cards; never below a floor, never on a first turn with a weak hand.

The policy is written once, as a pure function of a :class:`~thirtyone.bots.situation.Situation`
(:func:`heuristic_action`). :class:`HeuristicBot` asks it with the situation read from its view;
the expert's rollouts ask it through :func:`rollout_action`, which reads the simulated
:class:`~thirtyone.engine.Game` directly instead of a view and leaves the opponents' known cards
unread when knocking (as the compiled simulator's copy does; the tests hold all three equal).
"""

from __future__ import annotations

from collections.abc import Sequence

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
from thirtyone.bots.base import SeededBot
from thirtyone.bots.hands import best_with
from thirtyone.bots.hands import hand_index
from thirtyone.bots.hands import stock_draw_value
from thirtyone.bots.situation import Situation
from thirtyone.cards import Card
from thirtyone.engine import Game
from thirtyone.rules import Rules
from thirtyone.scoring import BLITZ_HALF
from thirtyone.scoring import half_points
from thirtyone.settlement import KNOCK_PENALTIES
from thirtyone.strategy import Style
from thirtyone.strategy import heuristic_knock_bar as knock_bar
from thirtyone.strategy import style_for
from thirtyone.views import Phase
from thirtyone.views import PlayerView

__all__ = [
    "HeuristicBot",
    "Situation",
    "Style",
    "style_for",
    "knock_bar",
    "heuristic_action",
    "rollout_action",
    "stock_draw_value",
]

_DRAW_STOCK, _DRAW_PILE, _KNOCK, _PASS = Draw(STOCK), Draw(PILE), Knock(), Pass()
_LOOK, _DEALER_CHOICE, _DISCARD = Phase.LOOK, Phase.DEALER_CHOICE, Phase.DISCARD


def heuristic_action(situation: Situation) -> Action:
    """The heuristic's move in ``situation`` (one of ``situation.legal``): the whole policy of
    the module docstring, a pure function of the record."""
    phase = situation.phase
    if phase is _LOOK:
        return Look()
    memo = _memo(situation.rules)
    table = memo.table
    style = memo.style(situation.players_in)
    hand = situation.hand
    if phase is _DEALER_CHOICE:
        return Keep() if table[hand_index(hand)] >= 2 * style.blind_widow else TakeWidow()
    if phase is _DISCARD:
        return Discard(_discard(hand, situation.taken_from_pile, situation.collector, table, style))
    legal = situation.legal
    value = table[hand_index(hand)]
    draw = situation.rules.mode == "draw"
    top = situation.pile_top if draw and _DRAW_PILE in legal else None
    taking = -1 if top is None else best_with(hand, top, table)
    if taking >= BLITZ_HALF:  # a pile card that makes 31 is taken, never knocked past (R5.1)
        return _DRAW_PILE
    widow = situation.widow
    if _KNOCK in legal and not (widow is not None and _widow_blitz(hand, widow, legal, table)):
        opponents = situation.opponents_known
        strong = 0 if opponents is None else sum(1 for cards in opponents if len({c.suit for c in cards}) < len(cards))
        bar = memo.bar(situation.turn, situation.players_in, situation.seat_offset, situation.remaining, strong)
        if value >= bar and not (opponents is not None and _surely_lowest(opponents, value, memo.tie_saves)):
            return _KNOCK
    if draw:
        if _DRAW_STOCK not in legal:
            return _DRAW_PILE
        if top is None:
            return _DRAW_STOCK
        return _DRAW_PILE if taking >= stock_draw_value(hand, situation.unseen, table) else _DRAW_STOCK
    return _widow_choice(hand, widow, legal, situation.collector, table, style)


class _Memo:
    """What the policy reads of one ruleset, each computed once (pure functions of the rules,
    kept: the rollouts ask for them at every move): the value table (:func:`half_points`), the
    style by players in (:func:`style_for`), the knock bars by their arguments (:func:`knock_bar`),
    and whether a tie at the showdown saves the knocker (R6.5)."""

    __slots__ = ("_bars", "_styles", "rules", "table", "tie_saves")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.table = half_points(rules)
        self.tie_saves = KNOCK_PENALTIES[rules.knock_penalty].tie_saves
        self._styles: dict[int, Style] = {}
        self._bars: dict[tuple[int, int, int, int, int], int] = {}

    def style(self, players: int) -> Style:
        style = self._styles.get(players)
        if style is None:
            style = self._styles[players] = style_for(self.rules, players)
        return style

    def bar(self, turn: int, players: int, offset: int, remaining: int, strong: int) -> int:
        key = (turn, players, offset, remaining, strong)
        bar = self._bars.get(key)
        if bar is None:
            if len(self._bars) >= 4096:  # (long rounds: the turns keep counting)
                self._bars.clear()
            bar = self._bars[key] = knock_bar(self.rules, turn, players, offset, remaining, strong)
        return bar


_MEMOS: dict[Rules, _Memo] = {}
_last: tuple[Rules | None, _Memo | None] = (None, None)  # the last rules asked for: found by identity


def _memo(rules: Rules) -> _Memo:
    global _last
    last = _last  # one read: another thread may replace it meanwhile
    if last[0] is rules:
        assert last[1] is not None
        return last[1]
    memo = _MEMOS.get(rules)
    if memo is None:
        if len(_MEMOS) >= 64:
            _MEMOS.clear()
        memo = _MEMOS[rules] = _Memo(rules)
    _last = (rules, memo)
    return memo


class HeuristicBot(SeededBot):
    """The card-counting heuristic player; see the module docstring."""

    name = "heuristic"

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        return heuristic_action(Situation.from_view(view, legal))


def rollout_action(game: Game, seat: int, legal: Sequence[Action]) -> Action:
    """The heuristic's move for ``seat`` in a simulated game, read from the game itself
    (:meth:`Situation.from_game`: the discard pile and the known cards taken from the game rather
    than rebuilt from a history; the opponents' known cards not read before knocking)."""
    return heuristic_action(Situation.from_game(game, seat, legal))


def _feed(card: Card, collector: Sequence[Card]) -> int:
    """Half points ``card`` adds to what ``collector`` (known cards of the next player) shows of its suit."""
    same = [other for other in collector if other.suit == card.suit]
    if not same:
        return 0
    return 2 * (card.points + sum(other.points for other in same))


def _known_floor(cards: Sequence[Card]) -> int:
    """Half points a hand holding ``cards`` is worth at least (its best suit among them)."""
    suits = [0, 0, 0, 0]
    for card in cards:
        suits[card.suit] += card.points
    return 2 * max(suits)


def _surely_lowest(opponents: Sequence[Sequence[Card]], value: int, tie_saves: bool) -> bool:
    """True when every opponent is known (``opponents``: their known cards) to hold more than
    ``value`` (as much, where a tie does not save the knocker, R6.5): a knock would lose."""
    floors = [_known_floor(cards) for cards in opponents]
    return all(floor > value or (floor == value and not tie_saves) for floor in floors)


def _discard(
    hand: Sequence[Card], taken: Card | None, collector: Sequence[Card], table: Sequence[int], style: Style
) -> Card:
    """The card to throw from four: best value kept, less the cost of feeding the next player."""
    best: tuple[float, int, Card] | None = None
    for i, card in enumerate(hand):
        if card == taken:
            continue
        kept = table[hand_index([other for j, other in enumerate(hand) if j != i])]
        fed = _feed(card, collector)
        score = kept - (1000 if fed >= 62 else 2 * style.feed_cost * (fed > 0))
        key = (score, -card.points, card)
        if best is None or key > best:
            best = key
    assert best is not None
    return best[2]


def _widow_blitz(hand: Sequence[Card], widow: Sequence[Card], legal: Sequence[Action], table: Sequence[int]) -> bool:
    """True when an exchange with the face-up widow among ``legal`` makes a blitz (R5.1)."""
    for action in legal:
        if isinstance(action, Exchange):
            kept = [card for card in hand if card not in action.give] + list(action.take)
        elif isinstance(action, ExchangeAll):
            kept = list(widow)
        else:
            continue
        if table[hand_index(kept)] >= BLITZ_HALF:
            return True
    return False


def _widow_choice(
    hand: Sequence[Card],
    widow: Sequence[Card] | None,
    legal: Sequence[Action],
    collector: Sequence[Card],
    table: Sequence[int],
    style: Style,
) -> Action:
    value = table[hand_index(hand)]
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
        score = table[hand_index(kept)] - _leftover(left, collector, table, style)
        if score > best[0]:
            best = (score, action)
    return best[1]


def _leftover(widow: Sequence[Card], collector: Sequence[Card], table: Sequence[int], style: Style) -> float:
    """How much the widow left behind would help the next player: a 31 in it is a disaster."""
    whole = table[hand_index(widow)]
    if whole >= 62:
        return 1000.0
    fed = max((_feed(card, collector) for card in widow), default=0)
    return 2 * style.feed_cost if fed >= 50 else 0.0
