"""The simulator's entry points: check the input, pack it into arrays, call the kernels.

Every argument is checked before any round is played (:class:`~thirtyone.sim.errors.SimInputError`,
:class:`~thirtyone.sim.errors.UnsupportedRulesError`, :class:`~thirtyone.errors.RulesError`), so a
bad call costs nothing and leaves nothing half done.
"""

from __future__ import annotations

from collections.abc import Iterator
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from thirtyone.action_ids import SIMPLE_IDS
from thirtyone.actions import Action
from thirtyone.actions import Discard
from thirtyone.actions import Exchange
from thirtyone.cards import Card
from thirtyone.cards import format_cards
from thirtyone.engine import Game
from thirtyone.errors import PositionError
from thirtyone.position import Position
from thirtyone.refusals import IllegalActionError
from thirtyone.rules import Rules
from thirtyone.sim import kernels
from thirtyone.sim.codes import A_DISCARD
from thirtyone.sim.codes import A_EX1
from thirtyone.sim.codes import A_EX2
from thirtyone.sim.codes import ENDS
from thirtyone.sim.codes import ID_CODES
from thirtyone.sim.codes import LOSS_NAMES
from thirtyone.sim.codes import PHASE_CODES
from thirtyone.sim.codes import POLICIES
from thirtyone.sim.codes import POLICY_CODES
from thirtyone.sim.errors import SimInputError
from thirtyone.sim.params import R_FULL
from thirtyone.sim.params import basic_bars
from thirtyone.sim.params import check_covered
from thirtyone.sim.params import float_params
from thirtyone.sim.params import heuristic_bars
from thirtyone.sim.params import heuristic_blind
from thirtyone.sim.params import points_table
from thirtyone.sim.params import rule_params
from thirtyone.sim.params import value_table
from thirtyone.sim.results import GameBatch
from thirtyone.sim.results import RoundBatch
from thirtyone.sim.rng import MASK64
from thirtyone.sim.rng import round_key
from thirtyone.text import refusal

__all__ = [
    "MAX_BATCH",
    "MAX_STREAM",
    "DEFAULT_CHUNK",
    "play_rounds",
    "iter_rounds",
    "play_games",
    "iter_games",
    "rollout",
    "positions_to_states",
    "action_code",
    "warm_up",
]

MAX_BATCH = 1 << 24
"""The most rounds or games one call holds in memory (16,777,216); stream more with
:func:`iter_rounds` / :func:`iter_games`."""
MAX_STREAM = 10**12
"""The most rounds or games one stream plays."""
DEFAULT_CHUNK = 1 << 16
"""Rounds or games per chunk of a stream (65,536)."""

Policy = str | Sequence[str]
IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


class _Prepared:
    """The rules and policies as the kernels take them."""

    def __init__(self, rules: Rules, players: int, policy: Policy) -> None:
        if not isinstance(rules, Rules):
            raise SimInputError(f"rules must be a thirtyone.Rules, not {type(rules).__name__}")
        check_covered(rules)
        rules.check_players(players)
        self.rules = rules
        self.players = players
        self.names = _policies(policy, players)
        self.policies = np.array([POLICY_CODES[name] for name in self.names], dtype=np.int64)
        rp = rule_params(rules)
        const = np.zeros(kernels.N_C, dtype=np.int64)
        const[: rp.shape[0]] = rp
        const[kernels.C_PTS : kernels.C_PTS + 52] = points_table()
        const[kernels.C_BBARS : kernels.C_BBARS + 10] = basic_bars()
        hbars = np.zeros((10, 10, 9, 2), dtype=np.int64)
        hbars[:, :, :players, :] = heuristic_bars(rules, players)
        const[kernels.C_HBARS : kernels.C_BLIND] = hbars.ravel()
        const[kernels.C_BLIND :] = heuristic_blind(rules)
        const[kernels.C_HMIN] = hbars[:, 2:, :players, :].min()
        self.const = const
        self.full = int(rp[R_FULL])
        self.floats = float_params(rules)
        self.table = value_table(rules)

    def work(self) -> IntArray:
        return np.zeros(kernels.N_W, dtype=np.int64)

    def kernel_start(self) -> tuple[IntArray, FloatArray, npt.NDArray[np.int8], IntArray, IntArray]:
        """The arguments the playing kernels (rounds, games, rollouts) start with: the rules'
        constants ``const``, the heuristic's floats ``floats``, the hand values ``values`` (named so
        in :mod:`thirtyone.sim.kernels`), a fresh work vector ``w`` (``int64 [N_W]``) and each
        seat's policy code ``int64 [players]``."""
        return self.const, self.floats, self.table, self.work(), self.policies

    def round_outputs(self, count: int) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int8]]:
        """Zeroed outputs of ``count`` rounds for a round kernel to fill, as
        :meth:`~thirtyone.sim.results.RoundBatch.from_outputs` reads them: ``int32 [count, 9]``
        per round and ``int8 [count, 6, players]`` per seat."""
        return np.zeros((count, 9), dtype=np.int32), np.zeros((count, 6, self.players), dtype=np.int8)


