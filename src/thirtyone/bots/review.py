"""The review of a game, move by move: what each decision of a seat was worth, from what that
seat could see then (its :class:`~thirtyone.views.PlayerView` at that moment, never the hidden
cards), as its *valuer* (:data:`VALUERS`) values it:

- ``judge`` (the default), where the judge's values may be shown at the record's table
  (:meth:`JudgeBot.cannot_value <thirtyone.bots.judge.JudgeBot.cannot_value>`: weights made for its
  rules and table size, whose values' error was measured and is at most
  :data:`~thirtyone.bots.judge.VALUE_ERROR_BAR`): the judge's values, as its hint reads them
  (:func:`~thirtyone.bots.work.judge_analysis`), in milliseconds a decision and **the same under
  any seed**. A last turn after a knock (R6.2) is valued exactly (:mod:`thirtyone.judge.lastturn`):
  a draw by its best discard, each value counted over every deal of the unseen cards (standard
  error 0: any loss counts) or, at larger tables, over sampled deals of a fixed seed (their
  standard errors). Any other decision gets the network's learned values: no sampling error, but
  an approximation error, the one measured for its weights (:attr:`Review.judge_error`, lives: the
  root mean square error of the difference of two moves' values against exact last turns, kept in
  the weights with its command), shown as each network value's standard error. That error *raises
  the floor* of the network's values (:attr:`Decision.noise`): a move less than it below the
  network's best gives nothing away. The bars stay the lives a player gives away, and stand above
  any error the judge's values are shown with (the inaccuracy bar, 0.05 lives, is
  :data:`~thirtyone.bots.judge.VALUE_ERROR_BAR`), so no mark comes from that error alone.
- ``expert``: :meth:`ExpertBot.analyse <thirtyone.bots.expert.ExpertBot.analyse>` (the expert's
  search), at a table the judge does not value (the review says it fell back,
  :attr:`Review.fallback`: the shipped weights' error is measured at 1.05 lives, and ``python
  benchmarks/bench_review_error.py`` finds 0.50 lives mid-round against the expert and 0.75 on
  exact last turns) or when asked. Its last turns are counted as above (no seed to vary); any
  other decision is valued in :data:`BATCHES` independent batches, the review's budget split
  between them, each seeded by :func:`decision_seed`: a move's value is the mean of the batches'
  means and its standard error *their spread* (the one formula of a single search put it 1.4
  times too low between seeds, 2 to 4 times in knock positions), and a move gives something away
  and is marked only as far as every batch holds it (:attr:`Decision.given`,
  :attr:`Decision.mark`).

A *decision* is an action of a seat that had more than one legal action, but for looking at its
cards or throwing them down unseen (R6.6: the expert weighs a hand only once it knows it). For each
the review gives the value of every legal move in lives, as the hint says it (the lives the other
seats lose this round, their *average*, minus the seat's own, being put out counting two lives
extra), the move played, the best (the highest value) and what the move played *gave away*: the
best's value less its own (:attr:`Decision.loss`), unless that is within :data:`NOISE` standard
errors of their difference over the same worlds (:attr:`Decision.noise`) or below :data:`FLOOR`
(0.01 lives: on an exact last turn the noise is 0, and a difference of a few thousandths of a life
is no error a player could see). A move within the noise or the floor gives nothing away and counts
as a best move. What it gave away marks it, by :data:`THRESHOLDS` in lives: an inaccuracy from
0.05, a mistake from 0.15, a blunder from 0.4. The noise is shown: :attr:`Decision.stderr`, the
largest standard error of a decision's values (0 where every value is exact).

A move that gave something away for a reason a rule gives says it (:attr:`Decision.reasons`,
:class:`Reason`: a catalog key, the rule ids, the values of its placeholders): a 31 completed on a
last turn where the knocker could lose two at the showdown (R5.3, R6.5), a 31 or three aces left
unmade (R5.1, R5.3, R1.5), three of a kind broken (R1.4), a knock (the knock penalty, R6.5, or
the last turns it gives, R6.2), the last loss before being put out or the grace life (R2.3, R2.4).

A seat's :class:`SeatSummary`: its accuracy (the share of its decisions at the best move within
the noise or the floor), the lives it gave away in all and per round played, its marks, and its
:data:`COSTLIEST` costliest decisions, each the data of a sentence (:meth:`Decision.costly_json`)
that a face writes in its own words ("Round 3, turn 2, holding 24, while Ben seemed to be
collecting hearts: Knock gave away 0.31 lives; better: Draw from the stock", then its reasons:
:mod:`thirtyone.tui.review_text`).

The expert values decision ``step`` (the game's ``step``-th action, from 0) in batches seeded with
:func:`decision_seed` of the review's seed, ``step`` and the batch, so its review is the same for a
seed, a budget in worlds (no ``seconds``) and the same rollouts, whichever seats it reviews; the
judge's review ignores the budget and the seed.

>>> from thirtyone import Game
>>> from thirtyone.record import GameRecord
>>> game = Game("scat", players=2, seed=4)
>>> for action in ["draw stock", "discard Jh", "knock"]:
...     game.apply(action)
>>> record = GameRecord.from_game(game, ["Ann", "Ben"])
>>> review = review_record(record, valuer="expert", worlds=20, rollouts="engine")
>>> [(d.step, d.seat, d.turn, str(d.played), d.holding, d.source) for d in review.decisions]
[(0, 1, 1, 'draw stock', 10, 'expert'), (1, 1, 1, 'discard Jh', 20, 'expert'), (2, 0, 1, 'knock', 7, 'expert')]
>>> review.valuer, review.partial, review.finished, [summary.decisions for summary in review.summaries]
('expert', False, False, [1, 2])
>>> judged = review_record(record)  # the judge, or the expert where it does not value scat (fallback)
>>> judged.valuer == ("expert" if judged.fallback else "judge")
True
"""

