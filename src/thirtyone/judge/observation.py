"""The observation tensor of one seat (the judge's input, and every agent environment's), built
from that seat's :class:`~thirtyone.views.PlayerView` only (so nothing hidden can leak into it):
a flat ``float32`` vector in ``[0, 1]`` with named slices (:class:`ObservationLayout`).

Seats are counted from the observer: slot ``k`` is seat ``(seat + k) % players``, so slot 0 is
always the observer and slot 1 the player after it. Card planes have 52 entries, one per card
index (``rank * 4 + suit``; a 32-card deck uses 20–51).

===================  ==============  ===========================================================
slice                size            meaning
===================  ==============  ===========================================================
``hand``             52              own cards (three, four while discarding; none before looking, R6.6)
``taken``            52              the card taken from the discard pile this turn (may not be discarded, R4.2)
``pile_top``         52              the discard pile's top card (draw mode)
``pile``             52              every card in the discard pile (draw mode), the widows set aside (R7.3)
``widow``            52              the face-up widow (widow mode)
``known``            players × 52    cards each seat is publicly known to hold (taken face up, not given away)
``discarded``        players × 52    cards each seat laid face up this round: its discards, the cards it
                                     gave to the widow, the hand it laid down (exchange all, take widow)
``lives``            players         lives shown / the rules' lives (R2.2)
``grace``            players         1 on the grace life (on the dole / bus, schwimmt; R2.3)
``out``              players         1 when out of the game
``looked``           players         1 when the seat has looked at its cards (R6.6)
``dealer``           players         one-hot: the dealer
``knocker``          players         one-hot: who knocked this round (all 0: nobody)
``to_move``          players         one-hot: whose move it is (all 0 once the game is over)
``phase``            5               one-hot: look, dealer_choice, turn, discard, over (none at a chance step)
``widow_face_down``  1               1 while the widow lies face down (widow mode, R7.2)
``stock``            1               cards in the stock / cards in the deck
``turn``             1               turns completed this round / max_turns (R6.7)
``seats_in``         1               seats still in / players
``players``          1               players / 9
===================  ==============  ===========================================================

The discard pile and each seat's discards are read from the view's history of the round (every
discard is public, R4.4), as a player who watched the table would remember them.

>>> from thirtyone import Game, Rules
>>> game = Game(Rules.preset("scat"), players=4, seed=1)
>>> layout = ObservationLayout(4)
>>> obs = encode(game.view(0))
>>> obs.shape == (layout.size,), layout.size, int(obs[layout.slices["hand"]].sum())
(True, 714, 3)
>>> layout.unpack(obs)["known"].shape
(4, 52)
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field

import numpy as np
import numpy.typing as npt

from thirtyone.cards import Card
from thirtyone.errors import ArgumentError
from thirtyone.judge.seen import RoundCards
from thirtyone.judge.seen import round_cards
from thirtyone.rules import MAX_PLAYERS
from thirtyone.rules import MIN_PLAYERS
from thirtyone.views import Phase
from thirtyone.views import PlayerView

__all__ = [
    "ObservationLayout",
    "PHASES",
    "BLOCKS",
    "RoundCards",
    "encode",
    "layout_for",
    "lay_end_to_end",
    "round_cards",
    "zeroed",
]


PHASES: tuple[Phase, ...] = (Phase.LOOK, Phase.DEALER_CHOICE, Phase.TURN, Phase.DISCARD, Phase.OVER)
"""The phases in the order of the ``phase`` slice."""

BLOCKS: tuple[str, ...] = (
    "hand", "taken", "pile_top", "pile", "widow", "known", "discarded", "lives", "grace", "out", "looked",
    "dealer", "knocker", "to_move", "phase", "widow_face_down", "stock", "turn", "seats_in", "players",
)  # fmt: skip
"""The slices of the observation, in order."""


def lay_end_to_end(layout: object, shapes: dict[str, tuple[int, ...]]) -> None:
    """Set a frozen layout's ``shapes`` (each block's shape, in order), ``slices`` (each block's
    place in the flat vector, the blocks end to end) and ``size`` (the vector's length)."""
    slices: dict[str, slice] = {}
    at = 0
    for name, shape in shapes.items():
        length = int(np.prod(shape))
        slices[name] = slice(at, at + length)
        at += length
    object.__setattr__(layout, "slices", slices)
    object.__setattr__(layout, "shapes", shapes)
    object.__setattr__(layout, "size", at)


@dataclass(frozen=True)
class ObservationLayout:
    """Where each part of the observation of a ``players``-seat table lies (see the module table).

    ``slices[name]`` is the slice of the flat vector, ``shapes[name]`` its shape unflattened
    (``known`` and ``discarded`` are ``(players, 52)``), ``size`` the vector's length.

    Raises:
        ArgumentError: for a player count outside 2–9.
    """

    players: int
    slices: dict[str, slice] = field(init=False, repr=False, compare=False)
    shapes: dict[str, tuple[int, ...]] = field(init=False, repr=False, compare=False)
    size: int = field(init=False, compare=False)

    def __post_init__(self) -> None:
        players = self.players
        if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ArgumentError(f"an observation layout is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players!r}")
        sizes: dict[str, tuple[int, ...]] = {}
        for name in BLOCKS:
            if name in ("hand", "taken", "pile_top", "pile", "widow"):
                sizes[name] = (52,)
            elif name in ("known", "discarded"):
                sizes[name] = (players, 52)
            elif name == "phase":
                sizes[name] = (len(PHASES),)
            elif name in ("widow_face_down", "stock", "turn", "seats_in", "players"):
                sizes[name] = (1,)
            else:
                sizes[name] = (players,)
        lay_end_to_end(self, sizes)

    def unpack(self, obs: npt.NDArray[np.float32]) -> dict[str, npt.NDArray[np.float32]]:
        """The named parts of one observation (views into ``obs``, shaped as ``shapes``)."""
        return {name: obs[where].reshape(self.shapes[name]) for name, where in self.slices.items()}

    def offsets(self) -> npt.NDArray[np.int64]:
        """The start of each slice in the order of :data:`BLOCKS` (for the compiled vector env)."""
        return np.array([self.slices[name].start for name in BLOCKS], dtype=np.int64)


_LAYOUTS: dict[int, ObservationLayout] = {}


def layout_for(players: int) -> ObservationLayout:
    """The :class:`ObservationLayout` of a ``players``-seat table (made once)."""
    layout = _LAYOUTS.get(players)
    if layout is None:
        layout = _LAYOUTS[players] = ObservationLayout(players)
    return layout


def zeroed(size: int, out: npt.NDArray[np.float32] | None) -> npt.NDArray[np.float32]:
    """A ``float32 [size]`` vector of zeros to encode into: ``out`` cleared, when given, else a new one.

    Raises:
        ArgumentError: for ``out`` of another shape or dtype.
    """
    if out is None:
        return np.zeros(size, dtype=np.float32)
    if out.shape != (size,) or out.dtype != np.float32:
        raise ArgumentError(f"out must be float32 [{size}], not {out.dtype} {list(out.shape)}")
    out[:] = 0.0
    return out


def encode(view: PlayerView, out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
    """The observation of ``view.seat`` from ``view`` alone (see the module table): ``float32
    [layout.size]``, written into ``out`` when given.

    Raises:
        ArgumentError: for ``out`` of the wrong shape or dtype.
    """
    players = view.players
    layout = layout_for(players)
    obs = zeroed(layout.size, out)
    s = layout.slices
    seat = view.seat

    def slot(other: int) -> int:
        return (other - seat) % players

    if view.hand is not None:
        obs[s["hand"].start + np.array(view.hand, dtype=np.int64)] = 1.0
    if view.taken_from_pile is not None:
        obs[s["taken"].start + view.taken_from_pile] = 1.0
    if view.discard_top is not None:
        obs[s["pile_top"].start + view.discard_top] = 1.0
    if view.widow is not None:
        obs[s["widow"].start + np.array(view.widow, dtype=np.int64)] = 1.0
    pile, discarded = _pile_and_discards(view)
    for card in pile:
        obs[s["pile"].start + card] = 1.0
    known = s["known"].start
    gone = s["discarded"].start
    for status in view.seats:
        k = slot(status.seat)
        for card in status.known_cards:
            obs[known + 52 * k + card] = 1.0
        for card in discarded[status.seat]:
            obs[gone + 52 * k + card] = 1.0
        obs[s["lives"].start + k] = status.lives / view.rules.lives
        obs[s["grace"].start + k] = status.on_grace
        obs[s["out"].start + k] = status.out
        obs[s["looked"].start + k] = status.has_looked
    obs[s["dealer"].start + slot(view.dealer)] = 1.0
    if view.knocker is not None:
        obs[s["knocker"].start + slot(view.knocker)] = 1.0
    if view.current_seat is not None:
        obs[s["to_move"].start + slot(view.current_seat)] = 1.0
    if view.phase in PHASES:  # a chance step (Phase.CHANCE) sets none
        obs[s["phase"].start + PHASES.index(view.phase)] = 1.0
    obs[s["widow_face_down"].start] = view.widow_face_down
    obs[s["stock"].start] = view.stock_size / view.rules.deck
    obs[s["turn"].start] = view.turn / view.rules.max_turns
    obs[s["seats_in"].start] = len(view.active_seats) / players
    obs[s["players"].start] = players / MAX_PLAYERS
    return obs


def _pile_and_discards(view: PlayerView) -> tuple[set[Card], list[set[Card]]]:
    """The cards of the discard pile (draw mode) or the widows set aside (widow mode), and the
    cards each seat laid face up this round (:func:`round_cards`)."""
    cards = round_cards(view)
    discarded = [set(given) | set(laid) for given, laid in zip(cards.given, cards.laid_down, strict=True)]
    return set(cards.pile if view.rules.mode == "draw" else cards.set_aside), discarded
