"""``ThirtyOneApp``: the Textual app of ``thirtyone play``.

The person sits in seat 0; bots play the other seats. The app shows the person's view of the
game (never another player's hidden card), a log of every move in words, and the showdown of
each round, and it offers only legal moves, each on a key listed in the key line. Bot moves
are paced (``delay`` seconds each, thinking included) so that a person can follow them; with
``fast`` they are played at once. Nothing blocks the screen: every wait is a timer, and the
expert's searches — an ``expert`` bot's moves and the person's hints (``?``) — run on a thread
of their own; a search whose position has passed when it ends is thrown away.

Run it with ``ThirtyOneApp(settings).run()``; in tests use ``app.run_test(size=(80, 24))``.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from typing import ClassVar, TypeVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.timer import Timer
from textual.widgets import RichLog, Static

from thirtyone.actions import Action, Look
from thirtyone.bots.expert import Analysis, ExpertBot
from thirtyone.engine import Game
from thirtyone.errors import IllegalActionError, ThirtyOneError
from thirtyone.events import RoundEnded, RoundResult
from thirtyone.tui.controls import HINT_KEYS, Controls, KeyHint
from thirtyone.tui.session import HUMAN, BotTurn, PlaySession, Position
from thirtyone.tui.settings import PlaySettings
from thirtyone.tui.widgets import NEW_GAME, GameOverScreen, KeyBar, RoundEndScreen, SeatsPanel, TablePanel
from thirtyone.tui.words import HINT_LEGEND, Narrator, format_value, hint_text, move_words, pretty_cards, short_name
from thirtyone.views import Phase, PlayerView

__all__ = ["ThirtyOneApp"]

MIN_TOP = 7
"""Content lines of the table panel; the top row grows with the number of players."""

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
    saved, or why they could not be).
    """

    CSS_PATH = "thirtyone.tcss"
    TITLE = "Thirty-One"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("q", "quit_game", "quit", priority=True)]

    def __init__(self, settings: PlaySettings) -> None:
        super().__init__()
        self.settings = settings
        self.session = PlaySession(settings)
        self.controls = Controls()
        self.narrator = Narrator(self.session.names, settings.rules, HUMAN)
        self.fast = settings.fast
        self.log_lines: list[str] = []
        self._notes: dict[int, str] = {}
        self.feedback = Text("")
        self.hint = Text("")
        """The hint shown now (empty when none)."""
        self.hint_analysis: Analysis | None = None
        """The expert's analysis behind the hint shown now."""
        self.waiting_for: str = "start"
        self._timer: Timer | None = None
        self._hint_for: Position | None = None  # the position of the hint shown or being worked out
        self._thinking: Position | None = None  # the position a bot is choosing its move for

    @property
    def game(self) -> Game:
        """The game being played."""
        return self.session.game

    @property
    def bot_thinking(self) -> bool:
        """True while a searching bot is choosing its move on its thread."""
        return self._thinking is not None

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        """The title line, the players and the table, the log, the status line and the keys."""
        yield Static(id="title")
        with Horizontal(id="top"):
            yield SeatsPanel(id="seats")
            yield TablePanel(id="table")
        yield RichLog(id="log", wrap=True, markup=False, highlight=False)
        yield Static(id="status")
        yield Static(id="expert-hint")
        yield Static(id="feedback")
        yield KeyBar(id="keys")

    def on_mount(self) -> None:
        """Lay out the table for the number of players and start playing."""
        self.query_one("#top").styles.height = max(self.settings.players, MIN_TOP) + 2
        self.query_one("#seats").border_title = "Players"
        self.query_one("#table").border_title = "Table"
        self.query_one("#log").border_title = "Log"
        self.advance()

    # ------------------------------------------------------------------ the flow of play

    def advance(self) -> None:
        """Show what happened and move the game on: log new events, stop at a round's end for
        the showdown, then wait for the person, or let the next bot move (after the pacing
        delay, or at once in fast mode), until something needs the person."""
        self._stop_timer()
        while True:
            for event in self.session.next_events():
                lines = self.narrator.describe(event)
                for line in lines:
                    self.write_log(line)
                if isinstance(event, RoundEnded):
                    self.show_round_end(event.result, lines)
                    return
            self.refresh_table()
            if self.game.is_over:
                self.show_game_over()
                return
            if self.session.human_to_move:
                self.waiting_for = "you"
                if self.feedback.plain.startswith("Wait:"):
                    self.set_feedback("")  # the wait is over
                return
            self.waiting_for = "bots"
            if self.session.bot_thinks():  # an expert: it chooses on a thread of its own
                if self._thinking != self.session.position:
                    self._start_thinking()
                return
            if not self.fast:
                self._timer = self.set_timer(self.settings.delay, self._bot_tick)
                return
            if not self._bot_move():
                return

    def _bot_tick(self) -> None:
        self._timer = None
        if self.waiting_for == "bots" and self._bot_move():
            self.advance()

    def _bot_move(self) -> bool:
        try:
            self.session.bot_move()
        except ThirtyOneError as error:  # a bot that breaks a rule: say so and stop
            self._bot_failed(error)
            return False
        return True

    def _bot_failed(self, error: Exception) -> None:
        self.waiting_for = "broken"
        self.set_feedback(f"A bot failed: {error}", error=True)

    def _start_thinking(self) -> None:
        turn = self.session.bot_turn()
        self._thinking = turn.position
        self.run_worker(self._think(turn), name=f"seat {turn.seat} thinks", group="bots", exit_on_error=False)

    async def _think(self, turn: BotTurn) -> None:
        """Let a searching bot choose on a thread, wait out the rest of the pacing delay (the
        thinking counts toward it; none in fast mode), then play its move if play is still where
        it was."""
        loop = asyncio.get_running_loop()
        start = loop.time()
        try:
            action: Action = await off_thread(lambda: turn.bot.choose(turn.view, turn.view.legal_actions))
        except Exception as error:  # a bot that fails: say so rather than wait for ever
            if self._thinking == turn.position:
                self._thinking = None
                self._bot_failed(error)
            return
        while not self.fast and (left := self.settings.delay - (loop.time() - start)) > 0:
            await asyncio.sleep(min(left, 0.05))  # short steps: pressing f ends the wait
        if self._thinking != turn.position:
            return  # play has moved on (another game): the choice is stale
        self._thinking = None
        if self.waiting_for != "bots":
            return
        try:
            self.session.play_bot(turn, action)
        except ThirtyOneError as error:
            self._bot_failed(error)
            return
        self.advance()

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def show_round_end(self, result: RoundResult, lines: list[Text]) -> None:
        """Show the showdown until the person closes it; then go on."""
        self.waiting_for = "showdown"
        last = self.game.is_over and result == self.game.last_result
        self.refresh_table(keys=False)
        screen = RoundEndScreen(result, lines, self.session.names, self.settings.rules, viewer=HUMAN, last=last)
        self.push_screen(screen, callback=lambda _: self.advance())

    def show_game_over(self) -> None:
        """Save the record (with ``--record``) and show the final standings."""
        self.waiting_for = "over"
        note = self.save_record()
        screen = GameOverScreen(self.game.standings, self.session.names, self.settings.rules, note, viewer=HUMAN)
        self.push_screen(screen, callback=self._after_game)

    def _after_game(self, choice: str | None) -> None:
        if choice == NEW_GAME:
            self.new_game()
        else:
            self.exit()

    def new_game(self) -> None:
        """Deal another game with the same settings (the next seed of the session)."""
        self._stop_timer()
        self._thinking = None
        self.session.new_game()
        self.controls.clear()
        self.narrator = Narrator(self.session.names, self.settings.rules, HUMAN)
        self.log_lines.clear()
        self.query_one("#log", RichLog).clear()
        self.set_feedback("")
        self.advance()

    def save_record(self) -> str:
        """Save the current game's record if ``--record`` was given; returns a line that says
        where, or why it failed (also kept in ``notes``)."""
        if self.settings.record is None or not self.session.has_played:
            return ""
        try:
            path = self.session.save_record()
        except (OSError, ThirtyOneError) as error:
            note = f"The game record could not be saved: {error}"
        else:
            note = f"Game record saved to {path}"
        self._notes[self.session.game_number] = note
        return note

    @property
    def notes(self) -> list[str]:
        """Where each game's record was saved, or why it could not be (one line a game)."""
        return list(self._notes.values())

    # ------------------------------------------------------------------ the person's keys

    def on_key(self, event: events.Key) -> None:
        """The person's keys on the table (the showdown and game-over screens have their own)."""
        if len(self.screen_stack) == 1 and self.press_key(event.key):
            event.stop()

    def on_table_panel_picked(self, message: TablePanel.Picked) -> None:
        """A click on a card, the discard pile or the stock: the same as its key."""
        if len(self.screen_stack) == 1:
            self.press_key(message.key)

    def press_key(self, key: str) -> bool:
        """Do what ``key`` means now (see :mod:`~thirtyone.tui.controls`); ``False`` for a key
        that is not a game key."""
        if key == "f":
            self.fast = not self.fast
            self.set_feedback("Bots move at once." if self.fast else "Bots move one at a time.")
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
            if len(key) == 1 and key.isalnum() and self.waiting_for == "bots":
                seat = self.game.current_seat
                who = self.session.names[seat] if seat is not None else "nobody"
                self.set_feedback(f"Wait: {who} is to move (f: let the bots move at once).")
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
                self.set_feedback(pretty_cards(str(error)), error=True)
                self.refresh_table()
                return True
            self.set_feedback("")
            self.advance()
        elif press.changed:
            self.refresh_table()
        return True

    # ------------------------------------------------------------------ hints

    def ask_hint(self) -> None:
        """``?``: ask the expert what it would do in the person's place, from the person's view
        only. The search runs on a thread ("thinking…" meanwhile) with the hint budget of the
        settings; its answer shows only if the position is still the same when it ends. Out of
        turn, a short explanation."""
        view = self.session.view()
        if not view.is_my_turn:
            seat = view.current_seat
            if view.seats[view.seat].out:
                why = "you are out of this game"
            elif seat is None:
                why = "nobody is to move"
            else:
                why = f"{short_name(self.session.names[seat])} is to move"
            self.set_feedback(f"Hints are for your own move: ask with ? when it is your turn ({why}).")
            return
        position = self.session.position
        if self._hint_for == position:
            return  # shown already, or being worked out
        self._hint_for = position
        self.hint_analysis = None
        legal = view.legal_actions
        if view.phase is Phase.LOOK:
            line = Text().append("Hint: ", style="bold").append_text(move_words(Look(), view))
            self.show_hint(line.append(" — the expert always looks: it weighs a hand only once it knows it."))
            return
        if len(legal) == 1:
            only = Text().append("Hint: only one move is possible: ", style="bold")
            self.show_hint(only.append_text(move_words(legal[0], view)))
            return
        bot = self.session.hint_bot()
        budget = f"{bot.worlds} deals" if bot.seconds is None else f"{bot.seconds:g} s"
        self.show_hint(Text(f"Hint: the expert is thinking… ({budget})", style="italic"))
        self.run_worker(self._work_out_hint(position, view, bot), name="hint", group="hint", exit_on_error=False)

    async def _work_out_hint(self, position: Position, view: PlayerView, bot: ExpertBot) -> None:
        try:
            analysis = await off_thread(lambda: bot.analyse(view))
        except Exception as error:  # say why rather than think for ever
            if self._hint_for == position == self.session.position:
                self.show_hint(Text(f"No hint here: {pretty_cards(str(error))}", style="dim"))
            return
        if self._hint_for != position or self.session.position != position:
            return  # play has moved on: the hint is stale
        self.hint_analysis = analysis
        answer = hint_text(analysis.estimates, view, width=max(self.size.width - 2, 40))
        self.show_hint(Text("\n").join([answer, Text(HINT_LEGEND, style="dim")]))

    def show_hint(self, text: Text) -> None:
        """Show a hint (an empty text hides the hint line)."""
        self.hint = text
        widget = self.screen_stack[0].query_one("#expert-hint", Static)  # the table, even under a modal
        widget.update(text)
        widget.display = bool(text.plain)

    def clear_hint(self) -> None:
        """Forget the hint (the position it was for has passed)."""
        self._hint_for = None
        self.hint_analysis = None
        self.show_hint(Text(""))

    def action_quit_game(self) -> None:
        """Quit at any time; the game record is saved first with ``--record``."""
        self._stop_timer()
        if self.waiting_for != "over":
            self.save_record()
        self.exit()

    # ------------------------------------------------------------------ drawing

    def write_log(self, line: Text) -> None:
        """Add a line to the log (and to ``log_lines``)."""
        self.log_lines.append(line.plain)
        self.query_one("#log", RichLog).write(line)

    def set_feedback(self, text: str, *, error: bool = False) -> None:
        """Show a one-line answer to the last key (red for a refused move)."""
        self.feedback = Text(text, style="bold red" if error else "green")
        self.query_one("#feedback", Static).update(self.feedback)

    def refresh_table(self, *, keys: bool = True) -> None:
        """Redraw the title, players, table, status line and key line from the person's view."""
        view = self.session.view()
        rules = self.settings.rules
        seed = "" if self.session.game_seed is None else f" · seed {self.session.game_seed}"
        self.query_one("#title", Static).update(
            Text(f"Thirty-One · {rules.describe()} · game {self.session.game_number} · round {view.round}{seed}")
        )
        self.query_one(SeatsPanel).show(view, self.session.names)
        self.query_one(TablePanel).show(view, self.controls)
        self.query_one("#status", Static).update(self.status_text(view))
        if self._hint_for is not None and self._hint_for != self.session.position:
            self.clear_hint()
        hints = self.controls.hints(view) if keys else []
        if hints:
            hints.append(KeyHint("?", "hint"))
        extra = [KeyHint("f", "slow bots" if self.fast else "fast bots"), KeyHint("q", "quit")]
        self.query_one(KeyBar).show([*hints, *extra])

    def status_text(self, view: PlayerView) -> Text:
        """Whose turn it is, and what the person can do now."""
        names = self.session.names
        if view.phase is Phase.OVER:
            return Text("Game over.")
        if not view.is_my_turn:
            seat = view.current_seat
            who = names[seat] if seat is not None else "nobody"
            if view.seats[view.seat].out:
                return Text(f"You are out; {who} is to move.")
            if self.session.bot_thinks():
                return Text(f"{who} is thinking…", style="cyan")
            return Text(f"{who} is to move…", style="cyan")
        knock = ""
        if view.knocker is not None:
            knock = f" {short_name(names[view.knocker])} knocked: this is your last turn."
        text = Text("Your turn: ", style="bold green")
        if view.phase is Phase.LOOK:
            return text.append("look at your cards, or throw down without looking.")
        if view.phase is Phase.DEALER_CHOICE:
            return text.append("you deal: keep this hand, or take the other one unseen.")
        if view.phase is Phase.DISCARD:
            taken = view.taken_from_pile
            rest = f" (not {taken.pretty}, taken from the pile)" if taken is not None else ""
            return text.append(f"discard one card{rest}.{knock}")
        value = format_value(view.hand_value) if view.hand_value is not None else "?"
        if view.rules.mode == "draw":
            return text.append(f"draw a card or knock (you hold {value}).{knock}")
        if view.widow is None:
            return text.append(f"take the face-down widow, pass or knock ({value}).{knock}")
        return text.append(f"exchange with the widow, pass or knock ({value}).{knock}")
