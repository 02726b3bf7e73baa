"""``thirtyone.sim``: a batched simulator compiled with numba that plays many rounds or games at
once, with the same rules as :class:`thirtyone.engine.Game` and never a second truth: the tests play
the same deck orders and the same choices through both and require identical results.

>>> from thirtyone import Rules
>>> from thirtyone import sim
>>> batch = sim.play_rounds(Rules.preset("scat"), 4, rounds=1000, policy="basic", seed=1)
>>> len(batch), batch.lost.shape
(1000, (1000, 4))
>>> games = sim.play_games(Rules.preset("widow"), 3, ["heuristic", "basic", "random"], seeds=range(100))
>>> int(games.rounds.min()) >= 1, sorted(set(games.places[:, 0].tolist())) <= [1, 2, 3]
(True, True)

What it plays
    Both modes with every option of :class:`~thirtyone.rules.Rules` (draw and widow mode, 52 or 32
    cards, every scoring option, every knock penalty, knock from round 2, a least knock value,
    throw-down, the turn limit, the stock's reshuffle or showdown, all-pass showdown or new widow,
    exchange one or any, the Schwimmen deal, lives and the grace life, R2.6). Three policies, in any
    mix of seats: ``random`` (uniform over the legal actions, from the counter generator of
    :mod:`thirtyone.sim.rng`), ``basic`` (:class:`thirtyone.bots.basic.BasicBot`) and ``heuristic``
    (:func:`thirtyone.bots.heuristic.rollout_action`, the policy of the expert's rollouts; the
    view-based :class:`~thirtyone.bots.heuristic.HeuristicBot` also reads strong opponents from
    the history, which the simulator does not). A ruleset with an option the kernels do not know is
    refused with :class:`UnsupportedRulesError` naming it: play it with the engine.

Entry points (numpy arrays in, arrays out; see :mod:`thirtyone.sim.api`)
    - :func:`play_rounds` ``(rules, players, decks, dealers, policy, seed, lives=None) -> RoundBatch``:
      one round per given deck order (or ``rounds=n`` dealt from the seed), for searches.
    - :func:`iter_rounds`: the same streamed in chunks, for millions of rounds in flat memory
      (with :class:`RoundTotals`).
    - :func:`play_games` ``(rules, players, policies, seeds) -> GameBatch`` and :func:`iter_games`:
      whole games (places, rounds, knocks, blitzes, lives lost by rule), for arenas (totalled by
      :func:`add_batch` into a :class:`thirtyone.totals.GameTotals`, as the engine's games are).
    - :func:`rollout` ``(positions, first_actions, seed=0, policy="heuristic") -> RoundBatch``: play
      the rest of each :class:`~thirtyone.position.Position`'s round after a given first action,
      heuristic in every seat; ``lost[i, seat]`` is what it cost each seat. For the expert bot.

Why numba and not vectorised numpy
    Measured, not assumed. A round is a loop of data-dependent branches (policy decisions,
    reshuffles, knocks, final turns, blitz checks) over rounds that end at different times.
    Vectorised over a batch, every step pays for every branch of every round still running, plus
    the fancy indexing and masking; a numpy prototype of the simplest part alone, one draw-mode turn
    of the basic policy (the pile-or-stock choice and the best discard of four) over 100,000 rounds,
    runs at 5–7 million round-turns/s on the development machine: at most 500,000–700,000
    4-player rounds/s before knocks, blitzes and reshuffles (``benchmarks/bench_sim.py --numpy``
    repeats the measurement). The compiled state machine plays whole rounds one after another at
    about 1.3 million rounds/s on one core, reads as a line-by-line mirror of the engine (which makes
    the cross-check meaningful), starts mid-round from a position as easily as from a deal, and
    streams in chunks. The kernels are cached on disk (``cache=True``): the first call on a machine
    compiles them (about half a minute), later processes load them in about a second.

Without numba
    Everything else in :mod:`thirtyone` works on the reference engine; :func:`available` is
    ``False`` and every entry point raises :class:`SimUnavailableError` with a one-line notice
    (``pip install 'thirtyone[fast]'``). :mod:`thirtyone.sim.rng` (the counter generator and its
    :class:`CounterChance`) is pure Python and always importable.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from typing import Any

from thirtyone.rules import Rules
from thirtyone.sim.codes import ENDS
from thirtyone.sim.codes import LOSS_NAMES
from thirtyone.sim.codes import POLICIES
from thirtyone.sim.errors import SimError
from thirtyone.sim.errors import SimInputError
from thirtyone.sim.errors import SimUnavailableError
from thirtyone.sim.errors import UnsupportedRulesError
from thirtyone.sim.rng import CounterChance
from thirtyone.sim.rng import RoundChance

__all__ = [
    "available",
    "unavailable_reason",
    "check_playable",
    "cannot_play",
    "play_rounds",
    "iter_rounds",
    "play_games",
    "iter_games",
    "rollout",
    "RoundBatch",
    "GameBatch",
    "RoundTotals",
    "add_batch",
    "CounterChance",
    "RoundChance",
    "ENDS",
    "LOSS_NAMES",
    "POLICIES",
    "SimError",
    "SimInputError",
    "SimUnavailableError",
    "UnsupportedRulesError",
]

_MISSING: str | None
try:
    import numba  # noqa: F401
    import numpy  # noqa: F401
except ImportError as _error:  # pragma: no cover - exercised in a subprocess by the tests
    _MISSING = f"{_error}"
else:
    _MISSING = None


def available() -> bool:
    """True when numba and numpy are installed, so the compiled simulator can run."""
    return _MISSING is None


def unavailable_reason() -> str:
    """The one-line notice for a user who asks for the simulator without numba ('' when it is available)."""
    if _MISSING is None:
        return ""
    return (
        f"thirtyone.sim needs numba and numpy ({_MISSING}): pip install 'thirtyone[fast]'; "
        "until then play with the reference engine (thirtyone.Game)"
    )


def check_playable(rules: Rules) -> None:
    """Refuse what the compiled simulator cannot play: the one place that says whether (and why
    not) it can play ``rules``.

    Raises:
        SimUnavailableError: without numba and numpy (:func:`unavailable_reason`).
        UnsupportedRulesError: naming the first option (or value) the kernels do not cover.
    """
    if _MISSING is not None:
        raise SimUnavailableError(unavailable_reason())
    from thirtyone.sim.params import check_covered  # imports numpy: only once it is there

    check_covered(rules)


def cannot_play(rules: Rules) -> str:
    """Why the compiled simulator cannot play ``rules``, in one line (what :func:`check_playable`
    would raise), or ``""`` when it can."""
    try:
        check_playable(rules)
    except (SimUnavailableError, UnsupportedRulesError) as error:
        return str(error)
    return ""


if TYPE_CHECKING or _MISSING is None:
    from thirtyone.sim.api import iter_games
    from thirtyone.sim.api import iter_rounds
    from thirtyone.sim.api import play_games
    from thirtyone.sim.api import play_rounds
    from thirtyone.sim.api import rollout
    from thirtyone.sim.results import GameBatch
    from thirtyone.sim.results import RoundBatch
    from thirtyone.sim.results import RoundTotals
    from thirtyone.sim.results import add_batch
else:  # pragma: no cover - exercised in a subprocess by the tests

    def _unavailable(*args: Any, **kwargs: Any) -> Any:
        raise SimUnavailableError(unavailable_reason())

    play_rounds = iter_rounds = play_games = iter_games = rollout = add_batch = _unavailable

    def __getattr__(name: str) -> Any:
        if name in ("RoundBatch", "GameBatch", "RoundTotals"):
            raise SimUnavailableError(unavailable_reason())
        raise AttributeError(f"module 'thirtyone.sim' has no attribute {name!r}")
