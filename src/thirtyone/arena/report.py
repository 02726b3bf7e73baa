"""Arena reports: the rich table and progress bar, and the files of ``--out DIR``.

Files (every number in them depends only on the arena's seed and arguments, never on the backend,
the number of workers or the time taken):

- ``games.csv``: one row per game in ``(deal, rotation)`` order: ``deal``, ``rotation``, ``seed``
  (the deal's seed), ``bot_0`` … (the bot in each seat), ``place_0`` … (each seat's place, 1 =
  won; empty for a failed game), ``rounds``, ``failed`` (0 or 1) and ``failure`` (what failed).
- ``summary.csv``: one row per bot name, best rating first, the columns of :data:`SUMMARY_COLUMNS`.
- ``summary.json``: :func:`summary_dict`: the run, the rows of ``summary.csv`` under ``results``
  and the failures.
- ``win_share.png``: each bot's win share with its 95% interval and its fair share.
- ``failed/deal-DDDDDD-rotation-R.toml``: the record of each failed game (replayable with
  ``thirtyone replay``).
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import IO
from typing import Any

from rich import box
from rich.cells import cell_len
from rich.console import Console
from rich.console import ConsoleOptions
from rich.console import Group
from rich.console import RenderableType
from rich.console import RenderResult
from rich.measure import Measurement
from rich.progress import BarColumn
from rich.progress import MofNCompleteColumn
from rich.progress import Progress
from rich.progress import TextColumn
from rich.progress import TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from thirtyone.arena.play import Failure
from thirtyone.arena.play import GameResult
from thirtyone.arena.schedule import GameKey
from thirtyone.arena.stats import Summary

__all__ = [
    "RunInfo",
    "FailureRecords",
    "GamesWriter",
    "SUMMARY_COLUMNS",
    "summary_dict",
    "render",
    "progress_bar",
    "write_summary",
    "plot_win_share",
    "failure_record_name",
    "failed_games_line",
    "speed_text",
]

_TIME_BUDGET = re.compile(r":\s*[0-9.]+\s*s$")
"""A bot name with a budget in seconds (``expert:0.5s``)."""

SUMMARY_COLUMNS = (
    "bot",
    "seats",
    "games",
    "wins",
    "win_share",
    "win_share_low",
    "win_share_high",
    "fair_share",
    "mean_place",
    "rounds_played",
    "lives_lost",
    "lives_per_round",
    "knocks",
    "knocks_lost",
    "knock_loss_share",
    "failed",
    "mu",
    "sigma",
    "ordinal",
)
"""The columns of ``summary.csv`` (and the keys of each ``results`` entry of ``summary.json``)."""


@dataclass(frozen=True)
class RunInfo:
    """What a report says about the run besides the statistics: the rules (``describe()`` text),
    the arena ``seed``, and how it stopped early (``stopped``: ``None`` when it did not)."""

    rules: str
    seed: int
    stopped: str | None = None
    engine: str = "reference"


def failure_record_name(key: GameKey) -> str:
    """The file name of a failed game's record: ``deal-000012-rotation-2.toml``."""
    return f"deal-{key[0]:06d}-rotation-{key[1]}.toml"


class FailureRecords:
    """Writes each failed game's record into ``directory`` (created at the first failure) and
    remembers where: ``paths[(deal, rotation)]``."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.paths: dict[GameKey, Path] = {}

    def add(self, result: GameResult) -> None:
        """Save the record of ``result`` if it failed."""
        if result.failure is None:
            return
        self.paths[result.key] = self.save(failure_record_name(result.key), result.failure)

    def save(self, name: str, failure: Failure) -> Path:
        """Write the record of ``failure`` as ``name`` in the directory (made if missing); its path."""
        self.directory.mkdir(parents=True, exist_ok=True)
        path = self.directory / name
        path.write_text(failure.record, encoding="utf-8")
        return path


class GamesWriter:
    """Writes ``games.csv`` row by row (results in ``(deal, rotation)`` order); a context manager."""

    def __init__(self, path: Path, players: int) -> None:
        self._file: IO[str] = path.open("w", newline="", encoding="utf-8")
        self._csv = csv.writer(self._file)
        self._csv.writerow(
            [
                "deal",
                "rotation",
                "seed",
                *(f"bot_{seat}" for seat in range(players)),
                *(f"place_{seat}" for seat in range(players)),
                "rounds",
                "failed",
                "failure",
            ]
        )

    def add(self, result: GameResult) -> None:
        """Write one game's row."""
        places = [str(place) for place in result.places] if result.places is not None else [""] * len(result.bots)
        failure = result.failure
        self._csv.writerow(
            [
                result.deal,
                result.rotation,
                result.seed,
                *result.bots,
                *places,
                result.rounds,
                int(failure is not None),
                failure.error if failure is not None else "",
            ]
        )

    def close(self) -> None:
        """Finish the file."""
        self._file.close()

    def __enter__(self) -> GamesWriter:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()