def _prepared(rules: Rules, players: int, policy: Policy) -> _Prepared:
    """The kernels' tables for these rules and policies, built once and kept (they take a while)."""
    if isinstance(rules, Rules):
        check_covered(rules)  # also for tables made before: what the kernels cover may be narrowed
    key = (rules, players, policy if isinstance(policy, str) else tuple(policy))
    try:
        return _PREPARED[key]
    except TypeError:  # unhashable input: let _Prepared say what is wrong
        return _Prepared(rules, players, policy)
    except KeyError:
        pass
    prepared = _Prepared(rules, players, policy)
    if len(_PREPARED) >= 64:
        _PREPARED.clear()
    _PREPARED[key] = prepared
    return prepared


_PREPARED: dict[tuple[Rules, int, str | tuple[str, ...]], _Prepared] = {}


def _policies(policy: Policy, players: int) -> tuple[str, ...]:
    names = [policy] if isinstance(policy, str) else list(policy)
    if isinstance(policy, str):
        names = names * players
    if len(names) != players:
        raise SimInputError(f"give one policy, or one per seat ({players}), not {len(names)}")
    out = []
    for name in names:
        if not isinstance(name, str):
            raise SimInputError(f"a policy is a name ({', '.join(POLICIES)}), not {name!r}")
        key = name.strip().lower()
        if key not in POLICY_CODES:
            raise SimInputError(f"unknown policy {name!r}: the simulator plays {', '.join(POLICIES)}")
        out.append(key)
    return tuple(out)


