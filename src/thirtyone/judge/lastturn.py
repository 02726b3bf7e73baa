"""The exact value of a last turn after a knock (R6.2): what the `hard` bot plays there, and what
the hint and the review show.

After a knock every other seat still in has one more turn, and then the hands are shown. Such a
turn is small enough to value by counting rather than by playing rounds out:

- **Belief.** The cards this seat has not seen (not in its hand, the discard pile, the widow, the
  widows set aside, nor among the cards a seat is known to hold, R4.4) lie uniformly at random in
  the other seats' unknown places and the stock: every deal of them consistent with the view is
  equally likely (none that gives another seat a blitz, which it would have shown, R5.1). Nothing
  is read from how the others played (the expert's belief, ``thirtyone.bots.belief``, is not
  used: a value here does not depend on a model of the others). After a reshuffle (R4.3) the cards
  shuffled into the stock count as unseen like the others.
- **This seat** takes the best continuation for itself: after taking the pile's top card the best
  discard, after a draw from the stock the best discard *for the card drawn* (the best one for
  each card, then averaged over the cards), in widow mode the best of its exchanges or a pass.
- **The later seats** (those still to play their last turn after this seat) play, each in turn,
  for its own best hand: it takes the pile's top card when the best three with it are worth at
  least the exact expected value of a stock draw over the cards *it* has not seen (the same
  rule in the other direction: it draws), then keeps its best three (among equal values it
  discards the card of fewest points, then the highest card); in widow mode it takes the
  exchange that gives it the best hand (a pass among equal ones). This is a seat playing for
  itself from what it can see, not its whole value in lives: weighing each later seat's lives
  by its own belief over every world would cost a search of its own per world.
- **The round** ends as the rules end it: a 31 (or three aces, R1.5) made on a last turn ends it
  at once (R5.3, :func:`~thirtyone.settlement.blitz_losses`), otherwise the showdown after the
  last seat (R6.5, :func:`~thirtyone.settlement.showdown_charges`), settled by
  :func:`~thirtyone.settlement.charge` (R2.4–R2.6).

A value is in lives, as the expert's and the review's: the lives the other seats lose (their mean)
minus the lives this seat loses this round, being put out counting :data:`ELIMINATION` lives extra
(:func:`seat_utility`).

**Exact where it is cheap.** The deals of the unseen cards are enumerated, each counted once, when
there are at most :data:`EXACT_WORLDS` of them (every two-player last turn: the knocker's hidden
cards and the stock card), or :data:`EXACT_PLAYED` while later seats play; beyond that (three or
more players, where the hidden hands of two or more seats multiply) deals of the other seats'
hidden cards are sampled with the fixed seed :data:`SEED` (the same view always gets the same
values): :data:`SAMPLED_HANDS` of them, and for each *every* card the stock can give this seat is
counted (exact over the stock card and this seat's own choices); while later seats play,
:data:`SAMPLED_PLAYED` deals, or after this seat's stock draw :data:`SAMPLED_DRAWS` deals, each
played once for every card the stock can give this seat (the later seats' stock cards following in
the sampled deal's order). :attr:`LastTurn.exact` says which; a sampled value carries its standard
error.

>>> from thirtyone import Game, Rules
>>> game = Game(Rules(), players=2, seed=3)
>>> game.apply("knock")
>>> turn = last_turn(game.view(game.current_seat))
>>> turn.exact, [str(move.action) for move in turn.moves]
(True, ['draw stock', 'draw pile'])
>>> last_turn_values(game.view(game.current_seat)) == turn.values
True
>>> turn.best.action == max(turn.values, key=turn.values.get)
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Final

import numpy as np
import numpy.typing as npt

from thirtyone.actions import STOCK
from thirtyone.actions import Action
from thirtyone.actions import Discard
from thirtyone.actions import Draw
from thirtyone.actions import Exchange
from thirtyone.actions import ExchangeAll
from thirtyone.actions import Pass
from thirtyone.cards import Card
from thirtyone.cards import full_deck
from thirtyone.errors import ArgumentError
from thirtyone.errors import ThirtyOneError
from thirtyone.judge.seen import round_cards
from thirtyone.rules import Rules
from thirtyone.scoring import BLITZ_HALF
from thirtyone.scoring import half_points
from thirtyone.settlement import KNOCK_PENALTIES
from thirtyone.settlement import Loss
from thirtyone.settlement import blitz_losses
from thirtyone.settlement import charge
from thirtyone.settlement import showdown_charges
from thirtyone.views import Phase
from thirtyone.views import PlayerView

__all__ = [
    "ELIMINATION",
    "EXACT_WORLDS",
    "SAMPLED_HANDS",
    "SAMPLED_PLAYED",
    "SAMPLED_DRAWS",
    "SEED",
    "NotALastTurnError",
    "LastTurnMove",
    "LastTurn",
    "is_last_turn",
    "last_turn",
    "last_turn_values",
    "seat_utility",
]

ELIMINATION: Final = 2.0
"""The extra cost, in lives, of being put out (and the bonus for putting an opponent out)."""
EXACT_WORLDS: Final = 20_000
"""The most deals of the other seats' hidden cards counted one by one while no seat plays after
this one (each with every stock card; every two-player last turn has at most C(48, 3) = 17,296);
above it they are sampled."""
EXACT_PLAYED: Final = 10_000
"""The most deals (hidden cards and the stock's top cards) played out one by one while later
seats play (about the rows sampled instead); above it they are sampled."""
SAMPLED_HANDS: Final = 4096
"""Deals of the other seats' hidden cards sampled when there are too many to count and no seat
plays after this one."""
SAMPLED_PLAYED: Final = 2048
"""Deals sampled when later seats play and this seat draws no stock card (a discard, a widow turn)."""
SAMPLED_DRAWS: Final = 256
"""Deals sampled when later seats play after a stock draw of this seat: each is played once for
every card the stock can give this seat (about 40 times as many rows)."""
SEED: Final = 31
"""The seed of the sampled deals: a view's values never depend on a caller's seed."""

Ints = npt.NDArray[np.int32]
Floats = npt.NDArray[np.float64]


class NotALastTurnError(ThirtyOneError):
    """A view that is not a last turn this module can value: no knock (R6.2), not the seat's move,
    not a turn, or a last turn that the stock (R4.3) or the turn limit (R6.7) could cut short.
    ``rule`` is the rule id that says why."""

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(f"{message} ({rule})")
        self.rule = rule


@dataclass(frozen=True, slots=True)
class LastTurnMove:
    """One legal action of a last turn: its ``value`` in lives (:func:`seat_utility`), the
    standard error of that value (0 when counted exactly), ``gap_stderr``, the standard error of
    the best value less this one over the same deals (0 for the best, and when exact), and
    ``discard``, the best discard after taking the pile's top card (``None`` for other actions:
    after a stock draw the best discard depends on the card drawn)."""

    action: Action
    value: float
    stderr: float
    gap_stderr: float
    discard: Card | None = None


@dataclass(frozen=True, slots=True)
class LastTurn:
    """A last turn valued: ``moves`` (every legal action, in the view's order), whether they were
    counted ``exact``\\ ly, and the ``worlds`` (deals of the unseen cards) they were counted over."""

    moves: tuple[LastTurnMove, ...]
    exact: bool
    worlds: int

    @property
    def values(self) -> dict[Action, float]:
        """Each legal action's value in lives."""
        return {move.action: move.value for move in self.moves}

    @property
    def best(self) -> LastTurnMove:
        """The move of the highest value (ties to the first legal one)."""
        return max(self.moves, key=lambda move: move.value)


def seat_utility(lost: Sequence[float], eliminated: Sequence[int], seat: int, others: Sequence[int]) -> float:
    """What a round did to ``seat``, in lives: the lives the ``others`` lost (their mean) minus the
    lives ``seat`` lost, each seat put out (``eliminated[s]`` true) counting :data:`ELIMINATION`
    lives more. ``lost`` and ``eliminated`` are indexed by seat. The expert's and the review's unit.

    >>> seat_utility([0, 2, 1], [0, 0, 0], 0, [1, 2])
    1.5
    """
    mine = lost[seat] + (ELIMINATION if eliminated[seat] else 0.0)
    theirs = sum(lost[other] + (ELIMINATION if eliminated[other] else 0.0) for other in others)
    return theirs / max(len(others), 1) - mine


def is_last_turn(view: PlayerView) -> bool:
    """True when ``view`` is its seat's last turn after a knock (R6.2): a knock this round, and the
    seat to move with a turn or a discard to make."""
    return (
        view.knocker is not None
        and view.current_seat == view.seat
        and view.phase in (Phase.TURN, Phase.DISCARD)
        and view.hand is not None
    )


def last_turn_values(view: PlayerView) -> dict[Action, float]:
    """Each legal action of ``view``'s last turn and its value in lives (see :func:`last_turn`).

    Raises:
        NotALastTurnError: as :func:`last_turn`.
    """
    return last_turn(view).values


def last_turn(view: PlayerView) -> LastTurn:
    """Value every legal action of ``view``'s last turn (the module docstring says how): a draw
    (followed by its best discard), a discard once a card is drawn, an exchange or a pass.

    Raises:
        NotALastTurnError: when ``view`` is not a last turn (R6.2), or one a reshuffle (R4.3) or
            the turn limit (R6.7) could cut short.
        ArgumentError: when the view's cards do not add up (a view pieced together by hand).
    """
    spot = _Spot(view)
    return spot.value()


# ---------------------------------------------------------------------------------------------- tables

_AB = 52 * 52
_TABLES: dict[Rules, Ints] = {}
_POINTS: Final = np.array([card.points for card in full_deck(52)], dtype=np.int32)


def _table(rules: Rules) -> Ints:
    """The rules' half-point table (:func:`~thirtyone.scoring.half_points`) as an array (int16;
    the module's cards are int32 arrays, which index it fastest)."""
    table = _TABLES.get(rules)
    if table is None:
        if len(_TABLES) >= 16:
            _TABLES.clear()
        table = _TABLES[rules] = np.asarray(half_points(rules), dtype=np.int16)  # (small: fast to index)
    return table


def _v3(t: Ints, a: Ints, b: Ints, c: Ints) -> Ints:
    values: Ints = t[a * _AB + b * 52 + c]
    return values


def _index(hands: Ints) -> Ints:
    """Where each hand (rows of three cards) sits in the table."""
    index: Ints = hands[:, 0] * _AB + hands[:, 1] * 52 + hands[:, 2]
    return index


def _keep_three(t: Ints, four: Ints, keep: Ints | None) -> tuple[Ints, Ints]:
    """For four cards a row (``four``: N × 4), the best three and the discard: highest value, then
    the discard of fewest points, then the highest card; never the card ``keep`` (R4.2)."""
    columns = [four[:, i] for i in range(4)]
    keys = []
    for k in range(4):
        a, b, c = (columns[i] for i in _KEPT[k])
        key = _v3(t, a, b, c).astype(np.int32) * 10_000 - _POINTS[columns[k]] * 100 + columns[k]
        keys.append(key if keep is None else np.where(columns[k] == keep, -(10**9), key))
    best = np.argmax(np.stack(keys, axis=1), axis=1)
    return np.take_along_axis(four, _KEPT[best], axis=1), np.take_along_axis(four, best[:, None], axis=1)[:, 0]


_KEPT: Final = np.array([[i for i in range(4) if i != k] for k in range(4)], dtype=np.int32)
"""The cards kept of four when card ``k`` is discarded."""


# ---------------------------------------------------------------------------------------------- worlds


def _count(unseen: int, holes: Sequence[int], draws: int) -> int:
    """Deals of ``unseen`` cards to hidden places (``holes`` per seat, unordered) and ``draws``
    stock cards (ordered)."""
    count, left = 1, unseen
    for hole in holes:
        count *= math.comb(left, hole)
        left -= hole
    return count * math.perm(left, draws)


def _join(rows: Ints, choices: Ints) -> Ints:
    """Every row followed by every choice that shares no card with it."""
    left = np.repeat(rows, len(choices), axis=0)
    right = np.tile(choices, (len(rows), 1))
    clash = (left[:, :, None] == right[:, None, :]).any(axis=(1, 2)) if rows.shape[1] else np.zeros(len(left), bool)
    joined: Ints = np.concatenate([left, right], axis=1)[~clash]
    return joined


def _enumerate(unseen: int, holes: Sequence[int], draws: int) -> Ints:
    """Every deal (indices into the unseen cards), one a row: each seat's hidden cards, then the stock's."""
    rows = np.zeros((1, 0), dtype=np.int32)
    for hole in holes:
        if hole:
            rows = _join(rows, np.array(list(combinations(range(unseen), hole)), dtype=np.int32))
    for _ in range(draws):
        rows = _join(rows, np.arange(unseen, dtype=np.int32)[:, None])
    return rows


def _sample(unseen: int, hidden: int, draws: int, own_draw: bool, deals: int) -> tuple[Ints, Ints]:
    """Deals sampled with the seed :data:`SEED`, and which sampled deal each row is: with
    ``own_draw`` each of the ``deals`` once for every card the stock can give this seat first (the
    later draws following in the deal's order), else once."""
    rng = np.random.default_rng(SEED)
    order = np.argsort(rng.random((deals, unseen)), axis=1).astype(np.int32)
    if not own_draw:
        return order[:, : hidden + draws], np.arange(deals, dtype=np.int32)
    rest = unseen - hidden
    later = draws - 1
    first = np.arange(rest)
    # the deal's stock order without its card ``first``: that card drawn first, the next ones after
    after = np.array([[j + (j >= i) for j in range(later)] for i in range(rest)], dtype=np.int32).reshape(rest, later)
    stock = np.concatenate([first[:, None], after], axis=1) + hidden  # (rest, draws) positions in the order
    rows = np.concatenate(
        [np.repeat(order[:, :hidden], rest, axis=0), order[:, stock].reshape(deals * rest, draws)], axis=1
    )
    return rows, np.repeat(np.arange(deals, dtype=np.int32), rest)


# ---------------------------------------------------------------------------------------------- the turn


class _Spot:
    """One last turn read from a view: the seats, the cards, the deals to count."""

    def __init__(self, view: PlayerView) -> None:
        if view.knocker is None:
            raise NotALastTurnError("nobody has knocked this round: a last turn comes only after a knock", "R6.2")
        if view.current_seat != view.seat or view.phase not in (Phase.TURN, Phase.DISCARD) or view.hand is None:
            raise NotALastTurnError(f"it is not seat {view.seat}'s last turn to play now", "R6.2")
        rules = view.rules
        self.view, self.rules, self.table = view, rules, _table(rules)
        self.draw = rules.mode == "draw"
        active = list(view.active_seats)
        self.active, self.me, self.knocker = active, view.seat, view.knocker
        turn_order = [active[(active.index(self.knocker) + step) % len(active)] for step in range(1, len(active))]
        place = turn_order.index(self.me)
        self.later = turn_order[place + 1 :]
        self.others = [seat for seat in active if seat != self.me]
        cards = round_cards(view)
        known = {seat: tuple(view.seats[seat].known_cards) for seat in active}
        public = set(cards.pile) | set(cards.set_aside) | set(view.widow or ())
        for seat in active:
            public.update(known[seat])
        if view.taken_from_pile is not None:
            public.add(view.taken_from_pile)
        self.public = public
        self._cache: dict[int, float] = {}
        seen = public | set(view.hand)
        deck = full_deck(rules.deck)
        self.deck = np.array(deck, dtype=np.int32)
        self.unseen = np.array([card for card in deck if card not in seen], dtype=np.int32)
        self.known = {seat: list(known[seat]) for seat in self.others}
        self.holes = [3 - len(self.known[seat]) for seat in self.others]
        self.own_draw = self.draw and view.phase is Phase.TURN
        self.draws = (int(self.own_draw) + len(self.later)) if self.draw else 0
        if len(self.unseen) != sum(self.holes) + view.stock_size:
            raise ArgumentError(
                f"the view does not add up: {len(self.unseen)} unseen cards for {sum(self.holes)} hidden "
                f"and a stock of {view.stock_size}"
            )
        if self.draw and view.stock_size < self.draws:
            raise NotALastTurnError(
                f"the stock ({view.stock_size} cards) may run out before the showdown: not counted exactly", "R4.3"
            )
        if self.later and view.turn + len(self.later) >= rules.max_turns:
            raise NotALastTurnError("the turn limit may end the round before the showdown", "R6.7")

    # ------------------------------------------------------------------ valuing

    def value(self) -> LastTurn:
        """Every legal action's value: counted over the hidden hands alone while no seat plays
        after this one (:meth:`_frozen`), else deal by deal with the later seats' turns (:meth:`_played`)."""
        plans = [_plan(self.view, action) for action in self.view.legal_actions]
        return self._played(plans) if self.later else self._frozen(plans)

    def _frozen(self, plans: list[_Plan]) -> LastTurn:
        """No seat plays after this one: a deal matters by the other seats' values alone, and by
        the stock card this seat may draw, which is any unseen card its hidden hands leave."""
        unseen, t = len(self.unseen), self.table
        if _count(unseen, self.holes, 0) <= EXACT_WORLDS:
            rows, exact = _enumerate(unseen, self.holes, 0), True
        else:
            rows, exact = _sample(unseen, sum(self.holes), 0, False, SAMPLED_HANDS)[0], False
        rows = rows[self._possible(self._hands(self.unseen[rows]))]
        hands = self._hands(self.unseen[rows])
        others = np.stack([_value(t, hands[seat]) for seat in self.others], axis=1)
        vectors, which = np.unique(others, axis=0, return_inverse=True)
        which = which.reshape(-1)
        kinds = len(vectors)
        total = np.bincount(which, minlength=kinds).astype(np.float64)
        # the hands of each kind that hold each unseen card (then the stock cannot give it)
        holding = sum(
            (np.bincount(rows[:, column] * kinds + which, minlength=unseen * kinds) for column in range(rows.shape[1])),
            np.zeros(unseen * kinds),
        ).reshape(unseen, kinds)
        free = total[None, :] - holding  # for each stock card: the hands of each kind without it
        mine_at = self.active.index(self.me)
        per_value: dict[int, Floats] = {}

        def against(value: int) -> Floats:
            """This seat's value holding ``value`` against each kind of the other hands."""
            if value not in per_value:
                values = np.insert(vectors, mine_at, value, axis=1)
                blitz = np.full(kinds, mine_at if value >= BLITZ_HALF else -1)
                per_value[value] = self._settle(values, blitz)
            return per_value[value]

        moves_rows: dict[Action, Floats] = {}
        means: dict[Action, float] = {}
        discards: dict[Action, Card] = {}
        hand = self.view.hand or ()
        for plan in plans:
            if plan.stock:
                drawn = [
                    [_value(t, np.array([kept], dtype=np.int32))[0] for kept in _four_ways(hand, card)]
                    for card in self.unseen
                ]
                table = np.array([[against(int(value)) for value in row] for row in drawn])  # card × discard × kind
                by_discard = (table * free[:, None, :]).sum(axis=2)  # card × discard (counts)
                best = by_discard.argmax(axis=1)
                chosen = table[np.arange(unseen), best]  # card × kind
                weight = free.sum(axis=1)
                means[plan.action] = float(by_discard[np.arange(unseen), best].sum() / weight.sum())
                if not exact:  # each hand's value: the mean over the stock cards it leaves
                    held = np.zeros((len(rows), unseen), dtype=bool)
                    held[np.arange(len(rows))[:, None], rows] = True
                    per_card = chosen[:, which].T  # hand × card
                    moves_rows[plan.action] = (per_card * ~held).sum(axis=1) / (~held).sum(axis=1)
            else:
                options = [
                    (float((against(value) * total).sum() / total.sum()), k) for k, value in enumerate(plan.values(t))
                ]
                mean, k = max(options, key=lambda option: (option[0], -option[1]))
                means[plan.action] = mean
                lay = plan.lays[k]
                if lay is not None and len(plan.kept) > 1:
                    discards[plan.action] = lay
                if not exact:
                    moves_rows[plan.action] = against(plan.values(t)[k])[which]
        return _summary(self.view.legal_actions, means, None if exact else moves_rows, len(rows), discards)

    def _possible(self, hands: dict[int, Ints]) -> npt.NDArray[np.bool_]:
        """The deals the view allows: no other seat holds a blitz, which it would have shown
        (R5.1, R5.2, R5.4: a hand is checked whenever it is back to three cards)."""
        possible = np.ones(len(next(iter(hands.values()))), dtype=bool)
        for hand in hands.values():
            possible &= _value(self.table, hand) < BLITZ_HALF
        return possible

    def _hands(self, deal: Ints) -> dict[int, Ints]:
        """Each other seat's hand in every deal (N × 3) from its known and hidden cards."""
        n, column, hands = len(deal), 0, {}
        for seat, hole in zip(self.others, self.holes, strict=True):
            known = np.tile(np.array(self.known[seat], dtype=np.int32), (n, 1)).reshape(n, 3 - hole)
            hands[seat] = np.concatenate([known, deal[:, column : column + hole]], axis=1)
            column += hole
        return hands

    def _played(self, plans: list[_Plan]) -> LastTurn:
        """Later seats play: each deal (hidden hands and the stock's top cards) played out."""
        unseen, hidden = len(self.unseen), sum(self.holes)
        if _count(unseen, self.holes, self.draws) <= EXACT_PLAYED:
            rows, clusters = _enumerate(unseen, self.holes, self.draws), None
        else:
            deals = SAMPLED_DRAWS if self.own_draw else SAMPLED_PLAYED
            rows, clusters = _sample(unseen, hidden, self.draws, self.own_draw, deals)
        possible = self._possible(self._hands(self.unseen[rows]))
        rows = rows[possible]
        if clusters is not None:
            clusters = clusters[possible]
        deal = self.unseen[rows]
        n = len(deal)
        stock = deal[:, hidden:]
        rest = _Round(self, self._hands(deal), stock)
        per_deal: dict[Action, Floats] = {}
        discards: dict[Action, Card] = {}
        for plan in plans:
            if plan.stock:
                per_deal[plan.action] = self._stock_draw(rest, stock[:, 0], n)
                continue
            best_mean, best_rows, best_k = -math.inf, np.zeros(n), 0
            for k, kept in enumerate(plan.kept):
                lay = plan.lays[k]
                laid = (
                    np.tile(np.array(plan.widows[k], dtype=np.int32), (n, 1))
                    if lay is None
                    else np.full(n, lay, np.int32)
                )
                u = rest.utility(np.tile(np.array(kept, dtype=np.int32), (n, 1)), laid, 0)
                if u.mean() > best_mean + 1e-12:
                    best_mean, best_rows, best_k = float(u.mean()), u, k
            per_deal[plan.action] = best_rows
            lay = plan.lays[best_k]
            if lay is not None and len(plan.kept) > 1:
                discards[plan.action] = lay
        means = {action: float(values.mean()) for action, values in per_deal.items()}
        if clusters is not None:
            per_deal = {action: _cluster_means(values, clusters) for action, values in per_deal.items()}
        return _summary(self.view.legal_actions, means, per_deal if clusters is not None else None, n, discards)

    def _stock_draw(self, rest: _Round, drawn: Ints, n: int) -> Floats:
        """Each deal's value of a stock draw, the card ``drawn`` followed by the best discard for
        that card (over every deal in which the stock gives it)."""
        hand = np.array(self.view.hand, dtype=np.int32)
        four = np.concatenate([np.tile(hand, (n, 1)), drawn[:, None]], axis=1)
        by_discard = []
        for k in range(4):
            kept = four[:, [i for i in range(4) if i != k]]
            by_discard.append(rest.utility(kept, four[:, k], 1))
        values = np.stack(by_discard, axis=1)  # N × 4
        card = np.searchsorted(self.unseen, drawn)
        sums = np.stack([np.bincount(card, weights=values[:, k], minlength=len(self.unseen)) for k in range(4)], 1)
        choice = sums.argmax(axis=1)  # the best discard for each card drawn
        chosen: Floats = values[np.arange(n), choice[card]]
        return chosen

    def _settle(self, values: Ints, blitz: Ints) -> Floats:
        """This seat's value in each row of the seats' final values (rows × seats in, in seat
        order), ``blitz`` the index of the seat that showed a blitz in it (or -1). The rules (R5.3,
        R6.5) read only who showed the blitz, who holds the lowest hand and whether the knocker
        holds the highest: rows alike in these are settled once, by the settlement of one of them."""
        players = len(self.active)
        columns = [values[:, i] for i in range(players)]
        low = np.minimum.reduce(columns)
        high = np.maximum.reduce(columns)
        lowest = sum(
            ((column == low).astype(np.int32) << i for i, column in enumerate(columns)), np.zeros(len(low), np.int32)
        )
        not_highest = (columns[self.active.index(self.knocker)] < high).astype(np.int32)
        key = np.where(blitz >= 0, (blitz + 1) << (players + 1), (lowest << 1) | not_highest)
        size = (players + 1) << (players + 1)
        first = np.full(size, -1, dtype=np.int32)
        first[key] = np.arange(len(key))
        table = np.zeros(size)
        for code in np.flatnonzero(first >= 0):
            row = first[code]
            table[code] = self._utility(int(code), values[row], int(blitz[row]))
        utilities: Floats = table[key]
        return utilities

    def _utility(self, code: int, values: Ints, blitz: int) -> float:
        """This seat's value of one settled row (:func:`seat_utility` of the settlement's losses)."""
        cached = self._cache.get(code)
        if cached is not None:
            return cached
        view, active = self.view, self.active
        losses: tuple[Loss, ...]
        if blitz >= 0:
            losses = blitz_losses(active, active[blitz], knocked=True)
        else:
            halves = {seat: int(value) for seat, value in zip(active, values, strict=True)}
            losses = showdown_charges(halves, self.knocker, KNOCK_PENALTIES[self.rules.knock_penalty], "knock")
        settled = charge([status.remaining for status in view.seats], active, losses)
        lost = [0] * view.players
        for loss in losses:
            lost[loss.seat] += loss.lives
        out = [int(seat in settled.eliminated) for seat in range(view.players)]
        utility = self._cache[code] = seat_utility(lost, out, self.me, self.others)
        return utility


@dataclass(frozen=True, slots=True)
class _Plan:
    """What one legal action of this seat can lead to: ``kept`` hands (three cards each), each with
    the card it ``lays`` on the pile (or, in widow mode, ``None`` and the widow it leaves in
    ``widows``), the best of them chosen; or, for a stock draw (``stock``), the card drawn and
    then the best discard for it."""

    action: Action
    stock: bool = False
    kept: tuple[tuple[Card, ...], ...] = ()
    lays: tuple[Card | None, ...] = ()
    widows: tuple[tuple[Card, ...], ...] = ()

    def values(self, t: Ints) -> list[int]:
        return [int(_value(t, np.array([kept], dtype=np.int32))[0]) for kept in self.kept]


def _plan(view: PlayerView, action: Action) -> _Plan:
    hand = tuple(view.hand or ())
    if isinstance(action, Draw):
        if action.source == STOCK:
            return _Plan(action, stock=True)
        top = view.discard_top
        assert top is not None, "the pile's top card is taken"
        keeps = tuple((*(c for j, c in enumerate(hand) if j != k), top) for k in range(3))
        return _Plan(action, kept=keeps, lays=hand)
    if isinstance(action, Discard):
        return _Plan(action, kept=(tuple(c for c in hand if c != action.card),), lays=(action.card,))
    kept, widow = _exchanged(hand, view.widow or (), action)
    return _Plan(action, kept=(tuple(kept),), lays=(None,), widows=(tuple(widow),))


def _four_ways(hand: Sequence[Card], card: Card) -> list[tuple[Card, ...]]:
    """The four hands of three that ``hand`` (three cards) and a drawn ``card`` can keep."""
    four = (*hand, card)
    return [tuple(c for j, c in enumerate(four) if j != k) for k in range(4)]


def _value(t: Ints, hands: Ints) -> Ints:
    """The half points of each hand (rows of three cards)."""
    return t[_index(hands)]


def _cluster_means(values: Floats, clusters: Ints) -> Floats:
    """The mean of ``values`` over each sampled deal's rows (of the deals that have rows)."""
    counts = np.bincount(clusters)
    means: Floats = np.bincount(clusters, weights=values)[counts > 0] / counts[counts > 0]
    return means


def _exchange_places(any_two: bool) -> tuple[Ints, Ints]:
    """For each widow turn of a later seat, in order (a pass; each one-card exchange, hand card
    ``i`` for widow card ``j``; with ``exchange=any`` each two-card exchange keeping ``i`` and
    leaving ``j``; all three), the places of the hand kept and of the widow left among the six
    cards ``hand + widow`` (R7.1, R7.5)."""
    kept, left = [[0, 1, 2]], [[3, 4, 5]]
    for i in range(3):
        for j in range(3):
            rest, others = [k for k in range(3) if k != i], [3 + k for k in range(3) if k != j]
            kept.append([*rest, 3 + j])
            left.append([*others, i])
    if any_two:
        for i in range(3):
            for j in range(3):
                rest, others = [k for k in range(3) if k != i], [3 + k for k in range(3) if k != j]
                kept.append([i, *others])
                left.append([3 + j, *rest])
    kept.append([3, 4, 5])
    left.append([0, 1, 2])
    return np.array(kept, dtype=np.int32), np.array(left, dtype=np.int32)


_EXCHANGES: Final = {any_two: _exchange_places(any_two) for any_two in (False, True)}


def _best_exchange(t: Ints, hand: Ints, widow: Ints, any_two: bool) -> tuple[Ints, Ints]:
    """A later seat's widow turn: the hand and widow after the exchange that gives it the best
    hand, or its pass among equal values (then the first of :func:`_exchange_places`' order)."""
    six = np.concatenate([hand, widow], axis=1)
    kept, left = _EXCHANGES[any_two]
    values = t[six[:, kept[:, 0]] * _AB + six[:, kept[:, 1]] * 52 + six[:, kept[:, 2]]]  # deal × option
    best = np.argmax(values, axis=1)
    return np.take_along_axis(six, kept[best], axis=1), np.take_along_axis(six, left[best], axis=1)


def _exchanged(hand: Sequence[Card], widow: Sequence[Card], action: Action) -> tuple[list[Card], list[Card]]:
    """The hand and the widow after ``action`` (R7.1): an exchange, all three, or a pass."""
    if isinstance(action, Exchange):
        kept = [card for card in hand if card not in action.give] + list(action.take)
        return kept, [card for card in widow if card not in action.take] + list(action.give)
    if isinstance(action, ExchangeAll):
        return list(widow), list(hand)
    assert isinstance(action, Pass), action
    return list(hand), list(widow)


class _Round:
    """The rest of a round after this seat's last turn, over every deal at once: the later seats'
    turns, then the showdown."""

    def __init__(self, spot: _Spot, hands: dict[int, Ints], stock: Ints) -> None:
        self.spot, self.hands, self.stock = spot, hands, stock
        self.n = len(stock)
        t = spot.table
        self.expect: dict[int, tuple[npt.NDArray[np.intp], Floats, Floats, Floats]] = {}
        self.counts: dict[int, Floats] = {}
        self.drawn: dict[tuple[int, int], tuple[Ints, Ints]] = {}
        if spot.draw:  # each later seat's stock draw as it sees the cards: best three of four
            deck = spot.deck
            base = np.isin(deck, np.array(sorted(spot.public), dtype=np.int32), invert=True)
            for seat in spot.later:
                _, first, which = np.unique(  # its hands repeat: each computed once
                    _index(hands[seat]), return_index=True, return_inverse=True
                )
                h = hands[seat][first]
                gain = np.maximum(
                    np.maximum(_value(t, h)[:, None], _v3(t, h[:, [0]], h[:, [1]], deck[None, :])),
                    np.maximum(
                        _v3(t, h[:, [0]], h[:, [2]], deck[None, :]), _v3(t, h[:, [1]], h[:, [2]], deck[None, :])
                    ),
                ).astype(np.float64)  # its hand × card
                mask = base[None, :] & (deck[None, :] != h[:, [0]]) & (deck[None, :] != h[:, [1]])
                mask &= deck[None, :] != h[:, [2]]
                unseen = mask.astype(np.float64)
                self.expect[seat] = (which.reshape(-1), gain, unseen, (gain * unseen).sum(axis=1))
                self.counts[seat] = unseen.sum(axis=1)

    def utility(self, mine: Ints, laid: Ints, drawn: int) -> Floats:
        """Each deal's value for this seat holding ``mine`` (N × 3) after laying ``laid`` (its
        discard, N; in widow mode the widow it leaves, N × 3), ``drawn`` stock cards taken so far."""
        spot, t, n = self.spot, self.spot.table, self.n
        finals = {spot.me: _value(t, mine)}
        blitz = np.where(finals[spot.me] >= BLITZ_HALF, spot.active.index(spot.me), -1)
        pointer = np.full(n, drawn)
        shown = [laid]  # the cards laid on the pile since the view (draw mode)
        for seat in spot.later:
            h = self.hands[seat]
            if spot.draw:
                top = laid
                taking, taken_discard = _keep_three(t, np.concatenate([h, top[:, None]], axis=1), top)
                which, gain, unseen, total = self.expect[seat]
                count = self.counts[seat][which]
                total = total[which]
                for card in shown:  # a card it saw laid on the pile is no longer in its stock
                    column = np.searchsorted(spot.deck, card)
                    seen = unseen[which, column]
                    total = total - seen * gain[which, column]
                    count = count - seen
                expected = np.divide(total, count, out=np.zeros(n), where=count > 0)
                takes = _value(t, taking) >= expected
                drawing, drawn_discard = self._draws(seat, pointer, drawn, drawn + spot.later.index(seat))
                kept = np.where(takes[:, None], taking, drawing)
                laid = np.where(takes, taken_discard, drawn_discard)
                pointer = pointer + ~takes
                shown.append(laid)
            else:
                kept, laid = _best_exchange(t, h, laid, spot.rules.exchange == "any")
            finals[seat] = value = _value(t, kept)
            blitz = np.where((blitz < 0) & (value >= BLITZ_HALF), spot.active.index(seat), blitz)
        for seat in spot.others:
            if seat not in finals:
                finals[seat] = _value(t, self.hands[seat])
        return spot._settle(np.stack([finals[seat] for seat in spot.active], axis=1), blitz)

    def _draws(self, seat: int, pointer: Ints, low: int, high: int) -> tuple[Ints, Ints]:
        """What a later seat keeps and discards after drawing the stock card at ``pointer`` (each
        deal's; from ``low`` to ``high``): worked out once for each stock place and reused."""
        for place in range(low, high + 1):
            if (seat, place) not in self.drawn:
                four = np.concatenate([self.hands[seat], self.stock[:, place : place + 1]], axis=1)
                self.drawn[seat, place] = _keep_three(self.spot.table, four, None)
        kept, discard = self.drawn[seat, low]
        for place in range(low + 1, high + 1):
            at_place, thrown = self.drawn[seat, place]
            here = pointer == place
            kept, discard = np.where(here[:, None], at_place, kept), np.where(here, thrown, discard)
        return kept, discard


def _summary(
    legal: Sequence[Action],
    means: dict[Action, float],
    samples: dict[Action, Floats] | None,
    worlds: int,
    discards: dict[Action, Card] | None = None,
) -> LastTurn:
    """The moves from their ``means``; with ``samples`` (each sampled deal's value, by action),
    the standard errors of the means and of their differences from the best."""
    best = max(legal, key=lambda action: means[action])

    def error(values: Floats | None) -> float:
        return 0.0 if values is None or len(values) < 2 else float(values.std(ddof=1) / math.sqrt(len(values)))

    moves = tuple(
        LastTurnMove(
            action,
            means[action],
            0.0 if samples is None else error(samples[action]),
            0.0 if samples is None else error(samples[best] - samples[action]),
            (discards or {}).get(action),
        )
        for action in legal
    )
    return LastTurn(moves, samples is None, worlds)
