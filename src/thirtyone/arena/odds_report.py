"""The report of ``thirtyone analyze`` for a terminal: one table a section, written from the same
plain data ``--json`` prints (:meth:`thirtyone.arena.odds.Analysis.to_dict`), so the two never
disagree. Each table's title says whether its figures are exact or simulated and on how many
trials; a simulated table's caption gives the widest 95% interval of its shares (every interval is
in the JSON). A partial run says so at the top, and each section that was stopped, skipped or not
run says which and why.
"""

from __future__ import annotations

from collections.abc import Iterator
from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Group
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from thirtyone.arena.odds import SECTIONS
from thirtyone.arena.odds_measures import MIN_CELL
from thirtyone.arena.odds_play import TURNS

__all__ = ["render"]

_NAMES = {
    "hands": "Dealt hands",
    "lowest": "The lowest hand",
    "heuristic": "Knocks of the heuristic",
    "expert": "Knocks of the judge or the expert",
    "draws": "Visible card or hidden",
    "games": "Seats and length of play",
}


def render(data: dict[str, Any]) -> RenderableType:
    """The report of an analysis's plain data (``Analysis.to_dict()``)."""
    parts: list[RenderableType] = [
        Text.from_markup(f"[bold]Odds of {data['rules']}[/] with {data['players']} players, seed {data['seed']}")
    ]
    if data["partial"]:
        stopped = next((name for name in SECTIONS if data["sections"][name]["status"] == "partial"), None)
        where = f" in {_NAMES[stopped].lower()} ({stopped})" if stopped else ""
        parts.append(
            Text.from_markup(
                f"[bold red]PARTIAL RESULTS[/]: the analysis was stopped{where} ({data['stopped']}); "
                "a section marked partial holds what it finished, the sections after it were not run"
            )
        )
    for name in SECTIONS:
        section = data["sections"][name]
        status = section["status"]
        if status in ("skipped", "not run"):
            why = f": {section['reason']}" if "reason" in section else ""
            parts.append(Text(f"{_NAMES[name]} ({name}): {status}{why}", style="dim"))
            continue
        if status == "partial":
            parts.append(Text(f"{_NAMES[name]} ({name}): PARTIAL, stopped in it", style="bold red"))
        if "method" not in section:
            parts.append(Text(f"{_NAMES[name]} ({name}): nothing finished", style="dim"))
            continue
        if status != "partial":  # named as when skipped or partial: the same words every run
            parts.append(Text(f"{_NAMES[name]} ({name})", style="bold underline"))
        parts.extend(_shown(part) if isinstance(part, Table) else part for part in _SECTIONS[name](name, section, data))
    seconds = ", ".join(
        f"{name} {entry['seconds']:.1f} s" for name, entry in data["sections"].items() if "seconds" in entry
    )
    parts.append(Text(f"time: {seconds}", style="dim"))
    return Group(*parts)


def _table(title: str, *columns: str, caption: str | None = None) -> Table:
    """A table of right-aligned columns, its ``title`` (and ``caption``) as lines of their own above
    (below) it: a title in the table would wrap to the table's width."""
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, padding=(0, 1, 0, 0))
    table.title = title
    table.caption = caption
    for column in columns:
        table.add_column(column, justify="right")
    return table


def _shown(table: Table) -> RenderableType:
    """``table`` with its title above it in bold and its caption below it, each wrapped to the console."""
    title, caption = str(table.title), table.caption
    table.title = table.caption = None
    parts: list[RenderableType] = [Text(title, style="bold"), table]
    if caption is not None:
        parts.append(Text(str(caption), style="dim"))
    return Group(*parts)


def _percent(share: float, digits: int = 1) -> str:
    return f"{100 * share:.{digits}f}"


def _interval(entry: dict[str, Any]) -> str:
    return f"{_percent(entry['low'])}–{_percent(entry['high'])}"


