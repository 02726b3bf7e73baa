"""Step-wise kernels: many whole games advanced one action at a time, for vector environments
(:mod:`thirtyone.agents.vector` is the Python side; numba, ``cache=True``).

Each game lives in one row of ``work_rows`` (the work vector of :mod:`thirtyone.sim.kernels`, so a
step is ``kernels._apply``: the same state machine as the engine, line for line) and one row of
``extras`` (``X_*``: the game's seed counter, round, rounds ended, each seat's cards laid face up
this round).
Games are dealt exactly as :func:`thirtyone.sim.play_games` and
:class:`~thirtyone.sim.rng.CounterChance` deal them.

Actions cross as the core's ids (:mod:`thirtyone.action_ids`): the kernels turn an id into their
own code and back through one table, :data:`ACTION_TABLE` (:data:`thirtyone.sim.codes.ID_CODES`
then :data:`~thirtyone.sim.codes.CODE_IDS`), passed to them as ``action_table``. The observation's
encoding belongs to the layer above (:mod:`thirtyone.agents`): the kernels take it as data,
``layout`` (the observation's slice offsets, in the order of
``thirtyone.agents.observation.BLOCKS``), so this module never imports that layer; the tests play
the same games through both.

What a step does for game ``i`` (:func:`step_kernel`): check every action first (an illegal one
stops the call before any game changes, or with ``illegal=1`` is replaced by the ``random``
policy's pick); apply it; when the round ends, pay each seat dealt in ``mean(others' loss) - own
loss`` (plus -1 for a seat put out and +1 for the winner with ``win_reward``), deal the next round
(31s on the deal settle at once), and end the game when one seat is left (``terminated``) or
``max_rounds`` rounds have ended (``truncated``); a game that ended is replaced by the env's next
game (auto-reset). Seats of the simulator's policies (``seat_policies``) then move until an
agent's seat is to move. Then write the observation, mask and seat of the move each game waits for
(and, with ``V_TEACHER``, the heuristic's id for it).

Names. Besides :mod:`thirtyone.sim.kernels`' (``const``, ``floats``, ``values``, ``w``, the round's
keys), every kernel and helper here gives the same array the same name (``N`` envs, ``P`` seats;
``i``: an env's row):

- ``env_params``: ``int64 [N_V]``, the env's parameters at ``V_*``.
- ``seat_policies``: ``int64 [P]``, each seat's policy code (``P_*``), -1 for an agent's seat.
- ``action_table``: ``int64 [NUM_ACTIONS + codes]``, :data:`ACTION_TABLE`.
- ``layout``: ``int64 [L_SIZE + 1]``, where each block of the observation begins (at ``L_*``),
  and the observation's length (at ``L_SIZE``).
- ``work_rows``: ``int64 [N, N_W]``, each env's work vector (``w = work_rows[i]``).
- ``extras``: ``int64 [N, N_X]``, each env's extra row (``X_*``; cards laid face up and the planes
  shown as bit masks).
- ``seeds``, ``base``: ``uint64 [N]``, each env's current game's seed, and the key its games'
  seeds derive from.
- ``pending``, ``rewards``: ``float64 [N, P]``, pay in lives not yet paid (rounds settled before
  an agent's move) and this step's pay.
- ``before``: ``int64 [9]``, scratch: each seat's remaining losses before a move.
- ``obs``, ``final``: ``float32 [N, layout[L_SIZE]]``, each env's observation for the seat to move,
  and the one kept as ``V_FINAL``'s episode ends; ``observation`` is one row of them.
- ``masks``: ``int8 [N, NUM_ACTIONS]``, 1 for each legal action id; ``agents``, ``teacher``:
  ``int64 [N]``, the seat to move and the heuristic's id for it; ``ended``, ``replaced``:
  ``int8 [N]``, how each env's game ended (0 going on, 1 terminated, 2 truncated) and whether its
  action was replaced.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from thirtyone.action_ids import NUM_ACTIONS
from thirtyone.sim.codes import A_ALL
from thirtyone.sim.codes import A_DISCARD
from thirtyone.sim.codes import A_EX1
from thirtyone.sim.codes import A_EX2
from thirtyone.sim.codes import A_TAKE
from thirtyone.sim.codes import CODE_IDS
from thirtyone.sim.codes import ID_CODES
from thirtyone.sim.codes import P_BASIC
from thirtyone.sim.codes import P_RANDOM
from thirtyone.sim.codes import PH_DEALER
from thirtyone.sim.codes import PH_DISCARD
from thirtyone.sim.codes import PH_DONE
from thirtyone.sim.codes import PH_LOOK
from thirtyone.sim.kernels import _BIT_INDEX
from thirtyone.sim.kernels import _U58
from thirtyone.sim.kernels import _U_DEBRUIJN
from thirtyone.sim.kernels import _U_TAG_DEAL
from thirtyone.sim.kernels import _U_TAG_DEALER
from thirtyone.sim.kernels import _U_TAG_POLICY
from thirtyone.sim.kernels import _U_TAG_RESHUFFLE
from thirtyone.sim.kernels import S_ACTIONS
from thirtyone.sim.kernels import S_DEALER
from thirtyone.sim.kernels import S_KNOCKER
from thirtyone.sim.kernels import S_NACT
from thirtyone.sim.kernels import S_NP
from thirtyone.sim.kernels import S_NS
from thirtyone.sim.kernels import S_PHASE
from thirtyone.sim.kernels import S_PLAYERS
from thirtyone.sim.kernels import S_PMASK
from thirtyone.sim.kernels import S_SEAT
from thirtyone.sim.kernels import S_TAKEN
from thirtyone.sim.kernels import S_TURNS
from thirtyone.sim.kernels import S_WUP
from thirtyone.sim.kernels import W_HANDS
from thirtyone.sim.kernels import W_KNOWN
from thirtyone.sim.kernels import W_LEGAL
from thirtyone.sim.kernels import W_LOOKED
from thirtyone.sim.kernels import W_PILE
from thirtyone.sim.kernels import W_REM
from thirtyone.sim.kernels import W_WIDOW
from thirtyone.sim.kernels import Array
from thirtyone.sim.kernels import Int
from thirtyone.sim.kernels import _apply
from thirtyone.sim.kernels import _basic
from thirtyone.sim.kernels import _bounded
from thirtyone.sim.kernels import _deal
from thirtyone.sim.kernels import _derive
from thirtyone.sim.kernels import _full_deck
from thirtyone.sim.kernels import _heuristic
from thirtyone.sim.kernels import _jit
from thirtyone.sim.kernels import _legal
from thirtyone.sim.kernels import _splitmix64
from thirtyone.sim.params import R_DECK
from thirtyone.sim.params import R_DRAW
from thirtyone.sim.params import R_FULL
from thirtyone.sim.params import R_MAXT

__all__ = [
    "N_X",
    "N_V",
    "ACTION_TABLE",
    "V_PLAYERS",
    "V_MAX_ROUNDS",
    "V_WIN",
    "V_LIVES",
    "V_ILLEGAL",
    "V_TEACHER",
    "V_FINAL",
    "reset_kernel",
    "step_kernel",
]

X_GAMES, X_ROUND, X_ROUNDS, X_LEFT = range(4)  # games begun by this env, round number, rounds ended, seats in
X_DISC = 4  # + seat: cards the seat laid face up this round (a bit mask)
X_PREV = X_DISC + 9  # + plane: the bit mask each card plane of the observation shows now
N_X = X_PREV + 23
"""Length of a game's extra row."""

