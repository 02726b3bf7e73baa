"""A play session without a screen: the games one person plays in seat 0 against bots.

The terminal app drives it (its pace is the app's: :mod:`thirtyone.tui.pacing`); tests and other
faces can too. Moves and deals go through the one table loop (:mod:`thirtyone.table_loop`), and the
game takes its chance steps one at a time (``Game(..., explicit_chance=True)``): the move that ends
a round leaves the table as the round ended, and the next deal waits until
:meth:`PlaySession.deal_next` takes it (the app does when the person closes the showdown); a round
ended on its deal (a 31, R5.2) waits in the same way. The first dealer, the first deal and every
reshuffle nobody needs to see are taken at once.

>>> from thirtyone.rules import Rules
>>> from thirtyone.tui.settings import PlaySettings
>>> session = PlaySession(PlaySettings.create(Rules.preset("scat"), players=3, seed=5, fast=True))
>>> session.game.players, session.game_number
(3, 1)
>>> while not session.game.is_over:
...     if session.round_over:
...         session.deal_next()
...     elif session.human_to_move:
...         session.play(session.view().legal_actions[0])
...     else:
...         assert session.bot_move() is None
>>> session.game.winner is not None, [type(event).__name__ for event in session.next_events()][:2]
(True, ['RoundStarted', 'Acted'])

Without a seed the session picks one (:data:`SEED_RANGE`), so that every game has a seed to
show and to replay with ``--seed``:

>>> picked = PlaySession(PlaySettings.create(Rules.preset("scat"), players=2))
>>> 0 <= picked.game_seed < SEED_RANGE
True
>>> again = PlaySession(PlaySettings.create(Rules.preset("scat"), players=2, seed=picked.game_seed))
>>> again.game.hand(0) == picked.game.hand(0)
True

A hint asks a fresh expert, seeded from the game's seed and the position, about the person's view:

>>> session = PlaySession(PlaySettings.create(Rules.preset("scat"), players=2, seed=5, hint_worlds=5))
>>> session.human_to_move, session.hint_seed() == session.hint_seed()
(True, True)
>>> analysis = session.hint_bot().analyse(session.view())
>>> analysis.best in session.view().legal_actions, analysis.estimates[0].worlds
(True, 5)
"""

from __future__ import annotations

import dataclasses
import random
import secrets
from collections.abc import Callable
from collections.abc import Iterator
from dataclasses import dataclass

from thirtyone.actions import Action
from thirtyone.bots import make_bot
from thirtyone.bots.base import Bot
from thirtyone.bots.expert import ExpertBot
from thirtyone.bots.turn import BotFailure
from thirtyone.bots.turn import choose
from thirtyone.chance import ChanceStep
from thirtyone.engine import Game
from thirtyone.errors import ThirtyOneError
from thirtyone.events import Acted
from thirtyone.events import Event
from thirtyone.events import RoundEnded
from thirtyone.events import RoundStarted
from thirtyone.record import GameRecord
from thirtyone.table_loop import WAIT
from thirtyone.table_loop import Wait
from thirtyone.table_loop import next_seat
from thirtyone.table_loop import play
from thirtyone.text import refusal
from thirtyone.tui.settings import PlayError
from thirtyone.tui.settings import PlaySettings
from thirtyone.tui.settings import play_bot_spec
from thirtyone.views import PlayerView

__all__ = ["PlaySession", "BotTurn", "Position", "StaleMoveError", "HUMAN", "SEED_RANGE"]

HUMAN = 0
"""The person's seat."""

SEED_RANGE = 1_000_000
"""A session started without a seed plays its first game with a seed picked from
``0 … SEED_RANGE - 1``: short enough to read off the screen and type as ``--seed``."""


def _unseen(step: ChanceStep) -> Wait | None:
    """A session's dealer (:mod:`thirtyone.table_loop`): the chance steps nobody needs to see — the
    first dealer, the first deal, a reshuffle (R3.1, R3.2, R4.3) — from the game's seed at once; a
    deal after a round's end waits (:attr:`PlaySession.round_over`)."""
    return WAIT if step.kind == "deal" and step.round > 1 else None


class StaleMoveError(ThirtyOneError):
    """A bot's move chosen for a position play has since left (nothing was played)."""


Position = tuple[int, int]
"""Where a session stands: the game's number and how many events it has had. Every move adds an
event, so a position names one moment of play (a hint or a bot's choice is for one position)."""


@dataclass(frozen=True)
class BotTurn:
    """A bot's move to make: the seat, its bot, what it may see, and the position it is for.
    ``choose(turn.bot, turn.view)`` (:func:`thirtyone.bots.turn.choose`) may run on another
    thread: the view is a snapshot."""

    seat: int
    bot: Bot
    view: PlayerView
    position: Position


