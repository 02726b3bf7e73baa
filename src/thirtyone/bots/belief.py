"""Belief: how likely an opponent's hidden hand is, given what it did this round.

A world gives each opponent a hand. The belief scores a hand by the likelihood of that opponent's
public choices this round (its *steps*) under a trembling heuristic: at each step the opponent
plays the heuristic's move (:func:`~thirtyone.bots.heuristic.heuristic_action`) with probability
``1 - epsilon`` and, with probability ``epsilon``, any of its legal actions at random::

    P(observed | hand) = (1 - epsilon) * [heuristic(step, hand) == observed] + epsilon / legal

The steps, read from the round's history (:func:`_read_steps`):

- **draw mode**: each turn's draw (from the stock while the pile's top card lay there, from the
  pile, or a knock instead: each turn it did not knock is evidence too) and each discard (the
  heuristic's discard rule on the hand plus the card thrown, exact in a world);
- **widow mode**: each exchange, pass or knock against the widow of the moment, and the
  Schwimmen dealer's ``keep`` (an ``exchange all`` leaves its old hand face up: nothing earlier
  is read).

The hand at an earlier step is rebuilt from the world's hand by undoing the later public moves:
a card taken from the pile goes back for the card discarded after it, an exchange is undone, so
in widow mode every earlier hand is exact. The card drawn from the stock is unknown: for the
latest stock draw, the hand before it is each of the four (the hand and the card thrown) less
one card not known to be held, and the step's chance the mean over them; further back the hand
after a stock draw stands in for the one before it (a *proxy*). A proxy step counts
:data:`PROXY_WEIGHT` times in the log-likelihood (weaker evidence), an exact one once, and only
the :data:`PROXY_STEPS` latest proxies are read (older ones only added noise). The opponent's
unseen cards (for the value of a stock draw) are taken to be this seat's.

**Sampling** (:meth:`Belief.pools`, :meth:`Pools.complete`): per decision, each opponent read
gets a pool of completions of its known cards, drawn as ``sample_position`` draws them (the best
of its missing cards and one extra a chance it had to improve) and weighted by the likelihood;
each world deals an opponent a completion from its pool in proportion to its weight among those
whose cards are still undealt (sampling-importance-resampling), and in a share
:data:`UNIFORM_SHARE` of the worlds a uniform one (a pool of a hundred hands may miss the true
one; a belief sure of a wrong hand costs more than a vaguer one). **Fallback**: where no
completion has a positive finite weight (a belief that became impossible: another opponent of
the world holds every likely hand, or a corrupted position made the weights not finite), the
opponent's cards are dealt uniformly. Likelihoods are always finite (``epsilon > 0``), so a
history that nothing explains flattens the weights instead of emptying them.

**Fitted** (``python benchmarks/bench_belief.py --fit``): on 529 positions with evidence from
3- and 4-player ``scat`` games (seats ``heuristic`` and ``expert-v1:30``, seeds from 10,000), the
mean log-likelihood per hidden card of the true hidden cards under the pools' marginals, on a
grid of ``epsilon`` (0.01–0.5) and ``proxy_weight`` (0, 0.25, 0.5, 1). The best point depends
on the pool: with 100 completions (the pool of ``expert:200``) ``epsilon = 0.3`` (−2.524 per card;
0.2: −2.530; 0.1: −2.551; 0.01: −2.610, all at ``proxy_weight = 0.5``), with 200 (the pool at a
table's time budget) ``epsilon = 0.1`` (−2.429; 0.2: −2.429; 0.3: −2.438); a smaller pool wants
a softer belief, to keep enough of its hands. :data:`EPSILON` = 0.2 and :data:`PROXY_WEIGHT` =
0.5 are within 0.006 of the best of both.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from thirtyone.actions import PILE
from thirtyone.actions import STOCK
from thirtyone.actions import Action
from thirtyone.actions import Discard
from thirtyone.actions import Draw
from thirtyone.actions import Exchange
from thirtyone.actions import ExchangeAll
from thirtyone.actions import Keep
from thirtyone.actions import Knock
from thirtyone.actions import Pass
from thirtyone.actions import TakeWidow
from thirtyone.actions import two_card_exchanges
from thirtyone.bots.hands import MAX_EXTRA
from thirtyone.bots.hands import hand_index
from thirtyone.bots.hands import likely_completion
from thirtyone.bots.heuristic import heuristic_action
from thirtyone.bots.knowledge import Knowledge
from thirtyone.bots.situation import Situation
from thirtyone.cards import Card
from thirtyone.events import Acted
from thirtyone.events import NewWidow
from thirtyone.events import RoundStarted
from thirtyone.position import Position
from thirtyone.scoring import half_points
from thirtyone.views import Phase
from thirtyone.views import PlayerView

__all__ = [
    "Belief",
    "Pools",
    "OpponentRead",
    "EPSILON",
    "PROXY_WEIGHT",
    "PROXY_STEPS",
    "POOL_SIZE",
    "UNIFORM_SHARE",
    "pool_size",
    "improvement_chances",
    "reads",
]

EPSILON = 0.2
"""The chance an opponent trembles off the heuristic's move at a step (fitted: module docstring)."""
PROXY_WEIGHT = 0.5
"""How much a step whose hand is a proxy counts, against 1 for an exact one (fitted)."""
POOL_SIZE = 200
"""The most completions weighed per opponent and decision (:meth:`Belief.pools`)."""


