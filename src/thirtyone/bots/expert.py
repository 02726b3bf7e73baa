"""``expert``: search on top of the heuristic — determinized Monte-Carlo (perfect-information
Monte-Carlo over sampled worlds).

For a decision it samples *worlds*: the hidden cards (opponents' unknown cards, the stock's order,
a face-down widow) dealt from the cards this seat has not seen, consistent with everything the
view reveals (its hand, the discard pile, the widow, each opponent's known cards). The opponents'
hidden cards follow the belief (:mod:`thirtyone.bots.belief`): hands are drawn in proportion to
the likelihood of what each opponent did this round under a softened heuristic. ``expert-v1``
(:class:`ExpertV1Bot`) samples as the expert did before the belief (:func:`sample_position`).
In each world it tries every legal action on a copy of the game
(:meth:`~thirtyone.engine.Game.from_position`) and plays the round out with the heuristic policy
for every seat (:func:`~thirtyone.bots.heuristic.rollout_action`). An action's value is the mean,
over the worlds, of what the round did to this seat: lives the others lost (averaged) minus lives
it lost, with being put out counted extra. Every action sees the same worlds, so their
differences are measured with little noise. The bot plays the action of highest mean when it
beats the heuristic's own choice by more than a standard error of their difference, and the
heuristic's choice otherwise (so that noise never makes it play worse than the heuristic); it
can explain itself (:meth:`ExpertBot.analyse`).

A last turn after a knock (R6.2) is not rolled out: it is valued exactly, each action with its
best continuation (:mod:`thirtyone.judge.lastturn`), and the expert plays the best (the hint and
the review show those values); ``expert-v1`` rolls its last turns out as before.

The budget is a number of worlds per decision (deterministic for a seed) with a time cap
(default :data:`DEFAULT_SECONDS`, 0.4 s per decision on one core) that stops early on a slow machine.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from thirtyone.actions import PILE
from thirtyone.actions import Action
from thirtyone.actions import Draw
from thirtyone.actions import Exchange
from thirtyone.actions import ExchangeAll
from thirtyone.actions import Knock
from thirtyone.actions import Look
from thirtyone.actions import Pass
from thirtyone.bots.base import SeededBot
from thirtyone.bots.belief import Belief
from thirtyone.bots.belief import OpponentRead
from thirtyone.bots.belief import improvement_chances
from thirtyone.bots.belief import pool_size
from thirtyone.bots.belief import reads
from thirtyone.bots.hands import MAX_EXTRA
from thirtyone.bots.hands import likely_completion
from thirtyone.bots.heuristic import HeuristicBot
from thirtyone.bots.heuristic import rollout_action
from thirtyone.bots.knowledge import Knowledge
from thirtyone.cards import Card
from thirtyone.engine import Game
from thirtyone.events import Acted
from thirtyone.events import NewWidow
from thirtyone.events import RoundResult
from thirtyone.position import Position
from thirtyone.rules import Rules
from thirtyone.scoring import half_points
from thirtyone.views import Phase
from thirtyone.views import PlayerView

Rollouts = Literal["auto", "sim", "engine"]

__all__ = [
    "ExpertBot",
    "ExpertV1Bot",
    "Rollouts",
    "Analysis",
    "Estimate",
    "sample_position",
    "belief_reads",
    "Completion",
    "DEFAULT_WORLDS",
    "DEFAULT_SECONDS",
    "V1_DEFAULT_SECONDS",
    "READ_WORLDS",
]

DEFAULT_WORLDS = 1000
"""Worlds sampled per decision by default."""
DEFAULT_SECONDS = 0.4
"""Time cap per decision by default, in seconds: the belief's worlds cost about twice
``expert-v1``'s, and with 1 s the p99 of a decision at the default budget was 1 s
(``benchmarks/bench_expert_time.py``); the issue's target is under 0.5 s."""
V1_DEFAULT_SECONDS = 1.0
"""``expert-v1``'s time cap per decision by default, in seconds (as the expert had before the belief)."""
READ_WORLDS = 64
"""Worlds of the belief sampled on an exact last turn for what the expert reads of the opponents
(its values need none: :mod:`thirtyone.judge.lastturn` counts them)."""