V_PLAYERS, V_MAX_ROUNDS, V_WIN, V_LIVES, V_ILLEGAL, V_TEACHER, V_FINAL = range(7)
N_V = 7
"""Length of the vector env's parameters: players, max_rounds, win_reward, the rules' lives,
illegal (0: stop at an illegal action, 1: replace it), teacher (1: name the heuristic's move) and
final (the one agent's seat whose observation is kept when its episode ends, in ``final``; -1: none)."""

ACTION_TABLE = np.array([*ID_CODES, *CODE_IDS], dtype=np.int64)
"""The one table of action ids and kernel codes: ``ACTION_TABLE[number]`` is the code of id
``number`` and ``ACTION_TABLE[NUM_ACTIONS + code]`` the id of ``code`` (exchanges by sorted places)."""

# The observation's slices (``layout``), in the order of thirtyone.agents.observation.BLOCKS.
(
    L_HAND, L_TAKEN, L_TOP, L_PILE, L_WIDOW, L_KNOWN, L_DISC, L_LIVES, L_GRACE, L_OUT, L_LOOKED,
    L_DEALER, L_KNOCKER, L_TOMOVE, L_PHASE, L_WDOWN, L_STOCK, L_TURN, L_SEATSIN, L_PLAYERS, L_SIZE,
) = range(21)  # fmt: skip


