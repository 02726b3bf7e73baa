"""The person's hints in the terminal game (``?``) and how the expert behind them stands.

A hint says what the judge would do in the person's place, from the person's view only, and
how each move scores (:func:`~thirtyone.bots.work.judge_analysis`: the network's values, a last
turn after a knock counted exactly, R6.2): worked out at once, in milliseconds, the same for the
same position. At a table the judge's weights were not made for, or whose values it may not show
yet (:func:`~thirtyone.bots.work.judge_refuses`; ``expert_why`` says why), a fresh
expert (:meth:`~thirtyone.tui.session.PlaySession.hint_bot`) searches instead, on a thread of its
own (:func:`~thirtyone.tui.threads.off_thread`), "thinking…" meanwhile, and its answer shows only
if play is still at the position it was asked at. Asked again at a position, the same hint shows
again. Out of turn, a short explanation says why there is none.

The expert searches on the compiled simulator, which the app prepares from the moment it opens
(:class:`~thirtyone.tui.prepare.Preparation`); until it is ready the expert searches on the
engine, and while an expert is in play (a ``hard`` bot, or once it answered a hint) the status
line says how it stands: getting ready, counting the seconds, then ready — or weaker for good
without numba — until the person's next move. The judge's hint waits for none of it.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from rich.text import Text
from textual.app import App
from textual.timer import Timer

from thirtyone.actions import Look
from thirtyone.bots.expert import Analysis
from thirtyone.bots.expert import ExpertBot
from thirtyone.bots.work import judge_analysis
from thirtyone.bots.work import judge_refuses
from thirtyone.bots.work import told_reads
from thirtyone.i18n import Messages
from thirtyone.tui.prepare import Preparation
from thirtyone.tui.session import PlaySession
from thirtyone.tui.session import Position
from thirtyone.tui.threads import off_thread
from thirtyone.tui.words import HINT_TOP
from thirtyone.tui.words import error_words
from thirtyone.tui.words import hint_text
from thirtyone.tui.words import move_words
from thirtyone.tui.words import say
from thirtyone.tui.words import short_name
from thirtyone.views import Phase
from thirtyone.views import PlayerView

__all__ = ["Hints"]

_EXPERT_STATES = {
    "preparing": ("tui.expert.preparing", "tui.expert.preparing_short"),
    "ready": ("tui.expert.ready", "tui.expert.ready_short"),
    "missing": ("tui.expert.missing", "tui.expert.missing_short"),
}
"""How the expert stands, for the status line: the message in full and in fewer words."""

_SHORTER = ((None, True), (1, True), (0, True), (0, False))
"""What a hint that does not fit gives up first, in order, still naming :data:`HINT_TOP` moves:
what the expert believes of the opponents (all but its surest read, then that too: ``reads``),
then its legend. Only then does it name fewer moves (a knock and a pass always among them)."""


class Hints:
    """The hint of ``session``'s position now and the expert's readiness, for ``app`` (its
    workers and timers), in the words of ``t``.

    ``width()`` gives the columns a hint's lines may take; ``show(text)`` is called whenever the
    hint changes (an empty text: none); ``tell(line)`` to
    answer a ``?`` that has no hint (out of turn: said until the person's turn comes);
    ``status()`` when the expert's state on the status line changes. ``text`` is the hint now,
    ``analysis`` the judge's or the expert's analysis behind it (``None`` while thinking or
    without one).
    """

    def __init__(
        self,
        app: App[None],
        session: PlaySession,
        preparation: Preparation,
        t: Messages,
        *,
        width: Callable[[], int],
        show: Callable[[Text], None],
        tell: Callable[[str], None],
        status: Callable[[], None],
    ) -> None:
        self.app = app
        self.session = session
        self.preparation = preparation
        self.t = t
        self._width = width
        self._show = show
        self._tell = tell
        self._status = status
        self.text = Text("")
        """The hint for the position now (empty when none)."""
        self.analysis: Analysis | None = None
        """The judge's or the expert's analysis behind the hint shown now."""
        self.expert_why = judge_refuses(session.settings.rules, session.settings.players)
        """Why the expert answers the hints of this table (:func:`~thirtyone.bots.work.judge_refuses`);
        ``None``: the judge does."""
        self._view: PlayerView | None = None  # the view the analysis is about
        self._for: Position | None = None  # the position of the hint shown or being worked out
        self.expert_used = session.has_expert
        """True once an expert is in play (a bot of the game, or a hint asked): the status line
        says how it stands."""
        self._news = False  # how the preparation ended is said in the status line, until the next move
        self._watch: Timer | None = None  # counts the seconds of the preparation on the status line

    # ------------------------------------------------------------------ the hint

    def ask(self, view: PlayerView) -> None:
        """``?`` for the person's ``view`` now: the judge's answer at once, or the expert's,
        worked out on its thread with the hint budget of the settings (see the module docstring);
        out of turn, why not."""
        t = self.t
        if not view.is_my_turn:
            seat = view.current_seat
            if view.seats[view.seat].out:
                why = t("tui.hint.why_out")
            elif seat is None:
                why = t("tui.hint.why_nobody")
            else:
                why = t("tui.hint.why_other", who=short_name(self.session.names[seat]))
            self._tell(t("tui.hint.not_yours", why=why))
            return
        position = self.session.position
        if self._for == position:
            self._set(self.text)  # shown already, or being worked out: in front again
            return
        self._for = position
        self.analysis = None
        legal = view.legal_actions
        if view.phase is Phase.LOOK:
            self._set(say(t, "tui.hint.look", move=move_words(Look(), view, t)))
            return
        if len(legal) == 1:
            self._set(say(t, "hint.only", moves=move_words(legal[0], view, t)))
            return
        if self.expert_why is None:
            self._judge(view)
            return
        bot = self.session.hint_bot()
        if not self.expert_used:
            self.expert_used = True
            self._news = self.preparation.ready  # how it ended, if it has
            self._status()
        self._set(self._thinking(bot))
        self.app.run_worker(self._work_out(position, view, bot), name="hint", group="hint", exit_on_error=False)

    def _judge(self, view: PlayerView) -> None:
        try:
            analysis = judge_analysis(view)
        except Exception as error:  # say why rather than show nothing
            self._set(say(self.t, "tui.hint.failed", "dim", error=error_words(error, self.session.names, self.t)))
            return
        self._show_analysis(analysis, view)

    def _thinking(self, bot: ExpertBot) -> Text:
        t = self.t
        if bot.seconds is None:
            budget = t.plural("tui.hint.deals", bot.worlds)
        else:
            budget = t("tui.hint.seconds", seconds=t.number(bot.seconds))
        return say(t, "tui.hint.thinking", "italic", budget=budget)

    async def _work_out(self, position: Position, view: PlayerView, bot: ExpertBot) -> None:
        try:
            analysis = await off_thread(lambda: bot.analyse(view))
        except Exception as error:  # say why rather than think for ever
            if self._for == position == self.session.position:
                self._set(say(self.t, "tui.hint.failed", "dim", error=error_words(error, self.session.names, self.t)))
            return
        if self._for != position or self.session.position != position:
            return  # play has moved on: the hint is stale
        self._show_analysis(analysis, view)

    def _show_analysis(self, analysis: Analysis, view: PlayerView) -> None:
        self.analysis = analysis
        self._view = view
        self._set(self.answer(HINT_TOP, legend=True, width=self._width()))

    def answer(self, top: int, *, legend: bool, width: int, reads: int | None = None) -> Text:
        """The analysis shown now in words, lines of at most ``width`` cells: ``top`` moves
        named, with the legend or not, with what the expert believes of the opponents (the
        surest ``reads`` of them; ``None``: all it tells);
        when the expert's move shows first with a lower value than another (it keeps to the
        heuristic's move unless another is better by more than the noise of its deals), a line
        says so."""
        assert self.analysis is not None
        assert self._view is not None
        analysis, view = self.analysis, self._view
        told = told_reads(analysis.reads)[:reads]
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

    def fitted(self, width: int, fits: Callable[[Text], bool]) -> Text:
        """The hint in as many words as ``fits`` allows, lines of ``width`` cells: an analysis
        that does not fit says less of what the expert believes of the opponents, then drops its
        legend (:data:`_SHORTER`), and only then names fewer moves (the hint as it is when none
        fits, or without an analysis)."""
        if self.analysis is None or self._view is None:
            return self.text
        answers = itertools.chain(
            (self.answer(HINT_TOP, legend=legend, width=width, reads=reads) for reads, legend in _SHORTER),
            (self.answer(top, legend=False, width=width, reads=0) for top in range(HINT_TOP - 1, 0, -1)),
        )
        return next((answer for answer in answers if fits(answer)), self.text)

    def _set(self, text: Text) -> None:
        self.text = text
        self._show(text)

    def stale(self) -> bool:
        """True when a hint is shown or worked out for a position that play has left."""
        return self._for is not None and self._for != self.session.position

    def clear(self) -> None:
        """Forget the hint (the position it was for has passed)."""
        self._for = None
        self.analysis = None
        self._view = None
        self._set(Text(""))

    # ------------------------------------------------------------------ the expert's readiness

    def watch(self) -> None:
        """Look at the preparation once a second until it has ended: meanwhile the status line
        counts its seconds (while an expert is in play), then says how it ended."""
        if self.preparation.ready:
            self._news = self.expert_used
        elif self._watch is None:
            self._watch = self.app.set_interval(1.0, self._tick)

    @property
    def watching(self) -> bool:
        """True while the preparation is looked at once a second (it has not ended)."""
        return self._watch is not None

    def _tick(self) -> None:
        if self.preparation.ready:
            if self._watch is not None:
                self._watch.stop()
                self._watch = None
            self._news = self.expert_used
        if self.expert_used:
            self._status()

    def moved(self) -> None:
        """The person moved: how the preparation ended has been said long enough."""
        self._news = False

    def note(self, *, short: bool) -> Text:
        """The expert's state for the status line (``short``: in fewer words): while an expert is
        in play and its preparation under way, and once it has ended until the person's next
        move; else nothing."""
        if not self.expert_used:
            return Text("")
        if not self.preparation.ready or self._news:
            return Text(self.expert_state(short=short).plain, style="yellow")
        return Text("")

    def expert_state(self, *, short: bool) -> Text:
        """How the expert stands: getting ready, with the seconds so far (``short``: in fewer
        words); once it has ended, ready, or searching on the engine for good without numba (a
        ruleset the simulator does not play is no news: nothing)."""
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