def pool_size(worlds: int, seconds: float | None = None) -> int:
    """The completions an opponent's pool holds for a decision of ``worlds`` worlds and at most
    ``seconds`` seconds (``None``: no cap): half the worlds, and at most 1,000 a second (the pool
    costs about 0.07 ms a completion and opponent, so a fifth of the time with three opponents),
    between 16 and :data:`POOL_SIZE`. A world drawn from the pool costs next to nothing."""
    size = worlds // 2 if seconds is None else min(worlds // 2, int(seconds * 1000))
    return min(POOL_SIZE, max(16, size))


UNIFORM_SHARE = 0.15
"""The share of worlds where :meth:`Pools.complete` deals an opponent's hidden cards at random
instead of from its pool: a pool of a few hundred hands may miss the true one, and a world that
never holds it would make the belief sure of a wrong hand (chosen with the bench: 0.15 scored
−2.58 per hidden card against −2.64 without, on 150 ``scat`` positions)."""
PROXY_STEPS = 2
"""Proxy steps read per opponent, the most recent ones (older proxies only added noise)."""

_DRAW_STOCK, _DRAW_PILE, _KNOCK, _PASS, _EXCHANGE_ALL = Draw(STOCK), Draw(PILE), Knock(), Pass(), ExchangeAll()
_DISCARD = Phase.DISCARD
_DEALER_CHOICES = (Keep(), TakeWidow())


@dataclass(frozen=True, slots=True)
class _Step:
    """One public choice of an opponent. The hand it chose from is rebuilt from the world's
    current hand by ``undo`` (``(taken, given)`` pairs, latest first: where ``taken`` is in the
    hand it goes back for ``given``); a discard step adds the card thrown (``thrown``), and so
    does the draw of that turn when it drew from the stock (the hand before it is then the four
    less the card drawn, unknown: every choice is weighed).
    ``situation`` holds everything but the hand (and, for a face-up widow, the exchanges)."""

    situation: Situation
    observed: Action
    undo: tuple[tuple[tuple[Card, ...], tuple[Card, ...]], ...]
    thrown: Card | None
    exact: bool
    phase_discard: bool


@dataclass(frozen=True, slots=True)
class OpponentRead:
    """What the belief says of one opponent: the suit (0 clubs … 3 spades, as
    :attr:`~thirtyone.cards.Card.suit`) it most probably collects (the best suit of its hand)
    and the probability of that, the share of the worlds where it is."""

    seat: int
    suit: int
    probability: float


