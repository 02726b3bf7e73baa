"""The screens shown between rounds, over the table: the showdown of each round
(:class:`RoundEndScreen`) and the final standings (:class:`GameOverScreen`, whose ``r`` shows the review of
the game just played: :mod:`~thirtyone.tui.review_screen`). Each closes once, on its one key
(:mod:`~thirtyone.tui.keys`: ``enter``, ``n``), and says so when another game key is pressed; in a
terminal too small each shows the notice instead.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from collections.abc import Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.screen import Screen
from textual.widgets import Static

from thirtyone.events import RoundResult
from thirtyone.i18n import Messages
from thirtyone.rules import Rules
from thirtyone.scoring import format_value
from thirtyone.tui.controls import WAYS_OUT
from thirtyone.tui.controls import KeyHint
from thirtyone.tui.controls import key_name
from thirtyone.tui.controls import nothing_now
from thirtyone.tui.keys import LAST_SHOWDOWN
from thirtyone.tui.keys import REVIEW_KEY
from thirtyone.tui.keys import SHOWDOWN
from thirtyone.tui.keys import STANDINGS
from thirtyone.tui.keys import ScreenKeys
from thirtyone.tui.widgets import TooSmall
from thirtyone.tui.words import ENGLISH
from thirtyone.tui.words import cards_text
from thirtyone.tui.words import lives_text
from thirtyone.tui.words import say
from thirtyone.views import Standing

__all__ = ["RoundEndScreen", "GameOverScreen", "BLITZ_MARK"]

BLITZ_MARK = "★"
"""The mark of the hand that ended a round with a 31 (or three aces) on the showdown screen."""


class _OnceScreen(ModalScreen[None]):
    """A screen between rounds that goes on with its one key (:attr:`keys`) and closes once:
    the keys of a burst (a paste, a key held down over SSH, a slow machine) that arrive after
    the key that closed it are dropped, since the screen they were meant for is gone."""

    keys: ScreenKeys
    t: Messages
    _closed = False

    def close(self) -> None:
        """Dismiss the screen, the first time only."""
        if not self._closed:
            self._closed = True
            self.dismiss(None)

    def key_line(self) -> Static:
        """The screen's keys: its own, the others it takes, and ``q``."""
        hints = [*self.keys.hints(self.t), KeyHint("q", self.t("tui.key.quit"))]
        line = Text("   ").join(Text.assemble((f" {hint.keys} ", "bold reverse"), f" {hint.label}") for hint in hints)
        return Static(line, id="hint")

    def other_key(self, key: str) -> None:
        """Do what ``key``, one of the screen's other keys (:attr:`ScreenKeys.others`), does."""

    def on_key(self, event: events.Key) -> None:
        """Go on with the screen's key only (not while the terminal is too small): a ``space``
        meant to pass must not skip the showdown; its other keys act without closing it. Another
        game key says it does nothing now (``f`` goes on to the app); a key after the one that
        closed it is dropped. A way out goes on to the app, in its turn."""
        if key_name(event.key) in WAYS_OUT:
            return
        if self._closed or self.app.screen is not self:
            event.stop()
            return
        key = key_name(event.key)
        if key == self.keys.key or key in dict(self.keys.others):
            event.stop()
            if self.app.has_class("-too-small"):
                return
            if key == self.keys.key:
                self.close()
            else:
                self.other_key(key)
            return
        message = nothing_now(key, self.keys.hint, self.t) if key != "f" else None
        if message is not None:
            event.stop()
            said = self.query_one("#said", Static)
            said.update(Text(message, style="bold red"))
            said.display = True