@_jit
def _rank(a: Int, b: Int, c: Array, x: Array) -> Any:
    """The place of ``x`` among ``a, b, c`` sorted by card index (0 lowest)."""
    return (1 if a < x else 0) + (1 if b < x else 0) + (1 if c < x else 0)


@_jit
def _place(w: Array, at: Int, rank: Int) -> Any:
    """The index k (0–2) of the card of sorted place ``rank`` among ``w[at : at + 3]``."""
    for k in range(3):
        if _rank(w[at], w[at + 1], w[at + 2], w[at + k]) == rank:
            return k
    return -1


@_jit
def _code_of(action_table: Array, w: Array, number: Int) -> Any:
    """The kernels' action code of action id ``number`` for the seat to move (-1: no such action now)."""
    if number < 0 or number >= NUM_ACTIONS:
        return -1
    code = action_table[number]
    if code < A_EX1:
        return code
    base = A_EX2 if code >= A_EX2 else A_EX1  # an exchange: from sorted places to the hand's and widow's
    i = (code - base) // 3
    j = (code - base) % 3
    return base + 3 * _place(w, W_HANDS + 4 * w[S_SEAT], i) + _place(w, W_WIDOW, j)


@_jit
def _id_of(action_table: Array, w: Array, code: Int) -> Any:
    """The action id of the kernels' action code ``code`` for the seat to move."""
    if code >= A_EX1:  # an exchange: from the hand's and widow's places to sorted places
        base = A_EX2 if code >= A_EX2 else A_EX1
        h = W_HANDS + 4 * w[S_SEAT]
        hi = (code - base) // 3
        wj = (code - base) % 3
        i = _rank(w[h], w[h + 1], w[h + 2], w[h + hi])
        j = _rank(w[W_WIDOW], w[W_WIDOW + 1], w[W_WIDOW + 2], w[W_WIDOW + wj])
        code = base + 3 * i + j
    return action_table[NUM_ACTIONS + code]


@_jit
def _keys(seed: Int, rnd: Int) -> Any:
    """The deal, reshuffle and policy keys of round ``rnd`` of the game of ``seed`` (rng.CounterChance)."""
    key = _derive(_splitmix64(seed), np.uint64(rnd))
    return _derive(key, _U_TAG_DEAL), _derive(key, _U_TAG_RESHUFFLE), _derive(key, _U_TAG_POLICY)


@_jit
def _settle(const: Array, env_params: Array, w: Array, extras: Array, before: Array, rewards: Array, i: Int) -> Any:
    """A round has ended: pay it (``rewards[i]``), count it; 1 when the game is over, 2 when it
    is truncated, 0 when it goes on."""
    players = env_params[V_PLAYERS]
    seats = 0
    total = 0
    for s in range(players):
        if before[s] > 0:
            seats += 1
            total += before[s] - w[W_REM + s]
    left = 0
    winner = -1
    for s in range(players):
        if before[s] > 0:
            lost = before[s] - w[W_REM + s]
            rewards[i, s] += (total - lost) / (seats - 1) - lost
            if env_params[V_WIN] != 0 and w[W_REM + s] == 0:
                rewards[i, s] -= 1.0
        if w[W_REM + s] > 0:
            left += 1
            winner = s
    extras[i, X_ROUNDS] += 1
    extras[i, X_LEFT] = left
    if left <= 1:
        if env_params[V_WIN] != 0:
            rewards[i, winner] += 1.0
        return 1
    if extras[i, X_ROUNDS] >= env_params[V_MAX_ROUNDS]:
        return 2
    return 0