class Belief:
    """The belief of ``view.seat`` about its opponents' hidden hands; see the module docstring.

    ``epsilon`` is the tremble (0 < epsilon <= 1), ``proxy_weight`` the weight of a proxy step (>= 0).

    Raises:
        ValueError: for an ``epsilon`` or ``proxy_weight`` outside those ranges.
    """

    __slots__ = (
        "_chances",
        "_exchanges_any",
        "_known",
        "_rules",
        "_steps",
        "_table",
        "_unseen",
        "epsilon",
        "proxy_weight",
    )

    def __init__(
        self,
        view: PlayerView,
        knowledge: Knowledge | None = None,
        *,
        epsilon: float = EPSILON,
        proxy_weight: float = PROXY_WEIGHT,
    ) -> None:
        if not 0.0 < epsilon <= 1.0:
            raise ValueError(f"epsilon is a probability above 0 and at most 1, not {epsilon!r}")
        if not proxy_weight >= 0.0:
            raise ValueError(f"proxy_weight is 0 or more, not {proxy_weight!r}")
        self.epsilon = epsilon
        self.proxy_weight = proxy_weight
        self._rules = view.rules
        self._table = half_points(view.rules)
        self._exchanges_any = view.rules.exchange == "any"
        if knowledge is None:
            knowledge = Knowledge.from_view(view)
        self._steps = _read_steps(view, knowledge)
        self._known = knowledge.known
        self._unseen = knowledge.unseen
        self._chances = improvement_chances(view)

    def steps(self, seat: int) -> int:
        """How many of ``seat``'s choices this round the belief reads (0 for this seat)."""
        return len(self._steps.get(seat, ()))

    def outcomes(self, seat: int, hand: Sequence[Card]) -> list[tuple[float, int, bool]]:
        """For ``seat`` holding ``hand`` (three cards) now: at each of its steps, the chance that
        the heuristic plays what it played (1 or 0; for the latest stock draw, the share of the
        hands it may have drawn to), the number of legal actions there, and whether the step's
        hand is exact (not a proxy)."""
        results = []
        known = self._known[seat]
        for step in self._steps.get(seat, ()):
            cards = list(hand)
            for gone, back in step.undo:
                if all(card in cards for card in gone):
                    cards = [card for card in cards if card not in gone] + list(back)
            thrown = step.thrown
            if len(cards) != 3 or (thrown is not None and thrown in cards):
                continue  # (a proxy that held the card it threw: nothing to read)
            if len(set(cards)) != 3:  # a card it threw, back in the stock after a reshuffle: not this hand
                situation = step.situation
                legal = 4 - (situation.taken_from_pile is not None) if step.phase_discard else len(situation.legal)
                results.append((0.0, max(legal, 1), step.exact))
                continue
            if step.phase_discard:
                assert thrown is not None
                cards.append(thrown)
                taken = step.situation.taken_from_pile
                if taken is not None and taken not in cards:
                    continue  # (a proxy that cannot have held the card taken)
                matched = self._matches(step, cards)
                results.append((float(matched[0]), matched[1], step.exact))
            elif thrown is not None:  # a stock draw: the hand before it was the four less the card drawn
                four = [*cards, thrown]
                befores = [[card for card in four if card != drawn] for drawn in four if drawn not in known]
                if not befores:
                    continue  # (every card known: a corrupted history, nothing to read)
                found = [self._matches(step, before) for before in befores]
                share = sum(matched for matched, _ in found) / len(found)
                results.append((share, round(sum(legal for _, legal in found) / len(found)), step.exact))
            else:
                matched = self._matches(step, cards)
                results.append((float(matched[0]), matched[1], step.exact))
        return results

    def _matches(self, step: _Step, cards: list[Card]) -> tuple[bool, int]:
        """Whether the heuristic holding ``cards`` plays ``step``'s move, and its number of legal actions."""
        situation = step.situation
        if step.phase_discard:
            legal = len(cards) - (situation.taken_from_pile is not None)
        else:
            legal_actions = situation.legal
            if situation.widow and legal_actions:
                if any(card in situation.widow for card in cards):
                    return False, max(len(legal_actions), 1)  # (a proxy holding a widow card)
                exchanges = self._exchange_list(cards, situation.widow)
                if step.observed in exchanges:  # first: the heuristic keeps the first of equal exchanges
                    exchanges.remove(step.observed)
                    exchanges.insert(0, step.observed)
                legal_actions = (*exchanges, *legal_actions)
            if _KNOCK in legal_actions and self._table[hand_index(cards)] < 2 * self._rules.min_knock_value:
                legal_actions = tuple(action for action in legal_actions if action != _KNOCK)
            situation = situation._replace(legal=legal_actions)
            legal = len(legal_actions)
        return heuristic_action(situation._replace(hand=tuple(cards))) == step.observed, max(legal, 1)

    def log_likelihood(self, seat: int, hand: Sequence[Card]) -> float:
        """The log-likelihood (natural log, up to a constant) of ``seat``'s steps if it holds
        ``hand`` now: at most 0, finite."""
        epsilon = self.epsilon
        total = 0.0
        for matched, legal, exact in self.outcomes(seat, hand):
            chance = (1.0 - epsilon) * matched + epsilon / legal
            total += math.log(chance) * (1.0 if exact else self.proxy_weight)
        return total

    def pools(self, rng: random.Random, size: int = POOL_SIZE) -> Pools:
        """Draw each read opponent's pool: ``size`` (at least 1) completions of its known cards,
        each the best of its missing cards and as many extra ones as it had chances to improve
        (:func:`~thirtyone.bots.hands.likely_completion`, the prior of ``sample_position``),
        drawn from the unseen cards at random and weighted by its likelihood (relative to the
        pool's best, in [0, 1])."""
        pools: dict[int, tuple[list[tuple[Card, ...]], list[float]]] = {}
        unseen = self._unseen
        for seat in self._steps:
            known = self._known[seat]
            missing = 3 - len(known)
            extra = max(0, min(self._chances[seat], MAX_EXTRA, len(unseen) - missing))
            if missing <= 0 or len(unseen) < missing:
                continue
            hidden = []
            for _ in range(max(size, 1)):
                hand, _rest = likely_completion(known, rng.sample(unseen, missing + extra), extra, self._table)
                hidden.append(hand[len(known) :])
            logs = [self.log_likelihood(seat, known + cards) for cards in hidden]
            top = max(logs)
            pools[seat] = (hidden, [math.exp(value - top) for value in logs])
        return Pools(pools)

    def _exchange_list(self, hand: Sequence[Card], widow: Sequence[Card]) -> list[Action]:
        """The exchanges a hand may make with a face-up widow, as the engine lists them."""
        actions: list[Action] = [Exchange(give, take) for give in hand for take in widow]
        if self._exchanges_any:
            actions += two_card_exchanges(hand, widow)
        return actions


