"""The review of the game just played, in the terminal: ``r`` at the final standings opens
:class:`ReviewScreen`, the review (:mod:`thirtyone.bots.review`: the judge's, or the expert's for
rules the judge was not trained for) of one seat's decisions, the person's first, as a scrollable
table with the marks (:mod:`thirtyone.tui.review_text`'s words: the seat's summary, its decisions with
the noise of their values and the rules that explain a mark, its costliest ones in a sentence each;
then what valued it, what a value is, what lies within the noise and the marks' thresholds).

A seat's review is made on a thread of its own (:func:`~thirtyone.tui.threads.off_thread`), one
decision at a time, with a progress bar; ``escape`` stops it (the thread ends after the decision
it is valuing) and goes back to the standings, ``tab`` or the arrows ``←`` ``→`` switch to the
next or the previous seat (a review running for another seat is stopped), ``↑`` ``↓``,
``pageup`` ``pagedown``, ``home`` ``end`` scroll. A review made is kept for the screens of the
same standings (:class:`ReviewJob`'s results in ``reviews``), so going back and forth costs
nothing. The expert's budget is the settings' ``review_worlds`` with the review's seed 0: the same
review as ``thirtyone review RECORD --seat N`` with its defaults gives of the game's record.
"""

from __future__ import annotations

import threading
from collections.abc import MutableMapping
from collections.abc import Sequence
from pathlib import Path

from rich.console import Group
from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import ProgressBar
from textual.widgets import Static

from thirtyone.bots.expert import Rollouts
from thirtyone.bots.review import Review
from thirtyone.bots.review import Reviewer
from thirtyone.checks import escaped
from thirtyone.i18n import Messages
from thirtyone.record import GameRecord
from thirtyone.tui.controls import KEY_NAMES
from thirtyone.tui.controls import WAYS_OUT
from thirtyone.tui.controls import key_name
from thirtyone.tui.history import YOU
from thirtyone.tui.history import keep_review
from thirtyone.tui.prepare import Preparation
from thirtyone.tui.review_text import about_lines
from thirtyone.tui.review_text import progress_label
from thirtyone.tui.review_text import seat_lines
from thirtyone.tui.threads import off_thread
from thirtyone.tui.widgets import TooSmall
from thirtyone.tui.words import ENGLISH
from thirtyone.tui.words import error_words
from thirtyone.tui.words import say
from thirtyone.tui.words import say_plural

__all__ = ["ReviewJob", "ReviewScreen", "REVIEW_SEED", "POLL_SECONDS", "SEAT_KEYS", "SCROLL_KEYS"]

REVIEW_SEED = 0
"""The seed of the terminal's reviews: ``thirtyone review``'s default, so that the command repeats them."""
POLL_SECONDS = 0.1
"""How often the progress bar reads how far the review has come."""
SEAT_KEYS = {"tab": 1, "right": 1, "shift+tab": -1, "left": -1}
"""The keys that show the next (1) or the previous (-1) seat's review."""
SCROLL_KEYS = {
    "up": "scroll_up",
    "down": "scroll_down",
    "pageup": "scroll_page_up",
    "pagedown": "scroll_page_down",
    "space": "scroll_page_down",
    "home": "scroll_home",
    "end": "scroll_end",
}
"""The keys that scroll the review, and how."""