@_jit
def _next_round(
    const: Array,
    values: Array,
    env_params: Array,
    w: Array,
    extras: Array,
    seeds: Array,
    before: Array,
    rewards: Array,
    i: Int,
) -> Any:
    """Deal the next round (settling 31s on the deal as they come); the game's end code as ``_settle``."""
    players = env_params[V_PLAYERS]
    while True:
        dealer = (w[S_DEALER] + 1) % players  # R3.1
        while w[W_REM + dealer] == 0:
            dealer = (dealer + 1) % players
        extras[i, X_ROUND] += 1
        deal_key, _, _ = _keys(seeds[i], extras[i, X_ROUND])
        for s in range(players):
            before[s] = w[W_REM + s]
            extras[i, X_DISC + s] = 0
        _full_deck(const, w)
        _deal(const, values, w, dealer, deal_key)
        if w[S_PHASE] != PH_DONE:
            return 0
        end = _settle(const, env_params, w, extras, before, rewards, i)
        if end != 0:
            return end


@_jit
def _begin_game(
    const: Array,
    values: Array,
    env_params: Array,
    w: Array,
    extras: Array,
    seeds: Array,
    base: Array,
    before: Array,
    rewards: Array,
    i: Int,
) -> Any:
    """Deal env ``i``'s next game: seed ``derive(base[i], games)``, or the next seed while a game
    would end before its first move. Rounds settled before it go to ``rewards[i]`` (the pending pay)."""
    players = env_params[V_PLAYERS]
    seed = _derive(base[i], np.uint64(extras[i, X_GAMES]))
    extras[i, X_GAMES] += 1
    while True:
        for s in range(players):
            rewards[i, s] = 0.0
            w[W_REM + s] = const[R_FULL]
            extras[i, X_DISC + s] = 0
        seeds[i] = seed
        extras[i, X_ROUNDS] = 0
        extras[i, X_ROUND] = 1
        extras[i, X_LEFT] = players
        w[S_PLAYERS] = players
        dealer = _bounded(_derive(_splitmix64(seed), _U_TAG_DEALER), players)
        deal_key, _, _ = _keys(seed, 1)
        for s in range(players):
            before[s] = w[W_REM + s]
        _full_deck(const, w)
        _deal(const, values, w, dealer, deal_key)
        end = 0
        if w[S_PHASE] == PH_DONE:
            end = _settle(const, env_params, w, extras, before, rewards, i)
            if end == 0:
                end = _next_round(const, values, env_params, w, extras, seeds, before, rewards, i)
        if end == 0:
            return
        seed = seed + np.uint64(1)


@_jit
def _plane(observation: Array, extras: Array, i: Int, j: Int, at: Int, new: Int, full: bool) -> None:
    """Card plane ``j`` of ``observation`` (at ``at``) to the bit mask ``new``: only the entries that
    differ from the mask it last showed (``extras[i, X_PREV + j]``) are written, every one when ``full``."""
    diff = new if full else new ^ extras[i, X_PREV + j]
    extras[i, X_PREV + j] = new
    while diff != 0:
        low = diff & -diff
        card = _BIT_INDEX[(np.uint64(low) * _U_DEBRUIJN) >> _U58]
        observation[at + card] = 1.0 if (new & low) != 0 else 0.0
        diff ^= low


@_jit
def _observe(
    const: Array, env_params: Array, layout: Array, w: Array, extras: Array, obs: Array, i: Int, full: bool
) -> None:
    """``obs[i]``: the observation of the seat to move (``thirtyone.agents.observation.encode`` of
    its view). The card planes are updated in place from the masks they showed (``full``: the row
    is cleared and written whole, as after a reset); the rest is written whole every time."""
    _observe_seat(const, env_params, layout, w, extras, obs, i, full, w[S_SEAT], False)