class Pools:
    """Each opponent's pool of weighted completions (:meth:`Belief.pools`), from which
    :meth:`complete` deals the worlds' hands: a hidden part drawn in proportion to its weight
    among those still undealt. ``pools[seat]`` is ``(hidden parts, weights)``; a weight that is
    not a finite number of at least 0 counts as 0."""

    __slots__ = ("_weights", "pools")

    def __init__(self, pools: dict[int, tuple[list[tuple[Card, ...]], list[float]]]) -> None:
        self.pools = pools
        self._weights: dict[int, tuple[list[float], list[float]]] = {}  # (weights, their running sums)
        for seat, (_hidden, weights) in pools.items():
            clean = [w if math.isfinite(w) and w > 0.0 else 0.0 for w in weights]
            self._weights[seat] = (clean, list(itertools.accumulate(clean)))  # summed once, not at every world

    def complete(
        self, seat: int, known: tuple[Card, ...], unseen: list[Card], rng: random.Random
    ) -> tuple[tuple[Card, ...], list[Card]]:
        """``seat``'s three cards and the cards left, as
        :data:`~thirtyone.bots.expert.Completion` asks: ``known`` and a hidden part from its pool
        whose cards are all in ``unseen`` (another opponent of this world may hold some), drawn by
        weight; in a share :data:`UNIFORM_SHARE` of the calls, and as the fallback for a seat
        without a pool or when no hidden part is left with a positive finite weight, the front of
        ``unseen`` (uniform: ``unseen`` is shuffled)."""
        missing = 3 - len(known)
        pool = self.pools.get(seat)
        if pool is not None and rng.random() >= UNIFORM_SHARE:
            hidden = pool[0]
            weights, cumulative = self._weights[seat]
            if cumulative and 0.0 < cumulative[-1] < math.inf:
                free = set(unseen)
                for _ in range(_DRAWS):  # drawn among all and kept if undealt: by weight among the undealt
                    cards = rng.choices(hidden, cum_weights=cumulative)[0]
                    if all(card in free for card in cards):
                        return known + cards, [card for card in unseen if card not in cards]
                usable = [w if all(c in free for c in cards) else 0.0 for cards, w in zip(hidden, weights, strict=True)]
                if sum(usable) > 0.0:
                    cards = rng.choices(hidden, usable)[0]
                    return known + cards, [card for card in unseen if card not in cards]
        return known + tuple(unseen[:missing]), unseen[missing:]


