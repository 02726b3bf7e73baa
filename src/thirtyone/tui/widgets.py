"""The panels of the game table: the players, the table with the person's hand, the log, the
key line, and the notice of a terminal too small (the screens between rounds are
:mod:`~thirtyone.tui.screens`).

Every panel is a :class:`~textual.widgets.Static` that renders rich :class:`~rich.text.Text`
from the person's :class:`~thirtyone.views.PlayerView`; ``panel.content`` is that text. Panels
speak the language of the :class:`~thirtyone.i18n.Messages` they are given (English by default),
and measure every label in terminal cells, so that a longer word or a wide script moves the
columns instead of breaking them.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.cells import set_cell_size
from rich.text import Text
from textual import events
from textual.message import Message
from textual.widgets import RichLog
from textual.widgets import Static

from thirtyone.cards import Card
from thirtyone.i18n import Messages
from thirtyone.rules import Rules
from thirtyone.scoring import format_value
from thirtyone.scoring import hand_value
from thirtyone.tui.cells import cells
from thirtyone.tui.controls import Controls
from thirtyone.tui.controls import KeyHint
from thirtyone.tui.words import ENGLISH
from thirtyone.tui.words import lives_text
from thirtyone.tui.words import say
from thirtyone.tui.words import say_plural
from thirtyone.views import Phase
from thirtyone.views import PlayerView

__all__ = [
    "card_chip",
    "card_face",
    "SeatsPanel",
    "TablePanel",
    "GameLog",
    "KeyBar",
    "TooSmall",
    "MIN_WIDTH",
    "MIN_HEIGHT",
]

MIN_WIDTH = 80
"""The narrowest terminal the table is laid out for, in columns."""
MIN_HEIGHT = 24
"""The shortest terminal the table is laid out for, in lines."""

PILE_LABELS = {
    "draw": ("tui.table.discard", "tui.table.stock"),
    "widow": ("tui.table.widow", "tui.table.second_hand", "tui.table.stock"),
}
"""The labels in front of the piles of each mode (R4, R7), aligned with one another."""

SLOT = 6
"""Columns each card takes in the table panel (a 5-column chip and a space)."""


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


def _centre(text: str, width: int) -> str:
    """``text`` centred in ``width`` terminal cells (cut to them if it is wider)."""
    if cell_len(text) >= width:
        return set_cell_size(text, width)
    room = width - cell_len(text)
    return " " * (room // 2) + text + " " * (room - room // 2)


def tags_width(t: Messages) -> int:
    """The widest tags of a seat in the players panel ("dealer, knocked"), in cells."""
    dealer = t("seat.dealer")
    return max(cell_len(f"{dealer}, {t(tag)}") for tag in ("tui.tag.knocked", "tui.tag.threw"))


class SeatsPanel(Static):
    """Every player: whose turn it is (``▶``), name and level, lives or the grace word
    ("on the dole"), then the tags "dealer" and "knocked" (after a throw-down, "threw down"),
    each column two spaces apart; widths are counted in terminal cells (a wide character such
    as 王 takes two). A
    tag that does not fit the row goes on a line of its own under the tags column."""

    DEFAULT_WIDTH = 44
    """The content width assumed before the panel has been laid out (an 80-column terminal)."""

    def __init__(self, *, id: str | None = None, t: Messages = ENGLISH) -> None:
        super().__init__(id=id)
        self.t = t

    @staticmethod
    def natural_width(names: Sequence[str], rules: Rules, t: Messages = ENGLISH) -> int:
        """The content width the panel needs for every seat's row with both tags on it, whatever
        the lives come to in the game (in cells: a wide character counts two)."""
        start = rules.lives + (1 if rules.grace_life else 0)
        lives = max(cell_len(lives_text(remaining, rules, t)) for remaining in range(start + 1))
        return 2 + max(cell_len(name) for name in names) + 2 + lives + 2 + tags_width(t)

    def show(self, view: PlayerView, names: Sequence[str]) -> int:
        """Redraw from the person's view and the seats' names; returns the number of lines."""
        t = self.t
        width = self.content_size.width or self.DEFAULT_WIDTH
        rows: list[tuple[int, str, list[Text]]] = []
        for status in view.seats:
            seat = status.seat
            tags: list[Text] = []
            if seat == view.dealer and not status.out:
                tags.append(Text(t("seat.dealer"), style="cyan"))
            if seat == view.knocker:
                ended = view.last_result if view.phase in (Phase.CHANCE, Phase.OVER) else None  # the round has ended
                threw = ended is not None and ended.round == view.round and ended.end == "throw_down"
                tags.append(Text(t("tui.tag.threw" if threw else "tui.tag.knocked"), style="bold magenta"))
            rows.append((seat, lives_text(status.remaining, view.rules, t), tags))
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
            if tags and column + max(tag.cell_len for tag in tags) > width:  # no room: under the name
                line.rstrip()
                lines.append(line)
                lines.append(Text(" " * 4).append_text(together))
                continue
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

    def __init__(self, *, id: str | None = None, t: Messages = ENGLISH) -> None:
        super().__init__(id=id)
        self.t = t
        self.label_widths = {
            mode: max(8, *(cell_len(t(label)) + 1 for label in labels)) for mode, labels in PILE_LABELS.items()
        }
        """Cells of the labels in front of the piles' cards in each mode ("Discard", "Stock", …):
        the widest and a space, at least 8 (only the mode's own, so that a count fits at 80 columns)."""
        self.label_width = self.label_widths["draw"]
        """The label width of the game shown."""
        self.targets: list[tuple[int, int, int, str]] = []
        """Clickable places: (line, first column, last column + 1, key) in the content."""
        self.large = False
        """True while the cards are drawn large."""
        self._width = 0

    def show(self, view: PlayerView, controls: Controls) -> int:
        """Redraw from the person's view and the exchange picks; returns the lines the panel
        needs in this game at this size (the same on every turn, so that the table never jumps)."""
        t = self.t
        width = self.content_size.width or self.DEFAULT_WIDTH
        self.large = width >= BIG_TABLE[0] and self.app.size.height >= BIG_TABLE[1]
        slot, high = (BIG_WIDTH + 1, 3) if self.large else (SLOT, 1)
        self.label_width = at = self.label_widths[view.rules.mode]
        lines: list[Text] = []
        targets: list[tuple[int, int, int, str]] = []
        if view.rules.mode == "draw":
            top = view.discard_top
            if top is not None:
                faces = self._faces([top])
                line = self._label("tui.table.discard").append_text(faces[0]).append(" ")
                pile = say_plural(t, "tui.table.in_pile", view.discard_size)
                if line.cell_len + pile.cell_len > width:  # a long language: the count alone
                    pile = Text(f"({t.number(view.discard_size)})")
                lines.append(line.append_text(pile))
                lines += [Text(" " * at).append_text(face) for face in faces[1:]]
                targets += [(line, at, at + slot - 1, "p") for line in range(high)]
            else:
                lines += [self._label("tui.table.discard").append(t("pile.empty"))] + [Text("")] * (high - 1)
            stock = self._label("tui.table.stock").append_text(say_plural(t, "cards.count", view.stock_size))
            targets.append((len(lines), 0, max(30, stock.cell_len), "s"))
            lines.append(stock)
        else:
            lines += self._widow_lines(view, controls, width)
            if view.widow is not None:
                targets += [
                    (line, at + i * slot, at + i * slot + slot - 1, str(4 + i))
                    for line in range(1, 1 + high)
                    for i in range(3)
                ]
        lines.append(Text(""))
        first = len(lines)
        inline = width >= 4 * slot + 2 + cell_len(t("tui.hand.values")) + 2
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

    def _label(self, key: str) -> Text:
        """A pile's label padded to :attr:`label_width` cells, the cards following it."""
        return Text(_pad(self.t(key), self.label_width))

    def _stock_line(self, view: PlayerView, width: int) -> Text:
        """The stock in widow mode: only the new widow of ``all_pass=new_widow`` (Schwimmen)
        takes cards from it (R7.3), so only then is it shown, with what it is for."""
        if view.rules.all_pass != "new_widow":
            return Text("")
        for key in ("tui.table.stock_for_widow", "tui.table.stock_for_widow_short", "cards.count"):
            line = self._label("tui.table.stock").append_text(say_plural(self.t, key, view.stock_size))
            if line.cell_len <= width:
                break
        return line

    def _widow_lines(self, view: PlayerView, controls: Controls, width: int) -> list[Text]:
        stock = self._stock_line(view, width)
        pad = Text(" " * self.label_width)
        if view.widow is not None:
            picking = view.is_my_turn and view.phase is Phase.TURN
            keys = self._keys(["4", "5", "6"]) if picking else Text("")
            faces = self._faces(view.widow, controls.picked_widow)
            return [self._label("tui.table.widow").append_text(keys), *(pad + face for face in faces), stock]
        label = self._label("tui.table.second_hand" if view.phase is Phase.DEALER_CHOICE else "tui.table.widow")
        down = self.t("tui.table.face_down")
        backs = self._faces([None] * 3)
        if self.large:
            return [label.append(down), *(pad + back for back in backs), stock]
        return [label.append_text(backs[0]), pad + Text(down), stock]

    def _hand_lines(self, view: PlayerView, controls: Controls, *, inline: bool) -> list[Text]:
        t = self.t
        me = view.seats[view.seat]
        if me.out:
            width = self.content_size.width or self.DEFAULT_WIDTH
            out = Text(t("tui.hand.out"), style="bold").wrap(self.app.console, width)
            return [*list(out)[:2], *([Text("")] * (2 - len(out)))]
        hand = view.hand
        if hand is None:
            return [Text(t("tui.hand.not_looked"), style="bold"), Text(""), *self._faces([None] * 3)]
        rules = view.rules
        title = Text(t("table.your_hand"), style="bold")
        if view.hand_value is not None:
            value = Text(format_value(view.hand_value), style="bold green")
            title.append("  ").append_text(say(t, "tui.hand.value", value=value))
        my_move = view.is_my_turn
        discarding = view.phase is Phase.DISCARD and my_move
        taken = view.taken_from_pile
        faces = self._faces(hand, controls.picked_hand, dim=taken if discarding else None)
        show_keys = my_move and (discarding or (view.phase is Phase.TURN and view.widow is not None))
        keys = self._keys([str(i + 1) for i in range(len(hand))]) if show_keys else Text("")
        lines = [title, keys, *faces]
        if discarding:
            title.append("  " + t("tui.hand.discard_one"))
            slot = BIG_WIDTH + 1 if self.large else SLOT
            after = Text("")
            kept = t("kept.tag")
            if cell_len(kept) > slot - 1:  # the word does not fit under a card: its rule says it
                kept = "R4.2"
            for card in hand:
                if card == taken:
                    after.append(_centre(kept, slot - 1) + " ", style="dim")
                else:
                    rest = [other for other in hand if other != card]
                    after.append(f"{'=' + format_value(hand_value(rest, rules)):^{slot - 1}} ", style="green")
            values = t("tui.hand.values")
            if inline:
                lines.append(after.append(f" ← {values}", style="dim"))
            else:
                lines += [after, Text(f"↑ {values}", style="dim")]
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
        self._write(line)

    def _write(self, line: Text) -> None:
        """Write ``line`` wrapped so that each of its lines fits the log in any terminal (see
        :func:`cells`): a Khmer line is wrapped shorter, since a terminal may draw it wider than
        Rich counts."""
        width = self.scrollable_content_region.width
        if not self._size_known or width <= 0 or cells(line.plain) == line.cell_len:
            self.write(line, scroll_end=True)
            return
        room = width
        for _ in range(8):
            pieces = line.wrap(self.app.console, room)
            widest = max(cells(piece.plain) for piece in pieces)
            if widest <= width or room <= 10:
                break
            room -= widest - width
        self.write(Text("\n").join(pieces), scroll_end=True)

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
                self._write(line)
        self._width = width


class TooSmall(Static):
    """The notice shown instead of a screen while the terminal is smaller than 80×24 (the app
    sets the class ``-too-small``; the style sheet shows this and hides the rest)."""

    def __init__(self, t: Messages = ENGLISH) -> None:
        super().__init__(classes="too-small")
        self.t = t

    def on_mount(self) -> None:
        """Say how big the terminal is."""
        self.refresh_notice(*self.app.size)

    def refresh_notice(self, width: int, height: int) -> None:
        """Redraw for a terminal of ``width`` × ``height``."""
        t = self.t
        size = {"width": width, "height": height, "min_width": MIN_WIDTH, "min_height": MIN_HEIGHT}
        text = "\n".join((t("tui.too_small", **size), t("tui.too_small_fix", **size)))
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
            size = cells(piece.plain)
            if column and column + 2 + size > width:  # a hint never breaks across lines
                text.append("\n")
                column = 0
            elif column:
                text.append("  ")
                column += 2
            text.append_text(piece)
            column += size
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
