"""The settings of one ``thirtyone play`` session, checked before any screen opens.

>>> from thirtyone.rules import Rules
>>> settings = PlaySettings.create(Rules.preset("scat"), players=3, bots="basic,random", seed=7)
>>> settings.bots, settings.seat_names()
(('basic', 'random'), ('you', 'Ada (basic)', 'Bea (random)'))
>>> PlaySettings.create(Rules.preset("scat"), players=4, bots="easy,medium,hard").seat_names()
('you', 'Ada (basic)', 'Bea (heuristic)', 'Cy (expert)')
>>> bot_kind("hard:200"), play_bot_spec("hard"), play_bot_spec("expert:50"), play_bot_spec("easy")
('expert', 'expert:0.4s', 'expert:50', 'easy')
>>> PlaySettings.create(Rules.preset("scat"), players=10)
Traceback (most recent call last):
...
thirtyone.errors.RulesError: R2.1: 10 players cannot play; use 2 to 9 players
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from thirtyone.bots import BOT_NAMES
from thirtyone.bots import LEVELS
from thirtyone.bots import parse_bot_list
from thirtyone.bots.levels import TABLE_EXPERT_SECONDS
from thirtyone.bots.levels import takes_budget
from thirtyone.bots.review import DEFAULT_WORLDS as DEFAULT_REVIEW_WORLDS
from thirtyone.checks import printable
from thirtyone.checks import shows
from thirtyone.errors import ThirtyOneError
from thirtyone.i18n import Messages
from thirtyone.i18n import messages
from thirtyone.record import GameRecord
from thirtyone.rules import OPTIONS
from thirtyone.rules import Rules
from thirtyone.tui.cells import unsure_width

__all__ = [
    "PlayError",
    "TERMINAL_LANGUAGES",
    "PlaySettings",
    "BOT_NAMES",
    "MAX_NAME",
    "MAX_DELAY",
    "DEFAULT_DELAY",
    "MIN_HINT_SECONDS",
    "MAX_HINT_SECONDS",
    "PLAY_EXPERT_SECONDS",
    "bot_kind",
    "shown_name",
    "play_bot_spec",
]

MAX_NAME = 12
"""The longest player name, in characters (it has to fit the 80-column table)."""

MAX_DELAY = 10.0
"""The longest pause between bot moves, in seconds."""

DEFAULT_DELAY = 0.8
"""The pause of a bot's turn without ``--delay``, in seconds."""

MIN_HINT_SECONDS = 0.1
"""The shortest time the expert may think about a hint, in seconds."""
MAX_HINT_SECONDS = 5.0
"""The longest time the expert may think about a hint, in seconds."""

PLAY_EXPERT_SECONDS = TABLE_EXPERT_SECONDS
"""The time an ``expert`` (``hard``) bot named without a budget thinks about each move in the
terminal game, so that the game keeps its pace (``expert:200`` or ``hard:0.8s`` set another): the
registry's :data:`~thirtyone.bots.levels.TABLE_EXPERT_SECONDS`."""


def bot_kind(spec: str) -> str:
    """The kind of bot a ``--bots`` name makes, as the players panel shows it: ``random``,
    ``basic``, ``heuristic`` or ``expert`` (``easy``, ``medium`` and ``hard`` are the last three;
    a budget such as ``expert:200`` is left out)."""
    base = spec.strip().lower().partition(":")[0]
    return LEVELS.get(base, base)


def play_bot_spec(spec: str) -> str:
    """The bot name the terminal game makes a bot from: an ``expert`` (``hard``, ``expert-v1``) without a budget
    gets :data:`PLAY_EXPERT_SECONDS` per move; every other name is kept."""
    if takes_budget(spec) and ":" not in spec:
        return f"{bot_kind(spec)}:{PLAY_EXPERT_SECONDS:g}s"
    return spec


_KIND_WORDS = {
    "basic": "tui.kind.basic",
    "heuristic": "tui.kind.heuristic",
    "expert": "tui.kind.expert",
    "random": "level.random",
}


def _kind_word(kind: str, t: Messages) -> str:
    """A bot kind as the players panel shows it; a kind the catalog does not know (a plugin, a
    ``policy:`` file) keeps its own name."""
    return t(_KIND_WORDS[kind]) if kind in _KIND_WORDS else kind


_WITH_SEAT = re.compile(r"(.+) \(seat ([0-9]+)\)")
_WITH_KIND = re.compile(r"(.+) \(([a-z]+)\)")


