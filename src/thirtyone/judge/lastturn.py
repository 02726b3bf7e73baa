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

import functools
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


_KEPT: Final = np.array([[i for i in range(4) if i != k] for k in range(4)], dtype=np.int32)
"""The cards kept of four when card ``k`` is discarded."""
_KEY: Final = 10_000
"""Three cards kept of four as one number: their value × ``_KEY``, less 100 × the points of the
card thrown, plus that card. The highest is the best choice (highest value, then the discard of
fewest points, then the highest card), and the value and the card read back from it."""


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


@functools.lru_cache(maxsize=32)
def _enumerate(unseen: int, holes: tuple[int, ...], draws: int) -> Ints:
    """Every deal (indices into the unseen cards), one a row: each seat's hidden cards, then the
    stock's. They depend on the counts alone: kept (read-only) for the next view with the same counts."""
    rows = np.zeros((1, 0), dtype=np.int32)
    for hole in holes:
        if hole:
            rows = _join(rows, np.array(list(combinations(range(unseen), hole)), dtype=np.int32))
    for _ in range(draws):
        rows = _join(rows, np.arange(unseen, dtype=np.int32)[:, None])
    return _read_only(rows)


@functools.lru_cache(maxsize=32)
def _sample(unseen: int, hidden: int, draws: int, own_draw: bool, deals: int) -> tuple[Ints, Ints]:
    """Deals sampled with the seed :data:`SEED`, and which sampled deal each row is: with
    ``own_draw`` each of the ``deals`` once for every card the stock can give this seat first (the
    later draws following in the deal's order), else once. They depend on the counts alone: kept
    (read-only) for the next view with the same counts."""
    rng = np.random.default_rng(SEED)
    order = np.argsort(rng.random((deals, unseen)), axis=1).astype(np.int32)
    if not own_draw:
        return _read_only(order[:, : hidden + draws]), _read_only(np.arange(deals, dtype=np.int32))
    rest = unseen - hidden
    later = draws - 1
    first = np.arange(rest)
    # the deal's stock order without its card ``first``: that card drawn first, the next ones after
    after = np.array([[j + (j >= i) for j in range(later)] for i in range(rest)], dtype=np.int32).reshape(rest, later)
    stock = np.concatenate([first[:, None], after], axis=1) + hidden  # (rest, draws) positions in the order
    rows = np.concatenate(
        [np.repeat(order[:, :hidden], rest, axis=0), order[:, stock].reshape(deals * rest, draws)], axis=1
    )
    return _read_only(rows), _read_only(np.repeat(np.arange(deals, dtype=np.int32), rest))


