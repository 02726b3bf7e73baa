"""What ``thirtyone analyze`` is asked (:mod:`thirtyone.arena.odds`): the sizes of its simulated
sections and the strong player of its knocks (:class:`Sizes`, :func:`knocks_bot`), the charts it
may write, and the error bad input raises. Free of numpy, so that the command line can offer and
check them without it (but for naming the judge, which reads its weights).

>>> Sizes(rounds=0).rounds, Sizes().expert
(0, None)
>>> Sizes().at_table(Rules.preset("namu"), 4)[0].expert
'expert:100'
>>> check_size("games", -1)
Traceback (most recent call last):
thirtyone.arena.odds_options.OddsError: games -1: give a whole number from 0 (skip it) to 10,000,000
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import replace

from thirtyone.bots import make_bot
from thirtyone.bots.base import table_refusal
from thirtyone.bots.levels import resolve
from thirtyone.bots.levels import takes_budget
from thirtyone.errors import ThirtyOneError
from thirtyone.rules import Rules

__all__ = [
    "SIZES",
    "CHART_FILES",
    "JUDGE",
    "FALLBACK",
    "JUDGE_ROUNDS",
    "EXPERT_ROUNDS",
    "Sizes",
    "OddsError",
    "check_size",
    "check_expert",
    "knocks_bot",
]

JUDGE = "judge"
"""The knocks' player by default: the learned judge, where it plays the table."""
FALLBACK = "expert:100"
"""The knocks' player by default where the judge does not play the table (100 sampled worlds a
decision: the same moves for a seed)."""
JUDGE_ROUNDS = {"draw": 350, "widow": 1_000}
"""The knocks' rounds by default with the judge, by mode: most of its time goes to its exact last
turns after a knock, dearer in draw mode (every card a stock draw may give is counted)."""
EXPERT_ROUNDS = 60
"""The knocks' rounds by default with an expert (a search in Python, 5 to 10 times slower a round
than the judge). With these, each preset's default run takes under a minute of one core."""

SIZES: dict[str, tuple[int, str]] = {
    "deals": (100_000_000, "tables dealt for each number of players from 3 up (the lowest hand)"),
    "rounds": (100_000_000, "rounds of the heuristic (its knocks, the seats' lives, a round's length)"),
    "positions": (10_000_000, "positions of the heuristic's play valued after both moves (the visible card or not)"),
    "games": (10_000_000, "whole games of the heuristic (the win share by seat, a game's length)"),
    "expert_rounds": (1_000_000, "rounds with the judge or the expert in every seat (its knocks)"),
}
"""Each size of :class:`Sizes`: its largest value and what it counts (0 skips its section)."""

CHART_FILES = (
    "hand-values.svg",
    "lowest.svg",
    "knocks-heuristic.svg",
    "knocks-expert.svg",
    "draws.svg",
    "seats.svg",
    "length.svg",
)
"""Every file :func:`thirtyone.arena.odds_charts.write_charts` may write, in the order of the analysis's sections."""


class OddsError(ThirtyOneError):
    """Bad input to the analysis: a size or seed out of range, a bot that is neither the judge nor
    an expert (or cannot play the table), a number of players the deck cannot deal."""


def check_size(name: str, value: object, flag: str | None = None) -> int:
    """``value`` as the size ``name`` of :data:`SIZES`, named ``flag`` in the error (by default the
    name, ``expert-rounds``).

    Raises:
        OddsError: for something that is not a whole number from 0 to the size's largest.
    """
    high, _ = SIZES[name]
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
        shown = flag or name.replace("_", "-")
        raise OddsError(f"{shown} {value!r}: give a whole number from 0 (skip it) to {high:,}")
    return value


def check_expert(name: object, flag: str = "expert") -> str:
    """``name`` when it names the judge (``judge``, ``judge:PATH``: weights it can read) or an expert
    with a budget the bots accept (``expert:100``, ``hard:0.1s``), named ``flag`` in the error.

    Raises:
        OddsError: for a bot that is neither, a bad budget (its limits named) or weights the judge
            cannot read.
    """
    if not isinstance(name, str) or not (takes_budget(name) or resolve(name) == JUDGE):
        raise OddsError(
            f"{flag} {name!r}: give the judge (judge, or judge:PATH for weights of your own) or an expert "
            "and its budget, such as expert:100 or expert:0.05s"
        )
    try:
        make_bot(name, 0)
    except ThirtyOneError as error:
        raise OddsError(f"{flag} {name!r}: {error}") from None
    return name


def knocks_bot(name: str | None, rules: Rules, players: int, flag: str = "expert") -> tuple[str, str | None]:
    """The bot that plays the knocks at a table of ``players`` of ``rules``, and why not the judge
    (``None`` where it plays or a bot was named): the bot ``name`` (checked by :func:`check_expert`),
    else (``None``) the judge where it plays the table and :data:`FALLBACK` where it does not.

    Raises:
        OddsError: for a bad ``name``, or one that cannot play the table (named ``flag``).
    """
    if name is None:
        refusal = table_refusal(make_bot(JUDGE, 0), rules, players)
        return (JUDGE, None) if refusal is None else (FALLBACK, refusal)
    refusal = table_refusal(make_bot(check_expert(name, flag), 0), rules, players)
    if refusal is not None:
        raise OddsError(f"{flag} {name}: {refusal}; or leave {flag} out: the judge where it plays, else {FALLBACK}")
    return name, None


@dataclass(frozen=True)
class Sizes:
    """How much each simulated section plays (see :data:`SIZES`; 0 skips it) and the bot in every
    seat of the ``expert`` section (its knocks): the judge (``judge``, ``judge:PATH``) or an expert
    with its budget (``expert:100``: 100 sampled worlds a decision, the same moves for the same
    seed; a time budget such as ``expert:0.05s`` is not repeatable). ``expert=None`` lets the
    table choose and ``expert_rounds=None`` the bot (:meth:`at_table`).

    Raises:
        OddsError: for a size out of range or a bad bot (:func:`check_size`, :func:`check_expert`).
    """

    deals: int = 200_000
    rounds: int = 1_000_000
    positions: int = 20_000
    games: int = 100_000
    expert_rounds: int | None = None
    expert: str | None = None

    def __post_init__(self) -> None:
        for name in SIZES:
            if getattr(self, name) is not None:
                check_size(name, getattr(self, name))
        if self.expert is not None:
            check_expert(self.expert)

    def at_table(self, rules: Rules, players: int) -> tuple[Sizes, str | None]:
        """These sizes with the knocks' bot chosen for a table of ``players`` of ``rules``
        (:func:`knocks_bot`) and their rounds (unless given: :data:`JUDGE_ROUNDS` of the rules' mode
        for the judge, :data:`EXPERT_ROUNDS` for an expert), and why the judge does not play them
        (``None`` where it does or a bot was named).

        Raises:
            OddsError: for a named bot that cannot play the table.
        """
        bot, fallback = knocks_bot(self.expert, rules, players)
        rounds = self.expert_rounds
        if rounds is None:
            rounds = JUDGE_ROUNDS[rules.mode] if resolve(bot) == JUDGE else EXPERT_ROUNDS
        return replace(self, expert=bot, expert_rounds=rounds), fallback
