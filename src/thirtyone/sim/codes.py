"""Integer codes shared by the kernels and the Python side of :mod:`thirtyone.sim` (pure Python).

Round ends, loss rules, policies, phases and actions travel through the kernels as small integers;
this module names them. :data:`ENDS` and :data:`LOSS_RULES` turn the codes of a
:class:`~thirtyone.sim.results.RoundBatch` back into the engine's words.
"""

from __future__ import annotations

__all__ = [
    "ENDS",
    "END_CODES",
    "LOSS_RULES",
    "LOSS_CODES",
    "POLICIES",
    "POLICY_CODES",
    "PENALTY_CODES",
]

ENDS = ("dealt_blitz", "blitz", "knock", "throw_down", "all_pass", "stock_exhausted", "max_turns")
"""How a round ended (:data:`thirtyone.events.RoundEnd`), by code 0–6."""
END_CODES = {name: code for code, name in enumerate(ENDS)}
E_DEALT, E_BLITZ, E_KNOCK, E_THROW, E_ALLPASS, E_STOCK, E_MAXT = range(7)

LOSS_RULES: tuple[tuple[str, str], ...] = (
    ("", ""),
    ("R5.1", ""),
    ("R5.2", ""),
    ("R5.3", ""),
    ("R5.5", ""),
    ("R6.5", "lowest hand"),
    ("R6.5", "knocker alone lowest (knock_penalty=scat)"),
    ("R6.5", "lowest hand; the knocker tied and is saved"),
    ("R6.5", "knocker among the lowest (knock_penalty=widow)"),
    ("R6.5", "knocker without the highest hand (knock_penalty=namu_risky)"),
    ("R6.5", "lowest hand (everyone passed, R7.3)"),
    ("R6.5", "lowest hand (the turn limit, R6.7)"),
    ("R6.5", "lowest hand (the stock ran out, R4.3)"),
)
"""``(Loss.rule, Loss.reason)`` by loss code (0: no loss). The engine's reasons for R5.x name
seats and hands, so only R6.5's reasons are given here; they are the engine's words exactly."""
LOSS_CODES = {pair: code for code, pair in enumerate(LOSS_RULES)}
L_NONE, L_R51, L_R52, L_R53, L_R55, L_LOW, L_SCAT, L_SAVED, L_WIDOW, L_RISKY = range(10)
L_LOW_ALLPASS, L_LOW_MAXT, L_LOW_STOCK = range(10, 13)

POLICIES = ("random", "basic", "heuristic")
"""The policies the kernels play, by code 0–2: ``random`` (uniform over the legal actions, from the
counter generator of :mod:`thirtyone.sim.rng`), ``basic`` (:class:`thirtyone.bots.basic.BasicBot`)
and ``heuristic`` (:func:`thirtyone.bots.heuristic.rollout_action`)."""
POLICY_CODES = {name: code for code, name in enumerate(POLICIES)}
POLICY_ALIASES = {"easy": "basic", "medium": "heuristic"}
"""The terminal game's level names for the policies the simulator plays."""
P_RANDOM, P_BASIC, P_HEURISTIC = range(3)

PENALTY_CODES = {"scat": 0, "namu": 1, "namu_risky": 2, "widow": 3, "plain": 4}
PEN_SCAT, PEN_NAMU, PEN_RISKY, PEN_WIDOW, PEN_PLAIN = range(5)

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