def summary_dict(summary: Summary, info: RunInfo, records: dict[GameKey, Path] | None = None) -> dict[str, Any]:
    """The run and its statistics as plain data (``summary.json`` and ``--json``).

    Keys: ``engine`` (``reference`` or ``sim``), ``partial``, ``stopped``, ``rules``, ``players``,
    ``bots`` (by seat, rotation 0), ``seed``,
    ``games_requested``, ``games_scheduled``, ``deals``, ``rotations``, ``games_played``,
    ``games_finished``, ``games_failed``, ``results`` (one dict per bot name with the keys of
    :data:`SUMMARY_COLUMNS`, best rating first) and ``failures`` (``deal``, ``rotation``, ``seat``,
    ``bot``, ``action``, ``error`` and ``record``: the saved record's path or ``None``).
    """
    schedule = summary.schedule
    records = records or {}
    return {
        "engine": info.engine,
        "partial": summary.partial,
        "stopped": info.stopped,
        "rules": info.rules,
        "players": schedule.seats,
        "bots": list(schedule.bots),
        "seed": info.seed,
        "games_requested": schedule.requested,
        "games_scheduled": schedule.games,
        "deals": schedule.deals,
        "rotations": schedule.rotations,
        "games_played": summary.played,
        "games_finished": summary.finished,
        "games_failed": summary.failed,
        "results": [bot.to_dict() for bot in summary.bots],
        "failures": [
            {
                "deal": key[0],
                "rotation": key[1],
                "seat": failure.seat,
                "bot": failure.bot,
                "action": failure.action,
                "error": failure.error,
                "record": str(records[key]) if key in records else None,
            }
            for key, failure in summary.failures
        ],
    }


def _describe_run(summary: Summary, info: RunInfo) -> list[Text]:
    schedule = summary.schedule
    n = schedule.seats
    lines = [
        Text.from_markup(
            f"[bold]Arena[/]: {schedule.games:,} games ({schedule.deals:,} deal{'s' if schedule.deals != 1 else ''} "
            f"× {n} seatings) of "
            f"{info.rules} with {n} players, seed {info.seed}"
        ),
        Text(f"bots by seat: {', '.join(schedule.bots)}; every bot plays every seat on the same cards"),
        Text(f"played by the {'compiled simulator' if info.engine == 'sim' else 'reference engine'}"),
    ]
    if schedule.rounded_up:
        lines.append(
            Text(
                f"--games {schedule.requested:,} was rounded up to {schedule.games:,}, a multiple of the "
                f"{n} players, so that each deal is played in every seating"
            )
        )
    timed = [name for name in schedule.names if _TIME_BUDGET.search(name)]
    if timed:
        lines.append(
            Text(
                f"note: {', '.join(timed)} {'has' if len(timed) == 1 else 'have'} a time budget, so "
                "moves depend on the machine's speed: the same seed may not give the same results",
                style="yellow",
            )
        )
    if summary.partial:
        why = f" ({info.stopped})" if info.stopped else ""
        lines.append(
            Text.from_markup(
                f"[bold red]PARTIAL RESULTS[/]: {summary.played:,} of {schedule.games:,} games played{why}"
            )
        )
    return lines