@_jit
def _observe_seat(
    const: Array,
    env_params: Array,
    layout: Array,
    w: Array,
    extras: Array,
    obs: Array,
    i: Int,
    full: bool,
    seat: Int,
    over: bool,
) -> None:
    """``obs[i]``: the observation of ``seat`` (to move or not; ``over``: the game is over, so
    nobody is to move, the phase is ``over``, no hand is shown and the seats in are those with
    lives left), as :func:`_observe`."""
    observation = obs[i]
    if full:
        for k in range(layout[L_SIZE]):
            observation[k] = 0.0
    players = env_params[V_PLAYERS]
    h = W_HANDS + 4 * seat
    hand = 0
    if w[W_LOOKED + seat] != 0 and w[W_REM + seat] > 0 and not over:
        for k in range(4):
            card = w[h + k]
            if card >= 0:
                hand |= 1 << card
    _plane(observation, extras, i, 0, layout[L_HAND], hand, full)
    _plane(observation, extras, i, 1, layout[L_TAKEN], (1 << w[S_TAKEN]) if w[S_TAKEN] >= 0 else 0, full)
    draw = const[R_DRAW] != 0
    top = 0
    if draw and w[S_NP] > 0:
        top = 1 << w[W_PILE + w[S_NP] - 1]
    _plane(observation, extras, i, 2, layout[L_TOP], top, full)
    _plane(observation, extras, i, 3, layout[L_PILE], w[S_PMASK], full)
    widow = 0
    if not draw and w[S_WUP] != 0:
        widow = (1 << w[W_WIDOW]) | (1 << w[W_WIDOW + 1]) | (1 << w[W_WIDOW + 2])
    _plane(observation, extras, i, 4, layout[L_WIDOW], widow, full)
    grace = const[R_FULL] - env_params[V_LIVES]
    lives = env_params[V_LIVES]
    dealer = w[S_DEALER] - seat
    if dealer < 0:
        dealer += players
    knocker = w[S_KNOCKER] - seat
    if knocker < 0:
        knocker += players
    mover = -1 if over else (w[S_SEAT] - seat + players) % players
    other = seat
    for k in range(players):
        _plane(observation, extras, i, 5 + k, layout[L_KNOWN] + 52 * k, w[W_KNOWN + other], full)
        _plane(observation, extras, i, 14 + k, layout[L_DISC] + 52 * k, extras[i, X_DISC + other], full)
        left = w[W_REM + other]
        observation[layout[L_LIVES] + k] = max(left - grace, 0) / lives
        observation[layout[L_GRACE] + k] = 1.0 if grace == 1 and left == 1 else 0.0
        observation[layout[L_OUT] + k] = 1.0 if left == 0 else 0.0
        observation[layout[L_LOOKED] + k] = 1.0 if w[W_LOOKED + other] != 0 else 0.0
        observation[layout[L_DEALER] + k] = 1.0 if k == dealer else 0.0
        observation[layout[L_KNOCKER] + k] = 1.0 if k == knocker and w[S_KNOCKER] >= 0 else 0.0
        observation[layout[L_TOMOVE] + k] = 1.0 if k == mover else 0.0
        other += 1
        if other == players:
            other = 0
    phase = w[S_PHASE]
    code = 4 if over else 0 if phase == PH_LOOK else 1 if phase == PH_DEALER else 3 if phase == PH_DISCARD else 2
    for k in range(5):
        observation[layout[L_PHASE] + k] = 1.0 if k == code else 0.0
    observation[layout[L_WDOWN]] = 1.0 if not draw and w[S_WUP] == 0 else 0.0
    observation[layout[L_STOCK]] = w[S_NS] / const[R_DECK]
    observation[layout[L_TURN]] = w[S_TURNS] / const[R_MAXT]
    seats_in = w[S_NACT]
    if over:
        seats_in = 0
        for s in range(players):
            if w[W_REM + s] > 0:
                seats_in += 1
    observation[layout[L_SEATSIN]] = seats_in / players
    observation[layout[L_PLAYERS]] = players / 9


@_jit
def _mask(const: Array, values: Array, action_table: Array, w: Array, masks: Array, i: Int) -> Any:
    """``masks[i]``: the legal action ids of the seat to move."""
    for k in range(NUM_ACTIONS):
        masks[i, k] = 0
    n = _legal(const, values, w)
    for k in range(n):
        masks[i, _id_of(action_table, w, w[W_LEGAL + k])] = 1


@_jit
def reset_kernel(
    const: Array,
    floats: Array,
    values: Array,
    env_params: Array,
    seat_policies: Array,
    action_table: Array,
    layout: Array,
    work_rows: Array,
    extras: Array,
    seeds: Array,
    base: Array,
    pending: Array,
    obs: Array,
    masks: Array,
    agents: Array,
    ended: Array,
    teacher: Array,
    before: Array,
    final: Array,
) -> Any:
    """Begin every env's first game (``extras[:, X_GAMES]`` must be 0), let the simulator's policies
    play their seats until an agent is to move, and write the outputs; the rewards of rounds
    settled before the first move go to ``pending`` (paid with the first step). ``before`` is
    scratch space (``int64 [9]``)."""
    for i in range(work_rows.shape[0]):
        w = work_rows[i]
        ended[i] = 0
        _begin_game(const, values, env_params, w, extras, seeds, base, before, pending, i)
        _bots(const, floats, values, env_params, seat_policies, layout, w, extras, seeds, base, before, pending,
              pending, ended, final, i)  # fmt: skip
        ended[i] = 0
        _outputs(const, floats, values, env_params, action_table, layout, w, extras, obs, masks, agents, teacher, i,
                 True)  # fmt: skip