class ReviewJob:
    """The review of ``seat``'s decisions in ``record``, to make with :meth:`run` on a thread of its
    own: by the judge where it was trained for the game's rules and table size (no waiting: a
    decision in milliseconds), else by the expert with ``worlds`` deals a decision. ``preparation``
    is the expert's compiled simulator being got ready: the expert's review waits for it to end,
    then plays its rollouts on the simulator when it is usable, on the engine when not.

    ``total`` (the decisions to value, ``None`` until the record is replayed) and ``done`` (those
    valued) are read by the screen while :meth:`run` writes them; :meth:`cancel` stops it after
    the decision being valued.
    """

    def __init__(self, record: GameRecord, seat: int, worlds: int, preparation: Preparation) -> None:
        self.record = record
        self.seat = seat
        self.worlds = worlds
        self.preparation = preparation
        self.total: int | None = None
        self.done = 0
        self.rollouts: Rollouts = "auto"
        """The expert's rollouts the review was made with (``auto`` where the judge valued it)."""
        self._stop = threading.Event()

    @property
    def cancelled(self) -> bool:
        """True once :meth:`cancel` was called."""
        return self._stop.is_set()

    def cancel(self) -> None:
        """Stop the review after the decision being valued (from any thread)."""
        self._stop.set()

    def run(self) -> Review | None:
        """Make the review (the record replayed first, each action checked); ``None`` when it was
        cancelled before its end.

        Raises:
            RecordError: when the record does not replay (it was made from the game: never).
            SeatError: for a seat the record lacks.
        """
        reviewer = Reviewer(self.record, [self.seat], worlds=self.worlds, seed=REVIEW_SEED)
        if reviewer.valuer == "expert":  # the judge was not trained for these rules: the expert's rollouts
            while not self.preparation.wait(POLL_SECONDS):  # the simulator is compiled in a process of its own
                if self.cancelled:
                    return None
            self.rollouts = "auto" if self.preparation.usable else "engine"
            reviewer.rollouts = self.rollouts
        self.total = reviewer.total
        for _ in reviewer.decisions():
            self.done += 1
            if self.cancelled:
                return None
        return reviewer.review()