_SIM_BATCH = 16  # worlds sampled before each call of the compiled rollouts
_CONFIDENCE = 1.0  # standard errors by which the best action must beat the heuristic's to be played


@dataclass(frozen=True, slots=True)
class Estimate:
    """One action's value: the mean utility over ``worlds`` sampled worlds (in lives: the others'
    mean loss minus one's own, elimination counted extra) and the standard error of that mean;
    ``gap_stderr``, the standard error of the highest estimate's mean less this one's, paired over
    the same worlds (0 for the highest itself): how far apart two moves must be to differ by more
    than the noise (the review's measure, :mod:`thirtyone.bots.review`)."""

    action: Action
    mean: float
    stderr: float
    worlds: int
    gap_stderr: float = 0.0

    def __str__(self) -> str:
        return f"{self.action}: {self.mean:+.3f} ± {self.stderr:.3f} ({self.worlds} worlds)"


@dataclass(frozen=True, slots=True)
class Analysis:
    """The expert's view of one decision: every legal action's estimate, the expert's choice first
    and then by estimated value, the time it took in seconds, and what its worlds say of each
    opponent (``reads``: the suit it most probably collects and how sure, in seat order)."""

    estimates: tuple[Estimate, ...]
    seconds: float
    reads: tuple[OpponentRead, ...] = ()

    @property
    def best(self) -> Action:
        """The action the expert plays: the highest estimate, unless it beats the heuristic's own
        choice by less than one standard error of their difference (then the heuristic's)."""
        return self.estimates[0].action

    def __str__(self) -> str:
        return "\n".join(str(estimate) for estimate in self.estimates)