@_jit
def _play(
    const: Array,
    values: Array,
    env_params: Array,
    w: Array,
    extras: Array,
    seeds: Array,
    i: Int,
    code: Int,
    before: Array,
    rewards: Array,
) -> Any:
    """Apply action code ``code`` for the seat to move of env ``i`` (noting the cards it lays face
    up), settle the round if it ended and deal the next; the game's end code as ``_settle``."""
    players = env_params[V_PLAYERS]
    seat = w[S_SEAT]
    h = W_HANDS + 4 * seat
    if code >= A_EX2:  # the cards this move lays face up
        keep = (code - A_EX2) // 3
        for k in range(3):
            if k != keep:
                extras[i, X_DISC + seat] |= 1 << w[h + k]
    elif code >= A_EX1:
        extras[i, X_DISC + seat] |= 1 << w[h + (code - A_EX1) // 3]
    elif code >= A_DISCARD:
        extras[i, X_DISC + seat] |= 1 << (code - A_DISCARD)
    elif code in (A_ALL, A_TAKE):
        for k in range(3):
            extras[i, X_DISC + seat] |= 1 << w[h + k]
    for s in range(players):
        before[s] = w[W_REM + s]
    deal_key, reshuffle_key, _ = _keys(seeds[i], extras[i, X_ROUND])
    _apply(const, values, w, code, reshuffle_key, deal_key)
    end = 0
    if w[S_PHASE] == PH_DONE:
        end = _settle(const, env_params, w, extras, before, rewards, i)
        if end == 0:
            end = _next_round(const, values, env_params, w, extras, seeds, before, rewards, i)
    return end


@_jit
def _policy_code(
    const: Array, floats: Array, values: Array, w: Array, extras: Array, seeds: Array, i: Int, policy: Int
) -> Any:
    """The action code the simulator's ``policy`` plays for the seat to move (as ``kernels._play``)."""
    if policy == P_BASIC:
        return _basic(const, values, w)
    if policy == P_RANDOM:
        count = _legal(const, values, w)
        _, _, policy_key = _keys(seeds[i], extras[i, X_ROUND])
        return w[W_LEGAL + _bounded(_derive(policy_key, np.uint64(w[S_ACTIONS])), count)]
    return _heuristic(const, floats, values, w)


@_jit
def _final(
    const: Array,
    values: Array,
    env_params: Array,
    layout: Array,
    w: Array,
    extras: Array,
    seeds: Array,
    before: Array,
    pending: Array,
    final: Array,
    i: Int,
    end: Int,
) -> None:
    """``final[i]``: the observation of seat ``env_params[V_FINAL]`` as its episode ends, the game as the
    engine has it then (``Table.observation``): put out (``end`` 0: the next round is dealt),
    the game over (1), or cut at ``max_rounds`` (2: the engine, which knows no cap, has dealt the
    next round, or more after 31s on the deal; their pay goes to ``pending``, which the next
    game's deal clears). The planes are written whole (their masks in ``X_PREV`` are this one's)."""
    while end == 2:
        end = _next_round(const, values, env_params, w, extras, seeds, before, pending, i)
    _observe_seat(const, env_params, layout, w, extras, final, i, True, env_params[V_FINAL], end == 1)


@_jit
def _bots(
    const: Array,
    floats: Array,
    values: Array,
    env_params: Array,
    seat_policies: Array,
    layout: Array,
    w: Array,
    extras: Array,
    seeds: Array,
    base: Array,
    before: Array,
    rewards: Array,
    pending: Array,
    ended: Array,
    final: Array,
    i: Int,
) -> None:
    """Play the seats of the simulator's policies (``seat_policies[seat] >= 0``) until an agent's seat is to
    move; a game that ends meanwhile is ended (``ended[i]``, if not already) and replaced. Where
    the seat ``env_params[V_FINAL]`` is still in the env's game, a move that ends its episode (puts it
    out, or ends the game) keeps its observation in ``final[i]`` (:func:`_final`)."""
    kept = env_params[V_FINAL]
    while seat_policies[w[S_SEAT]] >= 0:
        code = _policy_code(const, floats, values, w, extras, seeds, i, seat_policies[w[S_SEAT]])
        playing = kept >= 0 and ended[i] == 0 and w[W_REM + kept] > 0
        end = _play(const, values, env_params, w, extras, seeds, i, code, before, rewards if ended[i] == 0 else pending)
        if playing and (end != 0 or w[W_REM + kept] == 0):
            _final(const, values, env_params, layout, w, extras, seeds, before, pending, final, i, end)
        if end != 0:
            if ended[i] == 0:
                ended[i] = end
            _begin_game(const, values, env_params, w, extras, seeds, base, before, pending, i)


@_jit
def _outputs(
    const: Array,
    floats: Array,
    values: Array,
    env_params: Array,
    action_table: Array,
    layout: Array,
    w: Array,
    extras: Array,
    obs: Array,
    masks: Array,
    agents: Array,
    teacher: Array,
    i: Int,
    full: bool,
) -> None:
    """Env ``i``'s outputs for the move it waits for: observation, mask, seat, and the teacher's id."""
    _observe(const, env_params, layout, w, extras, obs, i, full)
    _mask(const, values, action_table, w, masks, i)
    agents[i] = w[S_SEAT]
    if env_params[V_TEACHER] != 0:
        teacher[i] = _id_of(action_table, w, _heuristic(const, floats, values, w))


@_jit
def step_kernel(
    const: Array,
    floats: Array,
    values: Array,
    env_params: Array,
    seat_policies: Array,
    action_table: Array,
    layout: Array,
    work_rows: Array,
    extras: Array,
    seeds: Array,
    base: Array,
    pending: Array,
    actions: Array,
    obs: Array,
    masks: Array,
    agents: Array,
    rewards: Array,
    ended: Array,
    replaced: Array,
    teacher: Array,
    before: Array,
    final: Array,
) -> Any:
    """Step every env with ``actions[i]`` (see the module); then the simulator's policies play
    their seats (``seat_policies[seat]``: a policy code, -1 for an agent's seat) until an agent is to move.
    ``ended[i]``: 0 going on, 1 terminated, 2 truncated (the outputs are then the new game's).
    ``teacher[i]`` (with ``env_params[V_TEACHER]``): the id the heuristic would play. Returns -1, or the
    first env whose action is not legal (with ``env_params[V_ILLEGAL] == 0``; then nothing has changed).
    ``before`` is scratch space (``int64 [9]``)."""
    n = work_rows.shape[0]
    players = env_params[V_PLAYERS]
    for i in range(n):  # every action is checked before any is played
        number = actions[i]
        if (number < 0 or number >= NUM_ACTIONS or masks[i, number] == 0) and env_params[V_ILLEGAL] == 0:
            return i
    for i in range(n):
        w = work_rows[i]
        for s in range(players):
            rewards[i, s] = pending[i, s]
            pending[i, s] = 0.0
        number = actions[i]
        replaced[i] = 0
        if number < 0 or number >= NUM_ACTIONS or masks[i, number] == 0:  # the random policy's pick instead
            code = _policy_code(const, floats, values, w, extras, seeds, i, P_RANDOM)
            replaced[i] = 1
        else:
            code = _code_of(action_table, w, number)
        end = _play(const, values, env_params, w, extras, seeds, i, code, before, rewards)
        ended[i] = end
        kept = env_params[V_FINAL]
        if kept >= 0 and (end != 0 or w[W_REM + kept] == 0):
            _final(const, values, env_params, layout, w, extras, seeds, before, pending, final, i, end)
        if end != 0:
            _begin_game(const, values, env_params, w, extras, seeds, base, before, pending, i)
        _bots(const, floats, values, env_params, seat_policies, layout, w, extras, seeds, base, before, rewards,
              pending, ended, final, i)  # fmt: skip
        # a final observation rewrote the planes' masks: the next one is written whole
        _outputs(const, floats, values, env_params, action_table, layout, w, extras, obs, masks, agents, teacher, i,
                 kept >= 0 and ended[i] != 0)  # fmt: skip
    return -1