def render(summary: Summary, info: RunInfo, records: dict[GameKey, Path] | None = None) -> RenderableType:
    """The report for a terminal: what was played, the results table (best rating first) and the failures."""
    records = records or {}
    results = _table(
        f"Results by bot ({summary.finished:,} games finished, {summary.failed:,} failed), best rating first",
        ("bot", "seats", "won", "share", "95% CI", "fair", "place", "μ ± σ", "ordinal"),
    )
    play = _table(
        "Play by bot",
        ("bot", "rounds", "lives lost", "per round", "knocks", "cost lives", "failed games"),
    )
    for bot in summary.bots:
        low, high = bot.win_interval
        verdict = "green" if low > bot.fair_share else "red" if high < bot.fair_share else ""
        results.add_row(
            bot.name,
            str(bot.seats),
            f"{bot.wins:,}",
            Text(f"{bot.win_share:.1%}", style=verdict),
            Text(f"{100 * low:.1f}–{100 * high:.1f}", style=verdict),
            f"{bot.fair_share:.1%}",
            f"{bot.mean_place:.2f}",
            f"{bot.rating.mu:.1f} ± {bot.rating.sigma:.1f}",
            f"{bot.rating.ordinal:.1f}",
        )
        play.add_row(
            bot.name,
            f"{bot.rounds_played:,}",
            f"{bot.lives_lost:,}",
            f"{bot.lives_per_round:.3f}",
            f"{bot.knocks:,}",
            f"{bot.knock_loss_share:.1%}",
            f"{bot.failed:,}",
        )
    names = [bot.name for bot in summary.bots]
    parts: list[RenderableType] = [*_describe_run(summary, info), _NamesWhole(results, names), Text("")]
    parts.append(
        Text(
            "share: games won / games finished, with its 95% Wilson interval in % (green: above the fair "
            "share, red: below); fair: seats / players; place: mean finishing place; μ ± σ: openskill "
            "Plackett-Luce rating of one of its seats (each seat-player rated by its places, a bot's "
            "seat-players pooled), ordinal μ − 3σ",
            style="dim",
        )
    )
    parts += [_NamesWhole(play, names), Text("")]
    parts.append(
        Text(
            "rounds: rounds its seats were dealt in; cost lives: the share of its knocks after which it lost lives",
            style="dim",
        )
    )
    for key, failure in summary.failures[:10]:
        where = f"; record: {records[key]}" if key in records else ""
        parts.append(Text(f"failed: deal {key[0]}, rotation {key[1]}: {failure.error}{where}", style="yellow"))
    if summary.failed > 10:
        parts.append(Text(f"… and {summary.failed - 10:,} more failed games", style="yellow"))
    return Group(*parts)


def speed_text(games: int, seconds: float) -> str:
    """How fast ``games`` games were played in ``seconds``: games per second from one a second
    up, else seconds per game (a rate below one would round to "0 games/s").

    >>> speed_text(20, 638.7), speed_text(4, 1.2), speed_text(100_000, 20.0)
    ('31.9 s/game', '3.3 games/s', '5,000 games/s')
    """
    if seconds <= 0 or games <= 0:
        return "no measurable time"
    rate = games / seconds
    if rate < 1:
        return f"{seconds / games:,.1f} s/game"
    return f"{rate:,.0f} games/s" if rate >= 100 else f"{rate:.1f} games/s"


def failed_games_line(failed: int, played: int, first: str, failure: Failure, record: Path | None) -> str:
    """The line that ends a run in which ``failed`` of ``played`` games failed, naming the first
    (``first`` says which game, ``record`` where its record is): ``thirtyone: error: 2 of 12
    games failed; the first, deal 0, rotation 1: bot x in seat 0 raised …; record: failed/….toml``."""
    where = f"; record: {record}" if record is not None else ""
    return f"thirtyone: error: {failed:,} of {played:,} games failed; the first, {first}: {failure.error}{where}"


