"""What a round costs: who loses how many lives, and who is out (R5, R6.5, R2.4–R2.6).

Small pure functions over plain values, used by the engine and read by the bots and the simulator:
hand values are *half points* by seat (``int``; 31 = 62, 30½ = 61, see :mod:`thirtyone.scoring`),
lives are remaining losses (R2.4). A :class:`Loss` says in data why it was charged (its
:data:`LossKind`); :mod:`thirtyone.text` puts that in English, the faces in their own words.

>>> losses = showdown_losses({0: 40, 1: 30, 2: 50}, knocker=1, penalty="scat", end="knock")
>>> [(loss.seat, loss.lives, loss.kind, loss.rule) for loss in losses]
[(1, 2, 'knocker_alone_lowest', 'R6.5')]
>>> settle((1, 3, 2), (0, 1, 2), losses)
Settlement(remaining=(1, 1, 2), eliminated=(), saved_by_r2_6=False)
>>> KNOCK_PENALTIES["widow"].tied_lowest
2
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal
from typing import NamedTuple
from typing import get_args

from thirtyone.errors import ArgumentError
from thirtyone.errors import RulesError
from thirtyone.scoring import BLITZ_HALF

__all__ = [
    "RoundEnd",
    "LossKind",
    "LOSS_KINDS",
    "LOSS_RULES",
    "NO_KNOCK_KINDS",
    "Loss",
    "loss_label",
    "KnockPenalty",
    "KNOCK_PENALTIES",
    "blitz_losses",
    "dealt_blitz",
    "showdown_losses",
    "showdown_charges",
    "Settlement",
    "settle",
    "charge",
]

RoundEnd = Literal["dealt_blitz", "blitz", "knock", "throw_down", "all_pass", "stock_exhausted", "max_turns"]
"""How a round ended: a 31 on the deal (R5.2) or later (R5.1), a showdown after a knock (R6.2),
a throw-down (R6.6), every player passing (R7.3), an empty stock (R4.3) or the turn limit (R6.7)."""

LossKind = Literal[
    "blitz",
    "dealt_blitz",
    "blitz_after_knock",
    "dealt_blitz_beaten",
    "lowest",
    "knocker_alone_lowest",
    "lowest_knocker_saved",
    "knocker_among_lowest",
    "knocker_not_highest",
    "lowest_all_passed",
    "lowest_turn_limit",
    "lowest_stock_out",
]
"""Why a seat lost lives, one closed set (``Loss.seats`` are the seats the kind names):

- ``blitz`` (R5.1): another seat showed 31 (or three aces); ``seats``: that seat.
- ``dealt_blitz`` (R5.2): others were dealt 31; ``seats``: the seats dealt the best blitz.
- ``blitz_after_knock`` (R5.3): a 31 made on a last turn after a knock; ``seats``: its seat.
- ``dealt_blitz_beaten`` (R5.5): dealt a 31 but beaten by three aces; ``seats``: the aces.
- ``lowest`` (R6.5): the lowest hand at the showdown after a knock or a throw-down.
- ``knocker_alone_lowest`` (R6.5, ``knock_penalty=scat``): the knocker alone lowest loses two.
- ``lowest_knocker_saved`` (R6.5): tied for lowest with the knocker, who is saved; ``seats``: the knocker.
- ``knocker_among_lowest`` (R6.5, ``knock_penalty=widow``): the knocker among the lowest loses two.
- ``knocker_not_highest`` (R6.5, ``knock_penalty=namu_risky``): a knocker without the highest hand loses two.
- ``lowest_all_passed``, ``lowest_turn_limit``, ``lowest_stock_out`` (R6.5): the lowest hand at a
  showdown nobody knocked for: everyone passed (R7.3), the turn limit (R6.7), the stock ran out (R4.3).