class RoundEndScreen(_OnceScreen):
    """The showdown of a round: every hand shown with its value, the lives each player lost and
    why (rule and reason), who went onto the grace life or out, and the R2.6 note. After a blitz
    only the blitz hands (marked ★) are shown, and the viewer's own (``RoundResult.for_seat``,
    R5.1); a legend says so. ``before`` are the seats' remaining losses before the round, to
    show what a player on the grace life really lost. ``enter`` closes it."""

    DEFAULT_CSS = """
    RoundEndScreen { align: center middle; }
    RoundEndScreen > Vertical {
        width: 78; height: auto; max-height: 100%; overflow-y: auto;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    RoundEndScreen #result { height: auto; }
    RoundEndScreen #hint { height: 1; margin-top: 1; }
    RoundEndScreen #said { height: auto; display: none; }
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
        t: Messages = ENGLISH,
    ) -> None:
        super().__init__()
        self.t = t
        self.result = result
        self.lines = tuple(lines)
        self.names = tuple(names)
        self.rules = rules
        self.viewer = viewer
        self.last = last
        self.keys = LAST_SHOWDOWN if last else SHOWDOWN
        self.before = None if before is None else tuple(before)

    def compose(self) -> ComposeResult:
        """The result and the keys (or, in a terminal too small, a notice)."""
        t = self.t
        yield TooSmall(t)
        with Vertical(classes="game"):
            yield Static(self.render_result(), id="result")
            yield self.key_line()
            yield Static("", id="said")

    def render_result(self) -> Group:
        """The headline, a table of hands, values, lives lost and lives left, the legend after a
        blitz, and the loss lines."""
        t = self.t
        result = self.result
        table = Table(box=None, padding=(0, 1), show_edge=False, header_style="bold")
        for column, justify in (
            ("tui.col.player", "left"),
            ("tui.col.hand", "left"),
            ("tui.col.value", "right"),
            ("tui.col.lost", "right"),
            ("tui.col.now", "left"),
        ):
            table.add_column(t(column), justify=justify)  # type: ignore[arg-type]
        hidden = False
        for seat, name in enumerate(self.names):
            after = result.remaining[seat]
            if after <= 0 and seat not in result.eliminated:
                continue  # out before this round
            hand = result.hands[seat]
            value = result.values[seat]
            who = Text(name, style="bold" if seat == self.viewer else "")
            if seat == result.knocker:
                tag = t("tui.tag.threw" if result.end == "throw_down" else "tui.tag.knocked")
                who.append(f" {tag}", style="bold magenta")
            if seat in result.blitz:
                who.append(f" {BLITZ_MARK}", style="bold yellow")
            if hand is None:
                hidden = True
            table.add_row(
                who,
                cards_text(hand) if hand is not None else Text(t("tui.not_shown"), style="dim"),
                format_value(value) if value is not None else "",
                self._lost(seat),
                Text(lives_text(after, self.rules, t), style="bold red" if after <= 0 else ""),
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
        t = self.t
        result = self.result
        if not result.blitz:
            return Text("")
        aces = 33 in [result.values[seat] for seat in result.blitz]
        key = "tui.legend.dealt" if result.end == "dealt_blitz" else "tui.legend.showed"
        rule = result.losses[0].rule if result.losses else "R5.1"
        shown = t("shown.three_aces" if aces else "shown.31")
        legend = say(t, key, "yellow", mark=BLITZ_MARK, shown=shown)
        if hidden:
            why = t("tui.legend.hidden_blitz" if aces else "tui.legend.hidden_31", rule=rule)
            legend.append(f"   {why}", style="dim")
        return legend


class GameOverScreen(_OnceScreen):
    """The final standings (R2.5), the game's seed (``again``: the options that deal the game
    again, ``--seed`` with the rules, players and bots that are not the defaults) and
    the choice of another game (``n``, which closes it), the review of the game just played
    (``r``, with ``review``: it makes the review's screen, shown over the standings) or quitting
    (``q``, the app's key)."""

    DEFAULT_CSS = """
    GameOverScreen { align: center middle; }
    GameOverScreen > Vertical {
        width: 60; height: auto; max-height: 100%; overflow-y: auto;
        border: thick $success; background: $surface; padding: 0 1;
    }
    GameOverScreen #standings { height: auto; }
    GameOverScreen #hint { height: 1; margin-top: 1; }
    GameOverScreen #said { height: auto; display: none; }
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
        again: str = "",
        review: Callable[[], Screen[None]] | None = None,
        t: Messages = ENGLISH,
    ) -> None:
        super().__init__()
        self.t = t
        self.review = review
        self.standings = tuple(standings)
        self.names = tuple(names)
        self.rules = rules
        self.note = note
        self.viewer = viewer
        self.seed = seed
        self.again = again or (f"--seed={seed}" if seed is not None else "")  # as PlaySettings.deal_again writes it
        self.keys = STANDINGS if review is not None else dataclasses.replace(STANDINGS, others=())

    def other_key(self, key: str) -> None:
        """``r``: the review of the game just played, over the standings."""
        if key == REVIEW_KEY and self.review is not None:
            self.app.push_screen(self.review())

    def compose(self) -> ComposeResult:
        """The standings and the keys (or, in a terminal too small, a notice)."""
        t = self.t
        yield TooSmall(t)
        with Vertical(classes="game"):
            yield Static(self.render_standings(), id="standings")
            yield self.key_line()
            yield Static("", id="said")

    def render_standings(self) -> Group:
        """The winner, the table of places, the seed, and the note (where the record was saved)."""
        t = self.t
        winner = self.standings[0].seat
        if winner == self.viewer:
            headline = t("over.winner_you", who=t("seat.you"))
        else:
            headline = t("over.winner", who=self.names[winner])
        table = Table(box=None, padding=(0, 1), show_edge=False, header_style="bold")
        table.add_column(t("tui.col.place"), justify="right")
        table.add_column(t("tui.col.player"))
        table.add_column(t("tui.col.lives"))
        for standing in self.standings:
            style = "bold" if standing.seat == self.viewer else ""
            table.add_row(
                t.number(standing.place),
                Text(self.names[standing.seat], style=style),
                lives_text(standing.remaining, self.rules, t),
            )
        parts: list[Text | Table] = [say(t, "tui.over.title", "bold green", winner=headline), Text(""), table]
        if self.seed is not None:
            option = Text(self.again, style="bold")
            parts += [Text(""), say(t, "tui.over.seed", seed=str(self.seed), option=option)]
        if self.note:
            parts += [Text(""), Text(self.note)]
        return Group(*parts)
