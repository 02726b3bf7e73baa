"""What each key does on each screen of the terminal game, and the key line that lists them.

On the table the person's moves are :class:`~thirtyone.tui.controls.Controls`' keys for the view
now (only legal moves are offered; a move the rules forbid is explained with its rule id and
changes nothing); ``?`` asks for a hint, ``f`` switches the bots between fast and paced (on every
screen), and a game key pressed while a bot is to move says whom the game waits for. Between
rounds one key goes on (:class:`ScreenKeys`): ``enter`` closes the showdown, ``n`` deals another
game from the final standings (where ``r`` shows the review of the game just played); any other
game key says so. ``q``, ctrl+q and ctrl+c quit on every
screen, each in its turn after the keys typed before it (the app's
:meth:`~thirtyone.tui.app.ThirtyOneApp.on_key`); mid-round ``q`` asks first.

>>> SHOWDOWN.key, LAST_SHOWDOWN.label, STANDINGS.key
('enter', 'tui.key.standings', 'n')
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING
from typing import Protocol

from thirtyone.i18n import Messages
from thirtyone.refusals import IllegalActionError
from thirtyone.tui.controls import HINT_KEYS
from thirtyone.tui.controls import KEY_NAMES
from thirtyone.tui.controls import Controls
from thirtyone.tui.controls import KeyHint
from thirtyone.tui.session import PlaySession
from thirtyone.tui.words import error_words
from thirtyone.views import PlayerView

if TYPE_CHECKING:
    from thirtyone.tui.hints import Hints
    from thirtyone.tui.pacing import BotPacing

__all__ = ["Keys", "ScreenKeys", "Table", "SHOWDOWN", "LAST_SHOWDOWN", "STANDINGS", "REVIEW_KEY"]


@dataclass(frozen=True)
class ScreenKeys:
    """The key that goes on from a screen between rounds, the message of what it does (the
    screen's own key line and the app's), the message that says what to press when another
    game key is pressed there, and ``others``: the keys that do something there without going
    on, each with the message of what it does."""

    key: str
    label: str
    hint: str
    others: tuple[tuple[str, str], ...] = ()

    def hints(self, t: Messages) -> list[KeyHint]:
        """The screen's keys for a key line, in the words of ``t``: its own, then the others."""
        return [KeyHint(key, t(label)) for key, label in ((self.key, self.label), *self.others)]


SHOWDOWN = ScreenKeys("enter", "tui.key.next_round", "tui.do.next_round")
"""The showdown of a round: ``enter`` deals the next round."""
LAST_SHOWDOWN = ScreenKeys("enter", "tui.key.standings", "tui.do.standings")
"""The showdown of the game's last round: ``enter`` shows the final standings."""
REVIEW_KEY = "r"
"""The key of the review of the game just played, at the final standings."""
STANDINGS = ScreenKeys("n", "tui.key.another", "tui.do.another_game", ((REVIEW_KEY, "tui.key.review"),))
"""The final standings: ``n`` deals another game; ``r`` shows the review of the game just played."""


class WaitingFor(StrEnum):
    """What play on the table waits for (the app's ``waiting_for``).

    >>> WaitingFor.BOTS.someone_to_move, WaitingFor.SHOWDOWN.someone_to_move
    (True, False)
    """

    START = "start"
    """The app has not shown the first deal yet."""
    YOU = "you"
    """The person's move."""
    BOTS = "bots"
    """A bot's move (paced, or at once with ``f``)."""
    SHOWDOWN = "showdown"
    """The person closing the showdown of a round (``enter``)."""
    OVER = "over"
    """The final standings: the game is over (``n`` deals another)."""
    BROKEN = "broken"
    """Nothing: a bot failed, and nobody moves any more."""

    @property
    def someone_to_move(self) -> bool:
        """True while a round is under way: the person or a bot is to move."""
        return self in (WaitingFor.YOU, WaitingFor.BOTS)


class Table(Protocol):
    """What the keys act on: the app's table screen, ``waiting_for`` what its play waits for."""

    waiting_for: WaitingFor

    @property
    def too_small(self) -> bool:
        """True while the terminal is too small for the table (keys do nothing then)."""
        ...

    def set_feedback(self, text: str, *, error: bool = False, until_turn: bool = False) -> None:
        """Answer the last key (see :meth:`~thirtyone.tui.app.ThirtyOneApp.set_feedback`)."""
        ...

    def advance(self) -> None:
        """Show what happened and move the game on."""
        ...

    def refresh_table(self, *, keys: bool = True) -> None:
        """Draw the table again (``keys``: with the table's keys on the key line)."""
        ...

    def redraw(self) -> None:
        """Draw the table again as it stands (under a screen between rounds, with its key)."""
        ...


class Keys:
    """The keys of ``table``'s game (``session``): the person's moves through ``controls``, the
    hint (``hints``), the bots' pace (``pacing``), in the words of ``t``."""

    def __init__(
        self, table: Table, session: PlaySession, controls: Controls, hints: Hints, pacing: BotPacing, t: Messages
    ) -> None:
        self.table = table
        self.session = session
        self.controls = controls
        self.hints = hints
        self.pacing = pacing
        self.t = t

    def press(self, key: str) -> bool:
        """Do what ``key`` (a Textual key name, small letters) means on the table now; ``False``
        for a key that is not a game key now. Nothing happens while the terminal is too small."""
        table, t = self.table, self.t
        if table.too_small:
            return True
        if key == "f":
            fast = self.pacing.toggle()
            table.set_feedback(t("tui.fast_on" if fast else "tui.fast_off"))
            if table.waiting_for == WaitingFor.BOTS:
                table.advance()
            else:
                table.redraw()  # the key line says what f does now
            return True
        if key in HINT_KEYS:
            self.hints.ask(self.session.view())
            return True
        view = self.session.view()
        if not view.is_my_turn:
            self._wait(key)
            return False
        press = self.controls.press(view, key)
        if press is None:
            return False
        if press.message is not None:
            table.set_feedback(press.message, error=True)
        if press.action is not None:
            self.controls.clear()
            try:
                self.session.play(press.action)
            except IllegalActionError as error:
                table.set_feedback(error_words(error, self.session.names, t), error=True)
                table.refresh_table()
                return True
            self.hints.moved()
            table.set_feedback("")
            table.advance()
        elif press.changed:
            if press.message is None:
                table.set_feedback("")  # a pick answers the key: an older answer is stale
            table.refresh_table()
        return True

    def _wait(self, key: str) -> None:
        """A game key while a bot is to move: say whom the game waits for (until the person's turn)."""
        game_key = key in KEY_NAMES or (len(key) == 1 and key.isalnum())
        seat = self.session.game.current_seat
        if game_key and self.table.waiting_for == WaitingFor.BOTS and seat is not None:
            self.table.set_feedback(self.t("tui.wait", who=self.session.names[seat]), until_turn=True)

    def line(self, view: PlayerView, between: ScreenKeys | None = None) -> list[KeyHint]:
        """The key line: the keys that do something now on the table (``view``'s moves and ``?``)
        or, while a screen between rounds shows, its key (``between``); then ``f`` and ``q``."""
        t = self.t
        if between is not None:
            keys = between.hints(t)
        else:
            keys = self.controls.hints(view)
            if keys:
                keys.append(KeyHint("?", t("tui.key.hint")))
        fast = KeyHint("f", t("tui.key.slow" if self.pacing.fast else "tui.key.fast"))
        return [*keys, fast, KeyHint("q", t("tui.key.quit"))]