from __future__ import annotations

import dataclasses
import math
import random
import statistics
from collections import Counter
from collections.abc import Iterator
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from typing import TYPE_CHECKING
from typing import Any
from typing import Final
from typing import TypedDict
from typing import Unpack

from thirtyone.actions import Action
from thirtyone.actions import Discard
from thirtyone.actions import Exchange
from thirtyone.actions import ExchangeAll
from thirtyone.actions import Knock
from thirtyone.actions import Pass
from thirtyone.bots.basic import after_exchange
from thirtyone.bots.expert import Analysis
from thirtyone.bots.expert import ExpertBot
from thirtyone.bots.expert import Rollouts
from thirtyone.bots.expert import belief_reads
from thirtyone.bots.hands import best_discard
from thirtyone.bots.levels import MAX_EXPERT_SECONDS
from thirtyone.bots.levels import MAX_EXPERT_WORLDS
from thirtyone.bots.work import READ_SEED
from thirtyone.bots.work import judge_analysis
from thirtyone.bots.work import told_reads
from thirtyone.cards import Card
from thirtyone.cards import format_cards
from thirtyone.checks import whole_number
from thirtyone.errors import ArgumentError
from thirtyone.errors import SeatError
from thirtyone.record import GameRecord
from thirtyone.scoring import HandValue
from thirtyone.scoring import hand_value
from thirtyone.scoring import value_from_half
from thirtyone.views import Phase
from thirtyone.views import PlayerView

if TYPE_CHECKING:
    from thirtyone.bots.judge import Valued

__all__ = [
    "FORMAT",
    "VERSION",
    "DEFAULT_WORLDS",
    "BATCHES",
    "VALUERS",
    "SOURCES",
    "NOISE",
    "FLOOR",
    "THRESHOLDS",
    "MARKS",
    "COSTLIEST",
    "REASONS",
    "Move",
    "Reason",
    "Decision",
    "SeatSummary",
    "Review",
    "Reviewer",
    "ReviewBudget",
    "review_record",
    "decision_seed",
    "mark_of",
]

FORMAT: Final = "thirtyone-review"
"""The ``format`` of a review's JSON (:meth:`Review.to_json`)."""
VERSION: Final = 3
"""The ``version`` of a review's JSON (2: valued by the judge where it can, ``valuer``, ``fallback``
and each decision's ``source``; 3: the expert values a decision in :data:`BATCHES` independent
batches, its standard errors measured from their spread, each decision's ``batches`` and the
budget's ``batches``, and a last turn the expert's review counts has the ``source`` ``exact`` or
``sampled``)."""
VALUERS: Final = ("judge", "expert")
"""What may value a review's decisions (:class:`Reviewer`'s ``valuer``): the judge (falling back to
the expert where its weights do not fit the record), or the expert."""
SOURCES: Final = ("network", "exact", "sampled", "expert")
"""Where a decision's values came from (:attr:`Decision.source`): the judge's network, a last turn
counted exactly or over a fixed sample of deals, or the expert's search."""
DEFAULT_WORLDS: Final = 300
"""Worlds the expert samples per decision by default (over all its :data:`BATCHES`): deterministic
for a seed, and a 10-round four-player game (164 decisions) in 15 to 19 s on one busy core, the
target being 30 s (``benchmarks/bench_review.py``)."""
BATCHES: Final = 4
"""The independent batches the expert values a decision in, the budget (worlds, or seconds)
split evenly between them, each seeded by :func:`decision_seed`: a move's value is the mean of
the batches' means and its standard error their spread (the standard deviation of the batch means
over √BATCHES: the error a reader sees between seeds, which the worlds' own formula put 1.4 times
too low, 2 to 4 times in knock positions, as the belief's pools are a sample too), and a move is
marked only as severely as every batch holds (:attr:`Decision.mark`). Four: the fewest whose
spread gives a standard error at all usable (3 degrees of freedom) while each batch keeps 75 of
the default 300 worlds, its belief's pools 37 hands an opponent."""
NOISE: Final = 2.0
"""Standard errors (of the best value less the one played, paired over the same worlds; the
expert's measured from its batches' spread) within which a move gives nothing away. The network's
values have no sampling error: their measured error counts once."""
FLOOR: Final = 0.01
"""The lives below which a move's loss counts as none: on an exact last turn (noise 0) a move
0.0004 lives below the best is as good as the best to any player."""
THRESHOLDS: Final = {"inaccuracy": 0.05, "mistake": 0.15, "blunder": 0.4}
"""The lives a move must give away to be marked so (at least), mildest first."""
MARKS: Final = tuple(THRESHOLDS)
"""The marks, mildest first: ``inaccuracy``, ``mistake``, ``blunder``."""
COSTLIEST: Final = 3
"""The costliest decisions a seat's summary names."""
REASONS: Final = (
    "blitz_spares_knocker",
    "blitz_missed",
    "three_aces_missed",
    "three_of_a_kind",
    "knock",
    "penalty_scat",
    "penalty_widow",
    "penalty_namu_risky",
    "last_life",
    "grace",
)
"""The codes of the rules' reasons (:class:`Reason`), as :func:`_reasons` finds them."""
_KNOCKER_PAYS_TWO: Final = ("scat", "widow", "namu_risky")
"""The knock penalties (R6.5) under which a knocker can lose two lives at the showdown."""