def shown_name(name: str, t: Messages) -> str:
    """A seat's name as a record keeps it, in the words of ``t``: records keep the bot's kind and
    the seat in English (``"Ada (basic)"``, ``"heuristic (seat 2)"``, the person's default name
    ``"you"``), and every screen says them in its language.

    >>> german = messages("de")
    >>> shown_name("Ada (basic)", german), shown_name("heuristic (seat 2)", german), shown_name("you", german)
    ('Ada (einfach)', 'heuristisch (Platz 2)', 'du')
    >>> shown_name("Ann (Berlin)", german), shown_name("Ada (basic)", messages("en"))
    ('Ann (Berlin)', 'Ada (basic)')
    """
    if name == "you":
        return t("tui.you")
    seat = _WITH_SEAT.fullmatch(name)
    if seat is not None:
        return t("tui.name_seat", name=_kind_word(seat[1], t), n=t.number(int(seat[2])))
    kind = _WITH_KIND.fullmatch(name)
    if kind is not None and kind[2] in _KIND_WORDS:
        return f"{kind[1]} ({_kind_word(kind[2], t)})"
    return name


TERMINAL_LANGUAGES = ("en", "de", "cs", "ms", "km", "ko")
"""The languages the terminal game's screens are written in (Urdu is the browser's only:
:mod:`thirtyone.tui.language` says why)."""


class PlayError(ThirtyOneError):
    """A bad argument to ``thirtyone play`` (the player's name, the seed, the pacing)."""


