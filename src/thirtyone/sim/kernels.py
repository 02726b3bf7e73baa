"""The compiled kernels of :mod:`thirtyone.sim` (numba, ``cache=True``).

One state machine plays a round of either mode statement for statement as
:class:`thirtyone.engine.Game` does (each helper names the engine method it mirrors): the same hand
order, the same list operations on the stock, the discard pile and the widow, the same counters.
The policies read that state exactly as the bots read a game or a view.

Layout. Everything a round needs lives in one ``int64`` *work vector* ``w`` (offsets ``W_*``,
``P`` ≤ 9 seats): the scalars (``S_*``: phase, seat to move, dealer, knocker, final turns left,
completed turns, passes, card taken from the pile, widow face up, stock and pile sizes, seats in,
reshuffles, new widows, actions applied, end code, R2.6 flag, the seat that knocked, error), each
seat's hand in the engine's list order (``W_HANDS + 4 * seat + k``; four cards for the seat about
to discard), the stock (top card first, read from a pointer: a fresh deck is shuffled only as far
as the round reads it, see :func:`_step`), the discard pile (bottom first), the
widow, each seat's publicly known cards as a bit mask, looked flags, remaining losses (R2.4), seats
in, the next seat in, and the round's result (lives lost, loss code, blitz and elimination flags).
The rules and the policies' tables are one constant ``int64`` vector ``const`` (offsets ``C_*``),
the hand values (half points) an ``int8`` table ``values`` indexed ``a * 2704 + b * 52 + c``, and
the heuristic's float constants ``floats``.

Names. Every kernel and helper gives the same array the same name:

- ``w``: the work vector, ``int64 [N_W]`` (the one short name: nearly every line reads it);
  scalars at ``S_*``, per-seat blocks at ``W_* + seat``; cards are indexes 0–51 (-1: none), card
  sets bit masks (bit ``card``), values half points.
- ``const``: ``int64 [N_C]``: the rule parameters at ``R_*``
  (:func:`thirtyone.sim.params.rule_params`), card points at ``C_PTS + card`` (R1.2), the basic
  policy's knock bars at ``C_BBARS + own turn``, the heuristic's at ``C_HBARS`` (lowest at
  ``C_HMIN``) and its blind-widow bars at ``C_BLIND + seats in``; bars in half points.
- ``floats``: ``float64 [N_FP]``, the heuristic's float constants at ``F_*`` in half points
  (:func:`thirtyone.sim.params.float_params`).
- ``values``: ``int8 [140608]``, the half points of cards ``a, b, c`` at ``a * 2704 + b * 52 + c``
  (-1: not a hand; :func:`thirtyone.sim.params.value_table`).
- ``policies``: ``int64 [players]``, each seat's policy code (``P_*``).
- ``deal_key``, ``reshuffle_key``, ``policy_key``: the round's ``uint64`` keys
  (:mod:`thirtyone.sim.rng`, ``TAG_DEAL``, ``TAG_RESHUFFLE``, ``TAG_POLICY``): the deck's order,
  each reshuffled stock's (R4.3), the ``random`` policy's picks.
- ``s``: a seat; ``h``: where its hand begins in ``w`` (``W_HANDS + 4 * s``).

Speed (4-player ``scat``, ``basic``, one core, measured step by step). A first version passed some
twenty arrays between the helpers and played 175,000 rounds/s; its profile was dominated by numba's
reference counting (an atomic increment and decrement per array per call), so the helpers are
compiled without NRT (``_nrt=False``: they never allocate; every array comes from the Python side)
and the state is one vector: 480,000. The hot helpers with a single call site (``_basic``,
``_apply``, ``_finish_turn``) are inlined by numba: 1.3 million. Dealing shuffles the deck lazily
and the heuristic's expected stock draw is a branch-free loop. All randomness is
:mod:`thirtyone.sim.rng`'s arithmetic on ``uint64``.

Cache. numba keeps each compiled kernel on disk and trusts it while the kernel's own file is
unchanged, but a kernel holds the code of the helpers it calls and the constants it reads from
other modules: the step kernels in :mod:`thirtyone.sim.steps` kept an old ``_heuristic`` after it
changed here. So every kernel's cache entry is also keyed on the digest of all the files the
kernels are compiled from (:data:`_SOURCES`, :func:`_sources_digest`): a change to any of them
compiles every kernel afresh. A process that compiles the kernels for others holds the cache's lock
(:func:`compiling`); another process that misses the cache meanwhile waits for it and loads what
it compiled, rather than compiling the same kernels at the same time (the test suite's workers wait
so for the one compile its controller starts, tests/conftest.py).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
from collections.abc import Callable
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from typing import TypeVar
from typing import cast

import numba
import numpy as np
from numba.core import caching

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: a process that misses compiles the kernels itself
    fcntl = None  # type: ignore[assignment]

from thirtyone.sim.codes import A_ALL
from thirtyone.sim.codes import A_DISCARD
from thirtyone.sim.codes import A_EX1
from thirtyone.sim.codes import A_EX2
from thirtyone.sim.codes import A_KEEP
from thirtyone.sim.codes import A_KNOCK
from thirtyone.sim.codes import A_LOOK
from thirtyone.sim.codes import A_PASS
from thirtyone.sim.codes import A_PILE
from thirtyone.sim.codes import A_STOCK
from thirtyone.sim.codes import A_TAKE
from thirtyone.sim.codes import A_THROW
from thirtyone.sim.codes import E_ALLPASS
from thirtyone.sim.codes import E_BLITZ
from thirtyone.sim.codes import E_DEALT
from thirtyone.sim.codes import E_KNOCK
from thirtyone.sim.codes import E_MAXT
from thirtyone.sim.codes import E_STOCK
from thirtyone.sim.codes import E_THROW
from thirtyone.sim.codes import L_LOW
from thirtyone.sim.codes import L_LOW_ALLPASS
from thirtyone.sim.codes import L_LOW_MAXT
from thirtyone.sim.codes import L_LOW_STOCK
from thirtyone.sim.codes import L_NONE
from thirtyone.sim.codes import L_R51
from thirtyone.sim.codes import L_R52
from thirtyone.sim.codes import L_R53
from thirtyone.sim.codes import L_R55
from thirtyone.sim.codes import L_RISKY
from thirtyone.sim.codes import L_SAVED
from thirtyone.sim.codes import P_BASIC
from thirtyone.sim.codes import P_RANDOM
from thirtyone.sim.codes import PH_DEALER
from thirtyone.sim.codes import PH_DISCARD
from thirtyone.sim.codes import PH_DONE
from thirtyone.sim.codes import PH_LOOK
from thirtyone.sim.codes import PH_TURN
from thirtyone.sim.params import F_FEED2
from thirtyone.sim.params import N_RP
from thirtyone.sim.params import R_DECK
from thirtyone.sim.params import R_DECKLO
from thirtyone.sim.params import R_DHAND
from thirtyone.sim.params import R_DRAW
from thirtyone.sim.params import R_EXANY
from thirtyone.sim.params import R_FULL
from thirtyone.sim.params import R_KALONE
from thirtyone.sim.params import R_KALONE_CODE
from thirtyone.sim.params import R_KNOCK2
from thirtyone.sim.params import R_KNOTHI
from thirtyone.sim.params import R_KTIED
from thirtyone.sim.params import R_KTIED_CODE
from thirtyone.sim.params import R_MAXT
from thirtyone.sim.params import R_MINK
from thirtyone.sim.params import R_NEWW
from thirtyone.sim.params import R_PENLIVES
from thirtyone.sim.params import R_STOCKSD
from thirtyone.sim.params import R_THROW
from thirtyone.sim.rng import GAMMA
from thirtyone.sim.rng import TAG_DEAL
from thirtyone.sim.rng import TAG_DEALER
from thirtyone.sim.rng import TAG_POLICY
from thirtyone.sim.rng import TAG_RESHUFFLE
from thirtyone.sim.rng import splitmix64

__all__ = [
    "N_W",
    "N_C",
    "play_rounds_kernel",
    "play_games_kernel",
    "rollout_kernel",
    "first_legal_kernel",
    "rng_words",
    "shuffle_words",
    "compiling",
]

F = TypeVar("F", bound=Callable[..., Any])
Array = Any  # a numpy array inside the kernels
Int = Any  # an integer inside the kernels (a numpy integer or an int)

_OPTIONS: dict[str, Any] = {"nogil": True, "_nrt": False}  # cached by _SourcesCache, not numba's cache=True

_SOURCES = ("action_ids.py", "sim/codes.py", "sim/params.py", "sim/rng.py", "sim/kernels.py", "sim/steps.py")
"""The files, under the package ``thirtyone``, whose code and constants the kernels are compiled
from: this module and :mod:`thirtyone.sim.steps`, and every module of the package they import
names from (tests/test_sim_crosscheck.py checks the list against their imports)."""


@functools.cache
def _sources_digest() -> str:
    """The SHA-256 (hex) of the files of :data:`_SOURCES`, read once a process."""
    package = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for name in _SOURCES:
        digest.update((package / name).read_bytes())
    return digest.hexdigest()


_FunctionCache: Any = caching.FunctionCache  # typed in some numba releases, not in others


class _SourcesCache(_FunctionCache):  # type: ignore[misc]
    """numba's disk cache of one kernel, its entries keyed on :func:`_sources_digest` as well as
    on what numba keys them on (the signature, the machine, the kernel's own bytecode)."""

    def _index_key(self, sig: Any, codegen: Any) -> tuple[Any, ...]:
        return (*super()._index_key(sig, codegen), _sources_digest())

    def load_overload(self, sig: Any, target_context: Any) -> Any:
        """The cached kernel, or ``None``; on a miss while another process holds :func:`compiling`,
        waits for it to finish and looks again."""
        loaded = super().load_overload(sig, target_context)
        if loaded is None and _waited_for_compiler(Path(self._cache_path)):
            loaded = super().load_overload(sig, target_context)
        return loaded


_LOCK = "thirtyone-compiling.lock"
"""The lock file, in the kernels' cache folder, that :func:`compiling` holds."""

_compiling_here = False
"""True inside :func:`compiling` (this process compiles: it never waits for itself)."""


def _waited_for_compiler(folder: Path) -> bool:
    """Wait until no other process holds :func:`compiling` on the cache ``folder``; ``False`` when
    none can have (no lock file there, or this process is the one compiling), at once."""
    if _compiling_here or fcntl is None:
        return False
    try:
        descriptor = os.open(folder / _LOCK, os.O_RDONLY)
    except FileNotFoundError:
        return False
    try:
        fcntl.flock(descriptor, fcntl.LOCK_SH)  # granted once the compiling process lets go
    finally:
        os.close(descriptor)
    return True


@contextlib.contextmanager
def compiling() -> Iterator[None]:
    """Hold the kernels' cache while the block compiles (loads) kernels into it: another process
    that misses the cache meanwhile waits for the block to end, then loads what it compiled. An
    exclusive ``flock`` on :data:`_LOCK` in the cache folder, released when the block ends or the
    process does; on a system without ``fcntl`` (Windows) nobody waits.

    Raises:
        OSError: when the cache folder cannot be made or its lock file opened.
    """
    global _compiling_here
    folder = Path(cast(Any, play_rounds_kernel)._cache.cache_path)  # every kernel shares the folder
    folder.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(folder / _LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        if fcntl is not None:
            fcntl.flock(descriptor, fcntl.LOCK_EX)
        _compiling_here = True
        yield
    finally:
        _compiling_here = False
        os.close(descriptor)


def _cached(dispatcher: Any) -> Any:
    """``dispatcher`` with its disk cache: numba's ``cache=True``, but a :class:`_SourcesCache`."""
    dispatcher._cache = _SourcesCache(dispatcher.py_func)
    return dispatcher


def _jit(fn: F) -> F:
    return cast(F, _cached(numba.njit(**_OPTIONS)(fn)))


def _inline(fn: F) -> F:
    """For the few helpers with one call site on the hot path: inlined by numba, not called."""
    return cast(F, _cached(numba.njit(**_OPTIONS, inline="always")(fn)))


# The work vector.
S_PHASE, S_SEAT, S_DEALER, S_KNOCKER, S_FINAL, S_TURNS, S_PASSES, S_TAKEN, S_WUP = range(9)
S_NS, S_NP, S_NACT, S_RESH, S_NEWW, S_ACTIONS, S_END, S_SAVED, S_KNOCKED, S_ERROR, S_PLAYERS = range(9, 20)
S_SP, S_GEN, S_SIZE = range(20, 23)  # the stock's read pointer; how much of it is shuffled, of how many cards
S_PMASK = 23  # the discard pile's cards as a bit mask
W_HANDS = 24
W_STOCK = W_HANDS + 36
W_PILE = W_STOCK + 64
W_WIDOW = W_PILE + 64
W_KNOWN = W_WIDOW + 3
W_LOOKED = W_KNOWN + 9
W_REM = W_LOOKED + 9
W_ACT = W_REM + 9
W_NXT = W_ACT + 9
W_LOST = W_NXT + 9
W_RULE = W_LOST + 9
W_BLITZ = W_RULE + 9
W_ELIM = W_BLITZ + 9
W_VALS = W_ELIM + 9
W_TMP = W_VALS + 9
W_LEGAL = W_TMP + 64
W_SSUM = W_LEGAL + 32
W_SCNT = W_SSUM + 4
W_OUTAT = W_SCNT + 4
N_W = W_OUTAT + 9
"""Length of the work vector."""

# The constant vector: the rule parameters, card points, the basic and heuristic knock bars.
C_HMIN = N_RP - 1  # the lowest heuristic knock bar (a free slot after the rule parameters)
C_PTS = N_RP
C_BBARS = C_PTS + 52
C_HBARS = C_BBARS + 10
C_BLIND = C_HBARS + 10 * 10 * 9 * 2
N_C = C_BLIND + 10
"""Length of the constant vector."""

ERR_ILLEGAL_FIRST = 1
ERR_ROUND_CAP = 2
MAX_GAME_ROUNDS = 1_000_000
"""A game still going after this many rounds is reported as an error instead of looping."""

_U_GAMMA = np.uint64(GAMMA)
_U_MUL1 = np.uint64(0xBF58476D1CE4E5B9)
_U_MUL2 = np.uint64(0x94D049BB133111EB)
_U30 = np.uint64(30)
_U27 = np.uint64(27)
_U31 = np.uint64(31)
_U32 = np.uint64(32)
_SMALL = np.array([splitmix64(i) for i in range(64)], dtype=np.uint64)  # splitmix64(i), i < 64
_U58 = np.uint64(58)
_DEBRUIJN = 0x03F79D71B4CB0A89
_U_DEBRUIJN = np.uint64(_DEBRUIJN)
_BIT_INDEX = np.zeros(64, dtype=np.int64)  # the index of a single set bit, by de Bruijn multiplication
for _bit in range(64):
    _BIT_INDEX[(((1 << _bit) * _DEBRUIJN) & ((1 << 64) - 1)) >> 58] = _bit
_U_TAG_DEAL = np.uint64(TAG_DEAL)
_U_TAG_RESHUFFLE = np.uint64(TAG_RESHUFFLE)
_U_TAG_POLICY = np.uint64(TAG_POLICY)
_U_TAG_DEALER = np.uint64(TAG_DEALER)


# ------------------------------------------------------------------------------------ random


@_jit
def _splitmix64(x: Array) -> Array:
    """:func:`thirtyone.sim.rng.splitmix64` on a ``uint64``."""
    z = x + _U_GAMMA
    z = (z ^ (z >> _U30)) * _U_MUL1
    z = (z ^ (z >> _U27)) * _U_MUL2
    return z ^ (z >> _U31)


@_jit
def _derive(key: Array, x: Array) -> Array:
    """:func:`thirtyone.sim.rng.derive` on ``uint64`` words."""
    return _splitmix64(key ^ _splitmix64(x))


@_jit
def _bounded(word: Array, n: int) -> Int:
    """:func:`thirtyone.sim.rng.bounded`: ``((word >> 32) * n) >> 32``, in ``0 … n - 1``."""
    return np.int64(((word >> _U32) * np.uint64(n)) >> _U32)


@_jit
def _shuffle(w: Array, at: int, m: int, key: Array) -> None:
    """:func:`thirtyone.sim.rng.counter_shuffle` of ``w[at : at + m]`` in place (``m`` ≤ 64)."""
    for i in range(m - 1):
        j = i + _bounded(_splitmix64(key ^ _SMALL[i]), m - i)  # _derive(key, i)
        tmp = w[at + i]
        w[at + i] = w[at + j]
        w[at + j] = tmp


@_jit
def _step(w: Array, deal_key: Array) -> None:
    """One more step of the stock's lazy shuffle: position ``w[S_GEN]`` of the stock becomes final.

    A fresh deck is shuffled only as far as the round reads it (forward Fisher–Yates fixes the
    top card first): the same order as :func:`_shuffle` of the whole deck, for less work."""
    i = w[S_GEN]
    m = w[S_SIZE]
    if i < m - 1:
        j = i + _bounded(_splitmix64(deal_key ^ _SMALL[i]), m - i)
        tmp = w[W_STOCK + i]
        w[W_STOCK + i] = w[W_STOCK + j]
        w[W_STOCK + j] = tmp
    w[S_GEN] = i + 1


@_jit
def _draw_top(w: Array, deal_key: Array) -> Int:
    """Take the stock's top card (``self._stock.pop()``)."""
    at = w[S_SP]
    while w[S_GEN] <= at:
        _step(w, deal_key)
    w[S_SP] = at + 1
    w[S_NS] -= 1
    return w[W_STOCK + at]


# ------------------------------------------------------------------------------------ values


@_jit
def _v3(values: Array, a: int, b: int, c: int) -> Int:
    """Half points of three cards (any order): ``half_points(rules)[a * 2704 + b * 52 + c]``."""
    return np.int64(values[a * 2704 + b * 52 + c])


@_jit
def _hand_value(values: Array, w: Array, s: int) -> Int:
    h = W_HANDS + 4 * s
    return _v3(values, w[h], w[h + 1], w[h + 2])


@_jit
def _without(k: int) -> tuple[int, int, int]:
    """The indexes of four cards other than ``k``."""
    if k == 0:
        return 1, 2, 3
    if k == 1:
        return 0, 2, 3
    if k == 2:
        return 0, 1, 3
    return 0, 1, 2


@_jit
def _others(k: int) -> tuple[int, int]:
    """The indexes of three cards other than ``k``."""
    if k == 0:
        return 1, 2
    if k == 1:
        return 0, 2
    return 0, 1


# ------------------------------------------------------------------------------------ legal actions


@_jit
def _knock_ok(const: Array, w: Array, value: int) -> bool:
    """``Game._knock_refusal() is None`` (R6.1, R6.3, R6.4) for a hand worth ``value``."""
    if w[S_KNOCKER] >= 0:
        return False
    if const[R_KNOCK2] != 0 and w[S_TURNS] < w[S_NACT]:
        return False
    return not (const[R_MINK] > 0 and value < const[R_MINK])


@_jit
def _legal(const: Array, values: Array, w: Array) -> int:
    """``Game.legal_actions()`` as action codes at ``w[W_LEGAL:]``, in the engine's order; returns how many."""
    s = w[S_SEAT]
    h = W_HANDS + 4 * s
    ph = w[S_PHASE]
    n = W_LEGAL
    if ph == PH_DISCARD:
        for k in range(4):
            card = w[h + k]
            if card != w[S_TAKEN]:
                w[n] = A_DISCARD + card
                n += 1
        return n - W_LEGAL
    if ph == PH_TURN:
        if const[R_DRAW] != 0:
            if w[S_NS] > 0 or w[S_NP] > 1:
                w[n] = A_STOCK
                n += 1
            if w[S_NP] > 0:
                w[n] = A_PILE
                n += 1
        elif w[S_WUP] == 0:
            w[n] = A_ALL
            w[n + 1] = A_PASS
            n += 2
        else:
            for i in range(9):
                w[n] = A_EX1 + i
                n += 1
            if const[R_EXANY] != 0:
                for i in range(9):
                    w[n] = A_EX2 + i
                    n += 1
            w[n] = A_ALL
            w[n + 1] = A_PASS
            n += 2
        if _knock_ok(const, w, _v3(values, w[h], w[h + 1], w[h + 2])):
            w[n] = A_KNOCK
            n += 1
        return n - W_LEGAL
    if ph == PH_LOOK:
        w[n] = A_LOOK
        w[n + 1] = A_THROW
        return 2
    w[n] = A_KEEP
    w[n + 1] = A_TAKE
    return 2


# ------------------------------------------------------------------------------------ policies


@_inline
def _best_discard(const: Array, values: Array, w: Array, h: int, taken: int) -> int:
    """``thirtyone.bots.hands.best_discard``: the card whose discard keeps the best value; ties
    throw the card of fewest points, then the highest card index."""
    best_v = -1
    best_p = 0
    best_c = -1
    for k in range(4):
        card = w[h + k]
        if card == taken:
            continue
        i, j, m = _without(k)
        v = _v3(values, w[h + i], w[h + j], w[h + m])
        p = -const[C_PTS + card]
        if best_c < 0 or v > best_v or (v == best_v and (p > best_p or (p == best_p and card > best_c))):
            best_v = v
            best_p = p
            best_c = card
    return best_c


@_inline
def _basic(const: Array, values: Array, w: Array) -> int:
    """``thirtyone.bots.basic.BasicBot.choose``."""
    s = w[S_SEAT]
    h = W_HANDS + 4 * s
    ph = w[S_PHASE]
    if ph == PH_LOOK:
        return A_LOOK
    if ph == PH_DISCARD:
        return A_DISCARD + _best_discard(const, values, w, h, w[S_TAKEN])
    a = w[h]
    b = w[h + 1]
    d = w[h + 2]
    value = _v3(values, a, b, d)
    if ph == PH_DEALER:
        return A_KEEP if value >= 32 else A_TAKE
    if (
        value >= const[C_BBARS]
        and _knock_ok(const, w, value)
        and value >= const[C_BBARS + min(w[S_TURNS] // w[S_NACT], 9)]
    ):
        return A_KNOCK  # (the bars never fall below bars[0]: the division only for hands that may knock)
    if const[R_DRAW] != 0:
        n_pile = w[S_NP]
        if n_pile > 0:
            top = w[W_PILE + n_pile - 1]
            if max(_v3(values, a, b, top), _v3(values, a, d, top), _v3(values, b, d, top)) > value:
                return A_PILE
        return A_STOCK if w[S_NS] > 0 or n_pile > 1 else A_PILE
    if w[S_WUP] == 0:  # R7.2: the face-down widow
        return A_ALL if value < 26 else A_PASS
    best = value
    act = A_PASS
    for i in range(3):
        x, y = _others(i)
        for j in range(3):
            v = _v3(values, w[h + x], w[h + y], w[W_WIDOW + j])
            if v > best:
                best = v
                act = A_EX1 + 3 * i + j
    if const[R_EXANY] != 0:
        for i in range(3):
            for j in range(3):
                x, y = _others(j)
                v = _v3(values, w[h + i], w[W_WIDOW + x], w[W_WIDOW + y])
                if v > best:
                    best = v
                    act = A_EX2 + 3 * i + j
    if _v3(values, w[W_WIDOW], w[W_WIDOW + 1], w[W_WIDOW + 2]) > best:
        act = A_ALL
    return act


@_jit
def _feed(const: Array, w: Array, card: int) -> Int:
    """``heuristic._feed``: half points ``card`` adds to the next player's known cards of its suit."""
    suit = card & 3
    if w[W_SCNT + suit] == 0:
        return 0
    return 2 * (const[C_PTS + card] + w[W_SSUM + suit])


@_jit
def _leftover(const: Array, floats: Array, values: Array, w: Array, w0: int, w1: int, w2: int) -> float:
    """``heuristic._leftover``: what a widow left behind offers the next player."""
    if _v3(values, w0, w1, w2) >= 62:
        return 1000.0
    fed = max(_feed(const, w, w0), _feed(const, w, w1), _feed(const, w, w2))
    return floats[F_FEED2 + w[S_NACT]] if fed >= 50 else 0.0


@_jit
def _widow_blitz(const: Array, values: Array, w: Array, h: int) -> bool:
    """``heuristic._widow_blitz``: an exchange with the face-up widow makes a blitz (R5.1)."""
    for i in range(3):
        x, y = _others(i)
        for j in range(3):
            u, v = _others(j)
            if _v3(values, w[h + x], w[h + y], w[W_WIDOW + j]) >= 62:
                return True
            if const[R_EXANY] != 0 and _v3(values, w[h + i], w[W_WIDOW + u], w[W_WIDOW + v]) >= 62:
                return True
    return bool(_v3(values, w[W_WIDOW], w[W_WIDOW + 1], w[W_WIDOW + 2]) >= 62)


@_jit
def _heuristic(const: Array, floats: Array, values: Array, w: Array) -> int:
    """``thirtyone.bots.heuristic.heuristic_action`` of ``Situation.from_game`` (``rollout_action``):
    the one policy, compiled; the tests ask both at every decision of many games."""
    s = w[S_SEAT]
    h = W_HANDS + 4 * s
    ph = w[S_PHASE]
    if ph == PH_LOOK:
        return A_LOOK
    a = w[h]
    b = w[h + 1]
    d = w[h + 2]
    if ph == PH_DEALER:
        return A_KEEP if _v3(values, a, b, d) >= const[C_BLIND + w[S_NACT]] else A_TAKE
    collector = w[W_KNOWN + w[W_NXT + s]]
    for suit in range(4):
        w[W_SSUM + suit] = 0
        w[W_SCNT + suit] = 0
    while collector != 0:  # each known card of the next player (a few at most)
        low = collector & -collector
        card = _BIT_INDEX[(np.uint64(low) * _U_DEBRUIJN) >> _U58]
        w[W_SSUM + (card & 3)] += const[C_PTS + card]
        w[W_SCNT + (card & 3)] += 1
        collector ^= low
    if ph == PH_DISCARD:  # heuristic._discard
        taken = w[S_TAKEN]
        best_s = 0.0
        best_p = 0
        best_c = -1
        for k in range(4):
            card = w[h + k]
            if card == taken:
                continue
            i, j, m = _without(k)
            kept = _v3(values, w[h + i], w[h + j], w[h + m])
            fed = _feed(const, w, card)
            if fed >= 62:
                score = kept - 1000.0
            elif fed > 0:
                score = kept - floats[F_FEED2 + w[S_NACT]]
            else:
                score = kept - 0.0
            p = -const[C_PTS + card]
            if best_c < 0 or score > best_s or (score == best_s and (p > best_p or (p == best_p and card > best_c))):
                best_s = score
                best_p = p
                best_c = card
        return A_DISCARD + best_c
    value = _v3(values, a, b, d)
    nact = w[S_NACT]
    n_pile = w[S_NP]
    taking = -1
    if const[R_DRAW] != 0 and n_pile > 0:
        top = w[W_PILE + n_pile - 1]
        taking = max(_v3(values, a, b, top), _v3(values, a, d, top), _v3(values, b, d, top))
        if taking >= 62:  # a pile card that makes 31 is taken, never knocked past (R5.1)
            return A_PILE
    blitz = const[R_DRAW] == 0 and w[S_WUP] != 0 and _widow_blitz(const, values, w, h)  # ... nor a widow's 31
    if not blitz and _knock_ok(const, w, value):
        own = min(w[S_TURNS] // nact, 9) if value >= const[C_HMIN] else 0
        offset = (s - w[S_DEALER]) % w[S_PLAYERS]
        low = 1 if w[W_REM + s] <= const[R_PENLIVES] else 0
        if value >= const[C_HBARS + ((own * 10 + nact) * 9 + offset) * 2 + low]:
            return A_KNOCK
    if const[R_DRAW] != 0:
        if not (w[S_NS] > 0 or n_pile > 1):
            return A_PILE
        if n_pile == 0:
            return A_STOCK
        seen = (1 << a) | (1 << b) | (1 << d) | w[S_PMASK]  # Game.unseen_by
        for seat in range(w[S_PLAYERS]):
            seen |= w[W_KNOWN + seat]
        total = 0
        count = 0
        ab = a * 2704 + b * 52
        ad = a * 2704 + d * 52
        bd = b * 2704 + d * 52
        for card in range(const[R_DECKLO], 52):  # heuristic.stock_draw_value, branch-free
            unseen = 1 - ((seen >> card) & 1)
            best = max(value, np.int64(values[ab + card]), np.int64(values[ad + card]), np.int64(values[bd + card]))
            total += unseen * best
            count += unseen
        expected = total / count if count > 0 else float(value)
        return A_PILE if taking >= expected else A_STOCK
    # heuristic._widow_choice
    if w[S_WUP] == 0:
        return A_ALL if value < const[C_BLIND + w[S_NACT]] else A_PASS
    w0 = w[W_WIDOW]
    w1 = w[W_WIDOW + 1]
    w2 = w[W_WIDOW + 2]
    best_score = value - _leftover(const, floats, values, w, w0, w1, w2)
    act = A_PASS
    for i in range(3):
        x, y = _others(i)
        for j in range(3):
            u, v = _others(j)
            kept = _v3(values, w[h + x], w[h + y], w[W_WIDOW + j])
            score = kept - _leftover(const, floats, values, w, w[W_WIDOW + u], w[W_WIDOW + v], w[h + i])
            if score > best_score:
                best_score = score
                act = A_EX1 + 3 * i + j
    if const[R_EXANY] != 0:
        for i in range(3):
            x, y = _others(i)
            for j in range(3):
                u, v = _others(j)
                kept = _v3(values, w[h + i], w[W_WIDOW + u], w[W_WIDOW + v])
                score = kept - _leftover(const, floats, values, w, w[W_WIDOW + j], w[h + x], w[h + y])
                if score > best_score:
                    best_score = score
                    act = A_EX2 + 3 * i + j
    if _v3(values, w0, w1, w2) - _leftover(const, floats, values, w, a, b, d) > best_score:
        act = A_ALL
    return act


# ------------------------------------------------------------------------------------ ending rounds


@_jit
def _end_round(w: Array, end: int, knocker: int) -> None:
    """``Game._end_round``: charge the losses; R2.6 when they would put out every seat still in."""
    players = w[S_PLAYERS]
    everyone = True
    for s in range(players):
        if w[W_ACT + s] != 0 and w[W_REM + s] - w[W_LOST + s] > 0:
            everyone = False
    for s in range(players):
        w[W_ELIM + s] = 0
        if w[W_ACT + s] != 0:
            after = w[W_REM + s] - w[W_LOST + s]
            if after <= 0:
                if everyone:
                    after = 1
                else:
                    after = 0
                    w[W_ELIM + s] = 1
            w[W_REM + s] = after
    w[S_SAVED] = 1 if everyone else 0
    w[S_END] = end
    w[S_KNOCKER] = knocker
    w[S_PHASE] = PH_DONE


@_jit
def _blitz(w: Array, s: int) -> None:
    """``Game._end_blitz`` (R5.1, R5.3): everyone else loses one life."""
    code = L_R51 if w[S_KNOCKER] < 0 else L_R53
    for other in range(w[S_PLAYERS]):
        if w[W_ACT + other] != 0 and other != s:
            w[W_LOST + other] = 1
            w[W_RULE + other] = code
    w[W_BLITZ + s] = 1
    _end_round(w, E_BLITZ, w[S_KNOCKER])


@_jit
def _showdown(const: Array, values: Array, w: Array, end: int, knocker: int) -> None:
    """``Game._showdown`` (R6.5): the lowest hand loses, with the knocker rules of ``knock_penalty``."""
    players = w[S_PLAYERS]
    low = 1000
    high = -1
    for s in range(players):
        if w[W_ACT + s] != 0:
            v = _hand_value(values, w, s)
            w[W_VALS + s] = v
            low = min(low, v)
            high = max(high, v)
    lowest = 0
    for s in range(players):
        if w[W_ACT + s] != 0 and w[W_VALS + s] == low:
            lowest += 1
    if knocker < 0 or w[W_VALS + knocker] != low:
        code = L_LOW
        if knocker < 0:  # the kind names what ended a round nobody knocked
            code = L_LOW_ALLPASS if end == E_ALLPASS else L_LOW_MAXT if end == E_MAXT else L_LOW_STOCK
        for s in range(players):
            if w[W_ACT + s] != 0 and w[W_VALS + s] == low:
                w[W_LOST + s] = 1
                w[W_RULE + s] = code
    else:  # the knocker holds the lowest hand, alone or tied (KNOCK_PENALTIES, via the rule parameters)
        lives = const[R_KALONE] if lowest == 1 else const[R_KTIED]
        for s in range(players):
            if w[W_ACT + s] != 0 and w[W_VALS + s] == low and s != knocker:
                w[W_LOST + s] = 1
                w[W_RULE + s] = L_SAVED if lives == 0 else L_LOW
        if lives > 0:
            w[W_LOST + knocker] = lives
            w[W_RULE + knocker] = const[R_KALONE_CODE] if lowest == 1 else const[R_KTIED_CODE]
    if knocker >= 0 and const[R_KNOTHI] > 0 and w[W_VALS + knocker] < high:
        w[W_LOST + knocker] = const[R_KNOTHI]
        w[W_RULE + knocker] = L_RISKY
    _end_round(w, end, knocker)


# ------------------------------------------------------------------------------------ moves


@_inline
def _finish_turn(const: Array, values: Array, w: Array, s: int) -> None:
    """``Game._finish_turn``: final turns after a knock (R6.2), an empty stock (R4.3), the turn limit (R6.7)."""
    w[S_TURNS] += 1
    if w[S_KNOCKER] >= 0 and s != w[S_KNOCKER]:
        w[S_FINAL] -= 1
        if w[S_FINAL] == 0:
            _showdown(const, values, w, E_KNOCK, w[S_KNOCKER])
            return
    if const[R_STOCKSD] != 0 and w[S_NS] == 0:
        _showdown(const, values, w, E_STOCK, -1)
        return
    if w[S_TURNS] >= const[R_MAXT]:
        _showdown(const, values, w, E_MAXT, -1)
        return
    w[S_PHASE] = PH_TURN
    w[S_TAKEN] = -1
    w[S_SEAT] = w[W_NXT + s]


@_jit
def _swap(w: Array, h: int, hi: int, wi: int) -> None:
    """Exchange hand card ``w[h + hi]`` for widow card ``wi`` (``Game._do_exchange``, one pair)."""
    s_known = W_KNOWN + w[S_SEAT]
    give = w[h + hi]
    take = w[W_WIDOW + wi]
    w[h + hi] = take
    w[W_WIDOW + wi] = give
    w[s_known] = (w[s_known] & ~(1 << give)) | (1 << take)


@_inline
def _apply(const: Array, values: Array, w: Array, act: int, reshuffle_key: Array, deal_key: Array) -> None:
    """``Game.apply`` of a legal action code for the seat to move. The moves that end a turn end
    in one place: R5.4's blitz check (after a discard or an exchange), then ``Game._finish_turn``."""
    s = w[S_SEAT]
    h = W_HANDS + 4 * s
    w[S_ACTIONS] += 1
    finish = False  # the turn is over: Game._finish_turn
    check = False  # the hand is back to three cards: R5.4 first
    if act == A_STOCK:  # Game._reshuffle (R4.3), then Game._do_draw
        if w[S_NS] == 0:
            m = w[S_NP] - 1
            for k in range(m):
                w[W_STOCK + k] = w[W_PILE + k]
            w[S_RESH] += 1
            _shuffle(w, W_STOCK, m, _derive(reshuffle_key, np.uint64(w[S_RESH])))  # the new stock, top first
            w[S_NS] = m
            w[S_SP] = 0
            w[S_GEN] = m
            w[S_SIZE] = m
            w[W_PILE] = w[W_PILE + m]
            w[S_NP] = 1
            w[S_PMASK] = 1 << w[W_PILE]
        w[h + 3] = _draw_top(w, deal_key)
        w[S_TAKEN] = -1
        w[S_PHASE] = PH_DISCARD
    elif act == A_PILE:
        w[S_NP] -= 1
        card = w[W_PILE + w[S_NP]]
        w[S_PMASK] &= ~(1 << card)
        w[S_TAKEN] = card
        w[W_KNOWN + s] |= 1 << card
        w[h + 3] = card
        w[S_PHASE] = PH_DISCARD
    elif act >= A_EX1:  # Game._do_exchange: one card, or two (sorted gives for sorted takes)
        if act >= A_EX2:
            x, y = _others((act - A_EX2) // 3)
            u, v = _others((act - A_EX2) % 3)
            if w[h + y] < w[h + x]:
                x, y = y, x
            if w[W_WIDOW + v] < w[W_WIDOW + u]:
                u, v = v, u
            _swap(w, h, x, u)
            _swap(w, h, y, v)
        else:
            _swap(w, h, (act - A_EX1) // 3, (act - A_EX1) % 3)
        w[S_PASSES] = 0
        check = True
    elif act >= A_DISCARD:  # Game._do_discard
        card = act - A_DISCARD
        k = 0
        while w[h + k] != card:
            k += 1
        while k < 3:
            w[h + k] = w[h + k + 1]
            k += 1
        w[h + 3] = -1
        w[W_KNOWN + s] &= ~(1 << card)
        w[W_PILE + w[S_NP]] = card
        w[S_NP] += 1
        w[S_PMASK] |= 1 << card
        w[S_TAKEN] = -1
        check = True
    elif act == A_KNOCK:  # Game._do_knock
        w[S_KNOCKER] = s
        w[S_KNOCKED] = s
        w[S_FINAL] = w[S_NACT] - 1
        w[S_WUP] = 1
        finish = True
    elif act == A_PASS:  # Game._do_pass
        w[S_WUP] = 1
        finish = True
        if w[S_KNOCKER] < 0:
            w[S_PASSES] += 1
            if w[S_PASSES] == w[S_NACT]:  # R7.3
                if const[R_NEWW] != 0 and w[S_NS] >= 3:  # Game._new_widow
                    for k in range(3):
                        w[W_PILE + w[S_NP] + k] = w[W_WIDOW + k]
                        w[S_PMASK] |= 1 << w[W_WIDOW + k]
                    w[S_NP] += 3
                    for k in range(3):
                        w[W_WIDOW + k] = _draw_top(w, deal_key)
                    w[S_PASSES] = 0
                    w[S_NEWW] += 1
                else:
                    w[S_TURNS] += 1
                    _showdown(const, values, w, E_ALLPASS, -1)
                    finish = False
    elif act == A_ALL:  # Game._do_exchange_all
        face_down = w[S_WUP] == 0
        for k in range(3):
            card = w[W_WIDOW + k]
            w[W_WIDOW + k] = w[h + k]
            w[h + k] = card
        w[S_WUP] = 1
        w[W_KNOWN + s] = 0 if face_down else (1 << w[h]) | (1 << w[h + 1]) | (1 << w[h + 2])
        w[S_PASSES] = 0
        check = True
    elif act in (A_KEEP, A_TAKE):  # Game._do_dealer_choice
        w[S_WUP] = 1
        if act == A_TAKE:
            for k in range(3):
                card = w[W_WIDOW + k]
                w[W_WIDOW + k] = w[h + k]
                w[h + k] = card
        if act == A_TAKE and _hand_value(values, w, s) >= 62:
            _blitz(w, s)
        else:
            w[S_PHASE] = PH_TURN
            w[S_SEAT] = w[W_NXT + w[S_DEALER]]
    elif act == A_LOOK:  # Game._do_blind
        w[W_LOOKED + s] = 1
        w[S_SEAT] = w[W_NXT + s]
        everyone = True
        for other in range(w[S_PLAYERS]):
            if w[W_ACT + other] != 0 and w[W_LOOKED + other] == 0:
                everyone = False
        if everyone:
            w[S_PHASE] = PH_TURN
    else:  # A_THROW
        for other in range(w[S_PLAYERS]):
            w[W_LOOKED + other] = 1
        _showdown(const, values, w, E_THROW, s)
    if check:
        if _hand_value(values, w, s) >= 62:  # R5.4
            _blitz(w, s)
        else:
            finish = True
    if finish:
        _finish_turn(const, values, w, s)


# ------------------------------------------------------------------------------------ rounds


@_jit
def _begin(w: Array) -> None:
    """``Game._begin_round``: who is in (``remaining > 0``), who plays after whom, the counters."""
    players = w[S_PLAYERS]
    nact = 0
    for s in range(players):
        w[W_ACT + s] = 1 if w[W_REM + s] > 0 else 0
        nact += w[W_ACT + s]
        w[W_LOST + s] = 0
        w[W_RULE + s] = L_NONE
        w[W_BLITZ + s] = 0
        w[W_ELIM + s] = 0
    for s in range(players):
        after = (s + 1) % players
        while w[W_ACT + after] == 0:
            after = (after + 1) % players
        w[W_NXT + s] = after
    w[S_NACT] = nact
    w[S_KNOCKER] = -1
    w[S_KNOCKED] = -1
    w[S_FINAL] = 0
    w[S_TURNS] = 0
    w[S_PASSES] = 0
    w[S_TAKEN] = -1
    w[S_RESH] = 0
    w[S_NEWW] = 0
    w[S_ACTIONS] = 0
    w[S_SAVED] = 0
    w[S_END] = -1
    w[S_ERROR] = 0


@_jit
def _deal(const: Array, values: Array, w: Array, dealer: int, deal_key: Array) -> None:
    """``Game._deal`` from the deck at ``w[W_STOCK:]`` (top card first; shuffled as far as
    ``w[S_GEN]``, the rest with ``deal_key`` as it is read), then ``Game._dealt_blitz`` (R5.2, R5.5).
    What is not dealt stays there as the stock, read from ``w[S_SP]``."""
    _begin(w)
    players = w[S_PLAYERS]
    w[S_DEALER] = dealer
    first = w[W_NXT + dealer]
    dealt = 3 * w[S_NACT] + (1 if const[R_DRAW] != 0 else 3)
    while w[S_GEN] < dealt:
        _step(w, deal_key)
    at = W_STOCK
    for i in range(3):
        s = first
        for _ in range(w[S_NACT]):
            w[W_HANDS + 4 * s + i] = w[at]
            at += 1
            s = w[W_NXT + s]
    for s in range(players):
        h = W_HANDS + 4 * s
        w[h + 3] = -1
        w[W_KNOWN + s] = 0
        w[W_LOOKED + s] = 0 if const[R_THROW] != 0 else 1
        if w[W_ACT + s] == 0:
            w[h] = -1
            w[h + 1] = -1
            w[h + 2] = -1
    if const[R_DRAW] != 0:
        w[W_PILE] = w[at]
        w[S_NP] = 1
        w[S_PMASK] = 1 << w[at]
        at += 1
    else:
        for k in range(3):
            w[W_WIDOW + k] = w[at + k]
        w[S_NP] = 0
        w[S_PMASK] = 0
        at += 3
    w[S_SP] = at - W_STOCK
    w[S_NS] = w[S_SIZE] - w[S_SP]
    w[S_WUP] = 0
    best = -1
    for s in range(players):
        if w[W_ACT + s] != 0:
            best = max(best, _hand_value(values, w, s))
    if best >= 62:
        for s in range(players):
            if w[W_ACT + s] != 0:
                v = _hand_value(values, w, s)
                if v == best:
                    w[W_BLITZ + s] = 1
                else:
                    w[W_LOST + s] = 1
                    w[W_RULE + s] = L_R55 if v >= 62 else L_R52
        _end_round(w, E_DEALT, -1)
        return
    if const[R_THROW] != 0:
        w[S_PHASE] = PH_LOOK
        w[S_SEAT] = first
    elif const[R_DHAND] != 0:
        w[S_PHASE] = PH_DEALER
        w[S_SEAT] = dealer
    else:
        w[S_PHASE] = PH_TURN
        w[S_SEAT] = first


@_jit
def _play(
    const: Array,
    floats: Array,
    values: Array,
    w: Array,
    policies: Array,
    key: Array,
    deal_key: Array,
    first: int,
) -> None:
    """Play the round of round key ``key`` to its end, each seat with its policy (the ``random``
    policy's picks and the reshuffles drawn from keys derived from ``key``); ``first`` (an action
    code, or -1) is applied first. It must be legal: otherwise ``w[S_ERROR]`` is set and nothing is
    played."""
    policy_key = _derive(key, _U_TAG_POLICY)
    reshuffle_key = _derive(key, _U_TAG_RESHUFFLE)
    act = first
    if first >= 0 and w[S_PHASE] != PH_DONE:
        n = _legal(const, values, w)
        ok = False
        for k in range(n):
            if w[W_LEGAL + k] == first:
                ok = True
        if not ok:
            w[S_ERROR] = ERR_ILLEGAL_FIRST
            return
    while w[S_PHASE] != PH_DONE:
        if act < 0:
            policy = policies[w[S_SEAT]]
            if policy == P_BASIC:
                act = _basic(const, values, w)
            elif policy == P_RANDOM:
                n = _legal(const, values, w)
                act = w[W_LEGAL + _bounded(_derive(policy_key, np.uint64(w[S_ACTIONS])), n)]
            else:
                act = _heuristic(const, floats, values, w)
        _apply(const, values, w, act, reshuffle_key, deal_key)
        act = -1


@_jit
def _full_deck(const: Array, w: Array) -> None:
    """The deck in index order at ``w[W_STOCK:]``, to be shuffled as it is dealt and drawn
    (``counter_shuffle(full_deck, dkey)`` in the end, see :func:`_step`)."""
    size = const[R_DECK]
    low = const[R_DECKLO]
    for k in range(size):
        w[W_STOCK + k] = low + k
    w[S_GEN] = 0
    w[S_SIZE] = size


@_jit
def _write_round(values: Array, w: Array, row: int, out: Array, seats: Array) -> None:
    """Row ``row`` of the outputs: ``out[row]`` = end, knocker, seat that knocked, turns, R2.6,
    reshuffles, new widows, actions; ``seats[row, k, s]`` = lives lost, loss code, remaining,
    eliminated, blitz, hand value (-1 for a seat out)."""
    out[row, 0] = w[S_END]
    out[row, 1] = w[S_KNOCKER]
    out[row, 2] = w[S_KNOCKED]
    out[row, 3] = w[S_TURNS]
    out[row, 4] = w[S_SAVED]
    out[row, 5] = w[S_RESH]
    out[row, 6] = w[S_NEWW]
    out[row, 7] = w[S_ACTIONS]
    for s in range(w[S_PLAYERS]):
        seats[row, 0, s] = w[W_LOST + s]
        seats[row, 1, s] = w[W_RULE + s]
        seats[row, 2, s] = w[W_REM + s]
        seats[row, 3, s] = w[W_ELIM + s]
        seats[row, 4, s] = w[W_BLITZ + s]
        seats[row, 5, s] = _hand_value(values, w, s) if w[W_ACT + s] != 0 else -1


# ------------------------------------------------------------------------------------ entry points


@_jit
def play_rounds_kernel(
    const: Array,
    floats: Array,
    values: Array,
    w: Array,
    policies: Array,
    seed: Array,
    base: int,
    decks: Array,
    dealers: Array,
    lives: Array,
    out: Array,
    seats: Array,
) -> None:
    """Play the rounds of rows ``base … base + len(out) - 1`` of the batch keyed by ``seed``.

    Arrays (``const``, ``floats``, ``values``, ``w``, ``policies``: see the module; ``P`` seats):

    - ``seed``: ``uint64``, the batch's key; row ``i``'s round key is ``derive(seed, base + i)``.
    - ``decks``: ``uint8 [rows, deck]``, each row's deck order (card indexes, top first), or no
      rows: then row ``i`` is dealt ``counter_shuffle(full_deck, derive(round_key, TAG_DEAL))``.
    - ``dealers``: ``int64 [rows]`` or ``[1]`` (one for all), the dealer's seat.
    - ``lives``: ``int64 [rows, P]`` or ``[1, P]``, each seat's remaining losses (R2.4).
    - ``out``: ``int32 [rows, 9]``, written (columns 0–7, see ``_write_round``).
    - ``seats``: ``int8 [rows, 6, P]``, written (see ``_write_round``).
    """
    players = policies.shape[0]
    w[S_PLAYERS] = players
    given = decks.shape[0] > 0
    for row in range(out.shape[0]):
        key = _derive(seed, np.uint64(base + row))
        deal_key = _derive(key, _U_TAG_DEAL)
        if given:
            for k in range(const[R_DECK]):
                w[W_STOCK + k] = decks[row, k]
            w[S_GEN] = const[R_DECK]
            w[S_SIZE] = const[R_DECK]
        else:
            _full_deck(const, w)
        at = row if lives.shape[0] > 1 else 0
        for s in range(players):
            w[W_REM + s] = lives[at, s]
        _deal(const, values, w, dealers[row if dealers.shape[0] > 1 else 0], deal_key)
        _play(const, floats, values, w, policies, key, deal_key, -1)
        _write_round(values, w, row, out, seats)


@_jit
def play_games_kernel(
    const: Array,
    floats: Array,
    values: Array,
    w: Array,
    policies: Array,
    seeds: Array,
    out: Array,
    seats: Array,
    by_rule: Array,
    ends: Array,
) -> None:
    """Play one whole game per seed (R2.5: until one seat is left), dealt as
    :class:`thirtyone.sim.rng.CounterChance` deals it, and total each game's results.

    Arrays (``const``, ``floats``, ``values``, ``w``, ``policies``: see the module; ``P`` seats;
    the outputs zeroed by the caller, added to):

    - ``seeds``: ``uint64 [games]``, each game's seed.
    - ``out``: ``int64 [games, 7]``, ``out[g]`` = winner's seat, rounds, blitzes, turns, actions,
      reshuffles, error (``ERR_ROUND_CAP``).
    - ``seats``: ``int32 [games, 5, P]``, ``seats[g, k, s]`` = place (1 best), lives lost, knocks,
      knocks whose showdown cost the knocker lives, rounds dealt in.
    - ``by_rule``: ``int32 [games, loss codes]``, lives lost by loss code (``L_*``).
    - ``ends``: ``int32 [games, end codes]``, rounds by end code (``E_*``).
    """
    players = policies.shape[0]
    w[S_PLAYERS] = players
    for g in range(seeds.shape[0]):
        gkey = _splitmix64(seeds[g])
        dealer = _bounded(_derive(gkey, _U_TAG_DEALER), players)
        for s in range(players):
            w[W_REM + s] = const[R_FULL]
            w[W_OUTAT + s] = MAX_GAME_ROUNDS + 1
        rounds = 0
        left = players
        while left > 1:
            rounds += 1
            if rounds > MAX_GAME_ROUNDS:
                out[g, 6] = ERR_ROUND_CAP
                break
            key = _derive(gkey, np.uint64(rounds))
            deal_key = _derive(key, _U_TAG_DEAL)
            _full_deck(const, w)
            _deal(const, values, w, dealer, deal_key)
            _play(const, floats, values, w, policies, key, deal_key, -1)
            end = w[S_END]
            ends[g, end] += 1
            out[g, 3] += w[S_TURNS]
            out[g, 4] += w[S_ACTIONS]
            out[g, 5] += w[S_RESH]
            if w[S_KNOCKED] >= 0:
                seats[g, 2, w[S_KNOCKED]] += 1
            if end in (E_BLITZ, E_DEALT):
                out[g, 2] += 1
            if end in (E_KNOCK, E_BLITZ) and w[S_KNOCKER] >= 0 and w[W_LOST + w[S_KNOCKER]] > 0:
                seats[g, 3, w[S_KNOCKER]] += 1  # a knock that cost lives: at the showdown (R6.5) or to a 31 (R5.3)
            for s in range(players):
                seats[g, 1, s] += w[W_LOST + s]
                by_rule[g, w[W_RULE + s]] += w[W_LOST + s]
                if w[W_ELIM + s] != 0:
                    w[W_OUTAT + s] = rounds
                    left -= 1
            dealer = (dealer + 1) % players  # R3.1
            while w[W_REM + dealer] == 0:
                dealer = (dealer + 1) % players
        out[g, 1] = rounds
        for s in range(players):  # R2.5: reverse order of elimination, ties share a place
            if w[W_REM + s] > 0:
                out[g, 0] = s
            better = 0
            for other in range(players):
                if w[W_OUTAT + other] > w[W_OUTAT + s]:
                    better += 1
            seats[g, 0, s] = 1 + better
            seats[g, 4, s] = min(w[W_OUTAT + s], rounds)  # rounds the seat was dealt in


@_jit
def _load(w: Array, states: Array, row: int, players: int) -> None:
    """``Game._load``: the work vector of a position (see :func:`thirtyone.sim.api.positions_to_states`)."""
    for k in range(N_W):
        w[k] = states[row, k]
    w[S_PLAYERS] = players
    knocker = w[S_KNOCKER]
    phase = w[S_PHASE]
    seat = w[S_SEAT]
    turns = w[S_TURNS]
    passes = w[S_PASSES]
    taken = w[S_TAKEN]
    _begin(w)
    w[S_PHASE] = phase
    w[S_SEAT] = seat
    w[S_TURNS] = turns
    w[S_PASSES] = passes
    w[S_TAKEN] = taken
    w[S_KNOCKER] = knocker
    w[S_PMASK] = 0
    for k in range(w[S_NP]):
        w[S_PMASK] |= 1 << w[W_PILE + k]
    if knocker >= 0:  # the final turns left before the showdown
        count = 0
        while seat != knocker:
            count += 1
            seat = w[W_NXT + seat]
        w[S_FINAL] = count


@_jit
def first_legal_kernel(
    const: Array, values: Array, w: Array, players: int, states: Array, first: Array, ok: Array
) -> None:
    """``ok[row]`` = 1 when action code ``first[row]`` is legal in position ``states[row]``.

    Arrays (``const``, ``values``, ``w``: see the module): ``states``: ``int64 [rows, N_W]``, each
    position's work vector (:func:`thirtyone.sim.api.positions_to_states`); ``first``: ``int64
    [rows]``, action codes (``A_*``); ``ok``: ``int64 [rows]``, written (1 legal, 0 not).
    """
    for row in range(states.shape[0]):
        _load(w, states, row, players)
        n = _legal(const, values, w)
        ok[row] = 0
        for k in range(n):
            if w[W_LEGAL + k] == first[row]:
                ok[row] = 1


@_jit
def rollout_kernel(
    const: Array,
    floats: Array,
    values: Array,
    w: Array,
    policies: Array,
    keys: Array,
    states: Array,
    first: Array,
    out: Array,
    seats: Array,
) -> None:
    """Play rows of mid-round positions to the end of their round (``Game.from_position(...,
    rounds=1)``), each after its first action (an action code).

    Arrays (``const``, ``floats``, ``values``, ``w``, ``policies``: see the module; ``P`` seats):

    - ``keys``: ``uint64 [rows]``, each row's round key (its deal key too: the stock's rest is
      shuffled with it as it is read).
    - ``states``: ``int64 [rows, N_W]``, each position's work vector
      (:func:`thirtyone.sim.api.positions_to_states`).
    - ``first``: ``int64 [rows]``, each row's first action code (``A_*``).
    - ``out``: ``int32 [rows, 9]`` and ``seats``: ``int8 [rows, 6, P]``, written as by
      :func:`play_rounds_kernel`; ``out[row, 8]`` is an error code (``ERR_ILLEGAL_FIRST``).
    """
    players = policies.shape[0]
    for row in range(keys.shape[0]):
        _load(w, states, row, players)
        key = keys[row]
        _play(const, floats, values, w, policies, key, key, first[row])
        out[row, 8] = w[S_ERROR]
        if w[S_ERROR] == 0:
            _write_round(values, w, row, out, seats)


@_jit
def rng_words(keys: Array, counters: Array, out: Array) -> None:
    """``out[i] = derive(keys[i], counters[i])``, to compare the kernels' arithmetic with :mod:`thirtyone.sim.rng`."""
    for i in range(keys.shape[0]):
        out[i] = _derive(keys[i], counters[i])


@_jit
def shuffle_words(w: Array, m: int, key: Array) -> None:
    """``counter_shuffle`` of ``w[W_TMP : W_TMP + m]`` with ``key``, for the same comparison."""
    _shuffle(w, W_TMP, m, key)