def decision_seed(seed: int, step: int, batch: int = 0) -> int:
    """The seed of the expert that values batch ``batch`` (from 0, below :data:`BATCHES`) of
    decision ``step`` (the action's index in the game, from 0) of a review seeded ``seed``:
    ``(seed · 1,000,003 + step) · BATCHES + batch``, a different seed for every batch of every
    decision and review seed.

    >>> decision_seed(0, 7), decision_seed(0, 7, 3), decision_seed(2, 7)
    (28, 31, 8000052)
    """
    return (seed * 1_000_003 + step) * BATCHES + batch


def mark_of(given: float) -> str | None:
    """The mark of a move that gave away ``given`` lives: the worst of :data:`THRESHOLDS` it
    reaches, or ``None``.

    >>> mark_of(0.0), mark_of(0.05), mark_of(0.2), mark_of(1.5)
    (None, 'inaccuracy', 'mistake', 'blunder')
    """
    reached = [mark for mark, lives in THRESHOLDS.items() if given >= lives]
    return reached[-1] if reached else None


@dataclass(frozen=True, slots=True)
class Move:
    """One legal move of a decision: the ``action``, its ``value`` (lives: the expert's mean over
    ``worlds`` worlds, or the judge's value: ``worlds`` the deals a last turn was counted over, 0
    for the network's), the standard error of that value (``stderr``; the network's: its measured
    error, :attr:`Review.judge_error`), and ``gap_stderr``, the standard error of the best value
    less this one, paired over the same worlds (0 for the best; the network's: its error)."""

    action: Action
    value: float
    stderr: float
    gap_stderr: float
    worlds: int

    def to_json(self) -> dict[str, Any]:
        """Plain data: ``action`` (its notation), ``value``, ``stderr`` and ``gap_stderr``
        (lives, rounded to 4 places)."""
        return {
            "action": str(self.action),
            "value": round(self.value, 4),
            "stderr": round(self.stderr, 4),
            "gap_stderr": round(self.gap_stderr, 4),
        }


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a rule makes the move played cost what it did: its ``code`` (one of :data:`REASONS`;
    its words are the catalog message :attr:`key`), the ``rules`` it rests on (ids of
    docs/RULES.md, such as ``R6.5``), and ``values``, its placeholders' ``(name, value)`` pairs: a
    seat's number (``knocker``) or points (``points``)."""

    code: str
    rules: tuple[str, ...]
    values: tuple[tuple[str, int | float], ...] = ()

    @property
    def key(self) -> str:
        """The catalog message that says it: ``review.why.<code>``."""
        return f"review.why.{self.code}"

    def to_json(self) -> dict[str, Any]:
        """Plain data: ``code``, ``key``, ``rules`` (a list) and ``values`` (name → value)."""
        return {"code": self.code, "key": self.key, "rules": list(self.rules), "values": dict(self.values)}


