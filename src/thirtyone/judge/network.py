"""The learned judge at play time: a policy and a value for every legal action, from one numpy
forward pass over a seat's observation (no deep-learning framework at play time).

The input (:func:`judge_inputs`, :data:`INPUT_SIZE` entries) is the same for every table, so one
network plays every size and preset it was trained for:

- the observation of :mod:`thirtyone.judge.observation`, its per-seat blocks laid out for nine
  seats (a smaller table leaves the slots of the seats it does not have at 0; slots count from
  the observer, so slot 0 is always the seat to move);
- :data:`CARD_SUMS` card sums derived from it (each suit's points in the hand, with the pile's
  top card, with the widow, and the best of the first two; ``/ 31``);
- the table: its size (one-hot, 2–9) and every rule option (:func:`rules_features`; the lives
  the rules give each player among them);
- :data:`MOVE_FEATURES` entries that tie a move's id to the hand it leaves (:func:`move_features`):
  for each action id, the best suit's points of the three cards the seat holds after it (/ 31) and
  whether they are three of a kind. An exchange's id names places in the hand and the widow sorted
  by card index, which a network reading card planes would have to sort out for itself.

Two multilayer perceptrons of ReLUs read it: the **policy** (a logit per action id; illegal ids
are masked) and the **values** (for each action id, the lives this round is expected to bring the
seat after that action: the others' average loss minus its own, :mod:`thirtyone.agents.table`'s
reward). The weights file (``.npz``, float16) carries its own description (:class:`JudgeNet`'s
``meta``: format, presets and table sizes it was trained for, input size, how it was made) and is
refused in one line, naming the file, when it is not a judge's or does not fit.

>>> from thirtyone import Game, Rules
>>> net = JudgeNet.initial(hidden=(16,), seed=1, presets=("scat",), players=(4,))
>>> game = Game(Rules.preset("scat"), players=4, seed=3)
>>> judged = net.judge(game.view(game.current_seat))
>>> sorted(judged.probabilities), round(sum(judged.probabilities.values()), 6)
([52, 53, 54], 1.0)
>>> JudgeNet.load("no/such/judge.npz")
Traceback (most recent call last):
...
thirtyone.judge.network.JudgeWeightsError: judge weights 'no/such/judge.npz': no such file
"""

from __future__ import annotations

import functools
import itertools
import json
import os
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from thirtyone.action_ids import NUM_ACTIONS
from thirtyone.action_ids import action_id
from thirtyone.cards import Card
from thirtyone.errors import ThirtyOneError
from thirtyone.judge.observation import ObservationLayout
from thirtyone.judge.observation import encode
from thirtyone.judge.observation import layout_for
from thirtyone.rules import MAX_PLAYERS
from thirtyone.rules import MIN_PLAYERS
from thirtyone.rules import OPTIONS
from thirtyone.rules import PRESETS
from thirtyone.rules import Rules
from thirtyone.views import PlayerView

__all__ = [
    "FORMAT",
    "CARD_SUMS",
    "INPUT_SIZE",
    "MOVE_FEATURES",
    "Judged",
    "JudgeNet",
    "JudgeWeightsError",
    "card_sums",
    "judge_inputs",
    "move_features",
    "rules_features",
    "with_move_features",
    "rules_base",
]

FORMAT = "thirtyone-judge-1"
"""The ``format`` of a judge's weights file; a file of another format is refused."""

CARD_SUMS = 14
"""Derived inputs after the observation: per suit the points of the hand, of the hand with the
pile's top card and of the hand with the widow (each / 31), and the best suit of the first two."""

Floats = npt.NDArray[np.float32]

_POINTS = np.array([Card(index).points for index in range(52)], dtype=np.float32).reshape(13, 4) / 31.0


class JudgeWeightsError(ThirtyOneError):
    """A judge's weights file that cannot be read, is not a judge's, or was not made for the table
    it is asked about (the message names the file and what it was made for)."""