class ExpertBot(SeededBot):
    """Determinized Monte-Carlo search with heuristic rollouts; see the module docstring.

    ``worlds`` is the number of sampled worlds per decision; ``seconds`` caps the time per decision
    (``None``: no cap, fully deterministic). ``rollouts`` says what plays the rounds out: ``"sim"``
    (the compiled :mod:`thirtyone.sim`, many times faster), ``"engine"`` (the reference engine) or
    ``"auto"`` (the simulator when numba is installed and covers the rules, else the engine). Both
    play the same rules and policy; their reshuffles draw from different random sources.

    ``simulator_ready``, when set, is asked at the start of each decision: while it returns
    ``False`` an ``"auto"`` expert plays that decision's rollouts on the engine rather than wait
    for the kernels to compile (the terminal game sets it to its preparation's state).
    """

    name = "expert"
    simulator_ready: Callable[[], bool] | None = None
    exact_last_turn = True
    """Whether a last turn after a knock is valued exactly (:mod:`thirtyone.judge.lastturn`)
    rather than by rollouts."""

    def __init__(
        self,
        seed: int | None = None,
        *,
        worlds: int = DEFAULT_WORLDS,
        seconds: float | None = DEFAULT_SECONDS,
        rollouts: Rollouts = "auto",
    ) -> None:
        super().__init__(seed)
        self.worlds = worlds
        self.seconds = seconds
        self.rollouts = rollouts
        self._fallback = HeuristicBot(seed)

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        if view.phase is Phase.LOOK:
            return Look()
        return self.analyse(view, legal).best

    def analyse(self, view: PlayerView, legal: Sequence[Action] | None = None) -> Analysis:
        """Estimate every legal action of ``view`` (its own legal actions by default).

        Raises:
            ValueError: when it is not this view's seat to move.
        """
        legal = tuple(view.legal_actions if legal is None else legal)
        if not legal:
            raise ValueError(f"seat {view.seat} has no move to analyse now")
        start = time.perf_counter()
        from thirtyone.judge import lastturn  # (numpy: imported when a bot first thinks, not with the bots)

        if self.exact_last_turn and lastturn.is_last_turn(view):
            exact = self._last_turn(view, legal, start)
            if exact is not None:
                return exact
        deadline = None if self.seconds is None else start + self.seconds
        default = self._fallback.choose(view, legal)
        utilities: list[list[float]] = [[] for _ in legal]
        knowledge = Knowledge.from_view(view)
        passes = _passes(view)
        others = [seat for seat in view.active_seats if seat != view.seat]
        use_sim = self._use_sim(view.rules)
        complete = self._completion(view, knowledge)
        worlds: list[Position] = []
        done = 0
        while done < self.worlds:
            count = min(_SIM_BATCH if use_sim else 1, self.worlds - done)
            positions = [sample_position(view, knowledge, passes, self.rng, complete) for _ in range(count)]
            worlds += positions
            for outcome in self._roll(positions, legal, done, use_sim):
                for i, (lost, eliminated) in enumerate(outcome):
                    utilities[i].append(lastturn.seat_utility(lost, eliminated, view.seat, others))
            done += count
            if deadline is not None and done >= 2 and time.perf_counter() > deadline:
                break
        means = [_mean_and_error(values) for values in utilities]
        best = max(range(len(legal)), key=lambda i: (means[i][0], -i))
        gaps = [_mean_and_error([a - b for a, b in zip(utilities[best], values, strict=True)]) for values in utilities]
        estimates = [
            Estimate(action, mean, error, len(values), gaps[i][1])
            for i, (action, values, (mean, error)) in enumerate(zip(legal, utilities, means, strict=True))
        ]
        base = legal.index(default)
        gain, error = gaps[base]
        choice = best if gain > _CONFIDENCE * error else base  # leave the heuristic only for a clear gain
        order = [choice, *sorted((i for i in range(len(legal)) if i != choice), key=lambda i: -estimates[i].mean)]
        return Analysis(tuple(estimates[i] for i in order), time.perf_counter() - start, reads(view, worlds))

    def _last_turn(self, view: PlayerView, legal: Sequence[Action], start: float) -> Analysis | None:
        """The exact values of a last turn (:func:`~thirtyone.judge.lastturn.last_turn`) as an
        analysis, best first (ties to the first legal action), with what :data:`READ_WORLDS`
        worlds of the belief say of each opponent; ``None`` where a reshuffle (R4.3) or the turn
        limit (R6.7) could cut the turn short: rollouts value those."""
        from thirtyone.judge import lastturn

        try:
            turn = lastturn.last_turn(view)
        except lastturn.NotALastTurnError:
            return None
        moves = sorted(
            (move for move in turn.moves if move.action in legal),
            key=lambda move: (-move.value, legal.index(move.action)),
        )
        estimates = tuple(Estimate(m.action, m.value, m.stderr, turn.worlds, m.gap_stderr) for m in moves)
        return Analysis(estimates, time.perf_counter() - start, belief_reads(view, self.rng))

    def _completion(self, view: PlayerView, knowledge: Knowledge) -> Completion | None:
        """How this decision's worlds complete the opponents' hands: from the belief's pools
        (:mod:`thirtyone.bots.belief`, :func:`~thirtyone.bots.belief.pool_size` completions an
        opponent)."""
        return Belief(view, knowledge).pools(self.rng, pool_size(self.worlds, self.seconds)).complete

    _sim_refused = False

    def _roll(
        self, positions: list[Position], legal: Sequence[Action], first_world: int, use_sim: bool
    ) -> list[list[tuple[list[int], list[int]]]]:
        """Each world's outcome for each legal action: lives lost and eliminations by seat."""
        players = positions[0].players
        if use_sim:
            from thirtyone import sim

            rows = len(legal)
            batch = sim.rollout(
                [position for position in positions for _ in legal],
                [action for _ in positions for action in legal],
                seed=self.rng.getrandbits(63),
                worlds=[first_world + world for world in range(len(positions)) for _ in legal],
                check=first_world == 0,  # a decision's worlds differ only in its unseen cards: check one
            )
            lost, eliminated = batch.lost.tolist(), batch.eliminated.tolist()
            return [
                [(lost[w * rows + i], eliminated[w * rows + i]) for i in range(rows)] for w in range(len(positions))
            ]
        outcomes = []
        for position in positions:
            world_seed = self.rng.getrandbits(32)
            outcome = []
            for action in legal:
                game = Game.from_position(position, seed=world_seed, rounds=1)
                game.apply(action)
                result = _play_out(game)
                outcome.append(
                    (
                        [result.lives_lost(seat) for seat in range(players)],
                        [int(seat in result.eliminated) for seat in range(players)],
                    )
                )
            outcomes.append(outcome)
        return outcomes

    def _use_sim(self, rules: Rules) -> bool:
        """Whether the compiled simulator plays the rollouts for these rules (see ``rollouts``).

        Raises:
            SimUnavailableError, UnsupportedRulesError: with ``rollouts="sim"`` when it cannot.
        """
        if self.rollouts == "engine" or (self.rollouts == "auto" and self._sim_refused):
            return False
        if self.rollouts == "auto" and self.simulator_ready is not None and not self.simulator_ready():
            return False  # the kernels are still compiling: the engine now, rather than wait
        from thirtyone import sim

        if self.rollouts == "sim":
            sim.check_playable(rules)
            return True
        if sim.cannot_play(rules):
            self._sim_refused = True
            return False
        return True


