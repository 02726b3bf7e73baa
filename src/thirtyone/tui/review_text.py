"""A game's review (:mod:`thirtyone.bots.review`) in words, in the reader's language: each seat's
summary, its decisions as a table (every legal move's value, the move played, what it gave away,
its mark, the noise of its values and the rules that explain a mark) and its costliest decisions
in a sentence each, with those rules. Everything is written from the
review's data through the catalog's ``review.*`` messages and the hint's words for the moves
(:func:`~thirtyone.tui.words.move_words`), never from English; names from the record are
:func:`~thirtyone.checks.escaped` (records are shared).

>>> from thirtyone.bots.review import mark_of
>>> from thirtyone.i18n import messages
>>> mark_text(ENGLISH, mark_of(0.2)).plain, mark_text(messages("de"), "blunder").plain
('mistake', 'grober Fehler')
>>> lives_text(1.2345, ENGLISH), lives_text(1.2345, messages("cs"))
('1.23', '1,23')
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from rich import box
from rich.console import Console
from rich.console import ConsoleOptions
from rich.console import Group
from rich.console import RenderableType
from rich.console import RenderResult
from rich.measure import Measurement
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from thirtyone.bots.review import FLOOR
from thirtyone.bots.review import NOISE
from thirtyone.bots.review import THRESHOLDS
from thirtyone.bots.review import Decision
from thirtyone.bots.review import Reason
from thirtyone.bots.review import Review
from thirtyone.bots.review import SeatSummary
from thirtyone.checks import escaped
from thirtyone.i18n import Messages
from thirtyone.scoring import format_value
from thirtyone.tui.settings import shown_name
from thirtyone.tui.words import ENGLISH
from thirtyone.tui.words import cards_text
from thirtyone.tui.words import move_words
from thirtyone.tui.words import say
from thirtyone.tui.words import say_plural
from thirtyone.tui.words import value_text

__all__ = [
    "progress_label",
    "mark_text",
    "lives_text",
    "moves_text",
    "noise_text",
    "reason_text",
    "reasons_text",
    "reasons_grid",
    "sentence_text",
    "summary_text",
    "DecisionsTable",
    "valuer_lines",
    "about_lines",
    "seat_lines",
    "review_lines",
]

_MARKS: dict[str, tuple[str, str, str]] = {
    "inaccuracy": ("review.mark.inaccuracy", "review.marks.inaccuracy", "yellow"),
    "mistake": ("review.mark.mistake", "review.marks.mistake", "dark_orange"),
    "blunder": ("review.mark.blunder", "review.marks.blunder", "bold red"),
}
"""Each mark (:data:`~thirtyone.bots.review.MARKS`): its word, its count ("2 mistakes") and its colour."""

_WHY: dict[str, str] = {
    "blitz_spares_knocker": "review.why.blitz_spares_knocker",
    "blitz_missed": "review.why.blitz_missed",
    "three_aces_missed": "review.why.three_aces_missed",
    "three_of_a_kind": "review.why.three_of_a_kind",
    "knock": "review.why.knock",
    "penalty_scat": "review.why.penalty_scat",
    "penalty_widow": "review.why.penalty_widow",
    "penalty_namu_risky": "review.why.penalty_namu_risky",
    "last_life": "review.why.last_life",
    "grace": "review.why.grace",
}
"""Each reason (:data:`~thirtyone.bots.review.REASONS`): its message (:attr:`Reason.key
<thirtyone.bots.review.Reason.key>`)."""

_COLUMNS = (
    "review.column.round",
    "review.column.turn",
    "review.column.hand",
    "review.column.given",
    "review.column.mark",
    "review.column.moves",
)


def progress_label(t: Messages) -> str:
    """The label of the review's progress bar: ``Reviewing``."""
    return t("review.progress")


def mark_text(t: Messages, mark: str | None) -> Text:
    """A decision's mark in its colour (``mistake``), or nothing."""
    if mark is None:
        return Text("")
    word, _, style = _MARKS[mark]
    return Text(t(word), style=style)


def lives_text(lives: float, t: Messages = ENGLISH) -> str:
    """Lives given away (0 or more), with two decimals as the language writes them: ``1.23``."""
    return value_text(lives, t).removeprefix("+")


def noise_text(t: Messages, decision: Decision) -> Text:
    """The noise of a decision's values, dim: ``Noise ±0.08`` (the largest standard error of a
    move's value, :attr:`Decision.stderr <thirtyone.bots.review.Decision.stderr>`: for the judge's
    network its measured error), or ``Noise exact`` when every value was counted exactly."""
    noise = t("review.exact") if decision.stderr == 0 else f"±{lives_text(decision.stderr, t)}"
    return Text(f"{t('review.column.noise')} {noise}", style="dim")