def _count(value: Any, what: str, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise SimInputError(f"{what} must be a whole number from 1 to {high:,}, not {value!r}")
    if not 1 <= int(value) <= high:
        raise SimInputError(f"{what} must be from 1 to {high:,}, not {int(value):,}")
    return int(value)


def _seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= int(seed) <= MASK64:
        raise SimInputError(f"seed must be a whole number from 0 to 2**64 - 1, not {seed!r}")
    return int(seed)


def _decks(decks: Any, rules: Rules) -> npt.NDArray[np.uint8]:
    """The deck orders as ``uint8 [n, deck]`` (52 bytes a round), each checked to be a permutation."""
    try:
        array = np.asarray(decks)
    except (ValueError, TypeError) as error:
        raise SimInputError(f"decks must be an array [rounds, {rules.deck}] of card indexes: {error}") from None
    if array.ndim != 2 or array.shape[1] != rules.deck:
        raise SimInputError(f"decks must have shape [rounds, {rules.deck}] (one deck order a row), not {array.shape}")
    _count(array.shape[0], "the number of deck orders", MAX_BATCH)
    if array.dtype.kind not in "iu" or array.dtype == np.bool_:
        raise SimInputError(f"deck orders are card indexes (integers 0-51), not {array.dtype}")
    full = np.arange(52 - rules.deck, 52, dtype=np.uint8)
    inside = (array >= 0) & (array < 52)  # before the cast to bytes, which would wrap
    cards = np.where(inside, array, 255).astype(np.uint8)
    bad = np.flatnonzero((np.sort(cards, axis=1) != full).any(axis=1))
    if bad.size:
        row = array[bad[0]].astype(np.int64)
        counts = np.bincount(row[(row >= 0) & (row < 52)], minlength=52)
        missing = [int(card) for card in full if counts[card] == 0]
        twice = [int(card) for card in full if counts[card] > 1]
        foreign = sorted({int(card) for card in row if card not in full})
        wrong = {
            "missing": format_cards(map(Card, missing)),
            "repeated": format_cards(map(Card, twice)),
            "not in the deck": " ".join(str(Card(card)) if 0 <= card < 52 else str(card) for card in foreign),
        }
        more = f" (and {bad.size - 1} more)" if bad.size > 1 else ""
        raise SimInputError(
            f"deck order {int(bad[0])}{more} is not a permutation of the {rules.deck}-card deck: "
            + ", ".join(f"{what} {cards}" for what, cards in wrong.items() if cards)
        )
    return cards


def _rows(value: Any, rows: int, width: int | None, what: str) -> IntArray:
    """``value`` as an int64 array of one row or ``rows`` rows (of ``width`` columns when given)."""
    try:
        array = np.asarray(value)
    except (ValueError, TypeError) as error:
        raise SimInputError(f"{what}: {error}") from None
    if array.dtype.kind not in "iu" or array.dtype == np.bool_:
        raise SimInputError(f"{what} must be whole numbers, not {array.dtype}")
    one = array.ndim == (0 if width is None else 1)
    many = array.ndim == (1 if width is None else 2) and array.shape[0] == rows
    if width is not None and array.ndim >= 1 and array.shape[-1] != width:
        raise SimInputError(f"{what} needs {width} columns (one a seat), not shape {array.shape}")
    if not (one or many):
        raise SimInputError(
            f"{what} must be one value for all rounds or one per round ({rows}), not shape {array.shape}"
        )
    shape = (1,) if width is None else (1, width)
    return array.astype(np.int64).reshape(shape if one else array.shape)


def _lives(prepared: _Prepared, lives: Any, rows: int) -> IntArray:
    if lives is None:
        return np.full((1, prepared.players), prepared.full, dtype=np.int64)
    array = _rows(lives, rows, prepared.players, "lives (remaining losses per seat)")
    if (array < 0).any() or (array > 100).any():
        raise SimInputError("lives (remaining losses per seat, R2.4) must be from 0 to 100")
    if ((array > 0).sum(axis=1) < 2).any():
        raise SimInputError("a round needs at least two seats still in (lives > 0)")
    return array


def _dealers(prepared: _Prepared, dealers: Any, lives: IntArray, rows: int) -> IntArray:
    array = _rows(dealers, rows, None, "dealers")
    if ((array < 0) | (array >= prepared.players)).any():
        raise SimInputError(f"a dealer is a seat from 0 to {prepared.players - 1}")
    index = np.arange(max(array.shape[0], lives.shape[0]))
    if (lives[index % lives.shape[0], array[index % array.shape[0]]] <= 0).any():
        raise SimInputError("a dealer must be a seat still in the game (lives > 0)")
    return array


def _run_rounds(
    prepared: _Prepared,
    seed: int,
    base: int,
    count: int,
    decks: npt.NDArray[np.uint8],
    dealers: IntArray,
    lives: IntArray,
) -> RoundBatch:
    out, seats = prepared.round_outputs(count)
    kernels.play_rounds_kernel(*prepared.kernel_start(), np.uint64(seed), base, decks, dealers, lives, out, seats)
    return RoundBatch.from_outputs(prepared.rules, prepared.names, seed, base, out, seats)


def play_rounds(
    rules: Rules,
    players: int,
    decks: Any = None,
    dealers: Any = 0,
    policy: Policy = "basic",
    seed: int = 0,
    lives: Any = None,
    *,
    rounds: int | None = None,
) -> RoundBatch:
    """Play one round per deck order, each to its end, with ``policy`` in every seat (or one
    policy per seat), and return a :class:`~thirtyone.sim.results.RoundBatch`.

    ``decks`` is an integer array ``[n, rules.deck]`` of deck orders (top card first, card
    indexes as :class:`~thirtyone.cards.Card`), dealt as the engine deals (R3.2); or ``None`` with
    ``rounds=n``: row ``i`` is then dealt from the seed (see :mod:`thirtyone.sim.rng`). ``dealers``
    is a seat, or one per round. ``lives`` is each seat's remaining losses (R2.4; 0 = out), one
    row ``[players]`` for all rounds or ``[n, players]``; by default everyone has all
    (``rules.lives`` plus the grace life). ``seed`` keys row ``i``'s reshuffles and ``random``
    choices (``round_key(seed, i)``).

    Raises:
        SimInputError: for 0 or more than :data:`MAX_BATCH` rounds, deck orders that are not
            permutations of the deck, a dealer who is not a seat in the game, bad lives, an unknown
            policy, a bad seed.
        UnsupportedRulesError: for an option the kernels do not cover (naming it).
        RulesError: when the rules cannot be dealt to ``players`` players (R2.1).
    """
    prepared = _prepared(rules, players, policy)
    seed = _seed(seed)
    if decks is None:
        if rounds is None:
            raise SimInputError("give the deck orders (decks) or how many rounds to deal from the seed (rounds=n)")
        count = _count(rounds, "rounds", MAX_BATCH)
        deck_array = np.zeros((0, rules.deck), dtype=np.uint8)
    else:
        deck_array = _decks(decks, rules)
        count = deck_array.shape[0]
        if rounds is not None and rounds != count:
            raise SimInputError(f"rounds={rounds} but {count} deck orders were given")
    life_array = _lives(prepared, lives, count)
    dealer_array = _dealers(prepared, dealers, life_array, count)
    return _run_rounds(prepared, seed, 0, count, deck_array, dealer_array, life_array)


def iter_rounds(
    rules: Rules,
    players: int,
    rounds: int,
    policy: Policy = "basic",
    seed: int = 0,
    *,
    dealers: Any = 0,
    lives: Any = None,
    chunk: int = DEFAULT_CHUNK,
) -> Iterator[RoundBatch]:
    """Stream ``rounds`` rounds dealt from ``seed`` in batches of ``chunk`` rounds (the last may be
    shorter); row ``i`` of the whole stream is the same round whatever the chunk size.
    ``dealers`` and ``lives`` are one value for all rounds (see :func:`play_rounds`). Memory
    stays at one chunk's arrays: add each batch to a :class:`~thirtyone.sim.results.RoundTotals`.

    Raises (before the first batch):
        SimInputError, UnsupportedRulesError, RulesError: as :func:`play_rounds`, for up to
            :data:`MAX_STREAM` rounds and chunks up to :data:`MAX_BATCH`.
    """
    prepared = _prepared(rules, players, policy)
    seed = _seed(seed)
    total = _count(rounds, "rounds", MAX_STREAM)
    size = _count(chunk, "chunk", MAX_BATCH)
    life_array = _lives(prepared, lives, 1)
    if life_array.shape[0] != 1:
        raise SimInputError("a stream takes one row of lives for all its rounds")
    dealer_array = _dealers(prepared, dealers, life_array, 1)
    if dealer_array.shape[0] != 1:
        raise SimInputError("a stream takes one dealer for all its rounds")
    no_decks = np.zeros((0, rules.deck), dtype=np.uint8)
    return _stream_rounds(prepared, seed, total, size, no_decks, dealer_array, life_array)


def _stream_rounds(
    prepared: _Prepared,
    seed: int,
    total: int,
    size: int,
    decks: npt.NDArray[np.uint8],
    dealers: IntArray,
    lives: IntArray,
) -> Iterator[RoundBatch]:
    for base in range(0, total, size):
        yield _run_rounds(prepared, seed, base, min(size, total - base), decks, dealers, lives)


def _seeds(seeds: Any, high: int) -> npt.NDArray[np.uint64]:
    """The seeds as ``uint64``, checked (the count first, so that a huge range costs nothing)."""
    try:
        count = len(seeds)
    except TypeError:
        raise SimInputError(
            f"seeds must be a sequence or an array of whole numbers, not {type(seeds).__name__}"
        ) from None
    _count(count, "the number of games (seeds)", high)
    values = seeds.tolist() if isinstance(seeds, np.ndarray) else list(seeds)
    for value in values:
        _seed(value)
    return np.array(values, dtype=np.uint64)


def _run_games(prepared: _Prepared, seeds: npt.NDArray[np.uint64]) -> GameBatch:
    count = seeds.shape[0]
    players = prepared.players
    out = np.zeros((count, 7), dtype=np.int64)
    seats = np.zeros((count, 5, players), dtype=np.int32)
    by_rule = np.zeros((count, len(LOSS_NAMES)), dtype=np.int32)
    ends = np.zeros((count, len(ENDS)), dtype=np.int32)
    kernels.play_games_kernel(*prepared.kernel_start(), seeds, out, seats, by_rule, ends)
    if out[:, 6].any():  # pragma: no cover - a game of a million rounds
        raise SimInputError(f"a game did not end within {kernels.MAX_GAME_ROUNDS:,} rounds")
    return GameBatch(
        rules=prepared.rules,
        players=players,
        policies=prepared.names,
        seeds=seeds,
        winner=out[:, 0],
        rounds=out[:, 1],
        blitzes=out[:, 2],
        turns=out[:, 3],
        actions=out[:, 4],
        reshuffles=out[:, 5],
        places=seats[:, 0, :],
        lost=seats[:, 1, :],
        knocks=seats[:, 2, :],
        knocks_lost=seats[:, 3, :],
        rounds_played=seats[:, 4, :],
        lives_by_rule=by_rule,
        ends=ends,
    )


def play_games(rules: Rules, players: int, policies: Policy, seeds: Sequence[int] | npt.NDArray[Any]) -> GameBatch:
    """Play one whole game per seed (until one player is left, R2.5) with ``policies`` (one name
    for every seat, or one per seat) and return a :class:`~thirtyone.sim.results.GameBatch`.
    Game ``g`` is dealt as ``Game(rules, players, chance=CounterChance(seeds[g]))`` deals.

    Raises:
        SimInputError: for no seeds or more than :data:`MAX_BATCH`, a seed that is not a 64-bit
            word, an unknown policy.
        UnsupportedRulesError, RulesError: as :func:`play_rounds`.
    """
    prepared = _prepared(rules, players, policies)
    return _run_games(prepared, _seeds(seeds, MAX_BATCH))


def iter_games(
    rules: Rules,
    players: int,
    policies: Policy,
    seeds: Sequence[int] | npt.NDArray[Any],
    *,
    chunk: int = DEFAULT_CHUNK,
) -> Iterator[GameBatch]:
    """Stream :func:`play_games` in batches of ``chunk`` games, in the order of ``seeds``; add each
    to a :class:`~thirtyone.totals.GameTotals` (:func:`~thirtyone.sim.results.add_batch`) to keep
    memory flat.

    Raises (before the first batch): as :func:`play_games`, for up to :data:`MAX_STREAM` seeds.
    """
    prepared = _prepared(rules, players, policies)
    size = _count(chunk, "chunk", MAX_BATCH)
    array = _seeds(seeds, MAX_STREAM)
    return (_run_games(prepared, array[base : base + size]) for base in range(0, array.shape[0], size))


# ------------------------------------------------------------------------------------ rollouts


def positions_to_states(positions: Sequence[Position], *, check: bool = True) -> IntArray:
    """The kernels' work vector of each position, ``[n, kernels.N_W]`` (``int64``). ``check=False``
    skips :meth:`Position.check` after the first position, for positions known to differ from it
    only in where the cards it does not show lie (the expert's worlds of one decision).

    Raises:
        SimInputError: for no positions, something that is not a Position, or positions of
            different rules or table sizes.
        PositionError: for a position no game can be in (:meth:`Position.check`).
        UnsupportedRulesError: for rules the kernels do not cover.
    """
    count = _count(len(positions), "the number of positions", MAX_BATCH)
    for row, position in enumerate(positions):  # all of them before the first one's rules are read
        if not isinstance(position, Position):
            raise SimInputError(
                f"position {row} must be a thirtyone.position.Position (game.position() gives one), not {position!r}"
            )
    first = positions[0]
    check_covered(first.rules)
    states = np.zeros((count, kernels.N_W), dtype=np.int64)
    done: dict[int, int] = {}
    for row, position in enumerate(positions):
        same = done.get(id(position))
        if same is not None:
            states[row] = states[same]
            continue
        if position.rules != first.rules or position.players != first.players:
            raise SimInputError(f"position {row} has other rules or another number of seats than position 0")
        try:
            if check or row == 0:
                position.check()
        except PositionError as error:
            raise PositionError(f"position {row}: {error}") from None
        _fill_state(states[row], position)
        done[id(position)] = row
    return states


def _fill_state(w: IntArray, position: Position) -> None:
    k = kernels
    w[k.S_PHASE] = PHASE_CODES[position.phase.value]
    w[k.S_SEAT] = position.to_move
    w[k.S_DEALER] = position.dealer
    w[k.S_KNOCKER] = -1 if position.knocker is None else position.knocker
    w[k.S_TURNS] = position.turn
    w[k.S_PASSES] = position.passes
    w[k.S_TAKEN] = -1 if position.taken_from_pile is None else int(position.taken_from_pile)
    w[k.S_WUP] = 1 if position.widow_face_up else 0
    w[k.S_NS] = len(position.stock)
    w[k.S_NP] = len(position.discard_pile)
    w[k.W_HANDS : k.W_HANDS + 36] = -1
    for seat, hand in enumerate(position.hands):
        for at, card in enumerate(hand):
            w[k.W_HANDS + 4 * seat + at] = card
    for at, card in enumerate(position.stock):  # top card first
        w[k.W_STOCK + at] = card
    w[k.S_SP] = 0
    w[k.S_GEN] = w[k.S_SIZE] = len(position.stock)
    for at, card in enumerate(position.discard_pile):
        w[k.W_PILE + at] = card
    for at, card in enumerate(position.widow):
        w[k.W_WIDOW + at] = card
    known = position.known_cards or ((),) * position.players
    looked = position.looked if position.looked is not None else (True,) * position.players
    for seat, left in enumerate(position.remaining_losses()):
        w[k.W_REM + seat] = left
        w[k.W_LOOKED + seat] = 1 if looked[seat] else 0
        mask = 0
        for card in known[seat]:
            mask |= 1 << card
        w[k.W_KNOWN + seat] = mask


_SIMPLE_CODES: dict[Action, int] = {action: ID_CODES[number] for action, number in SIMPLE_IDS.items()}
"""The codes of the actions that name no card (built once: the expert asks for a code per world and action)."""


def action_code(position: Position, action: Action) -> int:
    """The kernels' code of ``action`` taken in ``position`` (discards name the card, exchanges
    the places of the cards in the hand and the widow).

    Raises:
        IllegalActionError: for an exchange of cards that are not in the hand or the widow.
        SimInputError: for something that is not an action.
    """
    if isinstance(action, Discard):
        return A_DISCARD + int(action.card)
    if isinstance(action, Exchange):
        hand = list(position.hands[position.to_move])
        widow = list(position.widow)
        for card in action.give:
            if card not in hand:
                raise refusal("exchange_not_in_hand", action=action, cards=(card,), among=tuple(hand))
        for card in action.take:
            if card not in widow:
                raise refusal("exchange_not_in_widow", action=action, cards=(card,), among=tuple(widow))
        if len(action.give) == 1:
            return A_EX1 + 3 * hand.index(action.give[0]) + widow.index(action.take[0])
        keep = next(i for i, card in enumerate(hand) if card not in action.give)
        stay = next(j for j, card in enumerate(widow) if card not in action.take)
        return A_EX2 + 3 * keep + stay
    try:
        return _SIMPLE_CODES[action]
    except (KeyError, TypeError):
        raise SimInputError(f"{action!r} is not an action") from None


def rollout(
    positions: Sequence[Position],
    first_actions: Sequence[Action],
    seed: int = 0,
    policy: Policy = "heuristic",
    *,
    worlds: Sequence[int] | None = None,
    check: bool = True,
) -> RoundBatch:
    """Play each position's round to its end after its first action, every seat with ``policy``
    (by default the heuristic of :func:`thirtyone.bots.heuristic.rollout_action`, as the expert's
    rollouts do): row ``i`` is ``Game.from_position(positions[i], rounds=1)`` after
    ``apply(first_actions[i])``. The same position may appear in many rows (say, once per
    candidate action): it is converted once. Row ``i``'s reshuffles and ``random`` choices come
    from ``round_key(seed, worlds[i])`` (``worlds`` defaults to the row numbers; give the rows of
    one sampled world the same number so that every candidate action meets the same reshuffles),
    and the ``random`` policy counts actions from the position (the first action is number 0).
    Returns a :class:`~thirtyone.sim.results.RoundBatch`: ``lost[i, seat]`` is what the rest of
    the round cost each seat (in lives), ``eliminated`` who it put out, ``turns`` the round's
    completed turns counted as the engine does (from the position's ``turn``).

    For the expert's search (``W`` sampled worlds, the legal actions ``legal``)::

        rows = [(world, action) for world in range(W) for action in legal]
        batch = rollout([positions[w] for w, _ in rows], [a for _, a in rows],
                        seed=rng.getrandbits(64), worlds=[w for w, _ in rows])
        # row r = world * len(legal) + i: batch.lost[r, seat], batch.eliminated[r, seat]

    (the reshuffles then differ from ``Game.from_position(..., seed=world_seed)``'s, which draw
    from Python's ``random``: the same distribution, other cards). ``check=False`` checks only
    the first position (:func:`positions_to_states`).

    Raises (before any round is played):
        SimInputError: for no rows, more than :data:`MAX_BATCH`, something that is not a Position,
            not one action (and world number) per position, mixed rules, a bad seed, world number
            or policy.
        PositionError: for a position no game can be in.
        IllegalActionError: for a first action the rules forbid in its position (naming the row).
        UnsupportedRulesError: for rules the kernels do not cover.
    """
    if len(first_actions) != len(positions):
        raise SimInputError(f"{len(positions)} positions but {len(first_actions)} first actions: give one each")
    world_list = list(range(len(positions))) if worlds is None else list(worlds)
    if len(world_list) != len(positions):
        raise SimInputError(f"{len(positions)} positions but {len(world_list)} world numbers: give one each")
    for world in world_list:
        _seed(world)
    states = positions_to_states(positions, check=check)
    seed = _seed(seed)
    prepared = _prepared(positions[0].rules, positions[0].players, policy)
    first = np.array(
        [action_code(position, action) for position, action in zip(positions, first_actions, strict=True)],
        dtype=np.int64,
    )
    ok = np.zeros(states.shape[0], dtype=np.int64)
    kernels.first_legal_kernel(prepared.const, prepared.table, prepared.work(), prepared.players, states, first, ok)
    if not ok.all():
        row = int(np.flatnonzero(ok == 0)[0])
        try:  # the engine says why, with its rule and code
            Game.from_position(positions[row], rounds=1).apply(first_actions[row])
        except IllegalActionError as error:
            raise error.where(f"row {row}") from None
        raise AssertionError(f"row {row}: the simulator refused {first_actions[row]}, which the engine plays")
    keys = np.array([round_key(seed, world) for world in world_list], dtype=np.uint64)
    count = states.shape[0]
    out, seats = prepared.round_outputs(count)
    kernels.rollout_kernel(*prepared.kernel_start(), keys, states, first, out, seats)
    return RoundBatch.from_outputs(prepared.rules, prepared.names, seed, 0, out, seats)


def warm_up() -> None:
    """Load (or compile, the first time on a machine) every kernel, so that timings that follow
    measure play only."""
    rules = Rules()
    play_rounds(rules, 2, rounds=1, policy="random")
    play_games(rules, 2, "basic", [1])