A throw-down (R6.6) is scored as a knock by its caller: its losses have the knock kinds, and the
round's ``end`` (``throw_down``) says it was one.
"""

LOSS_KINDS: tuple[LossKind, ...] = get_args(LossKind)
"""Every loss kind, in a fixed order (the simulator's loss codes are ``LOSS_KINDS.index(kind) + 1``)."""

LOSS_RULES: Mapping[LossKind, str] = {
    "blitz": "R5.1",
    "dealt_blitz": "R5.2",
    "blitz_after_knock": "R5.3",
    "dealt_blitz_beaten": "R5.5",
    **dict.fromkeys(LOSS_KINDS[4:], "R6.5"),
}
"""The rule that charges each kind of loss."""

_SHOWDOWN_ENDS = ("knock", "throw_down", "all_pass", "stock_exhausted", "max_turns")

NO_KNOCK_KINDS: Mapping[str, LossKind] = {
    "all_pass": "lowest_all_passed",
    "max_turns": "lowest_turn_limit",
    "stock_exhausted": "lowest_stock_out",
}
"""The kind of the lowest hand's loss at a showdown nobody knocked for, by the round's end."""


@dataclass(frozen=True, slots=True)
class Loss:
    """Lives one seat lost in a round: ``seat``, ``lives`` (1 or 2), ``kind`` (a :data:`LossKind`)
    and ``seats``, the seats the kind names (the blitz seats, the knocker who was saved, or none).

    Raises:
        ArgumentError: for a kind outside :data:`LOSS_KINDS`, or lives other than 1 or 2.
    """

    seat: int
    lives: int
    kind: LossKind
    seats: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in LOSS_RULES:
            raise ArgumentError(f"unknown loss kind {self.kind!r}: kinds are {', '.join(LOSS_KINDS)}")
        if self.lives not in (1, 2):
            raise ArgumentError(f"a loss is 1 or 2 lives (R5, R6.5), not {self.lives!r}")

    @property
    def rule(self) -> str:
        """The rule that charged the loss (``R5.1``, ``R6.5``, …)."""
        return LOSS_RULES[self.kind]


def loss_label(kind: LossKind) -> str:
    """A loss kind with its rule, as reports list lives lost: ``"R6.5 lowest"``, ``"R5.1 blitz"``.

    Raises:
        ArgumentError: for a kind outside :data:`LOSS_KINDS`.
    """
    if kind not in LOSS_RULES:
        raise ArgumentError(f"unknown loss kind {kind!r}: kinds are {', '.join(LOSS_KINDS)}")
    return f"{LOSS_RULES[kind]} {kind}"


@dataclass(frozen=True, slots=True)
class KnockPenalty:
    """What one ``knock_penalty`` option (R6.5) does to the knocker at the showdown, in lives:
    ``alone_lowest`` when the knocker alone holds the lowest hand, ``tied_lowest`` when tied for
    it (0: the knocker is saved and the others tied lose one), ``not_highest`` when the knocker
    does not hold the highest hand (0: no such rule; else the knocker's whole loss)."""

    alone_lowest: int
    tied_lowest: int
    not_highest: int = 0

    @property
    def most(self) -> int:
        """The most lives a knocker can lose at the showdown: 2 or 1."""
        return max(self.alone_lowest, self.tied_lowest, self.not_highest)

    @property
    def tie_saves(self) -> bool:
        """True when a knocker tied for the lowest hand loses nothing for it."""
        return self.tied_lowest == 0

    def knocker_kind(self, tied: bool) -> LossKind:
        """The kind of the knocker's loss for holding the lowest hand, alone or ``tied``."""
        lives = self.tied_lowest if tied else self.alone_lowest
        if lives < 2:
            return "lowest"
        return "knocker_among_lowest" if self.tied_lowest == self.alone_lowest else "knocker_alone_lowest"


KNOCK_PENALTIES: Mapping[str, KnockPenalty] = {
    "scat": KnockPenalty(alone_lowest=2, tied_lowest=0),
    "namu": KnockPenalty(alone_lowest=1, tied_lowest=0),
    "namu_risky": KnockPenalty(alone_lowest=1, tied_lowest=0, not_highest=2),
    "widow": KnockPenalty(alone_lowest=2, tied_lowest=2),
    "plain": KnockPenalty(alone_lowest=1, tied_lowest=1),
}
"""Each ``knock_penalty`` option (R6.5), read by the engine, the bots and the simulator."""


def blitz_losses(active: Sequence[int], seat: int, knocked: bool) -> tuple[Loss, ...]:
    """R5.1, R5.3: ``seat`` showed 31; every other seat in ``active`` loses one life.

    Raises:
        ArgumentError: when ``seat`` is not in ``active``.
    """
    if seat not in active:
        raise ArgumentError(f"seat {seat!r} showed a blitz but is not among the seats in the round {tuple(active)}")
    kind: LossKind = "blitz_after_knock" if knocked else "blitz"
    return tuple(Loss(other, 1, kind, (seat,)) for other in active if other != seat)


def dealt_blitz(halves: Mapping[int, int]) -> tuple[tuple[int, ...], tuple[Loss, ...]] | None:
    """R5.2, R5.5: the dealt hands (half points by seat) as a blitz on the deal: the seats holding
    the best blitz, and everyone else's loss of one life; ``None`` when nobody holds a blitz.

    Raises:
        ArgumentError: for no hands.
    """
    if not halves:
        raise ArgumentError("a deal needs the hands of the seats in the round (half points by seat), not none")
    best = max(halves.values())
    if best < BLITZ_HALF:
        return None
    winners = tuple(seat for seat, half in halves.items() if half == best)
    losses = tuple(
        Loss(seat, 1, "dealt_blitz_beaten" if half >= BLITZ_HALF else "dealt_blitz", winners)
        for seat, half in halves.items()
        if half != best
    )
    return winners, losses


def showdown_losses(
    halves: Mapping[int, int], knocker: int | None, penalty: str | KnockPenalty, end: str
) -> tuple[Loss, ...]:
    """R6.5: the lowest hand loses one life, with the knocker rules of ``penalty`` (a
    ``knock_penalty`` name or a :class:`KnockPenalty`). ``halves`` are the hands in half points by
    seat, ``knocker`` is the knocker (the caller of a throw-down) or ``None``, ``end`` the round's
    end (names the kind of a showdown nobody knocked for, :data:`NO_KNOCK_KINDS`).

    Raises:
        RulesError: for an unknown knock penalty.
        ArgumentError: for no hands, a knocker whose hand is not among them, or an ``end`` that
            is not a showdown's (:data:`RoundEnd` less the blitzes).
    """
    if isinstance(penalty, KnockPenalty):
        rule = penalty
    elif penalty in KNOCK_PENALTIES:
        rule = KNOCK_PENALTIES[penalty]
    else:
        raise RulesError(f"unknown knock_penalty {penalty!r}: choose one of {', '.join(KNOCK_PENALTIES)}")
    if not halves:
        raise ArgumentError("a showdown needs the hands of the seats in the round (half points by seat), not none")
    if knocker is not None and knocker not in halves:
        raise ArgumentError(f"knocker {knocker!r} has no hand among the seats in the round {tuple(halves)}")
    if end not in _SHOWDOWN_ENDS:
        raise ArgumentError(f"a showdown ends a round by {', '.join(_SHOWDOWN_ENDS)}, not {end!r}")
    return showdown_charges(halves, knocker, rule, end)


def showdown_charges(halves: Mapping[int, int], knocker: int | None, rule: KnockPenalty, end: str) -> tuple[Loss, ...]:
    """:func:`showdown_losses` of sound arguments, unchecked: the engine's call, every round."""
    low = min(halves.values())
    lowest = [seat for seat, half in halves.items() if half == low]
    losses: list[Loss] = []
    if knocker is None:
        kind = NO_KNOCK_KINDS.get(end, "lowest")
        losses = [Loss(seat, 1, kind) for seat in lowest]
    elif knocker not in lowest:
        losses = [Loss(seat, 1, "lowest") for seat in lowest]
    else:
        tied = len(lowest) > 1
        lives = rule.tied_lowest if tied else rule.alone_lowest
        for seat in lowest:
            if seat != knocker:
                losses.append(
                    Loss(seat, 1, "lowest_knocker_saved", (knocker,)) if lives == 0 else Loss(seat, 1, "lowest")
                )
            elif lives:
                losses.append(Loss(seat, lives, rule.knocker_kind(tied)))
    if knocker is not None and rule.not_highest and halves[knocker] < max(halves.values()):
        losses = [loss for loss in losses if loss.seat != knocker]
        losses.append(Loss(knocker, rule.not_highest, "knocker_not_highest"))
    return tuple(losses)


class Settlement(NamedTuple):
    """Lives after a round: every seat's ``remaining`` losses (R2.4), the seats the round put out,
    and whether R2.6 saved everyone from a result that would have put them all out."""

    remaining: tuple[int, ...]
    eliminated: tuple[int, ...]
    saved_by_r2_6: bool


def settle(remaining: Sequence[int], active: Sequence[int], losses: Sequence[Loss]) -> Settlement:
    """Charge ``losses`` to the seats' ``remaining`` losses (R2.4): a seat at 0 is out, unless the
    result would put out every seat in ``active``: then each is left with one (R2.6).

    Raises:
        ArgumentError: for a negative count, a seat in ``active`` that has no count or none left,
            or a loss of a seat not in ``active``.
    """
    if any(left < 0 for left in remaining):
        raise ArgumentError(f"remaining losses are counts of 0 or more, not {tuple(remaining)}")
    if any(not 0 <= seat < len(remaining) or remaining[seat] == 0 for seat in active):
        raise ArgumentError(f"the seats in the round {tuple(active)} need a count above 0 in {tuple(remaining)}")
    if any(loss.seat not in active for loss in losses):
        raise ArgumentError(f"a loss of a seat not in the round {tuple(active)}: {losses}")
    return charge(remaining, active, losses)


def charge(remaining: Sequence[int], active: Sequence[int], losses: Sequence[Loss]) -> Settlement:
    """:func:`settle` of sound arguments, unchecked: the engine's call, every round."""
    after = list(remaining)
    for loss in losses:
        after[loss.seat] -= loss.lives
    going = [seat for seat in active if after[seat] <= 0]
    saved = len(going) == len(active)
    for seat in going:
        after[seat] = 1 if saved else 0
    return Settlement(tuple(after), () if saved else tuple(going), saved)
