"""The panels of the game table and the screens shown between rounds.

Every panel is a :class:`~textual.widgets.Static` that renders rich :class:`~rich.text.Text`
from the person's :class:`~thirtyone.views.PlayerView`; ``panel.content`` is that text.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import RichLog, Static

from thirtyone.cards import Card
from thirtyone.events import RoundResult
from thirtyone.rules import Rules
from thirtyone.scoring import format_value, hand_value
from thirtyone.tui.controls import Controls, KeyHint
from thirtyone.tui.words import cards_text, lives_text
from thirtyone.views import Phase, PlayerView, Standing

__all__ = [
    "card_chip",
    "card_face",
    "SeatsPanel",
    "TablePanel",
    "GameLog",
    "KeyBar",
    "TooSmall",
    "RoundEndScreen",
    "GameOverScreen",
    "MIN_WIDTH",
    "MIN_HEIGHT",
    "NEW_GAME",
    "QUIT",
]

MIN_WIDTH = 80
"""The narrowest terminal the table is laid out for, in columns."""
MIN_HEIGHT = 24
"""The shortest terminal the table is laid out for, in lines."""

SLOT = 6
"""Columns each card takes in the table panel (a 5-column chip and a space)."""

NEW_GAME = "new"
"""What :class:`GameOverScreen` returns when the person asks for another game."""
QUIT = "quit"
"""What :class:`GameOverScreen` returns when the person quits."""


def card_chip(card: Card | None, *, picked: bool = False, dim: bool = False) -> Text:
    """A card drawn as a 5-column chip: red or black on white, yellow when picked for an
    exchange, grey when it may not be played; ``None`` draws a face-down card."""
    if card is None:
        return Text(" ▒▒▒ ", style="white on blue")
    background = "yellow" if picked else ("grey70" if dim else "white")
    colour = "red" if card.is_red else "black"
    return Text(f" {card.pretty:>3} ", style=f"bold {colour} on {background}")


def _row(items: Sequence[Text]) -> Text:
    return Text(" ").join(items)


def _keys_row(keys: Sequence[str]) -> Text:
    return Text("".join(f"  {key:<{SLOT - 2}}" for key in keys), style="bold cyan")


def _pad(text: str, width: int) -> str:
    """``text`` padded with spaces to ``width`` terminal cells (a wide character such as 王
    takes two)."""
    return text + " " * max(width - cell_len(text), 0)


TAGS_WIDTH = cell_len("dealer, knocked")
"""The widest tags of a seat in the players panel."""


class SeatsPanel(Static):
    """Every player: whose turn it is (``▶``), name and level, lives or the grace word
    ("on the dole"), then the tags "dealer" and "knocked" (after a throw-down, "threw down"),
    each column two spaces apart; widths are counted in terminal cells (a wide character such
    as 王 takes two). A
    tag that does not fit the row goes on a line of its own under the tags column."""

    DEFAULT_WIDTH = 44
    """The content width assumed before the panel has been laid out (an 80-column terminal)."""

    @staticmethod
    def natural_width(names: Sequence[str], rules: Rules) -> int:
        """The content width the panel needs for every seat's row with both tags on it, whatever
        the lives come to in the game (in cells: a wide character counts two)."""
        start = rules.lives + (1 if rules.grace_life else 0)
        lives = max(cell_len(lives_text(remaining, rules)) for remaining in range(start + 1))
        return 2 + max(cell_len(name) for name in names) + 2 + lives + 2 + TAGS_WIDTH

    def show(self, view: PlayerView, names: Sequence[str]) -> int:
        """Redraw from the person's view and the seats' names; returns the number of lines."""
        width = self.content_size.width or self.DEFAULT_WIDTH
        rows: list[tuple[int, str, list[Text]]] = []
        for status in view.seats:
            seat = status.seat
            tags: list[Text] = []
            if seat == view.dealer and not status.out:
                tags.append(Text("dealer", style="cyan"))
            if seat == view.knocker:
                ended = view.last_result if view.phase is Phase.OVER else None
                threw = ended is not None and ended.round == view.round and ended.end == "throw_down"
                tags.append(Text("threw down" if threw else "knocked", style="bold magenta"))
            rows.append((seat, lives_text(status.remaining, view.rules), tags))
        name_width = max(cell_len(name) for name in names)
        lives_width = max(cell_len(lives) for _, lives, _ in rows)
        column = 2 + name_width + 2 + lives_width + 2  # where the tags start
        lines: list[Text] = []
        for (seat, lives, tags), status in zip(rows, view.seats, strict=True):
            to_move = view.current_seat == seat and view.phase is not Phase.OVER
            line = Text("▶ " if to_move else "  ", style="bold green")
            style = "dim strike" if status.out else ("bold" if seat == view.seat else "")
            line.append(_pad(names[seat], name_width), style=style)
            lives_style = "dim" if status.out else ("bold yellow" if status.on_grace else "")
            line.append("  ").append(_pad(lives, lives_width), style=lives_style)
            together = Text(", ").join(tags)
            if tags and column + together.cell_len > width:  # one tag a line
                lines.append(line.append("  ").append_text(tags[0]))
                lines += [Text(" " * column).append_text(tag) for tag in tags[1:]]
                continue
            if tags:
                line.append("  ").append_text(together)
            line.rstrip()
            lines.append(line)
        self.update(Text("\n").join(lines))
        return len(lines)


def card_face(card: Card | None, *, picked: bool = False, dim: bool = False) -> list[Text]:
    """A card drawn large, 7 columns by 3 lines, in the colours of :func:`card_chip`: its rank
    and suit in the top left and bottom right corners, the suit in the middle."""
    if card is None:
        return [Text("▒" * BIG_WIDTH, style="white on blue") for _ in range(3)]
    style = card_chip(card, picked=picked, dim=dim).style
    suit = card.pretty[-1]
    return [
        Text(f" {card.pretty:<{BIG_WIDTH - 2}} ", style=style),
        Text(f"{suit:^{BIG_WIDTH}}", style=style),
        Text(f" {card.pretty:>{BIG_WIDTH - 2}} ", style=style),
    ]


BIG_WIDTH = 7
"""Columns of a large card (:func:`card_face`)."""

BIG_TABLE = (60, 34)
"""The table's content width and the terminal's height from which cards are drawn large."""


class TablePanel(Static):
    """The table as the person sees it: the discard pile's top card (draw mode) or the widow
    (widow mode, face down in the opening), the stock when it is used, and the person's hand
    with its value and the keys of its cards; while the person discards, the value the hand
    keeps for each card given away. On a large table (:data:`BIG_TABLE`) the cards are drawn
    large (:func:`card_face`)."""

    class Picked(Message):
        """A card, the discard pile or the stock was clicked: ``key`` is the key that does the same."""

        def __init__(self, key: str) -> None:
            super().__init__()
            self.key = key

    class Widened(Message):
        """The panel's width changed: the table is to be drawn again (large cards, or small)."""

    DEFAULT_WIDTH = 28
    """The content width assumed before the panel has been laid out (an 80-column terminal)."""

    VALUES_LABEL = "value if you discard it"
    """What the row of values under the hand means, while the person discards."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.targets: list[tuple[int, int, int, str]] = []
        """Clickable places: (line, first column, last column + 1, key) in the content."""
        self.large = False
        """True while the cards are drawn large."""
        self._width = 0

    def show(self, view: PlayerView, controls: Controls) -> int:
        """Redraw from the person's view and the exchange picks; returns the lines the panel
        needs in this game at this size (the same on every turn, so that the table never jumps)."""
        width = self.content_size.width or self.DEFAULT_WIDTH
        self.large = width >= BIG_TABLE[0] and self.app.size.height >= BIG_TABLE[1]
        slot, high = (BIG_WIDTH + 1, 3) if self.large else (SLOT, 1)
        lines: list[Text] = []
        targets: list[tuple[int, int, int, str]] = []
        if view.rules.mode == "draw":
            top = view.discard_top
            if top is not None:
                faces = self._faces([top])
                lines.append(Text("Discard ").append_text(faces[0]).append(f" {view.discard_size} in the pile"))
                lines += [Text(" " * 8).append_text(face) for face in faces[1:]]
                targets += [(line, 8, 8 + slot - 1, "p") for line in range(high)]
            else:
                lines += [Text("Discard empty")] + [Text("")] * (high - 1)
            targets.append((len(lines), 0, 30, "s"))
            lines.append(Text(f"Stock   {view.stock_size} cards"))
        else:
            lines += self._widow_lines(view, controls, width)
            if view.widow is not None:
                targets += [
                    (line, 8 + i * slot, 8 + i * slot + slot - 1, str(4 + i))
                    for line in range(1, 1 + high)
                    for i in range(3)
                ]
        lines.append(Text(""))
        first = len(lines)
        inline = width >= 4 * slot + 2 + cell_len(self.VALUES_LABEL) + 2
        lines += self._hand_lines(view, controls, inline=inline)
        if view.hand is not None and not view.seats[view.seat].out:
            targets += [
                (line, i * slot, i * slot + slot - 1, str(i + 1))
                for line in range(first + 2, first + 2 + high)
                for i in range(len(view.hand))
            ]
        self.targets = targets
        self.update(Text("\n").join(lines))
        return first + 2 + high + (0 if view.rules.mode == "widow" else 1 if inline else 2)

    def on_resize(self, event: events.Resize) -> None:
        """A new width: ask for the table to be drawn again for it."""
        if event.size.width != self._width:
            self._width = event.size.width
            self.post_message(self.Widened())

    def on_click(self, event: events.Click) -> None:
        """Clicking a card does what its key does."""
        offset = event.get_content_offset(self)
        if offset is None:
            return
        for line, start, end, key in self.targets:
            if offset.y == line and start <= offset.x < end:
                self.post_message(self.Picked(key))
                return

    def _faces(self, cards: Sequence[Card | None], picked: Sequence[int] = (), dim: Card | None = None) -> list[Text]:
        """Cards side by side, one space apart: one line of chips, or three of large cards."""
        if not self.large:
            return [
                _row(
                    [
                        card_chip(card, picked=i in picked, dim=card is not None and card == dim)
                        for i, card in enumerate(cards)
                    ]
                )
            ]
        faces = [
            card_face(card, picked=i in picked, dim=card is not None and card == dim) for i, card in enumerate(cards)
        ]
        return [_row([face[line] for face in faces]) for line in range(3)]

    def _keys(self, keys: Sequence[str]) -> Text:
        """The keys of the cards, each over its card."""
        if not self.large:
            return _keys_row(keys)
        return Text("".join(f"{key:^{BIG_WIDTH}} " for key in keys), style="bold cyan")

    @staticmethod
    def _stock_line(view: PlayerView, width: int) -> Text:
        """The stock in widow mode: only the new widow of ``all_pass=new_widow`` (Schwimmen)
        takes cards from it (R7.3), so only then is it shown, with what it is for."""
        if view.rules.all_pass != "new_widow":
            return Text("")
        long = f"Stock   {view.stock_size} cards, for a new widow when all pass"
        if cell_len(long) <= width:
            return Text(long)
        return Text(f"Stock   {view.stock_size} for a new widow")

    def _widow_lines(self, view: PlayerView, controls: Controls, width: int) -> list[Text]:
        stock = self._stock_line(view, width)
        pad = Text(" " * 8)
        if view.widow is not None:
            picking = view.is_my_turn and view.phase is Phase.TURN
            keys = self._keys(["4", "5", "6"]) if picking else Text("")
            faces = self._faces(view.widow, controls.picked_widow)
            return [Text("Widow   ").append_text(keys), *(pad + face for face in faces), stock]
        label = "2nd hand" if view.phase is Phase.DEALER_CHOICE else "Widow"
        backs = self._faces([None] * 3)
        if self.large:
            return [Text(f"{label:<8}face down"), *(pad + back for back in backs), stock]
        return [Text(f"{label:<8}").append_text(backs[0]), Text("        face down"), stock]

    def _hand_lines(self, view: PlayerView, controls: Controls, *, inline: bool) -> list[Text]:
        me = view.seats[view.seat]
        if me.out:
            return [Text("You are out:", style="bold"), Text("watching the others play.")]
        hand = view.hand
        if hand is None:
            return [Text("Your hand: not looked at", style="bold"), Text(""), *self._faces([None] * 3)]
        rules = view.rules
        title = Text("Your hand", style="bold")
        if view.hand_value is not None:
            title.append("  value ").append(format_value(view.hand_value), style="bold green")
        my_move = view.is_my_turn
        discarding = view.phase is Phase.DISCARD and my_move
        taken = view.taken_from_pile
        faces = self._faces(hand, controls.picked_hand, dim=taken if discarding else None)
        show_keys = my_move and (discarding or (view.phase is Phase.TURN and view.widow is not None))
        keys = self._keys([str(i + 1) for i in range(len(hand))]) if show_keys else Text("")
        lines = [title, keys, *faces]
        if discarding:
            title.append("  discard one:")
            slot = BIG_WIDTH + 1 if self.large else SLOT
            after = Text("")
            for card in hand:
                if card == taken:
                    after.append(f"{'kept':^{slot - 1}} ", style="dim")
                else:
                    rest = [other for other in hand if other != card]
                    after.append(f"{'=' + format_value(hand_value(rest, rules)):^{slot - 1}} ", style="green")
            if inline:
                lines.append(after.append(f" ← {self.VALUES_LABEL}", style="dim"))
            else:
                lines += [after, Text(f"↑ {self.VALUES_LABEL}", style="dim")]
        return lines


class GameLog(RichLog):
    """The log of the game: every line wrapped to the width of the log (written again when the
    width changes), never scrolled sideways, and anchored to its newest line — a new line, or
    the log growing shorter when the lines under it grow, keeps the newest line in view. Scrolling
    up with the mouse reads older lines until the next line arrives. ``entries`` holds the
    lines."""

    DEFAULT_CSS = """
    GameLog { overflow-x: hidden; scrollbar-gutter: stable; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, wrap=True, markup=False, highlight=False, min_width=1)
        self.entries: list[Text] = []
        self._width = 0

    def on_mount(self) -> None:
        """Stay at the newest line."""
        self.anchor()

    def add(self, line: Text) -> None:
        """Add a line at the bottom and show it."""
        self.entries.append(line)
        self.write(line, scroll_end=True)

    def clear_entries(self) -> None:
        """Forget every line."""
        self.entries.clear()
        self.clear()

    def on_resize(self, event: events.Resize) -> None:
        """Wrap every line again when the width changes."""
        width = self.scrollable_content_region.width
        if self._size_known and self._width and width != self._width:
            self.clear()
            for line in self.entries:
                self.write(line, scroll_end=True)
        self._width = width