@dataclass(frozen=True)
class PlaySettings:
    """Everything a session needs: the rules, the number of players (the person included, in
    seat 0), the bot names of seats 1…n-1, the seed (``None``: unpredictable), whether bots move
    at once (``fast``) or ``delay`` seconds after their turn began (thinking included), where to
    save game records, the person's name, the budget of a hint (``?``): ``hint_seconds`` of
    thinking, or exactly ``hint_worlds`` sampled deals when that is set (repeatable for a seed),
    and the review's at the final standings (``r``): ``review_worlds`` sampled deals a decision
    (:data:`~thirtyone.bots.review.DEFAULT_WORLDS` by default, as ``thirtyone review`` tries them).

    Build one with :meth:`create`, which checks every value.
    """

    rules: Rules
    players: int
    bots: tuple[str, ...]
    seed: int | None = None
    fast: bool = False
    record: Path | None = None
    name: str = "you"
    delay: float = DEFAULT_DELAY
    hint_seconds: float = 0.5
    hint_worlds: int | None = None
    overwrite: bool = False
    notice: str | None = None
    """A line the screen says first (the language asked for is not the game's, :mod:`~thirtyone.tui.language`)."""
    lang: str = "en"
    """The language of the screen (a code of :data:`TERMINAL_LANGUAGES`)."""
    review_worlds: int = DEFAULT_REVIEW_WORLDS
    resume: GameRecord | None = None
    """An unfinished game to go on with as the session's first (``--resume``): its moves are
    played again, the bots' included, before the screen opens
    (:class:`~thirtyone.tui.session.PlaySession`)."""
    history: Path | None = None
    """The folder each finished game is kept in for ``thirtyone stats``
    (:mod:`~thirtyone.tui.history`; ``None``: none kept, ``--no-history``)."""

    @classmethod
    def create(
        cls,
        rules: Rules,
        players: int = 4,
        bots: str = "basic",
        *,
        seed: int | None = None,
        fast: bool = False,
        record: Path | None = None,
        name: str = "you",
        delay: float = DEFAULT_DELAY,
        hint_seconds: float = 0.5,
        hint_worlds: int | None = None,
        overwrite: bool = False,
        notice: str | None = None,
        lang: str = "en",
        review_worlds: int = DEFAULT_REVIEW_WORLDS,
        resume: GameRecord | None = None,
        history: Path | None = None,
    ) -> PlaySettings:
        """Checked settings; ``bots`` is a comma list for seats 1…n-1, the last name repeating.

        Raises:
            RulesError: when the rules cannot be dealt to ``players`` players (R2.1).
            UnknownBotError: for an unknown bot name or more names than bot seats.
            PlayError: for an empty, too long or unprintable name, or one with a character
                terminals draw at different widths (:func:`~thirtyone.tui.cells.unsure_width`), a
                delay outside 0–10 seconds, a hint time outside 0.1–5 seconds, a hint or review
                budget outside 1–1,000,000 deals or a language the terminal game does not speak.
        """
        rules.check_players(players)
        names = parse_bot_list(bots, players - 1)
        clean = " ".join(name.split())
        if not shows(clean):  # spaces alone, a blank braille cell (U+2800), a Hangul filler
            raise PlayError("--name: give a name of at least one character that shows")
        if len(clean) > MAX_NAME:
            raise PlayError(f"--name {clean!r}: use at most {MAX_NAME} characters")
        if not printable(clean):  # an escape sequence would redraw the screen
            raise PlayError("--name: use printable characters only (no control characters or escape sequences)")
        unsure = unsure_width(clean)
        if unsure is not None:  # the players panel's border would move in some terminals
            raise PlayError(
                f"--name {clean!r}: {unsure} is one cell wide in some terminals and two in others; "
                "choose other characters"
            )
        if not 0 <= delay <= MAX_DELAY:
            raise PlayError(f"--delay {delay}: give a pause from 0 to {MAX_DELAY:g} seconds")
        if not MIN_HINT_SECONDS <= hint_seconds <= MAX_HINT_SECONDS:
            raise PlayError(
                f"--hint-seconds {hint_seconds:g}: give {MIN_HINT_SECONDS:g} to {MAX_HINT_SECONDS:g} seconds"
            )
        if hint_worlds is not None and not 1 <= hint_worlds <= 1_000_000:
            raise PlayError(f"hint budget {hint_worlds}: give 1 to 1000000 sampled deals")
        if isinstance(review_worlds, bool) or not isinstance(review_worlds, int) or not 1 <= review_worlds <= 1_000_000:
            raise PlayError(f"review budget {review_worlds!r}: give 1 to 1000000 sampled deals a decision")
        if lang not in TERMINAL_LANGUAGES:
            raise PlayError(f"language {lang!r}: the terminal game speaks {', '.join(TERMINAL_LANGUAGES)}")
        return cls(
            rules,
            players,
            tuple(names),
            seed,
            fast,
            record,
            clean,
            delay,
            hint_seconds,
            hint_worlds,
            overwrite,
            notice,
            lang,
            review_worlds,
            resume,
            history,
        )

    def record_names(self) -> tuple[str, ...]:
        """Each seat's name as the game's record keeps it: the person's, then ``"Ada (basic)"``
        and so on, each bot with its kind (:func:`bot_kind`: ``hard`` is ``expert``) in English
        (:func:`shown_name` says them in another language).

        >>> PlaySettings.create(Rules.preset("scat"), players=3, bots="easy,hard", lang="de").record_names()
        ('you', 'Ada (basic)', 'Bea (expert)')
        """
        taken = self.name.split(" (", 1)[0].lower()
        friendly = [name for name in BOT_NAMES if name.lower() != taken]
        return (self.name, *(f"{friendly[i]} ({bot_kind(bot)})" for i, bot in enumerate(self.bots)))

    def seat_names(self, t: Messages | None = None) -> tuple[str, ...]:
        """The name shown for each seat (:meth:`record_names`, :func:`shown_name`), in the
        language of ``t`` (the settings' own by default): the default name "you" and the kinds
        are translated.

        >>> PlaySettings.create(Rules.preset("scat"), players=3, bots="easy,hard", lang="de").seat_names()
        ('du', 'Ada (einfach)', 'Bea (Experte)')
        """
        t = t if t is not None else messages(self.lang)
        return tuple(shown_name(name, t) for name in self.record_names())

    def deal_again(self, seed: int) -> str:
        """The options of ``thirtyone play`` that deal the game of ``seed`` again at this table:
        the rules (the preset and the options that differ from it), the players and the bots
        where they are not the defaults, and the seed; each option joined to its value with ``=``
        so that a line wraps only between options.

        >>> rules = Rules.preset("schwimmen", lives=5)
        >>> PlaySettings.create(rules, players=3, bots="hard,easy").deal_again(11)
        '--preset=schwimmen --lives=5 --players=3 --bots=hard,easy --seed=11'
        >>> PlaySettings.create(Rules.preset("scat")).deal_again(4)
        '--seed=4'
        """
        preset, differ = self.rules.nearest_preset()
        parts = [] if preset == "scat" else [f"--preset={preset}"]
        for name, value in differ.items():
            flag = name.replace("_", "-")
            if OPTIONS[name].kind == "bool":
                parts.append(f"--{flag}" if value else f"--no-{flag}")
            else:
                parts.append(f"--{flag}={OPTIONS[name].format(value)}")
        if self.players != 4:
            parts.append(f"--players={self.players}")
        bots = list(self.bots)
        while len(bots) > 1 and bots[-1] == bots[-2]:  # the last name repeats for the seats after it
            bots.pop()
        if bots != ["basic"]:
            parts.append(f"--bots={','.join(bots)}")
        return " ".join([*parts, f"--seed={seed}"])

    def record_path(self, game_number: int) -> Path | None:
        """Where the ``game_number``-th game of the session (from 1) is saved: ``record`` for the
        first, then the same name with ``-2``, ``-3``, … before its extension (``g1.toml``,
        ``g1-2.toml``, ``g1-3.toml``); ``None`` without ``record``.

        >>> settings = PlaySettings.create(Rules.preset("scat"), record=Path("games/g1.toml"))
        >>> [str(settings.record_path(n)) for n in (1, 2, 3)]
        ['games/g1.toml', 'games/g1-2.toml', 'games/g1-3.toml']
        """
        if self.record is None:
            return None
        if game_number == 1:
            return self.record
        return self.record.with_name(f"{self.record.stem}-{game_number}{self.record.suffix}")
