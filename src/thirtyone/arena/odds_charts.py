"""Charts of an :class:`~thirtyone.arena.odds.Analysis` as SVG files (matplotlib, no display).

The files are made to be committed (docs/odds.md shows them): the same analysis writes the same
bytes (no date in the metadata, element ids from a fixed salt) and the text stays text
(``svg.fonttype = none``), so a chart is a few tens of kilobytes. Every title says whether its
figures are exact or simulated, and how many trials they rest on; simulated figures carry their
95% intervals. A chart of a section not run is not written; a partial run's charts say PARTIAL
in their titles.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from thirtyone.arena.odds import Analysis
from thirtyone.arena.odds_cards import HandValues
from thirtyone.arena.odds_cards import Lowest
from thirtyone.arena.odds_measures import MIN_CELL
from thirtyone.arena.odds_measures import points
from thirtyone.arena.odds_play import TURNS
from thirtyone.arena.odds_play import DrawTable
from thirtyone.arena.odds_play import KnockTable

__all__ = ["write_charts"]


_BLUE, _RED, _ORANGE, _GREY = "#4c72b0", "#c44e52", "#dd8452", "#555555"

Draw = Callable[[Any], None]  # draws on a figure (matplotlib's Figure)


def write_charts(analysis: Analysis, folder: Path) -> list[Path]:
    """Write the charts of every section ``analysis`` holds figures of into ``folder`` (which must
    exist; files of the same names are replaced) and return their paths, in the order of
    :data:`thirtyone.arena.odds_options.CHART_FILES`.

    Raises:
        OSError: when a file cannot be written.
    """
    import matplotlib

    title = f"{analysis.rules.describe()}, {analysis.players} players, seed {analysis.seed}"
    title += " (PARTIAL: the run was stopped)" if analysis.partial else ""
    charts: list[tuple[str, Draw]] = []
    hands, lowest, draws = analysis.hands, analysis.lowest, analysis.draws
    if hands is not None:
        charts.append(("hand-values.svg", lambda figure: _hand_values(figure, hands, analysis.players)))
    if lowest is not None:
        charts.append(("lowest.svg", lambda figure: _lowest(figure, lowest)))
    heuristic, expert = analysis.heuristic, analysis.expert
    if heuristic is not None and heuristic.knocks.any():
        charts.append(("knocks-heuristic.svg", lambda figure: _knocks(figure, heuristic, "the heuristic (simulator)")))
    if expert is not None and expert.knocks.any():
        charts.append(
            ("knocks-expert.svg", lambda figure: _knocks(figure, expert, f"{analysis.sizes.expert} (engine)"))
        )
    if draws is not None and draws.positions.any():
        charts.append(("draws.svg", lambda figure: _draws(figure, draws)))
    if analysis.seats.rounds or analysis.seats.games:
        charts.append(("seats.svg", lambda figure: _seats(figure, analysis)))
    if analysis.seats.games:
        charts.append(("length.svg", lambda figure: _length(figure, analysis)))
    written = []
    with matplotlib.rc_context({"svg.hashsalt": "thirtyone", "svg.fonttype": "none", "font.size": 9}):
        for name, draw in charts:
            path = folder / name
            _save(path, title, draw)
            written.append(path)
    return written


def _save(path: Path, title: str, draw: Draw) -> None:
    from matplotlib.backends.backend_svg import FigureCanvasSVG
    from matplotlib.figure import Figure

    figure = Figure(figsize=(7.2, 4.4), layout="constrained")
    FigureCanvasSVG(figure)
    draw(figure)
    figure.suptitle(title, fontsize=8, color=_GREY, x=0.99, ha="right")
    figure.savefig(path, format="svg", metadata={"Date": None})


def _hand_values(figure: Any, hands: HandValues, players: int) -> None:
    axes = figure.add_subplot()
    halves = sorted(hands.counts)
    width = 0.4 if any(half % 2 for half in halves) else 0.8
    axes.bar([points(half) for half in halves], [hands.counts[half] / hands.hands for half in halves], width=width,
             color=_BLUE)  # fmt: skip
    axes.set_xlabel("value of the dealt hand (points)")
    axes.set_ylabel("share of hands")
    table = hands.blitz_at_table(players)
    axes.set_title(
        f"Dealt hand values, exact (all {hands.hands:,} hands): mean {float(hands.mean):.3f}\n"
        f"a dealt blitz: 1 hand in {1 / float(hands.blitz):,.0f}, 1 table of {players} "
        f"in {1 / float(table):,.0f}",
        fontsize=10,
    )


def _lowest(figure: Any, lowest: Lowest) -> None:
    axes = figure.add_subplot()
    halves = sorted(lowest.exact)
    axes.plot([points(h) for h in halves], [float(lowest.exact[h]) for h in halves], color="black", linewidth=1.5,
              label="2 players (exact)")  # fmt: skip
    colours = iter(("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3"))
    for players in sorted(lowest.trials):
        shown = [h for h in range(len(lowest.trials[players])) if lowest.trials[players][h] >= MIN_CELL]
        shares = [lowest.share(players, h) for h in shown]
        xs = [points(h) for h in shown]
        colour = next(colours)
        axes.plot(xs, [s.share for s in shares], linewidth=1, color=colour, label=f"{players} players")
        axes.fill_between(xs, [s.interval[0] for s in shares], [s.interval[1] for s in shares], color=colour,
                          alpha=0.25, linewidth=0)  # fmt: skip
    axes.set_xlabel("value of the dealt hand (points)")
    axes.set_ylabel("chance it is the lowest (ties included)")
    axes.set_ylim(0, 1.02)
    axes.legend(fontsize=7, ncols=2, frameon=False)
    dealt = max((lowest.dealt(players) for players in lowest.trials), default=0)
    more = f"; 3 or more: simulated, {dealt:,} tables each, 95% bands" if dealt else ""
    axes.set_title(f"Is my dealt hand the lowest at the table?\n2 players: exact{more}", fontsize=10)


def _knocks(figure: Any, table: KnockTable, who: str) -> None:
    axes = figure.add_subplot()
    values = table.values()
    keys = [*values, None]  # the top row: every value; the last column: every turn
    cells = [[table.share(value, turn) for turn in [*range(1, TURNS + 1), None]] for value in keys]
    shares = np.array([[cell.share if cell.trials >= MIN_CELL else np.nan for cell in line] for line in cells])
    image = axes.imshow(shares, aspect="auto", origin="lower", cmap="RdYlGn_r", vmin=0, vmax=1, interpolation="nearest")
    for row, line in enumerate(shares):
        for column, share in enumerate(line):
            if not np.isnan(share):
                colour = "white" if share > 0.75 or share < 0.12 else "black"
                axes.text(column, row, f"{100 * share:.0f}", ha="center", va="center", fontsize=6, color=colour)
    axes.axhline(len(values) - 0.5, color="black", linewidth=0.8)
    axes.axvline(TURNS - 0.5, color="black", linewidth=0.8)
    axes.set_xticks(range(TURNS + 1), [*map(str, range(1, TURNS)), f"{TURNS}+", "all"])
    axes.set_yticks(range(len(values) + 1), [*map(str, values), "all"])
    axes.set_xlabel("the knocker's own turn (1 = its first)")
    axes.set_ylabel("the knocker's hand (points; 30½ with 30)")
    bar = figure.colorbar(image, ax=axes)
    bar.set_label("chance the knock costs the knocker a life")
    overall = table.share()
    low, high = overall.interval
    axes.set_title(
        f"Knocks of {who}, simulated: {overall.trials:,} in {table.rounds:,} rounds,\n"
        f"{overall.share:.1%} cost a life (95%: {low:.1%}–{high:.1%}); a cell: % of its knocks that cost "
        f"a life\n(blank: fewer than {MIN_CELL} knocks)",
        fontsize=9,
    )


def _draws(figure: Any, draws: DrawTable) -> None:
    axes = figure.add_subplot()
    gains = [g for g in draws.gains() if draws.positions[draws.slot(g)] >= MIN_CELL]
    means = [draws.saved[draws.slot(g)] for g in gains]
    axes.errorbar(gains, [m.mean for m in means], yerr=[m.half_width for m in means], fmt="o", capsize=3,
                  markersize=4, color=_BLUE, label="lives saved (95% interval)")  # fmt: skip
    axes.axhline(0, color="#888888", linewidth=0.8)
    took = [draws.took[draws.slot(g)] / draws.positions[draws.slot(g)] for g in gains]
    twin = axes.twinx()
    twin.plot(gains, took, color=_RED, linewidth=1)
    twin.set_ylim(0, 1.05)
    twin.set_ylabel("share of positions where the heuristic takes it", color=_RED)
    visible, hidden = ("the pile card", "a stock draw") if draws.mode == "draw" else ("the best exchange", "a pass")
    axes.set_xlabel(f"points {visible} adds to the hand at once")
    axes.set_ylabel(f"lives a round saved by {visible}")
    axes.set_title(
        f"{visible[0].upper() + visible[1:]} against {hidden}, simulated: {int(draws.positions.sum()):,} positions "
        "of the heuristic's play,\neach played out both ways; gains with fewer than "
        f"{MIN_CELL} positions left out",
        fontsize=10,
    )


def _seats(figure: Any, analysis: Analysis) -> None:
    seats = analysis.seats
    places = list(range(seats.players))
    labels = [f"{place}" + ("\n(deals)" if place == seats.players - 1 else "") for place in places]
    left, right = figure.subplots(1, 2)
    if seats.games:
        shares = [seats.win_share(place) for place in places]
        errors = [[s.share - s.interval[0] for s in shares], [s.interval[1] - s.share for s in shares]]
        left.bar(places, [s.share for s in shares], yerr=errors, capsize=4, color=_BLUE)
        left.axhline(1 / seats.players, color=_RED, linestyle="dashed", linewidth=1, label="a fair share")
        left.legend(fontsize=7, frameon=False, loc="lower right")
        left.set_title(f"Games won, simulated\n({seats.games:,} games)", fontsize=10)
    else:
        left.set_title("Games won: not measured", fontsize=10)
    left.set_ylabel("share of games won (95% intervals)")
    left.set_xlabel("place after the first dealer (0 plays first)")
    left.set_xticks(places, labels)
    if seats.rounds:
        lives = [seats.round_lives[place] for place in places]
        right.bar(places, [m.mean for m in lives], yerr=[m.half_width for m in lives], capsize=4, color=_ORANGE)
        right.set_title(f"Lives lost a round, simulated\n({seats.rounds:,} rounds)", fontsize=10)
    else:
        right.set_title("Lives lost a round: not measured", fontsize=10)
    right.set_ylabel("lives lost a round (95% intervals)")
    right.set_xlabel("place after the dealer (0 plays first)")
    right.set_xticks(places, labels)


def _length(figure: Any, analysis: Analysis) -> None:
    seats = analysis.seats
    axes = figure.add_subplot()
    seen = seats.rounds_seen
    rounds = np.flatnonzero(seen)
    axes.bar(rounds, seen[rounds] / seats.games, color=_BLUE)
    axes.set_xlabel("rounds in a game")
    axes.set_ylabel("share of games")
    axes.set_title(
        f"Length of a game, simulated ({seats.games:,} games):\n{seats.game_rounds.mean:.2f} rounds "
        f"(median {seats.quantile(0.5)}), {seats.game_turns.mean:.1f} turns on average",
        fontsize=10,
    )
