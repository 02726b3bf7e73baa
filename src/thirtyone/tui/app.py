"""``ThirtyOneApp``: the Textual app of ``thirtyone play``.

The person sits in seat 0; bots play the other seats. The app shows the person's view of the
game (never another player's hidden card), a log of every move in words, and the showdown of
each round, and it offers only legal moves, each on a key listed in the key line. Bot turns
are paced (``delay`` seconds a turn, thinking included; a draw and its discard show together)
so that a person can follow them; with ``fast`` they are played at once. Nothing blocks the
screen: every wait is a timer, and the expert's searches — an ``expert`` bot's moves and the
person's hints (``?``) — run on a thread of their own; a search whose position has passed when
it ends is thrown away.

With ``--record`` the game record is saved after every action (and on every way out: ``q``,
ctrl+q, ctrl+c, :meth:`ThirtyOneApp.request_quit` from a signal handler); a save that fails is
shown on the screen and kept in ``record_error``. In a terminal smaller than 80×24 every screen
shows a notice instead of a broken table, until the terminal is large enough again.

The expert searches with the compiled simulator, whose kernels compile on their first use after
installing: the app starts preparing them (a :class:`~thirtyone.tui.prepare.Preparation`: compiled
in a child process, then loaded) the moment it opens. Nobody waits for it: until they are ready a
hint or an expert's move searches on the engine (fewer deals in its time), and while an expert is
in play the status line says so, counting the seconds, and then that the expert is ready.

Under the status line one message shows at a time — the answer to the last key, or the hint,
whichever came last — never more lines than the screen has room for under the log.

Run it with ``ThirtyOneApp(settings).run()``; in tests use ``app.run_test(size=(80, 24))``.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from functools import partial
from typing import ClassVar, TypeVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.timer import Timer
from textual.widgets import Static

from thirtyone.actions import Action, Draw, Exchange, ExchangeAll, Knock, Look, Pass
from thirtyone.bots.expert import Analysis, ExpertBot
from thirtyone.bots.work import told_reads
from thirtyone.checks import escaped
from thirtyone.engine import Game
from thirtyone.errors import IllegalActionError, ThirtyOneError
from thirtyone.events import RoundEnded, RoundResult
from thirtyone.i18n import messages
from thirtyone.rules import OPTIONS
from thirtyone.scoring import format_value
from thirtyone.tui.cells import cells, count_spacing_signs
from thirtyone.tui.controls import HINT_KEYS, KEY_NAMES, Controls, KeyHint, key_name
from thirtyone.tui.prepare import Preparation, simulator_preparation
from thirtyone.tui.session import HUMAN, BotTurn, PlaySession, Position
from thirtyone.tui.settings import PlaySettings
from thirtyone.tui.widgets import (
    MIN_HEIGHT,
    MIN_WIDTH,
    NEW_GAME,
    GameLog,
    GameOverScreen,
    KeyBar,
    RoundEndScreen,
    SeatsPanel,
    TablePanel,
    TooSmall,
)
from thirtyone.tui.words import (
    HINT_TOP,
    Narrator,
    cards_text,
    hint_text,
    move_words,
    refusal_text,
    say,
    say_plural,
    short_name,
)
from thirtyone.views import Phase, PlayerView

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

_T = TypeVar("_T")


async def off_thread(work: Callable[[], _T]) -> _T:
    """Run ``work`` on a daemon thread of its own and wait for its result without blocking the
    event loop (quitting never waits for it: a daemon thread ends with the program)."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[_T] = loop.create_future()

    def settle(result: _T | None, error: BaseException | None) -> None:
        if future.done():  # the waiter was cancelled
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)  # type: ignore[arg-type]

    def run() -> None:
        try:
            result, error = work(), None
        except BaseException as caught:  # handed to the waiter
            result, error = None, caught
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits any more
            loop.call_soon_threadsafe(settle, result, error)

    threading.Thread(target=run, name="thirtyone-search", daemon=True).start()
    return await future