def reason_text(t: Messages, reason: Reason, names: Sequence[str]) -> Text:
    """A rule's reason in words with its rule ids: "a 31 now costs Ada one life, where the
    showdown can cost the knocker two (R5.3, R6.5)" (``names``: the seats' names as shown)."""
    values: dict[str, str | Text] = {}
    for name, value in reason.values:
        values[name] = names[int(value)] if name == "knocker" else format_value(Fraction(value))
    return say(t, "review.why_line", reason=say(t, _WHY[reason.code], "", **values), rules=", ".join(reason.rules))


def reasons_text(t: Messages, decision: Decision, names: Sequence[str], indent: str = "") -> Text | None:
    """The rules that explain what a decision gave away (:func:`reason_text`), one a line after
    ``indent`` and ``why:``, dim; ``None`` when none does."""
    if not decision.reasons:
        return None
    label = t("review.why")
    lines = [Text(f"{indent}{label} ").append_text(reason_text(t, reason, names)) for reason in decision.reasons]
    return Text("\n", style="dim").join(lines)


def reasons_grid(t: Messages, decision: Decision, names: Sequence[str]) -> Table | None:
    """:func:`reasons_text` as a grid, ``why:`` in a column of its own, so that a reason that
    wraps keeps its indent (the decisions' table); ``None`` when no rule explains the decision."""
    if not decision.reasons:
        return None
    grid = Table.grid(padding=(0, 1, 0, 0))
    grid.add_column(style="dim", no_wrap=True)
    grid.add_column(style="dim")
    for reason in decision.reasons:
        grid.add_row(t("review.why"), reason_text(t, reason, names))
    return grid


def moves_text(t: Messages, decision: Decision) -> Text:
    """Every legal move of a decision with its value, one a line, best first, the move played
    marked ▸ and in bold: ``▸ Knock −0.31`` over ``  Draw from the stock +0.05``."""
    lines = []
    for move in decision.moves:
        line = say(t, "hint.move", move=move_words(move.action, decision.view, t), value=value_text(move.value, t))
        if move.action == decision.played:
            line = Text("▸ ", style="bold").append_text(line)
            line.stylize("bold")
        else:
            line = Text("  ").append_text(line)
        lines.append(line)
    return Text("\n").join(lines)


def sentence_text(t: Messages, decision: Decision, names: Sequence[str]) -> Text:
    """A costly decision in a sentence: "Round 3, turn 2, holding 24, while Ben seemed to be
    collecting hearts: Knock gave away 0.31 lives; better: Draw from the stock" (``names``: the
    seats' names as shown; the read is the expert's surest, when it was at least half sure)."""
    view = decision.view
    values: dict[str, str | Text] = {
        "round": t.number(decision.round),
        "turn": t.number(decision.turn),
        "holding": format_value(decision.holding),
        "played": move_words(decision.played, view, t),
        "given": lives_text(decision.given, t),
        "best": move_words(decision.best.action, view, t),
    }
    read = decision.read
    if read is None:
        return say(t, "review.costly_lives", "", **values)
    return say(t, "review.costly_lives_read", "", who=names[read[0]], suit=t(f"suit.{read[1]}"), **values)


def summary_text(t: Messages, summary: SeatSummary, names: Sequence[str]) -> Text:
    """A seat's summary in a line: its decisions, accuracy, lives given away (in all and a round
    played) and the count of each mark."""
    who = Text(names[summary.seat], style="bold")
    if summary.accuracy is None:
        return say(t, "review.no_decisions", who=who)
    line = say(
        t,
        "review.summary",
        who=who,
        decisions=say_plural(t, "review.decisions", summary.decisions),
        accuracy=t.percent(summary.accuracy),
        given=lives_text(summary.given, t),
        per_round=lives_text(summary.per_round or 0.0, t),
    )
    marks = [
        say_plural(t, plural, count, style if count else "")
        for (_, plural, style), count in zip(_MARKS.values(), summary.marks, strict=True)
    ]
    return line.append(" · ").append_text(Text(" · ").join(marks))


_UNBOUNDED = 10_000
"""Columns enough for any review table's widest line."""


