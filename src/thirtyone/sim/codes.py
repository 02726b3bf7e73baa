"""Integer codes shared by the kernels and the Python side of :mod:`thirtyone.sim` (pure Python).

Round ends, loss rules, policies, phases and actions travel through the kernels as small integers;
this module names them. :data:`ENDS` and :data:`LOSS_NAMES` turn the codes of a
:class:`~thirtyone.sim.results.RoundBatch` back into the engine's data (a round's end, a
:data:`~thirtyone.settlement.LossKind`); the loss kinds are the core's, imported, not copied.
"""

from __future__ import annotations

from thirtyone import action_ids as ids
from thirtyone.settlement import LOSS_KINDS
from thirtyone.settlement import NO_KNOCK_KINDS

__all__ = [
    "ID_CODES",
    "CODE_IDS",
    "ENDS",
    "END_CODES",
    "LOSS_NAMES",
    "LOSS_CODES",
    "POLICIES",
    "POLICY_CODES",
]

ENDS = ("dealt_blitz", "blitz", "knock", "throw_down", "all_pass", "stock_exhausted", "max_turns")
"""How a round ended (:data:`thirtyone.events.RoundEnd`), by code 0–6."""
END_CODES = {name: code for code, name in enumerate(ENDS)}
E_DEALT, E_BLITZ, E_KNOCK, E_THROW, E_ALLPASS, E_STOCK, E_MAXT = range(7)

LOSS_NAMES: tuple[str, ...] = ("", *LOSS_KINDS)
"""The loss kind (:data:`thirtyone.settlement.LossKind`) by loss code; code 0 is no loss."""
LOSS_CODES: dict[str, int] = {kind: code for code, kind in enumerate(LOSS_NAMES) if kind}
"""The loss code of each kind."""
L_NONE = 0
L_R51, L_R52, L_R53, L_R55 = (
    LOSS_CODES[kind] for kind in ("blitz", "dealt_blitz", "blitz_after_knock", "dealt_blitz_beaten")
)
L_LOW, L_SAVED, L_RISKY = (LOSS_CODES[kind] for kind in ("lowest", "lowest_knocker_saved", "knocker_not_highest"))
L_LOW_ALLPASS, L_LOW_MAXT, L_LOW_STOCK = (
    LOSS_CODES[NO_KNOCK_KINDS[end]] for end in ("all_pass", "max_turns", "stock_exhausted")
)

POLICIES = ("random", "basic", "heuristic")
"""The policies the kernels play, by code 0–2: ``random`` (uniform over the legal actions, from the
counter generator of :mod:`thirtyone.sim.rng`), ``basic`` (:class:`thirtyone.bots.basic.BasicBot`)
and ``heuristic`` (:func:`thirtyone.bots.heuristic.rollout_action`). Which bots and levels they
play is the bots' registry's to say (:mod:`thirtyone.bots.levels`, a layer above: the simulator
knows its policies by these names only)."""
POLICY_CODES = {name: code for code, name in enumerate(POLICIES)}
P_RANDOM, P_BASIC, P_HEURISTIC = range(3)


# Phases of the kernels' state machine (the engine's Phase, less OVER, plus DONE for a round over).
PH_LOOK, PH_DEALER, PH_TURN, PH_DISCARD, PH_DONE = range(5)
PHASE_CODES = {"look": PH_LOOK, "dealer_choice": PH_DEALER, "turn": PH_TURN, "discard": PH_DISCARD}

# Actions. Discards carry the card (A_DISCARD + card); exchanges the hand index i and widow index j
# (A_EX1 + 3 * i + j gives hand[i] for widow[j]; A_EX2 + 3 * i + j keeps hand[i] and gives the
# other two for the widow's cards but widow[j], with exchange=any).
A_STOCK, A_PILE, A_KNOCK, A_PASS, A_ALL, A_KEEP, A_TAKE, A_LOOK, A_THROW = range(9)
A_DISCARD = 64
A_EX1 = 128
A_EX2 = 144
N_CODES = A_EX2 + 9
"""How many action codes there are (the largest is the last two-card exchange's)."""

_SIMPLE_IDS = {
    A_STOCK: ids.DRAW_STOCK, A_PILE: ids.DRAW_PILE, A_KNOCK: ids.KNOCK, A_PASS: ids.PASS, A_ALL: ids.EXCHANGE_ALL,
    A_KEEP: ids.KEEP, A_TAKE: ids.TAKE_WIDOW, A_LOOK: ids.LOOK, A_THROW: ids.THROW_DOWN,
}  # fmt: skip


def _code_ids() -> tuple[int, ...]:
    table = [-1] * N_CODES
    for code, number in _SIMPLE_IDS.items():
        table[code] = number
    for card in range(52):
        table[A_DISCARD + card] = ids.DISCARD + card
    for k in range(9):
        table[A_EX1 + k] = ids.EXCHANGE_ONE + k
        table[A_EX2 + k] = ids.EXCHANGE_TWO + k
    return tuple(table)


CODE_IDS: tuple[int, ...] = _code_ids()
"""The action id (:mod:`thirtyone.action_ids`, the core's one action space) of each kernel code, -1
for none. An exchange's code here names places of the *sorted* hand and widow, as its id does; the
kernels turn them into places of the hand and widow as they hold them."""
ID_CODES: tuple[int, ...] = tuple(CODE_IDS.index(number) for number in range(ids.NUM_ACTIONS))
"""The kernel code of each action id: :data:`CODE_IDS` the other way round (the one table both ways)."""