class ThirtyOneApp(App[None]):
    """The terminal game: one session of games against bots (see the module docstring).

    ``session`` holds the current game (``app.game``); ``log_lines`` the log of this game as
    plain text; ``notes`` what the command line prints after the app closes (where records were
    saved); ``record_error`` why a record could not be saved (``None`` when every save worked).
    """

    CSS_PATH = "thirtyone.tcss"
    TITLE = "Thirty-One"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit_game", "quit", priority=True),
        Binding("Q", "quit_game", "quit", priority=True, show=False),
        Binding("ctrl+q", "quit_game", "quit", priority=True, show=False),
        Binding("ctrl+c", "quit_game", "quit", priority=True, show=False),
    ]

    def __init__(self, settings: PlaySettings, *, preparation: Preparation | None = None) -> None:
        super().__init__()
        self.settings = settings
        self.t = messages(settings.lang)
        """The language of every screen (``settings.lang``)."""
        self.preparation = simulator_preparation(settings.rules) if preparation is None else preparation
        """Prepares the expert's compiled simulator from the moment the app opens (see the module
        docstring); until it is usable the expert searches on the engine."""
        self.session = PlaySession(settings, simulator_ready=lambda: self.preparation.usable)
        self.controls = Controls(self.t)
        self.narrator = Narrator(self.session.names, settings.rules, HUMAN, self.t)
        self.fast = settings.fast
        self.log_lines: list[str] = []
        self._notes: dict[int, str] = {}
        self._record_errors: dict[int, str] = {}
        self.feedback = Text("")
        """The answer to the last key (empty when none)."""
        self.hint = Text("")
        """The hint for the position now (empty when none); it shows unless a newer answer to a
        key took its place (``?`` shows it again)."""
        self.hint_analysis: Analysis | None = None
        """The expert's analysis behind the hint shown now."""
        self.message = Text("")
        """The message shown under the status line: the hint or the feedback, whichever came
        last, cut to the lines the screen has room for."""
        self._hint_view: PlayerView | None = None  # the view the analysis is about
        self._latest = "hint"  # which of the hint and the feedback came last
        self._said_wait = False  # the feedback is "Wait: … is to move", until the bots' turns end
        self._expert_used = self.session.has_expert  # an expert searches: the status says how it stands
        self._expert_news = False  # how the preparation ended is said in the status line, until the next move
        self._preparing: Timer | None = None  # counts the seconds of the preparation on the status line
        self._showdown: PlayerView | None = None  # the table as the round ended, while its showdown shows
        self.waiting_for: str = "start"
        self._timer: Timer | None = None
        self._hint_for: Position | None = None  # the position of the hint shown or being worked out
        self._thinking: Position | None = None  # the position a bot is choosing its move for
        self._event_loop: asyncio.AbstractEventLoop | None = None
        self._widths = contextlib.ExitStack()  # Rich's cell counts for the script, until the app ends

    def on_unmount(self) -> None:
        """Give Rich its own cell counts back, and stop a compile still running apart."""
        self._widths.close()
        self.preparation.stop()

    @property
    def game(self) -> Game:
        """The game being played."""
        return self.session.game

    @property
    def bot_thinking(self) -> bool:
        """True while a searching bot is choosing its move on its thread."""
        return self._thinking is not None

    @property
    def too_small(self) -> bool:
        """True while the terminal is smaller than the table needs (80×24): a notice shows instead."""
        return self.has_class("-too-small")

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        """The title line, the players and the table, the log, the status line and the keys (and
        the notice for a terminal too small, hidden until then)."""
        yield TooSmall(self.t)
        with Vertical(id="game", classes="game"):
            yield Static(id="title")
            with Horizontal(id="top"):
                yield SeatsPanel(id="seats", t=self.t)
                yield TablePanel(id="table", t=self.t)
            yield GameLog(id="log")
            yield Static(id="status")
            yield Static(id="message")
            yield KeyBar(id="keys")

    def on_mount(self) -> None:
        """Lay out the table for the number of players and start playing (in Khmer, with Rich
        counting cells as ``wcwidth`` terminals do: :func:`~thirtyone.tui.cells.count_spacing_signs`)."""
        if self.t.lang == "km":
            self._widths.enter_context(count_spacing_signs())
        self._event_loop = asyncio.get_running_loop()
        self.preparation.start()
        self._count_preparation()
        self._set_top_height(self.settings.players)
        self.title = self.t("app.name")
        self.query_one("#seats").border_title = self.t("table.players")
        self.query_one("#table").border_title = self.t("table.table_tab")
        self.query_one("#log").border_title = self.t("table.log")
        self._check_size(*self.size)
        if self.settings.notice:  # the language asked for is not the game's: said before anything else
            self.set_feedback(self.settings.notice)
        self._set_widths(self.size.width)
        self.advance()

    def on_resize(self, event: events.Resize) -> None:
        """Show the notice below 80×24 (and the table again above); fit the title and the
        players to the new width."""
        self._check_size(event.size.width, event.size.height)
        self._set_widths(event.size.width)
        self.call_after_refresh(self._redraw)

    def _redraw(self) -> None:
        if self.is_running and self.waiting_for != "start":
            self.refresh_table(keys=len(self.screen_stack) == 1)

    def _check_size(self, width: int, height: int) -> None:
        self.set_class(width < MIN_WIDTH or height < MIN_HEIGHT, "-too-small")
        for screen in self.screen_stack:
            for notice in screen.query(TooSmall):
                notice.refresh_notice(width, height)

    def _set_widths(self, width: int) -> None:
        """The players panel as wide as its rows need (border and padding: 4 columns), leaving
        the table at least :data:`MIN_TABLE`; the table takes the rest."""
        need = SeatsPanel.natural_width(self.session.names, self.settings.rules, self.t) + 4
        self.query_one("#seats").styles.width = max(min(need, width - MIN_TABLE), 20)

    def _set_top_height(self, lines: int) -> None:
        self.query_one("#top").styles.height = max(lines, MIN_TOP) + 2

    # ------------------------------------------------------------------ the flow of play

    def advance(self) -> None:
        """Show what happened and move the game on: log new events (saving the record after
        them), stop at a round's end for the showdown, then wait for the person, or let the next
        bot play its turn (after the pacing delay, or at once in fast mode), until something
        needs the person."""
        self._stop_timer()
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
                self.waiting_for = "you"
                if self._said_wait:
                    self.set_feedback("")  # the wait is over
                return
            self.waiting_for = "bots"
            if self.session.bot_thinks():  # an expert: it chooses on a thread of its own
                if self._thinking != self.session.position:
                    self._start_thinking()
                return
            if not self.fast and not self.session.turn_continues():
                self._timer = self.set_timer(self.settings.delay, self._bot_tick)
                return
            if not self._bot_turn():
                return

    def _bot_tick(self) -> None:
        self._timer = None
        if self.waiting_for == "bots" and self._bot_turn():
            self.advance()

    def _bot_turn(self) -> bool:
        """Play the rest of the turn of the bot to move (a draw and its discard: one pause a
        turn); ``False`` when a bot broke a rule."""
        seat = self.game.current_seat
        try:
            self.session.bot_move()
            while self.game.current_seat == seat and self.session.turn_continues() and not self.session.bot_thinks():
                self.session.bot_move()
        except Exception as error:  # a bot that breaks a rule or fails (a plugin's bug): say so and stop
            self._bot_failed(seat, error)
            return False
        return True

    def _bot_failed(self, seat: int | None, error: Exception) -> None:
        """Stop play and say which bot failed and how (its error :func:`~thirtyone.checks.escaped`:
        a plugin's words); the record keeps every move before."""
        self.waiting_for = "broken"
        name = self.session.names[seat] if seat is not None else "?"
        if isinstance(error, IllegalActionError):
            text = self.t("tui.bot_refused", name=name, error=self._words(error))
        else:
            text = self.t(
                "tui.bot_failed",
                name=name,
                error=escaped(f"{type(error).__name__}: {error}" if str(error) else type(error).__name__),
            )
        self.set_feedback(text, error=True)
        self._part("#status").update(self.status_text(self.session.view()))

    def _start_thinking(self) -> None:
        turn = self.session.bot_turn()
        self._thinking = turn.position
        self.run_worker(self._think(turn), name=f"seat {turn.seat} thinks", group="bots", exit_on_error=False)

    async def _think(self, turn: BotTurn) -> None:
        """Let a searching bot play its turn, choosing each move on a thread (a draw, then its
        discard, shown together), wait out the rest of the pacing delay (the thinking counts
        toward it; none in fast mode, or for the rest of a turn already shown), then show it —
        unless play has moved on meanwhile (another game): then the choice is stale. While the
        expert's preparation is under way the bot searches on the engine (its
        :attr:`~thirtyone.bots.expert.ExpertBot.simulator_ready`), never waiting for the compiler."""
        loop = asyncio.get_running_loop()
        start = loop.time()
        pace = not self.session.turn_continues()
        while True:
            try:
                action: Action = await off_thread(partial(turn.bot.choose, turn.view, turn.view.legal_actions))
            except Exception as error:  # a bot that fails: say so rather than wait for ever
                if self._thinking == turn.position:
                    self._thinking = None
                    self._bot_failed(turn.seat, error)
                return
            if self._thinking != turn.position:
                return  # play has moved on (another game): the choice is stale
            if self.waiting_for != "bots":
                self._thinking = None
                return
            try:
                self.session.play_bot(turn, action)
            except ThirtyOneError as error:
                self._thinking = None
                self._bot_failed(turn.seat, error)
                return
            if not (
                self.game.current_seat == turn.seat and self.session.turn_continues() and self.session.bot_thinks()
            ):
                break
            turn = self.session.bot_turn()  # the same turn goes on: choose the discard unseen
            self._thinking = turn.position
        self._thinking = None
        played = self.session.position
        while pace and not self.fast and (left := self.settings.delay - (loop.time() - start)) > 0:
            await asyncio.sleep(min(left, 0.05))  # short steps: pressing f ends the wait
            if self.session.position != played:
                return  # shown and moved on meanwhile (f)
        if self.session.position == played and self.waiting_for == "bots":
            self.advance()

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def show_round_end(self, result: RoundResult, lines: list[Text], before: list[int] | None = None) -> None:
        """Show the showdown until the person closes it; then go on. ``before``: each seat's
        remaining losses before the round."""
        self.waiting_for = "showdown"
        if self._said_wait:
            self.set_feedback("")  # the bots' turns it answered are over
        last = self.game.is_over and result == self.game.last_result
        self._showdown = self.session.round_end_view(result)  # not the next deal, dealt already
        self.refresh_table(keys=False)
        screen = RoundEndScreen(
            result, lines, self.session.names, self.settings.rules, viewer=HUMAN, last=last, before=before, t=self.t
        )
        self.push_screen(screen, callback=lambda _: self._after_showdown())

    def _after_showdown(self) -> None:
        """The showdown is closed: the table shows the next deal (or the final standings)."""
        self._showdown = None
        self.advance()

    def show_game_over(self) -> None:
        """Save the record (with ``--record``) and show the final standings, with the game's seed;
        the table behind them stays as the last round left it."""
        self.waiting_for = "over"
        self.set_feedback("")  # a "Wait: …" from the last turns is over
        result = self.game.last_result
        if result is not None:
            self._showdown = self.session.round_end_view(result)
        self.refresh_table(keys=False)
        note = self.save_record()
        screen = GameOverScreen(
            self.game.standings,
            self.session.names,
            self.settings.rules,
            note,
            viewer=HUMAN,
            seed=self.session.game_seed,
            again=self.settings.deal_again(self.session.game_seed),
            t=self.t,
        )
        self.push_screen(screen, callback=self._after_game)

    def _after_game(self, choice: str | None) -> None:
        if choice == NEW_GAME:
            self.new_game()
        else:
            self.action_quit_game()

    def new_game(self) -> None:
        """Deal another game with the same settings (the next seed of the session)."""
        self._stop_timer()
        self._thinking = None
        self._showdown = None
        self.session.new_game()
        self.controls.clear()
        self.narrator = Narrator(self.session.names, self.settings.rules, HUMAN, self.t)
        self.log_lines.clear()
        self.query_one(GameLog).clear_entries()
        self.set_feedback("")
        self.advance()

    # ------------------------------------------------------------------ the record

    def autosave(self) -> None:
        """Save the record as the game stands now, if ``--record`` was given and anything has
        happened (after every action, and on the way out)."""
        if self.settings.record is not None and self.session.has_played:
            self.save_record()

    def save_record(self) -> str:
        """Save the current game's record if ``--record`` was given; returns a line that says
        where, or why it failed (also kept in ``notes``; a failure also in ``record_error`` and
        on the screen until a later save of the game works)."""
        if self.settings.record is None or not self.session.has_played:
            return ""
        number = self.session.game_number
        try:
            path = self.session.save_record()
        except (OSError, ThirtyOneError) as error:
            reason = f"{error.strerror}: {error.filename}" if isinstance(error, OSError) and error.strerror else error
            note = self.t("tui.record.failed", reason=reason)
            self._record_errors[number] = note
        else:
            note = self.t("tui.record.saved", path=path)
            self._record_errors.pop(number, None)
        self._notes[number] = note
        if self.is_running:
            self._show_message()
        return note

    @property
    def notes(self) -> list[str]:
        """Where each game's record was saved, or why it could not be (one line a game)."""
        return list(self._notes.values())

    @property
    def record_error(self) -> str | None:
        """Why the record of a game could not be saved (its latest save failed), else ``None``."""
        return next(iter(self._record_errors.values()), None)

    # ------------------------------------------------------------------ the person's keys

    def on_key(self, event: events.Key) -> None:
        """The person's keys on the table (the showdown and game-over screens have their own)."""
        key = key_name(event.key)  # Caps Lock or shift: S is s
        if (len(self.screen_stack) == 1 or key == "f") and self.press_key(key):
            event.stop()  # f (bots fast or slow) also works while the showdown or the standings show

    def on_table_panel_picked(self, message: TablePanel.Picked) -> None:
        """A click on a card, the discard pile or the stock: the same as its key."""
        if len(self.screen_stack) == 1:
            self.press_key(message.key)

    def on_table_panel_widened(self, message: TablePanel.Widened) -> None:
        """The table's width changed (the first layout, a resize): draw it for its new width."""
        self._redraw()

    def press_key(self, key: str) -> bool:
        """Do what ``key`` means now (see :mod:`~thirtyone.tui.controls`); ``False`` for a key
        that is not a game key. Nothing happens while the terminal is too small."""
        if self.too_small:
            return True
        if key == "f":
            self.fast = not self.fast
            self.set_feedback(self.t("tui.fast_on" if self.fast else "tui.fast_off"))
            if self.waiting_for == "bots":
                self.advance()
            else:
                self.refresh_table()
            return True
        if key in HINT_KEYS:
            self.ask_hint()
            return True
        view = self.session.view()
        if not view.is_my_turn:
            game_key = key in KEY_NAMES or (len(key) == 1 and key.isalnum())
            if game_key and self.waiting_for == "bots":
                seat = self.game.current_seat
                if seat is not None:
                    self.set_feedback(self.t("tui.wait", who=self.session.names[seat]))
                    self._said_wait = True
            return False
        press = self.controls.press(view, key)
        if press is None:
            return False
        if press.message is not None:
            self.set_feedback(press.message, error=True)
        if press.action is not None:
            self.controls.clear()
            try:
                self.session.play(press.action)
            except IllegalActionError as error:
                self.set_feedback(self._words(error), error=True)
                self.refresh_table()
                return True
            self._expert_news = False  # said until the person's next move
            self.set_feedback("")
            self.advance()
        elif press.changed:
            if press.message is None:
                self.feedback = Text("")  # a pick answers the key: an older answer is stale
            self.refresh_table()
        return True

    def _words(self, error: Exception) -> str:
        """An error in words: a refusal from its data, with the players' names (R6.1: "Ada has…");
        another error's own message, :func:`~thirtyone.checks.escaped` (a plugin bot's)."""
        if isinstance(error, IllegalActionError):
            return refusal_text(error, self.session.names, HUMAN, self.t)
        return escaped(str(error))

    # ------------------------------------------------------------------ hints

    def ask_hint(self) -> None:
        """``?``: ask the expert what it would do in the person's place, from the person's view
        only. The search runs on a thread ("thinking…" meanwhile) with the hint budget of the
        settings — on the engine while the expert's preparation is under way (the status line
        says so); its answer shows only if the position is still the same when it ends. Asked
        again at the same position, the hint shows again (in place of a newer answer to a key).
        Out of turn, a short explanation."""
        t = self.t
        view = self.session.view()
        if not view.is_my_turn:
            seat = view.current_seat
            if view.seats[view.seat].out:
                why = t("tui.hint.why_out")
            elif seat is None:
                why = t("tui.hint.why_nobody")
            else:
                why = t("tui.hint.why_other", who=short_name(self.session.names[seat]))
            self.set_feedback(t("tui.hint.not_yours", why=why))
            self._said_wait = True  # like "Wait: …", it is over when the person's turn comes
            return
        position = self.session.position
        if self._hint_for == position:
            self.show_hint(self.hint)  # shown already, or being worked out: in front again
            return
        self._hint_for = position
        self.hint_analysis = None
        legal = view.legal_actions
        if view.phase is Phase.LOOK:
            self.show_hint(say(t, "tui.hint.look", move=move_words(Look(), view, t)))
            return
        if len(legal) == 1:
            self.show_hint(say(t, "hint.only", moves=move_words(legal[0], view, t)))
            return
        bot = self.session.hint_bot()
        if not self._expert_used:
            self._expert_used = True
            self._expert_news = self.preparation.ready  # how it ended, if it has
            self._refresh_status()
        self.show_hint(self._thinking_text(bot))
        self.run_worker(self._work_out_hint(position, view, bot), name="hint", group="hint", exit_on_error=False)

    def _thinking_text(self, bot: ExpertBot) -> Text:
        t = self.t
        if bot.seconds is None:
            budget = t.plural("tui.hint.deals", bot.worlds)
        else:
            budget = t("tui.hint.seconds", seconds=t.number(bot.seconds))
        return say(t, "tui.hint.thinking", "italic", budget=budget)

    async def _work_out_hint(self, position: Position, view: PlayerView, bot: ExpertBot) -> None:
        try:
            analysis = await off_thread(lambda: bot.analyse(view))
        except Exception as error:  # say why rather than think for ever
            if self._hint_for == position == self.session.position:
                self.show_hint(say(self.t, "tui.hint.failed", "dim", error=self._words(error)))
            return
        if self._hint_for != position or self.session.position != position:
            return  # play has moved on: the hint is stale
        self.hint_analysis = analysis
        self._hint_view = view
        self.show_hint(self._hint_answer(HINT_TOP, legend=True, width=self._width()))

    def _hint_answer(self, top: int, *, legend: bool, width: int, reads: bool = True) -> Text:
        """The analysis shown now in words, ``top`` moves named, with the legend or not, with
        what the expert believes of the opponents or not; when the expert's move shows first with
        a lower value than another (it keeps to the heuristic's move unless another is better by
        more than the noise of its deals), a line says so."""
        assert self.hint_analysis is not None
        assert self._hint_view is not None
        analysis, view = self.hint_analysis, self._hint_view
        told = told_reads(analysis.reads) if reads else []
        answer = hint_text(
            analysis.estimates, view, reads=told, names=self.session.names, top=top, width=width, t=self.t
        )
        lines = [answer]
        first, *others = analysis.estimates
        if any(other.mean > first.mean for other in others):  # kept to the heuristic's move: say why
            lines.append(Text(self.t("tui.hint.noise"), style="dim"))
        if legend:
            lines.append(Text(self.t("tui.hint.legend"), style="dim"))
        return Text("\n").join(lines)

    def show_hint(self, text: Text) -> None:
        """Show a hint in the message under the status line (an empty text: no hint)."""
        self.hint = text
        if text.plain:
            self._latest = "hint"
        self._show_message()

    def clear_hint(self) -> None:
        """Forget the hint (the position it was for has passed)."""
        self._hint_for = None
        self.hint_analysis = None
        self._hint_view = None
        self.show_hint(Text(""))

    def _count_preparation(self) -> None:
        """Look at the preparation once a second until it has ended: meanwhile the status line
        counts its seconds (while an expert is in play), then says how it ended (ready, or no
        numba)."""
        if self.preparation.ready:
            self._expert_news = self._expert_used
        elif self._preparing is None:
            self._preparing = self.set_interval(1.0, self._preparation_tick)

    def _preparation_tick(self) -> None:
        if self.preparation.ready:
            if self._preparing is not None:
                self._preparing.stop()
                self._preparing = None
            self._expert_news = self._expert_used
        if self._expert_used:
            self._refresh_status()

    def _refresh_status(self) -> None:
        """Draw the status line again (while someone is to move)."""
        if self.waiting_for in ("you", "bots"):
            self._part("#status").update(self.status_text(self.session.view()))

    def _expert_state(self, *, short: bool) -> Text:
        """How the expert stands, for the status line: getting ready, with the seconds so far
        (``short``: in fewer words); once it has ended, ready, or searching on the engine for
        good without numba (a ruleset the simulator does not play is no news: nothing)."""
        t = self.t
        preparation = self.preparation
        if not preparation.ready:
            state = "preparing"
        elif preparation.result == "unavailable" or preparation.error is not None:
            state = "missing"
        elif preparation.result == "loaded":
            state = "ready"
        else:
            return Text("")
        seconds = t.number(round(preparation.elapsed()))
        return Text(t(_EXPERT_STATES[state][short], seconds=seconds))

    # ------------------------------------------------------------------ quitting

    def action_quit_game(self) -> None:
        """Quit at any time (``q``, ctrl+q, ctrl+c); the game record is saved first with
        ``--record``."""
        self._stop_timer()
        self.autosave()
        self.exit(return_code=1 if self.record_error else 0)

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

    def set_feedback(self, text: str, *, error: bool = False) -> None:
        """Answer the last key (red for a refused move) in the message under the status line, in
        place of the hint; an empty text takes the answer away (the hint, if any, shows again).
        With nothing else to say, the message says why the record could not be saved, if it
        could not."""
        self.feedback = Text(text, style="bold red" if error else "green")
        self._said_wait = False
        self._latest = "feedback" if text else "hint"
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
        there is room for; a hint that does not fit names fewer moves, then drops its legend."""
        width, room = self._width(), self._message_room()
        if self.hint.plain and (self._latest == "hint" or not self.feedback.plain):
            shown = self.hint
            if self.hint_analysis is not None and self._hint_view is not None:
                answers = (  # what gives way first: moves named, then the legend, then the reads
                    self._hint_answer(top, legend=legend, width=width, reads=reads)
                    for reads, legend in ((True, True), (True, False), (False, True), (False, False))
                    for top in range(HINT_TOP, 0, -1)
                )
                shown = next((answer for answer in answers if self._lines(answer, width) <= room), shown)
        else:
            shown = self.feedback
            number = self.session.game_number
            problem = self._record_errors.get(number)
            path = self.settings.record_path(number)
            if not shown.plain and problem is not None and path is not None:
                shown = Text(problem.replace(str(path), path.name), style="bold red")  # short: the screen is narrow
        self.message = self._fit(shown, width, room)
        widget = self._part("#message")  # the table's, even under a modal
        widget.update(self.message)
        widget.display = bool(self.message.plain)

    def _modal_keys(self) -> list[KeyHint]:
        """The keys of the showdown or the standings on top of the table, for the key line too."""
        t = self.t
        if self.waiting_for == "showdown":
            return [KeyHint("enter", t("tui.key.standings" if self.game.is_over else "tui.key.next_round"))]
        if self.waiting_for == "over":
            return [KeyHint("n", t("tui.key.another"))]
        return []

    def refresh_table(self, *, keys: bool = True) -> None:
        """Redraw the title, players, table, status line, message and key line from the person's
        view (while a showdown shows, the table as that round left it: the next deal shows only
        once the person goes on)."""
        view = self._showdown if self._showdown is not None else self.session.view()
        self._part("#title").update(self.title_text(view))
        lines = self.screen_stack[0].query_one(SeatsPanel).show(view, self.session.names)
        table = self.screen_stack[0].query_one(TablePanel).show(view, self.controls)
        self._set_top_height(max(lines, table, self.settings.players))
        self._part("#status").update(self.status_text(view))
        t = self.t
        hints = self.controls.hints(view) if keys else self._modal_keys()
        if hints and keys:
            hints.append(KeyHint("?", t("tui.key.hint")))
        extra = [KeyHint("f", t("tui.key.slow" if self.fast else "tui.key.fast")), KeyHint("q", t("tui.key.quit"))]
        self.screen_stack[0].query_one(KeyBar).show([*hints, *extra])
        if self._hint_for is not None and self._hint_for != self.session.position:
            self.clear_hint()
        else:
            self._show_message()

    def title_text(self, view: PlayerView) -> Text:
        """The title line: the rules, the game, the round and the seed. The game, round and seed
        always show; when the line is too long the rule options are counted instead of named
        (``Scat, three of a kind 30.5, +1 more``)."""
        t = self.t
        width = max(self.size.width - 2, 1)
        number = self.session.game_number
        game = t("tui.title.tail", game=t.number(number), round=t.number(view.round), seed=self.session.game_seed)
        parts = self.rules_words()
        for head in (t("app.name"), ""):
            for named in range(len(parts), 0, -1):
                rest = len(parts) - named
                rules = ", ".join(parts[:named] + ([t.plural("tui.title.more", rest)] if rest else []))
                line = " · ".join(part for part in (head, rules, game) if part)
                if cells(line) <= width:
                    return Text(line)
        return Text(game)

    def rules_words(self) -> list[str]:
        """The rules in words: the nearest preset's name, then each option that differs from it
        with its value (``["Scat", "lives 5"]``)."""
        t = self.t
        preset, differences = self.settings.rules.nearest_preset()
        words = [t(_PRESETS[preset])] if preset in _PRESETS else [preset]
        for name, value in differences.items():
            shown = OPTIONS[name].format(value)
            value_key = f"value.{shown}"
            if t.translations.gettext(value_key) != value_key:  # a word of the catalog: on, off, reshuffle …
                shown = t(value_key)
            words.append(t("tui.title.option", option=t(f"option.{name}"), value=shown))
        return words

    def status_text(self, view: PlayerView) -> Text:
        """Whose turn it is, and what the person can do now, built from the legal actions: a
        knock makes it the last turn; then, while an expert is in play, how it stands (getting
        ready: searching on the engine meanwhile; then ready), on the same line when it fits and
        else on a line of its own. Never wider than the screen when it can be said shorter (else
        it wraps onto a second line, between words)."""
        width = max(self.size.width - 2, 1)
        for short, short_note in ((False, False), (True, False), (True, True)):
            text = self._status(view, short=short)
            note = self._status_note(short=short_note)
            if note.plain:
                text = Text.assemble(text, " ", note)
            if cells(text.plain) <= width:
                return text
        text = self._status(view, short=cells(self._status(view, short=False).plain) > width)
        note = self._status_note(short=False)
        if not note.plain:
            return text
        if cells(note.plain) > width:
            note = self._status_note(short=True)
        return Text("\n").join([text, note])

    def _status_note(self, *, short: bool) -> Text:
        """The expert's state for the status line while someone is to move: while an expert is
        in play and its preparation under way, and once it ended until the person's next move."""
        if self.waiting_for not in ("you", "bots") or not self._expert_used:
            return Text("")
        if not self.preparation.ready or self._expert_news:
            return Text(self._expert_state(short=short).plain, style="yellow")
        return Text("")

    def _status(self, view: PlayerView, *, short: bool) -> Text:
        t = self.t
        names = self.session.names
        knocked = short_name(names[view.knocker]) if view.knocker is not None else None
        last = t("tui.status.last_turn", who=knocked) if knocked is not None else ""
        if self.waiting_for == "broken":  # a bot failed: nobody is to move any more
            return Text(t("tui.status.stopped"))
        if view.phase is Phase.OVER:
            if self.waiting_for == "showdown":
                result = view.last_result
                blitz = result is not None and result.end in ("blitz", "dealt_blitz")  # no showdown after a 31
                key = "tui.status.round_over" if blitz else "tui.status.showdown"
                return Text(t(key, round=t.number(view.round)))
            return Text(t("status.over"))
        if not view.is_my_turn:
            seat = view.current_seat
            if seat is None:  # pragma: no cover - a game not over always has a seat to move
                return Text("")
            who = names[seat]
            then = last if not short else ""
            if view.seats[view.seat].out:
                return Text(_sentences(t("tui.status.out", who=who), then))
            if self.session.bot_thinks():
                return Text(_sentences(t("tui.status.thinking", who=who), then), style="cyan")
            return Text(_sentences(t("tui.status.to_move", who=who), then), style="cyan")
        what = self._what_to_do(view, short=short)
        if knocked is not None:  # a new sentence
            return Text(last + " ", style="bold magenta").append_text(Text(what.plain[:1].upper()) + what[1:])
        head, _, tail = t.template("tui.status.your_turn").partition("{what}")
        return Text(head, style="bold green").append_text(what).append(tail)

    def _what_to_do(self, view: PlayerView, *, short: bool) -> Text:
        """The person's choices now, in words, from the legal actions."""
        t = self.t
        if view.phase is Phase.LOOK:
            return Text(t("tui.what.look"))
        if view.phase is Phase.DEALER_CHOICE:
            return Text(t("tui.what.dealer"))
        if view.phase is Phase.DISCARD:
            taken = view.taken_from_pile
            if taken is None:
                return Text(t("tui.what.discard"))
            key = "tui.what.discard_not_short" if short else "tui.what.discard_not"
            return say(t, key, card=cards_text([taken]))
        picks = self._picks_text(view)
        if picks is not None:
            return picks
        legal = view.legal_actions
        choices: list[str] = []
        if any(isinstance(action, Draw) for action in legal):
            choices.append(t("tui.choice.draw"))
        if view.widow is None and ExchangeAll() in legal:
            choices.append(t("tui.choice.widow_down"))
        elif any(isinstance(action, (Exchange, ExchangeAll)) for action in legal):
            choices.append(t("tui.choice.widow"))
        if Pass() in legal:
            choices.append(t("tui.choice.pass"))
        if Knock() in legal:
            choices.append(t("tui.choice.knock"))
        said = t.list(choices, style="or")
        value = format_value(view.hand_value) if view.hand_value is not None else "?"
        return Text(t("tui.what.choices_short" if short else "tui.what.choices", choices=said, value=value))

    def _picks_text(self, view: PlayerView) -> Text | None:
        """The cards picked for an exchange, named (widow mode), and what to do next; ``None``
        when nothing is picked."""
        t = self.t
        hand, widow = view.hand or (), view.widow or ()
        give = [hand[i] for i in sorted(self.controls.picked_hand) if i < len(hand)]
        take = [widow[i] for i in sorted(self.controls.picked_widow) if i < len(widow)]
        if not give and not take:
            return None
        if give and take:
            picks = say(t, "tui.pick.give_for", give=cards_text(give), take=cards_text(take))
        elif give:
            picks = say(t, "tui.pick.give", give=cards_text(give))
        else:
            picks = say(t, "tui.pick.take", take=cards_text(take))
        if view.rules.exchange != "any":
            return say(t, "tui.pick.then_widow" if give else "tui.pick.then_yours", picks=picks)
        if len(give) == len(take):
            return say(t, "tui.pick.ready", picks=picks)
        more = abs(len(give) - len(take))
        if len(give) > len(take):
            key = "tui.pick.more_widow_cards" if take else "tui.pick.widow_cards"
        else:
            key = "tui.pick.more_yours" if give else "tui.pick.yours"
        return say_plural(t, key, more, picks=picks)


_EXPERT_STATES = {
    "preparing": ("tui.expert.preparing", "tui.expert.preparing_short"),
    "ready": ("tui.expert.ready", "tui.expert.ready_short"),
    "missing": ("tui.expert.missing", "tui.expert.missing_short"),
}
"""How the expert stands, for the status line: the message in full and in fewer words."""

_PRESETS = {
    "scat": "preset.scat",
    "widow": "preset.widow",
    "namu": "preset.namu",
    "schwimmen": "preset.schwimmen",
}
"""Each preset (R8) and the message of its name."""


def _sentences(*sentences: str) -> str:
    """Whole sentences one after the other, a space apart (an empty one is left out)."""
    return " ".join(sentence for sentence in sentences if sentence)