class DecisionsTable:
    """A seat's decisions, one a row: round, turn, hand and its points with the noise of its
    values under it (:func:`noise_text`), what the move played gave away (lives), its mark and
    every move's value (:func:`moves_text`) with the rules that explain a mark under them
    (:func:`reasons_grid`), the one column that wraps. Where the moves would not have the width
    of their longest line (80 columns, long words), what the move gave away (after its column's
    name: "Given away 0.29") and its mark go under the hand too, so that no value is wrapped onto
    a line of its own. ``names``: the seats' names as shown."""

    def __init__(self, t: Messages, decisions: Sequence[Decision], names: Sequence[str]) -> None:
        self.t = t
        self.decisions = decisions
        self.names = names

    def table(self, *, narrow: bool, why: bool = True) -> Table:
        """The table with six columns, or with four (``narrow``: the hand, what it gave away and
        the mark in one); the rules' reasons under the moves unless ``why`` is false."""
        t = self.t
        table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=0, header_style="bold")
        for key in _COLUMNS:
            if narrow and key in ("review.column.given", "review.column.mark"):
                continue
            left = key in ("review.column.hand", "review.column.moves", "review.column.mark")
            moves = key == "review.column.moves"  # the one column that wraps: the others keep their width
            table.add_column(t(key), justify="left" if left else "right", no_wrap=not moves, overflow="fold")
        for decision in self.decisions:
            hand = cards_text(decision.hand).append(f" ({format_value(decision.holding)})")
            given = lives_text(decision.given, t) if decision.given else ""
            mark = mark_text(t, decision.mark)
            if not narrow:
                cells: list[RenderableType] = [Text("\n").join([hand, noise_text(t, decision)]), given, mark]
            else:  # what it gave away under its column's name, and the mark on a line of its own
                under = [hand, Text(f"{t('review.column.given')} {given}")] if given else [hand]
                if decision.mark is not None:
                    under.append(mark)
                cells = [Text("\n").join([*under, noise_text(t, decision)])]
            valued: RenderableType = moves_text(t, decision)
            reasons = reasons_grid(t, decision, self.names) if why else None
            if reasons is not None:
                valued = Group(valued, Padding(reasons, (0, 0, 0, 2)))
            row = [t.number(decision.round), t.number(decision.turn), *cells, valued]
            table.add_row(*row, end_section=True)
        return table

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        unbounded = options.update_width(_UNBOUNDED)  # a table measures no wider than the width it has
        bare = self.table(narrow=False, why=False)  # the reasons wrap: only the moves must fit
        fits = Measurement.get(console, unbounded, bare).maximum <= options.max_width
        yield self.table(narrow=not fits)


def valuer_lines(t: Messages, review: Review) -> list[Text]:
    """What valued the review: the judge (its values the same under any seed, and the measured
    error of its network's, :attr:`Review.judge_error <thirtyone.bots.review.Review.judge_error>`),
    or the expert's budget — after a line saying the judge does not value this game where the
    review fell back to the expert."""
    if review.valuer == "judge":
        return [say(t, "review.budget_judge", error=lives_text(review.judge_error or 0.0, t))]
    lines = [] if review.fallback is None else [say(t, "review.fallback")]
    if review.seconds is None:
        lines.append(say_plural(t, "review.budget_worlds", review.worlds, seed=t.number(review.seed)))
    else:
        lines.append(say(t, "review.budget_seconds", seconds=t.number(review.seconds), seed=t.number(review.seed)))
    return lines


def about_lines(t: Messages, review: Review) -> list[RenderableType]:
    """What a review is: what valued it (:func:`valuer_lines`), the legend (what a value is), the
    noise (what is within it, and the floor) and the marks' thresholds, and whether the game was
    unfinished or the review partial."""
    thresholds = {mark: lives_text(lives, t) for mark, lives in THRESHOLDS.items()}
    lines: list[RenderableType] = [
        *valuer_lines(t, review),
        Text(t("review.legend"), style="dim"),
        Text(t("review.noise", noise=t.number(NOISE), floor=lives_text(FLOOR, t)), style="dim"),
        Text(t("review.thresholds", **thresholds), style="dim"),
    ]
    if not review.finished:
        lines.append(Text(t("review.unfinished")))
    if review.partial:
        lines.append(say_plural(t, "review.partial", review.total, "bold red", done=t.number(len(review.decisions))))
    return lines


def seat_lines(t: Messages, review: Review, summary: SeatSummary, names: Sequence[str]) -> list[RenderableType]:
    """One reviewed seat (``summary``, one of ``review``'s; ``names`` as shown): its summary, its
    decisions (:class:`DecisionsTable`) and its costliest decisions in a sentence each, each with
    the rules that explain it on lines of their own (:func:`reasons_text`)."""
    mine = [decision for decision in review.decisions if decision.seat == summary.seat]
    lines: list[RenderableType] = [summary_text(t, summary, names)]
    if mine:
        lines.append(DecisionsTable(t, mine, names))
    if summary.costliest:
        lines.append(Text(t("review.costliest"), style="bold"))
        for number, decision in enumerate(summary.costliest, 1):
            lines.append(Text(f"{t.number(number)}. ").append_text(sentence_text(t, decision, names)))
            why = reasons_text(t, decision, names, "   ")
            if why is not None:
                lines.append(why)
    elif mine:
        lines.append(Text(t("review.none_costly")))
    return lines


def review_lines(t: Messages, review: Review, game: str) -> list[RenderableType]:
    """The whole review of the record named ``game`` (a file name, shown escaped), to print one
    after another: a heading, what the review is (:func:`about_lines`), then each reviewed seat
    (:func:`seat_lines`)."""
    names = [escaped(shown_name(name, t)) for name in review.names]
    lines: list[RenderableType] = [say(t, "review.heading", "bold", game=escaped(game)), *about_lines(t, review)]
    for summary in review.summaries:
        lines += [Text(""), *seat_lines(t, review, summary, names)]
    return lines