def card_sums(obs: Floats, layout: ObservationLayout) -> Floats:
    """The :data:`CARD_SUMS` card sums of observations ``obs`` (``[batch, layout.size]``):
    ``[batch, 14]``, points / 31."""
    hand = obs[:, layout.slices["hand"]].reshape(-1, 13, 4)
    top = obs[:, layout.slices["pile_top"]].reshape(-1, 13, 4)
    widow = obs[:, layout.slices["widow"]].reshape(-1, 13, 4)
    own = (hand * _POINTS).sum(axis=1)  # [batch, 4]: the hand's points in each suit
    with_top = own + (top * _POINTS).sum(axis=1)
    with_widow = own + (widow * _POINTS).sum(axis=1)
    best = np.stack([own.max(axis=1), with_top.max(axis=1)], axis=1)
    return np.concatenate([own, with_top, with_widow, best], axis=1, dtype=np.float32)


@functools.lru_cache(maxsize=64)
def rules_features(rules: Rules) -> Floats:
    """Every rule option of ``rules`` as numbers, in the order of :data:`thirtyone.rules.OPTIONS`:
    an on/off option as 0 or 1, a number as its place in its range (0–1), a choice one-hot (with
    a last entry for an option of the other mode, ``None``). Made once for each rules (read only)."""
    values: list[float] = []
    for name, spec in OPTIONS.items():
        value = getattr(rules, name)
        if spec.kind == "bool":
            values.append(float(bool(value)))
        elif spec.kind == "int":
            span = max(spec.high - spec.low, 1)
            values.append((float(value) - spec.low) / span)
        else:
            values.extend(float(value == choice) for choice in spec.choices)
            values.append(float(value is None))
    row = np.array(values, dtype=np.float32)
    row.flags.writeable = False
    return row


_RULES_SIZE = len(rules_features(Rules()))
_TABLE_SIZES = MAX_PLAYERS - MIN_PLAYERS + 1
_WIDE = layout_for(MAX_PLAYERS)

MOVE_FEATURES = 2 * NUM_ACTIONS
"""Derived inputs at the end: for each action id, the best suit's points (/ 31) of the three cards
held after it, then whether they are three of a kind (0 where the id leaves no known hand)."""

_BEFORE_MOVES = _WIDE.size + CARD_SUMS + _TABLE_SIZES + _RULES_SIZE
INPUT_SIZE = _BEFORE_MOVES + MOVE_FEATURES
"""Entries of the judge's input, the same for every table (see the module)."""

_PLACES: dict[int, npt.NDArray[np.int64]] = {}


def _places(players: int) -> npt.NDArray[np.int64]:
    """Where each entry of a ``players``-seat observation lies in the nine-seat layout: every block
    at its place there, a per-seat block's slots ``0 … players - 1`` at the same slots of nine."""
    places = _PLACES.get(players)
    if places is None:
        layout = layout_for(players)
        parts = [
            _WIDE.slices[name].start + np.arange(where.stop - where.start) for name, where in layout.slices.items()
        ]
        places = _PLACES[players] = np.concatenate(parts).astype(np.int64)
    return places


def judge_inputs(obs: Floats, players: int, rules: Rules) -> Floats:
    """The judge's input (``float32 [batch, INPUT_SIZE]``) for observations ``obs`` of a
    ``players``-seat table (``[batch, layout_for(players).size]``) under ``rules``."""
    batch = obs.shape[0]
    layout = layout_for(players)
    x = np.zeros((batch, INPUT_SIZE), dtype=np.float32)
    x[:, _places(players)] = obs
    at = _WIDE.size
    x[:, at : at + CARD_SUMS] = card_sums(obs, layout)
    at += CARD_SUMS
    x[:, at + players - MIN_PLAYERS] = 1.0
    at += _TABLE_SIZES
    x[:, at:_BEFORE_MOVES] = rules_features(rules)
    x[:, _BEFORE_MOVES:] = move_features(x)
    return x