class ReviewScreen(ModalScreen[None]):
    """The review of the game of ``record`` (its seats' ``names`` as shown), seat ``seat`` first,
    ``worlds`` deals a decision once ``preparation`` has ended, in the words of ``t``; ``reviews``
    keeps each seat's finished review (shared by the screens of one standings). See the module
    docstring for its keys."""

    DEFAULT_CSS = """
    ReviewScreen { align: center middle; }
    ReviewScreen > Vertical {
        width: 100%; height: 100%; border: thick $accent; background: $surface; padding: 0 1;
    }
    ReviewScreen #review-head { height: auto; }
    ReviewScreen #review-progress { height: auto; margin-top: 1; }
    ReviewScreen #review-body { height: 1fr; margin-top: 1; scrollbar-size-vertical: 1; }
    ReviewScreen #review-text { height: auto; }
    ReviewScreen #review-keys { height: auto; background: $panel; }
    """

    def __init__(
        self,
        record: GameRecord,
        names: Sequence[str],
        seat: int,
        *,
        worlds: int,
        preparation: Preparation,
        reviews: MutableMapping[int, Review],
        t: Messages = ENGLISH,
        kept: Path | None = None,
    ) -> None:
        super().__init__()
        self.kept = kept
        """The game's file in your history (``None``: not kept), beside which your review is kept."""
        self.record = record
        self.names = tuple(names)
        self.seat = seat
        self.worlds = worlds
        self.preparation = preparation
        self.reviews = reviews
        self.t = t
        self.job: ReviewJob | None = None
        """The review being made (``None`` when the seat's is shown)."""
        self.failure: str | None = None
        """Why the seat's review could not be made, in words (``None`` when it could)."""
        self._closed = False
        self._poll: Timer | None = None

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        """The heading with the seats, the progress, the review (scrollable) and the keys."""
        yield TooSmall(self.t)
        with Vertical(classes="game"):
            yield Static(id="review-head")
            with Vertical(id="review-progress"):
                yield Static(id="review-label")
                yield ProgressBar(show_eta=False, id="review-bar")
            body = VerticalScroll(id="review-body")
            body.can_focus = False  # the screen's keys scroll it: ← → choose the seat, not scroll sideways
            with body:
                yield Static(id="review-text")
            yield Static(id="review-keys")

    def on_mount(self) -> None:
        """Show the first seat's review, or start making it."""
        self.show_seat(self.seat)

    def on_unmount(self) -> None:
        """Stop a review still being made: its thread ends after the decision it is valuing."""
        self._stop_job()

    # ------------------------------------------------------------------ seats and their reviews

    def show_seat(self, seat: int) -> None:
        """Show ``seat``'s review, starting it if it has not been made (a review being made for
        another seat is stopped)."""
        self._stop_job()
        self.seat = seat
        self.failure = None
        self.query_one("#review-body", VerticalScroll).scroll_home(animate=False)
        if seat not in self.reviews:
            job = self.job = ReviewJob(self.record, seat, self.worlds, self.preparation)
            self._poll = self.set_interval(POLL_SECONDS, self._progress)
            self.run_worker(self._work(job), name="review", group="review", exit_on_error=False)
        self._draw()

    async def _work(self, job: ReviewJob) -> None:
        try:
            review = await off_thread(job.run)
        except Exception as error:  # say why, rather than a progress bar that never ends
            if job is self.job:
                self.failure = error_words(error, self.names, self.t)
                self._finish()
            return
        if review is not None:
            self.reviews[job.seat] = review
            if job.seat == YOU and self.kept is not None:  # thirtyone stats reads it, never makes it again
                seed, rollouts = REVIEW_SEED, job.rollouts
                keep_review(self.kept, review, worlds=self.worlds, seconds=None, seed=seed, rollouts=rollouts)
        if job is self.job:
            self._finish()

    def _finish(self) -> None:
        self._stop_job()
        if self.is_attached:
            self._draw()

    def _stop_job(self) -> None:
        if self.job is not None:
            self.job.cancel()
            self.job = None
        if self._poll is not None:
            self._poll.stop()
            self._poll = None

    def _progress(self) -> None:
        job = self.job
        if job is not None and job.total is not None:
            self.query_one("#review-bar", ProgressBar).update(total=max(job.total, 1), progress=job.done)

    # ------------------------------------------------------------------ drawing

    def _draw(self) -> None:
        t = self.t
        working = self.job is not None
        self.query_one("#review-head", Static).update(self.heading())
        self.query_one("#review-progress").display = working
        if working:
            budget = say_plural(t, "review.budget_worlds", self.worlds, "dim", seed=t.number(REVIEW_SEED))
            self.query_one("#review-label", Static).update(Text.assemble((progress_label(t), "bold"), "\n", budget))
            self.query_one("#review-bar", ProgressBar).update(total=None, progress=0)
        self.query_one("#review-text", Static).update("" if working else self.body())
        keys = [(KEY_NAMES["escape"], "tui.key.cancel" if working else "tui.key.back")]
        if len(self.names) > 1:
            keys.append(("tab", "tui.key.next_seat"))
        if not working:
            keys.append(("↑↓", "tui.key.scroll"))
        keys.append(("q", "tui.key.quit"))
        line = Text("  ").join(Text.assemble((f" {key} ", "bold reverse"), f" {t(label)}") for key, label in keys)
        self.query_one("#review-keys", Static).update(line)

    def heading(self) -> Text:
        """The heading and every seat's name, the one reviewed in reverse."""
        seats = Text(" ").join(
            Text(f" {escaped(name)} ", style="bold reverse" if seat == self.seat else "dim")
            for seat, name in enumerate(self.names)
        )
        return Text.assemble((self.t("tui.review.heading"), "bold"), "  ").append_text(seats)

    def body(self) -> RenderableType:
        """The seat's review (:func:`~thirtyone.tui.review_text.seat_lines`: its summary, its decisions
        in a table with the marks, its costliest decisions in a sentence each), then what the
        review is (its budget, the legend, the marks' thresholds); or why it could not be made."""
        t = self.t
        if self.failure is not None:
            return say(t, "tui.review.failed", "bold red", error=self.failure)
        review = self.reviews[self.seat]
        names = [escaped(name) for name in self.names]
        return Group(*seat_lines(t, review, review.summaries[0], names), Text(""), *about_lines(t, review))

    # ------------------------------------------------------------------ keys

    def on_key(self, event: events.Key) -> None:
        """The screen's keys (see the module docstring); every other key is dropped here (``q``,
        ctrl+q and ctrl+c go on to the app, which quits), and so is a key that comes after
        ``escape`` closed the screen (a burst) or while the terminal is too small."""
        if key_name(event.key) in WAYS_OUT:
            return
        event.stop()
        event.prevent_default()
        if self._closed or self.app.screen is not self or self.app.has_class("-too-small"):
            return
        key = event.key
        if key == "escape":
            self._closed = True
            self._stop_job()
            self.dismiss(None)
        elif key in SEAT_KEYS and len(self.names) > 1:
            self.show_seat((self.seat + SEAT_KEYS[key]) % len(self.names))
        elif key in SCROLL_KEYS:
            body = self.query_one("#review-body", VerticalScroll)
            getattr(body, SCROLL_KEYS[key])(animate=False)