def _read_only(array: Ints) -> Ints:
    """``array`` made read-only (a cached answer: no caller may change it)."""
    array.flags.writeable = False
    return array


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
        self._settled = np.full((len(active) + 1) << (len(active) + 1), np.nan)  # by code (:meth:`_settle`)
        seen = public | set(view.hand)
        deck = full_deck(rules.deck)
        self.deck = np.array(deck, dtype=np.int32)
        self.columns = np.zeros(52, dtype=np.int32)  # each card's place in the deck
        self.columns[self.deck] = np.arange(len(deck), dtype=np.int32)
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
            rows, exact = _enumerate(unseen, tuple(self.holes), 0), True
        else:
            rows, exact = _sample(unseen, sum(self.holes), 0, False, SAMPLED_HANDS)[0], False
        possible, _, dealt = self._deals(rows)
        rows = rows[possible]
        others = np.stack([dealt[seat] for seat in self.others], axis=1)
        # the kinds of the other hands' values, in the order of np.unique(others, axis=0): each
        # row as one number (the values shifted to be non-negative, 7 bits each) sorts the same
        code = sum(
            (
                (dealt[seat].astype(np.int64) + 1) << (7 * (len(self.others) - 1 - i))
                for i, seat in enumerate(self.others)
            ),
            np.zeros(len(rows), np.int64),
        )
        _, first, which = np.unique(code, return_index=True, return_inverse=True)
        vectors = others[first]
        kinds = len(vectors)
        total = np.bincount(which, minlength=kinds).astype(np.float64)
        # the hands of each kind that hold each unseen card (then the stock cannot give it)
        holding = sum(
            (np.bincount(rows[:, column] * kinds + which, minlength=unseen * kinds) for column in range(rows.shape[1])),
            np.zeros(unseen * kinds),
        ).reshape(unseen, kinds)
        free = total[None, :] - holding  # for each stock card: the hands of each kind without it
        mine_at = self.active.index(self.me)

        def against(values: Ints) -> Floats:
            """This seat's value holding each of ``values`` against each kind of the other hands
            (values × kinds)."""
            columns = [np.tile(column, len(values)) for column in vectors.T]
            columns.insert(mine_at, np.repeat(values, kinds))
            blitz = np.where(columns[mine_at] >= BLITZ_HALF, mine_at, -1)
            return self._settle(columns, blitz).reshape(len(values), kinds)

        moves_rows: dict[Action, Floats] = {}
        means: dict[Action, float] = {}
        discards: dict[Action, Card] = {}
        hand = self.view.hand or ()
        for plan in plans:
            if plan.stock:
                four = np.concatenate(
                    [np.tile(np.array(hand, dtype=np.int32), (unseen, 1)), self.unseen[:, None]], axis=1
                )
                drawn = _value(t, four[:, _KEPT].reshape(-1, 3))  # card × discard, flat
                kept_values, kept_kind = np.unique(drawn, return_inverse=True)
                table = against(kept_values)[kept_kind].reshape(unseen, 4, kinds)  # card × discard × kind
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
                settled = against(np.array(plan.values(t), dtype=np.int16))
                options = [(float((row * total).sum() / total.sum()), k) for k, row in enumerate(settled)]
                mean, k = max(options, key=lambda option: (option[0], -option[1]))
                means[plan.action] = mean
                lay = plan.lays[k]
                if lay is not None and len(plan.kept) > 1:
                    discards[plan.action] = lay
                if not exact:
                    moves_rows[plan.action] = settled[k][which]
        return _summary(self.view.legal_actions, means, None if exact else moves_rows, len(rows), discards)

    def _deals(self, rows: Ints) -> tuple[npt.NDArray[np.bool_], dict[int, Ints], dict[int, Ints]]:
        """Which deals (``rows`` of indices into the unseen cards) the view allows: no other seat
        holds a blitz, which it would have shown (R5.1, R5.2, R5.4: a hand is checked whenever it
        is back to three cards); and in those each other seat's hand and its value."""
        hands = self._hands(self.unseen[rows])
        values = {seat: _value(self.table, hand) for seat, hand in hands.items()}
        possible = np.logical_and.reduce([value < BLITZ_HALF for value in values.values()])
        return (
            possible,
            {seat: hand[possible] for seat, hand in hands.items()},
            {seat: value[possible] for seat, value in values.items()},
        )

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
            rows, clusters = _enumerate(unseen, tuple(self.holes), self.draws), None
        else:
            deals = SAMPLED_DRAWS if self.own_draw else SAMPLED_PLAYED
            rows, clusters = _sample(unseen, hidden, self.draws, self.own_draw, deals)
        possible, hands, dealt = self._deals(rows)
        rows = rows[possible]
        if clusters is not None:
            clusters = clusters[possible]
        n = len(rows)
        stock = self.unseen[rows[:, hidden:]]
        rest = _Round(self, hands, dealt, stock)
        per_deal: dict[Action, Floats] = {}
        discards: dict[Action, Card] = {}
        for plan in plans:
            if plan.stock:
                per_deal[plan.action] = self._stock_draw(rest, rows[:, hidden], n)
                continue
            best_mean, best_rows, best_k = -math.inf, np.zeros(n), 0
            for k, kept in enumerate(plan.kept):
                lay = plan.lays[k]
                laid = np.array([plan.widows[k]], dtype=np.int32) if lay is None else np.full(n, lay, np.int32)
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

    def _stock_draw(self, rest: _Round, card: Ints, n: int) -> Floats:
        """Each deal's value of a stock draw, the card drawn (``card``: its place among the unseen
        cards) followed by the best discard for that card (over every deal in which the stock
        gives it)."""
        hand = np.array(self.view.hand, dtype=np.int32)
        four = np.concatenate([np.tile(hand, (n, 1)), self.unseen[card][:, None]], axis=1)
        by_discard = []
        for k in range(4):
            kept = four[:, [i for i in range(4) if i != k]]
            by_discard.append(rest.utility(kept, four[:, k], 1))
        values = np.stack(by_discard, axis=1)  # N × 4
        sums = np.stack([np.bincount(card, weights=values[:, k], minlength=len(self.unseen)) for k in range(4)], 1)
        choice = sums.argmax(axis=1)  # the best discard for each card drawn
        chosen: Floats = values[np.arange(n), choice[card]]
        return chosen

    def _settle(self, columns: Sequence[Ints], blitz: Ints) -> Floats:
        """This seat's value in each row of the seats' final values (``columns``: one a seat in, in
        seat order), ``blitz`` the index of the seat that showed a blitz in it (or -1). The rules
        (R5.3, R6.5) read only who showed the blitz, who holds the lowest hand and whether the
        knocker holds the highest: rows alike in these are settled once (the first time such a row
        is met), by the settlement of one of them, and kept in ``_settled`` by that code."""
        players = len(self.active)
        low = functools.reduce(np.minimum, columns)
        high = functools.reduce(np.maximum, columns)
        lowest = functools.reduce(
            np.bitwise_or, ((column == low).astype(np.int32) << i for i, column in enumerate(columns))
        )
        not_highest = (columns[self.active.index(self.knocker)] < high).astype(np.int32)
        key = np.where(blitz >= 0, (blitz + 1) << (players + 1), (lowest << 1) | not_highest)
        utilities: Floats = self._settled[key]
        if np.isnan(utilities).any():
            last = np.full(len(self._settled), -1)
            last[key] = np.arange(len(key))  # a row of each code
            for code in np.flatnonzero((last >= 0) & np.isnan(self._settled)):
                row = last[code]
                self._settled[code] = self._utility([int(column[row]) for column in columns], int(blitz[row]))
            utilities = self._settled[key]
        return utilities

    def _utility(self, values: Sequence[int], blitz: int) -> float:
        """This seat's value of one settled row (:func:`seat_utility` of the settlement's losses)."""
        view, active = self.view, self.active
        losses: tuple[Loss, ...]
        if blitz >= 0:
            losses = blitz_losses(active, active[blitz], knocked=True)
        else:
            halves = dict(zip(active, values, strict=True))
            losses = showdown_charges(halves, self.knocker, KNOCK_PENALTIES[self.rules.knock_penalty], "knock")
        settled = charge([status.remaining for status in view.seats], active, losses)
        lost = [0] * view.players
        for loss in losses:
            lost[loss.seat] += loss.lives
        out = [int(seat in settled.eliminated) for seat in range(view.players)]
        return seat_utility(lost, out, self.me, self.others)


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