class ExpertV1Bot(ExpertBot):
    """``expert-v1``: the expert as it played before the belief, under a name that stays when
    ``expert`` grows stronger, so that the new one can be measured against it (``thirtyone arena
    --bots expert,expert-v1``). Same seed, same budget: the same moves as the expert of commit
    f71cdab (its worlds from :func:`sample_position`'s own bias, no belief)."""

    name = "expert-v1"
    exact_last_turn = False  # its last turns by rollouts, as it played them

    def __init__(
        self,
        seed: int | None = None,
        *,
        worlds: int = DEFAULT_WORLDS,
        seconds: float | None = V1_DEFAULT_SECONDS,
        rollouts: Rollouts = "auto",
    ) -> None:
        super().__init__(seed, worlds=worlds, seconds=seconds, rollouts=rollouts)

    def _completion(self, view: PlayerView, knowledge: Knowledge) -> Completion | None:
        return None  # the worlds before the belief: sample_position's own


def _mean_and_error(values: Sequence[float]) -> tuple[float, float]:
    """The mean of ``values`` and its standard error."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    variance = sum((value - mean) ** 2 for value in values) / (n - 1)
    return mean, math.sqrt(variance / n)


def _play_out(game: Game) -> RoundResult:
    """Play the round a game was resumed in to its end, with the heuristic for every seat."""
    log = game.round_logs[0]
    while log.result is None:
        seat = game.current_seat
        assert seat is not None
        game.apply(rollout_action(game, seat, game.legal_actions()))
    return log.result


def _taken_this_turn(view: PlayerView) -> Card | None:
    """The card the seat to move took from the discard pile this turn (R4.2), as anyone saw it."""
    if view.phase is not Phase.DISCARD or not view.history:
        return None
    last = view.history[-1]
    if isinstance(last, Acted) and last.action == Draw(PILE) and last.received:
        return last.received[0]
    return None


def _passes(view: PlayerView) -> int:
    """Passes in a row so far this round (R7.3), read from the history."""
    passes = 0
    knocked = False
    for event in view.history:
        if isinstance(event, Acted):
            if isinstance(event.action, Knock):
                knocked = True
            elif isinstance(event.action, Pass) and not knocked:
                passes += 1
            elif isinstance(event.action, (Exchange, ExchangeAll)):
                passes = 0
        elif isinstance(event, NewWidow):
            passes = 0
    return passes


Completion = Callable[[int, tuple[Card, ...], list[Card], random.Random], tuple[tuple[Card, ...], list[Card]]]
"""How a sampled world completes an opponent's hand: ``complete(seat, known, unseen, rng)`` takes
the seat, the cards it is known to hold and the cards not dealt yet (shuffled), and returns its
three cards and the cards left in the order they came, chosen by which cards they are and not
where they lie (the stock is dealt from them as they are: still shuffled); the belief's
:meth:`~thirtyone.bots.belief.Pools.complete`."""


def belief_reads(view: PlayerView, rng: random.Random, worlds: int = READ_WORLDS) -> tuple[OpponentRead, ...]:
    """What ``worlds`` worlds of the belief (:mod:`thirtyone.bots.belief`: pools of
    :func:`~thirtyone.bots.belief.pool_size` completions for twice as many) say of each opponent of
    ``view`` still in (:func:`~thirtyone.bots.belief.reads`), drawn with ``rng``: a read without a
    search (the expert's on an exact last turn, the judge's hint)."""
    knowledge = Knowledge.from_view(view)
    complete = Belief(view, knowledge).pools(rng, pool_size(2 * worlds)).complete
    passes = _passes(view)
    return reads(view, [sample_position(view, knowledge, passes, rng, complete) for _ in range(worlds)])


def sample_position(
    view: PlayerView, knowledge: Knowledge, passes: int, rng: random.Random, complete: Completion | None = None
) -> Position:
    """A world consistent with ``view``: the unseen cards dealt at random to the opponents' unknown
    places, a face-down widow and the stock. An opponent who has drawn ``k`` times gets the best of
    ``k`` extra random candidates for its unknown cards (it kept what suited it), so the worlds do
    not take the others for weaker than they are; ``complete``, when given, completes the
    opponents' hands instead (the belief's worlds). The view's seat need not be the one to move
    (a search resampling another player's information state): then the seat to move holds four
    cards while it discards, and a seat that has not looked at its cards (R6.6) gets them dealt
    at random too.

    Raises:
        ValueError: when the view's counts do not add up (a view of another game's history).
    """
    if complete is None:
        table, chances = half_points(view.rules), improvement_chances(view)
    to_move = view.seat if view.current_seat is None else view.current_seat
    unseen = list(knowledge.unseen)
    rng.shuffle(unseen)
    hands: list[tuple[Card, ...]] = []
    for status in view.seats:
        four = status.seat == to_move and view.phase is Phase.DISCARD
        if status.out:
            hands.append(())
        elif status.seat == view.seat and view.hand is not None:
            hands.append(view.hand)
        elif four or status.seat == view.seat:  # uniformly: no search asks for these worlds' odds
            known = knowledge.known[status.seat]
            missing = (4 if four else 3) - len(known)
            hands.append(known + tuple(unseen[:missing]))
            unseen = unseen[missing:]
        elif complete is not None:
            hand, unseen = complete(status.seat, knowledge.known[status.seat], unseen, rng)
            hands.append(hand)
        else:
            extra = min(chances[status.seat], MAX_EXTRA, len(unseen) - 3)
            hand, rest = likely_completion(knowledge.known[status.seat], unseen, max(extra, 0), table)
            hands.append(hand)
            used = len(hand) - len(knowledge.known[status.seat]) + len(rest)
            unseen = unseen[used:] + rest
    if complete is None:  # (the completions leave the shuffled order of the rest as it was)
        rng.shuffle(unseen)
    widow: tuple[Card, ...] = ()
    if view.rules.mode == "widow":
        if view.widow is not None:
            widow = view.widow
        else:
            widow, unseen = tuple(unseen[:3]), unseen[3:]
    if len(unseen) != view.stock_size:
        raise ValueError(f"the view does not add up: {len(unseen)} unseen cards for a stock of {view.stock_size}")
    return Position(
        rules=view.rules,
        dealer=view.dealer,
        to_move=to_move,
        phase=view.phase,
        hands=tuple(hands),
        stock=tuple(unseen),
        discard_pile=knowledge.pile if view.rules.mode == "draw" else knowledge.set_aside,
        widow=widow,
        widow_face_up=view.widow is not None,
        remaining=tuple(status.remaining for status in view.seats),
        knocker=view.knocker,
        turn=view.turn,
        passes=passes,
        taken_from_pile=view.taken_from_pile if to_move == view.seat else _taken_this_turn(view),
        looked=tuple(status.has_looked for status in view.seats),
        known_cards=tuple(status.known_cards for status in view.seats),
        round=view.round,
    )