class _NamesWhole:
    """A table whose first column, the bot names, is as wide as its longest name whenever the
    table fits the console that way (rich narrows that column first, and folds a name it could
    have shown whole: ``greedy_bot:ma`` over ``ke_bot``); a name too long for any room left folds."""

    def __init__(self, table: Table, names: list[str]) -> None:
        self.table = table
        self.longest = max((cell_len(name) for name in names), default=0)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        column = self.table.columns[0]
        column.min_width = None
        natural = Measurement.get(console, options.update_width(10_000), self.table).maximum  # each at its widest
        column.min_width = max(self.longest - max(natural - options.max_width, 0), cell_len(str(column.header)))
        yield self.table


def _table(title: str, columns: tuple[str, ...]) -> Table:
    # one space between columns and none at the edges: a name such as greedy_bot:make_bot and
    # the eight numbers of a row fit 80 columns
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, show_edge=False, padding=(0, 0))
    for column in columns:
        if column == "bot":  # a long name wraps whole, never cut (policy:/runs/a.npz, policy:/runs/b.npz)
            table.add_column(column, justify="left", overflow="fold")
        else:
            table.add_column(column, justify="right")
    return table


@contextmanager
def progress_bar(console: Console, total: int, disable: bool = False, label: str = "arena") -> Iterator[Any]:
    """A transient progress bar of ``total`` games, headed ``label``, shown only on a terminal
    (elsewhere rich would leave a blank line); yields ``advance(n)``."""
    with Progress(
        TextColumn(f"[bold]{label}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=disable or not console.is_terminal,
    ) as progress:
        task = progress.add_task("games", total=total)

        def advance(count: int) -> None:
            progress.advance(task, count)

        yield advance


def write_summary(
    directory: Path, summary: Summary, info: RunInfo, records: dict[GameKey, Path] | None = None
) -> list[Path]:
    """Write ``summary.csv``, ``summary.json`` and ``win_share.png`` into ``directory`` (which
    must exist); returns their paths.

    Raises:
        OSError: when a file cannot be written.
    """
    data = summary_dict(summary, info, records)
    csv_path = directory / "summary.csv"
    with csv_path.open("w", newline="", encoding="utf-8") as file:
        writer = csv.DictWriter(file, fieldnames=SUMMARY_COLUMNS)
        writer.writeheader()
        writer.writerows(data["results"])
    json_path = directory / "summary.json"
    json_path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    png_path = directory / "win_share.png"
    plot_win_share(png_path, summary, info)
    return [csv_path, json_path, png_path]


def plot_win_share(path: Path, summary: Summary, info: RunInfo) -> None:
    """A bar chart (PNG, matplotlib's Agg renderer) of each bot's win share, best rating first,
    with 95% Wilson error bars and a dashed mark at its fair share."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    bots = summary.bots
    figure = Figure(figsize=(max(4.0, 1.2 * len(bots) + 2), 4.0), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    positions = list(range(len(bots)))
    shares = [bot.win_share for bot in bots]
    intervals = [bot.win_interval for bot in bots]
    errors = [
        [max(0.0, share - low) for share, (low, _) in zip(shares, intervals, strict=True)],
        [max(0.0, high - share) for share, (_, high) in zip(shares, intervals, strict=True)],
    ]
    axes.bar(positions, shares, yerr=errors, capsize=6, color="#4c72b0", label="win share (95% CI)")
    axes.hlines(
        [bot.fair_share for bot in bots],
        [x - 0.45 for x in positions],
        [x + 0.45 for x in positions],
        colors="#c44e52",
        linestyles="dashed",
        label="fair share",
    )
    for x, share in zip(positions, shares, strict=True):
        axes.annotate(f"{share:.1%}", (x, share), xytext=(4, 3), textcoords="offset points", fontsize=8)
    players = summary.schedule.seats
    axes.set_xticks(positions, [f"{bot.name}\n{bot.seats} of {players} seats" for bot in bots])
    axes.set_ylim(0, 1.15)
    axes.set_yticks([0, 0.2, 0.4, 0.6, 0.8, 1.0])
    axes.set_ylabel("share of games won")
    title = f"{summary.finished:,} games of {info.rules}, {players} players, seed {info.seed}"
    axes.set_title(title + (" (PARTIAL)" if summary.partial else ""), fontsize=10)
    axes.legend(loc="upper center", ncols=2, fontsize=8, frameon=False)
    figure.tight_layout()
    figure.savefig(path, format="png")