_DRAWS = 8
"""Draws from a whole pool before :meth:`Pools.complete` weighs only the hidden parts still undealt."""


def reads(view: PlayerView, positions: Sequence[Position]) -> tuple[OpponentRead, ...]:
    """For each opponent still in, the suit it most probably collects in ``positions`` (worlds
    of ``view``): the best suit of its hand there (most points; ties to the higher suit), with the
    share of the worlds where it is. ``()`` without worlds."""
    if not positions:
        return ()
    result = []
    for seat in view.active_seats:
        if seat == view.seat:
            continue
        counts = [0, 0, 0, 0]
        for position in positions:
            points = [0, 0, 0, 0]
            for card in position.hands[seat]:
                points[card.suit] += card.points
            counts[max(range(4), key=lambda suit: (points[suit], suit))] += 1
        suit = max(range(4), key=lambda s: (counts[s], s))
        result.append(OpponentRead(seat, suit, counts[suit] / len(positions)))
    return tuple(result)


def _read_steps(view: PlayerView, knowledge: Knowledge) -> dict[int, list[_Step]]:
    """Every opponent's steps this round, latest first, from the view's history."""
    rules = view.rules
    draw_mode = rules.mode == "draw"
    players = view.players
    active = view.active_seats
    players_in = len(active)
    raw: list[tuple[int, Situation, Action, Card | None]] = []  # (seat, situation, observed, thrown), in order
    pile: list[Card] = []
    known: list[list[Card]] = [[] for _ in range(players)]
    widow: tuple[Card, ...] | None = None
    knocked = False
    turn = 0
    pending: tuple[int, Situation, Draw, Card | None] | None = None  # a draw waiting for its discard
    for event in view.history:
        if isinstance(event, RoundStarted):
            pile = [] if event.upcard is None else [event.upcard]
            known = [[] for _ in range(players)]
            widow, knocked, turn = None, False, 0
            continue
        if isinstance(event, NewWidow):
            widow = event.widow
            continue
        if not isinstance(event, Acted):
            continue
        seat, action = event.seat, event.action
        nxt = _next_active(seat, view)
        can_knock = not knocked and not (rules.knock_from_round == 2 and turn < players_in)
        others = tuple(tuple(known[other]) for other in active if other != seat)  # as the heuristic bot reads them
        if draw_mode:
            if isinstance(action, (Draw, Knock)):
                choices = tuple(
                    choice for choice, on in ((_DRAW_STOCK, True), (_DRAW_PILE, bool(pile)), (_KNOCK, can_knock)) if on
                )
                situation = Situation(
                    rules, Phase.TURN, (), choices, players_in, None, tuple(known[nxt]), pile[-1] if pile else None,
                    knowledge.unseen, None, turn, (seat - view.dealer) % players, view.seats[seat].remaining, others,
                )  # fmt: skip
                if isinstance(action, Knock):
                    raw.append((seat, situation, action, None))
                    knocked, turn = True, turn + 1
                else:
                    taken = pile.pop() if action.source == PILE and pile else None
                    if taken is not None:
                        known[seat].append(taken)
                    pending = (seat, situation, action, taken)
            elif isinstance(action, Discard) and pending is not None:
                draw_seat, situation, draw, taken = pending
                raw.append((draw_seat, situation, draw, None))
                discard = Situation(rules, Phase.DISCARD, (), (), players_in, taken, tuple(known[nxt]))
                raw.append((draw_seat, discard, action, action.card))
                if action.card in known[draw_seat]:
                    known[draw_seat].remove(action.card)
                pile.append(action.card)
                pending, turn = None, turn + 1
            continue
        if isinstance(action, Keep):
            raw.append((seat, Situation(rules, Phase.DEALER_CHOICE, (), _DEALER_CHOICES, players_in), action, None))
        if isinstance(action, (Exchange, ExchangeAll, Pass, Knock)):
            options: tuple[Action, ...] = (_EXCHANGE_ALL, _PASS, _KNOCK) if can_knock else (_EXCHANGE_ALL, _PASS)
            situation = Situation(
                rules, Phase.TURN, (), options, players_in, None, tuple(known[nxt]), None, (), widow,
                turn, (seat - view.dealer) % players, view.seats[seat].remaining, others,
            )  # fmt: skip
            raw.append((seat, situation, action, None))
            turn += 1
            knocked = knocked or isinstance(action, Knock)
            if isinstance(action, Exchange) and widow is not None:
                widow = tuple(card for card in widow if card not in action.take) + action.give
                known[seat] = [card for card in known[seat] if card not in action.give] + list(action.take)
            elif isinstance(action, ExchangeAll):
                known[seat] = list(widow) if widow is not None else []
        if event.revealed:
            widow = event.revealed
    steps: dict[int, list[_Step]] = {seat: [] for seat in active if seat != view.seat}
    undo: dict[int, list[tuple[tuple[Card, ...], tuple[Card, ...]]]] = {seat: [] for seat in steps}
    exact = dict.fromkeys(steps, True)
    proxies = dict.fromkeys(steps, 0)
    pending_throw: dict[int, Card | None] = {}
    closed: set[int] = set()  # seats whose earlier hands were public: nothing more to read
    for seat, situation, action, thrown in reversed(raw):
        if seat not in steps or seat in closed:
            continue
        if isinstance(action, ExchangeAll):  # the hand it gave up lies in the widow: no evidence
            closed.add(seat)
            continue
        if isinstance(action, Exchange):  # it chose from the hand before the exchange
            undo[seat].append((action.take, action.give))
        if not exact[seat]:
            proxies[seat] += 1
            if proxies[seat] > PROXY_STEPS:
                closed.add(seat)
                continue
        if thrown is None and isinstance(action, Draw) and action.source == STOCK:
            thrown = pending_throw.get(seat)  # the card of the discard that ended this turn
        steps[seat].append(
            _Step(situation, action, tuple(undo[seat]), thrown, exact[seat], situation.phase is _DISCARD)
        )
        if situation.phase is _DISCARD:  # its draw (the next step back) held the card thrown
            taken = situation.taken_from_pile
            if taken is None:
                pending_throw[seat] = thrown
            elif thrown is not None:
                undo[seat].append(((taken,), (thrown,)))
        elif isinstance(action, Draw) and action.source == STOCK:
            exact[seat] = False  # the card drawn from the stock is unknown from here back
            pending_throw.pop(seat, None)
    return {seat: found for seat, found in steps.items() if found}


def improvement_chances(view: PlayerView) -> list[int]:
    """How many times each seat has had the chance to improve its hidden cards this round: its
    stock draws (draw mode) or its turns (widow mode)."""
    chances = [0] * view.players
    for event in view.history:
        if isinstance(event, Acted):
            action = event.action
            drew = isinstance(action, Draw) and action.source == STOCK
            if drew or isinstance(action, (Exchange, ExchangeAll, Pass)):
                chances[event.seat] += 1
    return chances


def _next_active(seat: int, view: PlayerView) -> int:
    """The next seat still in after ``seat``."""
    nxt = (seat + 1) % view.players
    while view.seats[nxt].out and nxt != seat:
        nxt = (nxt + 1) % view.players
    return nxt