class PlaySession:
    """The current game, its bots and what the person has been shown of it.

    The first game of a session with a seed uses that seed, so ``--seed 5`` plays the same game
    as ``Game(rules, players, seed=5)``; each further game gets the next seed derived from it, as
    short as a picked one (below :data:`SEED_RANGE`), so that every title has room for it.
    Without a seed the session picks one at random (below :data:`SEED_RANGE`, from
    :mod:`secrets`) and goes on as if it had been given: every game has a ``game_seed``, which
    ``--seed`` replays.
    The bot in seat ``s`` is seeded with ``game_seed + s``; an ``expert`` (``hard``) bot named
    without a budget thinks :data:`~thirtyone.tui.settings.PLAY_EXPERT_SECONDS` per move.
    ``simulator_ready`` is given to every expert of the session, the bots' and the hints'
    (:attr:`~thirtyone.bots.expert.ExpertBot.simulator_ready`): while it returns ``False`` they
    search on the engine.
    """

    def __init__(self, settings: PlaySettings, *, simulator_ready: Callable[[], bool] | None = None) -> None:
        self.settings = settings
        self.simulator_ready = simulator_ready
        self.names = settings.seat_names()
        self.first_seed = secrets.randbelow(SEED_RANGE) if settings.seed is None else settings.seed
        """The seed of the session's first game: the settings' seed, or the one picked."""
        self._seeds = random.Random(self.first_seed)
        self.game_number = 0
        self.game_seed: int = self.first_seed
        """The seed of the current game (``--seed`` with it replays the game as a first game)."""
        self.game: Game
        self.bots: dict[int, Bot] = {}
        self._seen = 0
        self.new_game()

    def new_game(self) -> None:
        """Deal a new game (the next of the session)."""
        self.game_number += 1
        self.game_seed = self.first_seed if self.game_number == 1 else self._seeds.randrange(SEED_RANGE)
        seed = self.game_seed
        self.game = Game(self.settings.rules, self.settings.players, seed=seed, explicit_chance=True)
        self.bots = {
            seat: make_bot(play_bot_spec(name), seed + seat) for seat, name in enumerate(self.settings.bots, start=1)
        }
        for bot in self.bots.values():
            if isinstance(bot, ExpertBot):
                bot.simulator_ready = self.simulator_ready
        self._seen = 0
        self._take_unseen()
        if self.game_number == 1 and self.settings.resume is not None:
            self._resume(self.settings.resume)

    def _resume(self, record: GameRecord) -> None:
        """Play ``record``'s moves again from this game's first deal (``--resume``): each round
        dealt as the record says it was (so the seed is the record's, and the deals to come are
        its too), each bot choosing its recorded turn again as it did (its random source goes on
        as it would have; an ``expert``'s searches are not made again: it goes on from its seed).
        A round the record ends with, when the next deal waits, is followed by that deal.

        Raises:
            PlayError: when the record is not this game: other rules, a deal the seed does not
                deal, or a move that cannot be played.
        """
        if record.rules != self.settings.rules or len(record.seats) != self.settings.players:
            raise PlayError("its rules and players are not those its comment says deal it again")
        for number, past in enumerate(record.rounds):
            if number:
                self.deal_next()
            if self.game.round_logs[-1].deck != past.deck:
                raise PlayError(f"round {past.round} was not dealt by seed {self.game_seed}, as its comment says")
            for seat, action in past.actions:
                bot = self.bots.get(seat)
                if bot is not None and not isinstance(bot, ExpertBot):
                    choose(bot, self.game.view(seat))  # the bot's random source as it was
                try:
                    self._apply(action, seat)
                except ThirtyOneError as error:
                    raise PlayError(f"round {past.round}: {action} cannot be played again: {error}") from None
        if self.round_over and not self.game.is_over:
            self.deal_next()

    @property
    def round_over(self) -> bool:
        """True while the table shows a round that has ended: its next deal waits for
        :meth:`deal_next`, or the game is over."""
        step = self.game.chance_step
        return self.game.is_over or (step is not None and _unseen(step) is WAIT)

    def deal_next(self) -> None:
        """Take the next round's deal, which waits while a round's end shows.

        Raises:
            IllegalActionError: when no deal is due (code ``no_chance_due``: a round is under way,
                or the game is over); nothing changes.
        """
        self.game.deal()  # the only chance step that waits: the others are taken at once
        self._take_unseen()

    def _take_unseen(self) -> None:
        """Take the chance steps nobody needs to see (:func:`_unseen`)."""
        next_seat(self.game, _unseen)

    def view(self) -> PlayerView:
        """What the person (seat 0) may know now. While a round's end shows, the table as the
        round left it, with the person's hand and the knocker as its result says (the engine
        shows no hand between rounds; after a 31 the person still sees their own, R5.1; a throw
        down counts as the knock, R6.6, and a knock the empty stock voided is none, R4.3)."""
        view = self.game.view(HUMAN)
        shown = view.last_result
        if not self.round_over or shown is None:
            return view
        return dataclasses.replace(view, hand=shown.hands[HUMAN], hand_value=shown.values[HUMAN], knocker=shown.knocker)

    @property
    def human_to_move(self) -> bool:
        """True when the game waits for the person."""
        return self.game.current_seat == HUMAN

    @property
    def position(self) -> Position:
        """Where play stands now (see :data:`Position`)."""
        return (self.game_number, len(self.game.events))

    def hint_seed(self) -> int:
        """The seed of the expert that answers a hint now: drawn from the game's seed and the
        position, so the same ``--seed`` gives the same hints."""
        return random.Random(f"hint {self.game_seed} {len(self.game.events)}").getrandbits(63)

    def hint_bot(self) -> ExpertBot:
        """A fresh expert to analyse the person's view now, with the hint budget of the settings:
        ``hint_worlds`` sampled deals exactly when set, else as many as ``hint_seconds`` allow."""
        worlds = self.settings.hint_worlds
        if worlds is not None:
            bot = ExpertBot(self.hint_seed(), worlds=worlds, seconds=None)
        else:
            bot = ExpertBot(self.hint_seed(), worlds=1_000_000, seconds=self.settings.hint_seconds)
        bot.simulator_ready = self.simulator_ready
        return bot

    @property
    def has_expert(self) -> bool:
        """True when a bot of the game searches (an expert)."""
        return any(isinstance(bot, ExpertBot) for bot in self.bots.values())

    def bot_thinks(self) -> bool:
        """True when the bot to move searches (an expert), so its choice should be made off the
        screen's thread; the other bots choose in well under a millisecond."""
        seat = self.game.current_seat
        return seat is not None and isinstance(self.bots.get(seat), ExpertBot)

    def play(self, action: Action) -> None:
        """Play the person's ``action``.

        Raises:
            IllegalActionError: when it is not the person's move or the rules forbid the action;
                the message names the rule and the game is unchanged.
        """
        self._apply(action, HUMAN)

    def _apply(self, action: Action, seat: int) -> None:
        play(self.game, action, seat, _unseen)

    def turn_continues(self) -> bool:
        """True when the seat to move made the last move of this round: its turn goes on (a
        discard after a draw), so a paced bot plays on without another pause."""
        seat = self.game.current_seat
        for event in reversed(self.game.events):
            if isinstance(event, Acted):
                return event.seat == seat
            if isinstance(event, (RoundStarted, RoundEnded)):
                return False
        return False

    def bot_move(self) -> BotFailure | None:
        """Let the bot to move choose (:func:`~thirtyone.bots.turn.choose`) and play; returns
        ``None``, or the bot's failure (nothing is played).

        Raises:
            IllegalActionError: when it is not a bot's move.
        """
        turn = self.bot_turn()
        return self.play_bot(turn, choose(turn.bot, turn.view))

    def bot_turn(self) -> BotTurn:
        """The bot move to make now, for choosing it apart (:meth:`play_bot` plays it).

        Raises:
            IllegalActionError: when it is not a bot's move (the game is over, a deal is due, or
                the person is to move).
        """
        seat = self.game.current_seat
        if seat is None:
            raise refusal("chance_due" if self.game.is_chance() else "game_over")
        if seat == HUMAN:
            raise refusal("not_your_turn", seats=(HUMAN,))
        return BotTurn(seat, self.bots[seat], self.game.view(seat), self.position)

    def play_bot(self, turn: BotTurn, choice: Action | BotFailure) -> BotFailure | None:
        """Play what the bot chose for ``turn`` (:func:`~thirtyone.bots.turn.choose`'s answer: one
        of the view's legal actions, or why it gave none); returns ``None``, or the failure
        (nothing is played).

        Raises:
            StaleMoveError: when play has moved on since ``turn`` (nothing is played).
        """
        if turn.position != self.position:
            raise StaleMoveError(f"seat {turn.seat}'s move was chosen for a position that has passed")
        if isinstance(choice, BotFailure):
            return choice
        self._apply(choice, turn.seat)  # legal in the view of this very position: the engine takes it
        return None

    def next_events(self) -> Iterator[Event]:
        """The events the person has not been shown yet, as seat 0 sees them, one at a time.

        Each is marked as shown when it is yielded, so a caller may stop after a ``RoundEnded``
        and come back for the rest later.
        """
        events = self.game.events
        while self._seen < len(events):
            index = self._seen
            self._seen += 1
            yield events[index].for_seat(HUMAN)

    @property
    def has_played(self) -> bool:
        """True once anything happened in the current game (an action or a round's end)."""
        return any(isinstance(event, (Acted, RoundEnded)) for event in self.game.events)