TOO_SMALL = (
    "The terminal is {width}×{height}: too small for the table.\n"
    "Make the terminal at least {min_width}×{min_height} to play (q quits)."
)
"""The notice shown instead of the table in a terminal smaller than the table needs."""


class TooSmall(Static):
    """The notice shown instead of a screen while the terminal is smaller than 80×24 (the app
    sets the class ``-too-small``; the style sheet shows this and hides the rest)."""

    def __init__(self) -> None:
        super().__init__(classes="too-small")

    def on_mount(self) -> None:
        """Say how big the terminal is."""
        self.refresh_notice(*self.app.size)

    def refresh_notice(self, width: int, height: int) -> None:
        """Redraw for a terminal of ``width`` × ``height``."""
        text = TOO_SMALL.format(width=width, height=height, min_width=MIN_WIDTH, min_height=MIN_HEIGHT)
        self.update(Text(text, style="bold"))


class KeyBar(Static):
    """The keys that do something now, with what they do; ``keys`` holds the keys as shown."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.hints: tuple[KeyHint, ...] = ()

    def show(self, hints: Sequence[KeyHint]) -> None:
        """Redraw with these hints."""
        self.hints = tuple(hints)
        self._draw()

    def on_resize(self, event: events.Resize) -> None:
        """Lay the hints out again for the new width."""
        self._draw()

    def _draw(self) -> None:
        width = self.content_size.width or 78
        text = Text("")
        column = 0
        for hint in self.hints:
            piece = Text.assemble((f" {hint.keys} ", "bold reverse"), f" {hint.label}")
            if column and column + 2 + piece.cell_len > width:  # a hint never breaks across lines
                text.append("\n")
                column = 0
            elif column:
                text.append("  ")
                column += 2
            text.append_text(piece)
            column += piece.cell_len
        self.update(text)

    @property
    def keys(self) -> tuple[str, ...]:
        """Every single key offered now (``"1-3"`` and ``"1 2 4"`` are spelled out)."""
        keys: list[str] = []
        for hint in self.hints:
            for part in hint.keys.split():
                if len(part) == 3 and part[1] == "-" and part[0].isdigit():
                    keys += [str(n) for n in range(int(part[0]), int(part[2]) + 1)]
                else:
                    keys.append(part)
        return tuple(keys)


BLITZ_MARK = "★"
"""The mark of the hand that ended a round with a 31 (or three aces) on the showdown screen."""


class RoundEndScreen(ModalScreen[None]):
    """The showdown of a round: every hand shown with its value, the lives each player lost and
    why (rule and reason), who went onto the grace life or out, and the R2.6 note. After a blitz
    only the blitz hands (marked ★) are shown, and the viewer's own (``RoundResult.for_seat``,
    R5.1); a legend says so. ``before`` are the seats' remaining losses before the round, to
    show what a player on the grace life really lost. ``enter``, ``space`` or ``escape``
    closes it."""

    DEFAULT_CSS = """
    RoundEndScreen { align: center middle; }
    RoundEndScreen > Vertical {
        width: 78; height: auto; max-height: 100%; overflow-y: auto;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    RoundEndScreen #result { height: auto; }
    RoundEndScreen #hint { height: 1; margin-top: 1; }
    """

    def __init__(
        self,
        result: RoundResult,
        lines: Sequence[Text],
        names: Sequence[str],
        rules: Rules,
        *,
        viewer: int = 0,
        last: bool = False,
        before: Sequence[int] | None = None,
    ) -> None:
        super().__init__()
        self.result = result
        self.lines = tuple(lines)
        self.names = tuple(names)
        self.rules = rules
        self.viewer = viewer
        self.last = last
        self.before = None if before is None else tuple(before)

    def compose(self) -> ComposeResult:
        """The result and the keys (or, in a terminal too small, a notice)."""
        yield TooSmall()
        with Vertical(classes="game"):
            yield Static(self.render_result(), id="result")
            hint = "final standings" if self.last else "next round"
            yield Static(
                Text.assemble((" enter ", "bold reverse"), f" {hint}   ", (" q ", "bold reverse"), " quit"), id="hint"
            )

    def render_result(self) -> Group:
        """The headline, a table of hands, values, lives lost and lives left, the legend after a
        blitz, and the loss lines."""
        result = self.result
        table = Table(box=None, padding=(0, 1), show_edge=False, header_style="bold")
        for column, justify in (
            ("player", "left"),
            ("hand", "left"),
            ("value", "right"),
            ("lost", "right"),
            ("now", "left"),
        ):
            table.add_column(column, justify=justify)  # type: ignore[arg-type]
        hidden = False
        for seat, name in enumerate(self.names):
            after = result.remaining[seat]
            if after <= 0 and seat not in result.eliminated:
                continue  # out before this round
            hand = result.hands[seat]
            value = result.values[seat]
            who = Text(name, style="bold" if seat == self.viewer else "")
            if seat == result.knocker:
                who.append(" threw down" if result.end == "throw_down" else " knocked", style="bold magenta")
            if seat in result.blitz:
                who.append(f" {BLITZ_MARK}", style="bold yellow")
            if hand is None:
                hidden = True
            table.add_row(
                who,
                cards_text(hand) if hand is not None else Text("not shown", style="dim"),
                format_value(value) if value is not None else "",
                self._lost(seat),
                Text(lives_text(after, self.rules), style="bold red" if after <= 0 else ""),
            )
        head, *rest = self.lines
        parts: list[Text | Table] = [head, table]
        legend = self._legend(hidden)
        if legend.plain:
            parts.append(legend)
        return Group(*parts, Text(""), *rest)

    def _lost(self, seat: int) -> Text:
        """The lives ``seat`` lost: what the rules charged, but never more than it had (a player
        on the grace life charged two lost only the grace); a loss R2.6 forgave is marked."""
        charged = self.result.lives_lost(seat)
        if not charged:
            return Text("")
        lost = charged
        if self.before is not None:
            lost = min(charged, self.before[seat] - max(self.result.remaining[seat], 0))
        if lost <= 0:
            return Text("R2.6", style="yellow")
        return Text(f"−{lost}", style="bold red")

    def _legend(self, hidden: bool) -> Text:
        """After a blitz: what ★ marks, and why the other hands are not shown (R5.1)."""
        result = self.result
        if not result.blitz:
            return Text("")
        shown = [result.values[seat] for seat in result.blitz]
        aces = 33 in shown
        verb = "was dealt" if result.end == "dealt_blitz" else "showed"
        rule = result.losses[0].rule if result.losses else "R5.1"
        legend = Text(f"{BLITZ_MARK} {verb} {'three aces (33)' if aces else '31'}", style="yellow")
        if hidden:
            legend.append(f"   not shown: {'a blitz' if aces else 'a 31'} ends the round at once ({rule})", style="dim")
        return legend

    def on_key(self, event: events.Key) -> None:
        """Close on ``enter``, ``space`` or ``escape`` (not while the terminal is too small)."""
        if event.key in ("enter", "space", "escape", "full_stop"):
            event.stop()
            if not self.app.has_class("-too-small"):
                self.dismiss(None)


class GameOverScreen(ModalScreen[str]):
    """The final standings (R2.5), the game's seed (``--seed`` with it deals the game again) and
    the choice of another game (``n``) or quitting (``q``); returns :data:`NEW_GAME` or
    :data:`QUIT`."""

    DEFAULT_CSS = """
    GameOverScreen { align: center middle; }
    GameOverScreen > Vertical {
        width: 60; height: auto; max-height: 100%; overflow-y: auto;
        border: thick $success; background: $surface; padding: 0 1;
    }
    GameOverScreen #standings { height: auto; }
    GameOverScreen #hint { height: 1; margin-top: 1; }
    """

    def __init__(
        self,
        standings: Sequence[Standing],
        names: Sequence[str],
        rules: Rules,
        note: str = "",
        viewer: int = 0,
        *,
        seed: int | None = None,
    ) -> None:
        super().__init__()
        self.standings = tuple(standings)
        self.names = tuple(names)
        self.rules = rules
        self.note = note
        self.viewer = viewer
        self.seed = seed

    def compose(self) -> ComposeResult:
        """The standings and the keys (or, in a terminal too small, a notice)."""
        yield TooSmall()
        with Vertical(classes="game"):
            yield Static(self.render_standings(), id="standings")
            yield Static(
                Text.assemble((" n ", "bold reverse"), " another game   ", (" q ", "bold reverse"), " quit"), id="hint"
            )

    def render_standings(self) -> Group:
        """The winner, the table of places, the seed, and the note (where the record was saved)."""
        winner = self.standings[0].seat
        headline = "You win the game!" if winner == self.viewer else f"{self.names[winner]} wins the game."
        table = Table(box=None, padding=(0, 1), show_edge=False, header_style="bold")
        table.add_column("place", justify="right")
        table.add_column("player")
        table.add_column("lives")
        for standing in self.standings:
            style = "bold" if standing.seat == self.viewer else ""
            table.add_row(
                str(standing.place),
                Text(self.names[standing.seat], style=style),
                lives_text(standing.remaining, self.rules),
            )
        parts: list[Text | Table] = [Text(f"Game over. {headline}", style="bold green"), Text(""), table]
        if self.seed is not None:
            replay = Text.assemble(f"Seed {self.seed}: ", (f"--seed {self.seed}", "bold"), " deals this game again.")
            parts += [Text(""), replay]
        if self.note:
            parts += [Text(""), Text(self.note)]
        return Group(*parts)

    def on_key(self, event: events.Key) -> None:
        """``n``: another game (not while the terminal is too small)."""
        if event.key == "n" and not self.app.has_class("-too-small"):
            event.stop()
            self.dismiss(NEW_GAME)