@dataclass(frozen=True, slots=True)
class Decision:
    """One valued decision: the game's ``step``-th action (from 0: the position before it is the
    replay's step ``step``), made on the seat's own ``turn`` of its round (from 1) from ``view``
    (what the seat saw: its round, seat, phase, hand, the pile's top card, the widow); ``played``
    the move made; ``moves`` every legal move, best first (:class:`Move`); ``reads`` what the
    expert believed of the opponents (``(seat, suit letter, probability)``, surest first, those it
    was at least half sure of: :func:`~thirtyone.bots.work.told_reads`; the judge's review reads
    only for the decisions its sentences tell, :attr:`SeatSummary.costliest`); and ``expert`` the move
    the valuer itself plays (the expert keeps to the heuristic's move unless another is better
    by more than a standard error: the move it plays in most batches; the judge plays its best);
    ``source`` where the values came from (one of :data:`SOURCES`); ``batches``, where the expert
    valued in :data:`BATCHES` batches, the lives the move played is below the best (the best of
    all batches together) in each batch, its mark held only where every batch holds it (empty
    for values not sampled so)."""

    step: int
    turn: int
    view: PlayerView = field(repr=False)
    played: Action
    moves: tuple[Move, ...]
    reads: tuple[tuple[int, str, float], ...]
    expert: Action
    source: str = "expert"
    batches: tuple[float, ...] = ()

    @property
    def round(self) -> int:
        """The round, from 1."""
        return self.view.round

    @property
    def seat(self) -> int:
        """The seat that decided."""
        return self.view.seat

    @property
    def hand(self) -> tuple[Card, ...]:
        """The seat's cards: three, or four while it discards."""
        return self.view.hand or ()

    @property
    def holding(self) -> HandValue:
        """The points of the hand it decided with: its three cards, or the best three of four it
        may keep while it discards (R4.2: never the card just taken from the pile)."""
        if len(self.hand) == 4:
            return value_from_half(best_discard(self.hand, self.view.rules, self.view.taken_from_pile)[0])
        assert self.view.hand_value is not None  # a decision is made holding a looked-at hand
        return self.view.hand_value

    @property
    def best(self) -> Move:
        """The move of the highest value."""
        return self.moves[0]

    @property
    def chosen(self) -> Move:
        """The move played."""
        return next(move for move in self.moves if move.action == self.played)

    @property
    def loss(self) -> float:
        """The best value less the value of the move played, in lives (0 or more)."""
        return max(self.best.value - self.chosen.value, 0.0)

    @property
    def noise(self) -> float:
        """:data:`NOISE` standard errors of that difference, in lives: up to this loss the move
        played is as good as the best for all the worlds tried can tell; for the network's values
        their measured error, once (the floor raised to it)."""
        return self.chosen.gap_stderr if self.source == "network" else NOISE * self.chosen.gap_stderr

    @property
    def stderr(self) -> float:
        """The noise of this decision's values: the largest standard error of a move's value, in
        lives (0 when every value is exact, as on a two-player last turn; the network's measured
        error for its values)."""
        return max(move.stderr for move in self.moves)

    @property
    def given(self) -> float:
        """What the move played gave away, in lives: its :attr:`loss`, or 0 within the
        :attr:`noise` or below :data:`FLOOR`, or where a batch puts it less than :data:`FLOOR`
        below the best (the batches disagree that it gave anything away)."""
        loss = self.loss
        agreed = all(batch >= FLOOR for batch in self.batches)
        return loss if loss > self.noise and loss >= FLOOR and agreed else 0.0

    @property
    def accurate(self) -> bool:
        """True when the move played is the best within the noise or :data:`FLOOR` (it gave
        nothing away)."""
        return self.given == 0.0

    @property
    def mark(self) -> str | None:
        """``inaccuracy``, ``mistake``, ``blunder`` (:func:`mark_of` what it gave away) or ``None``:
        where the expert valued in batches, the mildest of that mark and each batch's (:func:`mark_of`
        the lives the move is below the best in it), so a mark is shown only where every batch
        holds it."""
        return mark_of(min((self.given, *self.batches)))

    @property
    def reasons(self) -> tuple[Reason, ...]:
        """The rules that say why the move played gave something away (none when it gave nothing
        away): see :func:`_reasons`."""
        return _reasons(self.view, self.played, self.best.action) if self.given else ()

    @property
    def read(self) -> tuple[int, str, float] | None:
        """The expert's surest read of an opponent, ``(seat, suit letter, probability)``, or ``None``."""
        return self.reads[0] if self.reads else None

    def costly_json(self) -> dict[str, Any]:
        """The data of this decision's sentence as a costly one: ``step``, ``round``, ``turn``,
        ``holding`` (points), ``played`` and ``best`` (:meth:`Move.to_json`), the lives ``given``
        away, ``read`` (``{seat, suit, probability}`` or ``None``) and ``reasons``
        (:meth:`Reason.to_json`)."""
        read = self.read
        return {
            "step": self.step,
            "round": self.round,
            "turn": self.turn,
            "holding": _number(self.holding),
            "played": self.chosen.to_json(),
            "best": self.best.to_json(),
            "given": round(self.given, 4),
            "read": None if read is None else {"seat": read[0], "suit": read[1], "probability": read[2]},
            "reasons": [reason.to_json() for reason in self.reasons],
        }

    def to_json(self) -> dict[str, Any]:
        """Plain data: ``step``, ``round``, ``turn``, ``seat``, ``phase``, ``hand``, ``holding``,
        ``pile`` (the discard pile's top card) and ``widow`` as the seat saw them (cards as text),
        ``played``, ``best`` and ``expert`` (notation), ``moves`` (:meth:`Move.to_json`, best
        first), ``loss``, ``noise``, ``stderr`` and ``given`` (lives, rounded to 4 places),
        ``accurate``, ``mark``, ``reasons`` (:meth:`Reason.to_json`), ``reads`` (``{seat, suit,
        probability}``), the ``worlds`` tried (over every batch), the ``source`` of the values
        (:data:`SOURCES`) and ``batches``, the lives the move played is below the best in each of
        the expert's batches (rounded to 4 places; empty where the values were not sampled in
        batches)."""
        view = self.view
        return {
            "step": self.step,
            "round": self.round,
            "turn": self.turn,
            "seat": self.seat,
            "phase": view.phase.value,
            "hand": format_cards(self.hand),
            "holding": _number(self.holding),
            "pile": None if view.discard_top is None else str(view.discard_top),
            "widow": None if view.widow is None else format_cards(view.widow),
            "played": str(self.played),
            "best": str(self.best.action),
            "expert": str(self.expert),
            "moves": [move.to_json() for move in self.moves],
            "loss": round(self.loss, 4),
            "noise": round(self.noise, 4),
            "stderr": round(self.stderr, 4),
            "given": round(self.given, 4),
            "accurate": self.accurate,
            "mark": self.mark,
            "reasons": [reason.to_json() for reason in self.reasons],
            "reads": [{"seat": seat, "suit": suit, "probability": chance} for seat, suit, chance in self.reads],
            "worlds": self.best.worlds,
            "source": self.source,
            "batches": [round(batch, 4) for batch in self.batches],
        }


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """A seat's summary: ``decisions`` valued, of which ``accurate`` at the best move within the
    noise or the floor, the lives ``given`` away in all over the ``rounds`` it played (those it held cards in,
    up to the last decision valued), the count of each mark (``marks``, in :data:`MARKS` order)
    and its :data:`COSTLIEST` costliest decisions that gave something away (most first)."""

    seat: int
    decisions: int
    accurate: int
    given: float
    rounds: int
    marks: tuple[int, ...]
    costliest: tuple[Decision, ...]

    @property
    def accuracy(self) -> float | None:
        """The share of decisions at the best move within the noise (0 to 1; ``None`` without decisions)."""
        return self.accurate / self.decisions if self.decisions else None

    @property
    def per_round(self) -> float | None:
        """Lives given away per round played (``None`` before any round)."""
        return self.given / self.rounds if self.rounds else None

    def to_json(self) -> dict[str, Any]:
        """Plain data: every field (``marks`` by name, ``costliest`` as :meth:`Decision.costly_json`),
        ``accuracy`` and ``per_round`` (rounded to 4 places)."""
        return {
            "seat": self.seat,
            "decisions": self.decisions,
            "accurate": self.accurate,
            "accuracy": None if self.accuracy is None else round(self.accuracy, 4),
            "given": round(self.given, 4),
            "rounds": self.rounds,
            "per_round": None if self.per_round is None else round(self.per_round, 4),
            "marks": dict(zip(MARKS, self.marks, strict=True)),
            "costliest": [decision.costly_json() for decision in self.costliest],
        }


