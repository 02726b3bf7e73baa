"""``ThirtyOneApp``: the Textual app of ``thirtyone play``.

The person sits in seat 0; bots play the other seats. The app shows the person's view of the
game (never another player's hidden card), a log of every move in words, and the showdown of
each round, and it offers only legal moves, each on a key listed in the key line. Nothing blocks
the screen: every wait is a timer, and the expert's searches run on a thread of their own.

The app lays out the screen and wires the homes of its jobs, each a module of its own:

- the game itself, without a screen: :class:`~thirtyone.tui.session.PlaySession` (the table stays
  as a round ended until the person closes its showdown: then the next deal is taken);
- the keys, what each does on each screen and the key line: :class:`~thirtyone.tui.keys.Keys`;
- the bots' pace (``delay`` seconds a turn, thinking included; ``fast``; the searching bots'
  thread): :class:`~thirtyone.tui.pacing.BotPacing`;
- the hints (``?``), their thread and the expert's readiness: :class:`~thirtyone.tui.hints.Hints`
  (the expert's compiled simulator is prepared from the moment the app opens:
  :class:`~thirtyone.tui.prepare.Preparation`);
- the record, saved after every action and on every way out (``q``, ctrl+q, ctrl+c,
  :meth:`ThirtyOneApp.request_quit` from a signal handler): :class:`~thirtyone.tui.autosave.Autosave`;
- each finished game kept for ``thirtyone stats`` (unless ``--no-history``):
  :class:`~thirtyone.tui.history.History`;
- the title and status lines in words: :class:`~thirtyone.tui.status.Status`; the panels
  (:mod:`~thirtyone.tui.widgets`), the screens between rounds (:mod:`~thirtyone.tui.screens`)
  and the review of the game just played (:mod:`~thirtyone.tui.review_screen`).

Under the status line one message shows at a time — the answer to the last key, or the hint,
whichever came last — never more lines than the screen has room for under the log. In a
terminal smaller than 80×24 every screen shows a notice instead of a broken table, until the
terminal is large enough again.

Run it with ``ThirtyOneApp(settings).run()``; in tests use ``app.run_test(size=(80, 24))``.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import App
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal
from textual.containers import Vertical
from textual.widgets import Static

from thirtyone.bots.review import Review
from thirtyone.bots.turn import BotFailure
from thirtyone.engine import Game
from thirtyone.events import RoundEnded
from thirtyone.events import RoundResult
from thirtyone.i18n import messages
from thirtyone.text import error_line
from thirtyone.tui.autosave import Autosave
from thirtyone.tui.cells import count_spacing_signs
from thirtyone.tui.controls import WAYS_OUT
from thirtyone.tui.controls import Controls
from thirtyone.tui.controls import key_name
from thirtyone.tui.hints import Hints
from thirtyone.tui.history import History
from thirtyone.tui.keys import LAST_SHOWDOWN
from thirtyone.tui.keys import SHOWDOWN
from thirtyone.tui.keys import STANDINGS
from thirtyone.tui.keys import Keys
from thirtyone.tui.keys import ScreenKeys
from thirtyone.tui.keys import WaitingFor
from thirtyone.tui.pacing import BotPacing
from thirtyone.tui.prepare import Preparation
from thirtyone.tui.prepare import simulator_preparation
from thirtyone.tui.review_screen import ReviewScreen
from thirtyone.tui.screens import GameOverScreen
from thirtyone.tui.screens import RoundEndScreen
from thirtyone.tui.session import HUMAN
from thirtyone.tui.session import PlaySession
from thirtyone.tui.settings import PlaySettings
from thirtyone.tui.status import Status
from thirtyone.tui.widgets import MIN_HEIGHT
from thirtyone.tui.widgets import MIN_WIDTH
from thirtyone.tui.widgets import GameLog
from thirtyone.tui.widgets import KeyBar
from thirtyone.tui.widgets import SeatsPanel
from thirtyone.tui.widgets import TablePanel
from thirtyone.tui.widgets import TooSmall
from thirtyone.tui.words import Narrator

__all__ = ["ThirtyOneApp"]

MIN_TOP = 7
"""Content lines of the table panel; the top row grows with the number of players."""

MIN_TABLE = 32
"""The narrowest the table panel gets, border included; the players panel takes what its rows
need, and the table the rest of the width."""

MIN_LOG = 4
"""The fewest lines the log keeps, its border included, when the message under the status grows."""

MESSAGE_LINES = 4
"""The most lines the message under the status line takes (a hint and its legend)."""


class ThirtyOneApp(App[None], inherit_bindings=False):
    """The terminal game: one session of games against bots (see the module docstring).

    ``session`` holds the current game (``app.game``); ``log_lines`` the log of this game as
    plain text; ``records`` the saved records (``records.notes``: what the command line prints
    after the app closes; ``records.error``: why a record could not be saved); ``waiting_for``
    what play waits for (:class:`~thirtyone.tui.keys.WaitingFor`: the person, the bots, the
    showdown closed, another game from the final standings, or nothing once a bot failed).
    """

    CSS_PATH = "thirtyone.tcss"
    TITLE = "Thirty-One"
    BINDINGS: ClassVar[list[BindingType]] = []
    """None: not inheriting Textual's (its ctrl+q is a priority binding); the ways out are keys
    handled in their turn (:meth:`on_key`)."""

    def __init__(self, settings: PlaySettings, *, preparation: Preparation | None = None) -> None:
        super().__init__()
        self.settings = settings
        self.translate = messages(settings.lang)
        """Translates a message key into the language of every screen (``settings.lang``):
        ``translate("tui.quit.ask")`` is the line, ``translate.plural``/``number``/``list`` write
        counts, numbers and lists its way (:class:`~thirtyone.i18n.Messages`); the panels and
        screens are given it as their ``t``."""
        self.preparation = simulator_preparation(settings.rules) if preparation is None else preparation
        """Prepares the expert's compiled simulator from the moment the app opens; until it is
        usable the expert searches on the engine."""
        self.session = PlaySession(settings, simulator_ready=lambda: self.preparation.usable)
        self.controls = Controls(self.translate)
        self.narrator = Narrator(self.session.names, settings.rules, HUMAN, self.translate)
        self.records = Autosave(self.session, self.translate)
        self.history = History(settings.history)
        """Keeps each finished game for ``thirtyone stats`` (:mod:`~thirtyone.tui.history`)."""
        self.pacing = BotPacing(
            self,
            self.session,
            delay=settings.delay,
            fast=settings.fast,
            show=self.advance,
            fail=self.bot_failed,
            waiting=lambda: self.waiting_for == WaitingFor.BOTS,
        )
        self.hints = Hints(
            self,
            self.session,
            self.preparation,
            self.translate,
            width=self._width,
            show=self._hint_changed,
            tell=lambda line: self.set_feedback(line, until_turn=True),
            status=self._refresh_status,
        )
        self.keys = Keys(self, self.session, self.controls, self.hints, self.pacing, self.translate)
        self.status = Status(self.session, self.controls, self.hints)
        self.log_lines: list[str] = []
        self.feedback = Text("")
        """The answer to the last key (empty when none)."""
        self.message = Text("")
        """The message shown under the status line: the hint or the feedback, whichever came
        last, cut to the lines the screen has room for."""
        self._latest = "hint"  # which of the hint and the feedback came last
        self._said_wait = False  # the feedback is said until the person's turn comes ("Wait: …")
        self.waiting_for: WaitingFor = WaitingFor.START
        self._showdown_keys = SHOWDOWN  # the open showdown's: the same words on its screen and in the key line
        self._event_loop: asyncio.AbstractEventLoop | None = None
        self._widths = contextlib.ExitStack()  # Rich's cell counts for the script, until the app ends
        self._leaving = False  # a way out was taken: the keys typed after it are dropped
        self._quit_asked = False  # q mid-round asked whether to quit: q again quits

    def on_unmount(self) -> None:
        """Give Rich its own cell counts back, and stop a compile still running apart."""
        self._widths.close()
        self.preparation.stop()

    @property
    def game(self) -> Game:
        """The game being played."""
        return self.session.game

    @property
    def too_small(self) -> bool:
        """True while the terminal is smaller than the table needs (80×24): a notice shows instead."""
        return self.has_class("-too-small")

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        """The title line, the players and the table, the log, the status line and the keys (and
        the notice for a terminal too small, hidden until then)."""
        yield TooSmall(self.translate)
        with Vertical(id="game", classes="game"):
            yield Static(id="title")
            with Horizontal(id="top"):
                yield SeatsPanel(id="seats", t=self.translate)
                yield TablePanel(id="table", t=self.translate)
            yield GameLog(id="log")
            yield Static(id="status")
            yield Static(id="message")
            yield KeyBar(id="keys")

    def on_mount(self) -> None:
        """Lay out the table for the number of players and start playing (in Khmer, with Rich
        counting cells as ``wcwidth`` terminals do: :func:`~thirtyone.tui.cells.count_spacing_signs`)."""
        if self.translate.lang == "km":
            self._widths.enter_context(count_spacing_signs())
        self._event_loop = asyncio.get_running_loop()
        self.preparation.start()
        self.hints.watch()
        self._set_top_height(self.settings.players)
        self.title = self.translate("app.name")
        self.query_one("#seats").border_title = self.translate("table.players")
        self.query_one("#table").border_title = self.translate("table.table_tab")
        self.query_one("#log").border_title = self.translate("table.log")
        self._check_size(*self.size)
        if self.settings.notice:  # the language asked for is not the game's: said before anything else
            self.set_feedback(self.settings.notice)
        self._set_widths(self.size.width)
        self._log_rules()
        if self.settings.resume is not None:
            self._catch_up()
        self.advance()

    def _log_rules(self) -> None:
        """The game's rules as the log's first line, when options differ from the preset's (the
        title may only count them)."""
        line = self.status.rules_line()
        if line is not None:
            self.write_log(line)

    def _catch_up(self) -> None:
        """A resumed game (``--resume``): its moves so far in the log, its showdowns not shown
        again, and a line that says so."""
        for event in self.session.next_events():
            for line in self.narrator.describe(event):
                self.write_log(line)
        if not self.settings.notice:
            self.set_feedback(self.translate("tui.resumed", round=self.game.round))

    def on_resize(self, event: events.Resize) -> None:
        """Show the notice below 80×24 (and the table again above); fit the title and the
        players to the new width."""
        self._check_size(event.size.width, event.size.height)
        self._set_widths(event.size.width)
        self.call_after_refresh(self.redraw)

    def redraw(self) -> None:
        """Draw the table again as it stands (under a screen between rounds, with its key)."""
        if self.is_running and self.waiting_for != WaitingFor.START:
            self.refresh_table(keys=len(self.screen_stack) == 1)

    def _check_size(self, width: int, height: int) -> None:
        self.set_class(width < MIN_WIDTH or height < MIN_HEIGHT, "-too-small")
        for screen in self.screen_stack:
            for notice in screen.query(TooSmall):
                notice.refresh_notice(width, height)

    def _set_widths(self, width: int) -> None:
        """The players panel as wide as its rows need (border and padding: 4 columns), leaving
        the table at least :data:`MIN_TABLE`; the table takes the rest."""
        need = SeatsPanel.natural_width(self.session.names, self.settings.rules, self.translate) + 4
        self.query_one("#seats").styles.width = max(min(need, width - MIN_TABLE), 20)

    def _set_top_height(self, lines: int) -> None:
        self.query_one("#top").styles.height = max(lines, MIN_TOP) + 2

    # ------------------------------------------------------------------ the flow of play

    def advance(self) -> None:
        """Show what happened and move the game on: log new events (saving the record after
        them), stop at a round's end for the showdown, then wait for the person, or let the next
        bot play its turn (:class:`~thirtyone.tui.pacing.BotPacing`), until something needs the
        person."""
        self.pacing.cancel()
        while True:
            ended: tuple[RoundResult, list[Text], list[int]] | None = None
            moved = False
            for event in self.session.next_events():
                moved = True
                before = list(self.narrator.remaining)
                lines = self.narrator.describe(event)
                for line in lines:
                    self.write_log(line)
                if isinstance(event, RoundEnded):
                    ended = (event.result, lines, before)
                    break
            if moved:
                self.autosave()
            if ended is not None:
                self.show_round_end(*ended)
                return
            if self.game.is_over:
                self.show_game_over()
                return
            self.refresh_table()
            if self.session.human_to_move:
                self.waiting_for = WaitingFor.YOU
                if self._said_wait:
                    self.set_feedback("")  # the wait is over
                return
            self.waiting_for = WaitingFor.BOTS
            if not self.pacing.play():
                return

    def bot_failed(self, failure: BotFailure) -> None:
        """Stop play and say which bot failed and how: what it raised (escaped: a plugin's
        words), or the move it chose that the rules do not allow now; the record keeps every
        move before."""
        self.waiting_for = WaitingFor.BROKEN
        name = self.session.names[failure.seat]
        if failure.error is not None:
            text = self.translate("tui.bot_failed", name=name, error=error_line(failure.error))
        else:
            text = self.translate("tui.bot_illegal", name=name, action=failure.action or "?")
        self.set_feedback(text, error=True)
        self._part("#status").update(self.status.status_text(self.session.view(), self.waiting_for, self._width()))

    def show_round_end(self, result: RoundResult, lines: list[Text], before: list[int] | None = None) -> None:
        """Show the showdown until the person closes it; then take the next deal and go on.
        Behind it the table stays as the round left it. ``before``: each seat's remaining losses
        before the round."""
        self.waiting_for = WaitingFor.SHOWDOWN
        if self._said_wait:
            self.set_feedback("")  # the bots' turns it answered are over
        final = self.game.last_result  # every hand; ``result`` is as the person sees it (after a 31, R5.1)
        last = self.game.is_over and final is not None and result.round == final.round
        self._showdown_keys = LAST_SHOWDOWN if last else SHOWDOWN
        self.refresh_table(keys=False)
        screen = RoundEndScreen(
            result,
            lines,
            self.session.names,
            self.settings.rules,
            viewer=HUMAN,
            last=last,
            before=before,
            t=self.translate,
        )
        self.push_screen(screen, callback=lambda _: self._after_showdown())

    def _after_showdown(self) -> None:
        """The showdown is closed: the next deal (or the final standings)."""
        if not self.game.is_over:
            self.session.deal_next()
        self.advance()

    def show_game_over(self) -> None:
        """Save the record (with ``--record``) and show the final standings, with the game's seed
        and the review of the game (``r``: :class:`~thirtyone.tui.review_screen.ReviewScreen`, the
        person's seat first); the table behind them stays as the last round left it."""
        self.waiting_for = WaitingFor.OVER
        self.set_feedback("")  # a "Wait: …" from the last turns is over
        self.refresh_table(keys=False)
        note = self.records.save()
        self._show_message()
        record = self.records.record()
        kept = self.history.keep(record, self.session.game_number, seed=self.session.game_seed)
        if self.history.failure is not None:  # said under the record's line
            note = "\n".join(filter(None, [note, self.translate("tui.history.failed", reason=self.history.failure)]))
        reviews: dict[int, Review] = {}  # each seat's, once made: kept while the standings show

        def review() -> ReviewScreen:
            return ReviewScreen(
                record,
                self.session.names,
                HUMAN,
                worlds=self.settings.review_worlds,
                preparation=self.preparation,
                reviews=reviews,
                t=self.translate,
                kept=kept,  # your review, once made, is kept beside the game for thirtyone stats
            )

        screen = GameOverScreen(
            self.game.standings,
            self.session.names,
            self.settings.rules,
            note,
            viewer=HUMAN,
            seed=self.session.game_seed,
            again=self.settings.deal_again(self.session.game_seed),
            review=review,
            t=self.translate,
        )
        self.push_screen(screen, callback=lambda _: self.new_game())  # closed by n: another game

    def new_game(self) -> None:
        """Deal another game with the same settings (the next seed of the session)."""
        self.pacing.reset()
        self.session.new_game()
        self.controls.clear()
        self.narrator = Narrator(self.session.names, self.settings.rules, HUMAN, self.translate)
        self.log_lines.clear()
        self.query_one(GameLog).clear_entries()
        self.set_feedback("")
        self._log_rules()
        self.advance()

    def autosave(self) -> None:
        """Save the record as the game stands now (with ``--record``, once anything has
        happened): after every action, and on the way out."""
        if self.records.save() and self.is_running:
            self._show_message()  # a save that failed is said; one that works again no longer

    # ------------------------------------------------------------------ keys and quitting

    def on_key(self, event: events.Key) -> None:
        """The person's keys on the table (the showdown and game-over screens have their own),
        and the ways out (:data:`~thirtyone.tui.controls.WAYS_OUT`) on every screen: each key
        comes here after the keys typed before it, so every move typed before a way out is played
        (or refused) and saved first; keys typed after it are dropped."""
        key = key_name(event.key)  # Caps Lock or shift: S is s
        if self._leaving or key in WAYS_OUT:
            event.stop()
            event.prevent_default()  # no binding of Textual's acts on it as well
            if self._leaving:
                return
            # a slip of a finger: ask (not while the notice of a terminal too small, which says
            # "q quits", hides the question)
            if key == "q" and not self._quit_asked and self.mid_round and not self.too_small:
                self._quit_asked = True
                self.set_feedback(self.translate("tui.quit.ask"))
                return
            self.action_quit_game()
            return
        if self._quit_asked:  # any other key plays on, and does what it does
            self._quit_asked = False
            self.set_feedback("")
        if (len(self.screen_stack) == 1 or key == "f") and self.keys.press(key):
            event.stop()  # f (bots fast or slow) also works while the showdown or the standings show

    def on_table_panel_picked(self, message: TablePanel.Picked) -> None:
        """A click on a card, the discard pile or the stock: the same as its key."""
        if len(self.screen_stack) == 1:
            self.keys.press(message.key)

    def on_table_panel_widened(self, message: TablePanel.Widened) -> None:
        """The table's width changed (the first layout, a resize): draw it for its new width."""
        self.redraw()

    @property
    def mid_round(self) -> bool:
        """True while a round is under way on the table (no screen between rounds on it): ``q``
        then asks before quitting (``q`` again quits; ctrl+q and ctrl+c quit at once)."""
        return len(self.screen_stack) == 1 and self.waiting_for.someone_to_move

    def action_quit_game(self) -> None:
        """Quit at any time (``q``, ctrl+q, ctrl+c); the game record is saved first with
        ``--record``."""
        self._leaving = True
        self.pacing.cancel()
        self.autosave()
        self.exit(return_code=1 if self.records.error else 0)

    async def action_quit(self) -> None:
        """Textual's own quit (ctrl+q, the command palette): the same as ``q``."""
        self.action_quit_game()

    def action_help_quit(self) -> None:
        """Textual's ctrl+c: quit, the same as ``q``."""
        self.action_quit_game()

    def request_quit(self) -> None:
        """Quit as soon as the app can, saving the record first; safe to call from a signal
        handler or another thread (``thirtyone play`` calls it on SIGHUP and SIGTERM)."""
        loop = self._event_loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop is closing: the app has ended
                loop.call_soon_threadsafe(self.action_quit_game)

    # ------------------------------------------------------------------ drawing

    def _part(self, selector: str) -> Static:
        """A part of the table screen (even while a showdown covers it)."""
        return self.screen_stack[0].query_one(selector, Static)

    def write_log(self, line: Text) -> None:
        """Add a line to the log (and to ``log_lines``)."""
        self.log_lines.append(line.plain)
        self.screen_stack[0].query_one(GameLog).add(line)

    def set_feedback(self, text: str, *, error: bool = False, until_turn: bool = False) -> None:
        """Answer the last key (red for a refused move) in the message under the status line, in
        place of the hint; an empty text takes the answer away (the hint, if any, shows again).
        ``until_turn``: the answer goes once the person's turn comes (it answered a key pressed
        while others were to move). With nothing else to say, the message says why the record
        could not be saved, if it could not."""
        self.feedback = Text(text, style="bold red" if error else "green")
        self._said_wait = until_turn
        self._latest = "feedback" if text else "hint"
        self._show_message()

    def _hint_changed(self, hint: Text) -> None:
        if hint.plain:
            self._latest = "hint"
        self._show_message()

    def _width(self) -> int:
        """The columns of a line under the log (the screen's, less the padding)."""
        return max(self.size.width - 2, 1)

    def _lines(self, text: Text, width: int) -> int:
        """How many lines ``text`` takes wrapped to ``width`` columns."""
        return len(text.wrap(self.console, width)) if text.plain else 0

    def _message_room(self) -> int:
        """The lines the message may take: at most :data:`MESSAGE_LINES`, and never so many that
        the log keeps fewer than :data:`MIN_LOG` (the title, the players and the table, the
        status line and the key line above and below keep theirs)."""
        width = self._width()
        top = self.query_one("#top").styles.height
        top_lines = int(top.value) if top is not None else MIN_TOP + 2
        status = self._part("#status").content
        status_lines = self._lines(status, width) if isinstance(status, Text) else 1
        keys = self.screen_stack[0].query_one(KeyBar).content
        key_lines = max(self._lines(keys, width), 1) if isinstance(keys, Text) else 1
        room = self.size.height - 1 - top_lines - MIN_LOG - status_lines - key_lines
        return max(1, min(MESSAGE_LINES, room))

    def _fit(self, text: Text, width: int, room: int) -> Text:
        """``text`` wrapped to ``width``, cut to ``room`` lines (the last ending in "…")."""
        lines = text.wrap(self.console, width)
        if len(lines) <= room:
            return text
        kept = list(lines)[:room]
        last = kept[-1]
        last.truncate(width - 1)
        last.rstrip()
        last.append("…")
        return Text("\n").join(kept)

    def _show_message(self) -> None:
        """Show the one message under the status line: the hint or the answer to the last key,
        whichever came last (with neither, why the record could not be saved), in the lines
        there is room for (a hint that does not fit says less: :meth:`Hints.fitted
        <thirtyone.tui.hints.Hints.fitted>`)."""
        width, room = self._width(), self._message_room()
        if self.hints.text.plain and (self._latest == "hint" or not self.feedback.plain):
            shown = self.hints.fitted(width, lambda answer: self._lines(answer, width) <= room)
        else:
            shown = self.feedback
            problem = self.records.problem()
            if not shown.plain and problem is not None:
                shown = Text(problem, style="bold red")
        self.message = self._fit(shown, width, room)
        widget = self._part("#message")  # the table's, even under a modal
        widget.update(self.message)
        widget.display = bool(self.message.plain)

    def _between(self) -> ScreenKeys | None:
        """The keys of the screen between rounds on top of the table, if one is."""
        if self.waiting_for == WaitingFor.SHOWDOWN:
            return self._showdown_keys
        return STANDINGS if self.waiting_for == WaitingFor.OVER else None

    def refresh_table(self, *, keys: bool = True) -> None:
        """Redraw the title, players, table, status line, message and key line from the person's
        view (``keys``: the table's keys, else those of the screen between rounds on top of it;
        while a round's end shows, the table as that round left it)."""
        view = self.session.view()
        width = self._width()
        self._part("#title").update(self.status.title_text(view, width))
        lines = self.screen_stack[0].query_one(SeatsPanel).show(view, self.session.names)
        table = self.screen_stack[0].query_one(TablePanel).show(view, self.controls)
        self._set_top_height(max(lines, table, self.settings.players))
        self._part("#status").update(self.status.status_text(view, self.waiting_for, width))
        self.screen_stack[0].query_one(KeyBar).show(self.keys.line(view, None if keys else self._between()))
        if self.hints.stale():
            self.hints.clear()
        else:
            self._show_message()

    def _refresh_status(self) -> None:
        """Draw the status line again (while someone is to move)."""
        if self.waiting_for.someone_to_move:
            view = self.session.view()
            self._part("#status").update(self.status.status_text(view, self.waiting_for, self._width()))