def _widest(entries: list[dict[str, Any]]) -> str:
    """The widest 95% half-interval of some shares in points of %, as a caption says it: ``95%
    intervals at most ±0.8; `` (nothing without shares)."""
    if not entries:
        return ""
    half = max((entry["high"] - entry["low"]) / 2 for entry in entries)
    return f"95% intervals at most ±{100 * half:.1f}; "


def _value(value: float) -> str:
    return f"{int(value)}½" if value != int(value) else str(int(value))


def _by(label: str, columns: Sequence[str]) -> list[str]:
    """The headings of a table's columns of one measure (``players``, ``own turn``): ``label`` over
    the first, where it reads over them all, and each column's own below."""
    return [f"{label}\n{columns[0]}", *(f"\n{column}" for column in columns[1:])]


def _hands(name: str, section: dict[str, Any], data: dict[str, Any]) -> Iterator[RenderableType]:
    blitz = section["blitz"]
    table = _table(
        f"Dealt hand values, exact ({section['hands']:,} hands): mean {section['mean']:.3f} points",
        "value",
        "hands",
        "%",
        "% at least",
    )
    for row in section["values"]:
        table.add_row(
            _value(row["value"]), f"{row['hands']:,}", _percent(row["share"], 2), _percent(row["at_least"], 2)
        )
    yield table
    chances = blitz["at_table"]
    table = _table(
        f"A dealt blitz, exact: {blitz['hands']} hands of {section['hands']:,}, 1 hand in "
        f"{1 / blitz['one_hand']:,.0f}; at a table of",
        "players",
        *chances,
    )
    table.add_row("%", *(_percent(chance["share"], 3) for chance in chances.values()))
    table.add_row("1 table in", *(f"{1 / chance['share']:,.0f}" for chance in chances.values()))
    yield table


def _lowest(name: str, section: dict[str, Any], data: dict[str, Any]) -> Iterator[RenderableType]:
    tables = list(section["method"])
    dealt = section["deals"]
    shown = [
        entry
        for row in section["rows"]
        for entry in row["players"].values()
        if entry.get("trials", MIN_CELL) >= MIN_CELL
    ]
    simulated = [entry for entry in shown if "low" in entry]
    caption = (
        f"3 players or more: simulated, {max(dealt.values()):,} tables each; {_widest(simulated)}"
        f"blank: hands dealt fewer than {MIN_CELL} times"
        if dealt
        else None
    )
    table = _table(
        "Chance (%) a dealt hand is the lowest at the table, ties included; 2 players exact",
        "\nvalue",
        *_by("players", tables),
        caption=caption,
    )
    for row in section["rows"]:
        cells = []
        for players in tables:
            entry = row["players"].get(players)
            usable = entry is not None and entry.get("trials", MIN_CELL) >= MIN_CELL
            cells.append(_percent(entry["share"]) if usable else "")
        table.add_row(_value(row["value"]), *cells)
    yield table


def _knocks(name: str, section: dict[str, Any], data: dict[str, Any]) -> Iterator[RenderableType]:
    costly = section["costly"]
    who = "the heuristic" if name == "heuristic" else section["bot"]
    if "fallback" in section:
        yield Text(f"{who} played, not the judge: {section['fallback']}")
    cells = {(cell["value"], cell["turn"]): cell for cell in section["cells"]}
    by_value = {row["value"]: row for row in section["by_value"]}
    by_turn = {row["turn"]: row for row in section["by_turn"]}
    shown = [entry for entry in [*cells.values(), *by_value.values(), *by_turn.values()] if entry["trials"] >= MIN_CELL]
    table = _table(
        f"Knocks of {who}, simulated: {section['knocks']:,} in {section['rounds']:,} rounds, "
        f"{_percent(costly['share'])}% cost the knocker a life (95%: {_interval(costly)})",
        "\nvalue",
        *_by("own turn", [*(str(turn) for turn in range(1, TURNS)), f"{TURNS}+"]),
        "\nall",
        "\nknocks",
        caption=f"% of the knocks at that hand (points) and own turn that cost a life; {_widest(shown)}"
        f"blank: fewer than {MIN_CELL} knocks",
    )

    def cell(entry: dict[str, Any] | None) -> str:
        return _percent(entry["share"], 0) if entry is not None and entry["trials"] >= MIN_CELL else ""

    for value in sorted(by_value):
        row = [cell(cells.get((value, turn))) for turn in range(1, TURNS + 1)]
        table.add_row(str(value), *row, cell(by_value[value]), f"{by_value[value]['trials']:,}")
    table.add_row(
        "all", *(cell(by_turn.get(turn)) for turn in range(1, TURNS + 1)), cell(costly), f"{costly['trials']:,}"
    )
    yield table
    if "seats" in section:
        yield from _round_seats(section["seats"])