@dataclass(frozen=True)
class Review:
    """The review of a record: the ``names`` of its seats, the ``seats`` reviewed, whether the
    game was ``finished``, the expert's budget (``worlds`` per decision, at most ``seconds`` each
    or ``None``, the ``seed``: used where the expert valued), the ``decisions`` valued in game
    order, of ``total`` to value (``partial`` when fewer: the review was stopped),
    ``rounds_played``: for each seat of the record, the rounds it held cards in, the ``valuer``
    that valued the decisions (one of :data:`VALUERS`), ``fallback``: why the judge did not, where
    it was asked to (``None`` elsewhere), and ``judge_error``: the measured error of the network's
    values where the judge valued (lives; :meth:`JudgeBot.value_error
    <thirtyone.bots.judge.JudgeBot.value_error>`)."""

    names: tuple[str, ...]
    seats: tuple[int, ...]
    finished: bool
    worlds: int
    seconds: float | None
    seed: int
    total: int
    decisions: tuple[Decision, ...]
    rounds_played: tuple[tuple[int, ...], ...] = field(repr=False)
    valuer: str = "expert"
    fallback: str | None = None
    judge_error: float | None = None

    @property
    def partial(self) -> bool:
        """True when not every decision was valued (the review was stopped)."""
        return len(self.decisions) < self.total

    @property
    def summaries(self) -> tuple[SeatSummary, ...]:
        """The summary of each reviewed seat, in seat order. A partial review counts the rounds
        up to the one of its last decision valued (none before the first)."""
        last = self.decisions[-1].round if self.decisions else 0
        out = []
        for seat in self.seats:
            mine = [decision for decision in self.decisions if decision.seat == seat]
            costly = sorted((d for d in mine if d.given > 0), key=lambda d: (-d.given, d.step))[:COSTLIEST]
            rounds = [number for number in self.rounds_played[seat] if not self.partial or number <= last]
            out.append(
                SeatSummary(
                    seat,
                    len(mine),
                    sum(decision.accurate for decision in mine),
                    sum(decision.given for decision in mine),
                    len(rounds),
                    tuple(sum(decision.mark == mark for decision in mine) for mark in MARKS),
                    tuple(costly),
                )
            )
        return tuple(out)

    def to_json(self) -> dict[str, Any]:
        """The review as plain data (JSON): ``format`` (:data:`FORMAT`), ``version``, ``names``,
        ``seats``, ``finished``, ``partial``, ``valuer`` (:data:`VALUERS`), ``fallback`` (why not
        the judge, or ``None``), ``budget`` (the expert's: ``worlds`` a decision over every batch,
        ``seconds``, ``seed``, ``batches``: :data:`BATCHES`, fewer below as many worlds),
        ``noise`` (:data:`NOISE`), ``judge_error`` (the network's, or ``None``), ``floor``
        (:data:`FLOOR`), ``thresholds`` (:data:`THRESHOLDS`),
        ``total``, ``decisions`` (:meth:`Decision.to_json`) and ``summaries``
        (:meth:`SeatSummary.to_json`)."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "names": list(self.names),
            "seats": list(self.seats),
            "finished": self.finished,
            "partial": self.partial,
            "valuer": self.valuer,
            "fallback": self.fallback,
            "budget": {
                "worlds": self.worlds,
                "seconds": self.seconds,
                "seed": self.seed,
                "batches": len(_batch_worlds(self.worlds)),
            },
            "noise": NOISE,
            "judge_error": self.judge_error,
            "floor": FLOOR,
            "thresholds": dict(THRESHOLDS),
            "total": self.total,
            "decisions": [decision.to_json() for decision in self.decisions],
            "summaries": [summary.to_json() for summary in self.summaries],
        }


class Reviewer:
    """The review of ``record`` being made: :attr:`total` decisions to value (of ``seats``, every
    seat by default), :meth:`decisions` values them one at a time, :meth:`review` makes the
    :class:`Review` of those valued so far (partial when not all: a caller that is stopped keeps
    what is done). The record is replayed, every action and result checked, when it is made.

    ``valuer`` (:data:`VALUERS`): ``judge`` values every decision with the judge where its weights
    fit the record's rules and table size, else with the expert (:attr:`valuer` says which,
    :attr:`fallback` why); ``expert`` with the expert. The budget is the expert's: ``worlds`` per
    decision (1 to 1,000,000, split over its :data:`BATCHES` batches; deterministic for the
    ``seed``, a whole number), and with ``seconds`` (more than 0, at most 3,600) at most that long
    each; ``rollouts`` as :class:`~thirtyone.bots.expert.ExpertBot` takes them. The judge's review
    is the same under any budget and seed.

    Raises:
        RecordError: when the record does not replay (an action the rules forbid, a result that
            differs, ...: :meth:`GameRecord.replay <thirtyone.record.GameRecord.replay>`).
        SeatError: for a seat that is not one of the record's.
        ArgumentError: for a budget out of range, a seed that is not a whole number or a valuer
            not of :data:`VALUERS`.
    """

    def __init__(
        self,
        record: GameRecord,
        seats: Sequence[int] | None = None,
        *,
        worlds: int = DEFAULT_WORLDS,
        seconds: float | None = None,
        seed: int = 0,
        rollouts: Rollouts = "auto",
        valuer: str = "judge",
    ) -> None:
        self.record = record
        self.seats = _seats(record, seats)
        self.worlds, self.seconds = _budget(worlds, seconds)
        number = whole_number(seed)
        if number is None:
            raise ArgumentError(f"the review's seed is a whole number, not {seed!r}")
        self.seed = number
        self.rollouts = rollouts
        if valuer not in VALUERS:
            raise ArgumentError(f"the review's valuer is {' or '.join(VALUERS)}, not {valuer!r}")
        from thirtyone.bots.judge import JudgeBot

        self._judge = JudgeBot()
        self.fallback = self._judge.cannot_value(record.rules, record.players) if valuer == "judge" else None
        """Why the judge does not value this review though asked to (``None``: it does, or was not asked)."""
        self.valuer = "expert" if valuer == "expert" or self.fallback is not None else "judge"
        """What values the decisions: ``judge`` or ``expert``."""
        self.judge_error = self._judge.value_error(record.rules, record.players) if self.valuer == "judge" else None
        """The measured error of the network's values where the judge values (lives), else ``None``."""
        self.total = sum(1 for _ in _moments(record, self.seats))
        """The decisions to value."""
        self._valued: list[Decision] = []
        self._read: set[int] = set()  # the steps whose reads were made (the judge's)

    def decisions(self) -> Iterator[Decision]:
        """Value the decisions one at a time, in game order, each kept for :meth:`review` (in
        place of those of an earlier call)."""
        self._valued, self._read = [], set()
        for step, view, turn, played in _moments(self.record, self.seats):
            decision = (
                self._judged(step, turn, view, played)
                if self.valuer == "judge"
                else self._expert(step, turn, view, played)
            )
            self._valued.append(decision)
            yield decision

    def _expert(self, step: int, turn: int, view: PlayerView, played: Action) -> Decision:
        """The expert's valuation of one decision: a last turn after a knock counted
        (:func:`~thirtyone.bots.judge.counted_values`: no seed to vary, the expert's own values
        there; the reads drawn with :data:`~thirtyone.bots.work.READ_SEED`, as the hint's), any
        other in :data:`BATCHES` independent batches (:meth:`_batch`, the budget split between
        them), pooled (:func:`_pooled`)."""
        from thirtyone.bots.judge import counted_values

        counted = counted_values(view)
        if counted is not None:
            reads = belief_reads(view, random.Random(READ_SEED))  # as the judge's hint reads: the same under any seed
            return _counted(step, turn, view, played, counted, tuple(told_reads(reads)))
        sizes = _batch_worlds(self.worlds)
        seconds = None if self.seconds is None else self.seconds / len(sizes)
        batches = [
            self._batch(decision_seed(self.seed, step, number), worlds, seconds, view)
            for number, worlds in enumerate(sizes)
        ]
        return _pooled(step, turn, view, played, batches)

    def _batch(self, seed: int, worlds: int, seconds: float | None, view: PlayerView) -> Analysis:
        """One batch of the expert's valuation of ``view``: ``worlds`` worlds (at most ``seconds``) seeded ``seed``."""
        return ExpertBot(seed, worlds=worlds, seconds=seconds, rollouts=self.rollouts).analyse(view)

    def _judged(self, step: int, turn: int, view: PlayerView, played: Action) -> Decision:
        """The judge's valuation of one decision (:meth:`JudgeBot.values
        <thirtyone.bots.judge.JudgeBot.values>`, best first): the network's values with their
        measured error as their standard errors, a last turn's as counted; no reads yet
        (:meth:`review` makes those its sentences tell)."""
        valued = self._judge.values(view)
        if valued.source != "network":
            return _counted(step, turn, view, played, valued, ())
        error = self.judge_error or 0.0
        moves = tuple(
            Move(m.action, m.value, error, error if number else 0.0, 0) for number, m in enumerate(valued.moves)
        )
        return Decision(step, turn, view, played, moves, (), valued.moves[0].action, valued.source)

    def review(self) -> Review:
        """The review of the decisions valued so far. Where the judge valued, the reads of the
        opponents (the hint's: :func:`~thirtyone.bots.work.judge_analysis`) are made for the
        decisions a sentence tells, each seat's costliest (:attr:`SeatSummary.costliest`), once:
        the belief's worlds cost more than the judge's values."""
        review = Review(
            self.record.seats,
            self.seats,
            self.record.winner is not None,
            self.worlds,
            self.seconds,
            self.seed,
            self.total,
            tuple(self._valued),
            _rounds_played(self.record),
            self.valuer,
            self.fallback,
            self.judge_error,
        )
        if self.valuer == "expert":
            return review
        told = {decision.step for summary in review.summaries for decision in summary.costliest}
        for number, decision in enumerate(self._valued):
            if decision.step in told - self._read:
                reads = tuple(told_reads(judge_analysis(decision.view).reads))
                self._valued[number] = dataclasses.replace(decision, reads=reads)
                self._read.add(decision.step)
        return dataclasses.replace(review, decisions=tuple(self._valued))


