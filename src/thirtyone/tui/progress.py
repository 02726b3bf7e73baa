"""Your progress over the games of your history (:mod:`thirtyone.tui.history`), in figures and in
words: what ``thirtyone stats`` prints.

Each kept game (:class:`KeptGame`) is read from its record replayed (every action and result
checked): your place, whether you won, the rounds you were dealt in and the lives you lost, as
:class:`~thirtyone.totals.GameTotals` counts them for seat 0 (yours), and the review of your
decisions when one was made (:class:`~thirtyone.tui.history.Reviewed`). :func:`by_table` sums
them by preset (the nearest preset of the game's rules) and table size; :func:`tables_table`
and :func:`games_table` write them in the reader's language, every word from the catalog's
``stats.*`` messages.

>>> from thirtyone.engine import Game
>>> from thirtyone.record import GameRecord
>>> from thirtyone.rules import Rules
>>> game = Game(Rules.preset("scat", lives=1), players=2, seed=3)
>>> while not game.is_over:
...     _ = game.apply(game.legal_actions()[0])
>>> kept = kept_game(Path("g.toml"), GameRecord.from_game(game, ["you", "Ada (basic)"], event="thirtyone play"))
>>> kept.preset, kept.players, kept.you.games, kept.you.rounds_played >= 1
('scat', 2, 1, True)
>>> [(row.preset, row.players, row.totals.games) for row in by_table([kept, kept])]
[('scat', 2, 2)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from dataclasses import replace
from pathlib import Path

from rich import box
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from thirtyone.checks import escaped
from thirtyone.errors import RecordError
from thirtyone.i18n import Messages
from thirtyone.record import GameRecord
from thirtyone.totals import GameTotals
from thirtyone.totals import SeatTotals
from thirtyone.tui.history import YOU
from thirtyone.tui.history import Reviewed
from thirtyone.tui.review_text import lives_text

__all__ = [
    "EVENT",
    "KeptGame",
    "TableRow",
    "kept_game",
    "by_table",
    "tables_table",
    "games_table",
    "progress_lines",
    "progress_label",
    "skipped_line",
    "chart_line",
]

EVENT = "thirtyone play"
"""The ``event`` of the records the terminal game writes (:mod:`thirtyone.tui.autosave`)."""


@dataclass(frozen=True, slots=True)
class KeptGame:
    """One finished game of your history: its file ``path``, the ``date`` its record gives
    (ISO, or ``""``), its ``preset`` (the nearest preset of its rules), the number of ``players``,
    your results (``you``: one game's :class:`~thirtyone.totals.SeatTotals`: place, won, rounds
    dealt in, lives lost), its ``record`` and the ``review`` of your decisions (``None`` when not reviewed)."""

    path: Path
    date: str
    preset: str
    players: int
    you: SeatTotals
    record: GameRecord = field(repr=False)
    review: Reviewed | None = None

    @property
    def place(self) -> int:
        """Your place (1: you won)."""
        return next(iter(self.you.places))

    def reviewed(self, review: Reviewed) -> KeptGame:
        """This game with ``review``."""
        return replace(self, review=review)


def kept_game(path: Path, record: GameRecord) -> KeptGame:
    """The kept game of ``record`` (read from ``path``), replayed.

    Raises:
        RecordError: for a record that does not replay, or that is not a finished game of the
            terminal game (its ``event`` is not :data:`EVENT`, or it has no winner).
    """
    if record.event != EVENT:
        raise RecordError(f"not a game of {EVENT} (its event is {record.event!r})")
    if record.winner is None:
        raise RecordError("an unfinished game")
    game = record.replay()
    totals = GameTotals(game.rules, record.seats)
    totals.add_game(game)
    preset = game.rules.nearest_preset()[0]
    return KeptGame(path, record.date or "", preset, game.players, totals.seats[YOU], record)


@dataclass(frozen=True, slots=True)
class TableRow:
    """Your games at one kind of table: the ``preset`` and the number of ``players``, and your
    results there summed (``totals``: games, wins, places, rounds dealt in, lives lost)."""

    preset: str
    players: int
    totals: SeatTotals

    @property
    def lives_a_round(self) -> float:
        """The lives you lost a round you were dealt in (0.0 before any round)."""
        return self.totals.lives_lost / self.totals.rounds_played if self.totals.rounds_played else 0.0


def by_table(games: Sequence[KeptGame]) -> list[TableRow]:
    """Your results summed by preset and table size, in the order of the presets' names, then
    of the table sizes."""
    rows: dict[tuple[str, int], SeatTotals] = {}
    for game in games:
        rows.setdefault((game.preset, game.players), SeatTotals(YOU, "you")).merge(game.you)
    return [TableRow(preset, players, totals) for (preset, players), totals in sorted(rows.items())]


def _table(t: Messages, title: str, columns: Sequence[tuple[str, str]]) -> Table:
    table = Table(title=title, title_justify="left", title_style="bold", box=box.SIMPLE_HEAD, pad_edge=False)
    for key, justify in columns:
        table.add_column(t(key), justify=justify)  # type: ignore[arg-type]
    return table


def tables_table(t: Messages, rows: Sequence[TableRow]) -> Table:
    """Your games, wins (and their share), average place and lives lost a round, a row for each
    preset and table size."""
    table = _table(
        t,
        t("stats.by_table"),
        [
            ("stats.column.preset", "left"),
            ("stats.column.players", "right"),
            ("stats.column.games", "right"),
            ("stats.column.wins", "right"),
            ("stats.column.place", "right"),
            ("stats.column.lives", "right"),
        ],
    )
    for row in rows:
        totals = row.totals
        table.add_row(
            row.preset,
            t.number(row.players),
            t.number(totals.games),
            t("stats.wins", wins=t.number(totals.wins), share=t.percent(totals.wins / totals.games)),
            lives_text(totals.mean_place, t),  # two decimals, as the language writes them
            lives_text(row.lives_a_round, t),
        )
    return table


def games_table(t: Messages, games: Sequence[KeptGame], *, first: int = 1, accuracy: bool = True) -> Table:
    """Your games one a row, numbered from ``first`` in the order played: the date, preset,
    players, your place and, with ``accuracy``, the review's accuracy and blunders (``–`` for a
    game not reviewed or without decisions)."""
    columns = [
        ("stats.column.number", "right"),
        ("stats.column.date", "left"),
        ("stats.column.preset", "left"),
        ("stats.column.players", "right"),
        ("stats.column.your_place", "right"),
    ]
    if accuracy:
        columns += [("stats.column.accuracy", "right"), ("stats.column.blunders", "right")]
    table = _table(t, t("stats.by_game"), columns)
    for number, game in enumerate(games, start=first):
        cells = [t.number(number), escaped(game.date), game.preset, t.number(game.players), t.number(game.place)]
        if accuracy:
            review = game.review
            shown = None if review is None else review.accuracy
            cells.append("–" if shown is None else t.percent(shown))
            cells.append("–" if review is None else t.number(review.blunders))
        table.add_row(*cells)
    return table


def progress_lines(
    t: Messages, folder: Path, games: Sequence[KeptGame], *, last: int, accuracy: bool
) -> list[RenderableType]:
    """What ``thirtyone stats`` prints of the ``games`` kept in ``folder``: a heading, your results
    by preset and table size (:func:`tables_table`) and your ``last`` games one a row
    (:func:`games_table`, with the review's figures when ``accuracy``); with no game, how to
    get some."""
    shown = escaped(str(folder))
    if not games:
        return [Text(t("stats.empty", folder=shown))]
    latest = games[-last:]
    return [
        Text(t.plural("stats.heading", len(games), folder=shown)),
        tables_table(t, by_table(games)),
        games_table(t, latest, first=len(games) - len(latest) + 1, accuracy=accuracy),
    ]


def progress_label(t: Messages) -> str:
    """The label of the reviews' progress bar: ``Reviewing your games``."""
    return t("stats.progress")


def skipped_line(t: Messages, reason: str) -> str:
    """The line that says a file of the history was skipped: ``Skipped: PATH: why`` (``reason``
    names the file and why, in the library's words)."""
    return escaped(t("stats.skipped", reason=reason))


def chart_line(t: Messages, path: Path) -> str:
    """The line that says where the chart was saved."""
    return t("stats.chart_saved", path=escaped(str(path)))