def _round_seats(seats: dict[str, Any]) -> Iterator[RenderableType]:
    turns = seats["turns_per_round"]
    table = _table(
        f"Lives lost a round by place after the dealer, simulated ({seats['rounds']:,} rounds of the heuristic; "
        f"{turns['mean']:.2f} turns a round)",
        "place",
        "lives a round",
        "95%",
    )
    last = len(seats["lives_per_round"]) - 1
    for row in seats["lives_per_round"]:
        place = f"{row['place']}" + (
            " (plays first)" if row["place"] == 0 else " (deals)" if row["place"] == last else ""
        )
        table.add_row(place, f"{row['mean']:.3f}", f"{row['low']:.3f}–{row['high']:.3f}")
    yield table


def _draws(name: str, section: dict[str, Any], data: dict[str, Any]) -> Iterator[RenderableType]:
    draw = "stock" in section["hidden"]
    visible, hidden = ("the pile card", "a stock draw") if draw else ("the best exchange", "a pass")
    table = _table(
        f"{visible[0].upper()}{visible[1:]} against {hidden}, simulated: "
        f"{section['positions']:,} positions of the heuristic's play, each played out both ways",
        "gain",
        "positions",
        "heuristic takes %",
        *(("stock draw: points",) if draw else ()),
        "lives saved",
        "95%",
        caption=f"gain: the points {visible} adds at once; lives saved: the lives a round {visible} saves against "
        f"{hidden} (negative: it costs)",
    )
    for row in section["rows"]:
        saved = row["lives_saved_by_visible"]
        stock = (f"{row['stock_points']:.1f}",) if draw else ()
        interval = f"{saved['low']:+.3f}–{saved['high']:+.3f}" if saved["low"] is not None else ""
        table.add_row(
            f"{row['gain']:+d}",
            f"{row['positions']:,}",
            _percent(row["heuristic_took"]["share"], 0),
            *stock,
            f"{saved['mean']:+.3f}",
            interval,
        )
    yield table


def _games(name: str, section: dict[str, Any], data: dict[str, Any]) -> Iterator[RenderableType]:
    table = _table(
        f"Games won by place after the first dealer, simulated ({section['games']:,} games of the heuristic)",
        "place",
        "won %",
        "95%",
        caption=f"a fair share: {_percent(1 / data['players'])}%",
    )
    last = len(section["win_share"]) - 1
    for row in section["win_share"]:
        place = f"{row['place']}" + (
            " (plays first)" if row["place"] == 0 else " (deals)" if row["place"] == last else ""
        )
        table.add_row(place, _percent(row["share"]), _interval(row))
    yield table
    rounds, turns = section["rounds_per_game"], section["turns_per_game"]
    yield Text(
        f"A game lasts {rounds['mean']:.2f} rounds (95%: {rounds['low']:.2f}–{rounds['high']:.2f}; median "
        f"{rounds['median']}, 80% of games {rounds['p10']}–{rounds['p90']}) and {turns['mean']:.1f} turns"
    )


_SECTIONS = {
    "hands": _hands,
    "lowest": _lowest,
    "heuristic": _knocks,
    "expert": _knocks,
    "draws": _draws,
    "games": _games,
}