def with_move_features(x: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """Judge inputs of an earlier version, without the :data:`MOVE_FEATURES` (``[batch,
    INPUT_SIZE - MOVE_FEATURES]``), completed to ``[batch, INPUT_SIZE]`` (same dtype); inputs of
    this version are returned as they are."""
    if x.shape[1] == INPUT_SIZE:
        return x
    wide = np.zeros((x.shape[0], INPUT_SIZE), dtype=x.dtype)
    wide[:, :_BEFORE_MOVES] = x
    wide[:, _BEFORE_MOVES:] = move_features(wide)
    return wide


_CARDS = np.arange(52)
_SUIT_POINTS = np.zeros((53, 4), dtype=np.float32)  # a card's points in its suit's column; row 52: no card
_SUIT_POINTS[_CARDS, _CARDS % 4] = [Card(index).points for index in range(52)]
_RANKS = np.append(_CARDS // 4, -1)
_NONE = 7
"""The place of "no card" among a decision's seven places: the hand's four (sorted by card index,
the fourth empty but while discarding), the widow's three, then this one."""


def _places_kept() -> npt.NDArray[np.int64]:
    """For each action id, the places of the three cards held after it (:data:`_NONE` where the id
    leaves no hand known from its id alone: draws, take widow, discards, which depend on the cards)."""
    kept = np.full((NUM_ACTIONS, 3), _NONE, dtype=np.int64)
    kept[[54, 56, 57]] = (0, 1, 2)  # knock, pass, keep (R7.6): the hand
    kept[55] = (4, 5, 6)  # exchange all: the widow
    for i, j in itertools.product(range(3), range(3)):
        kept[61 + 3 * i + j] = [4 + j if place == i else place for place in range(3)]
        kept[70 + 3 * i + j] = [i, *(4 + other for other in range(3) if other != j)]
    return kept


_KEPT = _places_kept()
_EXCHANGES = np.isin(np.arange(NUM_ACTIONS), [55, *range(61, 79)])  # the ids that need a face-up widow
_OTHERS = np.array([[other for other in range(4) if other != place] for place in range(4)])


def _sorted_cards(planes: npt.NDArray[Any], most: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The first ``most`` cards of each row of card ``planes`` ``[batch, 52]`` by card index
    (``[batch, most]``, 52 past the last card) and how many cards each row holds."""
    held = planes > 0.5
    cards = np.where(held, _CARDS, 52)
    cards.sort(axis=1)
    return cards[:, :most], held.sum(axis=1)


def move_features(x: npt.NDArray[Any]) -> Floats:
    """The :data:`MOVE_FEATURES` of judge inputs ``x`` (``[batch, ≥ INPUT_SIZE - MOVE_FEATURES]``,
    read from their hand and widow planes): ``float32 [batch, 2 * 79]``. The hand each id leaves:
    a discard (ids 0–51, four cards held) the other three; ``knock``, ``pass`` and ``keep`` the
    hand; ``exchange all`` the face-up widow; an exchange of one or two cards (61–78) the cards it
    makes, by the places in the sorted hand and widow that its id names (:mod:`thirtyone.action_ids`).

    >>> from thirtyone import Game, Rules
    >>> game = Game(Rules.preset("scat"), players=2, seed=4)
    >>> view = game.view(game.current_seat)
    >>> x = judge_inputs(encode(view)[None, :], 2, view.rules)
    >>> " ".join(map(str, view.hand)), round(float(x[0, INPUT_SIZE - MOVE_FEATURES + 54] * 31), 2)  # knock
    ('Jh Qc 9s', 10.0)
    """
    hand, held = _sorted_cards(x[:, _WIDE.slices["hand"]], 4)
    widow, shown = _sorted_cards(x[:, _WIDE.slices["widow"]], 3)
    cards = np.concatenate([hand, widow, np.full((x.shape[0], 1), 52)], axis=1)  # [batch, 8] by place
    after = cards[:, _KEPT]  # [batch, 79, 3]: the three cards each id leaves
    after[held != 3] = 52  # knock, pass, keep, exchanges: three cards held
    after[(shown != 3)[:, None] & _EXCHANGES] = 52
    rows = np.flatnonzero(held == 4)
    for place in range(4):  # a discard: the other three of four
        after[rows, hand[rows, place]] = cards[rows[:, None], _OTHERS[place]]
    points = _SUIT_POINTS[after].sum(axis=2).max(axis=2) / 31.0  # [batch, 79]
    ranks = _RANKS[after]
    kind = (ranks[..., 0] >= 0) & (ranks[..., 0] == ranks[..., 1]) & (ranks[..., 1] == ranks[..., 2])
    return np.concatenate([points, kind], axis=1, dtype=np.float32)


def rules_base(rules: Rules) -> str | None:
    """The preset ``rules`` are but for their lives (``None``: another option differs)."""
    for name, preset in PRESETS.items():
        if preset == rules.replace(lives=preset.lives):
            return name
    return None


@dataclass(frozen=True)
class Judged:
    """The judge's reading of one decision: for each legal action id, the policy's probability
    and the value (lives this round, the others' average loss minus the seat's own)."""

    probabilities: dict[int, float]
    values: dict[int, float]

    @property
    def best(self) -> int:
        """The legal id of the highest probability (ties: the lowest id)."""
        return max(sorted(self.probabilities), key=lambda number: self.probabilities[number])


Layer = tuple[Floats, Floats]


def _mlp(layers: Sequence[Layer], x: Floats) -> Floats:
    for number, (weights, bias) in enumerate(layers):
        x = x @ weights + bias
        if number < len(layers) - 1:
            x = np.maximum(x, 0.0)
    return x


@dataclass
class JudgeNet:
    """A judge's weights: ``policy`` and ``value`` are each a list of ``(w [in, out], b [out])``
    layers (ReLUs between them; ``[INPUT_SIZE, …, 79]``), ``meta`` its description (``presets``
    and ``players`` it was trained for, ``steps``, ``command``, …)."""

    policy: list[Layer]
    value: list[Layer]
    meta: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def initial(
        cls,
        hidden: Sequence[int] = (256, 256),
        seed: int = 0,
        presets: Sequence[str] = ("scat", "widow", "schwimmen"),
        players: Sequence[int] = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1)),
    ) -> JudgeNet:
        """Random weights (He initialisation, zero biases) for the given tables."""
        rng = np.random.default_rng(seed)
        sizes = [INPUT_SIZE, *hidden, NUM_ACTIONS]

        def stack() -> list[Layer]:
            return [
                (
                    rng.normal(0.0, np.sqrt(2.0 / a), (a, b)).astype(np.float32),
                    np.zeros(b, dtype=np.float32),
                )
                for a, b in itertools.pairwise(sizes)
            ]

        meta = {"presets": list(presets), "players": list(players), "hidden": list(hidden)}
        return cls(stack(), stack(), meta)

    def forward(self, x: Floats) -> tuple[Floats, Floats]:
        """Logits and values (``[batch, 79]`` each) of inputs ``x`` (``[batch, INPUT_SIZE]``)."""
        return _mlp(self.policy, x), _mlp(self.value, x)

    @property
    def greedy(self) -> bool:
        """Whether these weights are played by their most probable move: weights distilled from the
        expert (``meta["distilled"]``), whose probabilities say how sure the network is of the
        expert's move, not a mixed strategy."""
        return "distilled" in self.meta

    def fits(self, rules: Rules, players: int) -> str | None:
        """Why these weights cannot judge a ``players``-seat table of ``rules`` (``None``: they can):
        the rules must be a preset they were trained on, with any number of lives (an input of the
        network), at a table size they were trained on."""
        preset = rules_base(rules)
        if preset not in self.meta.get("presets", ()):
            made = ", ".join(self.meta.get("presets", ())) or "no preset"
            return f"made for {made}, not {rules.describe()}"
        if players not in self.meta.get("players", ()):
            sizes = ", ".join(map(str, self.meta.get("players", ())))
            return f"made for tables of {sizes} players, not {players}"
        return None

    def judge(self, view: PlayerView) -> Judged:
        """The policy's probabilities and the values of the legal actions of ``view``'s seat.

        Raises:
            JudgeWeightsError: for a table these weights were not made for (:meth:`fits`).
        """
        why = self.fits(view.rules, view.players)
        if why is not None:
            raise JudgeWeightsError(f"judge weights {self.meta.get('path', '')!r}: {why}")
        ids = [action_id(view, action) for action in view.legal_actions]
        x = judge_inputs(encode(view)[None, :], view.players, view.rules)
        logits, values = self.forward(x)
        chosen = logits[0, ids].astype(np.float64)
        chosen = np.exp(chosen - chosen.max())
        chosen /= chosen.sum()
        return Judged(
            {number: float(p) for number, p in zip(ids, chosen, strict=True)},
            {number: float(values[0, number]) for number in ids},
        )

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the weights (float16) and ``meta`` to ``path`` (``.npz``)."""
        arrays: dict[str, Any] = {"format": np.array(FORMAT), "meta": np.array(json.dumps(self.meta))}
        for name, layers in (("policy", self.policy), ("value", self.value)):
            for number, (weights, bias) in enumerate(layers):
                arrays[f"{name}.{number}.w"] = weights.astype(np.float16)
                arrays[f"{name}.{number}.b"] = bias.astype(np.float16)
        np.savez_compressed(path, **arrays)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> JudgeNet:
        """The judge saved at ``path``.

        Raises:
            JudgeWeightsError: for a missing or unreadable file, one that is not a judge's weights
                (another policy's, or any other ``.npz``), or weights of the wrong shapes (another
                input size: made by another version); the message names the file. Weights made
                before the :data:`MOVE_FEATURES` load with zero weights for them (the same play).
        """
        where = f"judge weights {str(path)!r}"
        file = Path(path)
        if not file.is_file():
            raise JudgeWeightsError(f"{where}: {'no such file' if not file.exists() else 'not a file'}")
        try:
            with np.load(file, allow_pickle=False) as data:  # never unpickle: a file may come from anyone
                entries = {name: data[name] for name in data.files}
        except OSError as error:
            if error.errno is not None:
                raise JudgeWeightsError(f"{where}: cannot read it: {error.strerror or error}") from None
            raise JudgeWeightsError(f"{where}: not a .npz file of judge weights") from None
        except (ValueError, EOFError, zipfile.BadZipFile):
            raise JudgeWeightsError(f"{where}: not a .npz file of judge weights") from None
        if str(entries.get("format", "")) != FORMAT:
            made = str(entries["format"]) if "format" in entries else "no format"
            raise JudgeWeightsError(f"{where}: not a judge's weights (format {made!r}, not {FORMAT!r})")
        try:
            meta = json.loads(str(entries["meta"]))
            net = cls(_layers(entries, "policy"), _layers(entries, "value"), dict(meta))
        except (KeyError, TypeError, ValueError) as error:
            raise JudgeWeightsError(f"{where}: broken weights ({error})") from None
        for layers in (net.policy, net.value):
            weights, bias = layers[0]
            if weights.shape[0] == _BEFORE_MOVES:  # made before the move features: they start unread
                layers[0] = (np.concatenate([weights, np.zeros((MOVE_FEATURES, weights.shape[1]), np.float32)]), bias)
            elif weights.shape[0] != INPUT_SIZE:
                raise JudgeWeightsError(
                    f"{where}: made for inputs of {weights.shape[0]} entries, not {INPUT_SIZE} "
                    "(another version of the judge's inputs: train it again)"
                )
        net.meta["path"] = str(path)
        return net


def _layers(entries: dict[str, Any], name: str) -> list[Layer]:
    layers: list[Layer] = []
    while f"{name}.{len(layers)}.w" in entries:
        number = len(layers)
        weights = np.asarray(entries[f"{name}.{number}.w"], dtype=np.float32)
        bias = np.asarray(entries[f"{name}.{number}.b"], dtype=np.float32)
        if weights.ndim != 2 or bias.shape != (weights.shape[1],):
            raise ValueError(f"{name} layer {number} has shapes {weights.shape} and {bias.shape}")
        if layers and layers[-1][0].shape[1] != weights.shape[0]:
            raise ValueError(f"{name} layer {number} takes {weights.shape[0]} inputs, not {layers[-1][0].shape[1]}")
        if not (np.isfinite(weights).all() and np.isfinite(bias).all()):
            raise ValueError(f"{name} layer {number} is not finite")
        layers.append((weights, bias))
    if not layers or layers[-1][0].shape[1] != NUM_ACTIONS:
        raise ValueError(f"the {name} network must end in {NUM_ACTIONS} outputs")
    return layers