def _value(t: Ints, hands: Ints) -> Ints:
    """The half points of each hand (rows of three cards)."""
    return t[_index(hands)]


def _cluster_means(values: Floats, clusters: Ints) -> Floats:
    """The mean of ``values`` over each sampled deal's rows (of the deals that have rows)."""
    counts = np.bincount(clusters)
    means: Floats = np.bincount(clusters, weights=values)[counts > 0] / counts[counts > 0]
    return means


def _exchange_places(any_two: bool) -> tuple[Ints, Ints, Ints]:
    """For each widow turn of a later seat, in order (a pass; each one-card exchange, hand card
    ``i`` for widow card ``j``; with ``exchange=any`` each two-card exchange keeping ``i`` and
    leaving ``j``; all three), the places of the hand kept and of the widow left among the six
    cards ``hand + widow`` (R7.1, R7.5); and the weight of each of the six cards (6 × turn) in the
    table index (:func:`_index`) of each turn's hand kept."""
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
    weights = np.zeros((6, len(kept)), dtype=np.int32)
    for turn, places in enumerate(kept):
        weights[places, turn] = (_AB, 52, 1)
    return np.array(kept, dtype=np.int32), np.array(left, dtype=np.int32), weights


_EXCHANGES: Final = {any_two: _exchange_places(any_two) for any_two in (False, True)}


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

    def __init__(self, spot: _Spot, hands: dict[int, Ints], dealt: dict[int, Ints], stock: Ints) -> None:
        """``hands``: each other seat's hand in every deal (N × 3), ``dealt`` its value, ``stock``
        the stock's top cards (N × the draws)."""
        self.spot, self.hands, self.dealt, self.stock = spot, hands, dealt, stock
        self.n = len(stock)
        t = spot.table
        # a later seat's expected stock draw: for each deal where its hand's row of ``gain`` and
        # ``unseen`` (hand × card, flat) starts, and the sum and the count of its unseen cards
        self.expect: dict[int, tuple[Ints, Floats, Floats, Floats, Floats]] = {}
        # a later seat's choice of three of four (:data:`_KEY`), with the card beside its hand in
        # every deal: the table index of the two hand cards it keeps (3 × N, by the hand card
        # thrown), the key's part for that card thrown (3 × N), and its hand's value × _KEY
        self.keys: dict[int, tuple[Ints, Ints, Ints]] = {}
        self.drawn: dict[tuple[int, int], tuple[Ints, Ints]] = {}
        # a later seat's widow turns: the part of its hand in the table index of each turn's hand
        # kept (turn × N, :func:`_exchange_places`)
        self.exchanges: dict[int, Ints] = {}
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
                which = which.reshape(-1)
                self.expect[seat] = (
                    (which * len(deck)).astype(np.int32),
                    gain.reshape(-1),
                    unseen.reshape(-1),
                    (gain * unseen).sum(axis=1)[which],
                    unseen.sum(axis=1)[which],
                )
                hand = hands[seat]
                self.keys[seat] = (
                    np.ascontiguousarray((hand[:, _KEPT[:3, 0]] * _AB + hand[:, _KEPT[:3, 1]] * 52).T),
                    np.ascontiguousarray((hand - _POINTS[hand] * 100).T),
                    dealt[seat].astype(np.int32) * _KEY,
                )
        else:
            weights = _EXCHANGES[spot.rules.exchange == "any"][2]
            for seat in spot.later:
                hand = hands[seat]
                self.exchanges[seat] = sum(
                    (weights[i][:, None] * hand[:, i] for i in range(3)), np.zeros((1, self.n), np.int32)
                )

    def utility(self, mine: Ints, laid: Ints, drawn: int) -> Floats:
        """Each deal's value for this seat holding ``mine`` (N × 3) after laying ``laid`` (its
        discard, N; in widow mode the widow it leaves, 1 × 3: the same in every deal), ``drawn``
        stock cards taken so far."""
        spot, t, n = self.spot, self.spot.table, self.n
        finals = {spot.me: _value(t, mine)}
        blitz = np.where(finals[spot.me] >= BLITZ_HALF, spot.active.index(spot.me), -1)
        pointer = np.full(n, drawn)
        shown = [laid]  # the cards laid on the pile since the view (draw mode)
        for seat in spot.later:
            if spot.draw:
                taken, taken_discard = self._best_three(seat, laid, throw=False)
                rows, gain, unseen, total, count = self.expect[seat]
                for card in shown:  # a card it saw laid on the pile is no longer in its stock
                    at = rows + spot.columns[card]
                    seen = unseen[at]
                    total = total - seen * gain[at]
                    count = count - seen
                expected = np.divide(total, count, out=np.zeros(n), where=count > 0)
                takes = taken >= expected
                drawing, drawn_discard = self._draws(seat, pointer, drawn, drawn + spot.later.index(seat))
                value = np.where(takes, taken, drawing)
                laid = np.where(takes, taken_discard, drawn_discard)
                pointer = pointer + ~takes
                shown.append(laid)
            else:  # the exchange that gives it the best hand, or its pass among equal values
                _, left, weights = _EXCHANGES[spot.rules.exchange == "any"]
                index = self.exchanges[seat] + sum(weights[3 + i][:, None] * laid[:, i] for i in range(3))
                turns = t[index]  # turn × deal: the value of the hand it keeps
                value = turns.max(axis=0)
                if seat != spot.later[-1]:  # the widow it leaves, which the next seat finds
                    six = np.concatenate([self.hands[seat], np.broadcast_to(laid, (n, 3))], axis=1)
                    laid = six[np.arange(n)[:, None], left[turns.argmax(axis=0)]]
            finals[seat] = value
            blitz = np.where((blitz < 0) & (value >= BLITZ_HALF), spot.active.index(seat), blitz)
        for seat in spot.others:
            if seat not in finals:
                finals[seat] = self.dealt[seat]
        return spot._settle([finals[seat] for seat in spot.active], blitz)

    def _best_three(self, seat: int, card: Ints, throw: bool) -> tuple[Ints, Ints]:
        """A later seat's best three of its hand and ``card`` (each deal's), the highest value, then
        the discard of fewest points, then the highest card: their value and the card it discards,
        ``card`` itself only with ``throw`` (a card taken from the pile stays, R4.2)."""
        pairs, thrown, whole = self.keys[seat]
        keys = self.spot.table[pairs + card].astype(np.int32) * _KEY + thrown
        best = keys.max(axis=0)
        if throw:
            best = np.maximum(best, whole - _POINTS[card] * 100 + card)
        value: Ints = (best + _KEY // 2) // _KEY
        discard: Ints = best % 100
        return value, discard

    def _draws(self, seat: int, pointer: Ints, low: int, high: int) -> tuple[Ints, Ints]:
        """The value a later seat keeps and the card it discards after drawing the stock card at
        ``pointer`` (each deal's; from ``low`` to ``high``): worked out once for each stock place
        and reused."""
        for place in range(low, high + 1):
            if (seat, place) not in self.drawn:
                self.drawn[seat, place] = self._best_three(seat, self.stock[:, place], throw=True)
        value, discard = self.drawn[seat, low]
        for place in range(low + 1, high + 1):
            at_place, thrown = self.drawn[seat, place]
            here = pointer == place
            value, discard = np.where(here, at_place, value), np.where(here, thrown, discard)
        return value, discard


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