class ReviewBudget(TypedDict, total=False):
    """The keywords of :class:`Reviewer` after ``seats``, for :func:`review_record`."""

    worlds: int
    seconds: float | None
    seed: int
    rollouts: Rollouts
    valuer: str


def review_record(record: GameRecord, seats: Sequence[int] | None = None, **budget: Unpack[ReviewBudget]) -> Review:
    """The whole review of ``record`` (see :class:`Reviewer` for the arguments and errors)."""
    reviewer = Reviewer(record, seats, **budget)
    for _ in reviewer.decisions():
        pass
    return reviewer.review()


# ---------------------------------------------------------------------------------------------- helpers


def _counted(
    step: int, turn: int, view: PlayerView, played: Action, valued: Valued, reads: tuple[tuple[int, str, float], ...]
) -> Decision:
    """The decision of a last turn after a knock, counted (``valued``: ``exact`` or ``sampled``)."""
    moves = tuple(Move(m.action, m.value, m.stderr, m.gap_stderr, valued.worlds) for m in valued.moves)
    return Decision(step, turn, view, played, moves, reads, valued.moves[0].action, valued.source)


def _batch_worlds(worlds: int) -> tuple[int, ...]:
    """The worlds of each of the expert's batches for ``worlds`` a decision: :data:`BATCHES` as
    even as may be (fewer where there are fewer worlds).

    >>> _batch_worlds(300), _batch_worlds(10), _batch_worlds(2)
    ((75, 75, 75, 75), (3, 3, 2, 2), (1, 1))
    """
    count = min(BATCHES, worlds)
    return tuple(worlds // count + (number < worlds % count) for number in range(count))


def _pooled(step: int, turn: int, view: PlayerView, played: Action, batches: Sequence[Analysis]) -> Decision:
    """The decision valued by the expert's ``batches`` together: each move's value the mean of
    the batches' means, its standard error their standard deviation over √(batches) (a single
    batch's own worlds' standard errors where there is one), the best the highest (ties: the
    first legal move), each move's ``gap_stderr`` from the spread of the best less it in each
    batch, :attr:`Decision.batches` the played move's gap in each, the expert's move the one it
    plays in most batches (ties: the earliest batch's), the reads the first batch's."""
    legal = view.legal_actions
    found = [{e.action: e for e in batch.estimates} for batch in batches]
    values = {a: [estimates[a].mean for estimates in found] for a in legal}
    best = max(legal, key=lambda a: (statistics.fmean(values[a]), -legal.index(a)))
    gaps = {a: [top - mine for top, mine in zip(values[best], values[a], strict=True)] for a in legal}
    if len(batches) == 1:
        errors = {a: (found[0][a].stderr, found[0][a].gap_stderr) for a in legal}
    else:
        root = math.sqrt(len(batches))
        errors = {a: (statistics.stdev(values[a]) / root, statistics.stdev(gaps[a]) / root) for a in legal}
    moves = sorted(
        (
            Move(a, statistics.fmean(values[a]), *errors[a], sum(estimates[a].worlds for estimates in found))
            for a in legal
        ),
        key=lambda move: (-move.value, legal.index(move.action)),
    )
    expert = Counter(batch.best for batch in batches).most_common(1)[0][0]
    reads = tuple(told_reads(batches[0].reads))
    return Decision(step, turn, view, played, tuple(moves), reads, expert, "expert", tuple(gaps[played]))


def _number(value: HandValue) -> int | float:
    return value if isinstance(value, int) else float(value)  # only halves occur: exact


def _seats(record: GameRecord, seats: Sequence[int] | None) -> tuple[int, ...]:
    if seats is None:
        return tuple(range(record.players))
    chosen: set[int] = set()
    for seat in seats:
        number = whole_number(seat)
        if number is None or not 0 <= number < record.players:
            raise SeatError(
                f"seat {seat!r} is not in this {record.players}-player game: seats are 0-{record.players - 1}"
            )
        chosen.add(number)
    return tuple(sorted(chosen))


def _budget(worlds: int, seconds: float | None) -> tuple[int, float | None]:
    number = whole_number(worlds)
    if number is None or not 1 <= number <= MAX_EXPERT_WORLDS:
        raise ArgumentError(f"worlds per decision are 1 to {MAX_EXPERT_WORLDS:,}, not {worlds!r}")
    if seconds is not None and (
        isinstance(seconds, bool) or not isinstance(seconds, int | float) or not 0 < seconds <= MAX_EXPERT_SECONDS
    ):
        raise ArgumentError(
            f"seconds per decision are more than 0 and at most {MAX_EXPERT_SECONDS:,.0f} (or None), not {seconds!r}"
        )
    return number, seconds


def _moments(record: GameRecord, seats: Sequence[int]) -> Iterator[tuple[int, PlayerView, int, Action]]:
    """Replay ``record`` and yield each decision of ``seats``: ``(step, the acting seat's view
    before it, the seat's own turn of the round from 1, the action it played)``. Every action,
    result and the outcome are checked, to the record's end."""
    moves = [(seat, action) for rnd in record.rounds for seat, action in rnd.actions]
    turns: dict[tuple[int, int], int] = {}  # (round, seat) -> turns begun
    for step, game in enumerate(record.replay_steps()):
        if step == len(moves):  # the position after the last action: nothing to decide
            continue
        seat, played = moves[step]
        phase = game.phase
        if phase is Phase.TURN:
            turns[game.round, seat] = turns.get((game.round, seat), 0) + 1
        if seat in seats and phase is not Phase.LOOK and len(game.legal_actions()) > 1:
            yield step, game.view(seat), turns.get((game.round, seat), 1), played


def _kept(view: PlayerView, action: Action) -> tuple[Card, ...] | None:
    """The three cards ``action`` leaves the seat with, where the action alone says it (a
    discard, a knock, a pass, an exchange); ``None`` for a draw (its discard is still to come)."""
    hand = view.hand or ()
    if isinstance(action, Discard):
        return tuple(card for card in hand if card != action.card)
    if isinstance(action, Knock | Pass):
        return tuple(hand)
    if isinstance(action, Exchange | ExchangeAll) and view.widow is not None:
        return after_exchange(hand, view.widow, action)
    return None


def _reasons(view: PlayerView, played: Action, best: Action) -> tuple[Reason, ...]:
    """The rules that explain why ``best`` is worth more than ``played`` from ``view``:

    - ``blitz_spares_knocker`` (R5.3, R6.5): the move played makes a 31 (or three aces) on a last
      turn after a knock where the best does not, under a knock penalty by which the knocker can
      lose two lives at the showdown (``scat``, ``widow``, ``namu_risky``): the 31 costs the
      knocker one.
    - ``blitz_missed`` (R5.1, or R5.3 on a last turn) and ``three_aces_missed`` (R1.5): the best
      makes a 31 (three aces) and the move played does not.
    - ``three_of_a_kind`` (R1.4, ``points``: 30 or 30.5): the best keeps three of a kind, worth
      more than the hand the move played keeps.
    - ``penalty_<knock penalty>`` (R6.5) where a knocker can lose two, else ``knock`` (R6.2:
      every other player has one more turn): the move played is a knock and the best is not.
    - ``last_life`` (R2.4) or ``grace`` (R2.3): the seat had one loss left, so the next one puts
      it out (counted two lives extra).
    """
    rules = view.rules
    out: list[Reason] = []
    mine, better = _kept(view, played), _kept(view, best)
    if mine is not None and better is not None and len(mine) == len(better) == 3:
        worth, best_worth = hand_value(mine, rules), hand_value(better, rules)
        knocker = view.knocker
        if worth >= 31 > best_worth and knocker is not None and rules.knock_penalty in _KNOCKER_PAYS_TWO:
            out.append(Reason("blitz_spares_knocker", ("R5.3", "R6.5"), (("knocker", knocker),)))
        elif best_worth > 31 > worth:
            out.append(Reason("three_aces_missed", ("R1.5",)))
        elif best_worth >= 31 > worth:
            out.append(Reason("blitz_missed", ("R5.1",) if knocker is None else ("R5.3",)))
        elif rules.three_of_a_kind != "off" and best_worth > worth and _three_of_a_kind(better, mine):
            out.append(Reason("three_of_a_kind", ("R1.4",), (("points", float(rules.three_of_a_kind)),)))
    if isinstance(played, Knock) and not isinstance(best, Knock):
        if rules.knock_penalty in _KNOCKER_PAYS_TWO:
            out.append(Reason(f"penalty_{rules.knock_penalty}", ("R6.5",)))
        else:
            out.append(Reason("knock", ("R6.2",)))
    status = view.seats[view.seat]
    if status.remaining == 1:
        out.append(Reason("grace", ("R2.3",)) if status.on_grace else Reason("last_life", ("R2.4",)))
    return tuple(out)


def _three_of_a_kind(kept: Sequence[Card], other: Sequence[Card]) -> bool:
    """True when ``kept`` is three cards of one rank and ``other`` is not."""
    return len({card.rank for card in kept}) == 1 < len({card.rank for card in other})


def _rounds_played(record: GameRecord) -> tuple[tuple[int, ...], ...]:
    """For each seat, the rounds of ``record`` it held cards in: those before it was put out (R2.4)."""
    out: set[int] = set()
    rounds: list[list[int]] = [[] for _ in range(record.players)]
    for rnd in record.rounds:
        for seat in range(record.players):
            if seat not in out:
                rounds[seat].append(rnd.round)
        if rnd.result is not None:
            out.update(rnd.result.eliminated)
    return tuple(tuple(seat_rounds) for seat_rounds in rounds)
